import Foundation
import HTTPPlugin
import JSBridgeCore
import JSBridgeTesting
import Testing

@testable import HTTPCore

/// The RFC 9111 rules (dates, Cache-Control, freshness, age, storability, keys) without a network.
@Suite struct CachePolicyTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    func response(_ status: Int = 200, _ headers: [(String, String)] = [], body: String = "b") -> FetchResponse {
        FetchResponse(
            status: status, statusText: "", headers: headers.map { HTTPField($0.0, $0.1) }, url: "http://h/x",
            redirected: false, body: Array(body.utf8))
    }

    func entry(
        _ status: Int = 200, _ headers: [(String, String)], requestTime: Date = CachePolicyTests.t0,
        responseTime: Date = CachePolicyTests.t0
    )
        -> HTTPCacheEntry
    {
        HTTPCacheEntry(
            key: "k", url: "http://h/x", method: "GET", status: status, statusText: "",
            headers: headers.map { HTTPField($0.0, $0.1) }, responseURL: "http://h/x", body: [],
            requestTime: requestTime, responseTime: responseTime, storedAt: responseTime)
    }

    @Test func httpDatesParseInAllThreeFormsAndFormat() {
        let expected = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.format(expected) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 951_825_600)) == "Tue, 29 Feb 2000 12:00:00 GMT")
        #expect(HTTPDate.parse(HTTPDate.format(Self.t0)) == Self.t0)
        for bad in ["0", "", "-1", "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT"] {
            #expect(HTTPDate.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func cacheControlDirectives() {
        let control = CacheControl([
            HTTPField("Cache-Control", "Max-Age=60, no-cache=\"set-cookie, x\""),
            HTTPField("cache-control", "private, s-maxage=abc"),
        ])
        #expect(control.seconds("max-age") == 60)
        #expect(control.has("no-cache"))
        #expect(control.directives["no-cache"] == .some("set-cookie, x"))
        #expect(control.has("private"))
        #expect(control.seconds("s-maxage") == 0)  // invalid → stale
        #expect(control.seconds("min-fresh") == nil)
        #expect(!control.has("no-store"))
    }

    @Test func freshnessLifetimeFromMaxAgeExpiresOrHeuristics() {
        let date = HTTPDate.format(Self.t0)
        func lifetime(_ status: Int, _ headers: [(String, String)]) -> TimeInterval {
            HTTPCachePolicy.freshnessLifetime(
                status: status, headers: headers.map { HTTPField($0.0, $0.1) }, responseTime: Self.t0)
        }
        // max-age wins over Expires.
        #expect(
            lifetime(
                200, [("cache-control", "max-age=30"), ("date", date), ("expires", HTTPDate.format(Self.t0 + 500))])
                == 30)
        #expect(lifetime(200, [("date", date), ("expires", HTTPDate.format(Self.t0 + 500))]) == 500)
        // Expires − Date, not Expires − now: a server clock 1000 s ahead still gives 100 s.
        #expect(
            lifetime(
                200, [("date", HTTPDate.format(Self.t0 + 1000)), ("expires", HTTPDate.format(Self.t0 + 1100))]) == 100)
        #expect(lifetime(200, [("expires", "0")]) == 0)
        // Heuristic: 10% of Date − Last-Modified, capped at a day; only for heuristically cacheable statuses.
        #expect(lifetime(200, [("date", date), ("last-modified", HTTPDate.format(Self.t0 - 1000))]) == 100)
        #expect(lifetime(200, [("date", date), ("last-modified", HTTPDate.format(Self.t0 - 10_000_000))]) == 86_400)
        #expect(lifetime(201, [("date", date), ("last-modified", HTTPDate.format(Self.t0 - 1000))]) == 0)
        #expect(lifetime(200, []) == 0)
    }

    @Test func currentAgeFollowsRFC9111() {
        // Sent at t0, arrived 2 s later with Age: 10 → corrected initial age 12; 30 s resident → 42.
        let aged = entry(200, [("age", "10")], requestTime: Self.t0, responseTime: Self.t0 + 2)
        #expect(HTTPCachePolicy.currentAge(aged, now: Self.t0 + 32) == 42)
        // Date 20 s before arrival (apparent age) beats a smaller Age.
        let dated = entry(
            200, [("age", "5"), ("date", HTTPDate.format(Self.t0 - 20))], requestTime: Self.t0, responseTime: Self.t0)
        #expect(HTTPCachePolicy.currentAge(dated, now: Self.t0) == 20)
        // max-age=60 with Age: 50 is fresh for 10 more seconds only.
        let stale = entry(200, [("cache-control", "max-age=60"), ("age", "50")])
        #expect(HTTPCachePolicy.isFresh(stale, request: [], now: Self.t0 + 9))
        #expect(!HTTPCachePolicy.isFresh(stale, request: [], now: Self.t0 + 11))
    }

    @Test func requestDirectivesLimitFreshness() {
        let fresh = entry(200, [("cache-control", "max-age=100")])
        let now = Self.t0 + 50
        #expect(HTTPCachePolicy.isFresh(fresh, request: [], now: now))
        #expect(!HTTPCachePolicy.isFresh(fresh, request: [HTTPField("Cache-Control", "no-cache")], now: now))
        #expect(!HTTPCachePolicy.isFresh(fresh, request: [HTTPField("Pragma", "no-cache")], now: now))
        #expect(!HTTPCachePolicy.isFresh(fresh, request: [HTTPField("Cache-Control", "max-age=0")], now: now))
        #expect(HTTPCachePolicy.isFresh(fresh, request: [HTTPField("Cache-Control", "max-age=60")], now: now))
        #expect(!HTTPCachePolicy.isFresh(fresh, request: [HTTPField("Cache-Control", "min-fresh=60")], now: now))
        #expect(
            !HTTPCachePolicy.isFresh(entry(200, [("cache-control", "max-age=100, no-cache")]), request: [], now: now))
    }

    @Test func whatTheHTTPModeStores() {
        func storable(_ status: Int, _ headers: [(String, String)], request: [(String, String)] = []) -> Bool {
            HTTPCachePolicy.isStorable(
                request: request.map { HTTPField($0.0, $0.1) }, response: response(status, headers),
                responseTime: Self.t0)
        }
        #expect(storable(200, [("cache-control", "max-age=60")]))
        #expect(storable(200, [("etag", "\"a\"")]))  // stale at once but revalidatable
        #expect(!storable(200, []))  // neither fresh nor revalidatable
        #expect(!storable(200, [("cache-control", "max-age=60, no-store")]))
        #expect(!storable(200, [("cache-control", "max-age=60")], request: [("cache-control", "no-store")]))
        #expect(storable(404, [("etag", "\"a\"")]))
        #expect(storable(410, [("cache-control", "max-age=60")]))
        #expect(!storable(500, [("etag", "\"a\"")]))  // not heuristically cacheable, no explicit freshness
        #expect(storable(500, [("cache-control", "max-age=60")]))  // explicit freshness
        #expect(!storable(201, [("etag", "\"a\"")]))
        #expect(!storable(206, [("cache-control", "max-age=60")]))
        #expect(!storable(200, [("cache-control", "max-age=60"), ("vary", "Accept, *")]))
        #expect(!storable(200, [("cache-control", "max-age=60")], request: [("authorization", "Bearer x")]))
        #expect(storable(200, [("cache-control", "public, max-age=60")], request: [("authorization", "Bearer x")]))
        #expect(storable(200, [("cache-control", "max-age=60, must-revalidate")], request: [("authorization", "x")]))
    }

    @Test func refreshFrom304ReplacesFieldsButNotTheLength() {
        let stored = [
            HTTPField("ETag", "\"v1\""), HTTPField("Content-Length", "5"), HTTPField("X-A", "old"),
            HTTPField("X-Keep", "k"),
        ]
        let refreshed = HTTPCachePolicy.refreshedHeaders(
            stored: stored,
            notModified: [
                HTTPField("etag", "\"v1\""), HTTPField("content-length", "0"), HTTPField("x-a", "new"),
                HTTPField("connection", "close"),
            ])
        #expect(
            refreshed.map { "\($0.name.lowercased())=\($0.value)" }.sorted() == [
                "content-length=5", "etag=\"v1\"", "x-a=new", "x-keep=k",
            ])
    }

    @Test func varyMatchesPerEntry() {
        var stored = entry(200, [("vary", "Accept-Language, X-Mode")])
        stored.varyValues = HTTPCachePolicy.varyValues(
            names: ["accept-language", "x-mode"], request: [HTTPField("Accept-Language", "en, de")])
        #expect(HTTPCachePolicy.varyMatches(stored, request: [HTTPField("accept-language", "en,de")]))
        #expect(!HTTPCachePolicy.varyMatches(stored, request: [HTTPField("accept-language", "de")]))
        #expect(
            !HTTPCachePolicy.varyMatches(
                stored, request: [HTTPField("accept-language", "en, de"), HTTPField("X-Mode", "1")]))
        #expect(!HTTPCachePolicy.varyMatches(entry(200, [("vary", "*")]), request: []))
    }

    @Test func defaultKeysIgnoreOrder() {
        let a = HTTPCacheKey.make(
            method: "get", url: "HTTP://Example.COM:80/p?b=2&a=1#frag", parameters: [("z", "1"), ("a", "x y")])
        let b = HTTPCacheKey.make(
            method: "GET", url: "http://example.com/p?a=1&b=2", parameters: [("a", "x y"), ("z", "1")])
        #expect(a == b)
        #expect(a == "GET http://example.com/p?a=1&b=2 |a=x%20y&z=1")
        #expect(HTTPCacheKey.make(method: "GET", url: "http://example.com/p?a=1&b=3") != b)
        #expect(
            HTTPCacheKey.make(
                method: "POST", url: "http://example.com/p?a=1&b=2", parameters: [("a", "x y"), ("z", "1")]) != b)
        #expect(
            HTTPCacheKey.make(method: "GET", url: "http://example.com/p", parameters: [("a", "1&b=2")])
                != HTTPCacheKey.make(method: "GET", url: "http://example.com/p", parameters: [("a", "1"), ("b", "2")]))
        #expect(HTTPCacheKey.normalizedURL("https://h:443") == "https://h/")
        // Without parameters the body is part of the key (hashed); with parameters, they stand for it.
        let one = HTTPCacheKey.make(method: "POST", url: "http://h/q", body: Array("{\"a\":1}".utf8))
        #expect(one.hasPrefix("POST http://h/q #"))
        #expect(one == HTTPCacheKey.make(method: "POST", url: "http://h/q", body: Array("{\"a\":1}".utf8)))
        #expect(one != HTTPCacheKey.make(method: "POST", url: "http://h/q", body: Array("{\"a\":2}".utf8)))
        #expect(HTTPCacheKey.make(method: "POST", url: "http://h/q", body: []) == "POST http://h/q")
        #expect(
            HTTPCacheKey.make(method: "POST", url: "http://h/q", parameters: [("a", "1")], body: Array("a=1".utf8))
                == "POST http://h/q |a=1")
        let cache = HTTPCache(store: InMemoryHTTPCacheStore())
        let request = FetchRequest(url: "http://example.com/p?x=1")
        #expect(cache.key(for: request, options: HTTPCacheOptions(mode: .http, key: "mine")) == "mine")
        #expect(
            cache.key(for: request, options: HTTPCacheOptions(mode: .http, parameters: ["k": "v"]))
                == "GET http://example.com/p?x=1 |k=v")
    }

    @Test func entriesSurviveEncodingAndRejectDamage() {
        var original = entry(203, [("etag", "\"é\""), ("x", "")])
        original.body = Array(0...255)
        original.varyValues = ["accept": "a/b", "x-absent": String?.none]
        original.redirected = true
        let bytes = HTTPCacheEntryCoding.encode(original)
        #expect(HTTPCacheEntryCoding.decode(bytes) == original)
        #expect(HTTPCacheEntryCoding.decodeMeta(Array(bytes.prefix(200)))?.key == "k")
        for cut in [0, 3, 9, 20, bytes.count - 9, bytes.count - 1] {
            #expect(HTTPCacheEntryCoding.decode(Array(bytes.prefix(cut))) == nil, "cut at \(cut)")
        }
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x40
        #expect(HTTPCacheEntryCoding.decode(flipped) == nil)
    }
}

/// The cache layer with a recording transport, an in-memory store and a manual clock.
@Suite struct CacheLayerTests {
    let clock = ManualClock()
    let store = InMemoryHTTPCacheStore()

    /// A fetcher over a transport answering with `respond`.
    func makeFetcher(_ respond: @escaping @Sendable (HTTPTransportRequest) -> HTTPTransportResponse)
        -> (Fetcher, RecordingHTTPTransport)
    {
        let transport = RecordingHTTPTransport { respond($0) }
        return (Fetcher(transport: transport, authorize: { _, _ in }), transport)
    }

    func send(
        _ cache: HTTPCache, _ fetcher: Fetcher, _ request: FetchRequest = FetchRequest(url: "http://h/x"),
        _ options: HTTPCacheOptions = HTTPCacheOptions(mode: .http), commit: Bool = true
    ) async throws -> HTTPCacheResult {
        let result = try await cache.send(request, options: options) { try await fetcher.fetch($0) }
        if commit, let pending = result.pending { try await cache.commit(pending) }
        return result
    }

    @Test func maxAgeIsServedUntilStaleWithAge() async throws {
        let counter = CacheTestCounter()
        let (fetcher, transport) = makeFetcher { _ in
            let n = counter.next()
            return HTTPTransportResponse(
                status: 200, headers: [HTTPField("Cache-Control", "max-age=60")], body: .text("n\(n)"))
        }
        let cache = HTTPCache(store: store, clock: clock)
        let first = try await send(cache, fetcher)
        #expect(first.source == .network)
        #expect(first.pending != nil)
        clock.advance(by: .seconds(30))
        let second = try await send(cache, fetcher)
        #expect(second.source == .cache)
        #expect(second.response.body == Array("n1".utf8))
        #expect(second.response.headers.first { $0.name == "age" }?.value == "30")
        clock.advance(by: .seconds(31))
        let third = try await send(cache, fetcher)
        #expect(third.source == .network)
        #expect(third.response.body == Array("n2".utf8))
        #expect(transport.requests.count == 2)
        #expect(transport.requests.allSatisfy { $0.header("if-none-match") == nil })
        #expect(cache.statistics.hits == 1)
        #expect(cache.statistics.misses == 2)
        #expect(cache.statistics.stores == 2)
    }

    @Test func onlyIfCachedAnswers504WithoutANetworkRequest() async throws {
        let (fetcher, transport) = makeFetcher { _ in HTTPTransportResponse(status: 200) }
        let cache = HTTPCache(store: store, clock: clock)
        let result = try await send(
            cache, fetcher, FetchRequest(url: "http://h/x", headers: [HTTPField("Cache-Control", "only-if-cached")]))
        #expect(result.response.status == 504)
        #expect(transport.requests.isEmpty)
    }

    @Test func uncommittedEntriesAreNotStored() async throws {
        let (fetcher, transport) = makeFetcher { _ in
            HTTPTransportResponse(status: 200, headers: [HTTPField("Cache-Control", "max-age=600")], body: .text("x"))
        }
        let cache = HTTPCache(store: store, clock: clock)
        let first = try await send(cache, fetcher, commit: false)
        #expect(first.pending?.key == "GET http://h/x")
        #expect(store.entries.isEmpty)
        _ = try await send(cache, fetcher, commit: false)
        #expect(transport.requests.count == 2)
        // Committed later, the entry answers.
        try await cache.commit(first.pending!)
        #expect(try await send(cache, fetcher).source == .cache)
        #expect(transport.requests.count == 2)
    }

    @Test func alternativeIgnoresHTTPFreshnessAndUsesTheInterval() async throws {
        let counter = CacheTestCounter()
        let (fetcher, transport) = makeFetcher { _ in
            let n = counter.next()
            return HTTPTransportResponse(
                status: 200, headers: [HTTPField("Cache-Control", "no-cache")], body: .text("n\(n)"))
        }
        let cache = HTTPCache(store: store, clock: clock)
        let options = HTTPCacheOptions(mode: .alternative, interval: .seconds(60), parameters: ["page": "1"])
        let request = FetchRequest(method: "POST", url: "http://h/list", body: Array("page=1".utf8))
        #expect(try await send(cache, fetcher, request, options).source == .network)
        clock.advance(by: .seconds(59))
        let cached = try await send(cache, fetcher, request, options)
        #expect(cached.source == .cache)
        #expect(cached.response.body == Array("n1".utf8))
        // Other parameters are another key.
        let other = HTTPCacheOptions(mode: .alternative, interval: .seconds(60), parameters: ["page": "2"])
        #expect(try await send(cache, fetcher, request, other).source == .network)
        clock.advance(by: .seconds(2))
        let fresh = try await send(cache, fetcher, request, options)
        #expect(fresh.source == .network)
        #expect(fresh.response.body == Array("n3".utf8))
        #expect(transport.requests.count == 3)
    }

    @Test func bothAndOnlyWriteNeverAnswerSendFromTheStore() async throws {
        let counter = CacheTestCounter()
        let (fetcher, transport) = makeFetcher { _ in
            let n = counter.next()
            return HTTPTransportResponse(status: 200, body: .text("n\(n)"))
        }
        let cache = HTTPCache(store: store, clock: clock)
        let both = HTTPCacheOptions(mode: .both)
        let request = FetchRequest(url: "http://h/x")
        #expect(await cache.cachedResponse(for: request, options: both) == nil)
        #expect(try await send(cache, fetcher, request, both).source == .network)
        #expect(await cache.cachedResponse(for: request, options: both)?.body == Array("n1".utf8))
        let again = try await send(cache, fetcher, request, both)
        #expect(again.source == .network)
        #expect(again.response.body == Array("n2".utf8))
        #expect(await cache.cachedResponse(for: request, options: both)?.body == Array("n2".utf8))
        // An interval bounds the cached part of `both`.
        clock.advance(by: .seconds(10))
        #expect(
            await cache.cachedResponse(for: request, options: HTTPCacheOptions(mode: .both, interval: .seconds(5)))
                == nil)
        // onlyWrite: always the network, but stored (the same key).
        let onlyWrite = HTTPCacheOptions(mode: .onlyWrite)
        #expect(await cache.cachedResponse(for: request, options: onlyWrite) == nil)
        #expect(try await send(cache, fetcher, request, onlyWrite).source == .network)
        #expect(try await send(cache, fetcher, request, onlyWrite).response.body == Array("n4".utf8))
        #expect(store.entries["GET http://h/x"]?.body == Array("n4".utf8))
        #expect(transport.requests.count == 4)
    }

    @Test func noneNeitherReadsNorWritesButUnsafeMethodsInvalidate() async throws {
        let (fetcher, transport) = makeFetcher { request in
            request.method == "DELETE"
                ? HTTPTransportResponse(status: 500)
                : HTTPTransportResponse(status: 200, headers: [HTTPField("Cache-Control", "max-age=60")])
        }
        let cache = HTTPCache(store: store, clock: clock)
        _ = try await send(cache, fetcher)
        #expect(store.entries.count == 1)
        let none = try await send(cache, fetcher, FetchRequest(url: "http://h/x"), HTTPCacheOptions(mode: .none))
        #expect(none.source == .network)
        #expect(none.pending == nil)
        // A failed unsafe request does not invalidate; a successful one does, whatever the mode.
        _ = try await send(
            cache, fetcher, FetchRequest(method: "DELETE", url: "http://h/x"), HTTPCacheOptions(mode: .none))
        #expect(store.entries.count == 1)
        _ = try await send(
            cache, fetcher, FetchRequest(method: "PUT", url: "http://H/x"), HTTPCacheOptions(mode: .none))
        #expect(store.entries.isEmpty)
        #expect(transport.requests.count == 4)
    }

    @Test func removalByRequestKeyURLAndAll() async throws {
        let (fetcher, _) = makeFetcher { _ in
            HTTPTransportResponse(status: 200, headers: [HTTPField("Cache-Control", "max-age=60")])
        }
        let cache = HTTPCache(store: store, clock: clock)
        let options = HTTPCacheOptions(mode: .http)
        for path in ["/a", "/a?x=1", "/b", "/c"] {
            _ = try await send(cache, fetcher, FetchRequest(url: "http://h" + path), options)
        }
        _ = try await send(
            cache, fetcher, FetchRequest(url: "http://h/a"), HTTPCacheOptions(mode: .onlyWrite, key: "k"))
        #expect(store.entries.count == 5)
        await cache.remove(for: FetchRequest(url: "http://h/a?x=1"), options: options)
        #expect(store.entries["GET http://h/a?x=1"] == nil)
        await cache.removeEntries(forURL: "HTTP://h:80/a")  // both keys filed under http://h/a
        #expect(store.entries.keys.sorted() == ["GET http://h/b", "GET http://h/c"])
        await cache.remove(key: "GET http://h/b")
        #expect(store.entries.keys.sorted() == ["GET http://h/c"])
        await cache.removeAll()
        #expect(store.entries.isEmpty)
    }

    @Test func conditionalRequestsOfTheCallerPassThrough() async throws {
        let (fetcher, transport) = makeFetcher { _ in
            HTTPTransportResponse(status: 200, headers: [HTTPField("Cache-Control", "max-age=60")])
        }
        let cache = HTTPCache(store: store, clock: clock)
        let request = FetchRequest(url: "http://h/x", headers: [HTTPField("If-None-Match", "\"mine\"")])
        let result = try await send(cache, fetcher, request)
        #expect(result.pending == nil)
        _ = try await send(cache, fetcher, request)
        #expect(transport.requests.count == 2)
        #expect(transport.requests.map { $0.header("if-none-match") } == ["\"mine\"", "\"mine\""])
    }
}

/// A thread-safe counter for handlers: `next()` returns 1, 2, 3, …
final class CacheTestCounter: Sendable {
    private let value = Locked(0)

    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }

    func set(_ newValue: Int) { value.withLock { $0 = newValue } }

    var current: Int { value.withLock { $0 } }
}
