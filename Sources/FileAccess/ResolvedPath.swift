#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A path as a permission check sees it: absolute, with every symlink on the way followed and `.` and `..`
/// removed, so `./link-to-etc/shadow` and `granted/../../etc` are checked as where they lead.
///
/// Names are bytes, as Linux compares them: only the byte `/` separates components (a `/` followed by a
/// combining mark is still a separator), and two paths are equal only when their bytes are (`café` and
/// `cafe\u{301}` are different files). A path that does not exist yet resolves through its deepest existing
/// ancestor (the rest is taken as written, with `..` removed), so creating `granted/new/file` is checked
/// against `granted`.
///
/// The resolved path holds no symlink and no `..` (but for a kept final link), so opening it without following
/// any link (``open(_:mode:)``) reaches the object the check saw or fails: a directory swapped for a link
/// after the check is `ELOOP`, never the link's target.
public struct ResolvedPath: Sendable, Hashable, CustomStringConvertible {
    /// The resolved absolute path's bytes.
    public let bytes: [UInt8]

    /// The resolved absolute path (names that are not UTF-8 are shown with U+FFFD).
    public var path: String { String(decoding: bytes, as: UTF8.self) }

    public var description: String { path }

    /// The most symlinks one resolution follows, as the kernel (`ELOOP` past it).
    public static let maxSymlinks = 40

    /// Resolves `path` against the working directory (or `base`, when given); with
    /// `followingFinalLink: false`, a final symlink is kept (`lstat`, `unlink`, `readlink`, `rename` act on
    /// the link itself), while its directory is still resolved.
    public init(_ path: String, relativeTo base: String? = nil, followingFinalLink: Bool = true) {
        var components: [ArraySlice<UInt8>] = []
        if path.utf8.first != UInt8(ascii: "/") {
            components = Self.split(Array((base ?? Self.workingDirectory()).utf8))
        }
        components += Self.split(Array(path.utf8))
        bytes = Self.resolve(components, followingFinalLink: followingFinalLink)
    }

    /// A path already resolved (a part of one, such as its ``parent``).
    init(resolvedBytes: [UInt8]) { bytes = resolvedBytes }

    /// The process's working directory ("/" when it cannot be read).
    public static func workingDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether this path is `other` or lies under it, comparing bytes.
    public func isWithin(_ other: ResolvedPath) -> Bool {
        Self.isWithin(bytes[...], other.bytes[...])
    }

    /// Whether the absolute path `path` is `directory` or lies under it, comparing bytes.
    public static func isWithin(_ path: some Collection<UInt8>, _ directory: some Collection<UInt8>) -> Bool {
        if directory.count == 1, directory.first == UInt8(ascii: "/") { return true }
        guard path.starts(with: directory) else { return false }
        let rest = path.dropFirst(directory.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/")
    }

    /// The parts of `path` between `/` bytes.
    static func split(_ path: [UInt8]) -> [ArraySlice<UInt8>] {
        path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
    }

    /// Walks the components left to right, replacing each symlink met by its target (at most
    /// ``maxSymlinks``: past it the component is kept as a name, and opening the path then fails with `ELOOP`,
    /// as the kernel would); once a component does not exist, the rest cannot be links and is taken as written.
    private static func resolve(_ components: [ArraySlice<UInt8>], followingFinalLink: Bool) -> [UInt8] {
        var pending = Array(components.reversed())
        var resolved: [ArraySlice<UInt8>] = []
        var missing = false
        var links = 0
        while let component = pending.popLast() {
            if isDot(component) { continue }
            if isDotDot(component) {
                // `resolved` holds no links, so its parent is the physical parent.
                if !resolved.isEmpty { resolved.removeLast() }
                missing = false
                continue
            }
            let isFinal = pending.allSatisfy(isDot)
            if !missing, followingFinalLink || !isFinal {
                let candidate = join(resolved + [component])
                var info = stat()
                if candidate.withCString({ lstat($0, &info) }) != 0 {
                    missing = true
                } else if info.st_mode & S_IFMT == S_IFLNK, links < maxSymlinks, let target = readLink(candidate) {
                    links += 1
                    if target.first == UInt8(ascii: "/") { resolved.removeAll() }
                    pending += split(target).reversed()
                    continue
                }
            }
            resolved.append(component)
        }
        return join(resolved)
    }

    static func isDot(_ component: ArraySlice<UInt8>) -> Bool {
        component.count == 1 && component.first == UInt8(ascii: ".")
    }

    static func isDotDot(_ component: ArraySlice<UInt8>) -> Bool {
        component.count == 2 && component.first == UInt8(ascii: ".") && component.last == UInt8(ascii: ".")
    }

    /// `/` and the components, separated by `/`.
    private static func join(_ components: [ArraySlice<UInt8>]) -> [UInt8] {
        guard !components.isEmpty else { return [UInt8(ascii: "/")] }
        var path: [UInt8] = []
        path.reserveCapacity(components.reduce(0) { $0 + $1.count + 1 })
        for component in components {
            path.append(UInt8(ascii: "/"))
            path += component
        }
        return path
    }

    private static func readLink(_ path: [UInt8]) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = path.withCString { name in
            buffer.withUnsafeMutableBufferPointer { readlink(name, $0.baseAddress!, $0.count - 1) }
        }
        guard count > 0 else { return nil }
        return Array(buffer[0..<count])
    }
}

extension Array where Element == UInt8 {
    /// Calls `body` with these bytes as a NUL-terminated C string.
    func withCString<T>(_ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        try (self + [0]).withUnsafeBufferPointer { bytes in
            try bytes.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }
}
