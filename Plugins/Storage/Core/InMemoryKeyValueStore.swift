import Foundation

/// A store in memory, for tests and for plugins that need no persistence. Same semantics as the SQLite
/// store (key order, quota, atomic batches, notifications).
public final class InMemoryKeyValueStore: KeyValueStore, @unchecked Sendable {
    private let lock = NSLock()
    private var data: [String: [String: String]] = [:]
    private var used = 0
    private let observers = ObserverList()
    public let quotaBytes: Int?

    public init(quotaBytes: Int? = nil) {
        self.quotaBytes = quotaBytes
    }

    private func locked<R>(_ body: () throws(StorageError) -> R) throws(StorageError) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    public func get(_ key: String, in group: String) throws(StorageError) -> String? {
        try locked { data[group]?[key] }
    }

    public func keys(in group: String) throws(StorageError) -> [String] {
        try locked { (data[group] ?? [:]).keys.sorted(by: utf8Less) }
    }

    public func entries(in group: String) throws(StorageError) -> [StorageEntry] {
        try locked {
            (data[group] ?? [:]).sorted { utf8Less($0.key, $1.key) }.map { StorageEntry(key: $0.key, value: $0.value) }
        }
    }

    public func count(in group: String) throws(StorageError) -> Int {
        try locked { data[group]?.count ?? 0 }
    }

    public func key(at index: Int, in group: String) throws(StorageError) -> String? {
        let keys = try keys(in: group)
        return index >= 0 && index < keys.count ? keys[index] : nil
    }

    public func groups() throws(StorageError) -> [String] {
        try locked { data.filter { !$0.value.isEmpty }.keys.sorted(by: utf8Less) }
    }

    public func usedBytes() throws(StorageError) -> Int { try locked { used } }

    public func externalVersion() throws(StorageError) -> Int64 { 0 }

    public func apply(_ operations: [StorageOperation]) throws(StorageError) {
        let changes: [StorageChange] = try locked { () throws(StorageError) -> [StorageChange] in
            var copy = data
            var newUsed = used
            var changes: [StorageChange] = []
            for operation in operations {
                switch operation {
                case .set(let group, let key, let value):
                    if let old = copy[group]?[key] { newUsed -= storedSize(key, old) }
                    newUsed += storedSize(key, value)
                    copy[group, default: [:]][key] = value
                    changes.append(StorageChange(group: group, key: key, value: value))
                case .remove(let group, let key):
                    if let old = copy[group]?.removeValue(forKey: key) {
                        newUsed -= storedSize(key, old)
                        changes.append(StorageChange(group: group, key: key, value: nil))
                    }
                case .clear(let group):
                    if let old = copy.removeValue(forKey: group), !old.isEmpty {
                        for (key, value) in old { newUsed -= storedSize(key, value) }
                        changes.append(StorageChange(group: group, key: nil, value: nil))
                    }
                }
            }
            if let quotaBytes, newUsed > quotaBytes, newUsed > used {
                throw .quotaExceeded(quotaBytes: quotaBytes, usedBytes: used, requiredBytes: newUsed - used)
            }
            data = copy
            used = newUsed
            return changes
        }
        observers.notify(changes)
    }

    public func observe(_ observer: @escaping @Sendable ([StorageChange]) -> Void) -> StorageObservation {
        observers.add(observer)
    }
}
