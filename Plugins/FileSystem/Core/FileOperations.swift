import FileAccess
import JSBridgeBase

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File-system operations over POSIX calls, throwing ``FileSystemError`` with Node's codes. Paths come resolved
/// and checked against the script's capabilities (``ResolvedPath``), and are opened without following any link
/// (``ResolvedPath/open(_:mode:)``): what a call touches is what was checked, even if the script swaps a
/// directory for a link in between.
public enum FileOperations {
    /// The largest file read whole: Node's limit (2 GiB − 1), below JavaScriptCore's for a buffer or a string.
    public static let maxFileBytes = Int(Int32.max)

    /// The bytes of the file at `path`.
    public static func readFile(_ path: ResolvedPath) throws(FileSystemError) -> [UInt8] {
        let fd = try open(path, O_RDONLY)
        defer { close(fd) }
        do throws(FileAccessError) {
            return try ResolvedPath.readAll(fd, maxBytes: maxFileBytes)
        } catch  where error.errno == EFBIG {
            // Node names the size: the file's, or (a file of unknown size) the first byte past the limit.
            var info = Glibc.stat()
            let known = fstat(fd, &info) == 0 && Int(info.st_size) > maxFileBytes
            throw .tooLarge(size: known ? Int(info.st_size) : maxFileBytes + 1, path: path.path)
        } catch {
            throw FileSystemError(errno: error.errno, syscall: error.syscall, path: path.path)
        }
    }

    /// The bytes of the file at `path`, read straight into one buffer of the file's size when it is a regular
    /// file (the buffer then crosses to JavaScript as it is).
    public static func readFileBytes(_ path: ResolvedPath) throws(FileSystemError) -> Bytes {
        let fd = try open(path, O_RDONLY)
        defer { close(fd) }
        let size = try regularSize(fd, path)
        guard size > 0 else { return Bytes(try readFile(path)) }
        var failure: FileSystemError?
        let bytes = Bytes(capacity: size) { buffer in
            var count = 0
            while count < size {
                let n = read(fd, buffer.baseAddress! + count, size - count)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = FileSystemError(errno: errno, syscall: "read", path: path.path)
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

    /// The size of the open file `fd` when it is a regular file (0 for others, read to their end); `EISDIR`
    /// for a directory, `ERR_FS_FILE_TOO_LARGE` past ``maxFileBytes``.
    private static func regularSize(_ fd: Int32, _ path: ResolvedPath) throws(FileSystemError) -> Int {
        var info = Glibc.stat()
        guard fstat(fd, &info) == 0 else { throw FileSystemError(errno: errno, syscall: "fstat", path: path.path) }
        if info.st_mode & S_IFMT == S_IFDIR { throw FileSystemError(errno: EISDIR, syscall: "read", path: path.path) }
        guard info.st_mode & S_IFMT == S_IFREG else { return 0 }
        let size = Int(info.st_size)
        guard size <= maxFileBytes else { throw FileSystemError.tooLarge(size: size, path: path.path) }
        return max(size, 0)
    }

    /// How `writeFile` opens its file (Node's `flag`: `w`, `a`, `wx`, `ax`).
    public enum WriteMode: Sendable {
        case truncate, append, exclusive, appendExclusive
    }

    /// Writes `bytes` to `path`, created with `mode` (before the umask) when it does not exist.
    public static func writeFile(
        _ path: ResolvedPath, _ bytes: some Collection<UInt8>, mode writeMode: WriteMode = .truncate,
        permissions: Int = 0o666
    ) throws(FileSystemError) {
        var flags = O_WRONLY | O_CREAT
        switch writeMode {
        case .truncate: flags |= O_TRUNC
        case .append: flags |= O_APPEND
        case .exclusive: flags |= O_TRUNC | O_EXCL
        case .appendExclusive: flags |= O_APPEND | O_EXCL
        }
        let fd = try open(path, flags, mode: permissions)
        var failure: FileSystemError?
        let contiguous: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            failure = writeAll(fd, UnsafeRawBufferPointer(buffer), path: path.path)
        }
        if contiguous == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { failure = writeAll(fd, $0, path: path.path) }
        }
        let closed = close(fd)
        if let failure { throw failure }
        if closed != 0 { throw FileSystemError(errno: errno, syscall: "close", path: path.path) }
    }

    /// The entries of directory `path` (without `.` and `..`), sorted by name as Node's libuv does not:
    /// sorting makes scripts' output stable.
    public static func readdir(_ path: ResolvedPath) throws(FileSystemError) -> [DirectoryEntry] {
        let fd = try open(path, O_RDONLY | O_DIRECTORY, syscall: "scandir")
        guard let dir = fdopendir(fd) else {
            close(fd)
            throw FileSystemError(errno: errno, syscall: "scandir", path: path.path)
        }
        defer { closedir(dir) }
        return entries(of: dir)
    }

    /// The entries of the open directory `dir`, sorted by name.
    private static func entries(of dir: OpaquePointer) -> [DirectoryEntry] {
        var entries: [DirectoryEntry] = []
        while let entry = Glibc.readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            var type = EntryType(direntType: entry.pointee.d_type)
            var info = Glibc.stat()
            if type == .unknown, fstatat(dirfd(dir), name, &info, AT_SYMLINK_NOFOLLOW) == 0 {
                type = EntryType(mode: info.st_mode)
            }
            entries.append(DirectoryEntry(name: name, type: type))
        }
        entries.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return entries
    }

    /// `stat` (symlinks followed: the check resolved them).
    public static func stat(_ path: ResolvedPath) throws(FileSystemError) -> FileStats {
        let fd = try open(path, O_PATH, syscall: "stat")
        defer { close(fd) }
        var info = Glibc.stat()
        guard fstat(fd, &info) == 0 else { throw FileSystemError(errno: errno, syscall: "stat", path: path.path) }
        return FileStats(info)
    }

    /// `lstat` (a symlink itself).
    public static func lstat(_ path: ResolvedPath) throws(FileSystemError) -> FileStats {
        var info = Glibc.stat()
        try entryCall(path, "lstat") { fstatat($0, $1, &info, AT_SYMLINK_NOFOLLOW) }
        return FileStats(info)
    }

    /// Creates directory `path`; with `recursive`, its missing parents too, and an existing directory is no
    /// error. Returns the first directory created (nil when none was), as Node's `mkdir` does.
    @discardableResult
    public static func mkdir(_ path: ResolvedPath, recursive: Bool = false, mode: Int = 0o777)
        throws(FileSystemError) -> String?
    {
        let failure: FileSystemError
        do throws(FileSystemError) {
            try entryCall(path, "mkdir") { mkdirat($0, $1, mode_t(mode)) }
            return path.path
        } catch {
            failure = error
        }
        guard recursive else { throw failure }
        if failure.errno == EEXIST {
            if (try? stat(path))?.type == .directory { return nil }
            throw failure
        }
        guard failure.errno == ENOENT, path.parent != path else { throw failure }
        let first = try mkdir(path.parent, recursive: true, mode: mode)
        do throws(FileSystemError) {
            try entryCall(path, "mkdir") { mkdirat($0, $1, mode_t(mode)) }
        } catch  where error.errno == EEXIST {}
        return first ?? path.path
    }

    /// Removes `path`: a file or link; a directory only with `recursive` (its contents first, each entry
    /// removed through its directory's descriptor, never by following a link). With `force`, a missing path is
    /// no error.
    public static func rm(_ path: ResolvedPath, recursive: Bool = false, force: Bool = false) throws(FileSystemError) {
        let info: FileStats
        do throws(FileSystemError) {
            info = try lstat(path)
        } catch {
            if force, error.errno == ENOENT { return }
            throw FileSystemError(errno: error.errno, syscall: "rm", path: path.path)
        }
        if info.type == .directory {
            guard recursive else { throw FileSystemError(errno: EISDIR, syscall: "rm", path: path.path) }
            let fd = try open(path, O_RDONLY | O_DIRECTORY, syscall: "rm")
            try removeContents(fd, path: path.path)
            try entryCall(path, "rmdir") { unlinkat($0, $1, AT_REMOVEDIR) }
        } else {
            do throws(FileSystemError) {
                try entryCall(path, "unlink") { unlinkat($0, $1, 0) }
            } catch  where force && error.errno == ENOENT {}
        }
    }

    /// Removes everything in the directory open at `fd` (closing it), depth first.
    private static func removeContents(_ fd: Int32, path: String) throws(FileSystemError) {
        guard let dir = fdopendir(fd) else {
            close(fd)
            throw FileSystemError(errno: errno, syscall: "rm", path: path)
        }
        defer { closedir(dir) }
        for entry in entries(of: dir) {
            let name = path + "/" + entry.name
            if entry.type == .directory {
                let child = openat(dirfd(dir), entry.name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { throw FileSystemError(errno: errno, syscall: "rm", path: name) }
                try removeContents(child, path: name)
            }
            guard unlinkat(dirfd(dir), entry.name, entry.type == .directory ? AT_REMOVEDIR : 0) == 0 else {
                throw FileSystemError(errno: errno, syscall: entry.type == .directory ? "rmdir" : "unlink", path: name)
            }
        }
    }

    /// Removes the empty directory `path`.
    public static func rmdir(_ path: ResolvedPath) throws(FileSystemError) {
        try entryCall(path, "rmdir") { unlinkat($0, $1, AT_REMOVEDIR) }
    }

    /// Removes the file or link `path`.
    public static func unlink(_ path: ResolvedPath) throws(FileSystemError) {
        try entryCall(path, "unlink") { unlinkat($0, $1, 0) }
    }

    /// Renames `from` to `to`, replacing a file at `to`.
    public static func rename(_ from: ResolvedPath, _ to: ResolvedPath) throws(FileSystemError) {
        let source = try parent(from, "rename", dest: to)
        let target = try parent(to, "rename", dest: to, reportAs: from)
        let failure = source.withEntry { fromDirectory, fromName in
            target.withEntry { renameat(fromDirectory, fromName, $0, $1) == 0 ? 0 : errno }
        }
        guard failure == 0 else {
            throw FileSystemError(errno: failure, syscall: "rename", path: from.path, dest: to.path)
        }
    }

    /// Copies the file `from` to `to` (its permission bits too); with `exclusive`, an existing `to` is
    /// `EEXIST`.
    public static func copyFile(_ from: ResolvedPath, _ to: ResolvedPath, exclusive: Bool = false)
        throws(FileSystemError)
    {
        let source = try open(from, O_RDONLY, syscall: "copyfile", dest: to)
        defer { close(source) }
        var info = Glibc.stat()
        guard fstat(source, &info) == 0 else {
            throw FileSystemError(errno: errno, syscall: "copyfile", path: from.path, dest: to.path)
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            throw FileSystemError(errno: EISDIR, syscall: "copyfile", path: from.path, dest: to.path)
        }
        let flags = O_WRONLY | O_CREAT | O_TRUNC | (exclusive ? O_EXCL : 0)
        let target = try open(
            to, flags, mode: Int(info.st_mode & 0o7777), syscall: "copyfile", dest: to, reportAs: from)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var failure: FileSystemError?
        while failure == nil {
            let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = FileSystemError(errno: errno, syscall: "copyfile", path: from.path, dest: to.path)
                break
            }
            if n == 0 { break }
            buffer.withUnsafeBytes {
                failure = writeAll(target, UnsafeRawBufferPointer(rebasing: $0[0..<n]), path: to.path)
            }
        }
        if close(target) != 0, failure == nil {
            failure = FileSystemError(errno: errno, syscall: "copyfile", path: from.path, dest: to.path)
        }
        if let failure {
            throw FileSystemError(errno: failure.errno, syscall: "copyfile", path: from.path, dest: to.path)
        }
    }

    /// Checks that `path` exists (`mode` 0, `F_OK`) or is readable (4), writable (2), executable (1), or a
    /// combination; `EACCES` or `ENOENT` otherwise.
    public static func access(_ path: ResolvedPath, mode: Int32 = F_OK) throws(FileSystemError) {
        let fd = try open(path, O_PATH, syscall: "access")
        defer { close(fd) }
        guard mode == F_OK || faccessat(fd, "", mode, AT_EMPTY_PATH) == 0 else {
            throw FileSystemError(errno: errno, syscall: "access", path: path.path)
        }
    }

    /// The canonical absolute path of `path`, which must exist: the resolved path itself (the check followed
    /// every link).
    public static func realpath(_ path: ResolvedPath) throws(FileSystemError) -> String {
        close(try open(path, O_PATH, syscall: "realpath"))
        return path.path
    }

    /// Creates a symlink at `path` whose target is `target` (stored as written).
    public static func symlink(target: String, at path: ResolvedPath) throws(FileSystemError) {
        var failure: Int32 = 0
        do throws(FileAccessError) {
            let directory = try path.openParent()
            failure = directory.withEntry { symlinkat(target, $0, $1) == 0 ? 0 : errno }
        } catch {
            failure = error.errno
        }
        guard failure == 0 else {
            throw FileSystemError(errno: failure, syscall: "symlink", path: target, dest: path.path)
        }
    }

    /// The target of symlink `path`, as stored.
    public static func readlink(_ path: ResolvedPath) throws(FileSystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try entryCall(path, "readlink") { readlinkat($0, $1, &buffer, buffer.count - 1) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Sets the permission bits of `path`.
    public static func chmod(_ path: ResolvedPath, mode: Int) throws(FileSystemError) {
        let fd = try open(path, O_PATH, syscall: "chmod")
        defer { close(fd) }
        // `fchmod` refuses an `O_PATH` descriptor; its /proc name reaches exactly the object opened.
        guard Glibc.chmod("/proc/self/fd/\(fd)", mode_t(mode)) == 0 else {
            throw FileSystemError(errno: errno, syscall: "chmod", path: path.path)
        }
    }

    /// The bytes of the file at `path` from offset `start` up to `end` (or the file's end, if sooner): a slice
    /// read with `pread`, without reading the rest (cordova-plugin-file reads large files in slices).
    public static func readRange(_ path: ResolvedPath, start: Int, end: Int) throws(FileSystemError) -> [UInt8] {
        let fd = try open(path, O_RDONLY)
        defer { close(fd) }
        var info = Glibc.stat()
        guard fstat(fd, &info) == 0 else { throw FileSystemError(errno: errno, syscall: "fstat", path: path.path) }
        if info.st_mode & S_IFMT == S_IFDIR { throw FileSystemError(errno: EISDIR, syscall: "read", path: path.path) }
        let wanted = max(0, min(end, maxFileBytes) - max(start, 0))
        var bytes = [UInt8](repeating: 0, count: wanted)
        var count = 0
        while count < wanted {
            let n = bytes.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + count, wanted - count, off_t(start + count))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(errno: errno, syscall: "read", path: path.path)
            }
            if n == 0 { break }
            count += n
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Writes `bytes` to the file at `path` at offset `position`, as Cordova's file writer does: the file
    /// (created when missing) is first cut to `position`, so what was after it is gone; returns the bytes written.
    public static func writeTruncating(_ path: ResolvedPath, _ bytes: [UInt8], at position: Int) throws(FileSystemError)
        -> Int
    {
        let fd = try open(path, O_WRONLY | O_CREAT)
        var failure: FileSystemError?
        if ftruncate(fd, off_t(max(position, 0))) != 0 {
            failure = FileSystemError(errno: errno, syscall: "write", path: path.path)
        } else if lseek(fd, off_t(max(position, 0)), SEEK_SET) < 0 {
            failure = FileSystemError(errno: errno, syscall: "write", path: path.path)
        } else {
            bytes.withUnsafeBytes { failure = writeAll(fd, $0, path: path.path) }
        }
        let closed = close(fd)
        if let failure { throw failure }
        if closed != 0 { throw FileSystemError(errno: errno, syscall: "close", path: path.path) }
        return bytes.count
    }

    /// Truncates (or extends with zeros) the file `path` to `length` bytes.
    public static func truncate(_ path: ResolvedPath, length: Int = 0) throws(FileSystemError) {
        let fd = try open(path, O_WRONLY)
        defer { close(fd) }
        guard ftruncate(fd, off_t(length)) == 0 else {
            throw FileSystemError(errno: errno, syscall: "open", path: path.path)
        }
    }

    // MARK: Helpers

    /// Opens `path` following no link (``ResolvedPath/open(_:mode:)``), reporting a failure as `syscall`.
    static func open(
        _ path: ResolvedPath, _ flags: Int32, mode: Int = 0o666, syscall: String = "open", dest: ResolvedPath? = nil,
        reportAs: ResolvedPath? = nil
    ) throws(FileSystemError) -> Int32 {
        do throws(FileAccessError) {
            return try path.open(flags, mode: mode_t(mode))
        } catch {
            throw FileSystemError(errno: error.errno, syscall: syscall, path: (reportAs ?? path).path, dest: dest?.path)
        }
    }

    /// The directory of `path`, opened following no link, for a call on the entry itself.
    private static func parent(
        _ path: ResolvedPath, _ syscall: String, dest: ResolvedPath? = nil, reportAs: ResolvedPath? = nil
    ) throws(FileSystemError) -> ParentDirectory {
        do throws(FileAccessError) {
            return try path.openParent()
        } catch {
            throw FileSystemError(errno: error.errno, syscall: syscall, path: (reportAs ?? path).path, dest: dest?.path)
        }
    }

    /// Runs the `*at` call `body` on the entry `path` names in its directory; its result, or `syscall`'s error
    /// when it is negative.
    @discardableResult
    private static func entryCall<T: BinaryInteger>(
        _ path: ResolvedPath, _ syscall: String, _ body: (Int32, UnsafePointer<CChar>) -> T
    ) throws(FileSystemError) -> T {
        let directory = try parent(path, syscall)
        let (result, failure) = directory.withEntry { descriptor, name in
            let result = body(descriptor, name)
            return (result, result < 0 ? errno : 0)
        }
        guard result >= 0 else { throw FileSystemError(errno: failure, syscall: syscall, path: path.path) }
        return result
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
