import FileSystemCore
import JSBridgeCore

/// `FileSystem`: files and directories for scripts granted `--allow-read` / `--allow-write` (scoped by path),
/// with the `node:fs` and `node:fs/promises` modules as layers over the same actions (docs/running-scripts.md,
/// "Files and capabilities").
///
/// Every action takes its arguments as an object (`{path, …}`) and has a sync twin named `<action>Sync` for
/// Node's sync calls; arguments and answers are typed (FileSystemPlugin+Arguments.swift), hence the plugin's
/// typings. Paths are resolved (symlinks followed, `..` removed) and checked before use; the resolved path is
/// the one opened, and errors name the path the script gave, with Node's codes.
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
        // Contents read: the async actions answer text inside the JSON or staged, their sync twins the string.
        plugin.async("readFile", args: ReadFileArguments.self) { context, args in
            try readFile(context, args).answer(context)
        }
        plugin.sync("readFileSync", args: ReadFileArguments.self, readFile)
        plugin.async("read", args: ReadArguments.self) { context, args in try read(context, args).answer(context) }
        plugin.sync("readSync", args: ReadArguments.self, read)
        both(&plugin, "writeFile", Writing<WriteFileArguments>.self, writeFile)
        both(&plugin, "readdir", PathArguments.self, readdir)
        both(&plugin, "stat", PathArguments.self) { context, args in try stat(context, args, link: false) }
        both(&plugin, "lstat", PathArguments.self) { context, args in try stat(context, args, link: true) }
        both(&plugin, "mkdir", MkdirArguments.self, mkdir)
        both(&plugin, "rm", RmArguments.self, rm)
        both(&plugin, "rmdir", PathArguments.self, rmdir)
        both(&plugin, "unlink", PathArguments.self, unlink)
        both(&plugin, "rename", RenameArguments.self, rename)
        both(&plugin, "copyFile", CopyFileArguments.self, copyFile)
        both(&plugin, "access", AccessArguments.self, access)
        both(&plugin, "realpath", PathArguments.self, realpath)
        both(&plugin, "symlink", SymlinkArguments.self, symlink)
        both(&plugin, "readlink", PathArguments.self, readlink)
        both(&plugin, "chmod", ChmodArguments.self, chmod)
        both(&plugin, "truncate", TruncateArguments.self, truncate)
        both(&plugin, "exists", PathArguments.self, exists)
        both(&plugin, "open", OpenArguments.self, open)
        both(&plugin, "write", Writing<WriteArguments>.self, write)
        both(&plugin, "close", HandleArguments.self, close)
        both(&plugin, "fstat", HandleArguments.self, fstat)
        both(&plugin, "ftruncate", FtruncateArguments.self, ftruncate)
        // A string argument or result of a sync action crosses without JSON text.
        plugin.sync("stage", args: String.self) { context, text in context.state.staged.insert(text) }
        plugin.sync("take", args: Int.self) { context, token -> String in
            guard let text = context.state.staged.remove(token) else {
                throw BridgeError.invalidArgument(at: "", "no staged content \(token)")
            }
            return text
        }
        // The crossing of large text is the plugin's own JavaScript's business.
        plugin.keepPrivate("stage", "take")
    }

    /// Declares the file-system action `name` (async, on the shared pool) and its sync twin `<name>Sync`, both
    /// running `body`.
    static func both<A: Decodable & Sendable, R: Encodable & Sendable>(
        _ plugin: inout PluginDeclaration<Self>, _ name: String, _ arguments: A.Type,
        _ body: @escaping @Sendable (PluginContext<Self>, A) throws -> R
    ) {
        plugin.async(name, args: A.self) { context, args in try body(context, args) }
        plugin.sync(name + "Sync", args: A.self, body)
    }
}
