import JSBridgeCore

/// A diagnostic plugin with one action of each kind; it serves the examples, tests and benchmarks.
///
/// | action | kind | arguments | result |
/// |---|---|---|---|
/// | `ping` | sync | a number `n` | `n + 1` |
/// | `echo` | async | any JSON value | the same value |
/// | `ticks` | stream | `{count, intervalMs}` | `0, 1, …, count - 1`, `intervalMs` apart |
/// | `fail` | async | `{code?, message?}` | throws an error with that code (default `ECHO_FAILURE`) |
/// | `context` | sync | none | what the host gave the plugin: `{permissions, appId, storageDir, configuration}` |
public struct EchoPlugin: BridgePlugin {
    public static let name = "Echo"
    /// Echo's section of `--config`, returned as is by `context`.
    public typealias Configuration = JSONValue

    public init() {}

    public static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.sync("ping", args: Double.self) { _, n in n + 1 }
        plugin.async("echo", args: JSONValue.self) { _, value in value }
        plugin.stream("ticks", args: TickArguments.self, of: Int.self) { context, args, out in
            for tick in 0..<args.count {
                if tick > 0, args.intervalMs > 0 { try await context.clock.sleep(for: .milliseconds(args.intervalMs)) }
                try await out.yield(tick)
            }
        }
        plugin.async("fail", args: FailArguments.self) { _, args -> JSONValue in
            throw EchoFailure(code: args.code ?? "ECHO_FAILURE", message: args.message ?? "Echo.fail was called.")
        }
        plugin.sync("context") { context in
            // Every capability the host's plugins declare, and any other the host granted.
            var permissions = JSONObject()
            for capability in context.environment.capabilities {
                permissions[capability.name] = Self.describe(context.permissions.grant(of: capability), capability)
            }
            for (name, grant) in context.permissions.grants where permissions[name] == nil {
                permissions[name] = Self.describe(grant, Capability(name, guards: name))
            }
            return JSONValue.object([
                "permissions": .object(permissions),
                "appId": .string(context.storage.appID),
                "storageDir": .string(context.storage.directory),
                "configuration": context.configuration,
            ])
        }
    }

    /// A grant as `context` reports it: scoped capabilities as "denied", "all" or the scopes; others as a boolean.
    private static func describe(_ grant: Permissions.Grant?, _ capability: Capability) -> JSONValue {
        guard capability.scope != nil else { return .bool(grant != nil) }
        switch grant {
        case nil: return "denied"
        case .all?: return "all"
        case .scopes(let scopes)?: return .string(scopes.joined(separator: ","))
        }
    }

    /// Arguments of `ticks`.
    public struct TickArguments: Decodable, Sendable {
        /// How many values to produce (0…1,000,000).
        public var count: Int
        /// Milliseconds between values (default 0).
        public var intervalMs: Int

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            count = try c.decode(Int.self, forKey: .count)
            intervalMs = try c.decodeIfPresent(Int.self, forKey: .intervalMs) ?? 0
            guard (0...1_000_000).contains(count) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .count, in: c, debugDescription: "must be between 0 and 1000000")
            }
            guard intervalMs >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .intervalMs, in: c, debugDescription: "must not be negative")
            }
        }

        private enum CodingKeys: String, CodingKey { case count, intervalMs }
    }

    /// Arguments of `fail`.
    public struct FailArguments: Decodable, Sendable {
        public var code: String?
        public var message: String?
    }
}

/// The error `Echo.fail` throws: a Swift error with a code of its own.
public struct EchoFailure: Error, BridgeErrorConvertible {
    public var code: String
    public var message: String

    public var bridgeError: BridgeError { BridgeError(code: code, message: message) }
}
