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
    /// Fired each time a stream opens: what ``waitForOpenStreams(_:)`` waits on.
    private let opened = TestSignal()

    public init() {}

    public var description: String { "manual" }

    /// How many streams are open (e.g. to check a watch was stopped).
    public var openStreams: Int { streams.withLock { $0.open.count } }

    /// Returns once at least `count` streams are open: a watch has started and will see the next ``send(_:)``.
    public func waitForOpenStreams(_ count: Int = 1) async {
        // The guard only ends a wait for a watch that never starts.
        _ = await opened.wait(until: { self.openStreams >= count }, timeout: .seconds(600))
    }

    public func fixes(clock: any BridgeClock) -> AsyncThrowingStream<Fix, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Fix.self)
        let id = streams.withLock { state -> Int in
            state.next += 1
            state.open[state.next] = continuation
            return state.next
        }
        opened.fire()
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
