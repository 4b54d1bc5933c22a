import JSBridgeBase

/// The domain core of the Counter example: named integer counters, safe to use from any thread.
///
/// It knows nothing about the bridge (no `JSBridgeCore` import): the `CounterPlugin` adapter decodes
/// arguments, calls this type and maps its errors, so the logic here is testable on its own.
public final class CounterStore: Sendable {
    private struct Waiter {
        let name: String
        let target: Int
        let notify: @Sendable (Int) -> Void
    }

    private struct State {
        var counters: [String: Int] = [:]
        var waiters: [Waiter] = []
    }

    private let state = Locked(State())

    /// Creates a store in which every counter is 0.
    public init() {}

    /// The value of counter `name` (0 if it was never changed).
    public func value(of name: String) -> Int {
        state.withLock { $0.counters[name, default: 0] }
    }

    /// The names of the counters that were changed, sorted.
    public var names: [String] {
        state.withLock { $0.counters.keys.sorted() }
    }

    /// Adds `amount` (which may be negative) to counter `name` and returns the new value.
    ///
    /// Throws ``CounterError/limitExceeded(name:limit:attempted:)`` when the new value would be above
    /// `limit`, and ``CounterError/overflow(name:)`` when it would not fit an `Int`; the counter is then
    /// left unchanged.
    @discardableResult
    public func increment(_ name: String, by amount: Int = 1, limit: Int? = nil) throws(CounterError) -> Int {
        let (value, reached) = try state.withLock { (s) throws(CounterError) -> (Int, [Waiter]) in
            let (value, overflow) = s.counters[name, default: 0].addingReportingOverflow(amount)
            if overflow { throw .overflow(name: name) }
            if let limit, value > limit { throw .limitExceeded(name: name, limit: limit, attempted: value) }
            s.counters[name] = value
            let reached = s.waiters.filter { $0.name == name && value >= $0.target }
            s.waiters.removeAll { $0.name == name && value >= $0.target }
            return (value, reached)
        }
        // Callbacks run outside the lock: they may call back into the store.
        for waiter in reached { waiter.notify(value) }
        return value
    }

    /// Sets counter `name` back to 0 and returns the value it had.
    @discardableResult
    public func reset(_ name: String) -> Int {
        state.withLock { $0.counters.removeValue(forKey: name) ?? 0 }
    }

    /// Calls `notify` with the counter's value once counter `name` is at least `target` (at once if it
    /// already is). `notify` runs on the thread of the increment that reached the target.
    public func whenReaches(_ name: String, _ target: Int, notify: @escaping @Sendable (Int) -> Void) {
        let current = state.withLock { s -> Int? in
            let value = s.counters[name, default: 0]
            if value >= target { return value }
            s.waiters.append(Waiter(name: name, target: target, notify: notify))
            return nil
        }
        if let current { notify(current) }
    }

    /// How many `whenReaches` callbacks are waiting.
    public var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Forgets every waiting `whenReaches` callback without calling it.
    public func removeAllWaiters() {
        let removed = state.withLock { s -> [Waiter] in
            defer { s.waiters.removeAll() }
            return s.waiters
        }
        // Released here, outside the lock (releasing a callback may run arbitrary deinit code).
        _ = removed
    }
}

/// What can go wrong with a counter.
public enum CounterError: Error, Hashable, Sendable {
    /// The new value would be above the configured limit.
    case limitExceeded(name: String, limit: Int, attempted: Int)
    /// The new value would not fit an `Int`.
    case overflow(name: String)
}
