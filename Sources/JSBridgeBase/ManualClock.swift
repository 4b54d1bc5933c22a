import Foundation

/// A clock that moves only when the test says so: `sleep` suspends until ``advance(by:)`` passes its deadline.
public final class ManualClock: BridgeClock {
    private struct Sleeper {
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var elapsed: Duration = .zero
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
    }

    private let start: Date
    private let state = Locked(State())
    /// Fired each time a task starts sleeping: what ``waitForSleepers(_:timeout:)`` waits on.
    private let slept = TestSignal()

    /// Creates a clock whose `now()` starts at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        self.start = start
    }

    public func now() -> Date {
        let elapsed = state.withLock { $0.elapsed }
        return start.addingTimeInterval(
            Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// How many tasks are sleeping on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        let id = state.withLock { s -> UInt64 in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let resumeNow = state.withLock { s -> Bool in
                    if duration <= .zero || Task.isCancelled { return true }
                    s.sleepers[id] = Sleeper(deadline: s.elapsed + duration, continuation: continuation)
                    return false
                }
                if !resumeNow { slept.fire() }
                if resumeNow {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward, waking every sleeper whose deadline has passed.
    public func advance(by duration: Duration) {
        let due = state.withLock { s -> [Sleeper] in
            s.elapsed += duration
            let due = s.sleepers.filter { $0.value.deadline <= s.elapsed }
            for key in due.keys { s.sleepers.removeValue(forKey: key) }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns as soon as `count` tasks sleep on this clock: call before `advance` to avoid racing the code
    /// under test. `timeout` (real time) only ends a wait for a sleeper that never comes.
    public func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(30)) async throws {
        guard await slept.wait(until: { self.sleeperCount >= count }, timeout: timeout) else {
            throw BridgeError(
                code: BridgeError.Code.timeout, message: "No task slept on the ManualClock within \(timeout).")
        }
    }
}
