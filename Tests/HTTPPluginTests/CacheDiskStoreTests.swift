import Foundation
import HTTPPlugin
import JSBridgeCore
import JSBridgeTesting
import Testing

/// `DiskHTTPCacheStore` on real files in a temporary directory.
@Suite(.blocking) struct CacheDiskStoreTests {
    let clock = ManualClock()
    let directory = TemporaryDirectory.make(prefix: "jsbridge-cache")

    func entry(_ key: String, url: String = "http://h/x", body: [UInt8] = Array("body".utf8)) -> HTTPCacheEntry {
        HTTPCacheEntry(
            key: key, url: url, method: "GET", status: 200, statusText: "OK",
            headers: [HTTPField("Content-Type", "text/plain"), HTTPField("ETag", "\"1\"")], responseURL: url,
            body: body, varyValues: ["accept": "text/plain"], requestTime: clock.now(), responseTime: clock.now(),
            storedAt: clock.now())
    }

    func entryFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".entry") }
    }

    @Test func defaultDirectoryIsPerApp() {
        #expect(
            DiskHTTPCacheStore.defaultDirectory(for: StorageLocation(appID: "my-app.1", directory: "/data/jsbridge/"))
                == "/data/jsbridge/my-app.1.http-cache")
        let odd = DiskHTTPCacheStore.defaultDirectory(for: StorageLocation(appID: "../x/y", directory: "/d"))
        #expect(odd.hasPrefix("/d/x_y-") && odd.hasSuffix(".http-cache") && !odd.contains(".."))
        #expect(odd != DiskHTTPCacheStore.defaultDirectory(for: StorageLocation(appID: "../x/z", directory: "/d")))
    }

    @Test func roundTripAndReopen() async throws {
        let store = try DiskHTTPCacheStore(directory: directory, clock: clock)
        let original = entry("GET http://h/x", body: Array(0...255))
        try await store.store(original)
        #expect(await store.entry(forKey: "GET http://h/x") == original)
        #expect(await store.entry(forKey: "GET http://h/y") == nil)
        let reopened = try DiskHTTPCacheStore(directory: directory, clock: clock)
        #expect(await reopened.entry(forKey: "GET http://h/x") == original)
        // Replacing keeps one file.
        var changed = original
        changed.body = Array("new".utf8)
        try await reopened.store(changed)
        #expect(await store.entry(forKey: "GET http://h/x")?.body == Array("new".utf8))
        #expect(entryFiles().count == 1)
        #expect(store.usage().entries == 1)
        await store.removeEntry(forKey: "GET http://h/x")
        #expect(await store.entry(forKey: "GET http://h/x") == nil)
        #expect(entryFiles().isEmpty)
    }

    /// The cache reads only its own files: an entry file replaced by a link (to a valid entry elsewhere) is
    /// a miss, and the link's target is left alone.
    @Test func anEntryFileReplacedByALinkIsNotFollowed() async throws {
        let store = try DiskHTTPCacheStore(directory: directory, clock: clock)
        try await store.store(entry("GET http://h/x"))
        let name = try #require(entryFiles().first)
        let outside = TemporaryDirectory.make(prefix: "jsbridge-cache-outside") + "/planted"
        try FileManager.default.moveItem(atPath: directory + "/" + name, toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: directory + "/" + name, withDestinationPath: outside)
        #expect(await store.entry(forKey: "GET http://h/x") == nil)
        #expect(FileManager.default.fileExists(atPath: outside))
    }

    @Test func leastRecentlyUsedEntriesAreEvictedUnderTheCap() async throws {
        let size = try await diskSize(of: entry("k0", body: [UInt8](repeating: 7, count: 1000)))
        // Room for five entries.
        let store = try DiskHTTPCacheStore(directory: directory, sizeLimit: size * 5 + size / 2, clock: clock)
        for i in 0..<5 {
            try await store.store(entry("k\(i)", body: [UInt8](repeating: 7, count: 1000)))
            clock.advance(by: .seconds(1))
        }
        #expect(store.usage().entries == 5)
        // Use k0 so that k1 is now the least recently used.
        #expect(await store.entry(forKey: "k0") != nil)
        clock.advance(by: .seconds(1))
        try await store.store(entry("k5", body: [UInt8](repeating: 7, count: 1000)))
        // Over the cap: evicted down to 90% of it (four entries fit) — k1 and k2 went, k0 stayed.
        #expect(store.usage().bytes <= size * 5 + size / 2)
        #expect(await store.entry(forKey: "k1") == nil)
        #expect(await store.entry(forKey: "k2") == nil)
        for key in ["k0", "k3", "k4", "k5"] {
            #expect(await store.entry(forKey: key) != nil, "\(key)")
            clock.advance(by: .seconds(1))  // distinct last-use times: k0 < k3 < k4 < k5
        }

        // The use order survives reopening: a smaller cap keeps the two most recently used (k5, then k3).
        _ = await store.entry(forKey: "k3")
        let reopened = try DiskHTTPCacheStore(directory: directory, sizeLimit: size * 2 + size / 2, clock: clock)
        #expect(reopened.usage().entries == 2)
        // Opening also dropped the index markers of evicted entries.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/index").count == 2)
        #expect(await reopened.entry(forKey: "k3") != nil)
        #expect(await reopened.entry(forKey: "k5") != nil)
        #expect(await reopened.entry(forKey: "k0") == nil)

        // An entry larger than the cap is not stored (and the older response of its key is dropped).
        try await reopened.store(entry("k3", body: [UInt8](repeating: 1, count: size * 3)))
        #expect(await reopened.entry(forKey: "k3") == nil)
    }

    @Test func expiredEntriesAreRemoved() async throws {
        let store = try DiskHTTPCacheStore(directory: directory, maxEntryAge: .seconds(100), clock: clock)
        try await store.store(entry("a"))
        clock.advance(by: .seconds(50))
        try await store.store(entry("b"))
        clock.advance(by: .seconds(51))
        // "a" was stored 101 s ago: a miss, and its file is gone; "b" (51 s) is served.
        #expect(await store.entry(forKey: "a") == nil)
        #expect(entryFiles().count == 1)
        #expect(await store.entry(forKey: "b") != nil)
        clock.advance(by: .seconds(50))
        // Opening the store sweeps without any read.
        _ = try DiskHTTPCacheStore(directory: directory, maxEntryAge: .seconds(100), clock: clock)
        #expect(entryFiles().isEmpty)
        // So does a store an hour after the last sweep.
        try await store.store(entry("c"))
        clock.advance(by: .seconds(3000))
        try await store.store(entry("d"))
        #expect(entryFiles().count == 2)
        clock.advance(by: .seconds(601))
        try await store.store(entry("e"))
        #expect(entryFiles().count == 1)
    }

    @Test func damagedFilesAreMissesAndRemoved() async throws {
        let store = try DiskHTTPCacheStore(directory: directory, clock: clock)
        try await store.store(entry("truncated", body: [UInt8](repeating: 3, count: 500)))
        try await store.store(entry("garbage"))
        try await store.store(entry("empty"))
        try await store.store(entry("intact"))
        let files = entryFiles()
        #expect(files.count == 4)
        // Find each key's file by content, then damage it.
        func file(of key: String) -> String {
            files.first { name in
                let data = FileManager.default.contents(atPath: directory + "/" + name) ?? Data()
                return String(decoding: data, as: UTF8.self).contains(key)
            }!
        }
        let truncated = directory + "/" + file(of: "truncated")
        let garbage = directory + "/" + file(of: "garbage")
        let empty = directory + "/" + file(of: "empty")
        let data = FileManager.default.contents(atPath: truncated)!
        try data.prefix(data.count - 100).write(to: URL(fileURLWithPath: truncated))
        try Data("not a cache entry at all".utf8).write(to: URL(fileURLWithPath: garbage))
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(await store.entry(forKey: "truncated") == nil)
        #expect(await store.entry(forKey: "garbage") == nil)
        #expect(await store.entry(forKey: "empty") == nil)
        #expect(!FileManager.default.fileExists(atPath: truncated))
        #expect(!FileManager.default.fileExists(atPath: garbage))
        #expect(!FileManager.default.fileExists(atPath: empty))
        #expect(await store.entry(forKey: "intact") != nil)
        // A garbage file and a stale temporary file found when opening are swept too.
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: directory + "/0123.entry"))
        let temporary = directory + "/.tmp-crashed"
        try Data([1]).write(to: URL(fileURLWithPath: temporary))
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: temporary)
        _ = try DiskHTTPCacheStore(directory: directory, clock: clock)
        #expect(entryFiles().count == 1)
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }

    @Test func invalidationByURLFindsEveryKeyOfTheURL() async throws {
        let store = try DiskHTTPCacheStore(directory: directory, clock: clock)
        try await store.store(entry("GET http://h/x", url: "http://h/x"))
        try await store.store(entry("custom", url: "http://h/x"))
        try await store.store(entry("GET http://h/y", url: "http://h/y"))
        try await store.store(entry("moved", url: "http://h/x"))
        try await store.store(entry("moved", url: "http://h/z"))  // the same key stored again for another URL
        await store.removeEntries(forURL: "http://h/x")
        #expect(await store.entry(forKey: "GET http://h/x") == nil)
        #expect(await store.entry(forKey: "custom") == nil)
        #expect(await store.entry(forKey: "GET http://h/y") != nil)
        #expect(await store.entry(forKey: "moved")?.url == "http://h/z")
        // Visible to another instance (another process) too.
        let other = try DiskHTTPCacheStore(directory: directory, clock: clock)
        try await other.store(entry("GET http://h/x", url: "http://h/x"))
        await store.removeEntries(forURL: "http://h/x")
        #expect(await other.entry(forKey: "GET http://h/x") == nil)
        await store.removeAll()
        #expect(entryFiles().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/index").isEmpty)
    }

    @Test func concurrentWritersFromTwoInstancesNeverCorruptEntries() async throws {
        let first = try DiskHTTPCacheStore(directory: directory, sizeLimit: 1 << 30, clock: clock)
        let second = try DiskHTTPCacheStore(directory: directory, sizeLimit: 1 << 30, clock: clock)
        let keys = (0..<8).map { "key\($0)" }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<64 {
                let store = writer % 2 == 0 ? first : second
                group.addTask {
                    for round in 0..<5 {
                        let key = keys[(writer + round) % keys.count]
                        // Each body is self-describing: 20 KB of one byte value, so a mix is detectable.
                        let body = [UInt8](repeating: UInt8(writer), count: 20_000)
                        try await store.store(entry(key, body: body))
                        if let read = await store.entry(forKey: keys[(writer + round + 1) % keys.count]) {
                            #expect(read.body.count == 20_000 && Set(read.body).count == 1)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        for key in keys {
            let read = await first.entry(forKey: key)
            #expect(read?.key == key)
            #expect(read?.body.count == 20_000 && Set(read?.body ?? []).count == 1)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(names.filter { $0.hasPrefix(".tmp-") }.isEmpty)
        #expect(entryFiles().count == keys.count)
    }

    /// Two child processes (this test binary, running ``cacheChildProcessWriter()``) and this one write the
    /// same keys in one directory at once.
    @Test func twoProcessesShareTheDirectory() async throws {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var children: [Process] = []
        for id in 0..<2 {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: executable)
            child.arguments = ["--testing-library", "swift-testing", "--filter", "cacheChildProcessWriter"]
            var environment = ProcessInfo.processInfo.environment
            environment["JSBRIDGE_CACHE_CHILD_DIR"] = directory
            environment["JSBRIDGE_CACHE_CHILD_ID"] = String(id + 1)
            environment["SWIFT_BACKTRACE"] = "enable=no"
            child.environment = environment
            child.standardOutput = FileHandle.nullDevice
            child.standardError = FileHandle.nullDevice
            try child.run()
            children.append(child)
        }
        let store = try DiskHTTPCacheStore(directory: directory, sizeLimit: 1 << 30, clock: clock)
        try await Self.writeAndCheck(store, writer: 0, keys: Self.sharedKeys)
        for child in children {
            let status = try await runBlocking {
                child.waitUntilExit()
                return child.terminationStatus
            }
            #expect(status == 0)
        }
        for key in Self.sharedKeys {
            let read = await store.entry(forKey: key)
            #expect(read?.key == key)
            #expect(read.map(Self.isConsistent) == true)
        }
        // Each process wrote its own key too, and all three are visible here.
        for writer in 0..<3 { #expect(await store.entry(forKey: "own\(writer)") != nil, "own\(writer)") }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(names.filter { $0.hasPrefix(".tmp-") }.isEmpty)
    }

    /// The child side of ``twoProcessesShareTheDirectory()`` (does nothing in a normal run).
    @Test func cacheChildProcessWriter() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let directory = environment["JSBRIDGE_CACHE_CHILD_DIR"],
            let writer = environment["JSBRIDGE_CACHE_CHILD_ID"].flatMap(Int.init)
        else { return }
        let store = try DiskHTTPCacheStore(directory: directory, sizeLimit: 1 << 30, clock: clock)
        try await Self.writeAndCheck(store, writer: writer, keys: Self.sharedKeys)
    }

    static let sharedKeys = (0..<6).map { "shared\($0)" }

    /// A body of one repeated byte, its length given by the byte: any mix of two writes is detectable.
    static func isConsistent(_ entry: HTTPCacheEntry) -> Bool {
        guard let first = entry.body.first else { return false }
        return entry.body.count == 10_000 + Int(first) && entry.body.allSatisfy { $0 == first }
            && entry.headers == [HTTPField("X-Writer", String(first))]
    }

    static func writeAndCheck(_ store: DiskHTTPCacheStore, writer: Int, keys: [String]) async throws {
        func make(_ key: String) -> HTTPCacheEntry {
            let byte = UInt8(writer)
            return HTTPCacheEntry(
                key: key, url: "http://h/" + key, method: "GET", status: 200, statusText: "OK",
                headers: [HTTPField("X-Writer", String(byte))], responseURL: "http://h/" + key,
                body: [UInt8](repeating: byte, count: 10_000 + Int(byte)), requestTime: Date(), responseTime: Date(),
                storedAt: Date())
        }
        try await store.store(make("own\(writer)"))
        for round in 0..<150 {
            let key = keys[(round + writer) % keys.count]
            try await store.store(make(key))
            if let read = await store.entry(forKey: keys[(round + writer + 1) % keys.count]) {
                #expect(isConsistent(read))
            }
            if round % 50 == 0 { await store.removeEntries(forURL: "http://h/" + keys[round % keys.count]) }
        }
    }

    @Test func concurrentStoresKeepTheCap() async throws {
        let body = [UInt8](repeating: 9, count: 2000)
        let size = try await diskSize(of: entry("k000", body: body))
        let limit = size * 10
        let store = try DiskHTTPCacheStore(directory: directory, sizeLimit: limit, clock: clock)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<100 {
                group.addTask { try await store.store(entry(String(format: "k%03d", i), body: body)) }
            }
            try await group.waitForAll()
        }
        #expect(store.usage().bytes <= limit)
        #expect(store.usage().entries >= 5)
    }
}

/// The size of an entry on disk (what the size cap counts).
func diskSize(of entry: HTTPCacheEntry) async throws -> Int {
    let directory = TemporaryDirectory.make(prefix: "jsbridge-cache-size")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try DiskHTTPCacheStore(directory: directory)
    try await store.store(entry)
    return store.usage().bytes
}
