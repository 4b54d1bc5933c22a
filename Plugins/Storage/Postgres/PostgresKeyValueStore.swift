import CLibPQ
import Foundation
import JSBridgeBase
import StorageCore

/// A ``KeyValueStore`` on a PostgreSQL database, shared by every process of every host that uses the same
/// database and app id.
///
/// Calls are synchronous (libpq, one connection, a lock): they block the calling thread for one round trip
/// and never need an event loop, so `localStorage` can call them from the JS thread. Every write is one call
/// of the `jsbridge_storage_apply` function: one statement, one transaction, which locks the app's row in
/// `jsbridge_storage_apps` first — so the writers of one app id are serialised across hosts, the quota check
/// sees every committed byte, and change numbers are handed out in commit order.
///
/// When the server goes away, a call reconnects and retries for up to `unavailableWait`, then fails with
/// ``StorageError/unavailable(host:message:)``; a write retried after a lost connection is applied once
/// (its request number is checked against the change log).
public final class PostgresKeyValueStore: KeyValueStore, @unchecked Sendable {
    public let url: PostgresURL
    public let appID: String
    public let quotaBytes: Int?
    /// How long a call waits for an unreachable server before failing.
    public let unavailableWait: Duration
    /// Identifies this store's writes in the change log (so its own changes are not reported as external).
    let writer: String

    // Invariant: `connection`, `request` and `closed` are only used with `lock` held.
    private let lock = NSLock()
    private var connection: PGConnection?
    private var request: Int64 = 0
    private var closed = false
    private let observers = ObserverList()

    /// Connects, creates or migrates the schema, and registers `appID`. A server that cannot be reached
    /// within `unavailableWait` fails with ``StorageError/unavailable(host:message:)``; a refused login or an
    /// unknown database with ``StorageError/rejected(host:message:)``.
    public init(
        url: PostgresURL, appID: String, quotaBytes: Int? = 10 << 20, unavailableWait: Duration = .seconds(10)
    ) throws(StorageError) {
        self.url = url
        self.appID = appID
        self.quotaBytes = quotaBytes
        self.unavailableWait = unavailableWait
        writer = UUID().uuidString
        lock.lock()
        defer { lock.unlock() }
        let deadline = ContinuousClock.now + unavailableWait
        try connect(until: deadline)
        do throws(PGFailure) {
            try PostgresSchema.migrate(connection!)
            try connection!.query(
                "INSERT INTO jsbridge_storage_apps(app) VALUES ($1) ON CONFLICT DO NOTHING", [.text(appID)])
        } catch {
            throw mapped(error)
        }
    }

    /// Closes the connection; later calls fail.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        connection = nil
        closed = true
    }

    /// libpq's connection parameters: the URL, then settings it may not override.
    package static func parameters(_ url: PostgresURL, connectTimeout: Int) -> [(String, String)] {
        [
            ("dbname", url.url), ("connect_timeout", String(max(2, connectTimeout))),
            ("application_name", "jsbridge"), ("client_encoding", "UTF8"),
            // Every commit waits for the WAL flush: an acknowledged write survives a server crash.
            ("options", "-c synchronous_commit=on -c client_min_messages=warning"),
            ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"),
        ]
    }

    /// Opens a connection, retrying transient failures until `deadline`.
    private func connect(until deadline: ContinuousClock.Instant) throws(StorageError) {
        connection = nil
        var lastMessage = "no attempt was made"
        while true {
            let remaining = deadline - ContinuousClock.now
            let seconds = Int(remaining.components.seconds) + 1
            do throws(PGFailure) {
                connection = try PGConnection(
                    parameters: Self.parameters(url, connectTimeout: seconds))
                return
            } catch {
                lastMessage = url.scrub(error.message)
                if Self.isRefusal(error.message) { throw .rejected(host: url.host, message: lastMessage) }
            }
            if ContinuousClock.now >= deadline { break }
            Thread.sleep(forTimeInterval: 0.1)
            if ContinuousClock.now >= deadline { break }
        }
        throw .unavailable(host: url.host, message: lastMessage)
    }

    /// Whether a connection failure is the server saying no (credentials, database, role) rather than it
    /// being away or restarting.
    package static func isRefusal(_ message: String) -> Bool {
        guard message.contains("FATAL") else { return false }
        let transient = ["starting up", "shutting down", "in recovery", "too many clients", "not yet accepting"]
        return !transient.contains { message.contains($0) }
    }

    private func mapped(_ failure: PGFailure) -> StorageError {
        let message = url.scrub(failure.message)
        if failure.sqlState == "JB001", let quotaBytes {
            // jsbridge_storage_apply's quota error: DETAIL is "<used bytes> <bytes the write adds>".
            let numbers = (failure.detail ?? "").split(separator: " ").compactMap { Int($0) }
            if numbers.count == 2 {
                return .quotaExceeded(quotaBytes: quotaBytes, usedBytes: numbers[0], requiredBytes: numbers[1])
            }
        }
        if failure.connectionLost { return .unavailable(host: url.host, message: message) }
        return .failure(path: url.redacted, message: message)
    }

    /// Runs `body` on a live connection; after a lost connection, reconnects and runs it again until
    /// `unavailableWait` has passed since the call began.
    private func withConnection<R>(_ body: (PGConnection, _ retry: Bool) throws(PGFailure) -> R) throws(StorageError)
        -> R
    {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw .failure(path: url.redacted, message: "the store is closed") }
        let deadline = ContinuousClock.now + unavailableWait
        var retry = false
        while true {
            if connection == nil || connection!.isBroken { try connect(until: deadline) }
            do throws(PGFailure) {
                return try body(connection!, retry)
            } catch {
                guard error.connectionLost else { throw mapped(error) }
                connection = nil
                retry = true
                if ContinuousClock.now >= deadline { throw mapped(error) }
            }
        }
    }

    private func rows(_ name: String, _ sql: String, _ parameters: [PGParameter]) throws(StorageError) -> PGRows {
        try withConnection { (connection, _) throws(PGFailure) in try connection.query(sql, name: name, parameters) }
    }

    private static func text(_ bytes: [UInt8]?) -> String { StorageText.string(bytes ?? []) }

    // MARK: - KeyValueStore

    public func get(_ key: String, in group: String) throws(StorageError) -> String? {
        let result = try rows(
            "get", "SELECT value FROM jsbridge_storage_items WHERE app = $1 AND grp = $2 AND key = $3",
            [.text(appID), .bytes(StorageText.bytes(group)), .bytes(StorageText.bytes(key))])
        return result.count > 0 ? Self.text(result.bytes(0, 0)) : nil
    }

    public func keys(in group: String) throws(StorageError) -> [String] {
        let result = try rows(
            "keys", "SELECT key FROM jsbridge_storage_items WHERE app = $1 AND grp = $2 ORDER BY key",
            [.text(appID), .bytes(StorageText.bytes(group))])
        return (0..<result.count).map { Self.text(result.bytes($0, 0)) }
    }

    public func entries(in group: String) throws(StorageError) -> [StorageEntry] {
        let result = try rows(
            "entries", "SELECT key, value FROM jsbridge_storage_items WHERE app = $1 AND grp = $2 ORDER BY key",
            [.text(appID), .bytes(StorageText.bytes(group))])
        return (0..<result.count).map {
            StorageEntry(key: Self.text(result.bytes($0, 0)), value: Self.text(result.bytes($0, 1)))
        }
    }

    public func count(in group: String) throws(StorageError) -> Int {
        let result = try rows(
            "count", "SELECT count(*) FROM jsbridge_storage_items WHERE app = $1 AND grp = $2",
            [.text(appID), .bytes(StorageText.bytes(group))])
        return Int(result.int64(0, 0) ?? 0)
    }

    public func key(at index: Int, in group: String) throws(StorageError) -> String? {
        guard index >= 0 else { return nil }
        let result = try rows(
            "keyAt",
            "SELECT key FROM jsbridge_storage_items WHERE app = $1 AND grp = $2 ORDER BY key LIMIT 1 OFFSET $3",
            [.text(appID), .bytes(StorageText.bytes(group)), .int8(Int64(index))])
        return result.count > 0 ? Self.text(result.bytes(0, 0)) : nil
    }

    public func groups() throws(StorageError) -> [String] {
        let result = try rows(
            "groups", "SELECT DISTINCT grp FROM jsbridge_storage_items WHERE app = $1 ORDER BY grp", [.text(appID)])
        return (0..<result.count).map { Self.text(result.bytes($0, 0)) }
    }

    public func usedBytes() throws(StorageError) -> Int {
        let result = try rows(
            "used", "SELECT used_bytes FROM jsbridge_storage_apps WHERE app = $1", [.text(appID)])
        return result.count > 0 ? Int(result.int64(0, 0) ?? 0) : 0
    }

    public func externalVersion() throws(StorageError) -> Int64 {
        let result = try rows("seq", "SELECT seq FROM jsbridge_storage_apps WHERE app = $1", [.text(appID)])
        return result.count > 0 ? result.int64(0, 0) ?? 0 : 0
    }

    public func apply(_ operations: [StorageOperation]) throws(StorageError) {
        try apply(operations, with: [])
    }

    public func apply(_ operations: [StorageOperation], with writes: [any StorageTransactionWrite])
        throws(StorageError)
    {
        guard !operations.isEmpty || !writes.isEmpty else { return }
        var postgresWrites: [any PostgresTransactionWrite] = []
        for write in writes {
            guard let write = write as? any PostgresTransactionWrite else {
                throw .failure(
                    path: url.redacted, message: "a write of another plugin cannot run on a PostgreSQL store")
            }
            postgresWrites.append(write)
        }
        var kinds = ""
        var groups: [[UInt8]] = []
        var keys: [[UInt8]] = []
        var values: [[UInt8]] = []
        for operation in operations {
            switch operation {
            case .set(let group, let key, let value):
                kinds += "s"
                groups.append(StorageText.bytes(group))
                keys.append(StorageText.bytes(key))
                values.append(StorageText.bytes(value))
            case .remove(let group, let key):
                kinds += "r"
                groups.append(StorageText.bytes(group))
                keys.append(StorageText.bytes(key))
                values.append([])
            case .clear(let group):
                kinds += "c"
                groups.append(StorageText.bytes(group))
                keys.append([])
                values.append([])
            }
        }
        let quota: PGParameter = quotaBytes.map { .int8(Int64($0)) } ?? .null(20)
        let sql = "SELECT jsbridge_storage_apply($1, $2, $3, $4, $5, $6, $7, $8, $9)"
        let url = self.url
        let appID = self.appID
        let answer = try withConnection { (connection, retry) throws(PGFailure) -> String in
            if !retry { request += 1 }
            func applied() throws(PGFailure) -> String {
                let result = try connection.query(
                    sql, name: "apply",
                    [
                        .text(appID), quota, .text(writer), .int8(request), .bool(retry), .text(kinds),
                        .byteaArray(groups), .byteaArray(keys), .byteaArray(values),
                    ])
                return result.string(0, 0) ?? ""
            }
            guard !postgresWrites.isEmpty else { return try applied() }
            // Other plugins' writes commit with the operations: one explicit transaction on this connection.
            for write in postgresWrites { try write.prepare(postgres: connection, url: url) }
            try connection.execute("BEGIN")
            do throws(PGFailure) {
                let answer = try applied()
                // A retry whose first try committed (the answer was lost): its writes committed with it.
                if answer.hasSuffix(":applied") {
                    try connection.execute("ROLLBACK")
                    return answer
                }
                for write in postgresWrites { try write.write(postgres: connection, appID: appID) }
                try connection.execute("COMMIT")
                return answer
            } catch {
                if !connection.isBroken { try? connection.execute("ROLLBACK") }
                throw error
            }
        }
        guard !observers.isEmpty else { return }
        let flags = Array(answer.split(separator: ":", maxSplits: 1).last ?? "")
        let alreadyApplied = answer.hasSuffix(":applied")
        var changes: [StorageChange] = []
        for (index, operation) in operations.enumerated() {
            let effective = alreadyApplied || (index < flags.count && flags[index] == "1")
            guard effective else { continue }
            switch operation {
            case .set(let group, let key, let value):
                changes.append(StorageChange(group: group, key: key, value: value))
            case .remove(let group, let key): changes.append(StorageChange(group: group, key: key, value: nil))
            case .clear(let group): changes.append(StorageChange(group: group, key: nil, value: nil))
            }
        }
        observers.notify(changes)
    }

    public func observe(_ observer: @escaping @Sendable ([StorageChange]) -> Void) -> StorageObservation {
        observers.add(observer)
    }
}

/// A ``StorageTransactionWrite`` a PostgreSQL store can run (the Queue plugin's transactional enqueue).
package protocol PostgresTransactionWrite: StorageTransactionWrite {
    /// Runs before the transaction begins, on the same connection (creating the writer's tables, say):
    /// it may run transactions of its own.
    func prepare(postgres connection: PGConnection, url: PostgresURL) throws(PGFailure)
    /// Writes on `connection` inside the store's transaction, after the batch's operations, for `appID`.
    /// It must not begin, commit or roll back.
    func write(postgres connection: PGConnection, appID: String) throws(PGFailure)
}
