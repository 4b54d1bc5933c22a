@_exported import FileCore
import FileSystemCore
import JSBridgeCore

/// `File`: the native service of cordova-plugin-file, over the runtime's file operations (the FileSystem
/// plugin's core) and its one path checker (`Permissions.checkPath`): every request needs `--allow-read` or
/// `--allow-write` for its path and stays inside the app's file systems under the storage directory
/// (`<storage>/files/<app id>/persistent`, `temporary`, `cache`, `data`). A thin adapter over ``CordovaFiles``
/// (docs/cordova.md, "Core services").
///
/// The actions take cordova-plugin-file's exec arguments (arrays, by position) and answer what its `www/`
/// files expect: entries `{isFile, isDirectory, name, fullPath, filesystemName, filesystem, nativeURL}`,
/// metadata, text, `data:` URLs, bytes (a `Uint8Array`), numbers. A failure hands the exec's fail callback the
/// `FileError` number (1 `NOT_FOUND_ERR`, 2 `SECURITY_ERR`, …), as the plugin's native side does; through
/// `bridge.call` it is a `BridgeError` whose `code` is the constant's name (`NOT_FOUND_ERR`).
public struct FilePlugin: BridgePlugin {
    public static let name = "File"

    public init() {}

    public func setUp(_ context: SetUpContext<Self>) async throws -> CordovaFiles {
        let permissions = context.permissions
        return CordovaFiles(storageDirectory: context.storage.directory, appID: context.storage.appID) {
            (write, path) throws(BridgeError) in
            try permissions.checkPath(write ? .write : .read, path)
        }
    }

    public static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.capability(.read)
        plugin.capability(.write)
        // Start-up (fileSystemPaths.js, fileSystems-roots.js): the app's folders, no file touched.
        action(&plugin, "requestAllPaths") { files, _ in files.allPaths() }
        action(&plugin, "requestAllFileSystems") { files, _ in files.allFileSystems() }
        action(&plugin, "requestFileSystem") { files, args in
            try files.requestFileSystem(type: Int(args.number(0) ?? -1), size: args.number(1) ?? 0)
        }
        action(&plugin, "resolveLocalFileSystemURI") { files, args in try files.resolveURL(args.text(0)) }
        action(&plugin, "getFile") { files, args in
            try files.get(
                args.text(0), args.text(1), create: args.flag(2, "create"), exclusive: args.flag(2, "exclusive"),
                directory: false)
        }
        action(&plugin, "getDirectory") { files, args in
            try files.get(
                args.text(0), args.text(1), create: args.flag(2, "create"), exclusive: args.flag(2, "exclusive"),
                directory: true)
        }
        action(&plugin, "getParent") { files, args in try files.parent(args.text(0)) }
        action(&plugin, "readEntries") { files, args in try files.readEntries(args.text(0)) }
        action(&plugin, "remove") { files, args in
            try files.remove(args.text(0), recursively: false)
            return .null
        }
        action(&plugin, "removeRecursively") { files, args in
            try files.remove(args.text(0), recursively: true)
            return .null
        }
        action(&plugin, "getFileMetadata") { files, args in try files.fileMetadata(args.text(0)) }
        action(&plugin, "getMetadata") { files, args in try files.metadata(args.text(0)) }
        // Reads: [url, start, end], readAsText with the encoding second.
        action(&plugin, "readAsText") { files, args in
            let encoding = args.text(1).isEmpty ? "UTF-8" : args.text(1)
            guard let text = TextEncoding(named: encoding), text == .utf8 || text == .latin1 else {
                throw CordovaFileError(.encoding, "readAsText reads UTF-8 or ISO-8859-1, not '\(encoding)'")
            }
            return .string(text.encode(try files.read(args.text(0), start: args.int(2), end: args.int(3))))
        }
        action(&plugin, "readAsDataURL") { files, args in
            .string(try files.dataURL(args.text(0), start: args.int(1), end: args.int(2)))
        }
        action(&plugin, "readAsBinaryString") { files, args in
            .string(TextEncoding.latin1.encode(try files.read(args.text(0), start: args.int(1), end: args.int(2))))
        }
        bytesAction(&plugin, "readAsArrayBuffer") { files, args in
            BridgeValue(bytes: Bytes(try files.read(args.text(0), start: args.int(1), end: args.int(2))))
        }
        // write: [url, data (text, or an ArrayBuffer's bytes), position, isBinary].
        action(&plugin, "write") { files, args in
            let bytes = args.bytes(1) ?? Array(args.text(1).utf8)
            return .number(Double(try files.write(args.text(0), bytes, position: args.int(2))))
        }
        action(&plugin, "truncate") { files, args in
            .number(Double(try files.truncate(args.text(0), size: args.int(1))))
        }
        action(&plugin, "moveTo") { files, args in
            try files.transfer(args.text(0), to: args.text(1), name: args.text(2), move: true)
        }
        action(&plugin, "copyTo") { files, args in
            try files.transfer(args.text(0), to: args.text(1), name: args.text(2), move: false)
        }
    }

    /// Declares `name`, an async action over ``CordovaFiles`` with cordova-plugin-file's positional arguments
    /// answering bytes beside the JSON, whose ``CordovaFileError`` becomes the `FileError` number Cordova's fail
    /// callback gets.
    static func bytesAction(
        _ plugin: inout PluginDeclaration<Self>, _ name: String,
        _ body: @escaping @Sendable (CordovaFiles, FileArguments) throws -> BridgeValue
    ) {
        plugin.async(name, args: BridgeValue.self) { context, args in
            do {
                return try body(context.state, FileArguments(args))
            } catch let error as CordovaFileError {
                throw BridgeError.cordova(
                    code: error.code.name, message: "\(name): \(error.message)",
                    payload: .number(Double(error.code.rawValue)))
            }
        }
    }

    /// ``bytesAction(_:_:_:)`` answering plain JSON.
    static func action(
        _ plugin: inout PluginDeclaration<Self>, _ name: String,
        _ body: @escaping @Sendable (CordovaFiles, FileArguments) throws -> JSONValue
    ) {
        bytesAction(&plugin, name) { files, args in
            BridgeValue(try body(files, args))
        }
    }
}

/// cordova-plugin-file's exec arguments, by position (one argument alone arrives as itself: exec's rule).
struct FileArguments {
    let value: BridgeValue
    let list: [JSONValue]

    init(_ value: BridgeValue) {
        self.value = value
        switch value.json {
        case .array(let items): list = items
        case .null: list = []
        default: list = [value.json]
        }
    }

    func at(_ index: Int) -> JSONValue { index < list.count ? list[index] : .null }

    /// The text at `index` ("" when absent or not text).
    func text(_ index: Int) -> String { at(index).stringValue ?? "" }

    func number(_ index: Int) -> Double? { at(index).doubleValue }

    /// The whole number at `index` (0 when absent).
    func int(_ index: Int) -> Int {
        guard let number = number(index), number.isFinite else { return 0 }
        return Int(max(min(number, Double(Int32.max)), Double(Int32.min)))
    }

    /// Member `key` of the flags object at `index` (`{create, exclusive}`).
    func flag(_ index: Int, _ key: String) -> Bool {
        if case .bool(let flag)? = at(index)[key] { return flag }
        return false
    }

    /// The bytes sent at `index` (an `ArrayBuffer` or typed array), if any.
    func bytes(_ index: Int) -> [UInt8]? {
        let path: [JSONPathComponent] = list.count == 1 && value.json.arrayValue == nil ? [] : [.index(index)]
        guard let attachment = value.bytes.first(where: { $0.path == path }) else { return nil }
        return Array(attachment.bytes)
    }
}
