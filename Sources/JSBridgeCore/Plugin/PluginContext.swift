/// What every plugin of a host shares: granted capabilities, clock, storage location.
public struct HostEnvironment: Sendable {
    /// The runtime the plugins run in.
    public var runtime: RuntimeIdentity
    /// The capabilities granted to the script.
    public var permissions: Permissions
    /// The injected clock.
    public var clock: any BridgeClock
    /// Where this script's data lives.
    public var storage: StorageLocation
    /// Every capability the host's plugins declare.
    public var capabilities: [Capability]
}

/// Emits a plugin's events to the script's `bridge.on(plugin, event, listener)` listeners; `Sendable`, so
/// state made at set-up can keep it (a watcher that reports changes later, say).
public struct PluginEvents: Sendable {
    let plugin: String
    let declared: [String: TypeDescription]
    let sink: @Sendable (_ plugin: String, _ event: String, _ payload: BridgeValue) -> Void
    let misuse: @Sendable (String) -> Void

    /// Emits `event` with `payload` (its ``Bytes`` beside the JSON, as an action's result's); an event the plugin
    /// did not declare is reported and not sent.
    public func emit(_ event: String, _ payload: some Encodable & Sendable) throws {
        guard declared[event] != nil else {
            return misuse(
                "\(plugin) emitted '\(event)', which it does not declare (plugin.event(\"\(event)\", of: …)).")
        }
        sink(plugin, event, try encodeBridgeResult(payload))
    }

    /// Emits `event` with no payload.
    public func emit(_ event: String) {
        try? emit(event, JSONValue.null)
    }
}

/// A runtime's name and version: `jsbridge` and its version, or a custom runtime's own.
public struct RuntimeIdentity: Sendable, Equatable {
    public var name: String
    public var version: String

    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }

    /// `jsbridge` at this version.
    public static let jsbridge = RuntimeIdentity(name: "jsbridge", version: JSBridgeVersion.string)
}

/// The jsbridge version.
public enum JSBridgeVersion {
    public static let string = "0.1.0"
}

/// What a plugin's ``BridgePlugin/setUp(_:)`` sees: its configuration and the host's environment.
public final class SetUpContext<Plugin: BridgePlugin>: Sendable {
    /// The plugin's decoded, validated configuration.
    public let configuration: Plugin.Configuration
    /// The host's environment.
    public let environment: HostEnvironment
    /// The plugin's event emitter.
    public let events: PluginEvents

    init(configuration: Plugin.Configuration, environment: HostEnvironment, events: PluginEvents) {
        self.configuration = configuration
        self.environment = environment
        self.events = events
    }

    /// The plugin's name.
    public var pluginName: String { Plugin.name }
    /// The capabilities granted to the script.
    public var permissions: Permissions { environment.permissions }
    /// The injected clock.
    public var clock: any BridgeClock { environment.clock }
    /// Where this script's data lives.
    public var storage: StorageLocation { environment.storage }
    /// The runtime the plugin runs in.
    public var runtime: RuntimeIdentity { environment.runtime }
}

/// What an action sees: the plugin's state and configuration, the host's environment, events.
///
/// It is `Sendable`: actions may use it on any executor.
public struct PluginContext<Plugin: BridgePlugin>: Sendable {
    /// What the plugin's ``BridgePlugin/setUp(_:)`` made.
    public let state: Plugin.State
    let setUp: SetUpContext<Plugin>

    init(state: Plugin.State, setUp: SetUpContext<Plugin>) {
        self.state = state
        self.setUp = setUp
    }

    /// The plugin's decoded, validated configuration.
    public var configuration: Plugin.Configuration { setUp.configuration }
    /// The plugin's name.
    public var pluginName: String { Plugin.name }
    /// The capabilities granted to the script.
    public var permissions: Permissions { setUp.environment.permissions }
    /// The injected clock.
    public var clock: any BridgeClock { setUp.environment.clock }
    /// Where this script's data lives.
    public var storage: StorageLocation { setUp.environment.storage }
    /// The host's environment.
    public var environment: HostEnvironment { setUp.environment }
    /// The runtime the plugin runs in.
    public var runtime: RuntimeIdentity { setUp.environment.runtime }
    /// The plugin's event emitter (to keep for later).
    public var events: PluginEvents { setUp.events }

    /// Throws `PERMISSION_DENIED` unless the script was granted `capability` (for `scope`, when given).
    public func require(_ capability: Capability, scope: String? = nil) throws(BridgeError) {
        try permissions.check(capability, scope: scope)
    }

    /// Emits an event to the script's `bridge.on(plugin, event, listener)` listeners.
    public func emit(_ event: String, _ payload: some Encodable & Sendable) throws {
        try setUp.events.emit(event, payload)
    }

    /// Emits an event with no payload.
    public func emit(_ event: String) {
        setUp.events.emit(event)
    }
}
