import Foundation
import JSBridgeTesting
import Testing

@testable import StorageCore
@testable import StoragePlugin

/// The domain core alone, the conformance suite of the backends: every store must behave the same.
@Suite(.blocking) struct KeyValueStoreTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, memory, postgres
        var testDescription: String { rawValue }
    }

    static func makeStore(_ kind: Kind, quota: Int? = nil) throws -> any KeyValueStore {
        switch kind {
        case .sqlite:
            try SQLiteKeyValueStore(
                directory: TemporaryDirectory.make(prefix: "storage-core"), appID: "app", quotaBytes: quota)
        case .memory:
            InMemoryKeyValueStore(quotaBytes: quota)
        case .postgres:
            // One database for the suite; each store its own app id, as isolated as separate databases.
            try PostgresKeyValueStore(
                url: PostgresURL(try SharedPostgres.url), appID: "app-\(UUID().uuidString)", quotaBytes: quota)
        }
    }

    @Test(arguments: Kind.allCases) func basics(_ kind: Kind) throws {
        let store = try Self.makeStore(kind)
        #expect(try store.get("a", in: "g") == nil)
        try store.set("b", "2", in: "g")
        try store.set("a", "1", in: "g")
        try store.set("a", "x", in: "other")
        try store.set("é", "3", in: "g")
        try store.set("", "empty key", in: "g")
        #expect(try store.get("a", in: "g") == "1")
        #expect(try store.get("a", in: "other") == "x")
        #expect(try store.keys(in: "g") == ["", "a", "b", "é"])
        #expect(try store.entries(in: "g").map(\.value) == ["empty key", "1", "2", "3"])
        #expect(try store.count(in: "g") == 4)
        #expect(try store.key(at: 1, in: "g") == "a")
        #expect(try store.key(at: 4, in: "g") == nil)
        #expect(try store.key(at: -1, in: "g") == nil)
        #expect(try store.groups() == ["g", "other"])
        try store.remove("a", in: "g")
        try store.remove("missing", in: "g")
        #expect(try store.get("a", in: "g") == nil)
        try store.clear("g")
        #expect(try store.keys(in: "g") == [])
        #expect(try store.get("a", in: "other") == "x")
        #expect(try store.usedBytes() == 2)
    }

    /// The SQLite store binds a statement's group again only when it changes: calls that switch groups on
    /// every statement answer as the in-memory store does.
    @Test func switchingGroupsOnEveryCallMatchesTheMemoryStore() throws {
        let sqlite = try Self.makeStore(.sqlite)
        let memory = try Self.makeStore(.memory)
        let groups = ["", "g", "g2", "é", "\u{FFFF}D800", String(repeating: "long", count: 300)]
        var generator = SystemRandomNumberGenerator()
        func answers(_ store: any KeyValueStore, _ step: Int, _ group: String, _ key: String) throws -> String {
            switch step % 7 {
            case 0: try store.set(key, "v\(step)", in: group)
            case 1: try store.remove(key, in: group)
            case 2 where step % 5 == 0: try store.clear(group)
            default: break
            }
            return [
                try store.get(key, in: group) ?? "nil", "\(try store.keys(in: group))", "\(try store.count(in: group))",
                try store.key(at: 0, in: group) ?? "nil", "\(try store.entries(in: group).map(\.value))",
            ].joined(separator: "|")
        }
        for step in 0..<400 {
            let group = groups.randomElement(using: &generator)!
            let key = ["a", "b", "c", "é"].randomElement(using: &generator)!
            let expected = try answers(memory, step, group, key)
            #expect(try answers(sqlite, step, group, key) == expected, "step \(step) group \(group.prefix(8))")
        }
        #expect(try sqlite.groups() == memory.groups())
        #expect(try sqlite.usedBytes() == memory.usedBytes())
    }

    @Test(arguments: Kind.allCases) func exactText(_ kind: Kind) throws {
        let store = try Self.makeStore(kind)
        let values = [
            "", "nul\u{0}inside", "emoji 🎉👩‍👩‍👧", "日本語", "\u{FFFF}\u{10FFFF}", String(repeating: "x", count: 100_000),
        ]
        for (index, value) in values.enumerated() { try store.set("k\(index)", value, in: "g") }
        for (index, value) in values.enumerated() { #expect(try store.get("k\(index)", in: "g") == value) }
        // Keys that are canonically equivalent but different bytes stay distinct in the databases.
        if kind != .memory {
            try store.set("caf\u{E9}", "composed", in: "n")
            try store.set("cafe\u{301}", "decomposed", in: "n")
            #expect(try store.count(in: "n") == 2)
        }
    }

    @Test(arguments: Kind.allCases) func atomicBatchAndQuota(_ kind: Kind) throws {
        let store = try Self.makeStore(kind, quota: 100)
        try store.apply([
            .set(group: "g", key: "a", value: String(repeating: "1", count: 40)),
            .set(group: "g", key: "b", value: "2"),
        ])
        #expect(try store.usedBytes() == 43)
        // Over the quota: nothing of the batch is written.
        #expect(throws: StorageError.quotaExceeded(quotaBytes: 100, usedBytes: 43, requiredBytes: 60)) {
            try store.apply([
                .remove(group: "g", key: "b"), .set(group: "g", key: "c", value: String(repeating: "3", count: 61)),
            ])
        }
        #expect(try store.get("b", in: "g") == "2")
        #expect(try store.get("c", in: "g") == nil)
        #expect(try store.usedBytes() == 43)
        // Replacing a value counts only the difference; shrinking is always allowed.
        try store.set("a", String(repeating: "1", count: 97), in: "g")
        #expect(try store.usedBytes() == 100)
        try store.set("a", "small", in: "g")
        #expect(try store.usedBytes() == 8)
        try store.apply([.clear(group: "g"), .set(group: "h", key: "k", value: "v")])
        #expect(try store.usedBytes() == 2)
        #expect(try store.groups() == ["h"])
    }

    @Test(arguments: Kind.allCases) func observers(_ kind: Kind) throws {
        let store = try Self.makeStore(kind)
        let seen = Locked<[StorageChange]>([])
        let observation = store.observe { changes in seen.withLock { $0 += changes } }
        try store.apply([
            .set(group: "g", key: "a", value: "1"), .remove(group: "g", key: "a"), .remove(group: "g", key: "none"),
        ])
        try store.set("b", "2", in: "g")
        try store.clear("g")
        try store.clear("empty")
        observation.cancel()
        try store.set("c", "3", in: "g")
        #expect(
            seen.withLock { $0 } == [
                StorageChange(group: "g", key: "a", value: "1"), StorageChange(group: "g", key: "a", value: nil),
                StorageChange(group: "g", key: "b", value: "2"), StorageChange(group: "g", key: nil, value: nil),
            ])
    }

    @Test func twoConnectionsSeeEachOtherAndWatchPolls() throws {
        let directory = TemporaryDirectory.make(prefix: "storage-core")
        let one = try SQLiteKeyValueStore(directory: directory, appID: "shared")
        let two = try SQLiteKeyValueStore(directory: directory, appID: "shared")
        let watcher = ChangeWatcher(store: one)
        let local = Locked<[StorageChange]>([])
        _ = try watcher.watch(group: "g", key: nil) { changes in local.withLock { $0 += changes } }
        _ = try watcher.watch(group: "h", key: "k") { changes in local.withLock { $0 += changes } }
        #expect(try watcher.poll() == [])
        let version = try one.externalVersion()
        try two.set("a", "1", in: "g")
        try two.set("k", "v", in: "h")
        try two.set("other", "v", in: "h")
        #expect(try one.externalVersion() != version)
        #expect(try one.get("a", in: "g") == "1")
        #expect(
            try watcher.poll() == [
                StorageChange(group: "g", key: "a", value: "1", origin: .external),
                StorageChange(group: "h", key: "k", value: "v", origin: .external),
            ])
        #expect(try watcher.poll() == [])
        try one.set("b", "2", in: "g")  // local: reported through the observer, not by polling
        try one.set("z", "2", in: "unwatched")
        #expect(local.withLock { $0 } == [StorageChange(group: "g", key: "b", value: "2")])
        try two.remove("a", in: "g")
        #expect(try watcher.poll() == [StorageChange(group: "g", key: "a", value: nil, origin: .external)])
        watcher.unwatchAll()
        #expect(watcher.isEmpty)
    }

    /// A link planted where the database goes (by a script granted `--allow-write` over the storage folder)
    /// is refused, not written through.
    @Test func aDatabaseThatIsASymlinkIsRefused() throws {
        let directory = TemporaryDirectory.make(prefix: "storage-link")
        let elsewhere = directory + "/elsewhere.sqlite"
        try SQLiteKeyValueStore(path: elsewhere).set("k", "v", in: "")
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/app.sqlite", withDestinationPath: elsewhere)
        #expect {
            try SQLiteKeyValueStore(directory: directory, appID: "app")
        } throws: { "\($0)".contains("is a symbolic link") }
    }

    @Test func appIDsAreIsolatedFiles() throws {
        let directory = TemporaryDirectory.make(prefix: "storage-core")
        let a = try SQLiteKeyValueStore(directory: directory, appID: "com.example.a")
        let b = try SQLiteKeyValueStore(directory: directory, appID: "com.example.b")
        let odd = try SQLiteKeyValueStore(directory: directory, appID: "/home/me/script.js")
        try a.set("k", "from a", in: "")
        try odd.set("k", "from odd", in: "")
        #expect(try b.get("k", in: "") == nil)
        try b.clear("")
        #expect(try a.get("k", in: "") == "from a")
        #expect(try odd.get("k", in: "") == "from odd")
        #expect(a.path == directory + "/com.example.a.sqlite")
        #expect(SQLiteKeyValueStore.safeFileName("/home/me/script.js").hasPrefix("home_me_script.js-"))
        #expect(SQLiteKeyValueStore.safeFileName("a/b") != SQLiteKeyValueStore.safeFileName("a_b"))
        #expect(SQLiteKeyValueStore.safeFileName("..") != "..")
    }

    @Test func corruptFileIsMovedAsideAndReported() throws {
        let directory = TemporaryDirectory.make(prefix: "storage-core")
        let path = SQLiteKeyValueStore.databasePath(directory: directory, appID: "broken")
        let garbage = Data(repeating: 0x42, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: path))
        var thrown: StorageError?
        do {
            _ = try SQLiteKeyValueStore(path: path)
        } catch {
            thrown = error
        }
        guard case .corrupt(let reported, let movedTo?, _)? = thrown else {
            Issue.record("expected a corrupt error, got \(String(describing: thrown))")
            return
        }
        #expect(reported == path)
        #expect(movedTo.hasPrefix(path + ".corrupt-"))
        #expect(FileManager.default.contents(atPath: movedTo) == garbage)  // kept, byte for byte
        #expect(thrown?.description.contains(path) == true)
        // The next open starts a new database; the damaged file stays where it was moved.
        let fresh = try SQLiteKeyValueStore(path: path)
        try fresh.set("k", "v", in: "")
        #expect(FileManager.default.fileExists(atPath: movedTo))
    }

    @Test func durabilityFullWorks() throws {
        let store = try SQLiteKeyValueStore(
            directory: TemporaryDirectory.make(prefix: "storage-core"), appID: "full", durability: .full)
        try store.set("k", "v", in: "g")
        #expect(try store.get("k", in: "g") == "v")
        store.close()
        #expect(throws: StorageError.self) { try store.get("k", in: "g") }
    }
}
