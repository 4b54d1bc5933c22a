import Foundation

/// The RFC 9111 rules the cache applies (a private cache): storability, freshness, age, Vary, header updates.
public enum HTTPCachePolicy {
    /// Statuses cacheable without explicit freshness (RFC 9110 §15.1 "heuristically cacheable"; 206 is left out:
    /// the cache does not store partial content).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Methods that do not change the server's state (RFC 9110 §9.2.1); any other method invalidates.
    public static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

    /// Header fields a cache does not store or take from a 304 (connection-specific ones, and the length).
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
        "proxy-authenticate", "proxy-authorization",
    ]

    /// The longest heuristic freshness given (10% of the time since `Last-Modified`, at most a day).
    static let maxHeuristicLifetime: TimeInterval = 86_400

    // MARK: Storing

    /// Whether an `http`-mode response to a GET `request` may be stored (RFC 9111 §3), and is worth it (it is
    /// fresh for a while or can be revalidated).
    static func isStorable(request: [HTTPField], response: FetchResponse, responseTime: Date) -> Bool {
        let status = response.status
        guard status >= 200, status != 206, status != 304 else { return false }
        let requestControl = CacheControl(request)
        let control = CacheControl(response.headers)
        if requestControl.has("no-store") || control.has("no-store") { return false }
        if varyNames(response.headers) == nil { return false }
        if CacheFields.first("authorization", in: request) != nil,
            !(control.has("public") || control.has("must-revalidate") || control.has("s-maxage"))
        {
            return false
        }
        let explicit =
            control.has("public") || control.has("private") || control.has("max-age")
            || CacheFields.first("expires", in: response.headers) != nil
        guard explicit || heuristicallyCacheable.contains(status) else { return false }
        let lifetime = freshnessLifetime(status: status, headers: response.headers, responseTime: responseTime)
        return lifetime > 0 || hasValidators(response.headers)
    }

    /// Whether a response may be stored in the `alternative`, `both` and `onlyWrite` modes, which ignore HTTP's
    /// caching headers (the DAO asked for the cache): any success or heuristically cacheable status, whatever
    /// its `Cache-Control` says, unless `Vary: *` makes it impossible to match again.
    static func isStorableLeniently(_ response: FetchResponse) -> Bool {
        let status = response.status
        guard status != 206, (200..<300).contains(status) || heuristicallyCacheable.contains(status) else {
            return false
        }
        return varyNames(response.headers) != nil
    }

    /// The headers to store: the response's without hop-by-hop fields.
    static func storedHeaders(_ headers: [HTTPField]) -> [HTTPField] {
        headers.filter { !hopByHop.contains($0.name.lowercased()) }
    }

    /// The stored headers updated from a 304 (RFC 9111 §3.2): each field of the 304 replaces the stored
    /// fields of that name, except hop-by-hop fields and `Content-Length`.
    static func refreshedHeaders(stored: [HTTPField], notModified: [HTTPField]) -> [HTTPField] {
        let updates = notModified.filter {
            let name = $0.name.lowercased()
            return !hopByHop.contains(name) && name != "content-length"
        }
        let replaced = Set(updates.map { $0.name.lowercased() })
        return stored.filter { !replaced.contains($0.name.lowercased()) } + updates
    }

    // MARK: Vary

    /// The lower-cased field names listed by `Vary`; nil for `Vary: *` (never matches).
    static func varyNames(_ headers: [HTTPField]) -> [String]? {
        guard let vary = CacheFields.combined("vary", in: headers) else { return [] }
        let names = vary.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
        return names.contains("*") ? nil : names
    }

    /// The request's values of `names` (nil for an absent field).
    static func varyValues(names: [String], request: [HTTPField]) -> [String: String?] {
        var values: [String: String?] = [:]
        for name in names { values[name] = .some(CacheFields.combined(name, in: request).map(normalizeVary)) }
        return values
    }

    /// Whether `request` selects `entry` (RFC 9111 §4.1): every Vary'd field has the stored value.
    static func varyMatches(_ entry: HTTPCacheEntry, request: [HTTPField]) -> Bool {
        guard let names = varyNames(entry.headers) else { return false }
        for name in names {
            let current = CacheFields.combined(name, in: request).map(normalizeVary)
            guard let stored = entry.varyValues[name], stored == current else { return false }
        }
        return true
    }

    /// Whitespace around list items does not matter when comparing Vary'd values.
    private static func normalizeVary(_ value: String) -> String {
        value.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ",")
    }

    // MARK: Freshness

    /// How long the response stays fresh after it was generated (RFC 9111 §4.2.1), in seconds: `max-age`,
    /// else `Expires` − `Date` (an invalid `Expires` means already expired), else for heuristically cacheable
    /// statuses 10% of `Date` − `Last-Modified` (at most a day), else 0.
    static func freshnessLifetime(status: Int, headers: [HTTPField], responseTime: Date) -> TimeInterval {
        let control = CacheControl(headers)
        if let maxAge = control.seconds("max-age") { return TimeInterval(maxAge) }
        let date = CacheFields.first("date", in: headers).flatMap(HTTPDate.parse) ?? responseTime
        if let expires = CacheFields.first("expires", in: headers) {
            guard let expiry = HTTPDate.parse(expires) else { return 0 }
            return expiry.timeIntervalSince(date)
        }
        if heuristicallyCacheable.contains(status) || control.has("public"),
            let lastModified = CacheFields.first("last-modified", in: headers).flatMap(HTTPDate.parse)
        {
            return min(max(0, date.timeIntervalSince(lastModified) * 0.1), maxHeuristicLifetime)
        }
        return 0
    }

    /// The entry's current age (RFC 9111 §4.2.3), in seconds.
    static func currentAge(_ entry: HTTPCacheEntry, now: Date) -> TimeInterval {
        let date = CacheFields.first("date", in: entry.headers).flatMap(HTTPDate.parse) ?? entry.responseTime
        let apparentAge = max(0, entry.responseTime.timeIntervalSince(date))
        let ageValue =
            CacheFields.first("age", in: entry.headers)
            .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { TimeInterval(max(0, $0)) } ?? 0
        let responseDelay = max(0, entry.responseTime.timeIntervalSince(entry.requestTime))
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        let residentTime = max(0, now.timeIntervalSince(entry.responseTime))
        return correctedInitialAge + residentTime
    }

    /// Whether `entry` may answer `request` now without contacting the server: fresh, not marked `no-cache`,
    /// and within the request's `max-age` / `min-fresh` (RFC 9111 §4.2, §5.2.1).
    static func isFresh(_ entry: HTTPCacheEntry, request: [HTTPField], now: Date) -> Bool {
        let requestControl = CacheControl(request)
        let control = CacheControl(entry.headers)
        if requestControl.noCache || control.noCache { return false }
        if CacheFields.first("cache-control", in: request) == nil,
            let pragma = CacheFields.combined("pragma", in: request), pragma.lowercased().contains("no-cache")
        {
            return false
        }
        let age = currentAge(entry, now: now)
        let lifetime = freshnessLifetime(status: entry.status, headers: entry.headers, responseTime: entry.responseTime)
        guard lifetime > age else { return false }
        if let maxAge = requestControl.seconds("max-age"), age > TimeInterval(maxAge) { return false }
        if let minFresh = requestControl.seconds("min-fresh"), lifetime - age < TimeInterval(minFresh) { return false }
        return true
    }

    /// Whether the entry carries a validator (`ETag` or `Last-Modified`).
    static func hasValidators(_ headers: [HTTPField]) -> Bool {
        CacheFields.first("etag", in: headers) != nil || CacheFields.first("last-modified", in: headers) != nil
    }

    /// `request` made conditional on `entry`'s validators (`If-None-Match`, `If-Modified-Since`); nil when the
    /// entry has none.
    static func conditionalRequest(_ request: FetchRequest, for entry: HTTPCacheEntry) -> FetchRequest? {
        let etag = CacheFields.first("etag", in: entry.headers)
        let lastModified = CacheFields.first("last-modified", in: entry.headers)
        guard etag != nil || lastModified != nil else { return nil }
        var conditional = request
        conditional.headers.removeAll {
            let name = $0.name.lowercased()
            return name == "if-none-match" || name == "if-modified-since"
        }
        if let etag { conditional.headers.append(HTTPField("If-None-Match", etag)) }
        if let lastModified { conditional.headers.append(HTTPField("If-Modified-Since", lastModified)) }
        return conditional
    }
}
