import FileSystemCore
import JSBridgeCore

/// The actions' bodies: check the paths, run the core operation, report errors against the paths the script
/// gave.
extension FileSystemPlugin {
    /// A path the script gave, resolved and checked for a capability; the given text is kept for error messages.
    struct CheckedPath {
        var given: String
        /// Nil for the empty path, which names nothing.
        var checked: ResolvedPath?

        /// The resolved path; `ENOENT` for `syscall` when the script gave an empty one, as Node.
        func resolved(_ syscall: String) throws(FileSystemError) -> ResolvedPath {
            guard let checked else { throw .notFound(syscall: syscall, path: given) }
            return checked
        }
    }

    /// `given`, the argument at `argument`, resolved and checked for `capability`.
    static func path(
        _ given: String, at argument: String, _ capability: Capability, _ context: PluginContext<Self>,
        followingFinalLink: Bool = true
    ) throws(BridgeError) -> CheckedPath {
        guard !given.utf8.contains(0) else {
            throw BridgeError.invalidArgument(at: argument, "must not contain NUL bytes")
        }
        // Node resolves an empty path to nothing: ENOENT, checked like the working directory.
        let resolved = try context.requirePath(
            capability, given.isEmpty ? "." : given,
            followingFinalLink: followingFinalLink)
        return CheckedPath(given: given, checked: given.isEmpty ? nil : resolved)
    }

    /// Runs `body`, reporting a file-system error against the given paths.
    static func run<T>(_ path: CheckedPath, dest: CheckedPath? = nil, _ body: () throws(FileSystemError) -> T)
        throws(FileSystemError) -> T
    {
        do throws(FileSystemError) {
            return try body()
        } catch {
            throw error.reported(path: path.given, dest: dest?.given)
        }
    }

    /// The encoding named at `argument`, if any.
    static func encoding(_ name: EncodingName?, at argument: String) throws(BridgeError) -> TextEncoding? {
        guard let name = name?.name else { return nil }
        guard let encoding = TextEncoding(named: name) else {
            throw BridgeError.invalidArgument(
                at: argument, "unknown encoding '\(name)' (utf8, base64, base64url, hex, latin1)")
        }
        return encoding
    }

    /// The permission bits at `argument`, or `fallback`.
    static func mode(_ mode: Int?, at argument: String, default fallback: Int) throws(BridgeError) -> Int {
        guard let mode else { return fallback }
        guard (0...0o7777).contains(mode) else {
            throw BridgeError.invalidArgument(at: argument, "must be a mode between 0 and 0o7777")
        }
        return mode
    }

    /// The position at `argument`, if any.
    static func position(_ position: Int?, at argument: String) throws(BridgeError) -> Int? {
        guard let position else { return nil }
        guard position >= 0 else { throw BridgeError.invalidArgument(at: argument, "must not be negative") }
        return position
    }

    /// The contents to write: the array form's text, bytes at `data`, text staged under `token`, or text at
    /// `data` (none: empty).
    static func contents<Options>(
        _ args: Writing<Options>, data: WriteData?, token: Int?, _ context: PluginContext<Self>
    ) throws(BridgeError) -> Contents {
        if let text = args.text { return .text(text) }
        if case .bytes(let bytes)? = data { return .bytes(bytes) }
        if let token {
            guard let text = context.state.staged.remove(token) else {
                throw BridgeError.invalidArgument(at: "token", "no staged content \(token)")
            }
            return .text(text)
        }
        if case .text(let text)? = data { return .text(text) }
        return .text("")
    }

    // MARK: Whole files

    /// Without an encoding, the file's bytes (a `Uint8Array` in JavaScript), else its text.
    static func readFile(_ context: PluginContext<Self>, _ args: ReadFileArguments) throws -> Contents {
        let file = try path(args.path, at: "path", .read, context)
        guard let encoding = try encoding(args.encoding, at: "encoding") else {
            return .bytes(
                try run(file) { () throws(FileSystemError) in try FileOperations.readFileBytes(file.resolved("open")) })
        }
        let bytes = try run(file) { () throws(FileSystemError) in try FileOperations.readFile(file.resolved("open")) }
        guard encoding.maxTextLength(bytes.count) <= TextEncoding.maxStringLength else {
            throw FileSystemError.stringTooLong(path: file.given)
        }
        return .text(encoding.encode(bytes))
    }

    static func writeFile(_ context: PluginContext<Self>, _ args: Writing<WriteFileArguments>) throws -> Done {
        let options = args.options
        let contents = try contents(args, data: options.data, token: options.token, context)
        let file = try path(options.path, at: args.path(of: "path"), .write, context)
        let encoding = try encoding(options.encoding, at: args.path(of: "encoding")) ?? .utf8
        let mode = try mode(options.mode, at: args.path(of: "mode"), default: 0o666)
        let writeMode: FileOperations.WriteMode
        switch options.flag?.name ?? "w" {
        case "w": writeMode = .truncate
        case "a": writeMode = .append
        case "wx", "xw": writeMode = .exclusive
        case "ax", "xa": writeMode = .appendExclusive
        case let other:
            throw BridgeError.invalidArgument(at: args.path(of: "flag"), "expected w, a, wx or ax, got '\(other)'")
        }
        try run(file) { () throws(FileSystemError) in
            switch contents {
            case .bytes(let bytes):
                try FileOperations.writeFile(file.resolved("open"), bytes, mode: writeMode, permissions: mode)
            case .text(let text) where encoding == .utf8:
                try FileOperations.writeFile(file.resolved("open"), text.utf8, mode: writeMode, permissions: mode)
            case .text(let text):
                try FileOperations.writeFile(
                    file.resolved("open"), encoding.decode(text), mode: writeMode, permissions: mode)
            }
        }
        return Done()
    }

    static func truncate(_ context: PluginContext<Self>, _ args: TruncateArguments) throws -> Done {
        let file = try path(args.path, at: "path", .write, context)
        try run(file) { () throws(FileSystemError) in
            try FileOperations.truncate(file.resolved("open"), length: args.length ?? 0)
        }
        return Done()
    }

    // MARK: Directories and entries

    static func readdir(_ context: PluginContext<Self>, _ args: PathArguments) throws -> DirectoryListing {
        let dir = try path(args.path, at: "path", .read, context)
        return DirectoryListing(
            entries: try run(dir) { () throws(FileSystemError) in try FileOperations.readdir(dir.resolved("scandir")) })
    }

    static func stat(_ context: PluginContext<Self>, _ args: PathArguments, link: Bool) throws -> FileStats {
        let file = try path(args.path, at: "path", .read, context, followingFinalLink: !link)
        return try run(file) { () throws(FileSystemError) in
            try link ? FileOperations.lstat(file.resolved("lstat")) : FileOperations.stat(file.resolved("stat"))
        }
    }

    /// With `recursive`, the first directory created (null when none was); else null.
    static func mkdir(_ context: PluginContext<Self>, _ args: MkdirArguments) throws -> String? {
        let dir = try path(args.path, at: "path", .write, context)
        let recursive = args.recursive ?? false
        let mode = try mode(args.mode, at: "mode", default: 0o777)
        let first = try run(dir) { () throws(FileSystemError) in
            try FileOperations.mkdir(dir.resolved("mkdir"), recursive: recursive, mode: mode)
        }
        return recursive ? first : nil
    }

    static func rm(_ context: PluginContext<Self>, _ args: RmArguments) throws -> Done {
        let target = try path(args.path, at: "path", .write, context, followingFinalLink: false)
        try run(target) { () throws(FileSystemError) in
            try FileOperations.rm(target.resolved("rm"), recursive: args.recursive ?? false, force: args.force ?? false)
        }
        return Done()
    }

    static func rmdir(_ context: PluginContext<Self>, _ args: PathArguments) throws -> Done {
        let dir = try path(args.path, at: "path", .write, context, followingFinalLink: false)
        try run(dir) { () throws(FileSystemError) in try FileOperations.rmdir(dir.resolved("rmdir")) }
        return Done()
    }

    static func unlink(_ context: PluginContext<Self>, _ args: PathArguments) throws -> Done {
        let file = try path(args.path, at: "path", .write, context, followingFinalLink: false)
        try run(file) { () throws(FileSystemError) in try FileOperations.unlink(file.resolved("unlink")) }
        return Done()
    }

    static func rename(_ context: PluginContext<Self>, _ args: RenameArguments) throws -> Done {
        let from = try path(args.from, at: "from", .write, context, followingFinalLink: false)
        let to = try path(args.to, at: "to", .write, context, followingFinalLink: false)
        try run(from, dest: to) { () throws(FileSystemError) in
            try FileOperations.rename(from.resolved("rename"), to.resolved("rename"))
        }
        return Done()
    }

    static func copyFile(_ context: PluginContext<Self>, _ args: CopyFileArguments) throws -> Done {
        let from = try path(args.from, at: "from", .read, context)
        let to = try path(args.to, at: "to", .write, context)
        try run(from, dest: to) { () throws(FileSystemError) in
            try FileOperations.copyFile(
                from.resolved("copyfile"), to.resolved("copyfile"), exclusive: args.exclusive ?? false)
        }
        return Done()
    }

    static func access(_ context: PluginContext<Self>, _ args: AccessArguments) throws -> Done {
        let mode = args.mode ?? 0
        guard (0...7).contains(mode) else {
            throw BridgeError.invalidArgument(at: "mode", "must be F_OK (0) or a combination of R_OK, W_OK, X_OK")
        }
        // Asking whether a file is writable is a question about writing it.
        let file = try path(args.path, at: "path", mode & 2 != 0 ? .write : .read, context)
        try run(file) { () throws(FileSystemError) in
            try FileOperations.access(file.resolved("access"), mode: Int32(mode))
        }
        return Done()
    }

    static func exists(_ context: PluginContext<Self>, _ args: PathArguments) throws -> Bool {
        let file = try path(args.path, at: "path", .read, context)
        return (try? FileOperations.access(file.resolved("access"))) != nil
    }

    static func realpath(_ context: PluginContext<Self>, _ args: PathArguments) throws -> String {
        let file = try path(args.path, at: "path", .read, context)
        return try run(file) { () throws(FileSystemError) in try FileOperations.realpath(file.resolved("realpath")) }
    }

    static func symlink(_ context: PluginContext<Self>, _ args: SymlinkArguments) throws -> Done {
        let link = try path(args.path, at: "path", .write, context, followingFinalLink: false)
        do throws(FileSystemError) {
            try FileOperations.symlink(target: args.target, at: link.resolved("symlink"))
        } catch {
            throw error.reported(path: args.target, dest: link.given)
        }
        return Done()
    }

    static func readlink(_ context: PluginContext<Self>, _ args: PathArguments) throws -> String {
        let link = try path(args.path, at: "path", .read, context, followingFinalLink: false)
        return try run(link) { () throws(FileSystemError) in try FileOperations.readlink(link.resolved("readlink")) }
    }

    static func chmod(_ context: PluginContext<Self>, _ args: ChmodArguments) throws -> Done {
        let file = try path(args.path, at: "path", .write, context)
        let mode = try mode(args.mode, at: "mode", default: args.mode)
        try run(file) { () throws(FileSystemError) in try FileOperations.chmod(file.resolved("chmod"), mode: mode) }
        return Done()
    }

    // MARK: Open files

    /// The handle of the file opened.
    static func open(_ context: PluginContext<Self>, _ args: OpenArguments) throws -> Int {
        let flags = args.flags?.name ?? "r"
        guard FileHandles.openFlags(flags) != nil else {
            throw BridgeError.invalidArgument(at: "flags", "unknown flags '\(flags)' (r, r+, w, w+, wx, a, a+, ax, …)")
        }
        let reads = flags.hasPrefix("r") || flags.contains("+")
        let writes = !flags.hasPrefix("r") || flags.contains("+")
        if reads && writes {
            _ = try path(args.path, at: "path", .read, context)
        }
        let file = try path(args.path, at: "path", writes ? .write : .read, context)
        let mode = try mode(args.mode, at: "mode", default: 0o666)
        return try run(file) { () throws(FileSystemError) in
            try context.state.handles.open(file.resolved("open"), flags: flags, mode: mode)
        }
    }

    /// Without an encoding, the bytes read (a `Uint8Array` in JavaScript), else their text.
    static func read(_ context: PluginContext<Self>, _ args: ReadArguments) throws -> Contents {
        let length = args.length ?? 65536
        guard (0...(1 << 30)).contains(length) else {
            throw BridgeError.invalidArgument(at: "length", "must be between 0 and 2^30")
        }
        let position = try position(args.position, at: "position")
        guard let encoding = try encoding(args.encoding, at: "encoding") else {
            return .bytes(try context.state.handles.readBytes(args.fd, length: length, position: position))
        }
        let bytes = try context.state.handles.read(args.fd, length: length, position: position)
        return .text(encoding.encode(bytes))
    }

    /// How many bytes were written.
    static func write(_ context: PluginContext<Self>, _ args: Writing<WriteArguments>) throws -> Int {
        let options = args.options
        switch try contents(args, data: options.data, token: options.token, context) {
        case .bytes(let bytes):
            let position = try position(options.position, at: args.path(of: "position"))
            return try context.state.handles.write(options.fd, bytes, position: position)
        case .text(let text):
            let encoding = try encoding(options.encoding, at: args.path(of: "encoding")) ?? .utf8
            let position = try position(options.position, at: args.path(of: "position"))
            return try context.state.handles.write(options.fd, encoding.decode(text), position: position)
        }
    }

    static func close(_ context: PluginContext<Self>, _ args: HandleArguments) throws -> Done {
        try context.state.handles.close(args.fd)
        return Done()
    }

    static func fstat(_ context: PluginContext<Self>, _ args: HandleArguments) throws -> FileStats {
        try context.state.handles.stat(args.fd)
    }

    static func ftruncate(_ context: PluginContext<Self>, _ args: FtruncateArguments) throws -> Done {
        try context.state.handles.truncate(args.fd, length: args.length ?? 0)
        return Done()
    }
}
