import Foundation
import JSBridgeBase

/// Rings the registered doorbells whenever a file changes (inotify `IN_MODIFY`), on a thread of its own: the
/// SQLite store watches its `-wal` file, which every commit of any process on the machine writes, so
/// broadcast readers read the log at once instead of at their next poll. Changes that are not posts (job
/// commits) only cost a read that finds nothing; a missed change delays a message to the next poll.
final class FileDoorbell: Sendable {
    private let watch: DoorbellWatch

    init(path: String) {
        watch = DoorbellWatch(threadName: "jsbridge-broadcast-file") { watch in FileDoorbell.watchFile(path, watch) }
    }

    /// Registers `doorbell`; the result unregisters it.
    func add(_ doorbell: Doorbell) -> @Sendable () -> Void { watch.add(doorbell) }

    private static func watchFile(_ path: String, _ watch: DoorbellWatch) {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        defer { if fd >= 0 { Glibc.close(fd) } }
        var watching = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while watch.isWanted {
            guard fd >= 0 else {
                Thread.sleep(forTimeInterval: 0.25)
                continue
            }
            if !watching {
                // The file appears with the first commit; until then, readers poll.
                watching = inotify_add_watch(fd, path, UInt32(IN_MODIFY)) >= 0
                if watching { watch.ringAll() }
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 250) > 0 {
                var changed = false
                while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 { changed = true }
                if changed {
                    watch.ringAll()
                    // A commit writes its frames before the commit frame: a reader woken by the first write can
                    // read before the commit is visible. A second ring a moment later catches that commit.
                    Thread.sleep(forTimeInterval: 0.003)
                    watch.ringAll()
                }
            } else if !watching {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }
}
