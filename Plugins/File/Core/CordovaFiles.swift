import FileAccess
import FileSystemCore
import Foundation
import JSBridgeBase

/// cordova-plugin-file's error codes (its `FileError` constants), the numbers its `www/` code compares.
public enum FileErrorCode: Int, Sendable, CaseIterable {
    case notFound = 1, security, abort, notReadable, encoding, noModificationAllowed, invalidState, syntax,
        invalidModification, quotaExceeded, typeMismatch, pathExists

    /// The constant's name (`NOT_FOUND_ERR`).
    public var name: String {
        switch self {
        case .notFound: "NOT_FOUND_ERR"
        case .security: "SECURITY_ERR"
        case .abort: "ABORT_ERR"
        case .notReadable: "NOT_READABLE_ERR"
        case .encoding: "ENCODING_ERR"
        case .noModificationAllowed: "NO_MODIFICATION_ALLOWED_ERR"
        case .invalidState: "INVALID_STATE_ERR"
        case .syntax: "SYNTAX_ERR"
        case .invalidModification: "INVALID_MODIFICATION_ERR"
        case .quotaExceeded: "QUOTA_EXCEEDED_ERR"
        case .typeMismatch: "TYPE_MISMATCH_ERR"
        case .pathExists: "PATH_EXISTS_ERR"
        }
    }
}

/// A failed file request: the `FileError` code Cordova's `www/` code gets, and what happened.
public struct CordovaFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: FileErrorCode
    public var message: String

    public init(_ code: FileErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.name) (\(code.rawValue)): \(message)" }

    /// A file-system call's failure as the nearest `FileError` (`ENOENT`: `NOT_FOUND_ERR`, `EEXIST`:
    /// `PATH_EXISTS_ERR`, …); `fallback` for the rest.
    init(_ error: FileSystemError, fallback: FileErrorCode, shown path: String) {
        let code: FileErrorCode =
            switch error.code {
            case "ENOENT": .notFound
            case "EEXIST": .pathExists
            case "ENOTDIR", "EISDIR": .typeMismatch
            case "ENOTEMPTY": .invalidModification
            case "EACCES", "EPERM", "ELOOP": .security
            case "EROFS": .noModificationAllowed
            case "ENOSPC", "EDQUOT", "ERR_FS_FILE_TOO_LARGE": .quotaExceeded
            default: fallback
            }
        self.init(code, "'\(path)': \(error.description)")
    }
}

/// Where one of cordova-plugin-file's file systems (`persistent`, `temporary`, …) lives.
public struct FileSystemRoot: Sendable, Hashable {
    /// The file system's name (`persistent`), the first segment of its `cdvfile://localhost/<name>/` URLs.
    public var name: String
    /// Its directory (absolute, no trailing slash).
    public var directory: String
    /// `LocalFileSystem`'s number for it (`TEMPORARY` 0, `PERSISTENT` 1), for the two that have one.
    public var type: Int?
}

/// An entry a request names: its file system and its path there (`/` for the root, no trailing slash).
public struct FileLocation: Sendable, Hashable {
    public var root: FileSystemRoot
    /// `/`-separated, starting with `/`, without `.`, `..` or empty names.
    public var fullPath: String

    /// The entry's absolute path on disk.
    public var absolutePath: String { fullPath == "/" ? root.directory : root.directory + fullPath }

    /// The entry's name (`/` for the root).
    public var name: String { fullPath == "/" ? "/" : String(fullPath.split(separator: "/").last ?? "") }

    /// The location of `relative` (a path from this directory, or from the root when it starts with `/`).
    func appending(_ relative: String) -> FileLocation {
        let start = relative.hasPrefix("/") ? [] : fullPath.split(separator: "/").map(String.init)
        return FileLocation(root: root, fullPath: CordovaFiles.normalize(start, relative))
    }

    var parent: FileLocation {
        var names = fullPath.split(separator: "/").map(String.init)
        if !names.isEmpty { names.removeLast() }
        return FileLocation(root: root, fullPath: "/" + names.joined(separator: "/"))
    }
}

/// Checks that the script may use a path and resolves it (symlinks followed), throwing the bridge's
/// `PERMISSION_DENIED` otherwise: the runtime's one path checker (`Permissions.checkPath`), injected by the
/// plugin, for `--allow-read` (`write` false) or `--allow-write`.
public typealias PathCheck = @Sendable (_ write: Bool, _ path: String) throws(BridgeError) -> ResolvedPath

/// cordova-plugin-file's native service over the runtime's file operations (``FileOperations``): its file
/// systems live under one app's folder of the storage directory (`<storage>/files/<app id>/persistent`,
/// `temporary`, `cache`, `data`), every request is checked with the script's read or write capability by the
/// injected ``PathCheck`` and must stay inside a file system once symlinks are followed, and failures are
/// `FileError` codes. Requests name entries as cordova-plugin-file does: `cdvfile://localhost/<fs>/<path>`,
/// a `file://` URL under a file system's folder, or a bare `/path` (in `persistent`).
public struct CordovaFiles: Sendable {
    /// The app's folder: the file systems are in it.
    public let base: String
    /// The file systems, by name.
    public let roots: [FileSystemRoot]
    let check: PathCheck

    /// The file systems of app `appID` under storage directory `storageDirectory`.
    public init(storageDirectory: String, appID: String, check: @escaping PathCheck) {
        let directory = storageDirectory.hasSuffix("/") ? String(storageDirectory.dropLast()) : storageDirectory
        base = directory + "/files/" + StorageLocation.fileSystemName(of: appID)
        roots = [
            FileSystemRoot(name: "persistent", directory: base + "/persistent", type: 1),
            FileSystemRoot(name: "temporary", directory: base + "/temporary", type: 0),
            FileSystemRoot(name: "cache", directory: base + "/cache", type: nil),
            FileSystemRoot(name: "data", directory: base + "/data", type: nil),
        ]
        self.check = check
    }

    // MARK: Naming entries

    /// `name`'s file system.
    func root(named name: String) -> FileSystemRoot? { roots.first { $0.name == name } }

    /// Where `url` points: `cdvfile://localhost/<fs>/<path>`, `file:///…` under a file system's folder, or
    /// `/path` in `persistent`. `ENCODING_ERR` for what is none of these; `SECURITY_ERR` for a `file://` URL
    /// outside every file system.
    public func locate(_ url: String) throws(CordovaFileError) -> FileLocation {
        guard !url.utf8.contains(0) else { throw CordovaFileError(.encoding, "the URL contains a NUL byte") }
        if url.hasPrefix("cdvfile://") {
            var rest = url.dropFirst("cdvfile://".count)
            guard rest.hasPrefix("localhost/") else {
                throw CordovaFileError(.encoding, "'\(url)' is not a cdvfile://localhost/<file system>/ URL")
            }
            rest = rest.dropFirst("localhost/".count)
            let name = String(rest.prefix { $0 != "/" })
            guard let root = root(named: name) else {
                throw CordovaFileError(
                    .encoding, "'\(url)' names no file system (\(roots.map(\.name).joined(separator: ", ")))")
            }
            return FileLocation(
                root: root, fullPath: Self.normalize([], try Self.decoded(rest.dropFirst(name.count), url)))
        }
        if url.hasPrefix("file://") {
            var rest = url.dropFirst("file://".count)
            if rest.hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
            let absolute = Self.normalize([], try Self.decoded(rest.prefix { $0 != "?" && $0 != "#" }, url))
            for root in roots {
                if absolute == root.directory { return FileLocation(root: root, fullPath: "/") }
                if absolute.hasPrefix(root.directory + "/") {
                    return FileLocation(root: root, fullPath: String(absolute.dropFirst(root.directory.count)))
                }
            }
            throw CordovaFileError(
                .security,
                "'\(url)' is outside the app's file systems (\(base)/): cordova-plugin-file's service reaches only them"
            )
        }
        guard url.hasPrefix("/"), !url.contains(":") else {
            throw CordovaFileError(.encoding, "'\(url)' is not a cdvfile:// or file:// URL, nor a path")
        }
        return FileLocation(root: roots[0], fullPath: Self.normalize([], url))
    }

    /// `names` followed by `relative`'s, with `.` and `..` (never above the root) worked out, as `/a/b`.
    static func normalize(_ names: [String], _ relative: some StringProtocol) -> String {
        var result = names
        for name in relative.split(separator: "/") {
            if name == "." { continue }
            if name == ".." {
                if !result.isEmpty { result.removeLast() }
                continue
            }
            result.append(String(name))
        }
        return "/" + result.joined(separator: "/")
    }

    /// `text` with its percent escapes decoded; `ENCODING_ERR` for a malformed one.
    static func decoded(_ text: some StringProtocol, _ url: String) throws(CordovaFileError) -> String {
        guard text.contains("%") else { return String(text) }
        guard let decoded = String(text).removingPercentEncoding else {
            throw CordovaFileError(.encoding, "'\(url)' has a malformed percent escape")
        }
        return decoded
    }

    /// `location` checked for the capability and resolved: `SECURITY_ERR` without it, or when the path leads
    /// out of its file system (a symlink inside pointing elsewhere).
    func resolve(_ location: FileLocation, write: Bool) throws(CordovaFileError) -> ResolvedPath {
        let resolved: ResolvedPath
        do throws(BridgeError) {
            resolved = try check(write, location.absolutePath)
        } catch {
            throw CordovaFileError(.security, error.message)
        }
        guard resolved.isWithin(ResolvedPath(location.root.directory)) else {
            throw CordovaFileError(
                .security,
                "'\(location.fullPath)' leads out of the '\(location.root.name)' file system (\(resolved.path))")
        }
        return resolved
    }

    // MARK: Answers

    /// An entry as the native side reports it: `{isFile, isDirectory, name, fullPath, filesystemName,
    /// filesystem, nativeURL}` (a directory's `fullPath` and `nativeURL` end with `/`).
    public func entry(_ location: FileLocation, isDirectory: Bool) -> JSONValue {
        let slash = isDirectory && location.fullPath != "/" ? "/" : ""
        var object: JSONObject = [
            "isFile": .bool(!isDirectory), "isDirectory": .bool(isDirectory), "name": .string(location.name),
            "fullPath": .string(location.fullPath + slash), "filesystemName": .string(location.root.name),
            "nativeURL": .string(Self.fileURL(location.absolutePath + (isDirectory ? "/" : ""))),
        ]
        if let type = location.root.type { object["filesystem"] = .number(Double(type)) }
        return .object(object)
    }

    /// `file://` and `path` with each byte outside RFC 3986's unreserved set and `/` percent-encoded.
    static func fileURL(_ path: String) -> String {
        var text = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                text.unicodeScalars.append(UnicodeScalar(byte))
            default:
                text += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return text
    }

    /// The file systems' root entries (`requestAllFileSystems`).
    public func allFileSystems() -> JSONValue {
        .array(roots.map { root in entry(FileLocation(root: root, fullPath: "/"), isDirectory: true) })
    }

    /// cordova-plugin-file's `cordova.file` folders (`requestAllPaths`), as `file://` URLs ending with `/`;
    /// `applicationDirectory` is null: a script has no installed app bundle.
    public func allPaths() -> JSONValue {
        func url(_ directory: String) -> JSONValue { .string(Self.fileURL(directory + "/")) }
        return [
            "applicationDirectory": .null,
            "applicationStorageDirectory": url(base),
            "dataDirectory": url(root(named: "data")!.directory),
            "cacheDirectory": url(root(named: "cache")!.directory),
            "tempDirectory": url(root(named: "temporary")!.directory),
            "documentsDirectory": url(root(named: "persistent")!.directory),
        ]
    }

    // MARK: Requests

    /// `requestFileSystem(type, size)`: `{name, root}` of `temporary` (0) or `persistent` (1); a `size` larger
    /// than the free space is `QUOTA_EXCEEDED_ERR`.
    public func requestFileSystem(type: Int, size: Double) throws(CordovaFileError) -> JSONValue {
        guard let root = roots.first(where: { $0.type == type }) else {
            throw CordovaFileError(.notFound, "no file system of type \(type) (0 TEMPORARY, 1 PERSISTENT)")
        }
        let location = FileLocation(root: root, fullPath: "/")
        _ = try resolve(location, write: false)
        if size > 0, let free = freeBytes(), size > free {
            throw CordovaFileError(.quotaExceeded, "\(Int(size)) bytes asked for, \(Int(free)) free")
        }
        return ["name": .string(root.name), "root": entry(location, isDirectory: true)]
    }

    /// The free bytes where the file systems are (of the deepest folder that exists).
    func freeBytes() -> Double? {
        var directory = base
        while !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            directory = String(directory[..<(directory.lastIndex(of: "/") ?? directory.startIndex)])
        }
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: directory.isEmpty ? "/" : directory)
        return (attributes?[.systemFreeSize] as? NSNumber)?.doubleValue
    }

    /// The kind of entry at `resolved`, or nil when there is none (a missing file system's root is an empty
    /// directory).
    func kind(_ resolved: ResolvedPath, _ location: FileLocation) throws(CordovaFileError) -> EntryType? {
        do throws(FileSystemError) {
            return try FileOperations.stat(resolved).type
        } catch  where error.code == "ENOENT" {
            return location.fullPath == "/" ? .directory : nil
        } catch {
            throw CordovaFileError(error, fallback: .notReadable, shown: location.fullPath)
        }
    }

    /// `resolveLocalFileSystemURI(url)`: the entry there; `NOT_FOUND_ERR` when there is none.
    public func resolveURL(_ url: String) throws(CordovaFileError) -> JSONValue {
        let location = try locate(url)
        guard let type = try kind(try resolve(location, write: false), location) else {
            throw CordovaFileError(.notFound, "'\(url)' does not exist")
        }
        return entry(location, isDirectory: type == .directory)
    }

    /// `getFile` / `getDirectory(dirURL, path, {create, exclusive})`: the entry `path` names from the directory,
    /// created when `create` and missing (`PATH_EXISTS_ERR` when `exclusive` and there; `TYPE_MISMATCH_ERR`
    /// when it is the other kind; `NOT_FOUND_ERR` when missing without `create`).
    public func get(
        _ directoryURL: String, _ path: String, create: Bool, exclusive: Bool, directory: Bool
    ) throws(CordovaFileError) -> JSONValue {
        guard !path.contains(":") else { throw CordovaFileError(.encoding, "'\(path)' is not a valid file name") }
        let location = try locate(directoryURL).appending(path)
        let existing = try kind(try resolve(location, write: create), location)
        if let existing {
            if create && exclusive { throw CordovaFileError(.pathExists, "'\(location.fullPath)' already exists") }
            guard (existing == .directory) == directory else {
                throw CordovaFileError(
                    .typeMismatch, "'\(location.fullPath)' is a \(existing == .directory ? "directory" : "file")")
            }
            return entry(location, isDirectory: directory)
        }
        guard create else { throw CordovaFileError(.notFound, "'\(location.fullPath)' does not exist") }
        let resolved = try resolve(location, write: true)
        try makeRoot(location.root)
        do throws(FileSystemError) {
            if directory {
                try FileOperations.mkdir(resolved)
            } else {
                try FileOperations.writeFile(resolved, [UInt8](), mode: .exclusive)
            }
        } catch {
            throw CordovaFileError(error, fallback: .invalidModification, shown: location.fullPath)
        }
        return entry(location, isDirectory: directory)
    }

    /// Creates a file system's folder (and the app's) the first time something is written there.
    func makeRoot(_ root: FileSystemRoot) throws(CordovaFileError) {
        let location = FileLocation(root: root, fullPath: "/")
        let resolved = try resolve(location, write: true)
        do throws(FileSystemError) {
            try FileOperations.mkdir(resolved, recursive: true, mode: 0o700)
        } catch {
            throw CordovaFileError(error, fallback: .invalidModification, shown: "/")
        }
    }

    /// `getParent(url)`: the directory the entry is in (the root's is the root).
    public func parent(_ url: String) throws(CordovaFileError) -> JSONValue {
        let location = try locate(url).parent
        _ = try resolve(location, write: false)
        return entry(location, isDirectory: true)
    }

    /// `readEntries(url)`: the directory's entries, sorted by name.
    public func readEntries(_ url: String) throws(CordovaFileError) -> JSONValue {
        let location = try locate(url)
        let resolved = try resolve(location, write: false)
        let listing: [DirectoryEntry]
        do throws(FileSystemError) {
            listing = try FileOperations.readdir(resolved)
        } catch  where error.code == "ENOENT" && location.fullPath == "/" {
            listing = []
        } catch {
            throw CordovaFileError(error, fallback: .notReadable, shown: location.fullPath)
        }
        return .array(
            listing.map { item in
                var isDirectory = item.type == .directory
                let child = location.appending(item.name)
                if item.type == .symlink, let target = try? FileOperations.stat(resolved.appending(item.name)) {
                    isDirectory = target.type == .directory
                }
                return entry(child, isDirectory: isDirectory)
            })
    }

    /// `remove(url)`: removes a file or an empty directory (`INVALID_MODIFICATION_ERR` when not empty); a file
    /// system's root is `NO_MODIFICATION_ALLOWED_ERR`.
    public func remove(_ url: String, recursively: Bool) throws(CordovaFileError) {
        let location = try locate(url)
        guard location.fullPath != "/" else {
            throw CordovaFileError(
                .noModificationAllowed, "the root of the '\(location.root.name)' file system cannot be removed")
        }
        let resolved = try resolve(location, write: true)
        do throws(FileSystemError) {
            let type = try FileOperations.stat(resolved).type
            if type == .directory && !recursively {
                try FileOperations.rmdir(resolved)
            } else {
                try FileOperations.rm(resolved, recursive: recursively)
            }
        } catch {
            throw CordovaFileError(error, fallback: .invalidModification, shown: location.fullPath)
        }
    }

    /// `getFileMetadata(url)`: `{name, fullPath, type, lastModifiedDate, size}` (`type` the MIME type from the
    /// name's extension, "" when unknown; `lastModifiedDate` in ms since 1970).
    public func fileMetadata(_ url: String) throws(CordovaFileError) -> JSONValue {
        let location = try locate(url)
        let info = try stats(location)
        return [
            "name": .string(location.name), "fullPath": .string(location.fullPath),
            "type": .string(info.type == .directory ? "" : Self.mimeType(location.name)),
            "lastModifiedDate": .number(info.mtimeMs.rounded()), "size": .number(Double(info.size)),
        ]
    }

    /// `getMetadata(url)`: `{modificationTime, size}` (ms since 1970).
    public func metadata(_ url: String) throws(CordovaFileError) -> JSONValue {
        let info = try stats(try locate(url))
        return ["modificationTime": .number(info.mtimeMs.rounded()), "size": .number(Double(info.size))]
    }

    func stats(_ location: FileLocation) throws(CordovaFileError) -> FileStats {
        let resolved = try resolve(location, write: false)
        do throws(FileSystemError) {
            return try FileOperations.stat(resolved)
        } catch {
            throw CordovaFileError(error, fallback: .notReadable, shown: location.fullPath)
        }
    }

    /// The bytes of the file at `url` from `start` to `end` (a `File` slice; `end` past the file's end is its
    /// end).
    public func read(_ url: String, start: Int, end: Int) throws(CordovaFileError) -> [UInt8] {
        let location = try locate(url)
        let resolved = try resolve(location, write: false)
        do throws(FileSystemError) {
            return try FileOperations.readRange(resolved, start: start, end: end)
        } catch {
            throw CordovaFileError(error, fallback: .notReadable, shown: location.fullPath)
        }
    }

    /// `data:<type>;base64,…` of the bytes.
    public func dataURL(_ url: String, start: Int, end: Int) throws(CordovaFileError) -> String {
        let bytes = try read(url, start: start, end: end)
        let type = Self.mimeType(try locate(url).name)
        return "data:\(type.isEmpty ? "application/octet-stream" : type);base64," + TextEncoding.base64.encode(bytes)
    }

    /// `write(url, data, position)`: the file cut to `position` and `bytes` written there; the bytes written.
    public func write(_ url: String, _ bytes: [UInt8], position: Int) throws(CordovaFileError) -> Int {
        let location = try locate(url)
        guard location.fullPath != "/" else {
            throw CordovaFileError(.typeMismatch, "a file system's root is a directory")
        }
        let resolved = try resolve(location, write: true)
        do throws(FileSystemError) {
            return try FileOperations.writeTruncating(resolved, bytes, at: max(position, 0))
        } catch {
            throw CordovaFileError(error, fallback: .invalidModification, shown: location.fullPath)
        }
    }

    /// `truncate(url, size)`: the file cut to `size` bytes (a larger size leaves it as it is); its new length.
    public func truncate(_ url: String, size: Int) throws(CordovaFileError) -> Int {
        let location = try locate(url)
        let resolved = try resolve(location, write: true)
        do throws(FileSystemError) {
            let length = try FileOperations.stat(resolved).size
            guard size < length else { return length }
            try FileOperations.truncate(resolved, length: max(size, 0))
            return max(size, 0)
        } catch {
            throw CordovaFileError(error, fallback: .invalidModification, shown: location.fullPath)
        }
    }

    /// `moveTo` / `copyTo(url, parentURL, newName)`: the entry moved or copied (a directory with everything in
    /// it) into the directory at `parentURL` as `newName` (its own name when empty). A file replaces a file and
    /// a directory an empty directory there; moving or copying an entry onto itself or a directory into itself
    /// is `INVALID_MODIFICATION_ERR`.
    public func transfer(_ url: String, to parentURL: String, name newName: String, move: Bool)
        throws(CordovaFileError) -> JSONValue
    {
        let source = try locate(url)
        guard source.fullPath != "/" else {
            throw CordovaFileError(.noModificationAllowed, "a file system's root cannot be moved or copied")
        }
        let name = newName.isEmpty ? source.name : newName
        guard !name.contains(":"), !name.contains("/"), name != ".", name != ".." else {
            throw CordovaFileError(.encoding, "'\(name)' is not a valid name")
        }
        let parent = try locate(parentURL)
        let target = parent.appending(name)
        let from = try resolve(source, write: move)
        let into = try resolve(parent, write: true)
        let to = try resolve(target, write: true)
        guard let sourceType = try kind(from, source) else {
            throw CordovaFileError(.notFound, "'\(source.fullPath)' does not exist")
        }
        guard try kind(into, parent) == .directory else {
            throw CordovaFileError(.notFound, "'\(parent.fullPath)' is not a directory")
        }
        if to == from || (sourceType == .directory && to.isWithin(from)) {
            throw CordovaFileError(
                .invalidModification, "'\(source.fullPath)' cannot be \(move ? "moved" : "copied") onto or into itself")
        }
        if let existing = try kind(to, target) {
            guard (existing == .directory) == (sourceType == .directory) else {
                throw CordovaFileError(.invalidModification, "'\(target.fullPath)' exists and is of the other kind")
            }
            if existing == .directory {
                do throws(FileSystemError) {
                    try FileOperations.rmdir(to)
                } catch {
                    throw CordovaFileError(
                        .invalidModification, "'\(target.fullPath)' is a directory that is not empty")
                }
            }
        }
        try makeRoot(target.root)
        do throws(FileSystemError) {
            if move {
                try FileOperations.rename(from, to)
            } else {
                try Self.copy(from, to, directory: sourceType == .directory)
            }
        } catch {
            throw CordovaFileError(error, fallback: .invalidModification, shown: source.fullPath)
        }
        return entry(target, isDirectory: sourceType == .directory)
    }

    /// Copies a file, or a directory and everything in it.
    static func copy(_ from: ResolvedPath, _ to: ResolvedPath, directory: Bool) throws(FileSystemError) {
        guard directory else { return try FileOperations.copyFile(from, to) }
        try FileOperations.mkdir(to)
        for item in try FileOperations.readdir(from) {
            switch item.type {
            case .directory: try copy(from.appending(item.name), to.appending(item.name), directory: true)
            case .file: try FileOperations.copyFile(from.appending(item.name), to.appending(item.name))
            default: continue  // links, devices and sockets are not copied
            }
        }
    }

    /// The MIME type of a file named `name`, from its extension ("" when unknown).
    public static func mimeType(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        switch name[name.index(after: dot)...].lowercased() {
        case "txt", "text": return "text/plain"
        case "html", "htm": return "text/html"
        case "css": return "text/css"
        case "csv": return "text/csv"
        case "md": return "text/markdown"
        case "xml": return "application/xml"
        case "js", "mjs": return "text/javascript"
        case "json": return "application/json"
        case "pdf": return "application/pdf"
        case "zip": return "application/zip"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "svg": return "image/svg+xml"
        case "mp3": return "audio/mpeg"
        case "wav": return "audio/wav"
        case "mp4": return "video/mp4"
        default: return ""
        }
    }
}

extension ResolvedPath {
    /// The path of `name` in this directory (a name from a listing: no `/`, `.` or `..`).
    func appending(_ name: String) -> ResolvedPath {
        ResolvedPath(path + (path == "/" ? "" : "/") + name, followingFinalLink: false)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
