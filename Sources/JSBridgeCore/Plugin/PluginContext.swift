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
    /// The host's plugins, for one plugin calling another's actions (``PluginContext/call(_:_:_:)``).
    public var peers = PluginPeers()

    public init(
        runtime: RuntimeIdentity, permissions: Permissions, clock: any BridgeClock, storage: StorageLocation,
        capabilities: [Capability]
    ) {
        self.runtime = runtime
        self.permissions = permissions
        self.clock = clock
        self.storage = storage
        self.capabilities = capabilities
    }
}

/// The plugins of one registry, as a plugin reaches them to call another's actions (CDVCommandDelegate's
/// `getCommandInstance:`): set when the registry is made, held weakly (the registry holds the plugins).
public final class PluginPeers: Sendable {
    private struct Weak: @unchecked Sendable { weak var registry: PluginRegistry? }
    private let link = Locked(Weak())
    private let nextID = Locked<UInt64>(0)

    public init() {}

    func attach(_ registry: PluginRegistry) { link.withLock { $0.registry = registry } }

    /// Calls `plugin`'s async or sync `action` with `arguments` and returns its answer; the action checks its
    /// own capability as for a script's call. A stream action is `ACTION_NOT_FOUND`.
    public func call(_ plugin: String, _ action: String, _ arguments: BridgeValue) async throws(BridgeError)
        -> BridgeValue
    {
        guard let registry = link.withLock({ $0.registry }) else {
            throw BridgeError(code: BridgeError.Code.pluginError, message: "The plugins are gone (the run ended).")
        }
        let resolved = try registry.resolve(plugin: plugin, action: action)
        switch resolved.action.kind {
        case .sync: return try registry.invokeSync(resolved, arguments: arguments)
        case .stream:
            throw .actionNotFound(plugin, action, hint: "it is a stream action: a plugin calls async and sync actions")
        case .async: break
        }
        let id = nextID.withLock { value -> UInt64 in
            value += 1
            return value
        }
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<CallOutcome, Never>) in
            registry.invoke(
                resolved, arguments: arguments,
                reply: CallReply(callID: id, plugin: plugin, action: action, sink: PeerSink(continuation)))
        }
        return try outcome.result()
    }
}

/// Hands a peer call's final outcome to its waiting caller.
private final class PeerSink: CallOutcomeSink {
    private let continuation: Locked<CheckedContinuation<CallOutcome, Never>?>

    init(_ continuation: CheckedContinuation<CallOutcome, Never>) { self.continuation = Locked(continuation) }

    func deliver(_ outcome: consuming CallOutcome, callID: UInt64) {
        guard outcome.isFinal else { return }
        continuation.withLock { $0.take() }?.resume(returning: outcome)
    }

    func reportMisuse(_ message: String) {}
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

    // MARK: What a Cordova plugin's native side does to the page (CDVCommandDelegate)

    /// Fires Cordova's document event `type` (`cordova.fireDocumentEvent(type, data)`) in the script, once the
    /// cordova layer has loaded (a script that never used `cordova`, `document` or `window` has no listener).
    public func fireDocumentEvent(_ type: String, _ data: JSONValue = .null) {
        sink(
            "", "cordova.documentEvent", BridgeValue(["type": .string(type), "data": data, "plugin": .string(plugin)]))
    }

    /// Fires Cordova's window event `type` (`cordova.fireWindowEvent(type, data)`), as ``fireDocumentEvent(_:_:)``.
    public func fireWindowEvent(_ type: String, _ data: JSONValue = .null) {
        sink("", "cordova.windowEvent", BridgeValue(["type": .string(type), "data": data, "plugin": .string(plugin)]))
    }

    /// Runs `source` as a script in the runtime's global scope on the JS thread (CDVCommandDelegate's `evalJs:`,
    /// JSCoreBridge's `evaluateScript:`). An exception it throws is printed on stderr, naming the plugin; the
    /// run goes on, as a page's would.
    public func evaluateScript(_ source: String) {
        sink("", "evaluate", BridgeValue(["source": .string(source), "plugin": .string(plugin)]))
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

    /// Calls another plugin's async or sync `action` (CDVCommandDelegate's `getCommandInstance:` and a call on
    /// it): its answer in plain JSON (bytes as base64 text), or its error. The action checks its capability
    /// as for a script's call.
    public func call(_ plugin: String, _ action: String, _ arguments: JSONValue = .null) async throws(BridgeError)
        -> JSONValue
    {
        try await setUp.environment.peers.call(plugin, action, BridgeValue(arguments)).plainJSON
    }

    /// ``call(_:_:_:)`` with bytes beside the JSON both ways.
    public func call(_ plugin: String, _ action: String, _ arguments: BridgeValue) async throws(BridgeError)
        -> BridgeValue
    {
        try await setUp.environment.peers.call(plugin, action, arguments)
    }

    /// Fires Cordova's document event `type` in the script (``PluginEvents/fireDocumentEvent(_:_:)``).
    public func fireDocumentEvent(_ type: String, _ data: JSONValue = .null) {
        setUp.events.fireDocumentEvent(type, data)
    }

    /// Fires Cordova's window event `type` in the script (``PluginEvents/fireWindowEvent(_:_:)``).
    public func fireWindowEvent(_ type: String, _ data: JSONValue = .null) {
        setUp.events.fireWindowEvent(type, data)
    }

    /// Runs `source` in the runtime's global scope (``PluginEvents/evaluateScript(_:)``).
    public func evaluateScript(_ source: String) {
        setUp.events.evaluateScript(source)
    }
}
