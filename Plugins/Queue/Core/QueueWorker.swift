import Foundation
import JSBridgeBase

/// How a handler finished a job.
public enum JobOutcome: Sendable, Hashable {
    case completed
    case failed(String)
}

/// A worker of one queue: claims due jobs up to `concurrency` at a time, runs `handler` on each, completes or
/// fails it, and keeps its leases alive with heartbeats every third of `leaseMs` while handlers run.
///
/// A process that dies stops heartbeating: its jobs are claimable again once their leases end. Stopping a
/// worker (cancelling ``run(_:)``) gives back the leases of the jobs whose handlers have not finished.
/// Store calls block their thread for one transaction (SQLite, libpq); the plugin runs workers on its own
/// executors.
public final class QueueWorker: Sendable {
    public let store: any JobStore
    public let queue: String
    /// This worker's id in the store (unique per worker).
    public let id: String
    public let concurrency: Int
    public let leaseMs: Int64
    /// How long to wait before looking again when no job is due (shortened to the next due time).
    public let pollInterval: Duration
    public let clock: any BridgeClock
    /// Store failures while polling (the worker keeps going): the plugin reports them.
    private let onStoreError: @Sendable (QueueError) -> Void
    private let held = Locked<[Int64: Int]>([:])
    /// Jobs whose handlers completed, waiting for the run loop to mark them done (still in `held`).
    private let finished = Locked<[Completion]>([])
    private let slotFreed = Doorbell()
    private let lane: BlockingLane

    public init(
        store: any JobStore, queue: String, id: String = UUID().uuidString, concurrency: Int = 1,
        leaseMs: Int64 = 30_000, pollInterval: Duration = .milliseconds(200), clock: any BridgeClock = SystemClock(),
        onStoreError: @escaping @Sendable (QueueError) -> Void = { _ in }
    ) {
        self.store = store
        self.queue = queue
        self.id = id
        self.concurrency = max(1, concurrency)
        self.leaseMs = max(100, leaseMs)
        self.pollInterval = pollInterval
        self.clock = clock
        self.onStoreError = onStoreError
        lane = BlockingLane(label: "jsbridge.queue.worker")
    }

    /// The ids of the jobs this worker holds: handlers running, or finished and not marked done yet.
    public var running: [Int64] { held.withLock { Array($0.keys).sorted() } }

    private func now() -> Int64 { epochMilliseconds(clock.now()) }

    /// Runs until cancelled. `handler` is called once per leased job, concurrently up to `concurrency`; it
    /// returns nil to give the job back (when it was cancelled before finishing).
    ///
    /// Completions are batched: a finished job keeps its slot (and its heartbeat) until the next cycle's
    /// ``JobStore/completeAndClaim(_:completions:worker:limit:leaseMs:now:)`` commits it together with the
    /// jobs that finished meanwhile and claims the free slots, so a busy worker makes one round trip per batch
    /// rather than two per job.
    public func run(_ handler: @escaping @Sendable (LeasedJob) async -> JobOutcome?) async {
        // The heartbeat is a child task, so it runs where the caller runs (its executor preference), not on
        // Swift's global pool, whose backlog in a busy process could let leases lapse; it ends with the run.
        await withTaskGroup(of: Void.self) { heartbeat in
            heartbeat.addTask { [self] in await heartbeats() }
            await work(handler)
            heartbeat.cancelAll()
        }
    }

    private func work(_ handler: @escaping @Sendable (LeasedJob) async -> JobOutcome?) async {
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                let completions = finished.withLock { finished -> [Completion] in
                    defer { finished.removeAll() }
                    return finished
                }
                let free = concurrency - held.withLock { $0.count } + completions.count
                var jobs: [LeasedJob] = []
                var failed = false
                if free > 0 {
                    do throws(QueueError) {
                        let (store, queue, id, leaseMs, now) = (store, queue, id, leaseMs, now())
                        jobs = try await lane.run { () throws(QueueError) in
                            try store.completeAndClaim(
                                queue, completions: completions, worker: id, limit: free, leaseMs: leaseMs, now: now
                            ).claimed
                        }
                    } catch {
                        // The completions are tried again next cycle (marking a job done twice changes
                        // nothing); their leases stay alive meanwhile.
                        finished.withLock { $0.append(contentsOf: completions) }
                        failed = true
                        onStoreError(error)
                    }
                }
                if !failed {
                    held.withLock { held in for completion in completions { held.removeValue(forKey: completion.id) } }
                }
                for job in jobs {
                    held.withLock { $0[job.id] = job.attempt }
                    group.addTask { [self] in await execute(job, handler) }
                }
                if !failed && free > 0 && jobs.count == free { continue }
                // Every slot busy, or nothing due: wait for a job to finish, a poll, or the next due job.
                var wait = pollInterval
                let (store, queue) = (store, queue)
                if !failed, free > jobs.count,
                    let next = try? await lane.run({ () throws(QueueError) in try store.nextDue(queue) })
                {
                    let untilNext = Duration.milliseconds(max(1, next - now()))
                    if untilNext < wait { wait = untilNext }
                }
                await slotFreed.wait(timeout: wait, clock: clock)
            }
            group.cancelAll()
        }
        // Completions not committed yet, then the leases of handlers that never finished go back to the queue.
        let completions = finished.withLock { finished -> [Completion] in
            defer { finished.removeAll() }
            return finished
        }
        if !completions.isEmpty {
            do throws(QueueError) {
                let (store, queue, id, leaseMs, now) = (store, queue, id, leaseMs, now())
                _ = try await lane.run { () throws(QueueError) in
                    try store.completeAndClaim(
                        queue, completions: completions, worker: id, limit: 0, leaseMs: leaseMs, now: now)
                }
            } catch {
                onStoreError(error)
            }
        }
        let left = held.withLock { held -> [Int64] in
            defer { held.removeAll() }
            return Array(held.keys).filter { id in !completions.contains { $0.id == id } }
        }
        if !left.isEmpty {
            do throws(QueueError) {
                let (store, id, now) = (store, id, now())
                try await lane.run { () throws(QueueError) in try store.release(left, worker: id, now: now) }
            } catch {
                onStoreError(error)
            }
        }
    }

    private func execute(_ job: LeasedJob, _ handler: @escaping @Sendable (LeasedJob) async -> JobOutcome?) async {
        // A handler that gave up (nil: the worker is stopping) leaves its lease to `run`'s release.
        guard let outcome = await handler(job) else { return }
        switch outcome {
        case .completed:
            // Committed by the run loop's next cycle, which frees the slot.
            finished.withLock { $0.append(Completion(id: job.id, attempt: job.attempt)) }
            slotFreed.ring()
        case .failed(let message):
            defer {
                held.withLock { _ = $0.removeValue(forKey: job.id) }
                slotFreed.ring()
            }
            let (store, id, now) = (store, id, now())
            do throws(QueueError) {
                _ = try await lane.run { () throws(QueueError) in
                    try store.fail(job.id, worker: id, attempt: job.attempt, error: message, now: now)
                }
            } catch {
                // The lease ends on its own and the job runs again: at least once.
                onStoreError(error)
            }
        }
    }

    private func heartbeats() async {
        let interval = Duration.milliseconds(max(1, leaseMs / 3))
        while !Task.isCancelled {
            do {
                try await clock.sleep(for: interval)
            } catch {
                return
            }
            let ids = running
            guard !ids.isEmpty else { continue }
            do throws(QueueError) {
                let (store, id, leaseMs, now) = (store, id, leaseMs, now())
                _ = try await lane.run { () throws(QueueError) in
                    try store.heartbeat(ids, worker: id, leaseMs: leaseMs, now: now)
                }
            } catch {
                onStoreError(error)
            }
        }
    }
}

/// A wake-up one task waits for, with a time limit; a ring with no waiter is kept for the next wait.
public final class Doorbell: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    public init() {}

    /// Wakes the waiting task, or the next one to wait.
    public func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns on a ring (or one that came since the last wait), after `timeout` on `clock`, or on cancellation.
    public func wait(timeout: Duration, clock: any BridgeClock) async {
        if state.withLock({ state in
            defer { state.rung = false }
            return state.rung
        }) {
            return
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await clock.sleep(for: timeout) }
            group.addTask { [self] in await rung() }
            _ = await group.next()
            group.cancelAll()
        }
    }

    private func rung() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.rung || Task.isCancelled {
                        state.rung = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }?.resume()
        }
    }
}
