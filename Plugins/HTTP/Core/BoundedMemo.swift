import JSBridgeBase

/// Remembers the values made from a few strings (parsed URLs): a script usually requests the same few URLs
/// again and again. Holds at most `capacity` values, and forgets them all when full.
package final class BoundedMemo<Value: Sendable>: Sendable {
    private let values = Locked<[String: Value]>([:])
    private let capacity: Int

    package init(capacity: Int = 64) { self.capacity = capacity }

    /// The value remembered for `key`, else `make()`'s, remembered (an error is not).
    package func value<Failure: Error>(for key: String, _ make: () throws(Failure) -> Value) throws(Failure) -> Value {
        if let value = values.withLock({ $0[key] }) { return value }
        let value = try make()
        values.withLock { values in
            if values.count >= capacity { values.removeAll(keepingCapacity: true) }
            values[key] = value
        }
        return value
    }
}
