import Foundation

/// The time source plugins use, injected so tests can control it (see `ManualClock` beside it).
public protocol BridgeClock: Sendable {
    /// The current wall-clock time.
    func now() -> Date
    /// Suspends for `duration`; throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// The real clock: wall time from the system, sleeps on the continuous clock.
public struct SystemClock: BridgeClock {
    public init() {}
    public func now() -> Date { Date() }
    public func sleep(for duration: Duration) async throws {
        try await ContinuousClock().sleep(for: duration)
    }
}
