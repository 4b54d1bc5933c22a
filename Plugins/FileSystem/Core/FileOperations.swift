import JSBridgeBase

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File-system operations over POSIX calls, throwing ``FileSystemError`` with Node's codes. Paths are used as
/// given: callers pass paths already checked against the script's capabilities.
public enum FileOperations {
    /// The bytes of the file at `path`.
    public static func readFile(_ path: String) throws(FileSystemError) -> [UInt8] {
        let fd = try openFile(path, flags: O_RDONLY)
        defer { close(fd) }
        var info = Glibc.stat()
        guard fstat(fd, &info) == 0 else { throw FileSystemError(errno: errno, syscall: "fstat", path: path) }
        if info.st_mode & S_IFMT == S_IFDIR { throw FileSystemError(errno: EISDIR, syscall: "read", path: path) }
        // Regular files are read in one allocation of their size; others (/proc, pipes) until EOF.
        var capacity = max(Int(info.st_size), 0)
        var bytes = [UInt8](repeating: 0, count: capacity == 0 ? 65536 : capacity)
        var count = 0
        while true {
            if count == bytes.count {
                capacity = bytes.count * 2
                bytes.append(contentsOf: repeatElement(0, count: capacity - bytes.count))
            }
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(errno: errno, syscall: "read", path: path)
            }
            if n == 0 { break }
            count += n
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// The bytes of the file at `path`, read straight into one buffer of the file's size when it is a regular
    /// file (the buffer then crosses to JavaScript as it is).
    public static func readFileBytes(_ path: String) throws(FileSystemError) -> Bytes {
        let fd = try openFile(path, flags: O_RDONLY)
        defer { close(fd) }
        var info = Glibc.stat()
        guard fstat(fd, &info) == 0 else { throw FileSystemError(errno: errno, syscall: "fstat", path: path) }
        if info.st_mode & S_IFMT == S_IFDIR { throw FileSystemError(errno: EISDIR, syscall: "read", path: path) }
        let size = Int(info.st_size)
        guard info.st_mode & S_IFMT == S_IFREG, size > 0 else { return Bytes(try readFile(path)) }
        var failure: FileSystemError?
        let bytes = Bytes(capacity: size) { buffer in
            var count = 0
            while count < size {
                let n = read(fd, buffer.baseAddress! + count, size - count)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = FileSystemError(errno: errno, syscall: "read", path: path)
                    break
                }
                if n == 0 { break }
                count += n
            }
            return count
        }
        if let failure { throw failure }
        // A file that grew since `fstat` is read again to its end.
        var probe: UInt8 = 0
        if bytes.count == size, read(fd, &probe, 1) > 0 { return Bytes(try readFile(path)) }
        return bytes
    }

    /// How `writeFile` opens its file (Node's `flag`: `w`, `a`, `wx`, `ax`).
    public enum WriteMode: Sendable {
        case truncate, append, exclusive, appendExclusive
    }

    /// Writes `bytes` to `path`, created with `mode` (before the umask) when it does not exist.
    public static func writeFile(
        _ path: String, _ bytes: some Collection<UInt8>, mode writeMode: WriteMode = .truncate, permissions: Int = 0o666
    ) throws(FileSystemError) {
        var flags = O_WRONLY | O_CREAT
        switch writeMode {
        case .truncate: flags |= O_TRUNC
        case .append: flags |= O_APPEND
        case .exclusive: flags |= O_TRUNC | O_EXCL
        case .appendExclusive: flags |= O_APPEND | O_EXCL
        }
        let fd = try openFile(path, flags: flags, mode: permissions)
        var failure: FileSystemError?
        let contiguous: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            failure = writeAll(fd, UnsafeRawBufferPointer(buffer), path: path)
        }
        if contiguous == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { failure = writeAll(fd, $0, path: path) }
        }
        let closed = close(fd)
        if let failure { throw failure }
        if closed != 0 { throw FileSystemError(errno: errno, syscall: "close", path: path) }
    }

    /// The entries of directory `path` (without `.` and `..`), sorted by name as Node's libuv does not:
    /// sorting makes scripts' output stable.
    public static func readdir(_ path: String) throws(FileSystemError) -> [DirectoryEntry] {
        guard let dir = opendir(path) else { throw FileSystemError(errno: errno, syscall: "scandir", path: path) }
        defer { closedir(dir) }
        var entries: [DirectoryEntry] = []
        while let entry = Glibc.readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            var type = EntryType(direntType: entry.pointee.d_type)
            if type == .unknown, let info = try? lstat(path + "/" + name) { type = info.type }
            entries.append(DirectoryEntry(name: name, type: type))
        }
        entries.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return entries
    }

    /// `stat` (symlinks followed).
    public static func stat(_ path: String) throws(FileSystemError) -> FileStats {
        var info = Glibc.stat()
        guard systemStat(path, &info) == 0 else { throw FileSystemError(errno: errno, syscall: "stat", path: path) }
        return FileStats(info)
    }

    /// `lstat` (a symlink itself).
    public static func lstat(_ path: String) throws(FileSystemError) -> FileStats {
        var info = Glibc.stat()
        guard Glibc.lstat(path, &info) == 0 else { throw FileSystemError(errno: errno, syscall: "lstat", path: path) }
        return FileStats(info)
    }

    /// Creates directory `path`; with `recursive`, its missing parents too, and an existing directory is no
    /// error. Returns the first directory created (nil when none was), as Node's `mkdir` does.
    @discardableResult
    public static func mkdir(_ path: String, recursive: Bool = false, mode: Int = 0o777) throws(FileSystemError)
        -> String?
    {
        if Glibc.mkdir(path, mode_t(mode)) == 0 { return path }
        let failure = errno
        guard recursive else { throw FileSystemError(errno: failure, syscall: "mkdir", path: path) }
        if failure == EEXIST {
            if (try? stat(path))?.type == .directory { return nil }
            throw FileSystemError(errno: EEXIST, syscall: "mkdir", path: path)
        }
        guard failure == ENOENT else { throw FileSystemError(errno: failure, syscall: "mkdir", path: path) }
        let parent = parentDirectory(of: path)
        guard parent != path else { throw FileSystemError(errno: failure, syscall: "mkdir", path: path) }
        let first = try mkdir(parent, recursive: true, mode: mode)
        if Glibc.mkdir(path, mode_t(mode)) != 0, errno != EEXIST {
            throw FileSystemError(errno: errno, syscall: "mkdir", path: path)
        }
        return first ?? path
    }

    /// Removes `path`: a file or link; a directory only with `recursive` (its contents first). With `force`,
    /// a missing path is no error.
    public static func rm(_ path: String, recursive: Bool = false, force: Bool = false) throws(FileSystemError) {
        let info: FileStats
        do throws(FileSystemError) {
            info = try lstat(path)
        } catch {
            if force, error.errno == ENOENT { return }
            throw FileSystemError(errno: error.errno, syscall: "rm", path: path)
        }
        if info.type == .directory {
            guard recursive else { throw FileSystemError(errno: EISDIR, syscall: "rm", path: path) }
            for entry in try readdir(path) { try rm(path + "/" + entry.name, recursive: true, force: force) }
            guard Glibc.rmdir(path) == 0 else { throw FileSystemError(errno: errno, syscall: "rmdir", path: path) }
        } else {
            guard Glibc.unlink(path) == 0 else {
                if force, errno == ENOENT { return }
                throw FileSystemError(errno: errno, syscall: "unlink", path: path)
            }
        }
    }

    /// Removes the empty directory `path`.
    public static func rmdir(_ path: String) throws(FileSystemError) {
        guard Glibc.rmdir(path) == 0 else { throw FileSystemError(errno: errno, syscall: "rmdir", path: path) }
    }

    /// Removes the file or link `path`.
    public static func unlink(_ path: String) throws(FileSystemError) {
        guard Glibc.unlink(path) == 0 else { throw FileSystemError(errno: errno, syscall: "unlink", path: path) }
    }

    /// Renames `from` to `to`, replacing a file at `to`.
    public static func rename(_ from: String, _ to: String) throws(FileSystemError) {
        guard Glibc.rename(from, to) == 0 else {
            throw FileSystemError(errno: errno, syscall: "rename", path: from, dest: to)
        }
    }

    /// Copies the file `from` to `to` (its permission bits too); with `exclusive`, an existing `to` is
    /// `EEXIST`.
    public static func copyFile(_ from: String, _ to: String, exclusive: Bool = false) throws(FileSystemError) {
        let source = try openFile(from, flags: O_RDONLY, syscall: "copyfile", dest: to)
        defer { close(source) }
        var info = Glibc.stat()
        guard fstat(source, &info) == 0 else {
            throw FileSystemError(errno: errno, syscall: "copyfile", path: from, dest: to)
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            throw FileSystemError(errno: EISDIR, syscall: "copyfile", path: from, dest: to)
        }
        let flags = O_WRONLY | O_CREAT | O_TRUNC | (exclusive ? O_EXCL : 0)
        let target = try openFile(
            to, flags: flags, mode: Int(info.st_mode & 0o7777), syscall: "copyfile", dest: to,
            reportAs: from)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var failure: FileSystemError?
        while failure == nil {
            let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = FileSystemError(errno: errno, syscall: "copyfile", path: from, dest: to)
                break
            }
            if n == 0 { break }
            buffer.withUnsafeBytes { failure = writeAll(target, UnsafeRawBufferPointer(rebasing: $0[0..<n]), path: to) }
        }
        if close(target) != 0, failure == nil {
            failure = FileSystemError(errno: errno, syscall: "copyfile", path: from, dest: to)
        }
        if let failure { throw FileSystemError(errno: failure.errno, syscall: "copyfile", path: from, dest: to) }
    }

    /// Checks that `path` exists (`mode` 0, `F_OK`) or is readable (4), writable (2), executable (1), or a
    /// combination; `EACCES` or `ENOENT` otherwise.
    public static func access(_ path: String, mode: Int32 = F_OK) throws(FileSystemError) {
        guard Glibc.access(path, mode) == 0 else { throw FileSystemError(errno: errno, syscall: "access", path: path) }
    }

    /// The canonical absolute path of `path` (every link followed).
    public static func realpath(_ path: String) throws(FileSystemError) -> String {
        guard let resolved = Glibc.realpath(path, nil) else {
            throw FileSystemError(errno: errno, syscall: "realpath", path: path)
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Creates a symlink at `path` whose target is `target` (stored as written).
    public static func symlink(target: String, at path: String) throws(FileSystemError) {
        guard Glibc.symlink(target, path) == 0 else {
            throw FileSystemError(errno: errno, syscall: "symlink", path: target, dest: path)
        }
    }

    /// The target of symlink `path`, as stored.
    public static func readlink(_ path: String) throws(FileSystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = Glibc.readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { throw FileSystemError(errno: errno, syscall: "readlink", path: path) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Sets the permission bits of `path`.
    public static func chmod(_ path: String, mode: Int) throws(FileSystemError) {
        guard Glibc.chmod(path, mode_t(mode)) == 0 else {
            throw FileSystemError(errno: errno, syscall: "chmod", path: path)
        }
    }

    /// Truncates (or extends with zeros) the file `path` to `length` bytes.
    public static func truncate(_ path: String, length: Int = 0) throws(FileSystemError) {
        guard Glibc.truncate(path, off_t(length)) == 0 else {
            throw FileSystemError(errno: errno, syscall: "open", path: path)
        }
    }

    // MARK: Helpers

    /// `open(2)` with `O_CLOEXEC`, retried on `EINTR`.
    static func openFile(
        _ path: String, flags: Int32, mode: Int = 0o666, syscall: String = "open", dest: String? = nil,
        reportAs: String? = nil
    ) throws(FileSystemError) -> Int32 {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC, mode_t(mode))
            if fd >= 0 { return fd }
            if errno == EINTR { continue }
            throw FileSystemError(errno: errno, syscall: syscall, path: reportAs ?? path, dest: dest)
        }
    }

    /// Writes all of `buffer` to `fd`; the failure, if any.
    static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, path: String) -> FileSystemError? {
        var offset = 0
        while offset < buffer.count {
            let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return FileSystemError(errno: errno, syscall: "write", path: path)
            }
            offset += n
        }
        return nil
    }

    /// The directory part of `path` (`/` for `/a`, `.` for `a`).
    static func parentDirectory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let parent = trimmed[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }
}

/// `stat(2)`: at file scope, where the name is the C function rather than ``FileOperations/stat(_:)`` or the
/// struct's initializer.
private func systemStat(_ path: String, _ info: inout Glibc.stat) -> Int32 {
    stat(path, &info)
}

/// What kind of file an entry is.
public enum EntryType: String, Sendable, Hashable, CaseIterable {
    case file, directory, symlink, fifo, socket, charDevice, blockDevice, unknown

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .file
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symlink
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .charDevice
        case S_IFBLK: self = .blockDevice
        default: self = .unknown
        }
    }

    init(direntType: UInt8) {
        switch Int(direntType) {
        case Int(DT_REG): self = .file
        case Int(DT_DIR): self = .directory
        case Int(DT_LNK): self = .symlink
        case Int(DT_FIFO): self = .fifo
        case Int(DT_SOCK): self = .socket
        case Int(DT_CHR): self = .charDevice
        case Int(DT_BLK): self = .blockDevice
        default: self = .unknown
        }
    }
}

/// One entry of a directory; encodes as ``json``.
public struct DirectoryEntry: Sendable, Hashable, Encodable {
    public var name: String
    public var type: EntryType
    public init(name: String, type: EntryType) {
        self.name = name
        self.type = type
    }

    /// The entry as the pair `[name, type]`.
    public var json: JSONValue { [.string(name), .string(type.rawValue)] }

    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}

/// The fields of Node's `fs.Stats`; encodes as ``json``.
public struct FileStats: Sendable, Hashable, Encodable {
    public var type: EntryType
    public var dev, ino, mode, nlink, uid, gid, rdev, size, blksize, blocks: Int
    /// Times in milliseconds since the epoch, with sub-millisecond fractions.
    public var atimeMs, mtimeMs, ctimeMs, birthtimeMs: Double

    init(_ info: Glibc.stat) {
        type = EntryType(mode: info.st_mode)
        dev = Int(info.st_dev)
        ino = Int(info.st_ino)
        mode = Int(info.st_mode)
        nlink = Int(info.st_nlink)
        uid = Int(info.st_uid)
        gid = Int(info.st_gid)
        rdev = Int(info.st_rdev)
        size = Int(info.st_size)
        blksize = Int(info.st_blksize)
        blocks = Int(info.st_blocks)
        func ms(_ time: timespec) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000 }
        atimeMs = ms(info.st_atim)
        mtimeMs = ms(info.st_mtim)
        ctimeMs = ms(info.st_ctim)
        // stat(2) has no birth time (statx has, where the file system records it): ctime stands in.
        birthtimeMs = ctimeMs
    }

    /// The fields as JSON (`type` is the entry type's name, last).
    public var json: JSONValue {
        let numbers: [(String, Int)] = [
            ("dev", dev), ("ino", ino), ("mode", mode), ("nlink", nlink), ("uid", uid), ("gid", gid),
            ("rdev", rdev), ("size", size), ("blksize", blksize), ("blocks", blocks),
        ]
        var object = JSONObject()
        for (name, value) in numbers { object[name] = .number(Double(value)) }
        object["atimeMs"] = .number(atimeMs)
        object["mtimeMs"] = .number(mtimeMs)
        object["ctimeMs"] = .number(ctimeMs)
        object["birthtimeMs"] = .number(birthtimeMs)
        object["type"] = .string(type.rawValue)
        return .object(object)
    }

    /// Encodes ``json`` (integers are numbers as JavaScript reads them: an inode number beyond 2^53 is rounded,
    /// not refused).
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}
