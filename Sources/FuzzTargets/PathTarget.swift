import FileAccess
import Foundation

extension FuzzTargets {
    /// The path checker against a real tree of links: the input is a path (UTF-8, relative to a granted
    /// directory). Whenever the checker says it lies in the granted directory, what the kernel opens for it
    /// (without following links, as every capability-checked call does) is in that directory too; and when
    /// the kernel's own resolution (`realpath`) finds an existing file, the checker agrees with it about being
    /// inside or outside.
    public static func path(_ bytes: [UInt8]) {
        let tree = PathFuzzTree.shared
        let text = String(decoding: bytes.filter { $0 != 0 }, as: UTF8.self)
        let resolved = ResolvedPath(text, relativeTo: tree.granted.path)
        let inside = resolved.isWithin(tree.granted)
        var real = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let absolute = text.hasPrefix("/") ? text : tree.granted.path + "/" + text
        if Glibc.realpath(absolute, &real) != nil {
            let kernel = ResolvedPath(String(cString: real))
            precondition(
                kernel.isWithin(tree.granted) == inside || !inside,
                "'\(text)' resolves to \(resolved) (inside) but the kernel reaches \(kernel)")
        }
        guard inside else { return }
        guard let fd = try? resolved.open(O_PATH) else { return }
        defer { close(fd) }
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(fd)", &target, target.count - 1)
        precondition(count > 0, "cannot read the opened path of '\(text)'")
        let opened = ResolvedPath(String(decoding: target.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        precondition(opened.isWithin(tree.granted), "'\(text)' was checked inside but opened \(opened)")
    }
}

/// A scratch tree made once per process: `granted/` with files, a subdirectory and links that lead back in
/// (`self`, `in`), out (`up` → `..`, `abs` → `/etc`, `dotdot` → `sub/../..`), nowhere (`dangling`), round in
/// a loop (`loop`), and a chain of 45 (`c0` → … → `c44` → `..`), beside `outside/secret`.
final class PathFuzzTree: Sendable {
    static let shared = PathFuzzTree()
    let granted: ResolvedPath

    private init() {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("jsbridge-fuzz-path-\(getpid())")
        let fm = FileManager.default
        try? fm.removeItem(at: root)
        let base = ResolvedPath(root.path)
        let granted = base.path + "/granted"
        try! fm.createDirectory(atPath: granted + "/sub/deeper", withIntermediateDirectories: true)
        try! fm.createDirectory(atPath: base.path + "/outside", withIntermediateDirectories: true)
        fm.createFile(atPath: granted + "/file", contents: Data("in".utf8))
        fm.createFile(atPath: granted + "/caf\u{E9}", contents: Data("in".utf8))
        fm.createFile(atPath: granted + "/sub/deeper/x", contents: Data("in".utf8))
        fm.createFile(atPath: base.path + "/outside/secret", contents: Data("out".utf8))
        let links: [(String, String)] = [
            ("self", "."), ("in", "sub/deeper"), ("up", ".."), ("abs", "/etc"), ("dotdot", "sub/../.."),
            ("dangling", "nowhere/at/all"), ("loop", "loop"), ("sub/back", "../up"), ("sub/deeper/top", "../../.."),
        ]
        for (name, target) in links { symlink(target, granted + "/" + name) }
        for index in 0..<45 { symlink(index == 44 ? ".." : "c\(index + 1)", granted + "/c\(index)") }
        self.granted = ResolvedPath(granted)
    }
}
