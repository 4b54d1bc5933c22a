import Foundation
import JSBridgeCore

/// The `Storage` plugin: `localStorage` (sync actions) and the Promise API of `Storage` (async actions on
/// the plugin's serial queue) over a ``KeyValueStore`` — by default an ``SQLiteKeyValueStore`` per app id
/// under `--storage-dir`, opened on first use.
///
/// | action | kind | arguments | result |
/// |---|---|---|---|
/// | `getItem` / `setItem` / `removeItem` | sync | `key` / `[key, value]` / `key` | string or null / null / null |
/// | `key` / `length` / `itemKeys` / `clearItems` | sync | index / – / – / – | localStorage's `key(n)`, `length`, key list, `clear()` |
/// | `info` | sync | – | `{quotaBytes, appId, path}` |
/// | `get` / `has` | async | `{group?, key}` | the stored JSON text or null / a boolean |
/// | `set` | async | `{group?, key, json}` (JSON text) or `{group?, key, value}` (any JSON value) | null |
/// | `remove` | async | `{group?, key}` | whether the key existed |
/// | `keys` / `entries` / `clear` | async | `{group?}` | keys / `[[key, json], …]` / null |
/// | `transaction` | async | `{ops: [{op: "set"\|"remove"\|"clear", group?, key?, json?\|value?}]}` | null |
/// | `groups` / `usage` | async | – | group names / `{usedBytes, quotaBytes}` |
/// | `watch` / `unwatch` | async | `{group?, key?}` / `{id}` | a watch id / whether it existed |
///
/// Events: `change` with `{group, key, value, origin}` (`key` null when a group was cleared, `value` the
/// new text or null when removed, `origin` `"local"` or `"external"`), only for watched keys and groups.
/// localStorage is the group `""`; the Promise API's default group is `"default"`.
public struct StoragePlugin: BridgePlugin {
    public static let name = "Storage"
    /// The group holding localStorage.
    public static let localGroup = ""
    /// The group of `Storage.get/set/…` without a group.
    public static let defaultGroup = "default"
    /// The quota when the configuration gives none: 10 MiB per app id.
    public static let defaultQuotaBytes = 10 << 20

    /// `{"Storage": {…}}` in `--config`.
    public struct Configuration: Decodable, Sendable {
        /// The quota per app id in bytes (keys plus values, UTF-8); default 10 MiB.
        public var quotaBytes: Int?
        /// `"normal"` (default) or `"full"`: see ``StorageDurability``.
        public var durability: StorageDurability?
        /// How often watched keys are checked for changes by other processes (default 200 ms).
        public var pollIntervalMs: Int?

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            quotaBytes = try c.decodeIfPresent(Int.self, forKey: .quotaBytes)
            durability = try c.decodeIfPresent(StorageDurability.self, forKey: .durability)
            pollIntervalMs = try c.decodeIfPresent(Int.self, forKey: .pollIntervalMs)
            if let quotaBytes, quotaBytes < 0 {
                throw DecodingError.dataCorruptedError(
                    forKey: .quotaBytes, in: c, debugDescription: "must not be negative, got \(quotaBytes)")
            }
            if let pollIntervalMs, !(10...60_000).contains(pollIntervalMs) {
                throw DecodingError.dataCorruptedError(
                    forKey: .pollIntervalMs, in: c,
                    debugDescription: "must be between 10 and 60000, got \(pollIntervalMs)")
            }
        }

        private enum CodingKeys: String, CodingKey { case quotaBytes, durability, pollIntervalMs }
    }

    let state: State

    /// A plugin on the SQLite store of the context's app id (opened on first use).
    public init() { state = State(store: nil) }

    /// A plugin on `store` (an ``InMemoryKeyValueStore`` in tests, a shared store in another runtime).
    public init(store: any KeyValueStore) { state = State(store: store) }

    public func setUp(_ context: PluginContext) async throws {
        _ = try context.configuration(as: Configuration.self)
    }

    public func shutdown() async {
        state.shutdown()
    }

    public func actions(_ a: inout ActionTable) {
        let state = self.state
        let local = Self.localGroup

        // MARK: localStorage (sync, on the JS thread)
        a.sync("getItem", args: JSONValue.self) { context, args -> JSONValue in
            let key = try Args.string(args, "key", at: 0)
            return try state.store(context).get(key, in: local).map(JSONValue.string) ?? .null
        }
        a.sync("setItem", args: JSONValue.self) { context, args -> JSONValue in
            guard case .array(let pair) = args, pair.count == 2, case .string(let key) = pair[0],
                case .string(let value) = pair[1]
            else {
                throw BridgeError.invalidArgument(
                    "setItem takes [key, value], two strings.",
                    issues: [ArgumentIssue(path: "", message: "expected [key, value]")])
            }
            try state.store(context).set(key, value, in: local)
            return .null
        }
        a.sync("removeItem", args: JSONValue.self) { context, args -> JSONValue in
            try state.store(context).remove(try Args.string(args, "key", at: 0), in: local)
            return .null
        }
        a.sync("clearItems") { context -> JSONValue in
            try state.store(context).clear(local)
            return .null
        }
        a.sync("key", args: JSONValue.self) { context, args -> JSONValue in
            guard case .number(let n) = args else {
                throw BridgeError.invalidArgument(
                    "key takes an index.", issues: [ArgumentIssue(path: "", message: "expected a number")])
            }
            guard n >= 0, n < 9.0e15 else { return .null }
            return try state.store(context).key(at: Int(n), in: local).map(JSONValue.string) ?? .null
        }
        a.sync("length") { context -> Double in Double(try state.store(context).count(in: local)) }
        a.sync("itemKeys") { context -> [String] in try state.store(context).keys(in: local) }
        a.sync("info") { context -> JSONValue in
            let configuration = try state.configuration(context)
            let quota = configuration.quotaBytes ?? Self.defaultQuotaBytes
            return [
                "quotaBytes": .number(Double(quota)), "appId": .string(context.storage.appID),
                "path": .string(state.path(context)),
            ]
        }

        // MARK: Promise API (async, in call order on the plugin's serial queue)
        a.async("get", args: JSONValue.self, on: .serial) { context, args -> JSONValue in
            let (group, key) = try Args.groupKey(args)
            return try state.store(context).get(key, in: group).map(JSONValue.string) ?? .null
        }
        a.async("has", args: JSONValue.self, on: .serial) { context, args -> Bool in
            let (group, key) = try Args.groupKey(args)
            return try state.store(context).get(key, in: group) != nil
        }
        a.async("set", args: JSONValue.self, on: .serial) { context, args -> JSONValue in
            let (group, key) = try Args.groupKey(args)
            try state.store(context).set(key, try Args.json(args, path: "json"), in: group)
            return .null
        }
        a.async("remove", args: JSONValue.self, on: .serial) { context, args -> Bool in
            let (group, key) = try Args.groupKey(args)
            let store = try state.store(context)
            guard try store.get(key, in: group) != nil else { return false }
            try store.remove(key, in: group)
            return true
        }
        a.async("keys", args: JSONValue.self, on: .serial) { context, args -> [String] in
            try state.store(context).keys(in: try Args.group(args))
        }
        a.async("entries", args: JSONValue.self, on: .serial) { context, args -> JSONValue in
            let entries = try state.store(context).entries(in: try Args.group(args))
            return .array(entries.map { .array([.string($0.key), .string($0.value)]) })
        }
        a.async("clear", args: JSONValue.self, on: .serial) { context, args -> JSONValue in
            try state.store(context).clear(try Args.group(args))
            return .null
        }
        a.async("transaction", args: JSONValue.self, on: .serial) { context, args -> JSONValue in
            try state.store(context).apply(try Args.operations(args))
            return .null
        }
        a.async("groups", on: .serial) { context -> [String] in
            try state.store(context).groups().filter { $0 != local }
        }
        a.async("usage", on: .serial) { context -> JSONValue in
            let store = try state.store(context)
            return [
                "usedBytes": .number(Double(try store.usedBytes())),
                "quotaBytes": store.quotaBytes.map { .number(Double($0)) } ?? .null,
            ]
        }
        a.async("watch", args: JSONValue.self, on: .serial) { context, args -> Int in
            let group = try Args.group(args, allowLocal: true)
            let key = try Args.optionalString(args, "key")
            return try state.watch(context, group: group, key: key)
        }
        a.async("unwatch", args: JSONValue.self, on: .serial) { context, args -> Bool in
            guard case .number(let id)? = args["id"] else {
                throw BridgeError.invalidArgument(
                    "unwatch takes {id}.", issues: [ArgumentIssue(path: "id", message: "expected a number")])
            }
            return state.unwatch(Int(id))
        }
    }
}

// MARK: - State

extension StoragePlugin {
    /// The plugin's store (opened lazily), watcher and polling task.
    final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var store: (any KeyValueStore)?
        private var failure: StorageError?
        private var watcher: ChangeWatcher?
        private var poller: Task<Void, Never>?

        init(store: (any KeyValueStore)?) { self.store = store }

        func configuration(_ context: PluginContext) throws(BridgeError) -> Configuration {
            try context.configuration(as: Configuration.self)
        }

        func path(_ context: PluginContext) -> String {
            lock.lock()
            defer { lock.unlock() }
            if let store = store as? SQLiteKeyValueStore { return store.path }
            if store != nil { return "" }
            return SQLiteKeyValueStore.databasePath(directory: context.storage.directory, appID: context.storage.appID)
        }

        /// The store, opened on first use. A corrupt database fails every later call of this process too
        /// (the damaged file was moved aside; the next run starts a new one).
        func store(_ context: PluginContext) throws -> any KeyValueStore {
            lock.lock()
            defer { lock.unlock() }
            if let store { return store }
            if let failure { throw failure }
            let configuration = try configuration(context)
            do {
                let opened = try SQLiteKeyValueStore(
                    directory: context.storage.directory, appID: context.storage.appID,
                    quotaBytes: configuration.quotaBytes ?? StoragePlugin.defaultQuotaBytes,
                    durability: configuration.durability ?? .normal)
                store = opened
                return opened
            } catch {
                if case .corrupt = error { failure = error }
                throw error
            }
        }

        func watch(_ context: PluginContext, group: String, key: String?) throws -> Int {
            let store = try store(context)
            let interval = try configuration(context).pollIntervalMs ?? 200
            lock.lock()
            let watcher = self.watcher ?? ChangeWatcher(store: store)
            self.watcher = watcher
            if poller == nil {
                poller = Task.detached {
                    while !Task.isCancelled {
                        do {
                            try await context.clock.sleep(for: .milliseconds(interval))
                        } catch {
                            return
                        }
                        if let changes = try? watcher.poll() { emit(changes, context) }
                    }
                }
            }
            lock.unlock()
            return try watcher.watch(group: group, key: key) { changes in emit(changes, context) }
        }

        func unwatch(_ id: Int) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            guard let watcher else { return false }
            let existed = watcher.unwatch(id)
            if watcher.isEmpty {
                poller?.cancel()
                poller = nil
            }
            return existed
        }

        func shutdown() {
            lock.lock()
            let (watcher, poller) = (self.watcher, self.poller)
            self.poller = nil
            lock.unlock()
            poller?.cancel()
            watcher?.unwatchAll()
        }
    }
}

private func emit(_ changes: [StorageChange], _ context: PluginContext) {
    for change in changes {
        let payload: JSONValue = [
            "group": .string(change.group),
            "key": change.key.map(JSONValue.string) ?? .null,
            "value": change.value.map(JSONValue.string) ?? .null,
            "origin": .string(change.origin.rawValue),
        ]
        try? context.emit("change", payload)
    }
}

// MARK: - Arguments

/// Argument reading by hand (the hot actions skip the generic decoder), with `INVALID_ARGUMENT` paths.
enum Args {
    static func invalid(_ path: String, _ message: String) -> BridgeError {
        BridgeError.invalidArgument(at: path, message)
    }

    static func describe(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: "nothing"
        case .bool?: "a boolean"
        case .number?: "a number"
        case .string?: "a string"
        case .array?: "an array"
        case .object?: "an object"
        }
    }

    /// A string given alone, as `[string]`, or as `{name: string}`.
    static func string(_ args: JSONValue, _ name: String, at index: Int) throws(BridgeError) -> String {
        switch args {
        case .string(let string): return string
        case .array(let items) where items.count > index:
            if case .string(let string) = items[index] { return string }
            throw invalid("[\(index)]", "expected a string, got \(describe(items[index]))")
        case .object(let object):
            if case .string(let string)? = object[name] { return string }
            throw invalid(name, "expected a string, got \(describe(object[name]))")
        default: throw invalid("", "expected a string, got \(describe(args))")
        }
    }

    static func optionalString(_ args: JSONValue, _ name: String) throws(BridgeError) -> String? {
        switch args[name] {
        case nil, .null?: return nil
        case .string(let string)?: return string
        case let other: throw invalid(name, "expected a string, got \(describe(other))")
        }
    }

    static func group(_ args: JSONValue, allowLocal: Bool = false) throws(BridgeError) -> String {
        switch args {
        case .null: return StoragePlugin.defaultGroup
        case .object: break
        default: throw invalid("", "expected an object, got \(describe(args))")
        }
        guard let group = try optionalString(args, "group") else { return StoragePlugin.defaultGroup }
        if group.isEmpty, !allowLocal { throw invalid("group", "must not be empty") }
        return group
    }

    static func groupKey(_ args: JSONValue) throws(BridgeError) -> (String, String) {
        let group = try group(args)
        guard case .string(let key)? = args["key"] else {
            throw invalid("key", "expected a string, got \(describe(args["key"]))")
        }
        return (group, key)
    }

    /// The JSON text to store: `json` (text, checked) or `value` (any JSON value, serialized).
    static func json(_ args: JSONValue, path: String, prefix: String = "") throws(BridgeError) -> String {
        if case .string(let text)? = args["json"] {
            do {
                _ = try JSONValue(parsing: text)
            } catch {
                throw invalid(prefix + "json", "is not JSON text: \(error)")
            }
            return text
        }
        if let json = args["json"], json != .null {
            throw invalid(prefix + "json", "expected JSON text (a string), got \(describe(json))")
        }
        guard case .object(let object) = args, let value = object["value"] else {
            throw invalid(prefix + "value", "a value is required (undefined cannot be stored)")
        }
        return value.serialized()
    }

    static func operations(_ args: JSONValue) throws(BridgeError) -> [StorageOperation] {
        guard case .array(let ops)? = args["ops"] else {
            throw invalid("ops", "expected an array of operations, got \(describe(args["ops"]))")
        }
        var operations: [StorageOperation] = []
        operations.reserveCapacity(ops.count)
        for (index, op) in ops.enumerated() {
            let path = "ops[\(index)]"
            guard case .object = op else { throw invalid(path, "expected an object, got \(describe(op))") }
            let group: String
            do {
                group = try Self.group(op)
            } catch {
                throw invalid("\(path).group", error.data?["issues"]?[0]?["message"]?.stringValue ?? error.message)
            }
            func key() throws(BridgeError) -> String {
                guard case .string(let key)? = op["key"] else {
                    throw invalid("\(path).key", "expected a string, got \(describe(op["key"]))")
                }
                return key
            }
            switch op["op"] {
            case .string("set")?:
                operations.append(.set(group: group, key: try key(), value: try json(op, path: "", prefix: path + ".")))
            case .string("remove")?:
                operations.append(.remove(group: group, key: try key()))
            case .string("clear")?:
                operations.append(.clear(group: group))
            default:
                throw invalid("\(path).op", "expected \"set\", \"remove\" or \"clear\", got \(describe(op["op"]))")
            }
        }
        return operations
    }
}

// MARK: - Errors

extension StorageError: BridgeErrorConvertible {
    public var bridgeError: BridgeError {
        switch self {
        case .quotaExceeded(let quota, let used, let required):
            BridgeError(
                code: "QUOTA_EXCEEDED", message: description,
                data: [
                    "quotaBytes": .number(Double(quota)), "usedBytes": .number(Double(used)),
                    "requiredBytes": .number(Double(required)),
                ])
        case .corrupt(let path, let movedTo, _):
            BridgeError(
                code: "STORAGE_CORRUPT", message: description,
                data: ["path": .string(path), "movedTo": movedTo.map(JSONValue.string) ?? .null])
        case .failure(let path, _):
            BridgeError(code: "STORAGE_ERROR", message: description, data: ["path": .string(path)])
        }
    }
}
