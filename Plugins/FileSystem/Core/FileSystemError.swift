import JSBridgeBase

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed file-system call, as Node reports it: the errno's name as `code` (`ENOENT`, `EEXIST`, …), the
/// system call and the path (and destination, for two-path calls).
public struct FileSystemError: Error, Hashable, Sendable, BridgeErrorConvertible, CustomStringConvertible {
    /// The errno's symbolic name (`ENOENT`).
    public var code: String
    /// The errno value (positive, as the C library gives it).
    public var errno: Int32
    /// The call that failed (`open`, `mkdir`, `scandir`, …), named as Node names it.
    public var syscall: String
    /// The path the call was given.
    public var path: String
    /// The second path of `rename`, `copyfile`, `symlink`, `link`.
    public var dest: String?
    /// The message, for errors that are not an errno's (``tooLarge(size:path:)``).
    var message: String?

    public init(errno: Int32, syscall: String, path: String, dest: String? = nil) {
        self.code = FileSystemError.name(of: errno)
        self.errno = errno
        self.syscall = syscall
        self.path = path
        self.dest = dest
    }

    /// `ENOENT` for `syscall` on `path`.
    public static func notFound(syscall: String, path: String) -> FileSystemError {
        FileSystemError(errno: ENOENT, syscall: syscall, path: path)
    }

    /// A file too large to read whole (Node's `ERR_FS_FILE_TOO_LARGE`, a `RangeError` in JavaScript).
    public static func tooLarge(size: Int, path: String) -> FileSystemError {
        var error = FileSystemError(errno: EFBIG, syscall: "read", path: path)
        error.code = "ERR_FS_FILE_TOO_LARGE"
        error.message = "File size (\(size)) is greater than 2 GiB"
        return error
    }

    /// Text longer than JavaScriptCore's longest string (Node's `ERR_STRING_TOO_LONG`, a `RangeError` in
    /// JavaScript as the runtime's `Buffer` and `TextDecoder` give it).
    public static func stringTooLong(path: String) -> FileSystemError {
        var error = FileSystemError(errno: EFBIG, syscall: "read", path: path)
        error.code = "ERR_STRING_TOO_LONG"
        error.message = "Cannot create a string longer than 0x7fffffff characters"
        return error
    }

    /// Node's message: `ENOENT: no such file or directory, open 'a.txt'`.
    public var description: String {
        if let message { return message }
        let target = dest.map { "'\(path)' -> '\($0)'" } ?? "'\(path)'"
        return "\(code): \(FileSystemError.explanation(of: errno)), \(syscall) \(target)"
    }

    /// The same error reported against other paths (the ones the script gave, not the resolved ones).
    public func reported(path: String, dest: String? = nil) -> FileSystemError {
        var copy = self
        copy.path = path
        if self.dest != nil { copy.dest = dest ?? self.dest }
        return copy
    }

    public var bridgeError: BridgeError {
        var data: JSONObject = [
            "errno": .number(Double(-errno)), "syscall": .string(syscall), "path": .string(path),
        ]
        if let dest { data["dest"] = .string(dest) }
        return BridgeError(code: code, message: description, data: .object(data))
    }

    /// The symbolic name of `errno` (`E<number>` for one this table lacks).
    static func name(of errno: Int32) -> String {
        switch errno {
        case ENOENT: "ENOENT"
        case EEXIST: "EEXIST"
        case ENOTDIR: "ENOTDIR"
        case EISDIR: "EISDIR"
        case ENOTEMPTY: "ENOTEMPTY"
        case EACCES: "EACCES"
        case EPERM: "EPERM"
        case EBADF: "EBADF"
        case EINVAL: "EINVAL"
        case ELOOP: "ELOOP"
        case EMFILE: "EMFILE"
        case ENFILE: "ENFILE"
        case ENAMETOOLONG: "ENAMETOOLONG"
        case ENOSPC: "ENOSPC"
        case EROFS: "EROFS"
        case EXDEV: "EXDEV"
        case EBUSY: "EBUSY"
        case EFBIG: "EFBIG"
        case EIO: "EIO"
        case ENXIO: "ENXIO"
        case EAGAIN: "EAGAIN"
        case EFAULT: "EFAULT"
        default: "E\(errno)"
        }
    }

    /// libuv's wording for the common codes; the C library's otherwise.
    static func explanation(of errno: Int32) -> String {
        switch errno {
        case ENOENT: "no such file or directory"
        case EEXIST: "file already exists"
        case ENOTDIR: "not a directory"
        case EISDIR: "illegal operation on a directory"
        case ENOTEMPTY: "directory not empty"
        case EACCES: "permission denied"
        case EPERM: "operation not permitted"
        case EBADF: "bad file descriptor"
        case EINVAL: "invalid argument"
        case ELOOP: "too many symbolic links encountered"
        default: String(cString: strerror(errno)).lowercased()
        }
    }
}
