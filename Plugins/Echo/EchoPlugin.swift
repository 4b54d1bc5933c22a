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

    public init() {}

    public func actions(_ a: inout ActionTable) {
        a.sync("ping", args: Double.self) { _, n in n + 1 }
        a.async("echo", args: JSONValue.self) { _, value in value }
        a.stream("ticks", args: TickArguments.self, of: Int.self) { context, args, out in
            for tick in 0..<args.count {
                if tick > 0, args.intervalMs > 0 { try await context.clock.sleep(for: .milliseconds(args.intervalMs)) }
                try await out.yield(tick)
            }
        }
        a.async("fail", args: FailArguments.self) { _, args -> JSONValue in
            throw EchoFailure(code: args.code ?? "ECHO_FAILURE", message: args.message ?? "Echo.fail was called.")
        }
        a.sync("context") { context in
            JSONValue.object([
                "permissions": .object([
                    "net": .string(Self.describe(context.permissions.net)),
                    "location": .bool(context.permissions.location),
                ]),
                "appId": .string(context.storage.appID),
                "storageDir": .string(context.storage.directory),
                "configuration": context.configuration,
            ])
        }
    }

    private static func describe(_ net: Permissions.Net) -> String {
        switch net {
        case .denied: "denied"
        case .all: "all"
        case .hosts(let hosts): hosts.map(\.description).joined(separator: ",")
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
