#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's free file descriptors, checked before creating what cannot fail gracefully without them.
///
/// SwiftNIO ends the process (`fatalError`) when an event loop it starts cannot create its epoll, eventfd
/// or timerfd descriptor; a script that opened files up to `ulimit -n` must get `EMFILE` instead
/// (docs/limits.md, "File descriptors"). Sockets, files and pipes fail with an error of their own.
public enum FileDescriptors {
    /// The descriptors one SwiftNIO event loop creates: its epoll, an eventfd and a timerfd.
    public static let perEventLoop = 3

    /// Whether `count` more descriptors can be opened now: they are opened and closed again. Another thread
    /// may take them in between; this tells a process at its limit from one that is not.
    public static func available(_ count: Int) -> Bool {
        var opened: [Int32] = []
        opened.reserveCapacity(count)
        defer { for fd in opened { close(fd) } }
        for _ in 0..<count {
            let fd = openOne()
            if fd < 0 { return errno != EMFILE && errno != ENFILE }
            opened.append(fd)
        }
        return true
    }

    /// Descriptors held open now so that something created later (an event loop) finds them free once
    /// ``release()`` closes them. Not thread-safe: one owner.
    public final class Reserve {
        private var descriptors: [Int32]

        /// Opens up to `count` descriptors (fewer if the process is at its limit already).
        public init(_ count: Int) {
            descriptors = []
            descriptors.reserveCapacity(count)
            for _ in 0..<count {
                let fd = FileDescriptors.openOne()
                if fd < 0 { break }
                descriptors.append(fd)
            }
        }

        /// Closes the descriptors held (once).
        public func release() {
            for fd in descriptors { close(fd) }
            descriptors = []
        }

        deinit { release() }
    }

    /// A descriptor that costs nothing to hold: the root directory, opened for no reading.
    fileprivate static func openOne() -> Int32 {
        open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }
}
