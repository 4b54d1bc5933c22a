import Foundation
import JSBridgeBase

/// Tracks watched keys and groups of a store and reports their changes: local ones as the store announces
/// them, external ones (other processes on the same database) by ``poll()``, which compares the watched
/// values with a snapshot whenever the store's ``KeyValueStore/externalVersion()`` moved.
///
/// Only what is watched is read again, so a store nobody watches pays nothing for this.
public final class ChangeWatcher: @unchecked Sendable {
    private struct Target: Hashable {
        var group: String
        var key: String?
    }

    private let store: any KeyValueStore
    private let lock = NSLock()
    private var targets: [Int: Target] = [:]
    private var nextID = 0
    private var groupSnapshots: [String: [String: String]] = [:]
    private var keySnapshots: [Target: String] = [:]
    private var version: Int64?
    private var observation: StorageObservation?

    public init(store: any KeyValueStore) {
        self.store = store
    }

    deinit { observation?.cancel() }

    /// Whether anything is watched.
    public var isEmpty: Bool {
        lock.lock()
        defer { lock.unlock() }
        return targets.isEmpty
    }

    /// Watches `key` of `group`, or the whole group when `key` is nil; returns the watch's id.
    /// `onLocal` receives the matching local changes (registered once, on the first watch).
    public func watch(group: String, key: String?, onLocal: @escaping @Sendable ([StorageChange]) -> Void)
        throws(StorageError) -> Int
    {
        let version = try store.externalVersion()
        let target = Target(group: group, key: key)
        var snapshot: [String: String]?
        var value: String?
        if key == nil {
            snapshot = Dictionary(try store.entries(in: group).map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        } else if let key {
            value = try store.get(key, in: group)
        }
        lock.lock()
        defer { lock.unlock() }
        nextID += 1
        targets[nextID] = target
        if let snapshot, groupSnapshots[group] == nil { groupSnapshots[group] = snapshot }
        if key != nil, keySnapshots[target] == nil, let value { keySnapshots[target] = value }
        if self.version == nil { self.version = version }
        if observation == nil {
            observation = store.observe { [weak self] changes in
                guard let self else { return }
                let matching = self.recordLocal(changes)
                if !matching.isEmpty { onLocal(matching) }
            }
        }
        return nextID
    }

    /// Stops watch `id`; returns whether it existed.
    @discardableResult
    public func unwatch(_ id: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let target = targets.removeValue(forKey: id) else { return false }
        if !targets.values.contains(target) {
            if target.key == nil { groupSnapshots[target.group] = nil } else { keySnapshots[target] = nil }
        }
        if targets.isEmpty {
            observation?.cancel()
            observation = nil
            version = nil
        }
        return true
    }

    /// Stops every watch.
    public func unwatchAll() {
        lock.lock()
        defer { lock.unlock() }
        targets.removeAll()
        groupSnapshots.removeAll()
        keySnapshots.removeAll()
        observation?.cancel()
        observation = nil
        version = nil
    }

    private func matches(_ change: StorageChange) -> Bool {
        targets.values.contains { target in
            target.group == change.group && (target.key == nil || change.key == nil || target.key == change.key)
        }
    }

    /// Updates the snapshots with local changes; returns those that match a watch.
    private func recordLocal(_ changes: [StorageChange]) -> [StorageChange] {
        lock.lock()
        defer { lock.unlock() }
        var matching: [StorageChange] = []
        for change in changes where matches(change) {
            matching.append(change)
            if let key = change.key {
                if groupSnapshots[change.group] != nil { groupSnapshots[change.group]![key] = change.value }
                let target = Target(group: change.group, key: key)
                if targets.values.contains(target) { keySnapshots[target] = change.value }
            } else {
                if groupSnapshots[change.group] != nil { groupSnapshots[change.group] = [:] }
                for target in keySnapshots.keys where target.group == change.group { keySnapshots[target] = nil }
            }
        }
        return matching
    }

    /// Changes made by other processes to what is watched since the last poll (or the watch began).
    public func poll() throws(StorageError) -> [StorageChange] {
        lock.lock()
        let known = version
        let watched = Set(targets.values)
        lock.unlock()
        guard let known, !watched.isEmpty else { return [] }
        let current = try store.externalVersion()
        guard current != known else { return [] }
        // Read the watched values outside the lock, then diff under it.
        var groups: [String: [String: String]] = [:]
        var keys: [Target: String?] = [:]
        for target in watched {
            if let key = target.key {
                keys[target] = .some(try store.get(key, in: target.group))
            } else {
                groups[target.group] = Dictionary(
                    try store.entries(in: target.group).map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
            }
        }
        lock.lock()
        defer { lock.unlock() }
        version = current
        var changes: [StorageChange] = []
        var reported = Set<Target>()
        for (group, now) in groups.sorted(by: { utf8Less($0.key, $1.key) }) {
            let before = groupSnapshots[group] ?? [:]
            for key in Set(before.keys).union(now.keys).sorted(by: utf8Less) where before[key] != now[key] {
                changes.append(StorageChange(group: group, key: key, value: now[key], origin: .external))
                reported.insert(Target(group: group, key: key))
            }
            groupSnapshots[group] = now
        }
        for (target, now) in keys.sorted(by: { ($0.key.group, $0.key.key ?? "") < ($1.key.group, $1.key.key ?? "") }) {
            if keySnapshots[target] != now, !reported.contains(target) {
                changes.append(StorageChange(group: target.group, key: target.key, value: now, origin: .external))
            }
            keySnapshots[target] = now
        }
        return changes
    }
}

/// A ``ChangeWatcher`` that reports local changes as they happen and polls for other processes' changes
/// every `interval` while anything is watched.
public final class PollingChangeWatcher: Sendable {
    private let watcher: ChangeWatcher
    private let clock: any BridgeClock
    private let interval: Duration
    private let report: @Sendable ([StorageChange]) -> Void
    private let poller = Locked<Task<Void, Never>?>(nil)

    public init(
        store: any KeyValueStore, clock: any BridgeClock, interval: Duration,
        report: @escaping @Sendable ([StorageChange]) -> Void
    ) {
        watcher = ChangeWatcher(store: store)
        self.clock = clock
        self.interval = interval
        self.report = report
    }

    /// Watches `key` of `group`, or the whole group when `key` is nil; returns the watch's id.
    public func watch(group: String, key: String?) throws(StorageError) -> Int {
        let id = try watcher.watch(group: group, key: key, onLocal: report)
        poller.withLock { poller in
            guard poller == nil else { return }
            let (watcher, clock, interval, report) = (self.watcher, self.clock, self.interval, self.report)
            poller = Task.detached {
                while !Task.isCancelled {
                    do {
                        try await clock.sleep(for: interval)
                    } catch {
                        return
                    }
                    if let changes = try? watcher.poll(), !changes.isEmpty { report(changes) }
                }
            }
        }
        return id
    }

    /// Stops watch `id`; returns whether it existed. Polling stops with the last watch.
    public func unwatch(_ id: Int) -> Bool {
        let existed = watcher.unwatch(id)
        if watcher.isEmpty { poller.withLock { $0.take() }?.cancel() }
        return existed
    }

    /// Stops every watch and the polling.
    public func stop() {
        poller.withLock { $0.take() }?.cancel()
        watcher.unwatchAll()
    }
}

/// Watches of keys and groups of a store, reporting their changes (``PollingChangeWatcher``,
/// ``FeedChangeWatcher``).
public protocol StorageWatching: Sendable {
    /// Watches `key` of `group`, or the whole group when `key` is nil; returns the watch's id.
    func watch(group: String, key: String?) throws(StorageError) -> Int
    /// Stops watch `id`; returns whether it existed.
    func unwatch(_ id: Int) -> Bool
    /// Stops every watch.
    func stop()
}

extension PollingChangeWatcher: StorageWatching {}

/// A store that delivers other processes' changes itself (a database server with notifications), so
/// nothing needs polling.
public protocol ExternalChangeSource: KeyValueStore {
    /// Calls `observer` with every change other stores commit to the same data from now on, in commit order,
    /// each once (also those committed while the feed was reconnecting), with origin `external`.
    func observeExternal(_ observer: @escaping @Sendable ([StorageChange]) -> Void) throws(StorageError)
        -> StorageObservation
}

/// Reports the changes of watched keys and groups of an ``ExternalChangeSource``: local ones as the store
/// announces them, external ones as its feed delivers them — every change, not a diff of snapshots.
public final class FeedChangeWatcher: StorageWatching, @unchecked Sendable {
    private struct Target: Hashable {
        var group: String
        var key: String?
    }

    private let store: any ExternalChangeSource
    private let report: @Sendable ([StorageChange]) -> Void
    private let lock = NSLock()
    private var targets: [Int: Target] = [:]
    private var nextID = 0
    private var observations: [StorageObservation] = []

    public init(store: any ExternalChangeSource, report: @escaping @Sendable ([StorageChange]) -> Void) {
        self.store = store
        self.report = report
    }

    public func watch(group: String, key: String?) throws(StorageError) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if observations.isEmpty {
            let forward: @Sendable ([StorageChange]) -> Void = { [weak self] changes in
                guard let self else { return }
                let matching = self.matching(changes)
                if !matching.isEmpty { self.report(matching) }
            }
            observations = [store.observe(forward), try store.observeExternal(forward)]
        }
        nextID += 1
        targets[nextID] = Target(group: group, key: key)
        return nextID
    }

    public func unwatch(_ id: Int) -> Bool {
        lock.lock()
        let existed = targets.removeValue(forKey: id) != nil
        let ending = targets.isEmpty ? observations : []
        if targets.isEmpty { observations = [] }
        lock.unlock()
        for observation in ending { observation.cancel() }
        return existed
    }

    public func stop() {
        lock.lock()
        targets.removeAll()
        let ending = observations
        observations = []
        lock.unlock()
        for observation in ending { observation.cancel() }
    }

    private func matching(_ changes: [StorageChange]) -> [StorageChange] {
        lock.lock()
        defer { lock.unlock() }
        let watched = Set(targets.values)
        return changes.filter { change in
            watched.contains {
                $0.group == change.group && ($0.key == nil || change.key == nil || $0.key == change.key)
            }
        }
    }
}
