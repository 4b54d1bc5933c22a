import Foundation
import JSBridgeBase

// The domain core of the Queue plugin: durable named job queues with leases, retries with backoff and a
// dead-letter list, on one SQLite file (one machine) or a PostgreSQL database (many hosts). No bridge types
// here: tests and other Swift code drive a ``JobStore`` directly, with the time passed in (docs/queues.md).

/// How long a failed job waits before its next attempt.
public struct Backoff: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The same delay before every retry.
        case fixed
        /// `delayMs × 2^(attempt − 1)`, capped at `maxDelayMs`.
        case exponential
    }

    public var kind: Kind
    /// The delay before the first retry, in milliseconds.
    public var delayMs: Int64
    /// The longest delay, in milliseconds.
    public var maxDelayMs: Int64

    public init(kind: Kind = .exponential, delayMs: Int64 = 1000, maxDelayMs: Int64 = 3_600_000) {
        self.kind = kind
        self.delayMs = delayMs
        self.maxDelayMs = maxDelayMs
    }

    /// The delay after attempt number `attempt` (1 for the first) failed.
    public func delay(afterAttempt attempt: Int) -> Int64 {
        switch kind {
        case .fixed: return min(delayMs, maxDelayMs)
        case .exponential:
            let shift = max(0, min(attempt - 1, 40))
            let (product, overflow) = delayMs.multipliedReportingOverflow(by: Int64(1) << shift)
            return overflow ? maxDelayMs : min(product, maxDelayMs)
        }
    }
}

/// What ``JobStore/enqueue(_:payload:options:now:)`` is told about a new job.
public struct EnqueueOptions: Sendable, Hashable {
    /// Milliseconds before the job may first run.
    public var delayMs: Int64
    /// An idempotency key: enqueuing again with a key the queue already holds returns the existing job.
    public var key: String?
    /// How many attempts the job gets before it goes to the dead-letter list (at least 1).
    public var attempts: Int
    public var backoff: Backoff

    public init(delayMs: Int64 = 0, key: String? = nil, attempts: Int = 3, backoff: Backoff = Backoff()) {
        self.delayMs = delayMs
        self.key = key
        self.attempts = attempts
        self.backoff = backoff
    }
}

/// The answer of ``JobStore/enqueue(_:payload:options:now:)``.
public struct EnqueueResult: Sendable, Hashable {
    public var id: Int64
    /// False when `key` matched a job already in the queue (whose id this is).
    public var created: Bool

    public init(id: Int64, created: Bool) {
        self.id = id
        self.created = created
    }
}

/// A job leased to a worker.
public struct LeasedJob: Sendable, Hashable {
    public var id: Int64
    public var queue: String
    /// The payload as given (JSON text for the plugin).
    public var payload: String
    /// This attempt's number: 1 for the first.
    public var attempt: Int
    public var maxAttempts: Int
    /// When the lease ends unless a heartbeat extends it (milliseconds since 1970).
    public var leaseUntil: Int64

    public init(id: Int64, queue: String, payload: String, attempt: Int, maxAttempts: Int, leaseUntil: Int64) {
        self.id = id
        self.queue = queue
        self.payload = payload
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.leaseUntil = leaseUntil
    }
}

/// What became of a failed job.
public enum FailOutcome: Sendable, Hashable {
    /// It runs again at `runAt` (milliseconds since 1970).
    case retry(runAt: Int64)
    /// It used its last attempt and is on the dead-letter list.
    case dead
    /// The worker no longer held its lease (it expired and the job went elsewhere): nothing changed.
    case notHeld
}

/// The jobs of a queue by state.
public struct QueueStats: Sendable, Hashable, Codable {
    /// Due now, waiting for a worker.
    public var ready: Int
    /// Waiting for their delay or their retry's backoff.
    public var delayed: Int
    /// Held by a worker (including leases that expired and wait to be handed out again).
    public var leased: Int
    public var done: Int
    public var dead: Int

    public init(ready: Int = 0, delayed: Int = 0, leased: Int = 0, done: Int = 0, dead: Int = 0) {
        self.ready = ready
        self.delayed = delayed
        self.leased = leased
        self.done = done
        self.dead = dead
    }
}

/// A job on the dead-letter list.
public struct DeadJob: Sendable, Hashable {
    public var id: Int64
    public var payload: String
    public var attempts: Int
    /// The last failure's message.
    public var error: String?
    /// When it died (milliseconds since 1970).
    public var failedAt: Int64

    public init(id: Int64, payload: String, attempts: Int, error: String?, failedAt: Int64) {
        self.id = id
        self.payload = payload
        self.attempts = attempts
        self.error = error
        self.failedAt = failedAt
    }
}

/// Why a queue operation failed.
public enum QueueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An argument is out of range (`path` names it).
    case invalid(path: String, message: String)
    /// The database failed (I/O, a lock held too long, a damaged file, a refused statement).
    case failure(location: String, message: String)
    /// The database server could not be reached within the configured wait (`host` is `host:port`).
    case unavailable(host: String, message: String)

    public var description: String {
        switch self {
        case .invalid(let path, let message): "\(path.isEmpty ? "" : "\(path): ")\(message)"
        case .failure(let location, let message): "The queue database '\(location)' failed: \(message)"
        case .unavailable(let host, let message): "The queue server \(host) is unavailable: \(message)"
        }
    }

    /// The stable code scripts see (docs/queues.md).
    public var code: String {
        switch self {
        case .invalid: BridgeError.Code.invalidArgument
        case .failure: "QUEUE_ERROR"
        case .unavailable: "QUEUE_UNAVAILABLE"
        }
    }
}

/// Durable named queues of jobs, shared by every worker on the same database.
///
/// Every method is one transaction. Time is passed in (`now`, milliseconds since 1970), so the policy is
/// tested with a ``ManualClock``; processes sharing a store must agree on the time within a fraction of a
/// lease. A job's life: `ready` (due at `runAt`) → `leased` by one worker (until its lease ends) → `done`, or
/// back to `ready` after a failure (with backoff), or `dead` after its last attempt. A lease that ends without
/// a heartbeat, completion or failure makes the job claimable again (its worker is presumed dead); that
/// counts as an attempt.
public protocol JobStore: AnyObject, Sendable {
    /// A description for errors and `info` (a path, or a URL without its password).
    var location: String { get }

    /// Adds a job to `queue`, or returns the job already holding `options.key`.
    func enqueue(_ queue: String, payload: String, options: EnqueueOptions, now: Int64) throws(QueueError)
        -> EnqueueResult
    /// Leases up to `limit` due jobs of `queue` to `worker` for `leaseMs`, oldest due first. Expired leases
    /// of jobs that have used their last attempt move them to the dead-letter list instead.
    func claim(_ queue: String, worker: String, limit: Int, leaseMs: Int64, now: Int64) throws(QueueError)
        -> [LeasedJob]
    /// Extends `worker`'s leases on `ids` to `now + leaseMs`; returns the ids it still holds.
    func heartbeat(_ ids: [Int64], worker: String, leaseMs: Int64, now: Int64) throws(QueueError) -> [Int64]
    /// Marks job `id` done if `worker` holds it at `attempt`; false when it does not (nothing changes).
    func complete(_ id: Int64, worker: String, attempt: Int, now: Int64) throws(QueueError) -> Bool
    /// Records a failure of job `id` by `worker` at `attempt`: a retry after the job's backoff, or the
    /// dead-letter list after its last attempt.
    func fail(_ id: Int64, worker: String, attempt: Int, error: String, now: Int64) throws(QueueError)
        -> FailOutcome
    /// Gives `worker`'s leases on `ids` back without counting the attempt (a worker stopping).
    func release(_ ids: [Int64], worker: String, now: Int64) throws(QueueError)
    /// The jobs of `queue` by state.
    func stats(_ queue: String, now: Int64) throws(QueueError) -> QueueStats
    /// The dead-letter list of `queue`, oldest first.
    func dead(_ queue: String, limit: Int) throws(QueueError) -> [DeadJob]
    /// Deletes the done jobs of `queue` that finished before `before` (and the dead ones too when
    /// `includeDead`); returns how many. Their idempotency keys are free again.
    func purge(_ queue: String, before: Int64, includeDead: Bool) throws(QueueError) -> Int
    /// When the next job of `queue` becomes claimable (a due time or a lease's end), or nil when none will.
    func nextDue(_ queue: String) throws(QueueError) -> Int64?
    /// Marks the `completions` that `worker` still holds done, then leases up to `limit` more due jobs of
    /// `queue` (never one of `completions`): a worker's whole cycle, in one round trip where the store can.
    /// Returns the ids it marked done (sorted) and the jobs it leased (by id).
    func completeAndClaim(
        _ queue: String, completions: [Completion], worker: String, limit: Int, leaseMs: Int64, now: Int64
    ) throws(QueueError) -> (completed: [Int64], claimed: [LeasedJob])
}

/// A job a handler finished, to mark done: the lease it ran under.
public struct Completion: Sendable, Hashable {
    public var id: Int64
    /// The attempt the worker held (a completion under an older attempt's lease changes nothing).
    public var attempt: Int

    public init(id: Int64, attempt: Int) {
        self.id = id
        self.attempt = attempt
    }
}

extension JobStore {
    /// One ``complete(_:worker:attempt:now:)`` per completion, then one ``claim(_:worker:limit:leaseMs:now:)``:
    /// for stores whose calls cost no round trip (SQLite).
    public func completeAndClaim(
        _ queue: String, completions: [Completion], worker: String, limit: Int, leaseMs: Int64, now: Int64
    ) throws(QueueError) -> (completed: [Int64], claimed: [LeasedJob]) {
        var completed: [Int64] = []
        for completion in completions {
            if try complete(completion.id, worker: worker, attempt: completion.attempt, now: now) {
                completed.append(completion.id)
            }
        }
        let claimed = try claim(queue, worker: worker, limit: limit, leaseMs: leaseMs, now: now)
        return (completed.sorted(), claimed)
    }
}

extension EnqueueOptions {
    /// Checks the ranges every store relies on.
    public func validate() throws(QueueError) {
        if delayMs < 0 { throw .invalid(path: "delayMs", message: "must not be negative, got \(delayMs)") }
        if !(1...1000).contains(attempts) {
            throw .invalid(path: "attempts", message: "must be between 1 and 1000, got \(attempts)")
        }
        if backoff.delayMs < 0 {
            throw .invalid(path: "backoff.delayMs", message: "must not be negative, got \(backoff.delayMs)")
        }
        if backoff.maxDelayMs < backoff.delayMs {
            throw .invalid(path: "backoff.maxDelayMs", message: "must not be below backoff.delayMs")
        }
    }
}

/// Checks a queue name (1–200 bytes).
public func validateQueueName(_ name: String) throws(QueueError) {
    if name.isEmpty || name.utf8.count > 200 {
        throw .invalid(path: "name", message: "a queue name has 1 to 200 bytes")
    }
}

/// Milliseconds since 1970 of `date`.
public func epochMilliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
}

/// Threads for a store's blocking calls (a transaction, or a network round trip that may wait out a
/// server restart), so they never hold a thread of Swift's or the bridge's shared pools. Calls run
/// concurrently (the store decides what waits: SQLite's lock, PostgreSQL's connection pool).
public final class BlockingLane: Sendable {
    private let queue: DispatchQueue

    public init(label: String = "jsbridge.queue") {
        queue = DispatchQueue(label: label, attributes: .concurrent)
    }

    /// Runs `body` on the lane's thread and returns its result.
    public func run<R: Sendable>(_ body: @escaping @Sendable () throws(QueueError) -> R) async throws(QueueError)
        -> R
    {
        let result: Result<R, QueueError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(QueueError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
