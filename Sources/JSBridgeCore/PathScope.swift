#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Capability {
    /// Reading files and directories, scoped by path (`--allow-read`, `--allow-read=/data,./fixtures`).
    ///
    /// Shared by every plugin that opens a path a script supplies (the FileSystem plugin, HTTP uploads, DAO
    /// mock fixtures). Check a request with ``Permissions/checkPath(_:_:followingFinalLink:)``.
    public static let read = Capability("read", guards: "read access", scope: .paths)
    /// Creating, changing and removing files and directories, scoped by path (`--allow-write[=paths]`).
    public static let write = Capability("write", guards: "write access", scope: .paths)
}

extension Capability.Scope {
    /// Scopes of file-system paths: each granted path is resolved (made absolute against the working
    /// directory, symlinks followed, `.` and `..` removed) when granted, and covers itself and everything
    /// under it. Requests must be resolved the same way (``ResolvedPath``).
    public static let paths = Capability.Scope(
        valueName: "paths",
        parse: { (text) throws(CapabilityError) in
            guard !text.isEmpty else { throw CapabilityError("an empty path cannot be granted.") }
            guard !text.utf8.contains(0) else { throw CapabilityError("'\(text)' contains a NUL byte.") }
            return ResolvedPath(text).path
        },
        covers: { granted, requested in
            granted == "/" || requested == granted
                || (requested.hasPrefix(granted)
                    && requested.utf8.dropFirst(granted.utf8.count).first == UInt8(ascii: "/"))
        })
}

/// A path as the permission check sees it: absolute, with every symlink on the way followed and `.` and
/// `..` removed, so `./link-to-etc/shadow` and `granted/../../etc` are checked as where they lead.
///
/// A path that does not exist yet resolves through its deepest existing ancestor (the rest is taken as
/// written, with `..` removed), so creating `granted/new/file` is checked against `granted`.
public struct ResolvedPath: Sendable, Hashable, CustomStringConvertible {
    /// The resolved absolute path.
    public let path: String

    /// Resolves `path` against the working directory (or `base`, when given); with
    /// `followingFinalLink: false`, a final symlink is kept (`lstat`, `unlink`, `readlink`, `rename` act on
    /// the link itself), while its directory is still resolved.
    public init(_ path: String, relativeTo base: String? = nil, followingFinalLink: Bool = true) {
        var queue: [Substring] = []
        if !path.hasPrefix("/") {
            let directory = base ?? ResolvedPath.workingDirectory()
            queue = directory.split(separator: "/")
        }
        queue += path.split(separator: "/")
        self.path = ResolvedPath.resolve(queue, followingFinalLink: followingFinalLink)
    }

    public var description: String { path }

    /// The process's working directory ("/" when it cannot be read).
    static func workingDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Walks the components left to right, replacing each symlink met by its target (at most 40, as the
    /// kernel allows); once a component does not exist, the rest cannot be links and is taken as written.
    private static func resolve(_ components: [Substring], followingFinalLink: Bool) -> String {
        var pending = Array(components.reversed())
        var resolved: [Substring] = []
        var missing = false
        var links = 0
        while let component = pending.popLast() {
            if component.isEmpty || component == "." { continue }
            if component == ".." {
                // `resolved` holds no links, so its parent is the physical parent.
                if !resolved.isEmpty { resolved.removeLast() }
                missing = false
                continue
            }
            let isFinal = pending.allSatisfy { $0.isEmpty || $0 == "." }
            if !missing, followingFinalLink || !isFinal {
                let candidate = "/" + (resolved + [component]).joined(separator: "/")
                var info = stat()
                if lstat(candidate, &info) != 0 {
                    missing = true
                } else if info.st_mode & S_IFMT == S_IFLNK, links < 40, let target = readLink(candidate) {
                    links += 1
                    if target.hasPrefix("/") { resolved.removeAll() }
                    pending += target.split(separator: "/").reversed()
                    continue
                }
            }
            resolved.append(component)
        }
        return "/" + resolved.joined(separator: "/")
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension Permissions {
    /// Throws `PERMISSION_DENIED` naming the flag (`--allow-read=/etc/shadow`) unless `path`, resolved, is
    /// granted for `capability` (``Capability/read`` or ``Capability/write``); returns the resolved path, which
    /// is the one to open, so the check and the use agree.
    @discardableResult
    public func checkPath(_ capability: Capability, _ path: String, followingFinalLink: Bool = true)
        throws(BridgeError) -> ResolvedPath
    {
        let resolved = ResolvedPath(path, followingFinalLink: followingFinalLink)
        try check(capability, scope: resolved.path)
        return resolved
    }
}

extension PluginContext {
    /// Checks that the script may use `path` for `capability` (``Permissions/checkPath(_:_:followingFinalLink:)``).
    @discardableResult
    public func requirePath(_ capability: Capability, _ path: String, followingFinalLink: Bool = true)
        throws(BridgeError) -> ResolvedPath
    {
        try permissions.checkPath(capability, path, followingFinalLink: followingFinalLink)
    }
}
