import JSBridgeBase

// The seam through which another plugin's writes commit in the same database transaction as a batch of
// storage operations (docs/queues.md, "Enqueuing with storage writes"): the Queue plugin's jobs enqueued by
// `Storage.transaction`. Storage knows nothing of jobs; it runs each write on its own connection, inside its
// own transaction, after the batch's operations and before COMMIT. A write that throws rolls everything back.

/// A write of another plugin that ``KeyValueStore/apply(_:with:)`` commits together with the operations.
///
/// A store runs the refinement for its backend: ``SQLiteTransactionWrite`` on SQLite, and
/// `PostgresTransactionWrite` (StoragePostgres) on PostgreSQL; a write of neither kind fails the batch.
public protocol StorageTransactionWrite: Sendable {}

/// A ``StorageTransactionWrite`` an SQLite store can run.
public protocol SQLiteTransactionWrite: StorageTransactionWrite {
    /// Writes on `db` — the store's connection, inside its `BEGIN IMMEDIATE` transaction on the file at
    /// `path`, after the batch's operations. It must not begin, commit or roll back.
    func write(sqlite db: OpaquePointer, path: String) throws(StorageError)
}

/// Makers of ``StorageTransactionWrite``s by the name of their op in `Storage.transaction`
/// (`{op: "enqueue", …}`, registered by the Queue plugin when it is declared), so the Storage plugin can
/// accept ops it does not know without depending on the plugin that knows them.
public enum StorageTransactionWrites {
    /// Makes the write of one op: `op` is the op's object as the script gave it (JSON), `now` milliseconds
    /// since 1970. Throws ``BridgeError`` `INVALID_ARGUMENT` with paths relative to the op.
    public typealias Maker =
        @Sendable (_ op: JSONValue, _ now: Int64) throws(BridgeError) -> any StorageTransactionWrite

    private static let makers = Locked<[String: Maker]>([:])

    /// Registers (or replaces) the maker of op `name`.
    public static func register(_ name: String, _ maker: @escaping Maker) {
        makers.withLock { $0[name] = maker }
    }

    /// The maker of op `name`, or nil when no registered plugin provides it.
    public static func maker(_ name: String) -> Maker? {
        makers.withLock { $0[name] }
    }
}
