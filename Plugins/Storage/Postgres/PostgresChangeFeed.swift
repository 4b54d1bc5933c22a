import CLibPQ
import Foundation
import StorageCore

/// Other processes' commits to one app id, read from the change log on a thread of its own: woken by
/// `LISTEN jsbridge_storage`, it reads the rows after the last change number it delivered, so a feed that
/// lost its connection reads what it missed once it is back, and reports each change once.
final class PostgresChangeFeed: @unchecked Sendable {
    private let url: PostgresURL
    private let appID: String
    private let writer: String
    private let report: @Sendable ([StorageChange]) -> Void
    private let lock = NSLock()
    private var stopped = false
    // Only the feed's thread touches these after init.
    private var connection: PGConnection?
    private var lastSeq: Int64

    /// Connects and starts after the app's current change number; throws when the server cannot be reached.
    init(
        url: PostgresURL, appID: String, writer: String, report: @escaping @Sendable ([StorageChange]) -> Void
    ) throws(PGFailure) {
        self.url = url
        self.appID = appID
        self.writer = writer
        self.report = report
        let connection = try PGConnection(parameters: PostgresKeyValueStore.parameters(url, connectTimeout: 5))
        try connection.execute("LISTEN \(PostgresSchema.channel)")
        let rows = try connection.query("SELECT seq FROM jsbridge_storage_apps WHERE app = $1", [.text(appID)])
        lastSeq = rows.count > 0 ? rows.int64(0, 0) ?? 0 : 0
        self.connection = connection
        let thread = Thread { [self] in run() }
        thread.name = "jsbridge-storage-feed"
        thread.start()
    }

    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func run() {
        while !isStopped {
            do throws(PGFailure) {
                if connection == nil {
                    let fresh = try PGConnection(parameters: PostgresKeyValueStore.parameters(url, connectTimeout: 2))
                    try fresh.execute("LISTEN \(PostgresSchema.channel)")
                    connection = fresh
                    try catchUp()
                }
                guard let connection else { continue }
                var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, 250)
                // Notifications that arrived during the last catch-up's query are already queued in libpq
                // (the socket is not readable for them): read the queue again until a catch-up finds it empty.
                var pending = ready > 0 ? try connection.notifications().contains(appID) : false
                while pending {
                    try catchUp()
                    pending = try connection.notifications().contains(appID)
                }
            } catch {
                connection = nil
                if !isStopped { Thread.sleep(forTimeInterval: 0.2) }
            }
        }
        connection = nil
    }

    /// Delivers the log's rows after `lastSeq`, a page at a time.
    private func catchUp() throws(PGFailure) {
        guard let connection else { return }
        while true {
            let rows = try connection.query(
                """
                SELECT seq, grp, key, value, writer FROM jsbridge_storage_changes
                WHERE app = $1 AND seq > $2 ORDER BY seq LIMIT 1000
                """, name: "feed", [.text(appID), .int8(lastSeq)])
            var changes: [StorageChange] = []
            for row in 0..<rows.count {
                lastSeq = rows.int64(row, 0) ?? lastSeq
                guard rows.string(row, 4) != writer else { continue }
                changes.append(
                    StorageChange(
                        group: StorageText.string(rows.bytes(row, 1) ?? []),
                        key: rows.bytes(row, 2).map { StorageText.string($0) },
                        value: rows.bytes(row, 3).map { StorageText.string($0) }, origin: .external))
            }
            if !changes.isEmpty, !isStopped { report(changes) }
            if rows.count < 1000 { return }
        }
    }
}

extension PostgresKeyValueStore: ExternalChangeSource {
    public func observeExternal(_ observer: @escaping @Sendable ([StorageChange]) -> Void) throws(StorageError)
        -> StorageObservation
    {
        do throws(PGFailure) {
            let feed = try PostgresChangeFeed(url: url, appID: appID, writer: writer, report: observer)
            return StorageObservation { feed.stop() }
        } catch {
            throw .unavailable(host: url.host, message: url.scrub(error.message))
        }
    }
}
