import Foundation
import Synchronization

/// The concurrent pool that runs async and stream actions (a Swift `TaskExecutor`).
///
/// A core set of worker threads share one FIFO queue. An idle worker spins briefly before it sleeps, so a
/// steady stream of calls (one in flight at a time, say) finds a worker awake instead of paying a thread
/// wake-up per call. At most one worker spins at a time, so idle workers never crowd the JS thread off a
/// small machine; a sleeping worker is woken only when a job arrives. The spin adapts: it halves after each
/// spin that found no job and returns to its maximum when a sleeping worker is woken within that time, so
/// actions that wait on I/O longer than a spin (network requests) do not keep a core busy. In a process
/// allowed one CPU, workers never spin (``Spinning``).
///
/// Actions may block their thread (a synchronous database client waiting for its server, a file lock). So
/// that a few blocked jobs cannot hold back every other call of the process, a watchdog adds a worker when
/// jobs have waited a whole ``starvationCheck`` with every worker busy and none taking a job. Such an extra
/// worker ends after ``extraWorkerIdle`` without work; it never spins.
public final class ActionExecutor: TaskExecutor, @unchecked Sendable {
    /// The process-wide pool, one worker per core (at least two); its workers spin when ``Spinning/pays``.
    public static let shared = ActionExecutor(
        threads: max(2, ProcessInfo.processInfo.activeProcessorCount), spins: Spinning.pays)

    /// The longest an idle worker keeps looking for work before it sleeps, in nanoseconds.
    static let spinNanoseconds = 50_000
    /// How long queued jobs may wait with every worker busy before the watchdog adds a worker.
    static let starvationCheck = Duration.milliseconds(20)
    /// The most workers the pool grows to; past it, jobs wait for a worker to come free.
    static let maximumWorkers = 256

    // Invariant: `jobs`, `head`, `sleepers`, `workers`, `taken` and `watchdogParked` are only touched with
    // `condition` locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var sleepers = 0
    /// Live workers, core and extra.
    private var workers: Int
    /// Jobs taken so far (the watchdog's sign of progress).
    private var taken = 0
    /// Whether the watchdog sleeps until the next job (it does after a second with nothing queued).
    private var watchdogParked = false
    private let watchdogWake = DispatchSemaphore(value: 0)
    /// How long an extra worker waits for a job before it ends.
    private let extraWorkerIdle: Duration
    private let queued = Atomic<Int>(0)
    private let spinning = Atomic<Bool>(false)
    /// The current spin, in nanoseconds (see the type's documentation); always 0 when the workers never spin.
    private let spinBudget: Atomic<Int>
    /// Whether idle workers spin at all.
    private let spins: Bool

    /// Starts a pool of `threads` core workers (they live as long as the process); `spins`: whether an idle
    /// worker spins before it sleeps; `extraWorkerIdle`: how long a worker added for blocked jobs waits for
    /// another job before it ends.
    public init(threads: Int, spins: Bool = true, extraWorkerIdle: Duration = .seconds(5)) {
        self.spins = spins
        self.extraWorkerIdle = extraWorkerIdle
        workers = threads
        spinBudget = Atomic(spins ? Self.spinNanoseconds : 0)
        for _ in 0..<threads { startThread { [unowned self] in self.work() } }
        startThread { [unowned self] in self.watch() }
    }

    private func startThread(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.stackSize = 8 << 20
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        queued.add(1, ordering: .releasing)
        if sleepers > 0 { condition.signal() }
        if watchdogParked {
            watchdogParked = false
            watchdogWake.signal()
        }
        condition.unlock()
    }

    /// The number of live workers (core and extra).
    var workerCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return workers
    }

    /// Takes the next job; `condition` must be locked.
    private func takeLocked() -> UnownedJob? {
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        taken &+= 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        }
        queued.subtract(1, ordering: .relaxed)
        return job
    }

    private func take() -> UnownedJob? {
        condition.lock()
        defer { condition.unlock() }
        return takeLocked()
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

    /// An extra worker: runs jobs until none comes for ``extraWorkerIdle``, then ends.
    private func workExtra() {
        let executor = asUnownedTaskExecutor()
        condition.lock()
        while true {
            if let job = takeLocked() {
                condition.unlock()
                job.runSynchronously(on: executor)
                condition.lock()
                continue
            }
            sleepers += 1
            let woken = condition.wait(until: Date(timeIntervalSinceNow: Self.seconds(extraWorkerIdle)))
            sleepers -= 1
            if !woken, head >= jobs.count { break }
        }
        workers -= 1
        condition.unlock()
    }

    /// The watchdog: every ``starvationCheck`` while jobs come, adds a worker when jobs waited the whole
    /// interval with no worker idle and none taken; sleeps until the next job after a second with none.
    private func watch() {
        var lastTaken = 0
        var quietChecks = 0
        let checksPerSecond = Int(Duration.seconds(1) / Self.starvationCheck)
        while true {
            condition.lock()
            let waiting = head < jobs.count
            let starved = waiting && sleepers == 0 && taken == lastTaken && workers < Self.maximumWorkers
            quietChecks = waiting || taken != lastTaken ? 0 : quietChecks + 1
            lastTaken = taken
            if starved { workers += 1 }
            let park = quietChecks >= checksPerSecond
            if park { watchdogParked = true }
            condition.unlock()
            if starved { startThread { [unowned self] in self.workExtra() } }
            if park {
                watchdogWake.wait()
                quietChecks = 0
            } else {
                Thread.sleep(forTimeInterval: Self.seconds(Self.starvationCheck))
            }
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Monotonic nanoseconds.
    private static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }
}
