import FileAccess
import JSBridgeBase

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files a script has open (`open`/`read`/`write`/`close`): scripts name them by handle numbers this
/// table gave out, never by raw descriptors, so they cannot reach a descriptor the runtime uses.
public final class FileHandles: Sendable {
    private struct Entry: Sendable {
        var fd: Int32
        var path: String
        /// The position of the next read or write without an explicit one.
        var position: Int
        var append: Bool
    }

    private let entries = HandleTable<Entry>()
    /// How many files may be open at once.
    public let limit: Int

    public init(limit: Int = 1024) { self.limit = limit }

    /// Node's `flags` strings (`r`, `r+`, `w`, `w+`, `wx`, `a`, `a+`, `ax`, …) as `open(2)` flags; nil when unknown.
    public static func openFlags(_ flags: String) -> (flags: Int32, append: Bool)? {
        switch flags {
        case "r", "rs", "sr": (O_RDONLY, false)
        case "r+", "rs+", "sr+": (O_RDWR, false)
        case "w": (O_WRONLY | O_CREAT | O_TRUNC, false)
        case "wx", "xw": (O_WRONLY | O_CREAT | O_TRUNC | O_EXCL, false)
        case "w+": (O_RDWR | O_CREAT | O_TRUNC, false)
        case "wx+", "xw+": (O_RDWR | O_CREAT | O_TRUNC | O_EXCL, false)
        case "a", "as", "sa": (O_WRONLY | O_CREAT | O_APPEND, true)
        case "ax", "xa": (O_WRONLY | O_CREAT | O_APPEND | O_EXCL, true)
        case "a+", "as+", "sa+": (O_RDWR | O_CREAT | O_APPEND, true)
        case "ax+", "xa+": (O_RDWR | O_CREAT | O_APPEND | O_EXCL, true)
        default: nil
        }
    }

    /// Opens `path` with Node's `flags`; returns the handle number. `EMFILE` past ``limit``.
    public func open(_ path: ResolvedPath, flags: String, mode: Int = 0o666) throws(FileSystemError) -> Int {
        guard let (openFlags, append) = Self.openFlags(flags) else {
            throw FileSystemError(errno: EINVAL, syscall: "open", path: path.path)
        }
        if entries.count >= limit { throw FileSystemError(errno: EMFILE, syscall: "open", path: path.path) }
        let fd = try FileOperations.open(path, openFlags, mode: mode)
        var info = Glibc.stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, openFlags & O_ACCMODE != O_RDONLY {
            Glibc.close(fd)
            throw FileSystemError(errno: EISDIR, syscall: "open", path: path.path)
        }
        return entries.insert(Entry(fd: fd, path: path.path, position: 0, append: append))
    }

    /// Reads up to `length` bytes at `position` (nil: the handle's position, which then advances); fewer at
    /// the end of the file, none past it.
    public func read(_ handle: Int, length: Int, position: Int? = nil) throws(FileSystemError) -> [UInt8] {
        let entry = try self.entry(handle, "read")
        var bytes = [UInt8](repeating: 0, count: max(length, 0))
        var count = 0
        while count < bytes.count {
            let at = (position ?? entry.position) + count
            let n = bytes.withUnsafeMutableBytes {
                pread(entry.fd, $0.baseAddress! + count, $0.count - count, off_t(at))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(errno: errno, syscall: "read", path: entry.path)
            }
            if n == 0 { break }
            count += n
        }
        bytes.removeLast(bytes.count - count)
        if position == nil { advance(handle, by: count) }
        return bytes
    }

    /// Reads up to `length` bytes like ``read(_:length:position:)``, into one buffer that crosses to
    /// JavaScript as it is.
    public func readBytes(_ handle: Int, length: Int, position: Int? = nil) throws(FileSystemError) -> Bytes {
        let entry = try self.entry(handle, "read")
        var failure: FileSystemError?
        let bytes = Bytes(capacity: max(length, 0)) { buffer in
            var count = 0
            while count < buffer.count {
                let n = pread(
                    entry.fd, buffer.baseAddress! + count, buffer.count - count,
                    off_t((position ?? entry.position) + count))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = FileSystemError(errno: errno, syscall: "read", path: entry.path)
                    break
                }
                if n == 0 { break }
                count += n
            }
            return count
        }
        if let failure { throw failure }
        if position == nil { advance(handle, by: bytes.count) }
        return bytes
    }

    /// Writes `bytes` at `position` (nil: the handle's position, which then advances; files opened for
    /// appending always write at the end); returns how many were written.
    @discardableResult
    public func write(_ handle: Int, _ bytes: Bytes, position: Int? = nil) throws(FileSystemError) -> Int {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(FileSystemError) in try write(handle, buffer, position: position) }
        }
        .get()
    }

    /// Writes `bytes` at `position` (nil: the handle's position, which then advances; files opened for
    /// appending always write at the end); returns how many were written.
    @discardableResult
    public func write(_ handle: Int, _ bytes: [UInt8], position: Int? = nil) throws(FileSystemError) -> Int {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(FileSystemError) in try write(handle, buffer, position: position) }
        }
        .get()
    }

    private func write(_ handle: Int, _ bytes: UnsafeRawBufferPointer, position: Int?) throws(FileSystemError) -> Int {
        let entry = try self.entry(handle, "write")
        var count = 0
        while count < bytes.count {
            let n =
                entry.append
                ? Glibc.write(entry.fd, bytes.baseAddress! + count, bytes.count - count)
                : pwrite(
                    entry.fd, bytes.baseAddress! + count, bytes.count - count,
                    off_t((position ?? entry.position) + count))
            if n < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(errno: errno, syscall: "write", path: entry.path)
            }
            count += n
        }
        if position == nil { advance(handle, by: count) }
        return count
    }

    /// The stats of an open file.
    public func stat(_ handle: Int) throws(FileSystemError) -> FileStats {
        let entry = try self.entry(handle, "fstat")
        var info = Glibc.stat()
        guard fstat(entry.fd, &info) == 0 else {
            throw FileSystemError(errno: errno, syscall: "fstat", path: entry.path)
        }
        return FileStats(info)
    }

    /// Truncates an open file to `length` bytes.
    public func truncate(_ handle: Int, length: Int) throws(FileSystemError) {
        let entry = try self.entry(handle, "ftruncate")
        guard ftruncate(entry.fd, off_t(length)) == 0 else {
            throw FileSystemError(errno: errno, syscall: "ftruncate", path: entry.path)
        }
    }

    /// Closes a handle; `EBADF` when it is not open.
    public func close(_ handle: Int) throws(FileSystemError) {
        guard let entry = entries.remove(handle) else {
            throw FileSystemError(errno: EBADF, syscall: "close", path: "")
        }
        guard Glibc.close(entry.fd) == 0 else {
            throw FileSystemError(errno: errno, syscall: "close", path: entry.path)
        }
    }

    /// Closes every open handle (at shutdown).
    public func closeAll() {
        for entry in entries.removeAll() { Glibc.close(entry.fd) }
    }

    /// How many handles are open.
    public var count: Int { entries.count }

    private func entry(_ handle: Int, _ syscall: String) throws(FileSystemError) -> Entry {
        guard let entry = entries[handle] else {
            throw FileSystemError(errno: EBADF, syscall: syscall, path: "")
        }
        return entry
    }

    private func advance(_ handle: Int, by count: Int) {
        entries.update(handle) { $0.position += count }
    }
}
