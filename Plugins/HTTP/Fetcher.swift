import Foundation

/// What `fetch()` does with a redirect response (WHATWG `RequestRedirect`).
public enum RedirectMode: String, Sendable, Hashable, CaseIterable {
    case follow, manual, error
}

/// A request as the script made it: the fetcher follows redirects per `redirect`.
public struct FetchRequest: Sendable, Hashable {
    public var method: String
    public var url: String
    public var headers: [HTTPField]
    public var body: [UInt8]?
    public var redirect: RedirectMode
    /// How long to wait for each connection (nil: the transport's default).
    public var connectTimeout: Duration?

    public init(
        method: String = "GET", url: String, headers: [HTTPField] = [], body: [UInt8]? = nil,
        redirect: RedirectMode = .follow, connectTimeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.redirect = redirect
        self.connectTimeout = connectTimeout
    }
}

/// The final response of a fetch with its body not read yet: iterate `head.body` once (or drop it to
/// release the connection).
public struct OpenedResponse: Sendable {
    public var head: HTTPTransportResponse
    /// The URL after redirects.
    public var url: String
    public var redirected: Bool
}

/// A complete response: head, final URL, whether a redirect was followed, and the whole body.
public struct FetchResponse: Sendable, Hashable {
    public var status: Int
    public var statusText: String
    public var headers: [HTTPField]
    public var url: String
    public var redirected: Bool
    public var body: [UInt8]
}

/// The parts of a URL that the permission check and the transport need.
public struct HTTPTarget: Sendable, Hashable {
    public var url: URL
    public var scheme: String
    /// Lower-cased, without IPv6 brackets.
    public var host: String
    /// The explicit port, else 80 (http) or 443 (https).
    public var port: Int

    /// Parses an absolute http(s) URL; throws ``HTTPError/invalidURL(_:reason:)``.
    public init(_ text: String) throws(HTTPError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw HTTPError.invalidURL(text, reason: "not an absolute URL")
        }
        guard scheme == "http" || scheme == "https" else {
            throw HTTPError.invalidURL(text, reason: "the scheme '\(scheme)' is not supported (use http or https)")
        }
        guard var host = url.host, !host.isEmpty else {
            throw HTTPError.invalidURL(text, reason: "the URL has no host")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.url = url
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    /// Scheme, host and port: what "same origin" compares.
    public var origin: String { "\(scheme)://\(host):\(port)" }
}

/// Sends fetch requests through a transport: checks every hop with `authorize` before connecting,
/// follows redirects per the Fetch standard, and reads the body up to a limit.
public struct Fetcher: Sendable {
    public var transport: any HTTPTransport
    public var timeout: Duration
    public var maxRedirects: Int
    public var maxBodyBytes: Int
    /// Throws when the script may not reach `host:port` (the plugin passes its permission check).
    public var authorize: @Sendable (_ host: String, _ port: Int) throws -> Void

    public init(
        transport: any HTTPTransport, timeout: Duration = .seconds(300), maxRedirects: Int = 20,
        maxBodyBytes: Int = 256 << 20, authorize: @escaping @Sendable (_ host: String, _ port: Int) throws -> Void
    ) {
        self.transport = transport
        self.timeout = timeout
        self.maxRedirects = maxRedirects
        self.maxBodyBytes = maxBodyBytes
        self.authorize = authorize
    }

    /// Headers dropped when a redirect turns the request into a body-less GET (Fetch §4.4 step 12).
    static let bodyHeaders: Set<String> = [
        "content-type", "content-length", "content-encoding", "content-language", "content-location",
    ]

    /// Sends `request` and reads the whole body (up to ``maxBodyBytes``).
    public func fetch(_ request: FetchRequest) async throws -> FetchResponse {
        let transport = self.transport, timeout = self.timeout, limit = maxBodyBytes
        let opened = try await open(request) {
            try await transport.sendBuffered($0, timeout: timeout, maxBodyBytes: limit)
        }
        let body = try await opened.head.body.collect(upTo: maxBodyBytes, url: opened.url)
        return FetchResponse(
            status: opened.head.status, statusText: opened.head.reason, headers: opened.head.headers,
            url: opened.url, redirected: opened.redirected, body: body)
    }

    /// Sends `request`, following redirects per its mode, and returns the final response head with the body
    /// still streaming.
    public func open(_ request: FetchRequest) async throws -> OpenedResponse {
        let transport = self.transport, timeout = self.timeout
        return try await open(request) { try await transport.send($0, timeout: timeout) }
    }

    /// Follows redirects, sending each hop with `send`.
    private func open(
        _ request: FetchRequest, send: (HTTPTransportRequest) async throws -> HTTPTransportResponse
    ) async throws -> OpenedResponse {
        var current = HTTPTransportRequest(
            method: request.method, url: request.url, headers: request.headers, body: request.body,
            connectTimeout: request.connectTimeout)
        var target = try HTTPTarget(request.url)
        var redirects = 0
        while true {
            try authorize(target.host, target.port)
            try Task.checkCancellation()
            let response = try await send(current)
            if [301, 302, 303, 307, 308].contains(response.status), request.redirect != .manual,
                let location = response.header("location")
            {
                if request.redirect == .error {
                    throw HTTPError.network(
                        kind: "redirect",
                        message: "the response redirects (status \(response.status)) and redirect is \"error\"",
                        url: current.url)
                }
                redirects += 1
                if redirects > maxRedirects {
                    throw HTTPError.network(
                        kind: "redirect", message: "more than \(maxRedirects) redirects", url: current.url)
                }
                guard let next = URL(string: location, relativeTo: target.url)?.absoluteURL else {
                    throw HTTPError.network(
                        kind: "redirect", message: "invalid Location '\(location)'", url: current.url)
                }
                let nextTarget: HTTPTarget
                do {
                    nextTarget = try HTTPTarget(next.absoluteString)
                } catch {
                    throw HTTPError.network(
                        kind: "redirect", message: "cannot follow a redirect to '\(location)'", url: current.url)
                }
                // Drain nothing: dropping the body iterator releases the connection.
                let method = current.method.uppercased()
                if ((response.status == 301 || response.status == 302) && method == "POST")
                    || (response.status == 303 && method != "GET" && method != "HEAD")
                {
                    current.method = "GET"
                    current.body = nil
                    current.headers.removeAll { Self.bodyHeaders.contains($0.name.lowercased()) }
                }
                if nextTarget.origin != target.origin {
                    current.headers.removeAll {
                        let name = $0.name.lowercased()
                        return name == "authorization" || name == "cookie" || name == "proxy-authorization"
                    }
                }
                current.headers.removeAll { $0.name.lowercased() == "host" }
                current.url = next.absoluteString
                target = nextTarget
                continue
            }
            return OpenedResponse(head: response, url: current.url, redirected: redirects > 0)
        }
    }
}
