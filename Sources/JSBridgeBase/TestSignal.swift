/// A count of events that a test waits on: the code under test (a server route, a fake transport, a plugin
/// action) calls ``fire()``, the test awaits ``wait(count:)``.
///
/// It replaces "sleep a little, then assume it happened": the test goes on exactly when the event happened,
/// however loaded the machine is.
///
///     let arrived = TestSignal()
///     server.route("/slow") { _ in arrived.fire(); return .text("late", delay: .seconds(3600)) }
///     let call = Task { try await client.get("/slow") }
///     try await arrived.wait()
///     call.cancel()
public final class TestSignal: Sendable {
    private struct State {
        var count = 0
        var nextID = 0
        var waiters: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let state = Locked(State())

    public init() {}

    /// How many times ``fire()`` was called.
    public var count: Int { state.withLock { $0.count } }

    /// Records one event and wakes the waiters it satisfies.
    public func fire() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            let count = state.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once ``fire()`` has been called `count` times in all, or when the calling task is cancelled.
    ///
    /// A test that waits for an event that never comes is ended by its suite's time limit (or
    /// `swift test`'s), not by a bound chosen here; ``wait(until:timeout:)`` takes a guard of its own.
    public func wait(count: Int = 1) async {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    if state.count >= count || Task.isCancelled { return true }
                    state.waiters.append((id, count, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume()
        }
    }

    /// Whether `condition` came to hold, checked now and after each ``fire()``: false if `timeout` (a guard
    /// for a condition that never holds) passed first.
    public func wait(until condition: @escaping @Sendable () -> Bool, timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    let seen = self.count
                    if condition() { return true }
                    await self.wait(count: seen + 1)
                }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            defer { group.cancelAll() }
            return await group.next() ?? false
        }
    }
}
