import JSBridgeBase

/// A location source the test drives: every ``send(_:)`` reaches each open stream, as a receiver would.
///
/// ```swift
/// let source = ManualLocationSource()
/// let location = try await PluginTester(LocationPlugin(source: source), options: .testing(permissions: .all))
/// source.send(Fix(…))
/// ```
public final class ManualLocationSource: LocationSource {
    private typealias Continuation = AsyncThrowingStream<Fix, any Error>.Continuation

    private let streams = Locked<(next: Int, open: [Int: Continuation])>((0, [:]))

    public init() {}

    public var description: String { "manual" }

    /// How many streams are open (e.g. to wait until a watch has started, or check it was stopped).
    public var openStreams: Int { streams.withLock { $0.open.count } }

    public func fixes(clock: any BridgeClock) -> AsyncThrowingStream<Fix, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Fix.self)
        let id = streams.withLock { state -> Int in
            state.next += 1
            state.open[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.streams.withLock { $0.open.removeValue(forKey: id) }
        }
        return stream
    }

    /// Delivers `fix` to every open stream.
    public func send(_ fix: Fix) {
        for continuation in streams.withLock({ Array($0.open.values) }) { continuation.yield(fix) }
    }

    /// Ends every open stream with `error` (e.g. `LocationError.unavailable("…")`).
    public func fail(_ error: any Error) {
        for continuation in streams.withLock({ Array($0.open.values) }) { continuation.finish(throwing: error) }
    }
}
