import FileAccess

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
        // Bytes, as Linux compares names: `café` does not cover `cafe\u{301}`.
        covers: { granted, requested in ResolvedPath.isWithin(requested.utf8, granted.utf8) })
}

extension Permissions {
    /// Throws `PERMISSION_DENIED` naming the flag (`--allow-read=/etc/shadow`) unless `path`, resolved, is
    /// granted for `capability` (``Capability/read`` or ``Capability/write``); returns the resolved path, to be
    /// opened with ``ResolvedPath/open(_:mode:)`` or ``ResolvedPath/openParent()``, which follow no link, so
    /// the object checked is the object used.
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
