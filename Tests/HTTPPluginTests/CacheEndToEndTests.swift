import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridgeCore
import JSBridgeTesting
import Synchronization
import Testing

/// `HTTPCache` over real loopback HTTP (TestHTTPServer + the AsyncHTTPClient transport) and a disk store.
@Suite struct CacheEndToEndTests {
    typealias Field = TestHTTPServer.HTTPFieldPair

    /// One test's world: a server, a fetcher, a cache on a fresh directory with a manual clock.
    final class World: Sendable {
        let server: TestHTTPServer
        let transport: AsyncHTTPClientTransport
        let fetcher: Fetcher
        let clock: ManualClock
        let directory: String
        let cache: HTTPCache

        init() async throws {
            let clock = ManualClock()
            let directory = TemporaryDirectory.make(prefix: "jsbridge-cache-e2e")
            self.clock = clock
            self.directory = directory
            cache = HTTPCache(store: try DiskHTTPCacheStore(directory: directory, clock: clock), clock: clock)
            let transport = AsyncHTTPClientTransport()
            self.transport = transport
            fetcher = Fetcher(transport: transport, authorize: { _, _ in })
            server = try await TestHTTPServer.start()
        }

        /// Sends through the cache and commits the pending entry (as a DAO does after validating), unless told not to.
        func get(
            _ path: String, method: String = "GET", headers: [HTTPField] = [],
            options: HTTPCacheOptions = HTTPCacheOptions(mode: .http), commit: Bool = true
        ) async throws -> HTTPCacheResult {
            let request = FetchRequest(method: method, url: server.url(path), headers: headers)
            let fetcher = self.fetcher
            let result = try await cache.send(request, options: options) { try await fetcher.fetch($0) }
            if commit, let pending = result.pending { try await cache.commit(pending) }
            return result
        }

        /// The requests the server received for `path`.
        func requests(_ path: String) -> [TestHTTPServer.Request] { server.requests.filter { $0.path == path } }

        func entryFiles() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".entry") }
        }

        func close() async throws {
            await transport.shutdown()
            try await server.stop()
        }
    }

    /// A handler answering with a counter in the body: "n1", "n2", …
    static func counting(_ headers: [Field], status: Int = 200) -> TestHTTPServer.Handler {
        let counter = CacheTestCounter()
        return { _ in
            let n = counter.next()
            return .text("n\(n)", status: status, headers: headers)
        }
    }

    func text(_ result: HTTPCacheResult) -> String { String(decoding: result.response.body, as: UTF8.self) }

    @Test func maxAgeIsServedFromTheCacheWithoutARequest() async throws {
        let world = try await World()
        world.server.route("/a") { request in
            .text("fresh", headers: [Field("Cache-Control", "max-age=60"), Field("X-Query", request.query ?? "")])
        }
        let first = try await world.get("/a?b=2&a=1")
        #expect(first.source == .network)
        world.clock.advance(by: .seconds(59))
        // The same query in another order is the same key.
        let second = try await world.get("/a?a=1&b=2")
        #expect(second.source == .cache)
        #expect(text(second) == "fresh")
        #expect(second.response.status == 200)
        #expect(second.response.headers.first { $0.name.lowercased() == "x-query" }?.value == "b=2&a=1")
        #expect(world.requests("/a").count == 1)
        world.clock.advance(by: .seconds(2))
        #expect(try await world.get("/a?a=1&b=2").source == .network)
        #expect(world.requests("/a").count == 2)
        try await world.close()
    }

    @Test func staleEntryWithETagIsRevalidatedAnd304Refreshes() async throws {
        let world = try await World()
        world.server.route("/e") { request in
            if request.header("if-none-match") == "\"v1\"" {
                return TestHTTPServer.Response(
                    status: 304,
                    headers: [Field("ETag", "\"v1\""), Field("Cache-Control", "max-age=100"), Field("X-Seen", "2")])
            }
            return .text(
                "body-v1",
                headers: [Field("ETag", "\"v1\""), Field("Cache-Control", "max-age=10"), Field("X-Seen", "1")])
        }
        _ = try await world.get("/e")
        world.clock.advance(by: .seconds(11))
        let revalidated = try await world.get("/e")
        let requests = world.requests("/e")
        #expect(requests.count == 2)
        #expect(requests.last?.header("if-none-match") == "\"v1\"")
        #expect(revalidated.source == .cache)
        #expect(revalidated.revalidated)
        #expect(revalidated.pending == nil)
        #expect(revalidated.response.status == 200)
        #expect(text(revalidated) == "body-v1")
        #expect(revalidated.response.headers.first { $0.name.lowercased() == "x-seen" }?.value == "2")
        // The 304's max-age=100 now applies: fresh for 100 s without another request.
        world.clock.advance(by: .seconds(90))
        let cached = try await world.get("/e")
        #expect(cached.source == .cache)
        #expect(!cached.revalidated)
        #expect(world.requests("/e").count == 2)
        #expect(world.cache.statistics.notModified == 1)
        try await world.close()
    }

    @Test func lastModifiedBecomesIfModifiedSince() async throws {
        let world = try await World()
        let lastModified = "Tue, 14 Nov 2023 22:00:00 GMT"
        world.server.route("/lm") { request in
            if request.header("if-modified-since") == lastModified {
                return TestHTTPServer.Response(status: 304)
            }
            return .text("dated", headers: [Field("Last-Modified", lastModified), Field("Cache-Control", "max-age=0")])
        }
        _ = try await world.get("/lm")
        let second = try await world.get("/lm")
        #expect(world.requests("/lm").map { $0.header("if-modified-since") } == [nil, lastModified])
        #expect(second.source == .cache)
        #expect(text(second) == "dated")
        try await world.close()
    }

    @Test func noStoreIsNeverStored() async throws {
        let world = try await World()
        world.server.route("/ns", Self.counting([Field("Cache-Control", "no-store, max-age=600")]))
        world.server.route("/ok", Self.counting([Field("Cache-Control", "max-age=600")]))
        let first = try await world.get("/ns")
        #expect(first.pending == nil)
        #expect(text(try await world.get("/ns")) == "n2")
        // A request's no-store: neither read nor stored.
        let requestNoStore = [HTTPField("Cache-Control", "no-store")]
        #expect(try await world.get("/ok", headers: requestNoStore).pending == nil)
        #expect(world.entryFiles().isEmpty)
        _ = try await world.get("/ok")
        #expect(try await world.get("/ok").source == .cache)
        #expect(text(try await world.get("/ok", headers: requestNoStore)) == "n3")
        #expect(world.requests("/ns").count == 2)
        #expect(world.requests("/ok").count == 3)
        try await world.close()
    }

    @Test func noCacheRevalidatesEveryTime() async throws {
        let world = try await World()
        let version = CacheTestCounter()
        version.set(1)
        world.server.route("/nc") { request in
            let current = version.current
            if request.header("if-none-match") == "\"\(current)\"" { return TestHTTPServer.Response(status: 304) }
            return .text("v\(current)", headers: [Field("Cache-Control", "no-cache"), Field("ETag", "\"\(current)\"")])
        }
        _ = try await world.get("/nc")
        let second = try await world.get("/nc")
        #expect(second.source == .cache && second.revalidated)
        version.set(2)
        let third = try await world.get("/nc")
        #expect(third.source == .network)
        #expect(text(third) == "v2")
        let fourth = try await world.get("/nc")
        #expect(text(fourth) == "v2")
        #expect(world.requests("/nc").map { $0.header("if-none-match") } == [nil, "\"1\"", "\"1\"", "\"2\""])
        // A request's no-cache revalidates an entry that is still fresh.
        world.server.route("/fresh") { request in
            request.header("if-none-match") == "\"f\""
                ? TestHTTPServer.Response(status: 304)
                : .text("f", headers: [Field("Cache-Control", "max-age=600"), Field("ETag", "\"f\"")])
        }
        _ = try await world.get("/fresh")
        let forced = try await world.get("/fresh", headers: [HTTPField("Cache-Control", "no-cache")])
        #expect(forced.revalidated)
        #expect(world.requests("/fresh").count == 2)
        try await world.close()
    }

    @Test func varyMismatchIsAMiss() async throws {
        let world = try await World()
        world.server.route("/v") { request in
            .text(
                "lang=\(request.header("accept-language") ?? "-")",
                headers: [Field("Cache-Control", "max-age=600"), Field("Vary", "Accept-Language")])
        }
        let english = [HTTPField("Accept-Language", "en")]
        _ = try await world.get("/v", headers: english)
        let german = try await world.get("/v", headers: [HTTPField("Accept-Language", "de")], commit: false)
        #expect(german.source == .network)
        #expect(text(german) == "lang=de")
        let none = try await world.get("/v", commit: false)
        #expect(none.source == .network)
        let again = try await world.get("/v", headers: english)
        #expect(again.source == .cache)
        #expect(text(again) == "lang=en")
        #expect(world.requests("/v").count == 3)
        // Vary: * never matches (and is not stored).
        world.server.route("/star", Self.counting([Field("Cache-Control", "max-age=600"), Field("Vary", "*")]))
        #expect(try await world.get("/star").pending == nil)
        #expect(try await world.get("/star").source == .network)
        try await world.close()
    }

    @Test func unsafeMethodsInvalidateTheURL() async throws {
        let world = try await World()
        world.server.route("/items", Self.counting([Field("Cache-Control", "max-age=600")]))
        world.server.route("/other", Self.counting([Field("Cache-Control", "max-age=600")]))
        world.server.route("/create") { _ in .text("created", status: 201, headers: [Field("Location", "/other")]) }
        world.server.route("/fail") { _ in .text("no", status: 500) }
        _ = try await world.get("/items")
        _ = try await world.get("/other")
        #expect(try await world.get("/items").source == .cache)
        // A POST that fails leaves the entry; one that succeeds removes it.
        world.server.route("/items") { request in
            request.method == "POST"
                ? .text("bad", status: 400) : .text("n2", headers: [Field("Cache-Control", "max-age=600")])
        }
        _ = try await world.get("/items", method: "POST")
        #expect(try await world.get("/items").source == .cache)
        world.server.route("/items") { request in
            request.method == "POST"
                ? .text("ok", status: 200) : .text("n2", headers: [Field("Cache-Control", "max-age=600")])
        }
        let post = try await world.get("/items", method: "POST")
        #expect(post.pending == nil)
        let after = try await world.get("/items")
        #expect(after.source == .network)
        #expect(text(after) == "n2")
        // Location on the same origin is invalidated too.
        #expect(try await world.get("/other").source == .cache)
        _ = try await world.get("/create", method: "PUT")
        #expect(try await world.get("/other").source == .network)
        #expect(world.requests("/other").count == 2)
        try await world.close()
    }

    @Test func alternativeServesTheCacheWithinTheInterval() async throws {
        let world = try await World()
        // No HTTP freshness at all: the alternative mode does not care.
        world.server.route("/alt", Self.counting([Field("Cache-Control", "max-age=0, must-revalidate")]))
        let options = HTTPCacheOptions(mode: .alternative, interval: .seconds(300))
        #expect(text(try await world.get("/alt", options: options)) == "n1")
        world.clock.advance(by: .seconds(299))
        let cached = try await world.get("/alt", options: options)
        #expect(cached.source == .cache)
        #expect(text(cached) == "n1")
        world.clock.advance(by: .seconds(2))
        let refreshed = try await world.get("/alt", options: options)
        #expect(refreshed.source == .network)
        #expect(text(refreshed) == "n2")
        #expect(world.requests("/alt").count == 2)
        try await world.close()
    }

    /// The modes that ignore HTTP's rules store a `no-store` response too: the DAO asked for it.
    @Test func alternativeIgnoresNoStore() async throws {
        let world = try await World()
        world.server.route("/private", Self.counting([Field("Cache-Control", "no-store")]))
        let options = HTTPCacheOptions(mode: .alternative, interval: .seconds(300))
        #expect(text(try await world.get("/private", options: options)) == "n1")
        let cached = try await world.get("/private", options: options)
        #expect(cached.source == .cache)
        #expect(text(cached) == "n1")
        #expect(world.requests("/private").count == 1)
        try await world.close()
    }

    @Test func onlyWriteStoresButNeverReads() async throws {
        let world = try await World()
        world.server.route("/w", Self.counting([Field("Cache-Control", "max-age=600")]))
        let onlyWrite = HTTPCacheOptions(mode: .onlyWrite)
        #expect(text(try await world.get("/w", options: onlyWrite)) == "n1")
        #expect(text(try await world.get("/w", options: onlyWrite)) == "n2")
        #expect(world.requests("/w").count == 2)
        // What it wrote is there for the other modes (the same default key).
        let cached = try await world.get("/w")
        #expect(cached.source == .cache)
        #expect(text(cached) == "n2")
        try await world.close()
    }

    @Test func bothDeliversTheCachedPartThenTheNetwork() async throws {
        let world = try await World()
        world.server.route("/both", Self.counting([]))
        let both = HTTPCacheOptions(mode: .both, parameters: ["id": "7"])
        let request = FetchRequest(url: world.server.url("/both"))
        #expect(await world.cache.cachedResponse(for: request, options: both) == nil)
        let first = try await world.get("/both", options: both)
        #expect(first.source == .network)
        let cachedPart = await world.cache.cachedResponse(for: request, options: both)
        #expect(cachedPart.map { String(decoding: $0.body, as: UTF8.self) } == "n1")
        let second = try await world.get("/both", options: both)
        #expect(second.source == .network)
        #expect(text(second) == "n2")
        #expect(world.requests("/both").count == 2)
        // The parameters are part of the key.
        let otherID = HTTPCacheOptions(mode: .both, parameters: ["id": "8"])
        #expect(await world.cache.cachedResponse(for: request, options: otherID) == nil)
        try await world.close()
    }

    @Test func anUncommittedPendingEntryIsNotStored() async throws {
        let world = try await World()
        world.server.route("/p", Self.counting([Field("Cache-Control", "max-age=600")]))
        let first = try await world.get("/p", commit: false)
        #expect(first.pending != nil)
        #expect(world.entryFiles().isEmpty)
        let second = try await world.get("/p", commit: false)
        #expect(second.source == .network)
        #expect(world.requests("/p").count == 2)
        // A custom key replaces the default one.
        let custom = HTTPCacheOptions(mode: .http, key: "profile")
        _ = try await world.get("/p?ts=1", options: custom)
        let hit = try await world.get("/p?ts=2", options: custom)
        #expect(hit.source == .cache)
        #expect(text(hit) == "n3")
        #expect(world.entryFiles().count == 1)
        try await world.close()
    }

    @Test func entriesSurviveANewCacheOnTheSameDirectory() async throws {
        let world = try await World()
        world.server.route("/persist", Self.counting([Field("Cache-Control", "max-age=600")]))
        _ = try await world.get("/persist")
        let reopened = HTTPCache(
            store: try DiskHTTPCacheStore(directory: world.directory, clock: world.clock), clock: world.clock)
        let fetcher = world.fetcher
        let result = try await reopened.send(
            FetchRequest(url: world.server.url("/persist")), options: HTTPCacheOptions(mode: .http)
        ) { try await fetcher.fetch($0) }
        #expect(result.source == .cache)
        #expect(world.requests("/persist").count == 1)
        try await world.close()
    }
}
