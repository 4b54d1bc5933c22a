import Foundation
import JSBridgeBase
import QueueCore
import StoragePostgres

/// A ``JobStore`` on a PostgreSQL database (Storage's: the same `--storage-url`), shared by every process of
/// every host using it with the same app id.
///
/// Each operation is one statement (one transaction, one round trip); a worker's cycle (its finished jobs
/// marked done, more claimed) is one too. A worker's statements (claims, completions, heartbeats) commit
/// without waiting for the WAL flush, which at-least-once allows; enqueues wait for it (``CommitMode``). Claims pick due rows with
/// `FOR UPDATE SKIP LOCKED`, so concurrent workers never wait on each other's rows nor lease one job twice.
/// Calls are synchronous (libpq): each takes one of the store's `connections` (a small pool, opened as
/// needed), waiting while all are busy, and blocks its thread for the round trip. When the server goes away, a call
/// reconnects and retries for up to `unavailableWait`, then fails with ``QueueError/unavailable(host:message:)``;
/// a statement whose answer was lost may have committed — the lease rules make that safe (a completion that
/// committed twice changes nothing; a claim whose answer was lost expires like a dead worker's).
public final class PostgresJobStore: JobStore, ChannelLog, @unchecked Sendable {
    public let url: PostgresURL
    public let appID: String
    public let unavailableWait: Duration
    public var location: String { url.redacted }

    /// How many connections calls may use at once.
    public let connections: Int

    // Invariant: `idle`, `busy` and `closed` are only used with `pool` locked. A slot is a connection or nil
    // (not opened yet, or lost); a call takes a slot from `idle` and puts it back.
    private let pool = NSCondition()
    private var idle: [PooledConnection?]
    private var busy = 0
    private var closed = false
    private let doorbellLock = NSLock()
    private lazy var doorbell = BroadcastDoorbell(url: url, appID: appID)
    /// This store's posts so far: with the sender, what identifies a post sent again after a lost answer.
    private let postCount = Locked<Int64>(0)

    /// The advisory lock key of schema changes ("jsbq" in ASCII).
    static let lockKey: Int64 = 0x6A73_6271

    /// `migrations[n]` takes the schema from version `n` to `n + 1`.
    static let migrations: [String] = [
        """
        CREATE TABLE jsbridge_queue_jobs (
            id bigserial PRIMARY KEY,
            app text NOT NULL,
            queue text NOT NULL,
            payload text NOT NULL,
            idem_key text,
            state text NOT NULL,
            run_at bigint NOT NULL,
            attempt bigint NOT NULL DEFAULT 0,
            max_attempts bigint NOT NULL,
            backoff_kind text NOT NULL,
            backoff_ms bigint NOT NULL,
            backoff_max_ms bigint NOT NULL,
            worker text,
            last_error text,
            created_at bigint NOT NULL,
            finished_at bigint
        );
        CREATE UNIQUE INDEX jsbridge_queue_jobs_key ON jsbridge_queue_jobs(app, queue, idem_key)
            WHERE idem_key IS NOT NULL;
        CREATE INDEX jsbridge_queue_jobs_due ON jsbridge_queue_jobs(app, queue, state, run_at, id);
        """,
        // Version 2: the log of cross-host BroadcastChannel messages. A post locks its app's counter row
        // until it commits, so numbers are handed out in commit order and a reader that read up to n never
        // finds an older number committing later.
        """
        CREATE TABLE jsbridge_broadcast_apps (app text PRIMARY KEY, seq bigint NOT NULL);
        CREATE TABLE jsbridge_broadcast (
            app text NOT NULL, seq bigint NOT NULL, channel text NOT NULL, sender text NOT NULL,
            data text NOT NULL, at bigint NOT NULL, sender_seq bigint NOT NULL,
            PRIMARY KEY (app, seq)
        );
        CREATE INDEX jsbridge_broadcast_channel ON jsbridge_broadcast(app, channel, seq);
        CREATE INDEX jsbridge_broadcast_sender ON jsbridge_broadcast(app, sender, sender_seq);
        CREATE FUNCTION jsbridge_broadcast_post(
            p_app text, p_channel text, p_sender text, p_data text, p_now bigint, p_retention bigint,
            p_sender_seq bigint, p_retry boolean
        ) RETURNS bigint LANGUAGE plpgsql AS $fn$
        DECLARE v_seq bigint;
        BEGIN
            -- A post sent again after a lost answer is appended once.
            IF p_retry THEN
                SELECT seq INTO v_seq FROM jsbridge_broadcast
                    WHERE app = p_app AND sender = p_sender AND sender_seq = p_sender_seq;
                IF FOUND THEN RETURN v_seq; END IF;
            END IF;
            INSERT INTO jsbridge_broadcast_apps AS a (app, seq) VALUES (p_app, 1)
                ON CONFLICT (app) DO UPDATE SET seq = a.seq + 1 RETURNING seq INTO v_seq;
            INSERT INTO jsbridge_broadcast VALUES (p_app, v_seq, p_channel, p_sender, p_data, p_now, p_sender_seq);
            IF v_seq % 256 = 0 THEN
                DELETE FROM jsbridge_broadcast WHERE app = p_app AND at < p_now - p_retention;
            END IF;
            PERFORM pg_notify('jsbridge_broadcast', p_app);
            RETURN v_seq;
        END
        $fn$;
        """,
        // Version 3: the jobs still to run, in claim order. Without it a claim read every due row of the
        // queue and sorted them (`state IN (…)` spans two ranges of the state index): 26 ms at 20,000 jobs,
        // growing with the queue; with it, 0.1 ms. Done and dead rows are not in it, so it stays small.
        """
        CREATE INDEX jsbridge_queue_jobs_pending ON jsbridge_queue_jobs(app, queue, run_at, id)
            WHERE state IN ('ready', 'leased');
        """,
        // Version 4: the leased jobs by lease end. Every claim looks for leases that ended on their last
        // attempt, and a cycle's completions look up leased rows; without it the planner read the pending
        // index for both (its state is no index column), through every ready job already due: a cost per
        // cycle that grew with the backlog. This one holds only the jobs out with workers.
        """
        CREATE INDEX jsbridge_queue_jobs_leased ON jsbridge_queue_jobs(app, queue, run_at) WHERE state = 'leased';
        """,
    ]

    /// Connects and creates or migrates the schema.
    public init(
        url: PostgresURL, appID: String, unavailableWait: Duration = .seconds(10), connections: Int = 2
    ) throws(QueueError) {
        self.url = url
        self.appID = appID
        self.unavailableWait = unavailableWait
        self.connections = max(1, connections)
        idle = [PooledConnection?](repeating: nil, count: max(1, connections))
        try withConnection { (connection, _) throws(PGFailure) in try Self.migrate(connection) }
    }

    /// Closes the idle connections (busy ones when their calls end); later calls fail.
    public func close() {
        pool.lock()
        defer { pool.unlock() }
        idle = []
        closed = true
        pool.broadcast()
    }

    static func migrate(_ connection: PGConnection) throws(PGFailure) {
        try connection.execute("BEGIN")
        do throws(PGFailure) {
            try connection.query("SELECT pg_advisory_xact_lock($1)", [.int8(lockKey)])
            try connection.execute("CREATE TABLE IF NOT EXISTS jsbridge_queue_schema (version bigint NOT NULL)")
            let rows = try connection.query("SELECT coalesce(max(version), 0)::bigint FROM jsbridge_queue_schema")
            let version = Int(rows.int64(0, 0) ?? 0)
            if version > migrations.count {
                try connection.execute("ROLLBACK")
                throw PGFailure(
                    sqlState: "JBQ01",
                    message:
                        "the database has queue schema version \(version), newer than this jsbridge knows (\(migrations.count))",
                    detail: nil, connectionLost: false)
            }
            for index in version..<migrations.count {
                try connection.execute(migrations[index])
                try connection.query(
                    "INSERT INTO jsbridge_queue_schema(version) VALUES ($1)", [.int8(Int64(index + 1))])
            }
            try connection.execute("COMMIT")
        } catch {
            if !connection.isBroken { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// The schema version of the database.
    public func schemaVersion() throws(QueueError) -> Int {
        try withConnection { (connection, _) throws(PGFailure) -> Int in
            Int(try connection.query("SELECT max(version)::bigint FROM jsbridge_queue_schema").int64(0, 0) ?? 0)
        }
    }

    // MARK: - JobStore

    public func enqueue(_ queue: String, payload: String, options: EnqueueOptions, now: Int64) throws(QueueError)
        -> EnqueueResult
    {
        try validateQueueName(queue)
        try options.validate()
        return try withConnection { (connection, _) throws(PGFailure) -> EnqueueResult in
            let rows = try connection.query(
                Self.insertJob, name: "q_enqueue", Self.insertParameters(appID, queue, payload, options, now))
            if rows.count > 0, let id = rows.int64(0, 0) { return EnqueueResult(id: id, created: true) }
            let existing = try connection.query(
                "SELECT id FROM jsbridge_queue_jobs WHERE app = $1 AND queue = $2 AND idem_key = $3",
                name: "q_enqueue_existing", [.text(appID), .text(queue), .text(options.key ?? "")])
            guard existing.count > 0, let id = existing.int64(0, 0) else {
                throw PGFailure(
                    sqlState: nil, message: "the job with this key vanished while enqueuing", detail: nil,
                    connectionLost: false)
            }
            return EnqueueResult(id: id, created: false)
        }
    }

    /// Adds a job, or nothing when its key is taken (then no row comes back).
    static let insertJob = """
        INSERT INTO jsbridge_queue_jobs(app, queue, payload, idem_key, state, run_at, max_attempts,
            backoff_kind, backoff_ms, backoff_max_ms, created_at)
        VALUES ($1, $2, $3, $4, 'ready', $5, $6, $7, $8, $9, $10)
        ON CONFLICT (app, queue, idem_key) WHERE idem_key IS NOT NULL DO NOTHING
        RETURNING id
        """

    static func insertParameters(
        _ appID: String, _ queue: String, _ payload: String, _ options: EnqueueOptions, _ now: Int64
    ) -> [PGParameter] {
        [
            .text(appID), .text(queue), .text(payload), options.key.map(PGParameter.text) ?? .null(25),
            .int8(now + options.delayMs), .int8(Int64(options.attempts)), .text(options.backoff.kind.rawValue),
            .int8(options.backoff.delayMs), .int8(options.backoff.maxDelayMs), .int8(now),
        ]
    }

    public func claim(_ queue: String, worker: String, limit: Int, leaseMs: Int64, now: Int64) throws(QueueError)
        -> [LeasedJob]
    {
        guard limit > 0 else { return [] }
        return try withConnection(commit: .lease) { (connection, _) throws(PGFailure) -> [LeasedJob] in
            let rows = try connection.query(
                """
                WITH expired AS (
                    UPDATE jsbridge_queue_jobs SET state = 'dead', finished_at = $3, worker = NULL,
                        last_error = coalesce(last_error, 'the lease expired (the worker stopped responding)')
                    WHERE app = $1 AND queue = $2 AND state = 'leased' AND run_at <= $3 AND attempt >= max_attempts
                ), picked AS (
                    SELECT id FROM jsbridge_queue_jobs
                    WHERE app = $1 AND queue = $2 AND state IN ('ready', 'leased') AND run_at <= $3
                        AND (state = 'ready' OR attempt < max_attempts)
                    ORDER BY run_at, id LIMIT $4
                    FOR UPDATE SKIP LOCKED
                )
                UPDATE jsbridge_queue_jobs AS j SET state = 'leased', worker = $5, run_at = $3 + $6,
                    attempt = j.attempt + 1
                FROM picked WHERE j.id = picked.id
                RETURNING j.id, j.payload, j.attempt, j.max_attempts
                """, name: "q_claim",
                [.text(appID), .text(queue), .int8(now), .int8(Int64(limit)), .text(worker), .int8(leaseMs)])
            var jobs: [LeasedJob] = []
            for row in 0..<rows.count {
                jobs.append(
                    LeasedJob(
                        id: rows.int64(row, 0) ?? 0, queue: queue, payload: rows.string(row, 1) ?? "",
                        attempt: Int(rows.int64(row, 2) ?? 0), maxAttempts: Int(rows.int64(row, 3) ?? 0),
                        leaseUntil: now + leaseMs))
            }
            return jobs.sorted { $0.id < $1.id }
        }
    }

    public func completeAndClaim(
        _ queue: String, completions: [Completion], worker: String, limit: Int, leaseMs: Int64, now: Int64
    ) throws(QueueError) -> (completed: [Int64], claimed: [LeasedJob]) {
        if completions.isEmpty {
            return ([], try claim(queue, worker: worker, limit: limit, leaseMs: leaseMs, now: now))
        }
        let ids = completions.map { String($0.id) }.joined(separator: ",")
        let attempts = completions.map { String($0.attempt) }.joined(separator: ",")
        return try withConnection(commit: .lease) { (connection, _) throws(PGFailure) -> ([Int64], [LeasedJob]) in
            // One statement, so one round trip and one commit for the whole cycle. Its parts see one snapshot,
            // so the claim leaves the completed ids out: a row must not be updated twice by one statement.
            let rows = try connection.query(
                """
                WITH finished AS (
                    UPDATE jsbridge_queue_jobs AS j SET state = 'done', finished_at = $3, worker = NULL
                    FROM unnest(string_to_array($7, ',')::bigint[], string_to_array($8, ',')::bigint[]) AS c(id, attempt)
                    WHERE j.id = c.id AND j.state = 'leased' AND j.worker = $5 AND j.attempt = c.attempt
                    RETURNING j.id
                ), expired AS (
                    UPDATE jsbridge_queue_jobs SET state = 'dead', finished_at = $3, worker = NULL,
                        last_error = coalesce(last_error, 'the lease expired (the worker stopped responding)')
                    WHERE app = $1 AND queue = $2 AND state = 'leased' AND run_at <= $3 AND attempt >= max_attempts
                        AND id <> ALL(string_to_array($7, ',')::bigint[])
                ), picked AS (
                    SELECT id FROM jsbridge_queue_jobs
                    WHERE app = $1 AND queue = $2 AND state IN ('ready', 'leased') AND run_at <= $3
                        AND (state = 'ready' OR attempt < max_attempts)
                        AND id <> ALL(string_to_array($7, ',')::bigint[])
                    ORDER BY run_at, id LIMIT $4
                    FOR UPDATE SKIP LOCKED
                ), claimed AS (
                    UPDATE jsbridge_queue_jobs AS j SET state = 'leased', worker = $5, run_at = $3 + $6,
                        attempt = j.attempt + 1
                    FROM picked WHERE j.id = picked.id
                    RETURNING j.id, j.payload, j.attempt, j.max_attempts
                )
                SELECT 1::int8, id, payload, attempt, max_attempts FROM claimed
                UNION ALL SELECT 0::int8, id, NULL, NULL, NULL FROM finished
                """, name: "q_complete_claim",
                [
                    .text(appID), .text(queue), .int8(now), .int8(Int64(max(0, limit))), .text(worker),
                    .int8(leaseMs), .text(ids), .text(attempts),
                ])
            var completed: [Int64] = []
            var jobs: [LeasedJob] = []
            for row in 0..<rows.count {
                let id = rows.int64(row, 1) ?? 0
                if rows.int64(row, 0) == 0 {
                    completed.append(id)
                    continue
                }
                jobs.append(
                    LeasedJob(
                        id: id, queue: queue, payload: rows.string(row, 2) ?? "",
                        attempt: Int(rows.int64(row, 3) ?? 0), maxAttempts: Int(rows.int64(row, 4) ?? 0),
                        leaseUntil: now + leaseMs))
            }
            return (completed.sorted(), jobs.sorted { $0.id < $1.id })
        }
    }

    public func heartbeat(_ ids: [Int64], worker: String, leaseMs: Int64, now: Int64) throws(QueueError) -> [Int64] {
        guard !ids.isEmpty else { return [] }
        return try withConnection(commit: .lease) { (connection, _) throws(PGFailure) -> [Int64] in
            let rows = try connection.query(
                """
                UPDATE jsbridge_queue_jobs SET run_at = $3
                WHERE id = ANY(string_to_array($1, ',')::bigint[]) AND state = 'leased' AND worker = $2
                RETURNING id
                """, name: "q_heartbeat",
                [.text(ids.map(String.init).joined(separator: ",")), .text(worker), .int8(now + leaseMs)])
            return (0..<rows.count).compactMap { rows.int64($0, 0) }.sorted()
        }
    }

    public func complete(_ id: Int64, worker: String, attempt: Int, now: Int64) throws(QueueError) -> Bool {
        try withConnection(commit: .lease) { (connection, _) throws(PGFailure) -> Bool in
            let rows = try connection.query(
                """
                UPDATE jsbridge_queue_jobs SET state = 'done', finished_at = $4, worker = NULL
                WHERE id = $1 AND state = 'leased' AND worker = $2 AND attempt = $3
                RETURNING id
                """, name: "q_complete", [.int8(id), .text(worker), .int8(Int64(attempt)), .int8(now)])
            return rows.count > 0
        }
    }

    public func fail(_ id: Int64, worker: String, attempt: Int, error: String, now: Int64) throws(QueueError)
        -> FailOutcome
    {
        try withConnection { (connection, _) throws(PGFailure) -> FailOutcome in
            // The delay matches ``Backoff/delay(afterAttempt:)``: exponential doubling capped at the maximum.
            let rows = try connection.query(
                """
                UPDATE jsbridge_queue_jobs SET worker = NULL, last_error = $4,
                    state = CASE WHEN attempt >= max_attempts THEN 'dead' ELSE 'ready' END,
                    finished_at = CASE WHEN attempt >= max_attempts THEN $5 ELSE NULL END,
                    run_at = CASE WHEN attempt >= max_attempts THEN run_at
                        WHEN backoff_kind = 'fixed' THEN $5 + least(backoff_ms, backoff_max_ms)
                        ELSE $5 + least(backoff_max_ms::numeric,
                            backoff_ms::numeric * power(2::numeric, greatest(0, least(attempt - 1, 40))))::bigint
                    END
                WHERE id = $1 AND state = 'leased' AND worker = $2 AND attempt = $3
                RETURNING state, run_at
                """, name: "q_fail", [.int8(id), .text(worker), .int8(Int64(attempt)), .text(error), .int8(now)])
            guard rows.count > 0 else { return .notHeld }
            if rows.string(0, 0) == "dead" { return .dead }
            return .retry(runAt: rows.int64(0, 1) ?? now)
        }
    }

    public func release(_ ids: [Int64], worker: String, now: Int64) throws(QueueError) {
        guard !ids.isEmpty else { return }
        try withConnection { (connection, _) throws(PGFailure) in
            _ = try connection.query(
                """
                UPDATE jsbridge_queue_jobs SET state = 'ready', worker = NULL, run_at = $3, attempt = attempt - 1
                WHERE id = ANY(string_to_array($1, ',')::bigint[]) AND state = 'leased' AND worker = $2
                """, name: "q_release", [.text(ids.map(String.init).joined(separator: ",")), .text(worker), .int8(now)])
        }
    }

    public func stats(_ queue: String, now: Int64) throws(QueueError) -> QueueStats {
        try withConnection { (connection, _) throws(PGFailure) -> QueueStats in
            let rows = try connection.query(
                """
                SELECT state, CASE WHEN run_at <= $3 THEN 1 ELSE 0 END::int8, count(*) FROM jsbridge_queue_jobs
                WHERE app = $1 AND queue = $2 GROUP BY 1, 2
                """, name: "q_stats", [.text(appID), .text(queue), .int8(now)])
            var stats = QueueStats()
            for row in 0..<rows.count {
                let count = Int(rows.int64(row, 2) ?? 0)
                let due = rows.int64(row, 1) == 1
                switch rows.string(row, 0) {
                case "ready": if due { stats.ready += count } else { stats.delayed += count }
                case "leased": stats.leased += count
                case "done": stats.done += count
                case "dead": stats.dead += count
                default: break
                }
            }
            return stats
        }
    }

    public func dead(_ queue: String, limit: Int) throws(QueueError) -> [DeadJob] {
        try withConnection { (connection, _) throws(PGFailure) -> [DeadJob] in
            let rows = try connection.query(
                """
                SELECT id, payload, attempt, last_error, finished_at FROM jsbridge_queue_jobs
                WHERE app = $1 AND queue = $2 AND state = 'dead' ORDER BY finished_at, id LIMIT $3
                """, name: "q_dead", [.text(appID), .text(queue), .int8(Int64(max(0, limit)))])
            return (0..<rows.count).map { row in
                DeadJob(
                    id: rows.int64(row, 0) ?? 0, payload: rows.string(row, 1) ?? "",
                    attempts: Int(rows.int64(row, 2) ?? 0), error: rows.string(row, 3),
                    failedAt: rows.int64(row, 4) ?? 0)
            }
        }
    }

    public func purge(_ queue: String, before: Int64, includeDead: Bool) throws(QueueError) -> Int {
        try withConnection { (connection, _) throws(PGFailure) -> Int in
            let rows = try connection.query(
                """
                WITH gone AS (
                    DELETE FROM jsbridge_queue_jobs WHERE app = $1 AND queue = $2 AND finished_at < $3
                        AND (state = 'done' OR ($4 AND state = 'dead'))
                    RETURNING 1
                )
                SELECT count(*) FROM gone
                """, name: "q_purge", [.text(appID), .text(queue), .int8(before), .bool(includeDead)])
            return Int(rows.int64(0, 0) ?? 0)
        }
    }

    public func nextDue(_ queue: String) throws(QueueError) -> Int64? {
        try withConnection { (connection, _) throws(PGFailure) -> Int64? in
            let rows = try connection.query(
                """
                SELECT min(run_at) FROM jsbridge_queue_jobs
                WHERE app = $1 AND queue = $2 AND state IN ('ready', 'leased')
                """, name: "q_next", [.text(appID), .text(queue)])
            return rows.count > 0 ? rows.int64(0, 0) : nil
        }
    }

    // MARK: - ChannelLog (BroadcastChannel)

    public func post(channel: String, sender: String, data: String, now: Int64) throws(QueueError) -> Int64 {
        let senderSeq = postCount.withLock { count -> Int64 in
            count += 1
            return count
        }
        return try withConnection { (connection, retry) throws(PGFailure) -> Int64 in
            let rows = try connection.query(
                "SELECT jsbridge_broadcast_post($1, $2, $3, $4, $5, $6, $7, $8)", name: "b_post",
                [
                    .text(appID), .text(channel), .text(sender), .text(data), .int8(now), .int8(channelRetentionMs),
                    .int8(senderSeq), .bool(retry),
                ])
            return rows.int64(0, 0) ?? 0
        }
    }

    public func ringOnPosts(_ doorbell: Doorbell) -> @Sendable () -> Void {
        doorbellLock.lock()
        let listener = self.doorbell
        doorbellLock.unlock()
        return listener.add(doorbell)
    }

    public func lastSeq() throws(QueueError) -> Int64 {
        try withConnection { (connection, _) throws(PGFailure) -> Int64 in
            let rows = try connection.query(
                "SELECT coalesce((SELECT seq FROM jsbridge_broadcast_apps WHERE app = $1), 0)::int8", name: "b_last",
                [.text(appID)])
            return rows.int64(0, 0) ?? 0
        }
    }

    public func read(channel: String, after seq: Int64, excluding sender: String, limit: Int) throws(QueueError)
        -> (messages: [ChannelMessage], through: Int64)
    {
        try withConnection { (connection, _) throws(PGFailure) -> ([ChannelMessage], Int64) in
            let rows = try connection.query(
                """
                SELECT seq, sender, data FROM jsbridge_broadcast
                WHERE app = $1 AND channel = $2 AND seq > $3 ORDER BY seq LIMIT $4
                """, name: "b_read", [.text(appID), .text(channel), .int8(seq), .int8(Int64(max(1, limit)))])
            var messages: [ChannelMessage] = []
            var through = seq
            for row in 0..<rows.count {
                let message = ChannelMessage(
                    seq: rows.int64(row, 0) ?? 0, channel: channel, sender: rows.string(row, 1) ?? "",
                    data: rows.string(row, 2) ?? "")
                through = message.seq
                if message.sender != sender { messages.append(message) }
            }
            return (messages, through)
        }
    }

    // MARK: - Connection

    private func mapped(_ failure: PGFailure) -> QueueError {
        let message = url.scrub(failure.message)
        if failure.connectionLost { return .unavailable(host: url.host, message: message) }
        return .failure(location: url.redacted, message: message)
    }

    /// How a statement's commit waits for the server's WAL flush.
    enum CommitMode {
        /// The session's default (`synchronous_commit` as the server, database or role sets it: on unless an
        /// operator chose otherwise). Enqueues, failures, releases, broadcast posts, the schema.
        case durable
        /// `synchronous_commit = off`: the commit returns before its WAL record is flushed, which the server's
        /// WAL writer does within three `wal_writer_delay`s (200 ms by default).
        ///
        /// Only for statements that at-least-once already covers when they are lost: a server crash in that
        /// window rolls back the latest such commits, never a durable one committed before them (the WAL is
        /// replayed in order and a durable commit flushes everything before it), and leaves the database as
        /// it was before them. A lost claim leaves the job as it was (ready, or leased elsewhere and claimable
        /// when that lease ends): a completion from the run it started needs that worker id and attempt on
        /// the row, so it changes nothing unless the same worker claimed the job again at the same attempt,
        /// and then marks it done once. A lost completion leaves the job leased to a worker that no
        /// longer heartbeats it, so the job runs again after its lease, as after a dead worker, and is marked
        /// done once by whichever completion commits (a done job takes no completion). A lost heartbeat is
        /// renewed by the next one. Enqueues must not be lost, nor releases (a lost one would count the
        /// attempt when the lease expires) nor failures (their error and backoff): they stay durable.
        case lease
    }

    /// A pooled connection and the commit mode its session is in.
    private final class PooledConnection {
        let connection: PGConnection
        var mode = CommitMode.durable

        init(_ connection: PGConnection) { self.connection = connection }

        /// Puts the session in `wanted`'s mode: one round trip without a commit, only when it changes (a pool
        /// serving only workers, or only enqueues, never switches).
        func use(_ wanted: CommitMode) throws(PGFailure) {
            guard mode != wanted else { return }
            switch wanted {
            case .durable: try connection.execute("RESET synchronous_commit")
            case .lease: try connection.execute("SET synchronous_commit = off")
            }
            mode = wanted
        }
    }

    /// Runs `body` on a live connection of the pool, its session in `commit` mode; after a lost connection,
    /// reconnects and runs it again until `unavailableWait` has passed since the call began.
    private func withConnection<R>(
        commit: CommitMode = .durable, _ body: (PGConnection, _ retry: Bool) throws(PGFailure) -> R
    ) throws(QueueError) -> R {
        pool.lock()
        while !closed && idle.isEmpty { pool.wait() }
        guard !closed else {
            pool.unlock()
            throw .failure(location: url.redacted, message: "the queue store is closed")
        }
        var connection = idle.removeLast()
        busy += 1
        pool.unlock()
        defer {
            pool.lock()
            busy -= 1
            if !closed { idle.append(connection) }
            pool.signal()
            pool.unlock()
        }
        let deadline = ContinuousClock.now + unavailableWait
        var retry = false
        while true {
            if connection == nil || connection!.connection.isBroken {
                connection = nil
                connection = PooledConnection(try connect(until: deadline))
            }
            do throws(PGFailure) {
                try connection!.use(commit)
                return try body(connection!.connection, retry)
            } catch {
                guard error.connectionLost else { throw mapped(error) }
                connection = nil
                retry = true
                if ContinuousClock.now >= deadline { throw mapped(error) }
            }
        }
    }

    private func connect(until deadline: ContinuousClock.Instant) throws(QueueError) -> PGConnection {
        var lastMessage = "no attempt was made"
        while true {
            let seconds = Int((deadline - ContinuousClock.now).components.seconds) + 1
            do throws(PGFailure) {
                return try PGConnection(parameters: PostgresKeyValueStore.parameters(url, connectTimeout: seconds))
            } catch {
                lastMessage = url.scrub(error.message)
                if PostgresKeyValueStore.isRefusal(error.message) {
                    throw .failure(location: url.redacted, message: "the server refused the connection: \(lastMessage)")
                }
            }
            if ContinuousClock.now >= deadline { break }
            Thread.sleep(forTimeInterval: 0.1)
            if ContinuousClock.now >= deadline { break }
        }
        throw .unavailable(host: url.host, message: lastMessage)
    }
}
