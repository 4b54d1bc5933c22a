import FileSystemCore
import JSBridgeCore

/// `FileSystem`: files and directories for scripts granted `--allow-read` / `--allow-write` (scoped by path),
/// with the `node:fs` and `node:fs/promises` modules as layers over the same actions (docs/running-scripts.md,
/// "Files and capabilities").
///
/// Every action takes its arguments as an object (`{path, …}`) and has a sync twin named `<action>Sync` for
/// Node's sync calls. Paths are resolved (symlinks followed, `..` removed) and checked before use; the
/// resolved path is the one opened, and errors name the path the script gave, with Node's codes.
///
/// Bytes cross as ``Bytes``, beside the JSON: `readFile` and `read` without an encoding answer a
/// `Uint8Array` over the buffer the file was read into, and `writeFile`/`write` take a script's bytes at
/// `data`. Large text does not cross as JSON either: `readFile` answers text over ``inlineLimit`` with a
/// token that the sync `take` turns into the string, and JavaScript hands large text to `writeFile` through
/// the sync `stage` (a string argument or result of a sync action crosses without JSON text).
public struct FileSystemPlugin: BridgePlugin {
    public static let name = "FileSystem"

    /// Contents larger than this (in bytes) cross through `take`/`stage` rather than inside the JSON answer.
    public static let inlineLimit = 256 << 10

    /// The plugin's `--config` section.
    public struct Configuration: PluginConfiguration {
        /// How many files a script may hold open at once (default 1024).
        public var maxOpenFiles: Int?

        public func validate() -> [ArgumentIssue] {
            guard let maxOpenFiles, maxOpenFiles < 1 else { return [] }
            return [ArgumentIssue(path: "maxOpenFiles", message: "must be at least 1, got \(maxOpenFiles)")]
        }
    }

    /// The open files and the contents waiting to cross.
    public struct State: Sendable {
        let handles: FileHandles
        /// Strings waiting to cross the bridge, by token (`stage`, `take`).
        let staged: HandleTable<String>
    }

    public init() {}

    public func setUp(_ context: SetUpContext<Self>) async throws -> State {
        State(handles: FileHandles(limit: context.configuration.maxOpenFiles ?? 1024), staged: HandleTable())
    }

    public func shutdown(_ state: State) async {
        state.handles.closeAll()
    }

    public static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.capability(.read)
        plugin.capability(.write)
        plugin.constant("inlineLimit", .number(Double(inlineLimit)))
        plugin.script(
            .shared("filesystem-core.js", source: PackageResources.filesystem_core_js, shares: ["fs"]))
        plugin.script(.global("filesystem.js", source: PackageResources.filesystem_js, defines: ["FileSystem"]))
        plugin.script(
            .shared("node-fs-common.js", source: PackageResources.node_fs_common_js, shares: ["fsPromises"]))
        plugin.script(
            .module("node:fs/promises", file: "node-fs-promises.js", source: PackageResources.node_fs_promises_js))
        plugin.script(.module("node:fs", file: "node-fs.js", source: PackageResources.node_fs_js))
        plugin.typeScript(utf8: PackageResources.filesystem_d_ts)
        for (name, operation) in operations {
            plugin.async(name, args: BridgeValue.self) { context, args in try operation(context, args) }
            plugin.sync(name + "Sync", args: BridgeValue.self) { context, args in
                try direct(operation(context, args), context)
            }
        }
        plugin.sync("stage", args: JSONValue.self) { context, args -> Int in
            guard case .string(let text) = args else {
                throw BridgeError.invalidArgument(at: "", "expected a string, got \(args.kindDescription)")
            }
            return context.state.staged.insert(text)
        }
        plugin.sync("take", args: Int.self) { context, token -> String in
            guard let text = context.state.staged.remove(token) else {
                throw BridgeError.invalidArgument(at: "", "no staged content \(token)")
            }
            return text
        }
        // The crossing of large text is the plugin's own JavaScript's business.
        plugin.keepPrivate("stage", "take")
    }

    /// A sync answer holding contents as the string itself: a sync action's string result reaches JavaScript
    /// without JSON text, so staging is not needed.
    static func direct(_ answer: BridgeValue, _ context: PluginContext<Self>) -> BridgeValue {
        guard answer.bytes.isEmpty, case .object(let object) = answer.json, object.count == 1 else { return answer }
        if case .string(let text)? = object["data"] { return BridgeValue(.string(text)) }
        if case .number(let token)? = object["token"], let text = context.state.staged.remove(Int(token)) {
            return BridgeValue(.string(text))
        }
        return answer
    }

    typealias Operation = @Sendable (PluginContext<Self>, BridgeValue) throws -> BridgeValue

    /// An operation on JSON alone (no bytes either way).
    static func json(_ body: @escaping @Sendable (PluginContext<Self>, JSONValue) throws -> JSONValue) -> Operation {
        { context, args in BridgeValue(try body(context, args.json)) }
    }

    /// The file-system actions, each run as an async action and as its `Sync` twin.
    static let operations: [(String, Operation)] = [
        ("readFile", readFile), ("writeFile", writeFile), ("readdir", json(readdir)),
        ("stat", json { context, args in try stat(context, args, link: false) }),
        ("lstat", json { context, args in try stat(context, args, link: true) }),
        ("mkdir", json(mkdir)), ("rm", json(rm)), ("rmdir", json(rmdir)), ("unlink", json(unlink)),
        ("rename", json(rename)), ("copyFile", json(copyFile)), ("access", json(access)),
        ("realpath", json(realpath)), ("symlink", json(symlink)), ("readlink", json(readlink)),
        ("chmod", json(chmod)), ("truncate", json(truncate)), ("exists", json(exists)), ("open", json(open)),
        ("read", read), ("write", write), ("close", json(close)), ("fstat", json(fstat)),
        ("ftruncate", json(ftruncate)),
    ]
}
