import JSBridgeCore
import Synchronization

/// Calls a plugin's actions from Swift, without JavaScript: the headless way to test a plugin.
///
/// Arguments go through the same decoding as calls from scripts, and results through the same encoding,
/// so `INVALID_ARGUMENT` paths, error codes and stream cancellation behave as they do under the runtime.
///
/// ```swift
/// let echo = try await PluginTester(EchoPlugin())
/// #expect(try await echo.call("echo", ["a": 1]) == ["a": 1])
/// ```
public final class PluginTester: Sendable {
    /// The plugin's context (configuration, permissions, clock, storage).
    public let context: PluginContext
    private let registry: PluginRegistry
    private let pluginName: String
    private let nextID = Atomic<UInt64>(0)
    private let eventStream: AsyncStream<PluginEvent>
    private let eventContinuation: AsyncStream<PluginEvent>.Continuation

    /// Registers `plugin` on a fresh host with `options` and runs its `setUp`.
    public init(_ plugin: some BridgePlugin, options: BridgeHost.Options = .testing()) async throws {
        let host = BridgeHost(options: options)
        try host.register(plugin)
        (eventStream, eventContinuation) = AsyncStream.makeStream(of: PluginEvent.self)
        let continuation = eventContinuation
        registry = host.makeRegistry { plugin, event, payload in
            continuation.yield(PluginEvent(plugin: plugin, name: event, payload: payload))
        }
        pluginName = type(of: plugin).name
        context = registry.plugins[0].context
        if let failure = await registry.setUp().first { throw failure }
    }

    /// Events the plugin emits, in order.
    public var events: AsyncStream<PluginEvent> { eventStream }

    /// Calls an async (or sync) action and returns its result.
    public func call(_ action: String, _ arguments: JSONValue = .null) async throws(BridgeError) -> JSONValue {
        let resolved = try registry.resolve(plugin: pluginName, action: action)
        if resolved.action.kind == .stream {
            throw .actionNotFound(pluginName, action, hint: "it is a stream action; use stream(_:_:)")
        }
        let id = nextID.add(1, ordering: .relaxed).newValue
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<CallOutcome, Never>) in
            let sink = SingleOutcomeSink(continuation)
            registry.invoke(
                resolved, arguments: arguments,
                reply: CallReply(callID: id, plugin: pluginName, action: action, sink: sink))
        }
        switch outcome {
        case .value(let value): return value
        case .encoded(let value): return value.value
        case .failed(let error): throw error
        case .item, .finished: return .null
        }
    }

    /// Calls an action with `Encodable` arguments and decodes its result as `R`.
    public func call<R: Decodable>(_ action: String, _ arguments: some Encodable & Sendable, as type: R.Type)
        async throws -> R
    {
        let value = try await call(action, try encodeResult(arguments))
        return try JSONValueDecoder().decode(R.self, from: value)
    }

    /// Calls a sync action on the calling thread.
    public func callSync(_ action: String, _ arguments: JSONValue = .null) throws(BridgeError) -> JSONValue {
        try registry.invokeSync(try registry.resolve(plugin: pluginName, action: action), arguments: arguments)
    }

    /// Starts a stream action; iterate to receive its values. Ending the iteration early (or cancelling
    /// the iterating task) cancels the native side, as `cancel()` does from JavaScript.
    public func stream(_ action: String, _ arguments: JSONValue = .null) throws(BridgeError) -> PluginStream {
        let resolved = try registry.resolve(plugin: pluginName, action: action)
        guard resolved.action.kind == .stream else {
            throw .actionNotFound(pluginName, action, hint: "it is not a stream action; use call(_:_:)")
        }
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (values, continuation) = AsyncThrowingStream.makeStream(of: JSONValue.self)
        let reply = CallReply(callID: id, plugin: pluginName, action: action, sink: StreamSink(continuation))
        let call = PreparedCall(resolved: resolved, arguments: arguments, reply: reply)
        continuation.onTermination = { termination in
            if case .cancelled = termination { call.handle.cancel() }
        }
        call.start()
        return PluginStream(values: values, handle: call.handle)
    }

    /// Runs the plugin's `shutdown`.
    public func shutdown() async {
        await registry.shutdown()
        eventContinuation.finish()
    }
}

/// The values of a stream action, acknowledged as they are consumed (back-pressure, as under the runtime).
public struct PluginStream: AsyncSequence, Sendable {
    public typealias Element = JSONValue
    let values: AsyncThrowingStream<JSONValue, any Error>
    let handle: CallHandle

    /// Cancels the stream on the native side.
    public func cancel() { handle.cancel() }

    public func makeAsyncIterator() -> Iterator { Iterator(base: values.makeAsyncIterator(), handle: handle) }

    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<JSONValue, any Error>.AsyncIterator
        let handle: CallHandle

        public mutating func next() async throws -> JSONValue? {
            let value = try await base.next()
            if value != nil { handle.acknowledge() }
            return value
        }
    }
}

/// One event emitted by a plugin.
public struct PluginEvent: Sendable, Hashable {
    public let plugin: String
    public let name: String
    public let payload: JSONValue

    public init(plugin: String, name: String, payload: JSONValue) {
        self.plugin = plugin
        self.name = name
        self.payload = payload
    }
}

extension BridgeHost.Options {
    /// Options for tests: everything denied unless given, storage in a fresh temporary directory.
    public static func testing(
        configuration: JSONObject = [:],
        permissions: Permissions = .none,
        clock: any BridgeClock = SystemClock(),
        appID: String = "test"
    ) -> Self {
        Self(
            permissions: permissions, configuration: configuration, clock: clock,
            storage: StorageLocation(appID: appID, directory: TemporaryDirectory.make(prefix: "jsbridge-test")))
    }
}

private final class SingleOutcomeSink: CallOutcomeSink {
    private let continuation: Mutex<CheckedContinuation<CallOutcome, Never>?>

    init(_ continuation: CheckedContinuation<CallOutcome, Never>) {
        self.continuation = Mutex(continuation)
    }

    func deliver(_ outcome: CallOutcome, callID: UInt64) {
        guard outcome.isFinal else { return }
        continuation.withLock { $0.take() }?.resume(returning: outcome)
    }

    func reportMisuse(_ message: String) {}
}

private struct StreamSink: CallOutcomeSink {
    let continuation: AsyncThrowingStream<JSONValue, any Error>.Continuation

    init(_ continuation: AsyncThrowingStream<JSONValue, any Error>.Continuation) {
        self.continuation = continuation
    }

    func deliver(_ outcome: CallOutcome, callID: UInt64) {
        switch outcome {
        case .item(let value), .value(let value): continuation.yield(value)
        case .encoded(let value): continuation.yield(value.value)
        case .finished: continuation.finish()
        case .failed(let error): continuation.finish(throwing: error)
        }
        if outcome.isFinal { continuation.finish() }
    }

    func reportMisuse(_ message: String) {}
}
