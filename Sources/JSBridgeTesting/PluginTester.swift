import JSBridgeCore
import Synchronization

/// Calls a plugin's actions from Swift, without JavaScript: the headless way to test a plugin.
///
/// Arguments go through the same decoding as calls from scripts, and results through the same encoding,
/// so `INVALID_ARGUMENT` paths, error codes, capabilities and stream cancellation behave as they do under
/// the runtime.
///
/// ```swift
/// let tester = try await PluginTester(MyPlugin())   // any BridgePlugin
/// #expect(try await tester.call("echo", ["a": 1]) == ["a": 1])
/// #expect(try await tester.stream("ticks", ["count": 3]).collect() == [0, 1, 2])
/// ```
public final class PluginTester: Sendable {
    /// What the plugin's host was made with (permissions, configuration, clock, storage location).
    public let options: BridgeHost.Options
    private let registry: PluginRegistry
    private let pluginName: String
    private let nextID = Atomic<UInt64>(0)
    private let eventStream: AsyncStream<PluginEvent>
    private let eventContinuation: AsyncStream<PluginEvent>.Continuation
    private let misuseLog = MisuseLog()

    /// Registers `plugin` on a fresh host with `options` and runs its set-up; throws its configuration or
    /// set-up failure.
    public init<Plugin: BridgePlugin>(_ plugin: Plugin, options: BridgeHost.Options = .testing()) async throws {
        self.options = options
        let host = BridgeHost(options: options)
        try host.register(plugin)
        (eventStream, eventContinuation) = AsyncStream.makeStream(of: PluginEvent.self)
        let continuation = eventContinuation
        let misuseLog = self.misuseLog
        registry = host.makeRegistry(
            events: { plugin, event, payload in
                // The test kit's plain lane: bytes in an event's payload are base64 text.
                continuation.yield(PluginEvent(plugin: plugin, name: event, payload: payload.plainJSON))
            },
            misuse: { message in misuseLog.append(message) })
        pluginName = Plugin.name
        if let failure = await registry.setUp(Plugin.name) { throw failure }
    }

    /// Events the plugin emits, in order.
    public var events: AsyncStream<PluginEvent> { eventStream }

    /// What the plugin did wrong so far: events it did not declare, answers given twice.
    public var misuses: [String] { misuseLog.entries.withLock { $0 } }

    /// Calls an async (or sync) action and returns its result, in plain JSON: ``Bytes`` are base64 text on
    /// both sides (see ``call(_:_:)-(_,BridgeValue)`` for the bytes lane).
    public func call(_ action: String, _ arguments: JSONValue = .null) async throws(BridgeError) -> JSONValue {
        try await call(action, BridgeValue(arguments)).plainJSON
    }

    /// Calls an async (or sync) action with bytes beside the arguments' JSON, as a script's `Uint8Array`s
    /// cross, and returns its result with its ``Bytes`` beside the JSON, as a script receives them.
    public func call(_ action: String, _ arguments: BridgeValue) async throws(BridgeError) -> BridgeValue {
        let resolved = try registry.resolve(plugin: pluginName, action: action)
        if resolved.action.kind == .stream {
            throw .actionNotFound(pluginName, action, hint: "it is a stream action; use stream(_:_:)")
        }
        let id = nextID.add(1, ordering: .relaxed).newValue
        let misuseLog = self.misuseLog
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<CallOutcome, Never>) in
            let sink = SingleOutcomeSink(continuation, misuse: { message in misuseLog.append(message) })
            registry.invoke(
                resolved, arguments: arguments,
                reply: CallReply(callID: id, plugin: pluginName, action: action, sink: sink))
        }
        return try outcome.result()
    }

    /// Calls an action with arguments that mix literals and Swift values: `["name": name, "by": 2]`.
    public func call(_ action: String, _ arguments: [String: any Encodable & Sendable]) async throws(BridgeError)
        -> JSONValue
    {
        try await call(action, try Self.json(arguments))
    }

    /// Calls an action with `Encodable` arguments and decodes its result as `R`.
    public func call<R: Decodable>(_ action: String, _ arguments: some Encodable & Sendable, as type: R.Type)
        async throws -> R
    {
        let value = try await call(action, try encodeResult(arguments))
        return try JSONValueDecoder().decode(R.self, from: value)
    }

    /// Calls a sync action on the calling thread (plain JSON: ``Bytes`` are base64 text).
    public func callSync(_ action: String, _ arguments: JSONValue = .null) throws(BridgeError) -> JSONValue {
        try registry.invokeSync(try registry.resolve(plugin: pluginName, action: action), arguments: arguments)
    }

    /// Calls a sync action on the calling thread with bytes beside the JSON both ways, as scripts do.
    public func callSync(_ action: String, _ arguments: BridgeValue) throws(BridgeError) -> BridgeValue {
        try registry.invokeSync(try registry.resolve(plugin: pluginName, action: action), arguments: arguments)
    }

    /// Calls a sync action with arguments that mix literals and Swift values.
    public func callSync(_ action: String, _ arguments: [String: any Encodable & Sendable]) throws(BridgeError)
        -> JSONValue
    {
        try callSync(action, try Self.json(arguments))
    }

    /// Starts a stream action; iterate to receive its values, ``PluginStream/collect()`` them all, or take the
    /// ``PluginStream/first(_:)`` few. Ending
    /// the iteration early (or cancelling the iterating task) cancels the native side, as `cancel()` does from
    /// JavaScript.
    public func stream(_ action: String, _ arguments: JSONValue = .null) throws(BridgeError) -> PluginStream {
        try stream(action, BridgeValue(arguments))
    }

    /// Starts a stream action with bytes beside the arguments' JSON; its values keep their ``Bytes`` beside
    /// the JSON in ``PluginStream/collectWithBytes()`` (iterating gives them in plain JSON).
    public func stream(_ action: String, _ arguments: BridgeValue) throws(BridgeError) -> PluginStream {
        let resolved = try registry.resolve(plugin: pluginName, action: action)
        guard resolved.action.kind == .stream else {
            throw .actionNotFound(pluginName, action, hint: "it is not a stream action; use call(_:_:)")
        }
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (values, continuation) = AsyncThrowingStream.makeStream(of: BridgeValue.self)
        let misuseLog = self.misuseLog
        let sink = StreamSink(continuation: continuation, misuse: { message in misuseLog.append(message) })
        let reply = CallReply(callID: id, plugin: pluginName, action: action, sink: sink)
        let call = PreparedCall(resolved: resolved, arguments: arguments, reply: reply)
        continuation.onTermination = { termination in
            if case .cancelled = termination { call.handle.cancel() }
        }
        call.start()
        return PluginStream(values: values, handle: call.handle)
    }

    /// Starts a stream action with arguments that mix literals and Swift values.
    public func stream(_ action: String, _ arguments: [String: any Encodable & Sendable]) throws(BridgeError)
        -> PluginStream
    {
        try stream(action, try Self.json(arguments))
    }

    /// Runs the plugin's `shutdown`.
    public func shutdown() async {
        await registry.shutdown()
        eventContinuation.finish()
    }

    private static func json(_ arguments: [String: any Encodable & Sendable]) throws(BridgeError) -> JSONValue {
        var object = JSONObject()
        for (key, value) in arguments { object[key] = try encodeResult(value) }
        return .object(object)
    }
}

/// The values of a stream action, acknowledged as they are consumed (back-pressure, as under the runtime).
public struct PluginStream: AsyncSequence, Sendable {
    public typealias Element = JSONValue
    let values: AsyncThrowingStream<BridgeValue, any Error>
    let handle: CallHandle

    /// Cancels the stream on the native side.
    public func cancel() { handle.cancel() }

    /// How many values the action has sent that the test has not consumed yet: at ``CallState/window`` the
    /// action's ``StreamWriter/yield(_:)`` waits.
    public var unconsumed: Int { handle.unacknowledged }

    /// Every value until the stream ends; throws the stream's error (values before it are lost — iterate to
    /// keep them).
    public func collect() async throws -> [JSONValue] {
        var all: [JSONValue] = []
        for try await value in self { all.append(value) }
        return all
    }

    /// Every value until the stream ends, with its ``Bytes`` beside the JSON as a script receives them.
    public func collectWithBytes() async throws -> [BridgeValue] {
        var all: [BridgeValue] = []
        for try await value in values {
            handle.acknowledge()
            all.append(value)
        }
        return all
    }

    /// The first `count` values, then cancels the stream (fewer if it ended sooner).
    public func first(_ count: Int) async throws -> [JSONValue] {
        var taken: [JSONValue] = []
        var iterator = makeAsyncIterator()
        while taken.count < count, let value = try await iterator.next() { taken.append(value) }
        cancel()
        return taken
    }

    public func makeAsyncIterator() -> Iterator { Iterator(base: values.makeAsyncIterator(), handle: handle) }

    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<BridgeValue, any Error>.AsyncIterator
        let handle: CallHandle

        public mutating func next() async throws -> JSONValue? {
            guard let value = try await base.next() else { return nil }
            handle.acknowledge()
            return value.plainJSON
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

private final class MisuseLog: Sendable {
    let entries = Locked<[String]>([])
    func append(_ message: String) { entries.withLock { $0.append(message) } }
}

private final class SingleOutcomeSink: CallOutcomeSink {
    private let continuation: Locked<CheckedContinuation<CallOutcome, Never>?>
    private let misuse: @Sendable (String) -> Void

    init(_ continuation: CheckedContinuation<CallOutcome, Never>, misuse: @escaping @Sendable (String) -> Void) {
        self.continuation = Locked(continuation)
        self.misuse = misuse
    }

    func deliver(_ outcome: consuming CallOutcome, callID: UInt64) {
        guard outcome.isFinal else { return }
        continuation.withLock { $0.take() }?.resume(returning: outcome)
    }

    func reportMisuse(_ message: String) { misuse(message) }
}

private struct StreamSink: CallOutcomeSink {
    let continuation: AsyncThrowingStream<BridgeValue, any Error>.Continuation
    let misuse: @Sendable (String) -> Void

    func deliver(_ outcome: consuming CallOutcome, callID: UInt64) {
        let isFinal = outcome.isFinal
        switch consume outcome {
        case .item(let value), .value(let value): continuation.yield(BridgeValue(value))
        case .itemWithBytes(let value), .valueWithBytes(let value): continuation.yield(value)
        case .encoded(let value): continuation.yield(BridgeValue(value.value))
        case .encodedWithBytes(let value, let bytes): continuation.yield(BridgeValue(value.value, bytes: bytes))
        case .finished: continuation.finish()
        case .failed(let error): continuation.finish(throwing: error)
        }
        if isFinal { continuation.finish() }
    }

    func reportMisuse(_ message: String) { misuse(message) }
}
