import CSQLite
import Foundation
import JSBridgeBase

/// A ``JobStore`` in one SQLite database file (WAL mode), shared by the threads and processes of one machine.
///
/// Every operation is one `BEGIN IMMEDIATE` transaction: it takes the database's write lock first, so two
/// processes claiming at once are serialised and never lease the same job. Writers in other processes wait
/// up to `busyTimeout` for the lock. The schema is created and migrated under an exclusive `flock` on a
/// sibling `.lock` file, with its version in the `queue_schema` table.
public final class SQLiteJobStore: JobStore, ChannelLog, @unchecked Sendable {
    /// The database file.
    public let path: String
    public var location: String { path }

    // Invariant: `db` and `statements` are only used with `lock` held.
    private let lock = NSLock()
    private var db: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    /// Watches the WAL file for other processes' commits (broadcast readers).
    private let fileDoorbell: FileDoorbell

    /// `migrations[n]` takes the schema from version `n` to `n + 1`.
    static let migrations: [String] = [
        """
        CREATE TABLE jobs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            queue TEXT NOT NULL,
            payload TEXT NOT NULL,
            idem_key TEXT,
            state TEXT NOT NULL,
            run_at INTEGER NOT NULL,
            attempt INTEGER NOT NULL DEFAULT 0,
            max_attempts INTEGER NOT NULL,
            backoff_kind TEXT NOT NULL,
            backoff_ms INTEGER NOT NULL,
            backoff_max_ms INTEGER NOT NULL,
            worker TEXT,
            last_error TEXT,
            created_at INTEGER NOT NULL,
            finished_at INTEGER
        );
        CREATE UNIQUE INDEX jobs_key ON jobs(queue, idem_key) WHERE idem_key IS NOT NULL;
        CREATE INDEX jobs_due ON jobs(queue, state, run_at, id);
        """,
        // Version 2: the log of cross-process BroadcastChannel messages (ChannelLog).
        """
        CREATE TABLE messages (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            channel TEXT NOT NULL,
            sender TEXT NOT NULL,
            data TEXT NOT NULL,
            at INTEGER NOT NULL
        );
        CREATE INDEX messages_channel ON messages(channel, seq);
        """,
        // Version 3: the jobs still to run, in claim order (a claim reads them without sorting the queue).
        """
        CREATE INDEX jobs_pending ON jobs(queue, run_at, id) WHERE state IN ('ready', 'leased');
        """,
    ]

    /// The queue database of `appID` under `directory`: Storage's own file,
    /// `<directory>/<app id as a file name>.sqlite`, so a job enqueued by a Storage transaction commits in
    /// the same SQLite transaction as its writes (SQLite commits atomically within one file only).
    public static func databasePath(directory: String, appID: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + StorageLocation.fileSystemName(of: appID)
            + ".sqlite"
    }

    /// Opens (creating or migrating when needed) the queue database at `path`.
    public init(path: String, busyTimeout: Duration = .seconds(30), durable: Bool = false) throws(QueueError) {
        self.path = path
        fileDoorbell = FileDoorbell(path: path + "-wal")
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: directory.isEmpty ? "." : directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw .failure(location: path, message: "cannot create the directory '\(directory)': \(error)")
        }
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            throw .failure(location: path, message: "the database is a symbolic link")
        }
        let lockFD = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lockFD >= 0 else {
            throw .failure(location: path, message: "cannot open '\(path).lock': \(String(cString: strerror(errno)))")
        }
        defer { Glibc.close(lockFD) }
        while flock(lockFD, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw .failure(
                    location: path, message: "cannot lock '\(path).lock': \(String(cString: strerror(errno)))")
            }
        }
        let milliseconds = Int32(clamping: busyTimeout.components.seconds * 1000)
        do throws(QueueError) {
            let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
            guard rc == SQLITE_OK else { throw failure(rc) }
            sqlite3_busy_timeout(db, milliseconds)
            sqlite3_extended_result_codes(db, 1)
            try exec("PRAGMA journal_mode = WAL")
            try exec("PRAGMA synchronous = \(durable ? "FULL" : "NORMAL")")
            try migrate()
            try adoptLegacyFile()
        } catch {
            close()
            throw error
        }
    }

    /// Where the queue lived before it moved into Storage's file: `<…>.queue.sqlite` beside `path`.
    static func legacyPath(of path: String) -> String? {
        guard path.hasSuffix(".sqlite") else { return nil }
        return String(path.dropLast(".sqlite".count)) + ".queue.sqlite"
    }

    /// Moves the jobs and broadcast messages of the queue's former file (``legacyPath(of:)``) into this one,
    /// once (under the opening `flock`), then renames it `<…>.queue.sqlite.moved` with its WAL files: a job
    /// enqueued before the move is not lost. Ids are given anew; a key already here keeps this file's job.
    private func adoptLegacyFile() throws(QueueError) {
        guard let legacy = Self.legacyPath(of: path), FileManager.default.fileExists(atPath: legacy), let db else {
            return
        }
        let path = self.path
        func sql(_ text: String, _ values: [SQLValue] = [], row: (OpaquePointer) -> Void = { _ in }) throws(QueueError)
        {
            try SQLiteStatement.each(db, path: path, text, values, row: row)
        }
        do throws(QueueError) {
            try sql("ATTACH DATABASE ?1 AS legacy", [.text(legacy)])
            defer { try? sql("DETACH DATABASE legacy") }
            var tables: Set<String> = []
            try sql("SELECT name FROM legacy.sqlite_master WHERE type = 'table'") { tables.insert(Self.text($0, 0)) }
            try sql("BEGIN IMMEDIATE")
            do throws(QueueError) {
                if tables.contains("jobs") {
                    try sql(
                        """
                        INSERT OR IGNORE INTO jobs(queue, payload, idem_key, state, run_at, attempt, max_attempts,
                            backoff_kind, backoff_ms, backoff_max_ms, worker, last_error, created_at, finished_at)
                        SELECT queue, payload, idem_key, state, run_at, attempt, max_attempts, backoff_kind, backoff_ms,
                            backoff_max_ms, worker, last_error, created_at, finished_at
                        FROM legacy.jobs ORDER BY id
                        """)
                }
                if tables.contains("messages") {
                    try sql(
                        """
                        INSERT INTO messages(channel, sender, data, at)
                        SELECT channel, sender, data, at FROM legacy.messages ORDER BY seq
                        """)
                }
                try sql("COMMIT")
            } catch {
                try? sql("ROLLBACK")
                throw error
            }
        } catch {
            throw .failure(
                location: path, message: "cannot move the jobs of the former queue file '\(legacy)' here: \(error)")
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: legacy + suffix) {
            _ = rename(legacy + suffix, legacy + ".moved" + suffix)
        }
    }

    deinit { close() }

    /// Closes the database; later calls fail.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        if let db { sqlite3_close_v2(db) }
        db = nil
    }

    /// The schema version this file has.
    public func schemaVersion() throws(QueueError) -> Int {
        try locked { () throws(QueueError) -> Int in
            var version = 0
            try each("SELECT max(version) FROM queue_schema", []) { version = Int(sqlite3_column_int64($0, 0)) }
            return version
        }
    }

    private func migrate() throws(QueueError) {
        try exec("BEGIN IMMEDIATE")
        do throws(QueueError) {
            try Self.migrate(db!, path: path)
            try exec("COMMIT")
        } catch {
            try? exec("ROLLBACK")
            throw error
        }
    }

    /// Creates or migrates the queue's tables on `db` (the file at `path`), inside a transaction the caller
    /// holds: the queue's own opening, or a Storage transaction enqueuing a job into the same file.
    static func migrate(_ db: OpaquePointer, path: String) throws(QueueError) {
        try SQLiteStatement.exec(db, path: path, "CREATE TABLE IF NOT EXISTS queue_schema (version INTEGER NOT NULL)")
        var version = 0
        try SQLiteStatement.each(db, path: path, "SELECT coalesce(max(version), 0) FROM queue_schema", []) {
            version = Int(sqlite3_column_int64($0, 0))
        }
        if version > migrations.count {
            throw QueueError.failure(
                location: path,
                message:
                    "the file has queue schema version \(version), newer than this jsbridge knows (\(migrations.count))"
            )
        }
        for index in version..<migrations.count {
            try SQLiteStatement.exec(db, path: path, migrations[index])
            try SQLiteStatement.each(
                db, path: path, "INSERT INTO queue_schema(version) VALUES (?1)", [.int(Int64(index + 1))]
            ) { _ in }
        }
    }

    /// Enqueues a job on `db` (the file at `path`) inside a transaction the caller holds — a Storage
    /// transaction's, so the job commits or rolls back with its writes. Creates the tables when missing.
    public static func enqueue(
        on db: OpaquePointer, path: String, _ queue: String, payload: String, options: EnqueueOptions, now: Int64
    ) throws(QueueError) -> EnqueueResult {
        try validateQueueName(queue)
        try options.validate()
        try migrate(db, path: path)
        if let key = options.key {
            var existing: Int64?
            try SQLiteStatement.each(
                db, path: path, "SELECT id FROM jobs WHERE queue = ?1 AND idem_key = ?2", [.text(queue), .text(key)]
            ) { existing = sqlite3_column_int64($0, 0) }
            if let existing { return EnqueueResult(id: existing, created: false) }
        }
        try SQLiteStatement.each(db, path: path, insertJob, insertValues(queue, payload, options, now)) { _ in }
        return EnqueueResult(id: sqlite3_last_insert_rowid(db), created: true)
    }

    static let insertJob = """
        INSERT INTO jobs(queue, payload, idem_key, state, run_at, max_attempts, backoff_kind, backoff_ms,
            backoff_max_ms, created_at)
        VALUES (?1, ?2, ?3, 'ready', ?4, ?5, ?6, ?7, ?8, ?9)
        """

    static func insertValues(_ queue: String, _ payload: String, _ options: EnqueueOptions, _ now: Int64) -> [SQLValue]
    {
        [
            .text(queue), .text(payload), options.key.map(SQLValue.text) ?? .null, .int(now + options.delayMs),
            .int(Int64(options.attempts)), .text(options.backoff.kind.rawValue), .int(options.backoff.delayMs),
            .int(options.backoff.maxDelayMs), .int(now),
        ]
    }

    // MARK: - JobStore

    public func enqueue(_ queue: String, payload: String, options: EnqueueOptions, now: Int64) throws(QueueError)
        -> EnqueueResult
    {
        try validateQueueName(queue)
        try options.validate()
        return try transaction { () throws(QueueError) -> EnqueueResult in
            if let key = options.key {
                var existing: Int64?
                try each("SELECT id FROM jobs WHERE queue = ?1 AND idem_key = ?2", [.text(queue), .text(key)]) {
                    existing = sqlite3_column_int64($0, 0)
                }
                if let existing { return EnqueueResult(id: existing, created: false) }
            }
            try run(Self.insertJob, Self.insertValues(queue, payload, options, now))
            return EnqueueResult(id: sqlite3_last_insert_rowid(db), created: true)
        }
    }

    public func claim(_ queue: String, worker: String, limit: Int, leaseMs: Int64, now: Int64) throws(QueueError)
        -> [LeasedJob]
    {
        guard limit > 0 else { return [] }
        return try transaction { () throws(QueueError) -> [LeasedJob] in
            try claimInTransaction(queue, worker: worker, limit: limit, leaseMs: leaseMs, now: now)
        }
    }

    /// A worker's cycle in one transaction (one commit): its completions, then its claim.
    public func completeAndClaim(
        _ queue: String, completions: [Completion], worker: String, limit: Int, leaseMs: Int64, now: Int64
    ) throws(QueueError) -> (completed: [Int64], claimed: [LeasedJob]) {
        try transaction { () throws(QueueError) -> ([Int64], [LeasedJob]) in
            var completed: [Int64] = []
            for completion in completions {
                try run(
                    """
                    UPDATE jobs SET state = 'done', finished_at = ?4, worker = NULL
                    WHERE id = ?1 AND state = 'leased' AND worker = ?2 AND attempt = ?3
                    """, [.int(completion.id), .text(worker), .int(Int64(completion.attempt)), .int(now)])
                if sqlite3_changes(db) > 0 { completed.append(completion.id) }
            }
            let claimed =
                limit > 0 ? try claimInTransaction(queue, worker: worker, limit: limit, leaseMs: leaseMs, now: now) : []
            return (completed.sorted(), claimed)
        }
    }

    /// The body of ``claim(_:worker:limit:leaseMs:now:)``, inside a transaction the caller holds.
    private func claimInTransaction(_ queue: String, worker: String, limit: Int, leaseMs: Int64, now: Int64)
        throws(QueueError) -> [LeasedJob]
    {
        // A lease that ended on the last attempt: its worker died holding it, and no attempt is left.
        try run(
            """
            UPDATE jobs SET state = 'dead', finished_at = ?2, worker = NULL,
                last_error = coalesce(last_error, 'the lease expired (the worker stopped responding)')
            WHERE queue = ?1 AND state = 'leased' AND run_at <= ?2 AND attempt >= max_attempts
            """, [.text(queue), .int(now)])
        var candidates: [(Int64, String, Int, Int)] = []
        try each(
            """
            SELECT id, payload, attempt, max_attempts FROM jobs
            WHERE queue = ?1 AND state IN ('ready', 'leased') AND run_at <= ?2
            ORDER BY run_at, id LIMIT ?3
            """, [.text(queue), .int(now), .int(Int64(limit))]
        ) {
            candidates.append(
                (
                    sqlite3_column_int64($0, 0), Self.text($0, 1), Int(sqlite3_column_int64($0, 2)),
                    Int(sqlite3_column_int64($0, 3))
                ))
        }
        var jobs: [LeasedJob] = []
        for (id, payload, attempt, maxAttempts) in candidates {
            try run(
                "UPDATE jobs SET state = 'leased', worker = ?2, run_at = ?3, attempt = attempt + 1 WHERE id = ?1",
                [.int(id), .text(worker), .int(now + leaseMs)])
            jobs.append(
                LeasedJob(
                    id: id, queue: queue, payload: payload, attempt: attempt + 1, maxAttempts: maxAttempts,
                    leaseUntil: now + leaseMs))
        }
        return jobs
    }

    public func heartbeat(_ ids: [Int64], worker: String, leaseMs: Int64, now: Int64) throws(QueueError) -> [Int64] {
        guard !ids.isEmpty else { return [] }
        return try transaction { () throws(QueueError) -> [Int64] in
            var held: [Int64] = []
            for id in ids {
                try run(
                    "UPDATE jobs SET run_at = ?3 WHERE id = ?1 AND state = 'leased' AND worker = ?2",
                    [.int(id), .text(worker), .int(now + leaseMs)])
                if sqlite3_changes(db) > 0 { held.append(id) }
            }
            return held
        }
    }

    public func complete(_ id: Int64, worker: String, attempt: Int, now: Int64) throws(QueueError) -> Bool {
        try transaction { () throws(QueueError) -> Bool in
            try run(
                """
                UPDATE jobs SET state = 'done', finished_at = ?4, worker = NULL
                WHERE id = ?1 AND state = 'leased' AND worker = ?2 AND attempt = ?3
                """, [.int(id), .text(worker), .int(Int64(attempt)), .int(now)])
            return sqlite3_changes(db) > 0
        }
    }

    public func fail(_ id: Int64, worker: String, attempt: Int, error: String, now: Int64) throws(QueueError)
        -> FailOutcome
    {
        try transaction { () throws(QueueError) -> FailOutcome in
            var row: (Int, Backoff)?
            try each(
                """
                SELECT max_attempts, backoff_kind, backoff_ms, backoff_max_ms FROM jobs
                WHERE id = ?1 AND state = 'leased' AND worker = ?2 AND attempt = ?3
                """, [.int(id), .text(worker), .int(Int64(attempt))]
            ) {
                row = (
                    Int(sqlite3_column_int64($0, 0)),
                    Backoff(
                        kind: Backoff.Kind(rawValue: Self.text($0, 1)) ?? .exponential,
                        delayMs: sqlite3_column_int64($0, 2), maxDelayMs: sqlite3_column_int64($0, 3))
                )
            }
            guard let (maxAttempts, backoff) = row else { return .notHeld }
            if attempt >= maxAttempts {
                try run(
                    "UPDATE jobs SET state = 'dead', worker = NULL, last_error = ?2, finished_at = ?3 WHERE id = ?1",
                    [.int(id), .text(error), .int(now)])
                return .dead
            }
            let runAt = now + backoff.delay(afterAttempt: attempt)
            try run(
                "UPDATE jobs SET state = 'ready', worker = NULL, last_error = ?2, run_at = ?3 WHERE id = ?1",
                [.int(id), .text(error), .int(runAt)])
            return .retry(runAt: runAt)
        }
    }

    public func release(_ ids: [Int64], worker: String, now: Int64) throws(QueueError) {
        guard !ids.isEmpty else { return }
        try transaction { () throws(QueueError) in
            for id in ids {
                try run(
                    """
                    UPDATE jobs SET state = 'ready', worker = NULL, run_at = ?3, attempt = attempt - 1
                    WHERE id = ?1 AND state = 'leased' AND worker = ?2
                    """, [.int(id), .text(worker), .int(now)])
            }
        }
    }

    public func stats(_ queue: String, now: Int64) throws(QueueError) -> QueueStats {
        try locked { () throws(QueueError) -> QueueStats in
            var stats = QueueStats()
            try each(
                """
                SELECT state, run_at <= ?2, count(*) FROM jobs WHERE queue = ?1 GROUP BY state, run_at <= ?2
                """, [.text(queue), .int(now)]
            ) {
                let count = Int(sqlite3_column_int64($0, 2))
                let due = sqlite3_column_int64($0, 1) != 0
                switch Self.text($0, 0) {
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
        try locked { () throws(QueueError) -> [DeadJob] in
            var jobs: [DeadJob] = []
            try each(
                """
                SELECT id, payload, attempt, last_error, finished_at FROM jobs
                WHERE queue = ?1 AND state = 'dead' ORDER BY finished_at, id LIMIT ?2
                """, [.text(queue), .int(Int64(max(0, limit)))]
            ) {
                jobs.append(
                    DeadJob(
                        id: sqlite3_column_int64($0, 0), payload: Self.text($0, 1),
                        attempts: Int(sqlite3_column_int64($0, 2)),
                        error: sqlite3_column_type($0, 3) == SQLITE_NULL ? nil : Self.text($0, 3),
                        failedAt: sqlite3_column_int64($0, 4)))
            }
            return jobs
        }
    }

    public func purge(_ queue: String, before: Int64, includeDead: Bool) throws(QueueError) -> Int {
        try transaction { () throws(QueueError) -> Int in
            try run(
                """
                DELETE FROM jobs WHERE queue = ?1 AND finished_at < ?2
                    AND (state = 'done' OR (?3 = 1 AND state = 'dead'))
                """, [.text(queue), .int(before), .int(includeDead ? 1 : 0)])
            return Int(sqlite3_changes(db))
        }
    }

    public func nextDue(_ queue: String) throws(QueueError) -> Int64? {
        try locked { () throws(QueueError) -> Int64? in
            var next: Int64?
            try each(
                "SELECT min(run_at) FROM jobs WHERE queue = ?1 AND state IN ('ready', 'leased')", [.text(queue)]
            ) {
                if sqlite3_column_type($0, 0) != SQLITE_NULL { next = sqlite3_column_int64($0, 0) }
            }
            return next
        }
    }

    // MARK: - ChannelLog (BroadcastChannel)

    public func post(channel: String, sender: String, data: String, now: Int64) throws(QueueError) -> Int64 {
        try transaction { () throws(QueueError) -> Int64 in
            try run(
                "INSERT INTO messages(channel, sender, data, at) VALUES (?1, ?2, ?3, ?4)",
                [.text(channel), .text(sender), .text(data), .int(now)])
            let seq = sqlite3_last_insert_rowid(db)
            if seq % 256 == 0 {
                try run("DELETE FROM messages WHERE at < ?1", [.int(now - channelRetentionMs)])
            }
            return seq
        }
    }

    public func ringOnPosts(_ doorbell: Doorbell) -> @Sendable () -> Void {
        fileDoorbell.add(doorbell)
    }

    public func lastSeq() throws(QueueError) -> Int64 {
        try locked { () throws(QueueError) -> Int64 in
            var seq: Int64 = 0
            // AUTOINCREMENT's counter: never reused, even after the newest rows were trimmed.
            try each("SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'messages'), 0)", []) {
                seq = sqlite3_column_int64($0, 0)
            }
            return seq
        }
    }

    public func read(channel: String, after seq: Int64, excluding sender: String, limit: Int) throws(QueueError)
        -> (messages: [ChannelMessage], through: Int64)
    {
        try locked { () throws(QueueError) -> ([ChannelMessage], Int64) in
            var messages: [ChannelMessage] = []
            var through = seq
            try each(
                "SELECT seq, sender, data FROM messages WHERE channel = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
                [.text(channel), .int(seq), .int(Int64(max(1, limit)))]
            ) {
                let message = ChannelMessage(
                    seq: sqlite3_column_int64($0, 0), channel: channel, sender: Self.text($0, 1), data: Self.text($0, 2)
                )
                through = message.seq
                if message.sender != sender { messages.append(message) }
            }
            return (messages, through)
        }
    }

    // MARK: - SQLite helpers

    enum SQLValue {
        case text(String)
        case int(Int64)
        case null
    }

    /// Statements on a connection the store does not own (a Storage transaction's), prepared per call.
    enum SQLiteStatement {
        static func exec(_ db: OpaquePointer, path: String, _ sql: String) throws(QueueError) {
            let rc = sqlite3_exec(db, sql, nil, nil, nil)
            guard rc == SQLITE_OK else {
                throw .failure(location: path, message: String(cString: sqlite3_errmsg(db)))
            }
        }

        static func each(
            _ db: OpaquePointer, path: String, _ sql: String, _ values: [SQLValue], row: (OpaquePointer) -> Void
        ) throws(QueueError) {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
                throw .failure(location: path, message: String(cString: sqlite3_errmsg(db)))
            }
            defer { sqlite3_finalize(statement) }
            SQLiteJobStore.bind(statement, values)
            guard SQLiteJobStore.stepAll(statement, row: row) == SQLITE_DONE else {
                throw .failure(location: path, message: String(cString: sqlite3_errmsg(db)))
            }
        }
    }

    private func locked<R>(_ body: () throws(QueueError) -> R) throws(QueueError) -> R {
        lock.lock()
        defer { lock.unlock() }
        guard db != nil else { throw .failure(location: path, message: "the queue database is closed") }
        return try body()
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction (the write lock first: no upgrade deadlocks).
    private func transaction<R>(_ body: () throws(QueueError) -> R) throws(QueueError) -> R {
        try locked { () throws(QueueError) -> R in
            try exec("BEGIN IMMEDIATE")
            do throws(QueueError) {
                let result = try body()
                try exec("COMMIT")
                return result
            } catch {
                if sqlite3_get_autocommit(db) == 0 { try? exec("ROLLBACK") }
                throw error
            }
        }
    }

    private func prepared(_ sql: String) throws(QueueError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw failure(rc) }
        statements[sql] = statement
        return statement
    }

    private func bound(_ sql: String, _ values: [SQLValue]) throws(QueueError) -> OpaquePointer {
        let statement = try prepared(sql)
        Self.bind(statement, values)
        return statement
    }

    static func bind(_ statement: OpaquePointer, _ values: [SQLValue]) {
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case .text(let text):
                let count = text.utf8.count
                _ = text.withCString { jsb_sqlite3_bind_text(statement, position, $0, Int32(count)) }
            case .int(let number): sqlite3_bind_int64(statement, position, number)
            case .null: sqlite3_bind_null(statement, position)
            }
        }
    }

    private func run(_ sql: String, _ values: [SQLValue]) throws(QueueError) {
        try each(sql, values) { _ in }
    }

    private func each(_ sql: String, _ values: [SQLValue], row: (OpaquePointer) -> Void) throws(QueueError) {
        let statement = try bound(sql, values)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        let rc = Self.stepAll(statement, row: row)
        guard rc == SQLITE_DONE else { throw failure(rc) }
    }

    /// Steps `statement` to its end, calling `row` for each row: `SQLITE_DONE`, or the failing step's code.
    static func stepAll(_ statement: OpaquePointer, row: (OpaquePointer) -> Void) -> Int32 {
        while true {
            let rc = sqlite3_step(statement)
            guard rc == SQLITE_ROW else { return rc }
            row(statement)
        }
    }

    private func exec(_ sql: String) throws(QueueError) {
        let rc = sqlite3_exec(db, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw failure(rc) }
    }

    private static func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    private func failure(_ rc: Int32) -> QueueError {
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
        return .failure(location: path, message: message)
    }
}
