import CSQLite
import Foundation
import JSBridgeBase

/// How durable a commit is (SQLite's `synchronous` setting; the database is always in WAL mode).
public enum StorageDurability: String, Sendable, Hashable, Decodable {
    /// `synchronous=NORMAL`: a commit is written to the WAL file (the OS page cache) but not fsynced.
    /// Survives the process being killed at any moment (kill -9, a crash); an OS crash or power loss may
    /// lose the last commits, never corrupt the database. The default.
    case normal
    /// `synchronous=FULL`: every commit is fsynced; also survives power loss, at the cost of a disk flush
    /// per write.
    case full
}

/// A ``KeyValueStore`` in one SQLite database file (WAL mode), shared safely by threads and processes.
///
/// Opening creates the directory and the database under an exclusive `flock` on a sibling `.lock` file, so
/// concurrent first opens by several processes never race on the schema or the WAL switch. Writers in other
/// processes wait up to `busyTimeout` for the write lock. A file that is not a database (or is damaged) is
/// moved aside and reported as ``StorageError/corrupt(path:movedTo:detail:)`` — never wiped.
public final class SQLiteKeyValueStore: KeyValueStore, @unchecked Sendable {
    /// The database file.
    public let path: String
    public let quotaBytes: Int?
    public let durability: StorageDurability

    // Invariant: `db` and the statements are only used with `lock` held.
    private let lock = NSLock()
    private var db: OpaquePointer?
    private var statements = [OpaquePointer?](repeating: nil, count: Query.allCases.count)
    /// The group each statement's `?1` holds (SQLite keeps a binding across resets): bound again only when it
    /// changes, as localStorage's calls all use one group.
    private var boundGroups = [String?](repeating: nil, count: Query.allCases.count)
    private var closed = false
    /// The bytes stored, as of `data_version` `version`: valid while no other connection has committed, so
    /// writes check the quota without a usage row to update (a second page per commit) or a scan.
    private var usedCache: (bytes: Int, version: Int64)?
    private let observers = ObserverList()

    /// The SQL the store runs, each prepared once and cached (in `statements`, at the case's raw value).
    private enum Query: Int, CaseIterable {
        case begin, commit, rollback, get, size, upsert, delete, groupSize, clear, used, keys, entries, count, keyAt,
            groups, dataVersion

        var sql: String {
            switch self {
            case .begin: "BEGIN IMMEDIATE"
            case .commit: "COMMIT"
            case .rollback: "ROLLBACK"
            case .get: "SELECT value FROM items WHERE grp = ?1 AND key = ?2"
            case .size:
                "SELECT length(CAST(key AS BLOB)) + length(CAST(value AS BLOB)) FROM items WHERE grp = ?1 AND key = ?2"
            case .upsert:
                "INSERT INTO items(grp, key, value) VALUES (?1, ?2, ?3) ON CONFLICT(grp, key) DO UPDATE SET value = excluded.value"
            case .delete: "DELETE FROM items WHERE grp = ?1 AND key = ?2"
            case .groupSize:
                "SELECT total(length(CAST(key AS BLOB)) + length(CAST(value AS BLOB))) FROM items WHERE grp = ?1"
            case .clear: "DELETE FROM items WHERE grp = ?1"
            case .used: "SELECT total(length(CAST(key AS BLOB)) + length(CAST(value AS BLOB))) FROM items"
            case .keys: "SELECT key FROM items WHERE grp = ?1 ORDER BY key"
            case .entries: "SELECT key, value FROM items WHERE grp = ?1 ORDER BY key"
            case .count: "SELECT count(*) FROM items WHERE grp = ?1"
            case .keyAt: "SELECT key FROM items WHERE grp = ?1 ORDER BY key LIMIT 1 OFFSET ?2"
            case .groups: "SELECT DISTINCT grp FROM items ORDER BY grp"
            case .dataVersion: "PRAGMA data_version"
            }
        }
    }

    /// The database file of `appID` under `directory`: `<directory>/<safe app id>.sqlite`.
    public static func databasePath(directory: String, appID: String) -> String {
        (directory.hasSuffix("/") ? directory : directory + "/") + safeFileName(appID) + ".sqlite"
    }

    /// `appID` as a file name (``StorageLocation/fileSystemName(of:)``).
    static func safeFileName(_ appID: String) -> String {
        StorageLocation.fileSystemName(of: appID)
    }

    /// Opens (creating when needed) the store of `appID` under `directory`.
    public convenience init(
        directory: String, appID: String, quotaBytes: Int? = 10 << 20, durability: StorageDurability = .normal,
        busyTimeout: Duration = .seconds(10)
    ) throws(StorageError) {
        try self.init(
            path: Self.databasePath(directory: directory, appID: appID), quotaBytes: quotaBytes,
            durability: durability, busyTimeout: busyTimeout)
    }

    /// Opens (creating when needed) the store in the database file at `path`.
    public init(
        path: String, quotaBytes: Int? = 10 << 20, durability: StorageDurability = .normal,
        busyTimeout: Duration = .seconds(10)
    ) throws(StorageError) {
        self.path = path
        self.quotaBytes = quotaBytes
        self.durability = durability
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: directory.isEmpty ? "." : directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw .failure(
                path: path, message: "cannot create the directory '\(directory)': \(error.localizedDescription)")
        }
        // The database's own files are never links (one planted by a script granted --allow-write over the
        // storage directory would make the store write elsewhere).
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            throw .failure(
                path: path, message: "the database '\(path)' is a symbolic link; remove it or choose --storage-dir")
        }
        let lockFD = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lockFD >= 0 else {
            throw .failure(
                path: path, message: "cannot open the lock file '\(path).lock': \(String(cString: strerror(errno)))")
        }
        defer { Glibc.close(lockFD) }  // also releases the lock
        while flock(lockFD, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw .failure(path: path, message: "cannot lock '\(path).lock': \(String(cString: strerror(errno)))")
            }
        }
        let milliseconds = Int32(
            clamping: busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        )
        do throws(SQLiteFailure) {
            try openDatabase(busyTimeoutMs: milliseconds)
        } catch {
            closeDatabase()
            if error.isCorruption {
                let movedTo = Self.moveAside(path)
                throw .corrupt(path: path, movedTo: movedTo, detail: error.message)
            }
            throw .failure(path: path, message: error.message)
        }
    }

    deinit { closeDatabase() }

    /// Closes the database; later calls fail.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        closeDatabase()
        closed = true
    }

    private func openDatabase(busyTimeoutMs: Int32) throws(SQLiteFailure) {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK else { throw failure(rc) }
        sqlite3_busy_timeout(db, busyTimeoutMs)
        sqlite3_extended_result_codes(db, 1)
        // Reads the header: a file that is not a database fails here with SQLITE_NOTADB.
        try exec("PRAGMA journal_mode = WAL")
        try exec("PRAGMA synchronous = \(durability == .full ? "FULL" : "NORMAL")")
        try exec(
            """
            CREATE TABLE IF NOT EXISTS items (
                grp TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (grp, key)
            ) WITHOUT ROWID;
            """)
        // A damaged page anywhere in the tables shows here rather than in the middle of a write.
        var check: String?
        try query("PRAGMA quick_check(1)") { statement in check = Self.text(statement, 0) }
        if let check, check != "ok" {
            throw SQLiteFailure(code: SQLITE_CORRUPT, message: check)
        }
    }

    private func closeDatabase() {
        for case let statement? in statements { sqlite3_finalize(statement) }
        statements = [OpaquePointer?](repeating: nil, count: Query.allCases.count)
        boundGroups = [String?](repeating: nil, count: Query.allCases.count)
        if let db { sqlite3_close_v2(db) }
        db = nil
    }

    /// Moves the damaged database (and its WAL and shared-memory files) aside; returns the new path.
    private static func moveAside(_ path: String) -> String? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let target = "\(path).corrupt-\(formatter.string(from: Date()))-\(getpid())"
        guard rename(path, target) == 0 else { return nil }
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            _ = rename(path + suffix, target + suffix)
        }
        return target
    }

    // MARK: - KeyValueStore

    public func get(_ key: String, in group: String) throws(StorageError) -> String? {
        try locked { () throws(SQLiteFailure) -> String? in
            let statement = try prepared(.get, group: group)
            defer { sqlite3_reset(statement) }
            bind(statement, 2, key)
            return try step(statement) ? Self.text(statement, 0) : nil
        }
    }

    public func keys(in group: String) throws(StorageError) -> [String] {
        try locked { () throws(SQLiteFailure) -> [String] in
            let statement = try prepared(.keys, group: group)
            defer { sqlite3_reset(statement) }
            var keys: [String] = []
            while try step(statement) { keys.append(Self.text(statement, 0)) }
            return keys
        }
    }

    public func entries(in group: String) throws(StorageError) -> [StorageEntry] {
        try locked { () throws(SQLiteFailure) -> [StorageEntry] in
            let statement = try prepared(.entries, group: group)
            defer { sqlite3_reset(statement) }
            var entries: [StorageEntry] = []
            while try step(statement) {
                entries.append(StorageEntry(key: Self.text(statement, 0), value: Self.text(statement, 1)))
            }
            return entries
        }
    }

    public func count(in group: String) throws(StorageError) -> Int {
        try locked { () throws(SQLiteFailure) -> Int in
            let statement = try prepared(.count, group: group)
            defer { sqlite3_reset(statement) }
            return try step(statement) ? Int(sqlite3_column_int64(statement, 0)) : 0
        }
    }

    public func key(at index: Int, in group: String) throws(StorageError) -> String? {
        guard index >= 0 else { return nil }
        return try locked { () throws(SQLiteFailure) -> String? in
            let statement = try prepared(.keyAt, group: group)
            defer { sqlite3_reset(statement) }
            sqlite3_bind_int64(statement, 2, Int64(index))
            return try step(statement) ? Self.text(statement, 0) : nil
        }
    }

    public func groups() throws(StorageError) -> [String] {
        try locked { () throws(SQLiteFailure) -> [String] in
            let statement = try prepared(.groups)
            defer { sqlite3_reset(statement) }
            var groups: [String] = []
            while try step(statement) { groups.append(Self.text(statement, 0)) }
            return groups
        }
    }

    public func usedBytes() throws(StorageError) -> Int {
        try locked { () throws(SQLiteFailure) -> Int in try readUsed(version: try dataVersion(), pendingDelta: 0) }
    }

    public func externalVersion() throws(StorageError) -> Int64 {
        try locked { () throws(SQLiteFailure) -> Int64 in try dataVersion() }
    }

    private func dataVersion() throws(SQLiteFailure) -> Int64 {
        let statement = try prepared(.dataVersion)
        defer { sqlite3_reset(statement) }
        return try step(statement) ? sqlite3_column_int64(statement, 0) : 0
    }

    public func apply(_ operations: [StorageOperation]) throws(StorageError) {
        try apply(operations, with: [])
    }

    public func apply(_ operations: [StorageOperation], with writes: [any StorageTransactionWrite])
        throws(StorageError)
    {
        guard !operations.isEmpty || !writes.isEmpty else { return }
        var sqliteWrites: [any SQLiteTransactionWrite] = []
        for write in writes {
            guard let write = write as? any SQLiteTransactionWrite else {
                throw .failure(path: path, message: "a write of another plugin cannot run on an SQLite store")
            }
            sqliteWrites.append(write)
        }
        let notify = !observers.isEmpty
        var refusal: StorageError?
        let changes = try locked { () throws(SQLiteFailure) -> [StorageChange] in
            try run(.begin)
            do throws(SQLiteFailure) {
                // Under the write lock: no other connection commits until ours does.
                let version = try dataVersion()
                var delta = 0
                var changes: [StorageChange] = []
                for operation in operations {
                    switch operation {
                    case .set(let group, let key, let value):
                        delta -= try size(group, key) ?? 0
                        delta += storedSize(key, value)
                        let statement = try prepared(.upsert, group: group)
                        defer { sqlite3_reset(statement) }
                        bind(statement, 2, key)
                        bind(statement, 3, value)
                        _ = try step(statement)
                        if notify { changes.append(StorageChange(group: group, key: key, value: value)) }
                    case .remove(let group, let key):
                        guard let old = try size(group, key) else { continue }
                        delta -= old
                        let statement = try prepared(.delete, group: group)
                        defer { sqlite3_reset(statement) }
                        bind(statement, 2, key)
                        _ = try step(statement)
                        if notify { changes.append(StorageChange(group: group, key: key, value: nil)) }
                    case .clear(let group):
                        let sizeStatement = try prepared(.groupSize, group: group)
                        let groupSize = try step(sizeStatement) ? Int(sqlite3_column_double(sizeStatement, 0)) : 0
                        sqlite3_reset(sizeStatement)
                        let statement = try prepared(.clear, group: group)
                        defer { sqlite3_reset(statement) }
                        _ = try step(statement)
                        if sqlite3_changes(db) > 0 {
                            delta -= groupSize
                            if notify { changes.append(StorageChange(group: group, key: nil, value: nil)) }
                        }
                    }
                }
                if delta > 0, let quotaBytes {
                    // `used` reads this transaction's view: subtract our own uncommitted delta.
                    let used = try readUsed(version: version, pendingDelta: delta)
                    if used + delta > quotaBytes {
                        refusal = .quotaExceeded(quotaBytes: quotaBytes, usedBytes: used, requiredBytes: delta)
                        try? run(.rollback)
                        return []
                    }
                }
                // Other plugins' writes, on this connection and in this transaction (a job enqueued with
                // the writes that caused it): they commit with the operations or not at all.
                for write in sqliteWrites {
                    do throws(StorageError) {
                        try write.write(sqlite: db!, path: path)
                    } catch {
                        refusal = error
                        try? run(.rollback)
                        return []
                    }
                }
                try run(.commit)
                if let cached = usedCache, cached.version == version {
                    usedCache = (cached.bytes + delta, version)
                } else {
                    usedCache = nil
                }
                return changes
            } catch {
                if sqlite3_get_autocommit(db) == 0 { try? run(.rollback) }
                throw error
            }
        }
        // The quota's error, or a write's: nothing was committed.
        if let refusal { throw refusal }
        if notify { observers.notify(changes) }
    }

    public func observe(_ observer: @escaping @Sendable ([StorageChange]) -> Void) -> StorageObservation {
        observers.add(observer)
    }

    // MARK: - SQLite helpers

    private func locked<R>(_ body: () throws(SQLiteFailure) -> R) throws(StorageError) -> R {
        lock.lock()
        defer { lock.unlock() }
        guard !closed, db != nil else { throw .failure(path: path, message: "the store is closed") }
        do {
            return try body()
        } catch {
            if error.isCorruption { throw .corrupt(path: path, movedTo: nil, detail: error.message) }
            throw .failure(path: path, message: error.message)
        }
    }

    private func size(_ group: String, _ key: String) throws(SQLiteFailure) -> Int? {
        let statement = try prepared(.size, group: group)
        defer { sqlite3_reset(statement) }
        bind(statement, 2, key)
        return try step(statement) ? Int(sqlite3_column_int64(statement, 0)) : nil
    }

    /// The bytes stored before the current transaction's own `pendingDelta`: from the cache while no other
    /// connection has committed since it was taken, else by summing the table once.
    private func readUsed(version: Int64, pendingDelta: Int) throws(SQLiteFailure) -> Int {
        if let cached = usedCache, cached.version == version { return cached.bytes }
        let statement = try prepared(.used)
        defer { sqlite3_reset(statement) }
        let total = try step(statement) ? Int(sqlite3_column_double(statement, 0)) : 0
        let before = total - pendingDelta
        usedCache = (before, version)
        return before
    }

    private func prepared(_ query: Query) throws(SQLiteFailure) -> OpaquePointer {
        if let statement = statements[query.rawValue] { return statement }
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(db, query.sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw failure(rc) }
        statements[query.rawValue] = statement
        return statement
    }

    /// `query`'s statement with `group` bound to `?1`.
    private func prepared(_ query: Query, group: String) throws(SQLiteFailure) -> OpaquePointer {
        let statement = try prepared(query)
        if boundGroups[query.rawValue] != group {
            bind(statement, 1, group)
            boundGroups[query.rawValue] = group
        }
        return statement
    }

    private func run(_ query: Query) throws(SQLiteFailure) {
        let statement = try prepared(query)
        defer { sqlite3_reset(statement) }
        _ = try step(statement)
    }

    /// Steps `statement`: true for a row, false when done.
    private func step(_ statement: OpaquePointer) throws(SQLiteFailure) -> Bool {
        let rc = sqlite3_step(statement)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw failure(rc)
    }

    private func exec(_ sql: String) throws(SQLiteFailure) {
        let rc = sqlite3_exec(db, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw failure(rc) }
    }

    private func query(_ sql: String, row: (OpaquePointer) -> Void) throws(SQLiteFailure) {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw failure(rc) }
        defer { sqlite3_finalize(statement) }
        while try step(statement) { row(statement) }
    }

    /// Binds the WTF-8 form of `text` (``StorageText``) as TEXT: for well-formed text the very UTF-8 bytes
    /// rows written before lone surrogates were kept hold, so old keys still match.
    private func bind(_ statement: OpaquePointer, _ index: Int32, _ text: String) {
        StorageText.withBytes(text) { buffer in
            let pointer = buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            _ = jsb_sqlite3_bind_text(statement, index, pointer, Int32(buffer.count))
        }
    }

    private static func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return StorageText.string(UnsafeBufferPointer(start: bytes, count: count))
    }

    private func failure(_ rc: Int32) -> SQLiteFailure {
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
        return SQLiteFailure(code: rc, message: message)
    }
}

/// An SQLite result code with its message.
struct SQLiteFailure: Error {
    var code: Int32
    var message: String

    var isCorruption: Bool {
        let primary = code & 0xff
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB
    }
}
