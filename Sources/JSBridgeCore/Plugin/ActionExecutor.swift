import Foundation
import Synchronization

/// The concurrent pool that runs async and stream actions (a Swift `TaskExecutor`).
///
/// A fixed set of worker threads share one FIFO queue. An idle worker spins briefly before it sleeps, so a
/// steady stream of calls (one in flight at a time, say) finds a worker awake instead of paying a thread
/// wake-up per call. At most one worker spins at a time, so idle workers never crowd the JS thread off a
/// small machine; a sleeping worker is woken only when a job arrives. The spin adapts: it halves after each
/// spin that found no job and returns to its maximum when a sleeping worker is woken within that time, so
/// actions that wait on I/O longer than a spin (network requests) do not keep a core busy. In a process
/// allowed one CPU, workers never spin (``Spinning``).
public final class ActionExecutor: TaskExecutor, @unchecked Sendable {
    /// The process-wide pool, one worker per core (at least two); its workers spin when ``Spinning/pays``.
    public static let shared = ActionExecutor(
        threads: max(2, ProcessInfo.processInfo.activeProcessorCount), spins: Spinning.pays)

    /// The longest an idle worker keeps looking for work before it sleeps, in nanoseconds.
    static let spinNanoseconds = 50_000

    // Invariant: `jobs`, `head` and `sleepers` are only touched with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var sleepers = 0
    private let queued = Atomic<Int>(0)
    private let spinning = Atomic<Bool>(false)
    /// The current spin, in nanoseconds (see the type's documentation); always 0 when the workers never spin.
    private let spinBudget: Atomic<Int>
    /// Whether idle workers spin at all.
    private let spins: Bool

    /// Starts a pool of `threads` workers (they live as long as the process); `spins`: whether an idle worker
    /// spins before it sleeps.
    public init(threads: Int, spins: Bool = true) {
        self.spins = spins
        spinBudget = Atomic(spins ? Self.spinNanoseconds : 0)
        for index in 0..<threads {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "jsbridge-action-\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        queued.add(1, ordering: .releasing)
        if sleepers > 0 { condition.signal() }
        condition.unlock()
    }

    private func take() -> UnownedJob? {
        condition.lock()
        defer { condition.unlock() }
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        }
        queued.subtract(1, ordering: .relaxed)
        return job
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        while true {
            if let job = take() {
                job.runSynchronously(on: executor)
                continue
            }
            let budget = spinBudget.load(ordering: .relaxed)
            if budget > 0, spinning.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
                let until = Self.now() + budget
                while queued.load(ordering: .acquiring) == 0, Self.now() < until {}
                spinning.store(false, ordering: .releasing)
                if queued.load(ordering: .acquiring) > 0 { continue }
                spinBudget.store(budget < 4_000 ? 0 : budget / 2, ordering: .relaxed)
            }
            let asleep = spins ? Self.now() : 0
            condition.lock()
            while head >= jobs.count {
                sleepers += 1
                condition.wait()
                sleepers -= 1
            }
            condition.unlock()
            if spins, Self.now() - asleep < Self.spinNanoseconds {
                spinBudget.store(Self.spinNanoseconds, ordering: .relaxed)
            }
        }
    }

    /// Monotonic nanoseconds.
    private static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }
}
