import Foundation
import JSBridgeCore

/// The rule for reading script and module sources (the main script, `require`, `import`, `import()`): a file
/// in the entry script's directory tree (the working directory's for `-e` and the REPL) or in a
/// `node_modules` directory of that directory or of one of its ancestors is read without a grant; any other
/// needs `--allow-read`, as `fs` would (docs/running-scripts.md, "Modules and permissions").
///
/// Paths are resolved and opened as the file capabilities do (``ResolvedPath``): a link out of the tree is
/// checked as where it leads, and what is read is what was checked. A refused read is `PERMISSION_DENIED`
/// naming the flag, before any byte is read, so no error can quote a file the script may not read.
struct SourceFiles {
    /// The entry script's directory, resolved.
    let root: ResolvedPath
    let permissions: Permissions

    /// The largest source read: JavaScriptCore's strings hold at most 2^31 − 1 UTF-16 units.
    static let maxBytes = Int(Int32.max)

    /// The rule for a run of `script` under `permissions`.
    init(_ script: Script, permissions: Permissions) {
        let directory =
            if case .file(let path) = script { ResolvedPath(path).parent } else {
                ResolvedPath(ResolvedPath.workingDirectory())
            }
        self.root = directory
        self.permissions = permissions
    }

    /// Whether `path` is read without a grant: under the root, or under `<ancestor>/node_modules`.
    func isOpen(_ path: ResolvedPath) -> Bool {
        if path.isWithin(root) { return true }
        let marker = Array("/node_modules".utf8)
        var ancestor = root.bytes[...]
        while true {
            let base = ancestor.count == 1 ? [] : Array(ancestor)
            if ResolvedPath.isWithin(path.bytes, base + marker) { return true }
            guard let slash = ancestor.lastIndex(of: UInt8(ascii: "/")), ancestor.count > 1 else { return false }
            ancestor = slash == ancestor.startIndex ? ancestor[...slash] : ancestor[..<slash]
        }
    }

    /// The bytes of the source at `path`; Node's error codes when it cannot be read, `PERMISSION_DENIED` when
    /// the rule refuses it.
    func read(_ path: String) throws(NativeError) -> [UInt8] {
        let resolved = ResolvedPath(path)
        if !isOpen(resolved) {
            do throws(BridgeError) {
                try permissions.check(.read, scope: resolved.path)
            } catch {
                throw .plain(
                    "\(error.message) Modules outside the entry script's directory and its node_modules are read "
                        + "with the script's --allow-read.", code: error.code)
            }
        }
        do throws(FileAccessError) {
            return try resolved.read(maxBytes: Self.maxBytes)
        } catch {
            let (name, text) =
                switch error.errno {
                case ENOENT, ENOTDIR: ("ENOENT", "no such file or directory, open")
                case EISDIR: ("EISDIR", "illegal operation on a directory, read")
                case EFBIG: ("ERR_FS_FILE_TOO_LARGE", "file is larger than 2 GiB, read")
                case ELOOP: ("ELOOP", "too many symbolic links encountered, open")
                default: ("EACCES", "permission denied, open")
                }
            throw .plain("\(name): \(text) '\(path)'", code: name)
        }
    }
}
