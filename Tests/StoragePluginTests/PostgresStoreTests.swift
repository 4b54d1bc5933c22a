import Foundation
import JSBridgeTesting
import StoragePluginTesting
import Testing

@testable import StorageCore
@testable import StoragePostgres

/// What only the PostgreSQL store has: sharing between connections, the change feed, the schema lock,
/// connection failures and server restarts. (Its behaviour as a store is in ``KeyValueStoreTests``.)
@Suite(.blocking) struct PostgresStoreTests {
    static func store(_ appID: String, quota: Int? = nil, url: String? = nil, wait: Duration = .seconds(10)) throws
        -> PostgresKeyValueStore
    {
        try PostgresKeyValueStore(
            url: PostgresURL(url ?? SharedPostgres.url), appID: appID, quotaBytes: quota, unavailableWait: wait)
    }

    /// Waits up to `timeout` for `condition`.
    static func eventually(_ timeout: Duration = .seconds(60), _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return try condition()
    }

    @Test func twoStoresShareDataAndTheFeedReportsEveryExternalChangeOnce() throws {
        let app = "shared-\(UUID().uuidString)"
        let one = try Self.store(app)
        let two = try Self.store(app)
        let seen = Locked<[StorageChange]>([])
        let watcher = FeedChangeWatcher(store: one) { changes in seen.withLock { $0 += changes } }
        _ = try watcher.watch(group: "g", key: nil)
        _ = try watcher.watch(group: "h", key: "k")
        try two.set("a", "1", in: "g")
        try two.set("a", "2", in: "g")  // a second change of the same key is a second event, not a diff
        try two.set("k", "v", in: "h")
        try two.set("other", "v", in: "h")  // not watched
        try two.apply([.remove(group: "g", key: "a"), .remove(group: "g", key: "never")])
        try one.set("b", "local", in: "g")
        try two.clear("g")
        #expect(try one.get("k", in: "h") == "v")
        let expected = [
            StorageChange(group: "g", key: "a", value: "1", origin: .external),
            StorageChange(group: "g", key: "a", value: "2", origin: .external),
            StorageChange(group: "h", key: "k", value: "v", origin: .external),
            StorageChange(group: "g", key: "a", value: nil, origin: .external),
            StorageChange(group: "g", key: "b", value: "local", origin: .local),
            StorageChange(group: "g", key: nil, value: nil, origin: .external),
        ]
        // A last external write: the feed reports in commit order, so once it is in, every change before it
        // has been reported — and a duplicate would be there too.
        let marker = StorageChange(group: "g", key: "marker", value: "end", origin: .external)
        try two.set("marker", "end", in: "g")
        #expect(Self.eventually { seen.withLock { $0.contains(marker) } })
        // Local changes are reported as they commit, external ones in commit order as the feed reads them.
        #expect(
            seen.withLock { $0.filter { $0.origin == .external } }
                == expected.filter { $0.origin == .external } + [marker])
        #expect(seen.withLock { $0.filter { $0.origin == .local } } == expected.filter { $0.origin == .local })
        // After stop, nothing: a second watcher, still running, shows when the change would have arrived.
        watcher.stop()
        let witness = Locked<[StorageChange]>([])
        let second = FeedChangeWatcher(store: one) { changes in witness.withLock { $0 += changes } }
        _ = try second.watch(group: "g", key: nil)
        try two.set("after", "stop", in: "g")
        #expect(Self.eventually { witness.withLock { $0.contains { $0.key == "after" } } })
        second.stop()
        #expect(seen.withLock { $0.count } == expected.count + 1)
    }

    @Test func appIDsAreIsolated() throws {
        let a = try Self.store("iso-a-\(UUID().uuidString)")
        let b = try Self.store("iso-b-\(UUID().uuidString)", quota: 10)
        try a.set("k", String(repeating: "x", count: 100), in: "")
        #expect(try b.get("k", in: "") == nil)
        #expect(try b.groups() == [])
        #expect(try b.usedBytes() == 0)
        try b.set("k", "small", in: "")  // a's bytes do not count against b's quota
        try b.clear("")
        #expect(try a.get("k", in: "") == String(repeating: "x", count: 100))
    }

    /// Writers on separate connections (as on separate hosts) race for the last bytes of one quota: the app
    /// row lock admits exactly as many as fit.
    @Test func quotaHoldsAcrossConcurrentWriters() async throws {
        let app = "quota-\(UUID().uuidString)"
        let stores = try (0..<4).map { _ in try Self.store(app, quota: 1000) }
        let accepted = Locked(0)
        let refused = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    for i in 0..<20 {
                        do {
                            // 4-byte key + 46-byte value = 50 bytes: 20 writes fit in 1000.
                            try store.set(
                                String(format: "%d%03d", index, i), String(repeating: "v", count: 46), in: "g")
                            accepted.withLock { $0 += 1 }
                        } catch StorageError.quotaExceeded {
                            refused.withLock { $0 += 1 }
                        } catch {
                            Issue.record("unexpected \(error)")
                        }
                    }
                }
            }
        }
        #expect(accepted.withLock { $0 } == 20)
        #expect(refused.withLock { $0 } == 60)
        #expect(try stores[0].usedBytes() == 1000)
        #expect(try stores[0].count(in: "g") == 20)
    }

    /// Many processes opening a fresh database at once: the advisory lock lets one create the schema.
    @Test func concurrentFirstOpensCreateTheSchemaOnce() async throws {
        let cluster = try SharedPostgres.cluster
        let database = "fresh_\(UUID().uuidString.prefix(8).lowercased())"
        let url = try cluster.createDatabase(database)
        let results = await withTaskGroup(of: String?.self) { group in
            for index in 0..<8 {
                group.addTask {
                    do {
                        let store = try Self.store("app\(index)", url: url)
                        try store.set("k", "v", in: "")
                        return nil
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: [String]()) { if let error = $1 { $0.append(error) } }
        }
        #expect(results == [])
        #expect(try cluster.psql(database, "SELECT count(*) FROM jsbridge_storage_schema") == "1\n")
        #expect(try cluster.psql(database, "SELECT count(*) FROM jsbridge_storage_apps") == "8\n")
    }

    @Test func badCredentialsAndUnknownDatabaseAreRejectedWithoutThePassword() throws {
        let cluster = try SharedPostgres.cluster
        _ = try SharedPostgres.url
        let wrong = cluster.url(database: "storage", password: "not-the-password-123")
        #expect {
            try Self.store("x", url: wrong)
        } throws: { error in
            guard case StorageError.rejected(let host, let message) = error else { return false }
            return host == "127.0.0.1:\(cluster.port)" && message.contains("password authentication failed")
                && !"\(error)".contains("not-the-password-123")
        }
        #expect {
            try Self.store("x", url: cluster.url(database: "no_such_database"))
        } throws: { error in
            guard case StorageError.rejected(_, let message) = error else { return false }
            return message.contains("no_such_database") && !"\(error)".contains(TestPostgresCluster.password)
        }
    }

    @Test func unreachableServerFailsAfterTheWait() throws {
        // A port nothing listens on: refused at once, retried until the wait is over.
        let url = "postgres://u:secret-pw@127.0.0.1:1/db"
        let start = ContinuousClock.now
        #expect {
            try Self.store("x", url: url, wait: .milliseconds(600))
        } throws: { error in
            guard case StorageError.unavailable(let host, _) = error else { return false }
            return host == "127.0.0.1:1" && !"\(error)".contains("secret-pw")
        }
        // It waited its own 600 ms, not the default 10 s.
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(600) && elapsed < .seconds(10))
    }

    @Test func urlsAreCheckedWithoutRepeatingThePassword() {
        #expect(throws: PostgresURLError.self) { try PostgresURL("mysql://u:pw@h/db") }
        #expect(throws: PostgresURLError.self) { try PostgresURL("postgres://u:pw@h") }
        #expect(throws: PostgresURLError.self) { try PostgresURL("postgres://h/db") }
        // Ports outside 1–65535 (99999 used to be taken, as 0 was, and read as no port or port 0).
        for port in ["0", "99999", "65536", "00000000000000000005432"] {
            #expect(throws: PostgresURLError.self) { try PostgresURL("postgres://u:pw@h:\(port)/db") }
        }
        #expect((try? PostgresURL("postgres://u@h:65535/db"))?.host == "h:65535")
        do {
            _ = try PostgresURL("postgres://u:hunter2@h/db?evil=1")
            Issue.record("accepted an unknown parameter")
        } catch {
            #expect(!error.reason.contains("hunter2"))
        }
        let url = try? PostgresURL("postgresql://me:pw@db.example:6543/app?sslmode=require")
        #expect(url?.host == "db.example:6543")
        #expect(url?.redacted == "postgres://me@db.example:6543/app")
    }
}

/// A server killed and restarted under a live store and feed (a cluster of its own).
@Suite(.serialized, .blocking) struct PostgresRestartTests {
    @Test func storeAndFeedReconnectAfterKillNine() throws {
        let cluster = try TestPostgresCluster.start()
        defer { try? cluster.stop() }
        let url = try cluster.createDatabase("restart")
        let app = "restart"
        let store = try PostgresStoreTests.store(app, url: url, wait: .milliseconds(500))
        let other = try PostgresStoreTests.store(app, url: url, wait: .seconds(10))
        let seen = Locked<[StorageChange]>([])
        let watcher = FeedChangeWatcher(store: store) { changes in seen.withLock { $0 += changes } }
        _ = try watcher.watch(group: "g", key: nil)
        try other.set("before", "1", in: "g")
        #expect(PostgresStoreTests.eventually { seen.withLock { $0.count } == 1 })

        try cluster.kill9()
        // During the outage: the call waits its 500 ms, then fails with the host and no password.
        #expect {
            try store.get("before", in: "g")
        } throws: { error in
            guard case StorageError.unavailable(let host, _) = error else { return false }
            return host == "127.0.0.1:\(cluster.port)" && !"\(error)".contains(TestPostgresCluster.password)
        }
        try cluster.restart()
        // After the restart: the same store works again (each try waits its 500 ms; a loaded machine may need
        // more than one to reconnect), and the acknowledged write is there.
        #expect(PostgresStoreTests.eventually(.seconds(60)) { (try? store.get("before", in: "g")) == "1" })
        try other.set("after", "2", in: "g")
        try other.set("after", "3", in: "g")
        // The feed reports in commit order: with the last write in, every earlier one is (once).
        let last = StorageChange(group: "g", key: "after", value: "3", origin: .external)
        #expect(PostgresStoreTests.eventually { seen.withLock { $0.contains(last) } })
        #expect(
            seen.withLock { $0 } == [
                StorageChange(group: "g", key: "before", value: "1", origin: .external),
                StorageChange(group: "g", key: "after", value: "2", origin: .external),
                last,
            ])
        watcher.stop()
    }
}
