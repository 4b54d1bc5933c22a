#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`: the project's lock, used wherever state is shared between threads.
///
/// Why not `Synchronization.Mutex`: on Linux its lock is a futex the standard library takes in code that is not
/// built with ThreadSanitizer, so TSan cannot see the lock and reports every access under it as a race (a
/// two-thread program that only appends and drains under one `Mutex` is reported; the same program on this
/// type is not). pthread mutexes are intercepted by the sanitizers, and an uncontended lock costs about the same.
public final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var value: Value

    /// A lock around `value`.
    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
