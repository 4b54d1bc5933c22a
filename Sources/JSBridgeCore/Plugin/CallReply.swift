import Synchronization

/// What a native call produced: delivered to the runtime (or a test harness) exactly once per final outcome.
public enum CallOutcome: Sendable, Equatable {
    /// The final value of an async call.
    case value(JSONValue)
    /// One value of a stream (keep-callback); more may follow.
    case item(JSONValue)
    /// The stream ended normally.
    case finished
    /// The call or stream failed.
    case failed(BridgeError)

    /// Whether this outcome ends the call.
    public var isFinal: Bool {
        if case .item = self { return false }
        return true
    }
}

/// Receives the outcomes of native calls; called from any thread.
public protocol CallOutcomeSink: Sendable {
    /// Delivers `outcome` for call `id` of `plugin`'s `action`.
    func deliver(_ outcome: CallOutcome, callID: UInt64)
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
    private let state = Mutex<(answered: Bool, cancelled: Bool)>((false, false))

    /// Creates the reply channel of call `callID` (hosts and test kits do this).
    public init(callID: UInt64, plugin: String, action: String, sink: any CallOutcomeSink) {
        self.callID = callID
        self.plugin = plugin
        self.action = action
        self.sink = sink
    }

    deinit {
        if !state.withLock({ $0.answered }) {
            sink.deliver(
                .failed(BridgeError(
                    code: BridgeError.Code.dropped,
                    message: "\(plugin).\(action) released call \(callID) without answering it.")),
                callID: callID)
        }
    }

    /// Whether the caller cancelled the call.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Ends the call with a value.
    public func resolve(_ value: JSONValue) { finalize(.value(value)) }

    /// Ends the call with an error; non-bridge errors become `PLUGIN_ERROR`.
    public func reject(_ error: any Error) { finalize(.failed(BridgeError(from: error))) }

    /// Ends a stream normally.
    public func finish() { finalize(.finished) }

    /// Sends one stream value; ignored once the call has ended.
    public func yield(_ value: JSONValue) {
        guard !state.withLock({ $0.answered }) else { return }
        sink.deliver(.item(value), callID: callID)
    }

    /// Marks the call cancelled (the host also cancels the task running it).
    func markCancelled() { state.withLock { $0.cancelled = true } }

    private func finalize(_ outcome: CallOutcome) {
        let first = state.withLock { s -> Bool in
            defer { s.answered = true }
            return !s.answered
        }
        if first {
            sink.deliver(outcome, callID: callID)
        } else {
            sink.reportMisuse("\(plugin).\(action) answered call \(callID) more than once; the extra answer was ignored.")
        }
    }
}
