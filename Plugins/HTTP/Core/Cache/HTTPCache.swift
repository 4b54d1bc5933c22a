import Foundation
import JSBridgeBase

/// How a request uses the cache.
public enum HTTPCacheMode: String, Sendable, Hashable, CaseIterable {
    /// No reading, no storing (unsafe requests still invalidate the URL's entries).
    case none
    /// HTTP caching (RFC 9111, a private cache): freshness from `max-age` / `Expires`, revalidation with
    /// `ETag` / `Last-Modified`, `no-store`, `no-cache`, `Vary`, invalidation by unsafe methods.
    case http
    /// HAccess `HNCacheTypeAlternative`: the stored entry while it is younger than
    /// ``HTTPCacheOptions/interval``, else the network.
    case alternative
    /// The stored entry first (``HTTPCache/cachedResponse(for:options:)``), then the network result
    /// (``HTTPCache/send(_:options:network:)``, which never answers from the cache in this mode).
    case both
    /// Never read; store every storable network response.
    case onlyWrite
}

/// The cache settings of one request.
public struct HTTPCacheOptions: Sendable {
    /// How the request uses the cache.
    public var mode: HTTPCacheMode
    /// `alternative`: serve the stored entry while it is younger than this (nil: as long as it is stored);
    /// `both`: the oldest entry ``HTTPCache/cachedResponse(for:options:)`` returns (nil: any).
    public var interval: Duration?
    /// A key that replaces the default one (``HTTPCacheKey/make(method:url:parameters:body:)``).
    public var key: String?
    /// Extra parameters of the request that are part of the default key (e.g. body parameters), any order.
    /// When empty, a request body is part of the key as a hash of its bytes.
    public var parameters: [(name: String, value: String)]

    /// Options with parameters as ordered pairs (duplicates allowed).
    public init(
        mode: HTTPCacheMode, interval: Duration? = nil, key: String? = nil,
        parameters: [(name: String, value: String)] = []
    ) {
        self.mode = mode
        self.interval = interval
        self.key = key
        self.parameters = parameters
    }

    /// Options with parameters as a dictionary.
    public init(mode: HTTPCacheMode, interval: Duration? = nil, key: String? = nil, parameters: [String: String]) {
        self.init(
            mode: mode, interval: interval, key: key, parameters: parameters.map { (name: $0.key, value: $0.value) })
    }
}

/// Where a response came from.
public enum HTTPCacheSource: String, Sendable, Hashable {
    /// The body comes from the store.
    case cache
    /// The response comes from the server.
    case network
}

/// A network response that may be stored once the caller has validated it: pass it to ``HTTPCache/commit(_:)``.
public struct HTTPCachePendingEntry: Sendable, Hashable {
    /// The entry that ``HTTPCache/commit(_:)`` stores (its `storedAt` is set then).
    public var entry: HTTPCacheEntry
    /// The key it will be stored under.
    public var key: String { entry.key }
    /// The claim on fetching `key` this response holds, ended by ``HTTPCache/commit(_:)`` or
    /// ``HTTPCache/discard(_:)`` (others wait for its entry meanwhile).
    var fillOwner: String?
}

/// The answer of ``HTTPCache/send(_:options:network:)``.
public struct HTTPCacheResult: Sendable {
    /// The response to deliver.
    public var response: FetchResponse
    /// `cache` when the body comes from the store (also after a 304 revalidation), else `network`.
    public var source: HTTPCacheSource
    /// Whether the server was asked and answered 304 Not Modified (the stored headers were refreshed).
    public var revalidated: Bool
    /// The entry to commit after validating `response`; nil when there is nothing to store.
    public var pending: HTTPCachePendingEntry?
}

/// Counters of an ``HTTPCache`` since it was created.
public struct HTTPCacheStatistics: Sendable, Hashable {
    /// Requests answered from the store without contacting the server.
    public var hits = 0
    /// Lookups that found nothing usable (absent, expired, Vary mismatch).
    public var misses = 0
    /// Conditional requests sent to revalidate a stale entry.
    public var revalidations = 0
    /// Revalidations answered 304 (served from the store).
    public var notModified = 0
    /// Entries committed (and 304 refreshes stored).
    public var stores = 0
    /// URLs invalidated after unsafe requests.
    public var invalidations = 0

    /// All zero.
    public init() {}
}

/// The HTTP cache: decides whether a request is answered from an ``HTTPCacheStore`` or the network, and what
/// may be stored. Storing a network response is a separate step (``commit(_:)``) so that only responses the
/// caller validated are cached. Bridge-free; time comes from the injected clock.
///
/// ```swift
/// let cache = HTTPCache(store: try DiskHTTPCacheStore(directory: dir), clock: context.clock)
/// let result = try await cache.send(request, options: HTTPCacheOptions(mode: .http)) { try await fetcher.fetch($0) }
/// let model = try validate(result.response)            // business check + conversion
/// if let pending = result.pending { try await cache.commit(pending) }
/// ```
public final class HTTPCache: Sendable {
    /// Where entries live.
    public let store: any HTTPCacheStore
    /// The wall clock for ages and `Date`/`Expires` arithmetic.
    public let clock: any BridgeClock
    private let counters = Locked(HTTPCacheStatistics())

    /// How long a request that misses waits for another process's fetch of the same entry (a shared store's
    /// single flight) before going to the network itself; also how long a fetch's claim lives.
    public let fillWait: Duration
    /// How often a waiting request looks for the entry.
    public let fillPoll: Duration

    /// A cache over `store` using `clock`.
    public init(
        store: any HTTPCacheStore, clock: any BridgeClock = SystemClock(), fillWait: Duration = .seconds(10),
        fillPoll: Duration = .milliseconds(25)
    ) {
        self.store = store
        self.clock = clock
        self.fillWait = fillWait
        self.fillPoll = fillPoll
    }

    /// The counters so far.
    public var statistics: HTTPCacheStatistics { counters.withLock { $0 } }

    /// The key `request` is stored under: `options.key`, else ``HTTPCacheKey/make(method:url:parameters:body:)``.
    public func key(for request: FetchRequest, options: HTTPCacheOptions) -> String {
        options.key
            ?? HTTPCacheKey.make(
                method: request.method, url: request.url, parameters: options.parameters, body: request.body)
    }

    /// Answers `request` per `options.mode`, from the store or through `network` (which sends a request and
    /// reads the response, e.g. `Fetcher.fetch`). Errors of `network` are passed on.
    ///
    /// A storable network response comes back with a ``HTTPCacheResult/pending`` entry that is stored only when
    /// passed to ``commit(_:)``. A 304 refresh is stored at once (its body was validated before).
    public func send(
        _ request: FetchRequest, options: HTTPCacheOptions,
        network: (FetchRequest) async throws -> FetchResponse
    ) async throws -> HTTPCacheResult {
        let key = key(for: request, options: options)
        let method = request.method.uppercased()
        switch options.mode {
        case .none:
            return try await fetch(request, key: key, store: nil, network: network)
        case .onlyWrite, .both:
            return try await fetch(request, key: key, store: .leniently, network: network)
        case .alternative:
            if let entry = await usableEntry(key: key, request: request, mode: .alternative, interval: options.interval)
            {
                return hit(entry)
            }
            count { $0.misses += 1 }
            if let entry = try await fetchOnce(request, key: key, mode: .alternative, interval: options.interval) {
                return hit(entry)
            }
            return try await fetchFilling(request, key: key, store: .leniently, network: network)
        case .http:
            guard method == "GET", !bypassesHTTPCache(request) else {
                return try await fetch(request, key: key, store: nil, network: network)
            }
            let now = clock.now()
            guard let stored = await store.entry(forKey: key),
                HTTPCachePolicy.varyMatches(stored, request: request.headers)
            else {
                count { $0.misses += 1 }
                if CacheControl(request.headers).has("only-if-cached") { return gatewayTimeout(request) }
                if let entry = try await fetchOnce(request, key: key, mode: .http, interval: nil) { return hit(entry) }
                return try await fetchFilling(request, key: key, store: .http, network: network)
            }
            if HTTPCachePolicy.isFresh(stored, request: request.headers, now: now) { return hit(stored) }
            if CacheControl(request.headers).has("only-if-cached") {
                count { $0.misses += 1 }
                return gatewayTimeout(request)
            }
            guard let conditional = HTTPCachePolicy.conditionalRequest(request, for: stored) else {
                count { $0.misses += 1 }
                return try await fetch(request, key: key, store: .http, network: network)
            }
            count { $0.revalidations += 1 }
            let requestTime = clock.now()
            let response = try await network(conditional)
            let responseTime = clock.now()
            guard response.status == 304 else {
                return result(
                    request, key: key, response: response, store: .http, requestTime: requestTime,
                    responseTime: responseTime)
            }
            var refreshed = stored
            refreshed.headers = HTTPCachePolicy.refreshedHeaders(stored: stored.headers, notModified: response.headers)
            refreshed.requestTime = requestTime
            refreshed.responseTime = responseTime
            refreshed.storedAt = responseTime
            // A store that cannot write must not fail a request that has its answer.
            try? await store.store(refreshed)
            count {
                $0.notModified += 1
                $0.stores += 1
            }
            return HTTPCacheResult(
                response: served(refreshed), source: .cache, revalidated: true, pending: nil)
        }
    }

    /// Stores a pending entry (after the caller validated the response it came with).
    public func commit(_ pending: HTTPCachePendingEntry) async throws {
        var entry = pending.entry
        entry.storedAt = clock.now()
        do {
            try await store.store(entry)
        } catch {
            await discard(pending)
            throw error
        }
        count { $0.stores += 1 }
        await discard(pending)
    }

    /// Lets go of a pending entry that will not be stored: requests waiting for it go to the network.
    public func discard(_ pending: HTTPCachePendingEntry) async {
        if let owner = pending.fillOwner { await store.endFill(key: pending.key, owner: owner) }
    }

    /// The stored response `send` would deliver without contacting the server — for `both`, the cached part
    /// (any stored entry, or one younger than `options.interval`). Nil for `none` and `onlyWrite`.
    public func cachedResponse(for request: FetchRequest, options: HTTPCacheOptions) async -> FetchResponse? {
        let key = key(for: request, options: options)
        switch options.mode {
        case .none, .onlyWrite:
            return nil
        case .http:
            guard request.method.uppercased() == "GET", !bypassesHTTPCache(request),
                let entry = await store.entry(forKey: key),
                HTTPCachePolicy.varyMatches(entry, request: request.headers),
                HTTPCachePolicy.isFresh(entry, request: request.headers, now: clock.now())
            else { return nil }
            count { $0.hits += 1 }
            return served(entry)
        case .alternative, .both:
            guard
                let entry = await usableEntry(
                    key: key, request: request, mode: options.mode, interval: options.interval)
            else { return nil }
            count { $0.hits += 1 }
            return served(entry)
        }
    }

    /// Removes the entry `request` would be stored under.
    public func remove(for request: FetchRequest, options: HTTPCacheOptions) async {
        await store.removeEntry(forKey: key(for: request, options: options))
    }

    /// Removes the entry stored under `key`.
    public func remove(key: String) async {
        await store.removeEntry(forKey: key)
    }

    /// Removes every entry of the URL (in any method or parameters) — what an unsafe request does.
    public func removeEntries(forURL url: String) async {
        await store.removeEntries(forURL: HTTPCacheKey.normalizedURL(url))
    }

    /// Removes every entry.
    public func removeAll() async {
        await store.removeAll()
    }

    // MARK: Internals

    private enum StoreRule {
        case http, leniently
    }

    /// Requests the HTTP mode passes straight through: their own conditional or range headers, or `no-store`.
    private func bypassesHTTPCache(_ request: FetchRequest) -> Bool {
        if CacheControl(request.headers).has("no-store") { return true }
        return request.headers.contains {
            let name = $0.name.lowercased()
            return name == "if-none-match" || name == "if-modified-since" || name == "if-match"
                || name == "if-unmodified-since" || name == "if-range" || name == "range"
        }
    }

    /// A stored entry for the key-based modes: Vary matches and (with an interval) it is young enough.
    private func usableEntry(key: String, request: FetchRequest, mode: HTTPCacheMode, interval: Duration?) async
        -> HTTPCacheEntry?
    {
        guard let entry = await store.entry(forKey: key), HTTPCachePolicy.varyMatches(entry, request: request.headers)
        else { return nil }
        if let interval {
            let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
            guard clock.now().timeIntervalSince(entry.storedAt) < seconds else { return nil }
        }
        return entry
    }

    private func hit(_ entry: HTTPCacheEntry) -> HTTPCacheResult {
        count { $0.hits += 1 }
        return HTTPCacheResult(response: served(entry), source: .cache, revalidated: false, pending: nil)
    }

    /// The stored response with its current `Age`.
    private func served(_ entry: HTTPCacheEntry) -> FetchResponse {
        let age = Int(HTTPCachePolicy.currentAge(entry, now: clock.now()))
        return entry.response(extraHeaders: [HTTPField("age", String(age))])
    }

    private func gatewayTimeout(_ request: FetchRequest) -> HTTPCacheResult {
        let entry = HTTPCacheEntry(
            key: "", url: request.url, method: request.method, status: 504, statusText: HTTPStatus.reason(504),
            headers: [], responseURL: request.url, body: [], requestTime: clock.now(), responseTime: clock.now(),
            storedAt: clock.now())
        return HTTPCacheResult(response: entry.response(), source: .cache, revalidated: false, pending: nil)
    }

    /// On a miss: when another process is already fetching `key` (it holds the store's claim), waits up to
    /// ``fillWait`` for the entry it stores and returns it; nil when this request should fetch (no one else
    /// is, theirs failed or stored nothing, or it took too long).
    private func fetchOnce(_ request: FetchRequest, key: String, mode: HTTPCacheMode, interval: Duration?)
        async throws -> HTTPCacheEntry?
    {
        guard await store.fillInProgress(key: key) else { return nil }
        let deadline = clock.now().addingTimeInterval(seconds(fillWait))
        while clock.now() < deadline {
            try await clock.sleep(for: fillPoll)
            let inProgress = await store.fillInProgress(key: key)
            if let entry = await usableEntry(key: key, request: request, mode: mode, interval: interval),
                mode != .http || HTTPCachePolicy.isFresh(entry, request: request.headers, now: clock.now())
            {
                return entry
            }
            if !inProgress { return nil }
        }
        return nil
    }

    /// A network fetch under the store's claim on `key` (when it gets it), so that concurrent misses of other
    /// processes wait for this one's entry instead of asking the server too. The claim ends when the pending
    /// entry is committed or discarded, at once when there is nothing to store, or when its lease ends.
    private func fetchFilling(
        _ request: FetchRequest, key: String, store rule: StoreRule,
        network: (FetchRequest) async throws -> FetchResponse
    ) async throws -> HTTPCacheResult {
        let owner = UUID().uuidString
        guard await store.beginFill(key: key, owner: owner, lease: fillWait) else {
            // Another fetch started between the look and the claim: wait for it as above.
            if let entry = try await fetchOnce(
                request, key: key, mode: rule == .http ? .http : .alternative, interval: nil)
            {
                return hit(entry)
            }
            return try await fetch(request, key: key, store: rule, network: network)
        }
        var result: HTTPCacheResult
        do {
            result = try await fetch(request, key: key, store: rule, network: network)
        } catch {
            await store.endFill(key: key, owner: owner)
            throw error
        }
        if result.pending == nil {
            await store.endFill(key: key, owner: owner)
        } else {
            result.pending?.fillOwner = owner
        }
        return result
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private func fetch(
        _ request: FetchRequest, key: String, store rule: StoreRule?,
        network: (FetchRequest) async throws -> FetchResponse
    ) async throws -> HTTPCacheResult {
        let requestTime = clock.now()
        let response = try await network(request)
        let responseTime = clock.now()
        await invalidateIfUnsafe(request, response: response)
        return result(
            request, key: key, response: response, store: rule, requestTime: requestTime, responseTime: responseTime)
    }

    /// After an unsafe method got a non-error (2xx, 3xx) response, removes the entries of the request URL and
    /// of `Location` / `Content-Location` when they are on the same origin (RFC 9111 §4.4).
    private func invalidateIfUnsafe(_ request: FetchRequest, response: FetchResponse) async {
        guard !HTTPCachePolicy.safeMethods.contains(request.method.uppercased()), (200..<400).contains(response.status)
        else { return }
        var urls = [HTTPCacheKey.normalizedURL(request.url)]
        if let target = try? HTTPTarget(request.url) {
            for name in ["location", "content-location"] {
                guard let value = CacheFields.first(name, in: response.headers),
                    let resolved = URL(string: value, relativeTo: target.url)?.absoluteURL,
                    let other = try? HTTPTarget(resolved.absoluteString), other.origin == target.origin
                else { continue }
                urls.append(HTTPCacheKey.normalizedURL(resolved.absoluteString))
            }
        }
        for url in Set(urls) { await store.removeEntries(forURL: url) }
        count { $0.invalidations += 1 }
    }

    /// A network response: invalidates after unsafe methods, and offers a pending entry when storable.
    private func result(
        _ request: FetchRequest, key: String, response: FetchResponse, store rule: StoreRule?,
        requestTime: Date, responseTime: Date
    ) -> HTTPCacheResult {
        return HTTPCacheResult(
            response: response, source: .network, revalidated: false,
            pending: pendingEntry(
                request, key: key, response: response, rule: rule, requestTime: requestTime,
                responseTime: responseTime))
    }

    private func pendingEntry(
        _ request: FetchRequest, key: String, response: FetchResponse, rule: StoreRule?, requestTime: Date,
        responseTime: Date
    ) -> HTTPCachePendingEntry? {
        switch rule {
        case nil:
            return nil
        case .http:
            guard
                HTTPCachePolicy.isStorable(request: request.headers, response: response, responseTime: responseTime)
            else { return nil }
        case .leniently:
            guard HTTPCachePolicy.isStorableLeniently(response) else {
                return nil
            }
        }
        let names = HTTPCachePolicy.varyNames(response.headers) ?? []
        return HTTPCachePendingEntry(
            entry: HTTPCacheEntry(
                key: key, url: HTTPCacheKey.normalizedURL(request.url), method: request.method.uppercased(),
                status: response.status, statusText: response.statusText,
                headers: HTTPCachePolicy.storedHeaders(response.headers), responseURL: response.url,
                redirected: response.redirected, body: response.body,
                varyValues: HTTPCachePolicy.varyValues(names: names, request: request.headers),
                requestTime: requestTime, responseTime: responseTime, storedAt: responseTime))
    }

    private func count(_ update: (inout HTTPCacheStatistics) -> Void) {
        counters.withLock { update(&$0) }
    }
}
