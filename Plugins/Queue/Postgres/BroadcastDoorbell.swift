import Foundation
import JSBridgeBase
import QueueCore
import StoragePostgres

/// `LISTEN jsbridge_broadcast` on a connection and a thread of its own, ringing the registered doorbells when
/// a post of this app id commits (and after every reconnection, when posts may have been missed), so readers
/// read the log at once instead of at their next poll. The log stays the truth: a lost notification only
/// delays a message to the next poll.
final class BroadcastDoorbell: @unchecked Sendable {
    static let channel = "jsbridge_broadcast"

    private let url: PostgresURL
    private let appID: String
    private let doorbells = Locked<[UInt64: Doorbell]>([:])
    private let nextID = Locked<UInt64>(0)
    private let running = Locked(false)

    init(url: PostgresURL, appID: String) {
        self.url = url
        self.appID = appID
    }

    /// Registers `doorbell` (starting the listening thread with the first one); the result unregisters it.
    func add(_ doorbell: Doorbell) -> @Sendable () -> Void {
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
            let thread = Thread { [self] in run() }
            thread.name = "jsbridge-broadcast-doorbell"
            thread.start()
        }
        return { [weak self] in _ = self?.doorbells.withLock { $0.removeValue(forKey: id) } }
    }

    private func ringAll() {
        for doorbell in doorbells.withLock({ Array($0.values) }) { doorbell.ring() }
    }

    private func run() {
        var connection: PGConnection?
        while true {
            // The thread ends with its last doorbell (a later one starts another).
            let idle = running.withLock { running -> Bool in
                if doorbells.withLock({ $0.isEmpty }) {
                    running = false
                    return true
                }
                return false
            }
            if idle { return }
            do throws(PGFailure) {
                if connection == nil {
                    let fresh = try PGConnection(parameters: PostgresKeyValueStore.parameters(url, connectTimeout: 2))
                    try fresh.execute("LISTEN \(Self.channel)")
                    connection = fresh
                    ringAll()
                }
                guard let live = connection else { continue }
                var descriptor = pollfd(fd: live.socket, events: Int16(POLLIN), revents: 0)
                if poll(&descriptor, 1, 250) > 0, try live.notifications().contains(appID) { ringAll() }
            } catch {
                connection = nil
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }
}
