import COpenat2

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `open(2)`'s flag for a descriptor that only names an object (for `fstat` and the `*at` calls).
public let O_PATH = Int32(JSB_O_PATH)
/// `AT_EMPTY_PATH`: the `*at` calls act on the descriptor itself.
public let AT_EMPTY_PATH = Int32(JSB_AT_EMPTY_PATH)

/// A file-system call that failed: its `errno` and the call's name.
public struct FileAccessError: Error, Sendable, Hashable, CustomStringConvertible {
    public var errno: Int32
    public var syscall: String

    public init(errno: Int32, syscall: String) {
        self.errno = errno
        self.syscall = syscall
    }

    public var description: String { "\(syscall): \(String(cString: strerror(errno)))" }
}

extension ResolvedPath {
    /// Opens the path (`open(2)` `flags`, `O_CLOEXEC` added) without following any symlink on the way, the
    /// last component included: the descriptor is of the object the path names now, or the call fails with
    /// `ELOOP` where a link stands (one swapped in since the check, or a final link kept by
    /// `followingFinalLink: false`, which ``openParent()`` acts on instead). The caller closes it.
    ///
    /// `openat2(2)` with `RESOLVE_NO_SYMLINKS` does the walk where the kernel has it (Linux 5.6 and later);
    /// elsewhere each component is opened with `O_NOFOLLOW` from the one before.
    public func open(_ flags: Int32, mode: mode_t = 0o666) throws(FileAccessError) -> Int32 {
        try Self.openFromRoot(bytes.dropFirst(), flags: flags, mode: mode, walking: false)
    }

    /// The path's directory, opened as ``open(_:mode:)`` opens, and its last name: for the calls that act on
    /// a directory entry itself (`fstatat` with `AT_SYMLINK_NOFOLLOW`, `unlinkat`, `renameat`, `symlinkat`,
    /// `readlinkat`, `mkdirat`). `/` is its own directory, named `.`.
    public func openParent() throws(FileAccessError) -> ParentDirectory {
        let slash = bytes.lastIndex(of: UInt8(ascii: "/")) ?? 0
        let name = bytes[(slash + 1)...]
        let directory = try Self.openFromRoot(
            bytes[1..<max(slash, 1)], flags: O_PATH | O_DIRECTORY, mode: 0, walking: false)
        return ParentDirectory(descriptor: directory, name: name.isEmpty ? [UInt8(ascii: ".")] : Array(name))
    }

    /// The directory this path is in (`/` for `/`).
    public var parent: ResolvedPath {
        let slash = bytes.lastIndex(of: UInt8(ascii: "/")) ?? 0
        return ResolvedPath(resolvedBytes: Array(bytes[..<max(slash, 1)]))
    }

    /// The root directory, where every resolved path starts.
    private static let root = Glibc.open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)

    /// Opens `relative` (names separated by `/`, no `.` or `..`) beneath `/` following no link; with `walking`,
    /// component by component even where `openat2` exists (the tests check both ways agree).
    static func openFromRoot(_ relative: ArraySlice<UInt8>, flags: Int32, mode: mode_t, walking: Bool)
        throws(FileAccessError) -> Int32
    {
        // A NUL would end the C string early, opening a path other than the one checked.
        guard !relative.contains(0) else { throw FileAccessError(errno: EINVAL, syscall: "open") }
        let flags = flags | O_CLOEXEC
        if !walking {
            let name = relative.isEmpty ? [UInt8(ascii: ".")] : Array(relative)
            while true {
                let fd = name.withCString { jsb_openat2_no_symlinks(root, $0, flags, mode) }
                if fd >= 0 { return fd }
                if errno == EINTR { continue }
                guard errno == ENOSYS else { throw FileAccessError(errno: errno, syscall: "open") }
                break
            }
        }
        return try walk(relative, flags: flags, mode: mode)
    }

    /// `openat` from `/`, one component at a time, each with `O_NOFOLLOW`.
    private static func walk(_ relative: ArraySlice<UInt8>, flags: Int32, mode: mode_t) throws(FileAccessError)
        -> Int32
    {
        let names = relative.split(separator: UInt8(ascii: "/"))
        var directory = root
        defer { if directory != root { close(directory) } }
        for name in names.dropLast() {
            guard !isDotDot(name) else { throw FileAccessError(errno: EXDEV, syscall: "open") }
            let next = try openAt(directory, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, mode: 0)
            if directory != root { close(directory) }
            directory = next
        }
        let last = names.last ?? [UInt8(ascii: ".")][...]
        guard !isDotDot(last) else { throw FileAccessError(errno: EXDEV, syscall: "open") }
        let fd = try openAt(directory, last, flags | O_NOFOLLOW, mode: mode)
        // `O_PATH | O_NOFOLLOW` opens a link itself where `openat2` refuses it.
        var info = stat()
        if flags & O_PATH != 0, fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            close(fd)
            throw FileAccessError(errno: ELOOP, syscall: "open")
        }
        return fd
    }

    /// `openat(2)` retried on `EINTR`; a link met where a directory was asked for is `ELOOP`, as `openat2` says.
    private static func openAt(_ directory: Int32, _ name: ArraySlice<UInt8>, _ flags: Int32, mode: mode_t)
        throws(FileAccessError) -> Int32
    {
        let name = Array(name)
        while true {
            let fd = name.withCString { openat(directory, $0, flags, mode) }
            if fd >= 0 { return fd }
            var failure = errno
            if failure == EINTR { continue }
            var info = stat()
            if failure == ENOTDIR, name.withCString({ fstatat(directory, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0,
                info.st_mode & S_IFMT == S_IFLNK
            {
                failure = ELOOP
            }
            throw FileAccessError(errno: failure, syscall: "open")
        }
    }
}

/// A directory entry to act on: its directory's descriptor (closed with this value) and its name.
public struct ParentDirectory: ~Copyable {
    /// The directory's descriptor (`O_PATH`), for the `*at` calls.
    public let descriptor: Int32
    /// The entry's name in it.
    public let name: [UInt8]

    /// Calls `body` with the directory's descriptor and the name as a C string.
    public func withEntry<T>(_ body: (_ directory: Int32, _ name: UnsafePointer<CChar>) -> T) -> T {
        name.withCString { body(descriptor, $0) }
    }

    deinit { close(descriptor) }
}

extension ResolvedPath {
    /// The whole file, opened as ``open(_:mode:)`` opens: `EISDIR` for a directory, `EFBIG` for more than
    /// `maxBytes`.
    public func read(maxBytes: Int) throws(FileAccessError) -> [UInt8] {
        let fd = try open(O_RDONLY)
        defer { close(fd) }
        return try Self.readAll(fd, maxBytes: maxBytes)
    }

    /// The rest of the open file `fd`: a regular file in one allocation of its size, others (`/proc`, pipes)
    /// in growing steps, until their end; `EISDIR` for a directory, `EFBIG` past `maxBytes` (checked before
    /// reading when the size is known).
    public static func readAll(_ fd: Int32, maxBytes: Int) throws(FileAccessError) -> [UInt8] {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileAccessError(errno: errno, syscall: "fstat") }
        if info.st_mode & S_IFMT == S_IFDIR { throw FileAccessError(errno: EISDIR, syscall: "read") }
        let size = info.st_mode & S_IFMT == S_IFREG ? max(Int(info.st_size), 0) : 0
        guard size <= maxBytes else { throw FileAccessError(errno: EFBIG, syscall: "read") }
        var bytes = [UInt8](repeating: 0, count: size == 0 ? min(65536, maxBytes) : size)
        var count = 0
        while true {
            if count == bytes.count {
                // A byte read before growing: a regular file usually ends at its size, and a file that ends
                // exactly at the limit is not refused.
                var probe: UInt8 = 0
                let n = Glibc.read(fd, &probe, 1)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw FileAccessError(errno: errno, syscall: "read")
                }
                if n == 0 { break }
                guard count < maxBytes else { throw FileAccessError(errno: EFBIG, syscall: "read") }
                bytes.append(probe)
                count += 1
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, maxBytes - bytes.count)))
                continue
            }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileAccessError(errno: errno, syscall: "read")
            }
            if n == 0 { break }
            count += n
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}
