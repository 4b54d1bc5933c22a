import Foundation
import JSBridgeBase

/// The doorbells registered with one watcher (a file, a LISTEN connection), and the thread that watches while
/// any is registered: it starts with the first doorbell and ends soon after the last one leaves (a later one
/// starts another).
package final class DoorbellWatch: Sendable {
    private let doorbells = Locked<[UInt64: Doorbell]>([:])
    private let nextID = Locked<UInt64>(0)
    private let running = Locked(false)
    private let threadName: String
    private let watch: @Sendable (DoorbellWatch) -> Void

    /// `watch` runs on the thread: it loops while ``isWanted``, calls ``ringAll()`` on news, and waits at most
    /// a fraction of a second at a time, so that the thread ends soon after the last doorbell left.
    package init(threadName: String, watch: @escaping @Sendable (DoorbellWatch) -> Void) {
        self.threadName = threadName
        self.watch = watch
    }

    /// Registers `doorbell` (starting the thread with the first one); the result unregisters it.
    package func add(_ doorbell: Doorbell) -> @Sendable () -> Void {
        let id = nextID.withLock { id -> UInt64 in
            id += 1
            return id
        }
        doorbells.withLock { $0[id] = doorbell }
        let start = running.withLock { running -> Bool in
            defer { running = true }
            return !running
        }
        if start {
            let thread = Thread { [self] in watch(self) }
            thread.name = threadName
            thread.start()
        }
        return { [weak self] in _ = self?.doorbells.withLock { $0.removeValue(forKey: id) } }
    }

    /// Rings every registered doorbell.
    package func ringAll() {
        for doorbell in doorbells.withLock({ Array($0.values) }) { doorbell.ring() }
    }

    /// Whether a doorbell is still registered; false also marks the thread as ended (the caller returns).
    package var isWanted: Bool {
        running.withLock { running -> Bool in
            if doorbells.withLock({ $0.isEmpty }) {
                running = false
                return false
            }
            return true
        }
    }
}
