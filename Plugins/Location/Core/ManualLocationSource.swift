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

    private struct Streams {
        var next = 0
        var open: [Int: Continuation] = [:]
        /// Who waits in ``waitForOpenStreams(_:)``, and for how many.
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let streams = Locked(Streams())

    public init() {}

    public var description: String { "manual" }

    /// How many streams are open (e.g. to check a watch was stopped).
    public var openStreams: Int { streams.withLock { $0.open.count } }

    /// Returns once at least `count` streams are open: a watch has started and will see the next ``send(_:)``.
    public func waitForOpenStreams(_ count: Int = 1) async {
        await withCheckedContinuation { continuation in
            let now = streams.withLock { state -> Bool in
                if state.open.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    public func fixes(clock: any BridgeClock) -> AsyncThrowingStream<Fix, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Fix.self)
        let (id, ready) = streams.withLock { state -> (Int, [CheckedContinuation<Void, Never>]) in
            state.next += 1
            state.open[state.next] = continuation
            let count = state.open.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return (state.next, ready)
        }
        for waiter in ready { waiter.resume() }
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
