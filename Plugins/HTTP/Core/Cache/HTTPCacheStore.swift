import Foundation
import JSBridgeBase

/// Where ``HTTPCache`` keeps its entries: one entry per key.
///
/// Reading never fails: an entry that cannot be read (damaged, expired) is a miss. Implementations are safe
/// to call from many tasks at once.
public protocol HTTPCacheStore: Sendable {
    /// The entry stored under `key`, or nil; a hit counts as a use (for LRU eviction).
    func entry(forKey key: String) async -> HTTPCacheEntry?
    /// Stores `entry` under `entry.key`, replacing what was there.
    func store(_ entry: HTTPCacheEntry) async throws
    /// Removes the entry stored under `key`, if any.
    func removeEntry(forKey key: String) async
    /// Removes every entry whose ``HTTPCacheEntry/url`` is `url` (what an unsafe request invalidates).
    func removeEntries(forURL url: String) async
    /// Removes every entry.
    func removeAll() async
    /// Claims the fetch of the entry under `key` for `owner` until `lease` has passed: true when no one else
    /// holds a live claim (the caller fetches, then ``endFill(key:owner:)``), false when another fetch of it
    /// is under way (on a shared store: in another process or on another host).
    func beginFill(key: String, owner: String, lease: Duration) async -> Bool
    /// Ends `owner`'s claim on `key` (its entry was stored, or there is nothing to store).
    func endFill(key: String, owner: String) async
    /// Whether a live claim on `key` exists (someone is fetching it).
    func fillInProgress(key: String) async -> Bool
}

extension HTTPCacheStore {
    /// A store of one process's own claims everybody: no fetch waits for another.
    public func beginFill(key: String, owner: String, lease: Duration) async -> Bool { true }
    public func endFill(key: String, owner: String) async {}
    public func fillInProgress(key: String) async -> Bool { false }
}

/// An ``HTTPCacheStore`` in memory (for tests, or a cache that lives as long as the process).
public final class InMemoryHTTPCacheStore: HTTPCacheStore {
    private let state = Locked<[String: HTTPCacheEntry]>([:])

    /// An empty store.
    public init() {}

    /// Every stored entry, by key.
    public var entries: [String: HTTPCacheEntry] { state.withLock { $0 } }

    public func entry(forKey key: String) async -> HTTPCacheEntry? {
        state.withLock { $0[key] }
    }

    public func store(_ entry: HTTPCacheEntry) async throws {
        state.withLock { $0[entry.key] = entry }
    }

    public func removeEntry(forKey key: String) async {
        _ = state.withLock { $0.removeValue(forKey: key) }
    }

    public func removeEntries(forURL url: String) async {
        state.withLock { entries in entries = entries.filter { $0.value.url != url } }
    }

    public func removeAll() async {
        state.withLock { $0.removeAll() }
    }
}
