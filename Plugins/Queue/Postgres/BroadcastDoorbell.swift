import Foundation
import JSBridgeBase
import QueueCore
import StoragePostgres

/// `LISTEN jsbridge_broadcast` on a connection and a thread of its own, ringing the registered doorbells when
/// a post of this app id commits (and after every reconnection, when posts may have been missed), so readers
/// read the log at once instead of at their next poll. The log stays the truth: a lost notification only
/// delays a message to the next poll.
final class BroadcastDoorbell: Sendable {
    static let channel = "jsbridge_broadcast"

    private let watch: DoorbellWatch

    init(url: PostgresURL, appID: String) {
        watch = DoorbellWatch(threadName: "jsbridge-broadcast-doorbell") { watch in
            BroadcastDoorbell.listen(url, appID, watch)
        }
    }

    /// Registers `doorbell`; the result unregisters it.
    func add(_ doorbell: Doorbell) -> @Sendable () -> Void { watch.add(doorbell) }

    private static func listen(_ url: PostgresURL, _ appID: String, _ watch: DoorbellWatch) {
        var connection: PGConnection?
        while watch.isWanted {
            do throws(PGFailure) {
                if connection == nil {
                    let fresh = try PGConnection(parameters: PostgresKeyValueStore.parameters(url, connectTimeout: 2))
                    try fresh.execute("LISTEN \(Self.channel)")
                    connection = fresh
                    watch.ringAll()
                }
                guard let live = connection else { continue }
                var descriptor = pollfd(fd: live.socket, events: Int16(POLLIN), revents: 0)
                if poll(&descriptor, 1, 250) > 0, try live.notifications().contains(appID) { watch.ringAll() }
            } catch {
                connection = nil
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }
}
