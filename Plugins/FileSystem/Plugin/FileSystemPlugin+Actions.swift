import FileSystemCore
import JSBridgeCore

/// The actions' bodies: read the arguments, check the paths, run the core operation, report errors against
/// the paths the script gave.
extension FileSystemPlugin {
    /// The path at `key`, resolved and checked for `capability`; the given text is kept for error messages.
    struct CheckedPath {
        var given: String
        var resolved: String
    }

    static func path(
        _ reader: ArgumentReader, _ key: String, _ capability: Capability, _ context: PluginContext<Self>,
        followingFinalLink: Bool = true
    ) throws(BridgeError) -> CheckedPath {
        let given = try reader.requiredString(key)
        guard !given.utf8.contains(0) else {
            throw BridgeError.invalidArgument(at: reader.path(of: key), "must not contain NUL bytes")
        }
        // Node resolves an empty path to nothing: ENOENT, checked like the working directory.
        let resolved = try context.requirePath(
            capability, given.isEmpty ? "." : given,
            followingFinalLink: followingFinalLink)
        return CheckedPath(given: given, resolved: given.isEmpty ? "" : resolved.path)
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

    static func encoding(_ reader: ArgumentReader, _ key: String = "encoding") throws(BridgeError) -> TextEncoding? {
        guard let name = try reader.string(key) else { return nil }
        guard let encoding = TextEncoding(named: name) else {
            throw BridgeError.invalidArgument(
                at: reader.path(of: key), "unknown encoding '\(name)' (utf8, base64, base64url, hex, latin1)")
        }
        return encoding
    }

    static func mode(_ reader: ArgumentReader, _ key: String = "mode", default fallback: Int) throws(BridgeError) -> Int
    {
        guard let mode = try reader.int(key) else { return fallback }
        guard (0...0o7777).contains(mode) else {
            throw BridgeError.invalidArgument(at: reader.path(of: key), "must be a mode between 0 and 0o7777")
        }
        return mode
    }

    /// The bytes a script sent at `key` beside the JSON (a `Uint8Array`, `ArrayBuffer` or other view).
    static func sentBytes(_ args: BridgeValue, _ key: String) -> Bytes? {
        args.bytes.first { $0.path == [.key(key)] }?.bytes
    }

    /// Text to hand back: inside the answer when small, else staged for `take`.
    static func answer(_ text: String, _ context: PluginContext<Self>) -> JSONValue {
        text.utf8.count <= inlineLimit
            ? ["data": .string(text)] : ["token": .number(Double(context.state.staged.insert(text)))]
    }

    /// Content arriving from JavaScript: `[options, data]` (a string argument inside an array crosses without
    /// JSON text), or `options` with `data` or a `token` from `stage`.
    static func content(_ args: JSONValue, _ context: PluginContext<Self>) throws(BridgeError)
        -> (reader: ArgumentReader, text: String)
    {
        if case .array(let parts) = args, parts.count == 2 {
            guard case .string(let text) = parts[1] else {
                throw BridgeError.invalidArgument(at: "[1]", "expected a string, got \(parts[1].kindDescription)")
            }
            return (try ArgumentReader(parts[0], at: "[0]"), text)
        }
        let reader = try ArgumentReader(args)
        if let token = try reader.int("token") {
            guard let text = context.state.staged.remove(token) else {
                throw BridgeError.invalidArgument(at: "token", "no staged content \(token)")
            }
            return (reader, text)
        }
        return (reader, try reader.string("data") ?? "")
    }

    // MARK: Whole files

    /// Without an encoding the answer is the file's bytes (a `Uint8Array` in JavaScript), else its text.
    static func readFile(_ context: PluginContext<Self>, _ args: BridgeValue) throws -> BridgeValue {
        let reader = try ArgumentReader(args.json)
        let file = try path(reader, "path", .read, context)
        guard let encoding = try Self.encoding(reader) else {
            return BridgeValue(
                bytes: try run(file) { () throws(FileSystemError) in try FileOperations.readFileBytes(file.resolved) })
        }
        let bytes = try run(file) { () throws(FileSystemError) in try FileOperations.readFile(file.resolved) }
        return BridgeValue(answer(encoding.encode(bytes), context))
    }

    static func writeFile(_ context: PluginContext<Self>, _ args: BridgeValue) throws -> BridgeValue {
        if let bytes = sentBytes(args, "data") {
            return try writeFile(context, ArgumentReader(args.json), .bytes(bytes))
        }
        let (reader, text) = try content(args.json, context)
        return try writeFile(context, reader, .text(text))
    }

    enum Contents {
        case text(String)
        case bytes(Bytes)
    }

    static func writeFile(_ context: PluginContext<Self>, _ reader: ArgumentReader, _ contents: Contents) throws
        -> BridgeValue
    {
        let file = try path(reader, "path", .write, context)
        let encoding = try Self.encoding(reader) ?? .utf8
        let mode = try Self.mode(reader, default: 0o666)
        let writeMode: FileOperations.WriteMode
        switch try reader.string("flag") ?? "w" {
        case "w": writeMode = .truncate
        case "a": writeMode = .append
        case "wx", "xw": writeMode = .exclusive
        case "ax", "xa": writeMode = .appendExclusive
        case let other:
            throw BridgeError.invalidArgument(at: reader.path(of: "flag"), "expected w, a, wx or ax, got '\(other)'")
        }
        try run(file) { () throws(FileSystemError) in
            switch contents {
            case .bytes(let bytes):
                try FileOperations.writeFile(file.resolved, bytes, mode: writeMode, permissions: mode)
            case .text(let text) where encoding == .utf8:
                try FileOperations.writeFile(file.resolved, text.utf8, mode: writeMode, permissions: mode)
            case .text(let text):
                try FileOperations.writeFile(file.resolved, encoding.decode(text), mode: writeMode, permissions: mode)
            }
        }
        return BridgeValue(.null)
    }

    static func truncate(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        let file = try path(reader, "path", .write, context)
        let length = try reader.int("length") ?? 0
        try run(file) { () throws(FileSystemError) in try FileOperations.truncate(file.resolved, length: length) }
        return .null
    }

    // MARK: Directories and entries

    static func readdir(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        let dir = try path(reader, "path", .read, context)
        let entries = try run(dir) { () throws(FileSystemError) in try FileOperations.readdir(dir.resolved) }
        return .array(entries.map { [.string($0.name), .string($0.type.rawValue)] })
    }

    static func stat(_ context: PluginContext<Self>, _ args: JSONValue, link: Bool) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        let file = try path(reader, "path", .read, context, followingFinalLink: !link)
        return try run(file) { () throws(FileSystemError) in
            try link ? FileOperations.lstat(file.resolved) : FileOperations.stat(file.resolved)
        }.json
    }

    static func mkdir(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        let dir = try path(reader, "path", .write, context)
        let recursive = try reader.bool("recursive") ?? false
        let mode = try Self.mode(reader, default: 0o777)
        let first = try run(dir) { () throws(FileSystemError) in
            try FileOperations.mkdir(dir.resolved, recursive: recursive, mode: mode)
        }
        return recursive ? first.map(JSONValue.string) ?? .null : .null
    }

    static func rm(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        let target = try path(reader, "path", .write, context, followingFinalLink: false)
        let recursive = try reader.bool("recursive") ?? false
        let force = try reader.bool("force") ?? false
        try run(target) { () throws(FileSystemError) in
            try FileOperations.rm(target.resolved, recursive: recursive, force: force)
        }
        return .null
    }

    static func rmdir(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        let dir = try path(reader, "path", .write, context, followingFinalLink: false)
        try run(dir) { () throws(FileSystemError) in try FileOperations.rmdir(dir.resolved) }
        return .null
    }

    static func unlink(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        let file = try path(reader, "path", .write, context, followingFinalLink: false)
        try run(file) { () throws(FileSystemError) in try FileOperations.unlink(file.resolved) }
        return .null
    }

    static func rename(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        let from = try path(reader, "from", .write, context, followingFinalLink: false)
        let to = try path(reader, "to", .write, context, followingFinalLink: false)
        try run(from, dest: to) { () throws(FileSystemError) in try FileOperations.rename(from.resolved, to.resolved) }
        return .null
    }

    static func copyFile(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        let from = try path(reader, "from", .read, context)
        let to = try path(reader, "to", .write, context)
        let exclusive = try reader.bool("exclusive") ?? false
        try run(from, dest: to) { () throws(FileSystemError) in
            try FileOperations.copyFile(from.resolved, to.resolved, exclusive: exclusive)
        }
        return .null
    }

    static func access(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        let mode = try reader.int("mode") ?? 0
        guard (0...7).contains(mode) else {
            throw BridgeError.invalidArgument(at: "mode", "must be F_OK (0) or a combination of R_OK, W_OK, X_OK")
        }
        // Asking whether a file is writable is a question about writing it.
        let file = try path(reader, "path", mode & 2 != 0 ? .write : .read, context)
        try run(file) { () throws(FileSystemError) in try FileOperations.access(file.resolved, mode: Int32(mode)) }
        return .null
    }

    static func exists(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        let file = try path(reader, "path", .read, context)
        return .bool(!file.resolved.isEmpty && (try? FileOperations.access(file.resolved)) != nil)
    }

    static func realpath(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        let file = try path(reader, "path", .read, context)
        return .string(try run(file) { () throws(FileSystemError) in try FileOperations.realpath(file.resolved) })
    }

    static func symlink(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        let target = try reader.requiredString("target")
        let link = try path(reader, "path", .write, context, followingFinalLink: false)
        do throws(FileSystemError) {
            try FileOperations.symlink(target: target, at: link.resolved)
        } catch {
            throw error.reported(path: target, dest: link.given)
        }
        return .null
    }

    static func readlink(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        let link = try path(reader, "path", .read, context, followingFinalLink: false)
        return .string(try run(link) { () throws(FileSystemError) in try FileOperations.readlink(link.resolved) })
    }

    static func chmod(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        let file = try path(reader, "path", .write, context)
        guard let mode = try reader.int("mode") else { throw reader.issue("mode", "is required") }
        let checked = try self.mode(reader, default: mode)
        try run(file) { () throws(FileSystemError) in try FileOperations.chmod(file.resolved, mode: checked) }
        return .null
    }

    // MARK: Open files

    static func open(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        let flags = try reader.string("flags") ?? "r"
        guard FileHandles.openFlags(flags) != nil else {
            throw BridgeError.invalidArgument(at: "flags", "unknown flags '\(flags)' (r, r+, w, w+, wx, a, a+, ax, …)")
        }
        let reads = flags.hasPrefix("r") || flags.contains("+")
        let writes = !flags.hasPrefix("r") || flags.contains("+")
        if reads && writes {
            _ = try path(reader, "path", .read, context)
        }
        let file = try path(reader, "path", writes ? .write : .read, context)
        let mode = try Self.mode(reader, default: 0o666)
        let handle = try run(file) { () throws(FileSystemError) in
            try context.state.handles.open(file.resolved, flags: flags, mode: mode)
        }
        return .number(Double(handle))
    }

    static func handle(_ reader: ArgumentReader) throws(BridgeError) -> Int {
        guard let fd = try reader.int("fd") else { throw reader.issue("fd", "is required") }
        return fd
    }

    static func position(_ reader: ArgumentReader) throws(BridgeError) -> Int? {
        guard let position = try reader.int("position") else { return nil }
        guard position >= 0 else { throw reader.issue("position", "must not be negative") }
        return position
    }

    /// Without an encoding the answer is the bytes read (a `Uint8Array` in JavaScript), else their text.
    static func read(_ context: PluginContext<Self>, _ args: BridgeValue) throws -> BridgeValue {
        let reader = try ArgumentReader(args.json)
        let fd = try handle(reader)
        let length = try reader.int("length") ?? 65536
        guard (0...(1 << 30)).contains(length) else { throw reader.issue("length", "must be between 0 and 2^30") }
        let position = try position(reader)
        guard let encoding = try Self.encoding(reader) else {
            return BridgeValue(bytes: try context.state.handles.readBytes(fd, length: length, position: position))
        }
        let bytes = try context.state.handles.read(fd, length: length, position: position)
        return BridgeValue(answer(encoding.encode(bytes), context))
    }

    static func write(_ context: PluginContext<Self>, _ args: BridgeValue) throws -> BridgeValue {
        if let bytes = sentBytes(args, "data") {
            let reader = try ArgumentReader(args.json)
            let written = try context.state.handles.write(try handle(reader), bytes, position: try position(reader))
            return BridgeValue(.number(Double(written)))
        }
        let (reader, text) = try content(args.json, context)
        let fd = try handle(reader)
        let encoding = try Self.encoding(reader) ?? .utf8
        let written = try context.state.handles.write(fd, encoding.decode(text), position: try position(reader))
        return BridgeValue(.number(Double(written)))
    }

    static func close(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        try context.state.handles.close(try handle(try ArgumentReader(args)))
        return .null
    }

    static func fstat(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        try context.state.handles.stat(try handle(try ArgumentReader(args))).json
    }

    static func ftruncate(_ context: PluginContext<Self>, _ args: JSONValue) throws -> JSONValue {
        let reader = try ArgumentReader(args)
        try context.state.handles.truncate(try handle(reader), length: try reader.int("length") ?? 0)
        return .null
    }
}
