#if canImport(Glibc)
    import Glibc
#endif

/// Whether a thread that waits for another thread's work may spin before it sleeps: the one rule the action
/// executor's idle workers and the JS thread waiting for answers follow.
///
/// A spin saves a thread wake-up only when the thread it waits for runs meanwhile, on another CPU. A process
/// allowed a single CPU (`taskset -c 0`, a one-CPU container's cpuset) cannot: while a worker or the JS
/// thread spins, the thread whose work it waits for is not running, so every spin lasts its whole budget and
/// then sleeps anyway (Benchmarks/README.md, "One core"). There, both sides sleep at once.
package enum Spinning {
    /// Whether spinning can pay in this process: false when it may run on one CPU only. Read once, at first use.
    package static let pays: Bool = pays(usableCPUs: usableCPUs())

    /// The rule itself: spinning pays unless the process is known to have a single CPU.
    package static func pays(usableCPUs: Int?) -> Bool { usableCPUs.map { $0 > 1 } ?? true }

    /// How many CPUs the process may run on (its affinity mask), or nil when it cannot be read.
    package static func usableCPUs() -> Int? {
        #if canImport(Glibc)
            // `sched_getaffinity` is a GNU extension the Glibc module does not import: looked up once.
            typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer?) -> Int32
            guard let symbol = dlsym(nil, "sched_getaffinity") else { return nil }
            let getAffinity = unsafeBitCast(symbol, to: GetAffinity.self)
            // A mask of 4096 CPUs, the kernel's largest configuration.
            var mask = [UInt64](repeating: 0, count: 64)
            let status = mask.withUnsafeMutableBytes { getAffinity(0, $0.count, $0.baseAddress) }
            guard status == 0 else { return nil }
            let count = mask.reduce(0) { $0 + $1.nonzeroBitCount }
            return count > 0 ? count : nil
        #else
            return nil
        #endif
    }
}
