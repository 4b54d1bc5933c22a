import JSBridgeCore
@_exported import NetworkStatusCore

/// `NetworkStatus`: the exec service of cordova-plugin-network-information, answered from the machine's network
/// interfaces; a thin adapter over ``ConnectionWatch`` (docs/cordova.md, "Core services").
///
/// | action | kind | arguments | result |
/// |---|---|---|---|
/// | `getConnectionInfo` | stream (background) | none | the connection type now, then each new one: `"ethernet"`, `"wifi"`, `"cellular"`, `"unknown"` or `"none"` |
/// | `getType` | async | none | the connection type now |
///
/// `getConnectionInfo` is Cordova's keep-callback: the plugin's `www/network.js` calls it once at start-up and
/// fires `online` and `offline` on each value. It is a background watch: it holds the run until its first value
/// and then not, so a script that uses the plugin still ends when it is done.
public struct NetworkStatusPlugin: BridgePlugin {
    public static let name = "NetworkStatus"

    /// The plugin's `--config` section.
    public struct Configuration: PluginConfiguration {
        /// How often the interfaces are read while a watch runs, in milliseconds (default 1000, at least 50).
        public var pollIntervalMs: Int?

        public func validate() -> [ArgumentIssue] {
            guard let pollIntervalMs, pollIntervalMs < 50 else { return [] }
            return [ArgumentIssue(path: "pollIntervalMs", message: "must be at least 50, got \(pollIntervalMs)")]
        }
    }

    private let source: any NetworkInterfaceSource

    /// A plugin reading the machine's interfaces.
    public init() {
        self.init(source: SystemNetworkInterfaces())
    }

    /// A plugin reading `source` (a fake list in tests).
    public init(source: any NetworkInterfaceSource) {
        self.source = source
    }

    public func setUp(_ context: SetUpContext<Self>) async throws -> ConnectionWatch {
        ConnectionWatch(
            source: source, clock: context.clock,
            interval: .milliseconds(context.configuration.pollIntervalMs ?? 1000))
    }

    public static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.stream("getConnectionInfo", of: String.self) { context, out in
            try await context.state.run { type in try await out.yield(type.rawValue) }
        }
        plugin.background("getConnectionInfo")
        plugin.async("getType") { context in context.state.current().rawValue }
    }
}
