import Foundation
import HTTPCore
import HTTPPlugin
import HTTPPluginTesting
import HTTPPostgres
import JSBridgeBase
import JSBridgeCore
import JSBridgeTesting
import StoragePluginTesting
import StoragePostgres
import Testing

/// The HTTP cache in PostgreSQL (`--storage-url`): `PostgresHTTPCacheStore` on the test cluster, and two
/// `jsbridge` processes (as two hosts) sharing one cached response.
@Suite(.serialized, .blocking) struct SharedCacheTests {
    static var url: String {
        get throws { try TestPostgresCluster.sharedDatabase("httpcache") }
    }

    let clock = ManualClock()

    func entry(_ key: String, url: String = "http://h/x", body: [UInt8] = Array("body".utf8)) -> HTTPCacheEntry {
        HTTPCacheEntry(
            key: key, url: url, method: "GET", status: 200, statusText: "OK",
            headers: [HTTPField("Content-Type", "text/plain"), HTTPField("ETag", "\"1\"")], responseURL: url,
            body: body, varyValues: ["accept": "text/plain"], requestTime: clock.now(), responseTime: clock.now(),
            storedAt: clock.now())
    }

    func store(app: String = UUID().uuidString, sizeLimit: Int = 64 << 20) throws -> PostgresHTTPCacheStore {
        try PostgresHTTPCacheStore(
            url: try PostgresURL(try Self.url), appID: app, sizeLimit: sizeLimit, maxEntryAge: .seconds(3600),
            clock: clock)
    }

    @Test func entriesRoundTripAcrossStoresOfOneAppOnly() async throws {
        let app = UUID().uuidString
        let one = try store(app: app)
        let original = entry("GET http://h/x", body: Array(0...255))
        try await one.store(original)
        // Another process (another store on the same database and app id) reads it; another app does not.
        #expect(try await store(app: app).entry(forKey: "GET http://h/x") == original)
        #expect(try await store().entry(forKey: "GET http://h/x") == nil)
        #expect(await one.entry(forKey: "GET http://h/y") == nil)
        var changed = original
        changed.body = Array("new".utf8)
        try await one.store(changed)
        #expect(await one.entry(forKey: "GET http://h/x")?.body == Array("new".utf8))
        #expect(try one.usage().entries == 1)
        try await one.store(entry("GET http://h/x?2", url: "http://h/x"))
        try await one.store(entry("GET http://h/z", url: "http://h/z"))
        await one.removeEntries(forURL: "http://h/x")
        #expect(try one.usage().entries == 1)
        await one.removeEntry(forKey: "GET http://h/z")
        #expect(try one.usage().entries == 0)
        #expect(try one.schemaVersion() == 2)
    }

    @Test func leastRecentlyUsedEntriesAreEvictedAndBigOnesNotStored() async throws {
        let size = HTTPCacheEntryCodingSize.of(entry("k0", body: [UInt8](repeating: 7, count: 1000)))
        let store = try store(sizeLimit: size * 5 + size / 2)
        for i in 0..<5 {
            try await store.store(entry("k\(i)", body: [UInt8](repeating: 7, count: 1000)))
            clock.advance(by: .seconds(1))
        }
        #expect(try store.usage().entries == 5)
        // Use k0 so that k1 is now the least recently used.
        #expect(await store.entry(forKey: "k0") != nil)
        clock.advance(by: .seconds(1))
        try await store.store(entry("k5", body: [UInt8](repeating: 7, count: 1000)))
        // Over the limit: down to 90% of it (four entries) — k1 and k2 went, k0 stayed.
        #expect(try store.usage().entries == 4)
        #expect(await store.entry(forKey: "k0") != nil)
        #expect(await store.entry(forKey: "k1") == nil)
        #expect(await store.entry(forKey: "k2") == nil)
        // An entry larger than the limit on its own is not stored (and replaces nothing).
        try await store.store(entry("k3", body: [UInt8](repeating: 1, count: size * 6)))
        #expect(await store.entry(forKey: "k3") == nil)
        #expect(try store.usage().bytes <= size * 5 + size / 2)
    }

    @Test func expiredEntriesAreMisses() async throws {
        let store = try store()
        try await store.store(entry("old"))
        clock.advance(by: .seconds(3599))
        #expect(await store.entry(forKey: "old") != nil)
        clock.advance(by: .seconds(2))
        #expect(await store.entry(forKey: "old") == nil)
        #expect(try store.usage().entries == 0)
    }

    /// Two `jsbridge` processes on one database, one after the other, ask a DAO with the `http` cache for the
    /// same URL: the second is served from the entry the first stored (the server sees one request); a third
    /// whose `Accept` differs from the stored `Vary` value goes to the network.
    @Test func aResponseFetchedByOneProcessServesAnother() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/doc") { request in
            .json(
                #"{"v":1,"accept":"\#(request.header("accept") ?? "")"}"#,
                headers: [.init("Cache-Control", "max-age=600"), .init("Vary", "Accept")])
        }
        let url = try Self.url
        let appID = "shared-cache-\(UUID().uuidString.prefix(8))"
        func run(accept: String) async throws -> String {
            let script = """
                HTTP.dao({ name: "Doc", baseURL: "\(server.baseURL)", path: "/doc", cache: "http",
                           headers: { Accept: "\(accept)" } }).request()
                  .then((r) => ack(r.source + " " + r.data.accept), (e) => ack("error " + e.code + " " + e.message));
                """
            let (process, pipe) = try AckingProcess.start(
                script,
                arguments: [
                    "--app-id", appID, "--storage-dir", TemporaryDirectory.make(prefix: "shared-cache"),
                    "--storage-url", url, "--allow-net",
                ])
            let (output, status) = try await AckingProcess.finish(process, pipe)
            #expect(status == 0)
            return output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try await run(accept: "application/json") == "network application/json")
        #expect(try await run(accept: "application/json") == "cache application/json")
        #expect(server.requests.count == 1)
        #expect(try await run(accept: "text/json") == "network text/json")
        #expect(server.requests.count == 2)
        try await server.stop()
    }
}

extension SharedCacheTests {
    /// 8 `jsbridge` processes ask at once for the same uncached, cacheable URL through the shared cache: one
    /// request reaches the origin (which answers slowly, so the others ask while it is under way), one
    /// process gets the network's answer and the other seven the entry it stored.
    @Test func eightProcessesMissingAtOnceMakeOneRequest() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/once") { _ in
            .bytes(
                Array(#"{"v":1}"#.utf8), contentType: "application/json",
                headers: [.init("Cache-Control", "max-age=600")],
                delay: .seconds(2))
        }
        let url = try Self.url
        let appID = "single-flight-\(UUID().uuidString.prefix(8))"
        let script = """
            HTTP.dao({ name: "Once", baseURL: "\(server.baseURL)", path: "/once", cache: "http" }).request()
              .then((r) => ack(r.source + " " + r.data.v), (e) => ack("error " + e.code + " " + e.message));
            """
        let processes = try (0..<8).map { _ in
            try AckingProcess.start(
                script,
                arguments: [
                    "--app-id", appID, "--storage-dir", TemporaryDirectory.make(prefix: "single-flight"),
                    "--storage-url", url, "--allow-net",
                ])
        }
        var answers: [String] = []
        for (process, pipe) in processes {
            let (output, status) = try await AckingProcess.finish(process, pipe)
            #expect(status == 0)
            answers.append(output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(
            answers.sorted() == [
                "cache 1", "cache 1", "cache 1", "cache 1", "cache 1", "cache 1", "cache 1", "network 1",
            ])
        #expect(server.requests.count == 1)
        try await server.stop()
    }

    /// A miss while another fetch of the key holds its claim waits for that fetch, within bounds: when the
    /// other lets go without storing (its request failed) the waiter goes to the network at once, and when
    /// the claim outlives ``HTTPCache/fillWait`` (the other hangs) the waiter stops waiting and fetches too.
    @Test func aWaitingMissFetchesItselfWhenTheOtherFetchFailsOrHangs() async throws {
        let store = try PostgresHTTPCacheStore(
            url: try PostgresURL(try Self.url), appID: UUID().uuidString, maxEntryAge: .seconds(3600),
            clock: SystemClock())
        let calls = Locked(0)
        let network: @Sendable (FetchRequest) async throws -> FetchResponse = { request in
            calls.withLock { $0 += 1 }
            return FetchResponse(
                status: 200, statusText: "OK", headers: [HTTPField("Cache-Control", "max-age=600")], url: request.url,
                redirected: false, body: Array("x".utf8))
        }
        let options = HTTPCacheOptions(mode: .http)

        // The other fetch fails: its owner ends the claim, and the waiter (which would wait ten minutes
        // otherwise) fetches.
        let patient = HTTPCache(
            store: store, clock: SystemClock(), fillWait: .seconds(600), fillPoll: .milliseconds(10))
        let failed = FetchRequest(url: "http://h/failed")
        let failedKey = patient.key(for: failed, options: options)
        #expect(await store.beginFill(key: failedKey, owner: "other", lease: .seconds(600)))
        #expect(await store.fillInProgress(key: failedKey))
        let waiting = Task { try await patient.send(failed, options: options, network: network) }
        await store.endFill(key: failedKey, owner: "other")
        let afterFailure = try await waiting.value
        #expect(afterFailure.source == .network)
        #expect(calls.withLock { $0 } == 1)
        if let pending = afterFailure.pending { try await patient.commit(pending) }
        #expect(await store.fillInProgress(key: failedKey) == false)

        // The other fetch hangs (its claim lives ten minutes): the waiter gives up after its fillWait.
        let impatient = HTTPCache(
            store: store, clock: SystemClock(), fillWait: .milliseconds(200), fillPoll: .milliseconds(10))
        let hung = FetchRequest(url: "http://h/hung")
        let hungKey = impatient.key(for: hung, options: options)
        #expect(await store.beginFill(key: hungKey, owner: "other", lease: .seconds(600)))
        #expect(await store.beginFill(key: hungKey, owner: "third", lease: .seconds(600)) == false)
        let afterHang = try await impatient.send(hung, options: options, network: network)
        #expect(afterHang.source == .network)
        #expect(calls.withLock { $0 } == 2)
        // An expired claim is taken over.
        #expect(await store.beginFill(key: "expired", owner: "a", lease: .zero))
        #expect(await store.beginFill(key: "expired", owner: "b", lease: .seconds(600)))
    }
}

/// The bytes an entry takes in the store (its encoded form).
enum HTTPCacheEntryCodingSize {
    static func of(_ entry: HTTPCacheEntry) -> Int { HTTPCacheEntryCoding.encode(entry).count }
}
