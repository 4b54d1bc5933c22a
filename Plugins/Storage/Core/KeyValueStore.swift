import Foundation

// The domain core of the Storage plugin: a key-value store of text values, per group, with atomic batches
// and change notifications. No bridge types here — other Swift plugins (an HTTP cache, say) and tests use
// it directly.

/// One write of a batch applied by ``KeyValueStore/apply(_:)``.
public enum StorageOperation: Sendable, Hashable {
    /// Stores `value` under `key` in `group` (replacing any previous value).
    case set(group: String, key: String, value: String)
    /// Removes `key` from `group` (nothing happens when it is absent).
    case remove(group: String, key: String)
    /// Removes every key of `group`.
    case clear(group: String)
}

/// A change made to a store, by this process (`local`) or by another one on the same database (`external`).
public struct StorageChange: Sendable, Hashable {
    public enum Origin: String, Sendable, Hashable {
        case local, external
    }

    /// The group that changed.
    public var group: String
    /// The key that changed; nil when the whole group was cleared.
    public var key: String?
    /// The new value; nil when the key was removed (or the group cleared).
    public var value: String?
    public var origin: Origin

    public init(group: String, key: String?, value: String?, origin: Origin = .local) {
        self.group = group
        self.key = key
        self.value = value
        self.origin = origin
    }
}

/// A stored key and its value.
public struct StorageEntry: Sendable, Hashable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// Why a store operation failed.
public enum StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The write would take the store above its quota; nothing was written.
    case quotaExceeded(quotaBytes: Int, usedBytes: Int, requiredBytes: Int)
    /// The database file is damaged or not a database. `movedTo` is where the damaged file was kept.
    case corrupt(path: String, movedTo: String?, detail: String)
    /// Any other failure of the storage layer (I/O, permissions, a full disk, a lock held too long).
    case failure(path: String, message: String)
    /// A database server could not be reached within the configured wait. `host` is `host:port` (never
    /// credentials).
    case unavailable(host: String, message: String)
    /// A database server refused the configuration (a wrong password, an unknown database or user); retrying
    /// does not help.
    case rejected(host: String, message: String)

    public var description: String {
        switch self {
        case .quotaExceeded(let quota, let used, let required):
            "The storage quota of \(quota) bytes would be exceeded: \(used) bytes are used and the write needs \(required) more."
        case .corrupt(let path, let movedTo, let detail):
            if let movedTo {
                "The storage database '\(path)' is corrupt (\(detail)); the damaged file was moved to '\(movedTo)' and a new database will be created on the next run."
            } else {
                "The storage database '\(path)' is corrupt (\(detail))."
            }
        case .failure(let path, let message):
            "Storage failed on '\(path)': \(message)"
        case .unavailable(let host, let message):
            "The storage server \(host) is unavailable: \(message)"
        case .rejected(let host, let message):
            "The storage server \(host) refused the connection: \(message)"
        }
    }
}

/// A token that keeps an observer registered until ``cancel()`` is called.
public final class StorageObservation: Sendable {
    private let onCancel: @Sendable () -> Void

    package init(_ onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }

    /// Stops the notifications.
    public func cancel() { onCancel() }
}

/// Text values by group and key, with atomic batches and change notifications.
///
/// Keys, values and groups are JavaScript strings in ``StorageText``'s escaped form (so lone surrogates
/// survive), stored as WTF-8 — exactly UTF-8 for well-formed text. Keys are listed in a stable order: by those
/// bytes (SQLite's `BINARY` collation). The size of a store is the byte count of every key plus its value; a store with a quota refuses writes that would
/// take it above the quota, leaving nothing half-written.
public protocol KeyValueStore: AnyObject, Sendable {
    /// The value of `key` in `group`, or nil.
    func get(_ key: String, in group: String) throws(StorageError) -> String?
    /// The keys of `group`, in UTF-8 byte order.
    func keys(in group: String) throws(StorageError) -> [String]
    /// The entries of `group`, in key order.
    func entries(in group: String) throws(StorageError) -> [StorageEntry]
    /// How many keys `group` has.
    func count(in group: String) throws(StorageError) -> Int
    /// The `index`-th key of `group` in key order, or nil.
    func key(at index: Int, in group: String) throws(StorageError) -> String?
    /// The names of the groups holding at least one key, sorted.
    func groups() throws(StorageError) -> [String]
    /// Applies `operations` atomically: all of them or (on any error) none.
    func apply(_ operations: [StorageOperation]) throws(StorageError)
    /// Applies `operations` and then runs `writes` (other plugins' writes: ``StorageTransactionWrite``) in
    /// the same database transaction: all commit, or (on any error) none. Stores that cannot (the default)
    /// refuse a batch with writes.
    func apply(_ operations: [StorageOperation], with writes: [any StorageTransactionWrite]) throws(StorageError)
    /// Bytes used (keys plus values, UTF-8) across all groups.
    func usedBytes() throws(StorageError) -> Int
    /// The quota in bytes, or nil when unlimited.
    var quotaBytes: Int? { get }
    /// A number that changes when another process commits to the same store (0 for stores of one process).
    func externalVersion() throws(StorageError) -> Int64
    /// Calls `observer` with the changes of every successful local `apply`, after it committed.
    func observe(_ observer: @escaping @Sendable ([StorageChange]) -> Void) -> StorageObservation
}

extension KeyValueStore {
    public func apply(_ operations: [StorageOperation], with writes: [any StorageTransactionWrite])
        throws(StorageError)
    {
        guard writes.isEmpty else {
            throw .failure(path: "", message: "this store cannot commit other plugins' writes with its own")
        }
        try apply(operations)
    }

    /// Stores `value` under `key` in `group`.
    public func set(_ key: String, _ value: String, in group: String) throws(StorageError) {
        try apply([.set(group: group, key: key, value: value)])
    }

    /// Removes `key` from `group`.
    public func remove(_ key: String, in group: String) throws(StorageError) {
        try apply([.remove(group: group, key: key)])
    }

    /// Removes every key of `group`.
    public func clear(_ group: String) throws(StorageError) {
        try apply([.clear(group: group)])
    }
}

/// The size a key and value take against the quota (their stored WTF-8 bytes, see ``StorageText``).
@inline(__always)
package func storedSize(_ key: String, _ value: String) -> Int {
    StorageText.byteCount(key) + StorageText.byteCount(value)
}

/// Byte order of the stored form (SQLite's BINARY collation, PostgreSQL's bytea order), used by every store
/// for key order.
@inline(__always)
package func utf8Less(_ a: String, _ b: String) -> Bool { StorageText.less(a, b) }

/// The registered observers of a store.
package final class ObserverList: @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [UInt64: @Sendable ([StorageChange]) -> Void] = [:]
    private var nextID: UInt64 = 0
    private var count = 0

    package init() {}

    package var isEmpty: Bool {
        lock.lock()
        defer { lock.unlock() }
        return count == 0
    }

    package func add(_ observer: @escaping @Sendable ([StorageChange]) -> Void) -> StorageObservation {
        lock.lock()
        nextID += 1
        let id = nextID
        observers[id] = observer
        count = observers.count
        lock.unlock()
        return StorageObservation { [weak self] in
            guard let self else { return }
            self.lock.lock()
            self.observers[id] = nil
            self.count = self.observers.count
            self.lock.unlock()
        }
    }

    package func notify(_ changes: [StorageChange]) {
        guard !changes.isEmpty else { return }
        lock.lock()
        let list = observers.sorted { $0.key < $1.key }.map(\.value)
        lock.unlock()
        for observer in list { observer(changes) }
    }
}
