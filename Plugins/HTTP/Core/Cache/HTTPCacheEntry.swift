import Foundation

/// One stored response with what the cache needs to judge it later: the request's Vary'd header values and
/// the times of the exchange.
public struct HTTPCacheEntry: Sendable, Hashable {
    /// The cache key (``HTTPCacheKey/make(method:url:parameters:body:)`` or a caller's own key).
    public var key: String
    /// The request URL in ``HTTPCacheKey/normalizedURL(_:)`` form: what an unsafe request invalidates.
    public var url: String
    /// The request method.
    public var method: String
    /// The response status.
    public var status: Int
    /// The response's reason phrase.
    public var statusText: String
    /// The stored response header fields (hop-by-hop fields left out).
    public var headers: [HTTPField]
    /// The URL the response came from (after redirects).
    public var responseURL: String
    /// Whether redirects were followed to get the response.
    public var redirected: Bool
    /// The whole response body.
    public var body: [UInt8]
    /// The request's values of the fields named by the response's `Vary` (names lower-cased; nil: absent).
    public var varyValues: [String: String?]
    /// When the request (of the response or of its last revalidation) was sent.
    public var requestTime: Date
    /// When that response arrived.
    public var responseTime: Date
    /// When the entry was committed to the store (what ``HTTPCacheMode/alternative`` and the store's expiry measure).
    public var storedAt: Date

    /// Creates an entry.
    public init(
        key: String, url: String, method: String, status: Int, statusText: String, headers: [HTTPField],
        responseURL: String, redirected: Bool = false, body: [UInt8], varyValues: [String: String?] = [:],
        requestTime: Date, responseTime: Date, storedAt: Date
    ) {
        self.key = key
        self.url = url
        self.method = method
        self.status = status
        self.statusText = statusText
        self.headers = headers
        self.responseURL = responseURL
        self.redirected = redirected
        self.body = body
        self.varyValues = varyValues
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.storedAt = storedAt
    }

    /// The stored response as a fetch response (the one place that builds it).
    func response(extraHeaders: [HTTPField] = []) -> FetchResponse {
        var fields = headers
        for extra in extraHeaders {
            fields.removeAll { $0.name.caseInsensitiveCompare(extra.name) == .orderedSame }
            fields.append(extra)
        }
        return FetchResponse(
            status: status, statusText: statusText, headers: fields, url: responseURL, redirected: redirected,
            body: body)
    }
}

/// Default cache keys and the URL form entries are filed under.
public enum HTTPCacheKey {
    /// `METHOD normalized-URL` plus, when `parameters` is not empty, ` |` and the parameters sorted by name then
    /// value as `name=value` pairs joined with `&` (names and values percent-encoded); without parameters, a
    /// non-empty `body` adds ` #` and a hash of its bytes (so two bodies never share a key by accident).
    ///
    /// The same request with its query items or parameters in another order gets the same key.
    public static func make(
        method: String, url: String, parameters: [(name: String, value: String)] = [], body: [UInt8]? = nil
    ) -> String {
        var key = method.uppercased() + " " + normalizedURL(url)
        if !parameters.isEmpty {
            let sorted = parameters.map { (escape($0.name), escape($0.value)) }.sorted { $0 < $1 }
            key += " |" + sorted.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        } else if let body, !body.isEmpty {
            key += " #" + DiskHTTPCacheStore.hash128(bytes: body)
        }
        return key
    }

    /// `url` with its scheme and host lower-cased, the default port and the fragment dropped, an empty path
    /// made `/`, and its query items sorted (each item kept as written). A string that is not a URL is
    /// returned unchanged.
    public static func normalizedURL(_ url: String) -> String {
        guard var components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            return url
        }
        components.scheme = scheme
        components.host = components.host?.lowercased()
        if (scheme == "http" && components.port == 80) || (scheme == "https" && components.port == 443) {
            components.port = nil
        }
        components.fragment = nil
        if components.percentEncodedPath.isEmpty, components.host != nil { components.percentEncodedPath = "/" }
        if let query = components.percentEncodedQuery {
            let items = query.split(separator: "&", omittingEmptySubsequences: true).map(String.init).sorted()
            components.percentEncodedQuery = items.isEmpty ? nil : items.joined(separator: "&")
        }
        return components.string ?? url
    }

    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    private static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
