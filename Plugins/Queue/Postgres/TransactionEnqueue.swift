import Foundation
import JSBridgeBase
import QueueCore
import StorageCore
import StoragePostgres

/// A job enqueued by a Storage transaction (`{op: "enqueue", …}`, `tx.enqueue(…)`): written on the Storage
/// store's own connection inside its transaction, so it commits or rolls back with the storage writes.
///
/// On SQLite the queue's tables live in Storage's file (``SQLiteJobStore/databasePath(directory:appID:)``),
/// on PostgreSQL in Storage's database: the same rows ``SQLiteJobStore`` and ``PostgresJobStore`` read.
public struct TransactionEnqueue: SQLiteTransactionWrite, PostgresTransactionWrite {
    public var queue: String
    /// The payload's JSON text.
    public var payload: String
    public var options: EnqueueOptions
    /// Milliseconds since 1970 (due times count from it).
    public var now: Int64

    /// A job for `queue`; throws ``QueueError/invalid(path:message:)`` for a bad name or options.
    public init(queue: String, payload: String, options: EnqueueOptions, now: Int64) throws(QueueError) {
        try validateQueueName(queue)
        try options.validate()
        self.queue = queue
        self.payload = payload
        self.options = options
        self.now = now
    }

    public func write(sqlite db: OpaquePointer, path: String) throws(StorageError) {
        do {
            _ = try SQLiteJobStore.enqueue(on: db, path: path, queue, payload: payload, options: options, now: now)
        } catch {
            throw .failure(path: path, message: error.description)
        }
    }

    /// The databases whose queue schema this process brought up to date (by URL): a transaction's
    /// enqueue checks it once per process, not once per transaction.
    private static let migrated = Locked<Set<String>>([])

    package func prepare(postgres connection: PGConnection, url: PostgresURL) throws(PGFailure) {
        guard !Self.migrated.withLock({ $0.contains(url.url) }) else { return }
        try PostgresJobStore.migrate(connection)
        Self.migrated.withLock { _ = $0.insert(url.url) }
    }

    package func write(postgres connection: PGConnection, appID: String) throws(PGFailure) {
        try connection.query(
            PostgresJobStore.insertJob, name: "q_enqueue_in_storage",
            PostgresJobStore.insertParameters(appID, queue, payload, options, now))
    }
}
