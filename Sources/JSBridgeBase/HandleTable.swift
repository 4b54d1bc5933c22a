/// Things a plugin lends a script by number — open files, bodies being read or written, staged text, responses
/// waiting for their validation: the script holds the number, the table the thing.
///
/// Handles count up from 1 and are never reused, so a stale one finds nothing rather than another's resource.
/// With a `limit`, keeping one more drops the oldest (for tables whose entries a script may never claim). The
/// table is safe to use from any thread.
public final class HandleTable<Resource: Sendable>: Sendable {
    private struct State {
        var next = 1
        /// No live handle is below this one (where dropping the oldest looks first).
        var oldest = 1
        var entries: [Int: Resource] = [:]
    }

    private let state = Locked(State())
    /// The most entries kept; past it, the oldest is dropped.
    public let limit: Int?

    public init(limit: Int? = nil) {
        self.limit = limit
    }

    /// Keeps `resource`; its handle.
    public func insert(_ resource: Resource) -> Int {
        let (handle, dropped) = state.withLock { state -> (Int, Resource?) in
            let handle = state.next
            state.next += 1
            state.entries[handle] = resource
            guard let limit, state.entries.count > limit else { return (handle, nil) }
            while state.entries[state.oldest] == nil { state.oldest += 1 }
            return (handle, state.entries.removeValue(forKey: state.oldest))
        }
        // Released outside the lock: releasing a resource may run its owner's clean-up.
        withExtendedLifetime(dropped) {}
        return handle
    }

    /// The resource of `handle`, or nil.
    public subscript(handle: Int) -> Resource? {
        state.withLock { $0.entries[handle] }
    }

    /// Changes the resource of `handle` in place; false when there is none.
    @discardableResult
    public func update(_ handle: Int, _ body: (inout Resource) -> Void) -> Bool {
        state.withLock { state in
            guard var resource = state.entries.removeValue(forKey: handle) else { return false }
            body(&resource)
            state.entries[handle] = resource
            return true
        }
    }

    /// Forgets `handle`; its resource, or nil.
    @discardableResult
    public func remove(_ handle: Int) -> Resource? {
        state.withLock { $0.entries.removeValue(forKey: handle) }
    }

    /// Forgets every handle; their resources (to close them).
    public func removeAll() -> [Resource] {
        state.withLock { state in
            defer { state.entries.removeAll() }
            return Array(state.entries.values)
        }
    }

    /// How many handles are live.
    public var count: Int { state.withLock { $0.entries.count } }
}
