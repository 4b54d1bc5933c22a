import JSBridgeCore

/// `Counter`: the example plugin of docs/writing-a-plugin.md — a thin adapter over ``CounterStore``.
///
/// | action | kind | arguments | result |
/// |---|---|---|---|
/// | `value` | sync | `{name}` | the counter's value |
/// | `increment` | async, serial | `{name, by?}` | the new value; emits `changed` `{name, value}`; `COUNTER_LIMIT` above the configured `limit` |
/// | `countdown` | stream | `{from, intervalMs?}` | `from, from - 1, …, 1`, `intervalMs` (default 1000) apart |
/// | `whenReaches` | callback | `{name, value}` | the counter's value, once it is at least `value` |
///
/// Configuration (`--config`): `{"Counter": {"limit": 100}}`.
public struct CounterPlugin: BridgePlugin {
    public static let name = "Counter"

    /// The store the actions use, when given (tests use this to look inside); else set-up makes one.
    private let store: CounterStore?

    /// A plugin with a fresh store.
    public init() { store = nil }

    /// A plugin over an existing store.
    public init(store: CounterStore) { self.store = store }

    /// The state every action receives: the domain core.
    public func setUp(_ context: SetUpContext<Self>) async throws -> CounterStore { store ?? CounterStore() }

    /// Pending `whenReaches` calls end with DROPPED when their replies are released.
    public func shutdown(_ store: CounterStore) async {
        store.removeAllWaiters()
    }

    public static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.event("changed", of: Change.self)

        // sync: runs on the JS thread, so it must be cheap (a dictionary lookup under a lock).
        plugin.sync("value", args: NameArguments.self) { context, args in
            context.state.value(of: args.name)
        }

        // async on the plugin's serial executor: increments run one at a time, in call order, so the
        // `changed` events reach JavaScript in order.
        plugin.async("increment", args: IncrementArguments.self, on: .serial) { context, args in
            let value = try context.state.increment(args.name, by: args.by ?? 1, limit: context.configuration.limit)
            try context.emit("changed", Change(name: args.name, value: value))
            return value
        }

        // stream: yields from…1; sleeping on the injected clock lets tests drive time with ManualClock.
        // When JavaScript cancels, `sleep` and `yield` throw CancellationError and the loop ends.
        plugin.stream("countdown", args: CountdownArguments.self, of: Int.self) { context, args, out in
            for value in stride(from: args.from, through: 1, by: -1) {
                if value != args.from { try await context.clock.sleep(for: .milliseconds(args.intervalMs)) }
                try await out.yield(value)
            }
        }

        // callback (Cordova style): keeps `reply` and answers it later, from the increment that reaches
        // the target. A reply released without an answer ends the call with DROPPED.
        plugin.callback("whenReaches", args: TargetArguments.self, answers: Int.self) { context, args, reply in
            context.state.whenReaches(args.name, args.value) { value in
                reply.resolve(.number(Double(value)))
            }
        }
    }

    // MARK: - Arguments, results, configuration

    /// The plugin's `--config` section, checked once: a bad one fails `bridge.ready` and every call.
    public struct Configuration: PluginConfiguration {
        /// The highest value a counter may reach (no limit when absent).
        public var limit: Int?

        public func validate() -> [ArgumentIssue] {
            guard let limit, limit < 0 else { return [] }
            return [ArgumentIssue(path: "limit", message: "must not be negative, got \(limit)")]
        }
    }

    struct NameArguments: Decodable, Sendable {
        var name: String
    }

    struct IncrementArguments: Decodable, Sendable {
        var name: String
        var by: Int?
    }

    struct TargetArguments: Decodable, Sendable {
        var name: String
        var value: Int
    }

    struct CountdownArguments: Decodable, Sendable {
        var from: Int
        var intervalMs: Int

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            from = try c.decode(Int.self, forKey: .from)
            intervalMs = try c.decodeIfPresent(Int.self, forKey: .intervalMs) ?? 1000
            // Thrown as DecodingErrors, these become INVALID_ARGUMENT with the key's path.
            guard (0...10_000).contains(from) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .from, in: c, debugDescription: "must be between 0 and 10000")
            }
            guard intervalMs >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .intervalMs, in: c, debugDescription: "must not be negative")
            }
        }

        private enum CodingKeys: String, CodingKey { case from, intervalMs }
    }

    /// The payload of the `changed` event.
    struct Change: Encodable, Sendable {
        var name: String
        var value: Int
    }
}

/// The domain error's bridge representation: its own stable codes instead of `PLUGIN_ERROR`.
extension CounterError: BridgeErrorConvertible {
    public var bridgeError: BridgeError {
        switch self {
        case .limitExceeded(let name, let limit, let attempted):
            BridgeError(
                code: "COUNTER_LIMIT",
                message: "Counter '\(name)' would reach \(attempted), above its limit of \(limit).",
                data: ["name": .string(name), "limit": .number(Double(limit)), "attempted": .number(Double(attempted))])
        case .overflow(let name):
            BridgeError(code: "COUNTER_OVERFLOW", message: "Counter '\(name)' would overflow.")
        }
    }
}
