import Foundation
import HTTPCore
import JSBridgeBase
import StorageCore
import StoragePostgres

/// An ``HTTPCacheStore`` in a PostgreSQL database (Storage's: the same `--storage-url`), shared by every
/// process of every host with the same app id: a response cached by one host is served on the others.
///
/// - **Entries**: one row per key in `jsbridge_http_cache`, the entry in ``HTTPCacheEntryCoding``'s form
///   (the disk store's, checksummed: a damaged row is a miss and is removed), with its URL (for
///   invalidation), when it was stored and last used, and its size.
/// - **Bounds**: an entry larger than ``sizeLimit`` is not stored; when an app's entries pass the limit, the
///   least recently used are deleted until they fit in 90% of it (one statement after the store that passed
///   it). An entry stored more than ``maxEntryAge`` ago is a miss and is deleted (so are all such entries
///   when the store opens and once an hour after).
/// - **Single flight**: a miss claims the key's fetch (a row in `jsbridge_http_cache_fills` with a lease);
///   misses of the same key elsewhere meanwhile wait for the entry it stores (``HTTPCache/fillWait``).
/// - **Calls** are synchronous libpq round trips on one connection, run off the caller's thread; a server
///   that cannot be reached within `unavailableWait` makes reads misses and stores fail.
///
/// The schema is created and migrated under an advisory lock, its version in `jsbridge_http_cache_schema`.
public final class PostgresHTTPCacheStore: HTTPCacheStore, @unchecked Sendable {
    public let url: PostgresURL
    public let appID: String
    /// The most bytes the app's entries may take.
    public let sizeLimit: Int
    /// How long after being stored an entry is kept (nil: until evicted).
    public let maxEntryAge: Duration?
    public let unavailableWait: Duration
    private let clock: any BridgeClock

    // Invariant: `connection` is only used with `lock` held.
    private let lock = NSLock()
    private var connection: PGConnection?
    private let lastSweep = Locked(Date.distantPast)
    private let lane = DispatchQueue(label: "jsbridge.http-cache.postgres", attributes: .concurrent)

    /// The advisory lock key of schema changes ("jsbh" in ASCII).
    static let lockKey: Int64 = 0x6A73_6268

    /// `migrations[n]` takes the schema from version `n` to `n + 1`.
    static let migrations: [String] = [
        """
        CREATE TABLE jsbridge_http_cache (
            app text NOT NULL, key text NOT NULL, url text NOT NULL, stored_at bigint NOT NULL,
            used_at bigint NOT NULL, size bigint NOT NULL, entry bytea NOT NULL,
            PRIMARY KEY (app, key)
        );
        CREATE INDEX jsbridge_http_cache_url ON jsbridge_http_cache(app, url);
        CREATE INDEX jsbridge_http_cache_used ON jsbridge_http_cache(app, used_at);
        """,
        // Version 2: claims on fetching an entry (the single flight of concurrent misses across hosts): one
        // row per key being fetched, with its owner and when its lease ends.
        """
        CREATE TABLE jsbridge_http_cache_fills (
            app text NOT NULL, key text NOT NULL, owner text NOT NULL, until bigint NOT NULL,
            PRIMARY KEY (app, key)
        );
        """,
    ]

    /// Connects, creates or migrates the schema, and removes expired entries.
    public init(
        url: PostgresURL, appID: String, sizeLimit: Int = 64 << 20, maxEntryAge: Duration? = .seconds(7 * 86_400),
        unavailableWait: Duration = .seconds(10), clock: any BridgeClock = SystemClock()
    ) throws(StorageError) {
        self.url = url
        self.appID = appID
        self.sizeLimit = max(0, sizeLimit)
        self.maxEntryAge = maxEntryAge
        self.unavailableWait = unavailableWait
        self.clock = clock
        try call { connection throws(PGFailure) in try Self.migrate(connection) }
        lastSweep.withLock { $0 = clock.now() }
        removeExpired()
    }

    static func migrate(_ connection: PGConnection) throws(PGFailure) {
        try connection.execute("BEGIN")
        do throws(PGFailure) {
            try connection.query("SELECT pg_advisory_xact_lock($1)", [.int8(lockKey)])
            try connection.execute("CREATE TABLE IF NOT EXISTS jsbridge_http_cache_schema (version bigint NOT NULL)")
            let rows = try connection.query("SELECT coalesce(max(version), 0)::bigint FROM jsbridge_http_cache_schema")
            let version = Int(rows.int64(0, 0) ?? 0)
            if version > migrations.count {
                throw PGFailure(
                    sqlState: nil,
                    message:
                        "the database has HTTP cache schema version \(version), newer than this jsbridge knows (\(migrations.count))",
                    detail: nil, connectionLost: false)
            }
            for index in version..<migrations.count {
                try connection.execute(migrations[index])
                try connection.query(
                    "INSERT INTO jsbridge_http_cache_schema(version) VALUES ($1)", [.int8(Int64(index + 1))])
            }
            try connection.execute("COMMIT")
        } catch {
            if !connection.isBroken { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// The schema version of the database.
    public func schemaVersion() throws(StorageError) -> Int {
        try call { connection throws(PGFailure) -> Int in
            Int(try connection.query("SELECT max(version)::bigint FROM jsbridge_http_cache_schema").int64(0, 0) ?? 0)
        }
    }

    // MARK: HTTPCacheStore

    public func entry(forKey key: String) async -> HTTPCacheEntry? {
        let now = clock.now()
        let bytes = try? await run { () throws(StorageError) -> [UInt8]? in
            try self.call { connection throws(PGFailure) -> [UInt8]? in
                let rows = try connection.query(
                    """
                    UPDATE jsbridge_http_cache SET used_at = $3 WHERE app = $1 AND key = $2 RETURNING entry
                    """, name: "hc_get", [.text(self.appID), .text(key), .int8(Self.milliseconds(now))])
                return rows.count > 0 ? rows.bytes(0, 0) : nil
            }
        }
        guard let bytes = bytes ?? nil else { return nil }
        guard let entry = HTTPCacheEntryCoding.decode(bytes), entry.key == key, !isExpired(entry.storedAt, now: now)
        else {
            await removeEntry(forKey: key)
            return nil
        }
        return entry
    }

    public func store(_ entry: HTTPCacheEntry) async throws {
        let now = clock.now()
        if sweepDue(now) { _ = try? await run { () throws(StorageError) in self.removeExpired() } }
        let bytes = HTTPCacheEntryCoding.encode(entry)
        guard bytes.count <= sizeLimit else {
            await removeEntry(forKey: entry.key)
            return
        }
        let limit = Int64(sizeLimit)
        try await run { () throws(StorageError) in
            try self.call { connection throws(PGFailure) in
                try connection.query(
                    """
                    INSERT INTO jsbridge_http_cache(app, key, url, stored_at, used_at, size, entry)
                    VALUES ($1, $2, $3, $4, $4, $5, $6)
                    ON CONFLICT (app, key) DO UPDATE SET url = excluded.url, stored_at = excluded.stored_at,
                        used_at = excluded.used_at, size = excluded.size, entry = excluded.entry
                    """, name: "hc_put",
                    [
                        .text(self.appID), .text(entry.key), .text(entry.url),
                        .int8(Self.milliseconds(entry.storedAt)), .int8(Int64(bytes.count)), .bytes(bytes),
                    ])
                // Past the limit: the least recently used entries go until the rest fit in 90% of it.
                try connection.query(
                    """
                    WITH total AS (SELECT coalesce(sum(size), 0) AS bytes FROM jsbridge_http_cache WHERE app = $1),
                    ranked AS (
                        SELECT key, sum(size) OVER (ORDER BY used_at DESC, key) AS running
                        FROM jsbridge_http_cache WHERE app = $1 AND (SELECT bytes FROM total) > $2
                    )
                    DELETE FROM jsbridge_http_cache c USING ranked
                    WHERE c.app = $1 AND c.key = ranked.key AND ranked.running > $3
                    """, name: "hc_evict", [.text(self.appID), .int8(limit), .int8(limit / 10 * 9)])
            }
        }
    }

    public func removeEntry(forKey key: String) async {
        await ignoringFailure("DELETE FROM jsbridge_http_cache WHERE app = $1 AND key = $2", "hc_del", [.text(key)])
    }

    public func removeEntries(forURL url: String) async {
        await ignoringFailure("DELETE FROM jsbridge_http_cache WHERE app = $1 AND url = $2", "hc_del_url", [.text(url)])
    }

    public func removeAll() async {
        await ignoringFailure("DELETE FROM jsbridge_http_cache WHERE app = $1", "hc_clear", [])
    }

    public func beginFill(key: String, owner: String, lease: Duration) async -> Bool {
        let now = Self.milliseconds(clock.now())
        let until = now + lease.components.seconds * 1000 + lease.components.attoseconds / 1_000_000_000_000_000
        // A claim whose lease ended (its owner died or gave up) is taken over. An unreachable server claims
        // nothing: the caller fetches as if the store had no claims.
        let claimed = try? await run { () throws(StorageError) -> Bool in
            try self.call { connection throws(PGFailure) -> Bool in
                try connection.query(
                    """
                    INSERT INTO jsbridge_http_cache_fills AS f (app, key, owner, until) VALUES ($1, $2, $3, $5)
                    ON CONFLICT (app, key) DO UPDATE SET owner = excluded.owner, until = excluded.until
                        WHERE f.until <= $4
                    RETURNING owner
                    """, name: "hc_fill_begin", [.text(self.appID), .text(key), .text(owner), .int8(now), .int8(until)]
                ).count > 0
            }
        }
        return claimed ?? true
    }

    public func endFill(key: String, owner: String) async {
        await ignoringFailure(
            "DELETE FROM jsbridge_http_cache_fills WHERE app = $1 AND key = $2 AND owner = $3", "hc_fill_end",
            [.text(key), .text(owner)])
    }

    public func fillInProgress(key: String) async -> Bool {
        let now = Self.milliseconds(clock.now())
        let live = try? await run { () throws(StorageError) -> Bool in
            try self.call { connection throws(PGFailure) -> Bool in
                try connection.query(
                    "SELECT 1 FROM jsbridge_http_cache_fills WHERE app = $1 AND key = $2 AND until > $3",
                    name: "hc_fill_live", [.text(self.appID), .text(key), .int8(now)]
                ).count > 0
            }
        }
        return live ?? false
    }

    /// How many entries the app has and the bytes they take.
    public func usage() throws(StorageError) -> (entries: Int, bytes: Int) {
        try call { connection throws(PGFailure) -> (Int, Int) in
            let rows = try connection.query(
                "SELECT count(*), coalesce(sum(size), 0)::bigint FROM jsbridge_http_cache WHERE app = $1",
                name: "hc_usage", [.text(appID)])
            return (Int(rows.int64(0, 0) ?? 0), Int(rows.int64(0, 1) ?? 0))
        }
    }

    /// Deletes the entries stored more than ``maxEntryAge`` ago (nothing without a maximum age).
    public func removeExpired() {
        guard let maxEntryAge else { return }
        let cutoff = Self.milliseconds(clock.now()) - Int64(maxEntryAge.components.seconds * 1000)
        _ = try? call { connection throws(PGFailure) in
            try connection.query(
                "DELETE FROM jsbridge_http_cache WHERE app = $1 AND stored_at < $2", name: "hc_expire",
                [.text(appID), .int8(cutoff)])
        }
    }

    // MARK: Connection

    /// Whether an hour passed since the last sweep of expired entries (then the caller runs one).
    private func sweepDue(_ now: Date) -> Bool {
        lastSweep.withLock { last in
            guard now.timeIntervalSince(last) >= 3600 else { return false }
            last = now
            return true
        }
    }

    private func isExpired(_ storedAt: Date, now: Date) -> Bool {
        guard let maxEntryAge else { return false }
        return now.timeIntervalSince(storedAt) > Double(maxEntryAge.components.seconds)
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    private func ignoringFailure(_ sql: String, _ name: String, _ parameters: [PGParameter]) async {
        let appID = appID
        _ = try? await run { () throws(StorageError) in
            try self.call { connection throws(PGFailure) in
                try connection.query(sql, name: name, [.text(appID)] + parameters)
            }
        }
    }

    /// Runs `body` on the lane (a blocking round trip never holds a thread of Swift's shared pool).
    private func run<R: Sendable>(_ body: @escaping @Sendable () throws(StorageError) -> R) async throws(StorageError)
        -> R
    {
        let result: Result<R, StorageError> = await withCheckedContinuation { continuation in
            lane.async {
                do throws(StorageError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Runs `body` on the live connection; after a lost connection, reconnects and runs it again until
    /// `unavailableWait` has passed.
    private func call<R>(_ body: (PGConnection) throws(PGFailure) -> R) throws(StorageError) -> R {
        lock.lock()
        defer { lock.unlock() }
        let deadline = ContinuousClock.now + unavailableWait
        while true {
            if connection == nil || connection!.isBroken { try connect(until: deadline) }
            do throws(PGFailure) {
                return try body(connection!)
            } catch {
                let message = url.scrub(error.message)
                guard error.connectionLost else { throw .failure(path: url.redacted, message: message) }
                connection = nil
                if ContinuousClock.now >= deadline { throw .unavailable(host: url.host, message: message) }
            }
        }
    }

    private func connect(until deadline: ContinuousClock.Instant) throws(StorageError) {
        var lastMessage = "no attempt was made"
        while true {
            let seconds = Int((deadline - ContinuousClock.now).components.seconds) + 1
            do throws(PGFailure) {
                connection = try PGConnection(
                    parameters: PostgresKeyValueStore.parameters(url, connectTimeout: seconds))
                return
            } catch {
                lastMessage = url.scrub(error.message)
                if PostgresKeyValueStore.isRefusal(error.message) {
                    throw .rejected(host: url.host, message: lastMessage)
                }
            }
            if ContinuousClock.now >= deadline { break }
            Thread.sleep(forTimeInterval: 0.1)
            if ContinuousClock.now >= deadline { break }
        }
        throw .unavailable(host: url.host, message: lastMessage)
    }
}
