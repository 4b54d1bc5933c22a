import JSBridgeBase
import Synchronization

/// What a native call produced: delivered to the runtime (or a test harness) exactly once per final outcome.
public enum CallOutcome: Sendable, Equatable {
    /// The final value of an async call.
    case value(JSONValue)
    /// The final value of an async call, as checked JSON text (``CallReply/resolve(encoded:)``).
    case encoded(EncodedJSON)
    /// One value of a stream (keep-callback); more may follow.
    case item(JSONValue)
    /// The stream ended normally.
    case finished
    /// The call or stream failed.
    case failed(BridgeError)
    /// The final value of an async call, with bytes beside its JSON (``Bytes`` in the result).
    case valueWithBytes(BridgeValue)
    /// One value of a stream, with bytes beside its JSON.
    case itemWithBytes(BridgeValue)
    /// The final value of an async call as checked JSON text, with bytes beside it: each at its path in the
    /// value the text encodes (``CallReply/resolve(encoded:bytes:)``).
    case encodedWithBytes(EncodedJSON, [ByteAttachment])

    /// Whether this outcome ends the call.
    public var isFinal: Bool {
        switch self {
        case .item, .itemWithBytes: return false
        default: return true
        }
    }

    /// A call's result as its caller receives it: the value with its bytes beside the JSON (`null` for a stream's
    /// outcomes), or the failure thrown.
    public func result() throws(BridgeError) -> BridgeValue {
        switch self {
        case .value(let value): return BridgeValue(value)
        case .valueWithBytes(let value): return value
        case .encoded(let value): return BridgeValue(value.value)
        case .encodedWithBytes(let value, let bytes): return BridgeValue(value.value, bytes: bytes)
        case .failed(let error): throw error
        case .item, .itemWithBytes, .finished: return BridgeValue(.null)
        }
    }

    /// The outcome with any bytes written into its JSON as base64 (the plain-JSON form of the same answer).
    public var plain: CallOutcome {
        switch self {
        case .valueWithBytes(let value): return .value(value.plainJSON)
        case .itemWithBytes(let value): return .item(value.plainJSON)
        case .encodedWithBytes(let text, let bytes): return .value(BridgeValue(text.value, bytes: bytes).plainJSON)
        default: return self
        }
    }
}

/// Receives the outcomes of native calls; called from any thread.
public protocol CallOutcomeSink: Sendable {
    /// Delivers `outcome` for call `id` of `plugin`'s `action`.
    ///
    /// The outcome is handed over (`consuming`): bytes in it reach JavaScript without a copy only when
    /// nothing else holds them, so no reference may stay behind on the delivering thread.
    func deliver(_ outcome: consuming CallOutcome, callID: UInt64)
    /// Reports a plugin misbehaving (answering twice); the outcome was ignored.
    func reportMisuse(_ message: String)
}

/// The answer channel of one native call: resolve once, reject once, or yield stream values then finish.
///
/// Releasing a `CallReply` that never answered delivers `DROPPED`, so a call is never left hanging.
public final class CallReply: Sendable {
    /// The call's id, unique within the process.
    public let callID: UInt64
    /// The plugin and action called.
    public let plugin: String, action: String
    private let sink: any CallOutcomeSink
    private let answered = Atomic<Bool>(false)
    /// Shared with the call's ``CallHandle`` (which must not keep the reply alive: a reply released
    /// unanswered reports `DROPPED`).
    let state = CallState()

    /// Creates the reply channel of call `callID` (hosts and test kits do this).
    public init(callID: UInt64, plugin: String, action: String, sink: any CallOutcomeSink) {
        self.callID = callID
        self.plugin = plugin
        self.action = action
        self.sink = sink
    }

    deinit {
        if !answered.load(ordering: .acquiring) {
            sink.deliver(
                .failed(
                    BridgeError(
                        code: BridgeError.Code.dropped,
                        message: "\(plugin).\(action) released call \(callID) without answering it.")),
                callID: callID)
        }
    }

    /// Whether the caller cancelled the call.
    public var isCancelled: Bool { state.isCancelled }

    /// Runs `handler` once when the caller cancels the call — at once if it already has. For actions that
    /// answer from callbacks (``ActionTable/start(_:args:_:)``), which have no Swift task to cancel; a later
    /// handler replaces an earlier one that has not run.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) { state.setCancelHandler(handler) }

    /// Ends the call with a value.
    public func resolve(_ value: JSONValue) { finalize(.value(value)) }

    /// Ends the call with a value that may carry bytes beside its JSON (see ``Bytes``).
    public func resolve(_ value: consuming BridgeValue) {
        if value.bytes.isEmpty { return finalize(.value(value.json)) }
        finalize(.valueWithBytes(consume value))
    }

    /// Ends the call with the value that checked JSON text encodes, embedded in the answer as is.
    public func resolve(encoded value: EncodedJSON) { finalize(.encoded(value)) }

    /// Ends the call with the value that checked JSON text encodes, embedded in the answer as is, with `bytes`
    /// beside it: each at its path in that value, where the text holds a placeholder (`null`).
    public func resolve(encoded value: EncodedJSON, bytes: consuming [ByteAttachment]) {
        if bytes.isEmpty { return finalize(.encoded(value)) }
        finalize(.encodedWithBytes(value, consume bytes))
    }

    /// Ends the call with an error; non-bridge errors become `PLUGIN_ERROR`.
    public func reject(_ error: any Error) { finalize(.failed(BridgeError(from: error))) }

    /// Ends a stream normally.
    public func finish() { finalize(.finished) }

    /// Sends one stream value; ignored once the call has ended.
    ///
    /// This never waits; ``StreamWriter/yield(_:)`` is the variant that waits while the consumer is
    /// ``CallState/window`` values behind.
    public func yield(_ value: JSONValue) {
        guard !answered.load(ordering: .acquiring) else { return }
        state.unacknowledged.add(1, ordering: .relaxed)
        sink.deliver(.item(value), callID: callID)
    }

    /// Sends one stream value that may carry bytes beside its JSON; ignored once the call has ended.
    public func yield(_ value: consuming BridgeValue) {
        guard !value.bytes.isEmpty else { return yield(value.json) }
        guard !answered.load(ordering: .acquiring) else { return }
        state.unacknowledged.add(1, ordering: .relaxed)
        sink.deliver(.itemWithBytes(consume value), callID: callID)
    }

    private func finalize(_ outcome: consuming CallOutcome) {
        if !answered.exchange(true, ordering: .acquiringAndReleasing) {
            sink.deliver(consume outcome, callID: callID)
            // A cancel handler often holds what answers, and so this reply: a cycle, unless dropped here.
            state.dropCancelHandler()
        } else {
            sink.reportMisuse(
                "\(plugin).\(action) answered call \(callID) more than once; the extra answer was ignored.")
        }
    }
}

/// What a call's reply and its handle share: cancellation, and stream values not yet consumed.
public final class CallState: Sendable {
    /// How many stream values may wait for the consumer before `StreamWriter.yield` waits too.
    public static let window = 1024

    private let cancelled = Atomic<Bool>(false)
    /// What cancelling reaches: the handler of an action that answers from callbacks, and the Swift task
    /// running the action (kept by its ``CallHandle``; one lock for both, one allocation fewer per call).
    private let cancelTargets = Locked<(handler: (@Sendable () -> Void)?, task: Task<Void, Never>?)>((nil, nil))
    let unacknowledged = Atomic<Int>(0)

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    func cancel() {
        let (handler, task) = cancelTargets.withLock { targets in
            cancelled.store(true, ordering: .releasing)
            defer { targets.handler = nil }
            return targets
        }
        handler?()
        task?.cancel()
    }

    /// Keeps `task` to cancel with the call; cancels it at once if the call already was.
    func attach(_ task: Task<Void, Never>) {
        let cancelNow = cancelTargets.withLock { targets -> Bool in
            targets.task = task
            return cancelled.load(ordering: .acquiring)
        }
        if cancelNow { task.cancel() }
    }

    func dropCancelHandler() { cancelTargets.withLock { $0.handler = nil } }

    func setCancelHandler(_ handler: @escaping @Sendable () -> Void) {
        let runNow = cancelTargets.withLock { targets -> Bool in
            if cancelled.load(ordering: .acquiring) { return true }
            targets.handler = handler
            return false
        }
        if runNow { handler() }
    }

    /// Whether the consumer is a full window behind.
    var isBehind: Bool { unacknowledged.load(ordering: .relaxed) >= Self.window }
}
