import Foundation
import JSBridgeCore
@_exported import StorageCore
@_exported import StoragePostgres

/// The `Storage` plugin: `localStorage` (sync actions) and the Promise API of `Storage` (async actions on
/// the plugin's serial queue) over a ``KeyValueStore`` — by default an ``SQLiteKeyValueStore`` per app id
/// under `--storage-dir`, or a ``PostgresKeyValueStore`` when a storage URL is given (`--storage-url`,
/// `{"Storage": {"url": …}}`, `JSBRIDGE_STORAGE_URL`, in that order), opened on first use.
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
    public struct Configuration: PluginConfiguration {
        /// The quota per app id in bytes (keys plus values, UTF-8); default 10 MiB.
        public var quotaBytes: Int?
        /// `"normal"` (default) or `"full"`: see ``StorageDurability``.
        public var durability: StorageDurability?
        /// How often watched keys are checked for changes by other processes (default 200 ms; SQLite only:
        /// PostgreSQL announces changes).
        public var pollIntervalMs: Int?
        /// `postgres://user[:password]@host[:port]/database[?sslmode=…]`: keep the data in PostgreSQL.
        public var url: String?
        /// How long a call waits for an unreachable PostgreSQL server before failing with
        /// `STORAGE_UNAVAILABLE` (default 10000).
        public var unavailableWaitMs: Int?

        public init(
            quotaBytes: Int? = nil, durability: StorageDurability? = nil, pollIntervalMs: Int? = nil,
            url: String? = nil, unavailableWaitMs: Int? = nil
        ) {
            self.quotaBytes = quotaBytes
            self.durability = durability
            self.pollIntervalMs = pollIntervalMs
            self.url = url
            self.unavailableWaitMs = unavailableWaitMs
        }

        public func validate() -> [ArgumentIssue] {
            var issues: [ArgumentIssue] = []
            if let quotaBytes, quotaBytes < 0 {
                issues.append(ArgumentIssue(path: "quotaBytes", message: "must not be negative, got \(quotaBytes)"))
            }
            if let pollIntervalMs, !(10...60_000).contains(pollIntervalMs) {
                issues.append(
                    ArgumentIssue(
                        path: "pollIntervalMs", message: "must be between 10 and 60000, got \(pollIntervalMs)"))
            }
            if let url {
                do {
                    _ = try PostgresURL(url)
                } catch {
                    issues.append(ArgumentIssue(path: "url", message: error.reason))
                }
            }
            if let unavailableWaitMs, !(0...600_000).contains(unavailableWaitMs) {
                issues.append(
                    ArgumentIssue(
                        path: "unavailableWaitMs", message: "must be between 0 and 600000, got \(unavailableWaitMs)"))
            }
            return issues
        }
    }

    /// The environment variable naming a storage URL when neither the flag nor `--config` gives one.
    public static let urlVariable = "JSBRIDGE_STORAGE_URL"

    /// What set-up makes: the store and the watcher of its changes.
    /// A class: every call's context carries the state, and one reference is cheaper to copy than its fields.
    public final class State: Sendable {
        public let store: any KeyValueStore
        let watcher: any StorageWatching
        let path: String
        let quotaBytes: Int

        init(store: any KeyValueStore, watcher: any StorageWatching, path: String, quotaBytes: Int) {
            self.store = store
            self.watcher = watcher
            self.path = path
            self.quotaBytes = quotaBytes
        }
    }

    private let injectedStore: (any KeyValueStore)?
    /// A corrupt database found by a set-up: every later set-up of this plugin fails with it, so the process
    /// never goes on with an empty database in its place (a failed set-up is otherwise tried again).
    private let corruption = Locked<StorageError?>(nil)

    /// A plugin on the SQLite store of the context's app id (opened at set-up).
    public init() { injectedStore = nil }

    /// A plugin on `store` (an ``InMemoryKeyValueStore`` in tests, a shared store in another runtime).
    public init(store: any KeyValueStore) { injectedStore = store }

    public func setUp(_ context: SetUpContext<Self>) async throws -> State {
        let configuration = context.configuration
        let quota = configuration.quotaBytes ?? Self.defaultQuotaBytes
        let store: any KeyValueStore
        let url =
            configuration.url ?? ProcessInfo.processInfo.environment[Self.urlVariable].flatMap { $0.isEmpty ? nil : $0 }
        if let injectedStore {
            store = injectedStore
        } else if let url {
            let parsed: PostgresURL
            do {
                parsed = try PostgresURL(url)
            } catch {
                throw BridgeError.invalidArgument(at: "url", "\(Self.urlVariable): \(error.reason)")
            }
            store = try PostgresKeyValueStore(
                url: parsed, appID: context.storage.appID, quotaBytes: quota,
                unavailableWait: .milliseconds(configuration.unavailableWaitMs ?? 10_000))
        } else {
            if let found = corruption.withLock({ $0 }) { throw found }
            do throws(StorageError) {
                store = try SQLiteKeyValueStore(
                    directory: context.storage.directory, appID: context.storage.appID, quotaBytes: quota,
                    durability: configuration.durability ?? .normal)
            } catch {
                if case .corrupt = error { corruption.withLock { $0 = error } }
                throw error
            }
        }
        let events = context.events
        let report: @Sendable ([StorageChange]) -> Void = { changes in
            for change in changes { try? events.emit("change", Change(change)) }
        }
        let watcher: any StorageWatching =
            if let feedStore = store as? any ExternalChangeSource {
                FeedChangeWatcher(store: feedStore, report: report)
            } else {
                PollingChangeWatcher(
                    store: store, clock: context.clock, interval: .milliseconds(configuration.pollIntervalMs ?? 200),
                    report: report)
            }
        let path = (store as? SQLiteKeyValueStore)?.path ?? (store as? PostgresKeyValueStore)?.url.redacted ?? ""
        return State(store: store, watcher: watcher, path: path, quotaBytes: quota)
    }

    public func shutdown(_ state: State) async {
        state.watcher.stop()
    }

    public static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.script(
            .global(
                "storage.js", source: PackageResources.storage_js,
                defines: ["Storage", "StorageEvent", "localStorage", "sessionStorage"]))
        plugin.event("change", of: Change.self)
        plugin.typeScript(utf8: PackageResources.storage_d_ts)
        plugin.option(
            "storage-url", value: "url", setting: "url",
            help: "Keep Storage in PostgreSQL: postgres://user[:password]@host[:port]/database (else SQLite files).")
        let local = Self.localGroup

        // MARK: localStorage (sync, on the JS thread)
        plugin.sync("getItem", args: KeyArgument.self) { context, args in
            try context.state.store.get(args.key, in: local)
        }
        plugin.sync("setItem", args: KeyValueArguments.self) { context, args -> JSONValue in
            try context.state.store.set(args.key, args.value, in: local)
            return .null
        }
        plugin.sync("removeItem", args: KeyArgument.self) { context, args -> JSONValue in
            try context.state.store.remove(args.key, in: local)
            return .null
        }
        plugin.sync("clearItems") { context -> JSONValue in
            try context.state.store.clear(local)
            return .null
        }
        plugin.sync("key", args: Double.self) { context, n -> String? in
            guard n >= 0, n < 9.0e15 else { return nil }
            return try context.state.store.key(at: Int(n), in: local)
        }
        plugin.sync("length") { context -> Double in Double(try context.state.store.count(in: local)) }
        plugin.sync("itemKeys") { context -> [String] in try context.state.store.keys(in: local) }
        plugin.sync("info") { context in
            Info(quotaBytes: context.state.quotaBytes, appId: context.storage.appID, path: context.state.path)
        }

        // MARK: Promise API (async, in call order on the plugin's serial queue)
        plugin.async("get", args: GroupKeyArguments.self, on: .serial) { context, args -> String? in
            try context.state.store.get(args.key, in: args.group)
        }
        plugin.async("has", args: GroupKeyArguments.self, on: .serial) { context, args -> Bool in
            try context.state.store.get(args.key, in: args.group) != nil
        }
        plugin.async("set", args: SetArguments.self, on: .serial) { context, args -> JSONValue in
            try context.state.store.set(args.key, args.json, in: args.group)
            return .null
        }
        plugin.async("remove", args: GroupKeyArguments.self, on: .serial) { context, args -> Bool in
            let store = context.state.store
            guard try store.get(args.key, in: args.group) != nil else { return false }
            try store.remove(args.key, in: args.group)
            return true
        }
        plugin.async("keys", args: GroupArguments.self, on: .serial) { context, args -> [String] in
            try context.state.store.keys(in: args.group)
        }
        plugin.async("entries", args: GroupArguments.self, on: .serial) { context, args -> [[String]] in
            try context.state.store.entries(in: args.group).map { [$0.key, $0.value] }
        }
        plugin.async("clear", args: GroupArguments.self, on: .serial) { context, args -> JSONValue in
            try context.state.store.clear(args.group)
            return .null
        }
        plugin.async("transaction", args: TransactionArguments.self, on: .serial) { context, args -> JSONValue in
            let now = Int64((context.clock.now().timeIntervalSince1970 * 1000).rounded(.down))
            try context.state.store.apply(args.operations, with: try args.writes(now: now))
            return .null
        }
        plugin.async("groups", on: .serial) { context -> [String] in
            try context.state.store.groups().filter { $0 != local }
        }
        plugin.async("usage", on: .serial) { context in
            let store = context.state.store
            return Usage(usedBytes: try store.usedBytes(), quotaBytes: store.quotaBytes)
        }
        plugin.async("watch", args: WatchArguments.self, on: .serial) { context, args -> Int in
            try context.state.watcher.watch(group: args.group, key: args.key)
        }
        plugin.async("unwatch", args: UnwatchArguments.self, on: .serial) { context, args -> Bool in
            context.state.watcher.unwatch(args.id)
        }
    }

    // MARK: Results and events

    /// The payload of the `change` event: `key` null when a group was cleared, `value` the new JSON text
    /// or null when removed, `origin` `"local"` or `"external"` (another process).
    public struct Change: Codable, Sendable {
        public var group: String
        public var key: String?
        public var value: String?
        public var origin: String

        init(_ change: StorageChange) {
            group = change.group
            key = change.key
            value = change.value
            origin = change.origin.rawValue
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(group, forKey: .group)
            try c.encode(key, forKey: .key)
            try c.encode(value, forKey: .value)
            try c.encode(origin, forKey: .origin)
        }
    }

    /// `info`'s answer.
    public struct Info: Codable, Sendable {
        public var quotaBytes: Int
        public var appId: String
        public var path: String
    }

    /// `usage`'s answer (`quotaBytes` null without a quota).
    public struct Usage: Codable, Sendable {
        public var usedBytes: Int
        public var quotaBytes: Int?

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(usedBytes, forKey: .usedBytes)
            try c.encode(quotaBytes, forKey: .quotaBytes)
        }
    }
}

// MARK: - Arguments

/// A key given alone, as `[key]`, or as `{key}`.
struct KeyArgument: ArgumentsReadable {
    var key: String
    static let typeScript = TypeScriptType.raw("string | [string] | { key: string }")

    init(arguments: JSONValue) throws(BridgeError) {
        switch arguments {
        case .string(let key): self.key = key
        case .array(let items) where !items.isEmpty:
            guard case .string(let key) = items[0] else {
                throw .invalidArgument(at: "[0]", "expected a string, got \(items[0].kindDescription)")
            }
            self.key = key
        case .object(let object):
            guard case .string(let key)? = object["key"] else {
                throw .invalidArgument(at: "key", "expected a string, got \(Args.describe(object["key"]))")
            }
            self.key = key
        default: throw .invalidArgument(at: "", "expected a string, got \(arguments.kindDescription)")
        }
    }
}

/// `[key, value]`, two strings (`localStorage.setItem`).
struct KeyValueArguments: ArgumentsReadable {
    var key: String, value: String
    static let typeScript = TypeScriptType.raw("[key: string, value: string]")

    init(arguments: JSONValue) throws(BridgeError) {
        guard case .array(let pair) = arguments, pair.count == 2, case .string(let key) = pair[0],
            case .string(let value) = pair[1]
        else {
            throw .invalidArgument(
                "setItem takes [key, value], two strings.",
                issues: [ArgumentIssue(path: "", message: "expected [key, value]")])
        }
        self.key = key
        self.value = value
    }
}

/// `{group?}` (the default group when absent; `""`, localStorage's, only where allowed).
struct GroupArguments: ArgumentsReadable {
    var group: String
    static let typeScript = TypeScriptType.raw("{ group?: string } | null")

    init(arguments: JSONValue) throws(BridgeError) { group = try Args.group(arguments) }
}

/// `{group?, key}`.
struct GroupKeyArguments: ArgumentsReadable {
    var group: String, key: String
    static let typeScript = TypeScriptType.raw("{ group?: string; key: string }")

    init(arguments: JSONValue) throws(BridgeError) { (group, key) = try Args.groupKey(arguments) }
}

/// `{group?, key, json}` (JSON text, checked) or `{group?, key, value}` (any JSON value).
struct SetArguments: ArgumentsReadable {
    var group: String, key: String, json: String
    static let typeScript = TypeScriptType.raw(
        "{ group?: string; key: string; json: string } | { group?: string; key: string; value: unknown }")

    init(arguments: JSONValue) throws(BridgeError) {
        (group, key) = try Args.groupKey(arguments)
        json = try Args.json(arguments, path: "json")
    }
}

/// `{ops: [{op: "set"|"remove"|"clear", group?, key?, json?|value?}]}`.
struct TransactionArguments: ArgumentsReadable {
    var operations: [StorageOperation]
    static let typeScript = TypeScriptType.raw(
        "{ ops: Array<{ op: \"set\" | \"remove\" | \"clear\" | \"enqueue\"; group?: string; key?: string; json?: string; value?: unknown; queue?: string; delayMs?: number; attempts?: number; backoff?: unknown }> }"
    )

    /// Ops another plugin provides (`{op: "enqueue", …}`: ``StorageTransactionWrites``), with their paths.
    var foreign: [(path: String, name: String, op: JSONValue)] = []

    init(arguments: JSONValue) throws(BridgeError) { operations = try Args.operations(arguments, foreign: &foreign) }

    /// The other plugins' writes of the ops in ``foreign``, made at `now` (milliseconds since 1970).
    func writes(now: Int64) throws(BridgeError) -> [any StorageTransactionWrite] {
        var writes: [any StorageTransactionWrite] = []
        for (path, name, op) in foreign {
            guard let maker = StorageTransactionWrites.maker(name) else {
                throw Args.invalid("\(path).op", "no registered plugin provides the op \"\(name)\"")
            }
            do throws(BridgeError) {
                writes.append(try maker(op, now))
            } catch {
                // The maker's paths are relative to the op.
                guard error.code == BridgeError.Code.invalidArgument,
                    let inner = error.data?["issues"]?[0]?["path"]?.stringValue
                else { throw error }
                let message = error.data?["issues"]?[0]?["message"]?.stringValue ?? error.message
                throw Args.invalid(inner.isEmpty ? path : "\(path).\(inner)", message)
            }
        }
        return writes
    }
}

/// `{group?, key?}`: a key of a group, or the whole group (localStorage's `""` allowed).
struct WatchArguments: ArgumentsReadable {
    var group: String, key: String?
    static let typeScript = TypeScriptType.raw("{ group?: string; key?: string | null }")

    init(arguments: JSONValue) throws(BridgeError) {
        group = try Args.group(arguments, allowLocal: true)
        key = try Args.optionalString(arguments, "key")
    }
}

/// `{id}`.
struct UnwatchArguments: ArgumentsReadable {
    var id: Int
    static let typeScript = TypeScriptType.raw("{ id: number }")

    init(arguments: JSONValue) throws(BridgeError) {
        guard case .number(let id)? = arguments["id"] else {
            throw .invalidArgument(
                "unwatch takes {id}.", issues: [ArgumentIssue(path: "id", message: "expected a number")])
        }
        self.id = Int(id)
    }
}

/// Argument reading by hand (the hot actions skip the generic decoder), with `INVALID_ARGUMENT` paths.
enum Args {
    static func invalid(_ path: String, _ message: String) -> BridgeError {
        BridgeError.invalidArgument(at: path, message)
    }

    static func describe(_ value: JSONValue?) -> String {
        value.map(\.kindDescription) ?? "nothing"
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

    static func operations(
        _ args: JSONValue, foreign: inout [(path: String, name: String, op: JSONValue)]
    ) throws(BridgeError) -> [StorageOperation] {
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
            if case .string(let name)? = op["op"], !["set", "remove", "clear"].contains(name),
                StorageTransactionWrites.maker(name) != nil
            {
                foreign.append((path, name, op))
                continue
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
        case .unavailable(let host, _):
            BridgeError(code: "STORAGE_UNAVAILABLE", message: description, data: ["host": .string(host)])
        case .rejected(let host, _):
            BridgeError(code: "STORAGE_REJECTED", message: description, data: ["host": .string(host)])
        }
    }
}
