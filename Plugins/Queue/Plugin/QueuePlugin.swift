import Foundation
import JSBridgeCore
@_exported import QueueCore
@_exported import QueuePostgres
import StorageCore
import StoragePostgres

/// The `Queue` plugin: durable job queues over a ``JobStore`` — an ``SQLiteJobStore`` per app id beside
/// Storage's file under `--storage-dir`, or a ``PostgresJobStore`` in Storage's PostgreSQL database when a
/// storage URL is given (`--storage-url`, `{"Queue": {"url": …}}`, `JSBRIDGE_STORAGE_URL`). See docs/queues.md.
///
/// | action | kind | arguments | result |
/// |---|---|---|---|
/// | `enqueue` | async | `{name, json, delayMs?, key?, attempts?, backoff?: {kind?, delayMs?, maxDelayMs?}}` | `{id, created}` |
/// | `work` | stream | `{name, concurrency?, leaseMs?}` | one `{worker, id, name, payload, attempt, maxAttempts}` per leased job |
/// | `settle` | async | `{worker, id, attempt, ok, error?}` | whether the worker still waited for that job |
/// | `stats` | async | `{name}` | `{ready, delayed, leased, done, dead}` |
/// | `dead` | async | `{name, limit?}` | `[{id, payload, attempts, error, failedAt}]` |
/// | `purge` | async | `{name, olderThanMs?, dead?}` | how many done (and dead, with `dead`) jobs were deleted |
/// | `info` | sync | – | `{backend, location}` |
///
/// A job yielded by `work` stays leased (heartbeats extend its lease) until JavaScript settles it; stopping
/// the stream gives the unsettled jobs back.
public struct QueuePlugin: BridgePlugin {
    public static let name = "Queue"

    /// `{"Queue": {…}}` in `--config`.
    public struct Configuration: PluginConfiguration {
        /// `postgres://…`: keep the queues in PostgreSQL (`--storage-url` sets it for Storage and Queue).
        public var url: String?
        /// How long a call waits for an unreachable PostgreSQL server (default 10000).
        public var unavailableWaitMs: Int?
        /// How often an idle worker looks for due jobs (default 200).
        public var pollIntervalMs: Int?
        /// PostgreSQL connections the process's queue calls may use at once (default 2, 1–64).
        public var connections: Int?
        /// How often a process reads the broadcast log for other processes' messages (default 25).
        public var broadcastPollMs: Int?
        /// The default lease of `work` (default 30000): a job whose worker stops heartbeating for this long
        /// is handed out again.
        public var leaseMs: Int?

        /// `connections` as given when it was not a whole number (`--storage-pool-size abc`): reported by
        /// ``validate()`` under `connections`.
        private var connectionsText: String?

        public init(
            url: String? = nil, unavailableWaitMs: Int? = nil, pollIntervalMs: Int? = nil, leaseMs: Int? = nil,
            connections: Int? = nil
        ) {
            self.url = url
            self.unavailableWaitMs = unavailableWaitMs
            self.pollIntervalMs = pollIntervalMs
            self.leaseMs = leaseMs
            self.connections = connections
        }

        private enum CodingKeys: String, CodingKey {
            case url, unavailableWaitMs, pollIntervalMs, connections, broadcastPollMs, leaseMs
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            url = try container.decodeIfPresent(String.self, forKey: .url)
            unavailableWaitMs = try container.decodeIfPresent(Int.self, forKey: .unavailableWaitMs)
            pollIntervalMs = try container.decodeIfPresent(Int.self, forKey: .pollIntervalMs)
            broadcastPollMs = try container.decodeIfPresent(Int.self, forKey: .broadcastPollMs)
            leaseMs = try container.decodeIfPresent(Int.self, forKey: .leaseMs)
            // A number in --config; text from `--storage-pool-size N` (command-line options set strings).
            if let text = try? container.decodeIfPresent(String.self, forKey: .connections) {
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if let number = Int(trimmed), trimmed.allSatisfy(\.isASCII) {
                    connections = number
                } else {
                    connectionsText = text
                }
            } else {
                connections = try container.decodeIfPresent(Int.self, forKey: .connections)
            }
        }

        public func validate() -> [ArgumentIssue] {
            var issues: [ArgumentIssue] = []
            if let url {
                do {
                    _ = try PostgresURL(url)
                } catch {
                    issues.append(ArgumentIssue(path: "url", message: error.reason))
                }
            }
            if let unavailableWaitMs, !(0...600_000).contains(unavailableWaitMs) {
                issues.append(ArgumentIssue(path: "unavailableWaitMs", message: "must be between 0 and 600000"))
            }
            if let pollIntervalMs, !(1...60_000).contains(pollIntervalMs) {
                issues.append(ArgumentIssue(path: "pollIntervalMs", message: "must be between 1 and 60000"))
            }
            if let connectionsText {
                issues.append(
                    ArgumentIssue(
                        path: "connections",
                        message: "must be a whole number between 1 and 64, got '\(connectionsText)'"))
            }
            if let connections, !(1...64).contains(connections) {
                issues.append(
                    ArgumentIssue(path: "connections", message: "must be between 1 and 64, got \(connections)"))
            }
            if let broadcastPollMs, !(1...60_000).contains(broadcastPollMs) {
                issues.append(ArgumentIssue(path: "broadcastPollMs", message: "must be between 1 and 60000"))
            }
            if let leaseMs, !(100...86_400_000).contains(leaseMs) {
                issues.append(ArgumentIssue(path: "leaseMs", message: "must be between 100 and 86400000"))
            }
            return issues
        }
    }

    /// The environment variable naming a storage URL when neither the flag nor `--config` gives one.
    public static let urlVariable = "JSBRIDGE_STORAGE_URL"

    /// What set-up makes: the store, a lane for its blocking calls, and the jobs handed to JavaScript.
    public final class State: Sendable {
        public let store: any JobStore
        let lane = BlockingLane(label: "jsbridge.queue.calls")
        let pending = PendingJobs()
        let backend: String
        /// This process's id in the broadcast log (its own messages are not read back).
        let sender = UUID().uuidString

        init(store: any JobStore, backend: String) {
            self.store = store
            self.backend = backend
        }
    }

    private let injectedStore: (any JobStore)?

    /// A plugin on the context's store (SQLite beside Storage's, or PostgreSQL), opened at set-up.
    public init() { injectedStore = nil }

    /// A plugin on `store` (tests, or a runtime sharing one store).
    public init(store: any JobStore) { injectedStore = store }

    public func setUp(_ context: SetUpContext<Self>) async throws -> State {
        if let injectedStore { return State(store: injectedStore, backend: "custom") }
        let configuration = context.configuration
        let url =
            configuration.url ?? ProcessInfo.processInfo.environment[Self.urlVariable].flatMap { $0.isEmpty ? nil : $0 }
        let storage = context.storage
        let lane = BlockingLane(label: "jsbridge.queue.open")
        if let url {
            let parsed: PostgresURL
            do {
                parsed = try PostgresURL(url)
            } catch {
                throw BridgeError.invalidArgument(at: "url", "\(Self.urlVariable): \(error.reason)")
            }
            let wait = Duration.milliseconds(configuration.unavailableWaitMs ?? 10_000)
            let connections = configuration.connections ?? 2
            let store = try await lane.run { () throws(QueueError) in
                try PostgresJobStore(
                    url: parsed, appID: storage.appID, unavailableWait: wait, connections: connections)
            }
            return State(store: store, backend: "postgres")
        }
        let store = try await lane.run { () throws(QueueError) in
            try SQLiteJobStore(path: SQLiteJobStore.databasePath(directory: storage.directory, appID: storage.appID))
        }
        return State(store: store, backend: "sqlite")
    }

    public static func declare(_ plugin: inout PluginDeclaration<Self>) {
        // `Storage.transaction`'s `{op: "enqueue", …}`: the job commits with the storage writes.
        StorageTransactionWrites.register("enqueue") { op, now throws(BridgeError) in
            try TransactionEnqueueArguments(op).write(now: now)
        }
        plugin.script(.global("queue.js", source: PackageResources.queue_js, defines: ["Queue"]))
        plugin.script(.global("broadcast.js", source: PackageResources.broadcast_js, defines: ["BroadcastChannel"]))
        plugin.typeScript(utf8: PackageResources.queue_d_ts)
        plugin.event("error", of: WorkerError.self)
        plugin.option(
            "storage-url", value: "url", setting: "url",
            help: "Keep Storage and Queue in PostgreSQL: postgres://user[:password]@host[:port]/database.")
        plugin.option(
            "storage-pool-size", value: "n", setting: "connections",
            help: "PostgreSQL connections a process's queue calls use at once (1-64, default 2).")

        plugin.sync("info") { context in
            Info(backend: context.state.backend, location: context.state.store.location)
        }
        plugin.async("enqueue", args: EnqueueArguments.self) { context, args -> EnqueueAnswer in
            let store = context.state.store
            let now = epochMilliseconds(context.clock.now())
            let result = try await context.state.lane.run { () throws(QueueError) in
                try store.enqueue(args.name, payload: args.json, options: args.options, now: now)
            }
            return EnqueueAnswer(id: Double(result.id), created: result.created)
        }
        plugin.async("stats", args: NameArguments.self) { context, args -> QueueStats in
            let store = context.state.store
            let now = epochMilliseconds(context.clock.now())
            return try await context.state.lane.run { () throws(QueueError) in try store.stats(args.name, now: now) }
        }
        plugin.async("dead", args: DeadArguments.self) { context, args -> [DeadAnswer] in
            let store = context.state.store
            let jobs = try await context.state.lane.run { () throws(QueueError) in
                try store.dead(args.name, limit: args.limit ?? 100)
            }
            return jobs.map(DeadAnswer.init)
        }
        plugin.async("purge", args: PurgeArguments.self) { context, args -> Int in
            let store = context.state.store
            let before = epochMilliseconds(context.clock.now()) - (args.olderThanMs ?? 0)
            return try await context.state.lane.run { () throws(QueueError) in
                try store.purge(args.name, before: before, includeDead: args.dead ?? false)
            }
        }
        plugin.async("settle", args: SettleArguments.self) { context, args -> Bool in
            context.state.pending.settle(
                PendingJobs.Key(worker: args.worker, id: args.id, attempt: args.attempt),
                args.ok ? .completed : .failed(args.error ?? "the handler failed"))
        }
        plugin.stream("work", args: WorkArguments.self, of: JobMessage.self) { context, args, out in
            try validateQueueName(args.name)
            if let concurrency = args.concurrency, !(1...1000).contains(concurrency) {
                throw QueueError.invalid(path: "concurrency", message: "must be between 1 and 1000, got \(concurrency)")
            }
            if let leaseMs = args.leaseMs, !(100...86_400_000).contains(leaseMs) {
                throw QueueError.invalid(path: "leaseMs", message: "must be between 100 and 86400000, got \(leaseMs)")
            }
            let state = context.state
            let events = context.events
            let name = args.name
            let worker = QueueWorker(
                store: state.store, queue: name, concurrency: args.concurrency ?? 1,
                leaseMs: Int64(args.leaseMs ?? context.configuration.leaseMs ?? 30_000),
                pollInterval: .milliseconds(context.configuration.pollIntervalMs ?? 200), clock: context.clock,
                onStoreError: { error in
                    try? events.emit(
                        "error", WorkerError(name: name, code: error.code, message: error.description))
                })
            let workerID = worker.id
            await worker.run { job in
                let key = PendingJobs.Key(worker: workerID, id: job.id, attempt: job.attempt)
                state.pending.expect(key)
                do {
                    try await out.yield(
                        JobMessage(
                            worker: workerID, id: Double(job.id), name: job.queue, payload: job.payload,
                            attempt: job.attempt, maxAttempts: job.maxAttempts))
                } catch {
                    state.pending.forget(key)
                    return nil
                }
                return await state.pending.wait(key)
            }
        }

        // MARK: BroadcastChannel (broadcast.js)
        plugin.sync("channelCursor") { context -> Double in
            guard let log = context.state.store as? any ChannelLog else { return 0 }
            return Double(try log.lastSeq())
        }
        plugin.async("channelPost", args: ChannelPostArguments.self, on: .serial) { context, args -> Double in
            guard let log = context.state.store as? any ChannelLog else {
                throw QueueError.failure(
                    location: context.state.store.location, message: "this store has no channel log")
            }
            let sender = context.state.sender
            let now = epochMilliseconds(context.clock.now())
            return Double(
                try await context.state.lane.run { () throws(QueueError) in
                    try log.post(channel: args.channel, sender: sender, data: args.data, now: now)
                })
        }
        plugin.stream("channelListen", args: ChannelListenArguments.self, of: ChannelDelivery.self) {
            context, args, out in
            guard let log = context.state.store as? any ChannelLog else { return }
            let sender = context.state.sender
            let lane = BlockingLane(label: "jsbridge.broadcast")
            let poll = Duration.milliseconds(context.configuration.broadcastPollMs ?? 25)
            var cursor = Int64(args.after)
            // Woken at once by another process's post where the log can tell (PostgreSQL), else polled.
            let posted = Doorbell()
            let stopRinging = log.ringOnPosts(posted)
            defer { stopRinging() }
            while !out.isCancelled {
                let from = cursor
                let batch: (messages: [ChannelMessage], through: Int64)
                do throws(QueueError) {
                    batch = try await lane.run { () throws(QueueError) in
                        try log.read(channel: args.channel, after: from, excluding: sender, limit: 500)
                    }
                } catch {
                    // The server is away: read again later from the same place (nothing is skipped).
                    await posted.wait(timeout: poll, clock: context.clock)
                    try Task.checkCancellation()
                    continue
                }
                for message in batch.messages { try await out.yield(ChannelDelivery(data: message.data)) }
                cursor = batch.through
                if batch.through == from {
                    await posted.wait(timeout: poll, clock: context.clock)
                    try Task.checkCancellation()
                }
            }
        }
        plugin.keepPrivate("settle", "channelCursor", "channelPost", "channelListen")
    }

    // MARK: Results and events

    public struct Info: Codable, Sendable {
        /// `"sqlite"`, `"postgres"` or `"custom"`.
        public var backend: String
        /// The database file, or the URL without its password.
        public var location: String
    }

    public struct EnqueueAnswer: Codable, Sendable {
        public var id: Double
        public var created: Bool
    }

    public struct JobMessage: Codable, Sendable {
        public var worker: String
        public var id: Double
        public var name: String
        /// The payload's JSON text.
        public var payload: String
        public var attempt: Int
        public var maxAttempts: Int
    }

    public struct DeadAnswer: Codable, Sendable {
        public var id: Double
        public var payload: String
        public var attempts: Int
        public var error: String?
        public var failedAt: Double

        init(_ job: DeadJob) {
            id = Double(job.id)
            payload = job.payload
            attempts = job.attempts
            error = job.error
            failedAt = Double(job.failedAt)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(payload, forKey: .payload)
            try c.encode(attempts, forKey: .attempts)
            try c.encode(error, forKey: .error)
            try c.encode(failedAt, forKey: .failedAt)
        }
    }

    /// The `error` event: a worker's store call failed (it keeps polling; a job it could not settle is
    /// handed out again when its lease ends).
    public struct WorkerError: Codable, Sendable {
        public var name: String
        public var code: String
        public var message: String
    }
}

// MARK: - Arguments

struct NameArguments: Decodable, Sendable {
    var name: String
}

struct DeadArguments: Decodable, Sendable {
    var name: String
    var limit: Int?
}

struct PurgeArguments: Decodable, Sendable {
    var name: String
    var olderThanMs: Int64?
    var dead: Bool?
}

struct WorkArguments: Decodable, Sendable {
    var name: String
    var concurrency: Int?
    var leaseMs: Int?
}

struct SettleArguments: Decodable, Sendable {
    var worker: String
    var id: Int64
    var attempt: Int
    var ok: Bool
    var error: String?
}

struct EnqueueArguments: Decodable, Sendable {
    struct BackoffArguments: Decodable, Sendable {
        var kind: Backoff.Kind?
        var delayMs: Int64?
        var maxDelayMs: Int64?
    }

    var name: String
    /// The payload's JSON text.
    var json: String
    var delayMs: Int64?
    var key: String?
    var attempts: Int?
    var backoff: BackoffArguments?

    var options: EnqueueOptions {
        let defaults = Backoff()
        return EnqueueOptions(
            delayMs: delayMs ?? 0, key: key, attempts: attempts ?? 3,
            backoff: Backoff(
                kind: backoff?.kind ?? defaults.kind, delayMs: backoff?.delayMs ?? defaults.delayMs,
                maxDelayMs: backoff?.maxDelayMs ?? max(defaults.maxDelayMs, backoff?.delayMs ?? 0)))
    }
}

/// `{op: "enqueue", queue, json, delayMs?, key?, attempts?, backoff?}`, an op of `Storage.transaction`
/// (`backoff` as `Queue.enqueue` takes it: milliseconds, or `{type|kind, delayMs, maxDelayMs}`).
struct TransactionEnqueueArguments {
    var queue: String
    var json: String
    var options = EnqueueOptions()

    init(_ op: JSONValue) throws(BridgeError) {
        guard case .string(let queue)? = op["queue"], !queue.isEmpty else {
            throw .invalidArgument(at: "queue", "must be a non-empty string")
        }
        guard case .string(let json)? = op["json"] else { throw .invalidArgument(at: "json", "must be JSON text") }
        self.queue = queue
        self.json = json
        func integer(_ value: JSONValue?, _ path: String) throws(BridgeError) -> Int64? {
            switch value {
            case nil, .null?: return nil
            case .number(let n)? where n >= 0 && n <= 9e15 && n.rounded() == n: return Int64(n)
            default: throw .invalidArgument(at: path, "must be a non-negative integer")
            }
        }
        if let delay = try integer(op["delayMs"], "delayMs") { options.delayMs = delay }
        if let attempts = try integer(op["attempts"], "attempts") { options.attempts = Int(clamping: attempts) }
        switch op["key"] {
        case nil, .null?: break
        case .string(let key)?: options.key = key
        default: throw .invalidArgument(at: "key", "must be a string")
        }
        switch op["backoff"] {
        case nil, .null?: break
        case .number?:
            let delay = try integer(op["backoff"], "backoff") ?? 0
            options.backoff = Backoff(kind: .exponential, delayMs: delay, maxDelayMs: max(Backoff().maxDelayMs, delay))
        case .object?:
            let backoff = op["backoff"]!
            var kind = Backoff.Kind.exponential
            switch backoff["type"] ?? backoff["kind"] {
            case nil, .null?: break
            case .string(let name)? where Backoff.Kind(rawValue: name) != nil: kind = Backoff.Kind(rawValue: name)!
            default: throw .invalidArgument(at: "backoff.type", "must be \"fixed\" or \"exponential\"")
            }
            let delay = try integer(backoff["delayMs"], "backoff.delayMs") ?? Backoff().delayMs
            let maxDelay = try integer(backoff["maxDelayMs"], "backoff.maxDelayMs") ?? max(Backoff().maxDelayMs, delay)
            options.backoff = Backoff(kind: kind, delayMs: delay, maxDelayMs: maxDelay)
        default: throw .invalidArgument(at: "backoff", "must be a number or an object")
        }
    }

    func write(now: Int64) throws(BridgeError) -> TransactionEnqueue {
        do {
            return try TransactionEnqueue(queue: queue, payload: json, options: options, now: now)
        } catch {
            throw error.bridgeError
        }
    }
}

struct ChannelPostArguments: Decodable, Sendable {
    var channel: String
    /// The message's wire text (broadcast.js).
    var data: String
}

struct ChannelListenArguments: Decodable, Sendable {
    var channel: String
    /// The log position to read after (`channelCursor` when the first channel of the name opened).
    var after: Double
}

/// A message of another process, as `channelListen` yields it.
struct ChannelDelivery: Codable, Sendable {
    var data: String
}

// MARK: - Jobs handed to JavaScript

/// The jobs `work` has yielded and waits on, until `settle` (or the stream's end) answers them.
final class PendingJobs: Sendable {
    struct Key: Hashable, Sendable {
        var worker: String
        var id: Int64
        var attempt: Int
    }

    private enum Entry {
        case expected
        case waiting(CheckedContinuation<JobOutcome?, Never>)
        case settled(JobOutcome)
    }

    private let entries = Locked<[Key: Entry]>([:])

    /// Marks `key` as handed out: a `settle` for it from now on is kept until ``wait(_:)``.
    func expect(_ key: Key) { entries.withLock { $0[key] = .expected } }

    func forget(_ key: Key) { entries.withLock { _ = $0.removeValue(forKey: key) } }

    /// The outcome JavaScript gives `key`, or nil when the waiting task is cancelled.
    func wait(_ key: Key) async -> JobOutcome? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<JobOutcome?, Never>) in
                let ready = entries.withLock { entries -> JobOutcome?? in
                    switch entries[key] {
                    case .settled(let outcome):
                        entries[key] = nil
                        return .some(outcome)
                    case .expected?, .waiting?:
                        if Task.isCancelled {
                            entries[key] = nil
                            return .some(nil)
                        }
                        entries[key] = .waiting(continuation)
                        return nil
                    case nil: return .some(nil)
                    }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = entries.withLock { entries -> CheckedContinuation<JobOutcome?, Never>? in
                guard case .waiting(let continuation)? = entries[key] else { return nil }
                entries[key] = nil
                return continuation
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Answers `key`; false when nothing expects it (settled twice, or the worker stopped).
    func settle(_ key: Key, _ outcome: JobOutcome) -> Bool {
        let (known, waiter) = entries.withLock { entries -> (Bool, CheckedContinuation<JobOutcome?, Never>?) in
            switch entries[key] {
            case .expected?:
                entries[key] = .settled(outcome)
                return (true, nil)
            case .waiting(let continuation)?:
                entries[key] = nil
                return (true, continuation)
            case .settled?, nil: return (false, nil)
            }
        }
        waiter?.resume(returning: outcome)
        return known
    }
}

// MARK: - Errors

extension QueueError: BridgeErrorConvertible {
    public var bridgeError: BridgeError {
        switch self {
        case .invalid(let path, let message): BridgeError.invalidArgument(at: path, message)
        case .failure(let location, _):
            BridgeError(code: code, message: description, data: ["location": .string(location)])
        case .unavailable(let host, _):
            BridgeError(code: code, message: description, data: ["host": .string(host)])
        }
    }
}
