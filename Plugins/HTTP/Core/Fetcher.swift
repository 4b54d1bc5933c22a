import Foundation
import JSBridgeBase

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
    /// A body produced while it is sent (sent chunked when its length is unknown), instead of ``body``. It can
    /// be sent once only: a redirect that would send it again is a network error (Fetch §4.4).
    public var bodyStream: HTTPRequestBodyStream?

    public init(
        method: String = "GET", url: String, headers: [HTTPField] = [], body: [UInt8]? = nil,
        redirect: RedirectMode = .follow, connectTimeout: Duration? = nil, bodyStream: HTTPRequestBodyStream? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.redirect = redirect
        self.connectTimeout = connectTimeout
        self.bodyStream = bodyStream
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

extension FetchResponse {
    /// The response of `opened`, whose body must be in memory (``HTTPResponseBody/buffered``).
    init(buffered opened: OpenedResponse) throws(HTTPError) {
        guard let body = opened.head.body.buffered else {
            throw HTTPError.network(
                kind: "other", message: "the transport answered with a streamed body", url: opened.url)
        }
        self.init(
            status: opened.head.status, statusText: opened.head.reason, headers: opened.head.headers, url: opened.url,
            redirected: opened.redirected, body: body)
    }
}

/// A complete response: head, final URL, whether a redirect was followed, and the whole body.
public struct FetchResponse: Sendable, Hashable {
    public var status: Int
    public var statusText: String
    public var headers: [HTTPField]
    public var url: String
    public var redirected: Bool
    public var body: [UInt8]

    public init(
        status: Int, statusText: String, headers: [HTTPField], url: String, redirected: Bool, body: [UInt8]
    ) {
        self.status = status
        self.statusText = statusText
        self.headers = headers
        self.url = url
        self.redirected = redirected
        self.body = body
    }
}

/// The parts of a URL that the permission check and the transport need.
public struct HTTPTarget: Sendable, Hashable {
    public var url: URL
    /// The URL as given, or with its host written as an IPv4 address when it was in a number form.
    public var text: String
    public var scheme: String
    /// Lower-cased, without IPv6 brackets.
    public var host: String
    /// The explicit port, else 80 (http) or 443 (https).
    public var port: Int

    /// Parses an absolute http(s) URL; throws ``HTTPError/invalidURL(_:reason:)``.
    public init(_ text: String) throws(HTTPError) {
        guard let parsed = URL(string: text), let scheme = parsed.scheme?.lowercased() else {
            throw HTTPError.invalidURL(text, reason: "not an absolute URL")
        }
        guard scheme == "http" || scheme == "https" else {
            throw HTTPError.invalidURL(text, reason: "the scheme '\(scheme)' is not supported (use http or https)")
        }
        guard var host = parsed.host, !host.isEmpty else {
            throw HTTPError.invalidURL(text, reason: "the URL has no host")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        var url = parsed
        var text = text
        // A host that ends in a number is an IPv4 address in one of the URL Standard's forms (2130706433,
        // 0x7f.1, 127.1): written as fetch writes it, so that redirects and fetch check the same host.
        switch IPv4Host.parse(host) {
        case .notIPv4: break
        case .invalid: throw HTTPError.invalidURL(text, reason: "'\(host)' is not a valid IPv4 address")
        case .address(let address):
            host = address
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            components?.host = address
            if let normalized = components?.url {
                url = normalized
                text = normalized.absoluteString
            }
        }
        self.url = url
        self.text = text
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
        var hop = try FetchHop(request)
        while true {
            try authorize(hop.target.host, hop.target.port)
            try Task.checkCancellation()
            let response = try await send(hop.request)
            guard try hop.follow(response, mode: request.redirect, maxRedirects: maxRedirects) else {
                return OpenedResponse(head: response, url: hop.request.url, redirected: hop.redirects > 0)
            }
        }
    }

    /// Sends `request` like ``fetch(_:)`` but without a Swift task, through the transport's
    /// ``HTTPTransport/startBuffered(_:timeout:maxBodyBytes:completion:)``: `completion` gets the response or
    /// the error, once, on any thread. Returns a function that cancels the fetch, or nil (having done nothing)
    /// when the transport cannot send this way.
    public func start(
        _ request: FetchRequest, completion: @escaping @Sendable (Result<FetchResponse, any Error>) -> Void
    ) -> (@Sendable () -> Void)? {
        start(request, streaming: false) { result in
            completion(
                result.flatMap { opened in Result { () throws(HTTPError) in try FetchResponse(buffered: opened) } })
        }
    }

    /// Sends `request` like ``start(_:completion:)``, but answers once the final response's head is in: its body
    /// is streamed unless it came whole with the head (``HTTPTransport/startStreaming(_:timeout:maxBodyBytes:completion:)``).
    /// Returns nil (having done nothing) when the transport cannot send this way.
    public func startStreaming(
        _ request: FetchRequest, completion: @escaping @Sendable (Result<OpenedResponse, any Error>) -> Void
    ) -> (@Sendable () -> Void)? {
        start(request, streaming: true, completion: completion)
    }

    private func start(
        _ request: FetchRequest, streaming: Bool,
        completion: @escaping @Sendable (Result<OpenedResponse, any Error>) -> Void
    ) -> (@Sendable () -> Void)? {
        let hop: FetchHop
        do {
            hop = try FetchHop(request)
            try authorize(hop.target.host, hop.target.port)
        } catch {
            completion(.failure(error))
            return {}
        }
        let fetch = CallbackFetch(
            fetcher: self, mode: request.redirect, streaming: streaming, hop: hop, completion: completion)
        guard fetch.sendFirst() else { return nil }
        return { fetch.cancel() }
    }
}

/// One request of a fetch and its target: what each followed redirect changes (Fetch §4.4).
/// The URL Standard's IPv4 host parser: a host whose last label is a number is an address, written as
/// decimal, octal (`0` prefix) or hexadecimal (`0x`) parts, fewer than four parts filling the last ones.
enum IPv4Host: Equatable {
    case notIPv4
    case invalid
    case address(String)

    static func parse(_ host: String) -> IPv4Host {
        var parts = host.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() }
        guard let last = parts.last, last.allSatisfy(\.isASCIIDigit) || number(last) != nil else { return .notIPv4 }
        guard parts.count <= 4 else { return .invalid }
        var numbers: [UInt64] = []
        for part in parts {
            guard let value = number(part) else { return .invalid }
            numbers.append(value)
        }
        guard numbers.dropLast().allSatisfy({ $0 <= 255 }) else { return .invalid }
        let lastLimit = UInt64(1) << (8 * UInt64(5 - numbers.count))
        guard numbers.last! < lastLimit else { return .invalid }
        var address = numbers.last!
        for (index, value) in numbers.dropLast().enumerated() { address += value << (8 * UInt64(3 - index)) }
        return .address((0..<4).map { String((address >> (8 * UInt64(3 - $0))) & 0xFF) }.joined(separator: "."))
    }

    /// An IPv4 number: decimal, `0`-prefixed octal, or `0x` hexadecimal (empty after the prefix: 0).
    private static func number(_ part: Substring) -> UInt64? {
        guard !part.isEmpty else { return nil }
        var digits = part
        var radix = 10
        if digits.count >= 2, digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2, digits.hasPrefix("0") {
            digits = digits.dropFirst()
            radix = 8
        }
        if digits.isEmpty { return 0 }
        return UInt64(digits, radix: radix)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension Fetcher {
    /// Throws unless `url`'s host and effective port may be reached: a stored response of the URL needs it
    /// too, or the cache would serve what the network may not.
    public func authorize(url: String) throws {
        let target = try HTTPTarget(url)
        try authorize(target.host, target.port)
    }
}

struct FetchHop: Sendable {
    var request: HTTPTransportRequest
    var target: HTTPTarget
    var redirects = 0

    init(_ fetch: FetchRequest) throws(HTTPError) {
        target = try Self.targets.value(for: fetch.url) { () throws(HTTPError) in try HTTPTarget(fetch.url) }
        request = HTTPTransportRequest(
            method: fetch.method, url: target.text, headers: fetch.headers, body: fetch.body,
            connectTimeout: fetch.connectTimeout)
        request.bodyStream = fetch.bodyStream
    }

    /// The targets of the URLs fetched lately (parsing one with Foundation's `URL` took ~2% of the JS thread's
    /// time per request at 64 in flight).
    private static let targets = BoundedMemo<HTTPTarget>()

    /// Moves to the hop that `response` redirects to and returns true, or returns false when `response` is
    /// the final one (per `mode`); throws for a redirect that may not or cannot be followed.
    mutating func follow(_ response: HTTPTransportResponse, mode: RedirectMode, maxRedirects: Int) throws(HTTPError)
        -> Bool
    {
        guard [301, 302, 303, 307, 308].contains(response.status), mode != .manual,
            let location = response.header("location")
        else { return false }
        if mode == .error {
            throw HTTPError.network(
                kind: "redirect",
                message: "the response redirects (status \(response.status)) and redirect is \"error\"",
                url: request.url)
        }
        redirects += 1
        if redirects > maxRedirects {
            throw HTTPError.network(kind: "redirect", message: "more than \(maxRedirects) redirects", url: request.url)
        }
        guard let next = URL(string: location, relativeTo: target.url)?.absoluteURL else {
            throw HTTPError.network(kind: "redirect", message: "invalid Location '\(location)'", url: request.url)
        }
        let nextTarget: HTTPTarget
        do {
            nextTarget = try HTTPTarget(next.absoluteString)
        } catch {
            throw HTTPError.network(
                kind: "redirect", message: "cannot follow a redirect to '\(location)'", url: request.url)
        }
        // Drain nothing: dropping the body iterator releases the connection.
        let method = request.method.uppercased()
        if ((response.status == 301 || response.status == 302) && method == "POST")
            || (response.status == 303 && method != "GET" && method != "HEAD")
        {
            request.method = "GET"
            request.body = nil
            request.bodyStream = nil
            request.headers.removeAll { Fetcher.bodyHeaders.contains($0.name.lowercased()) }
        }
        if request.bodyStream != nil {
            throw HTTPError.network(
                kind: "redirect", message: "cannot follow a redirect (status \(response.status)) with a stream body",
                url: request.url)
        }
        if nextTarget.origin != target.origin {
            request.headers.removeAll {
                let name = $0.name.lowercased()
                return name == "authorization" || name == "cookie" || name == "proxy-authorization"
            }
        }
        request.headers.removeAll { $0.name.lowercased() == "host" }
        request.url = nextTarget.text
        target = nextTarget
        return true
    }
}

/// A fetch driven by the transport's completions instead of a task (``Fetcher/start(_:completion:)``).
private final class CallbackFetch: Sendable {
    private struct State {
        var hop: FetchHop
        /// Cancels the hop under way.
        var cancelHop: (@Sendable () -> Void)?
        var cancelled = false
        var ended = false
    }

    private let fetcher: Fetcher
    private let mode: RedirectMode
    /// Whether the final response answers with its head (``HTTPTransport/startStreaming(_:timeout:maxBodyBytes:completion:)``).
    private let streaming: Bool
    private let completion: @Sendable (Result<OpenedResponse, any Error>) -> Void
    private let state: Locked<State>

    init(
        fetcher: Fetcher, mode: RedirectMode, streaming: Bool, hop: FetchHop,
        completion: @escaping @Sendable (Result<OpenedResponse, any Error>) -> Void
    ) {
        self.fetcher = fetcher
        self.mode = mode
        self.streaming = streaming
        self.completion = completion
        self.state = Locked(State(hop: hop))
    }

    /// Sends the first hop; false when the transport cannot start it.
    func sendFirst() -> Bool {
        let request = state.withLock { $0.hop.request }
        guard let cancel = start(request) else { return false }
        keep(cancel)
        return true
    }

    func cancel() {
        let cancelHop = state.withLock { state in
            state.cancelled = true
            return state.ended ? nil : state.cancelHop
        }
        cancelHop?()
    }

    /// Records how to cancel the hop just started, and cancels it if the fetch was cancelled meanwhile.
    private func keep(_ cancelHop: @escaping @Sendable () -> Void) {
        let cancelled = state.withLock { state in
            state.cancelHop = cancelHop
            return state.cancelled
        }
        if cancelled { cancelHop() }
    }

    private func start(_ request: HTTPTransportRequest) -> (@Sendable () -> Void)? {
        let transport = fetcher.transport
        return streaming
            ? transport.startStreaming(
                request, timeout: fetcher.timeout, maxBodyBytes: fetcher.maxBodyBytes,
                completion: { self.received($0) })
            : transport.startBuffered(
                request, timeout: fetcher.timeout, maxBodyBytes: fetcher.maxBodyBytes,
                completion: { self.received($0) })
    }

    /// A hop's outcome: the fetch's end, or the next hop of a redirect.
    private func received(_ result: Result<HTTPTransportResponse, any Error>) {
        enum Step {
            case send(HTTPTransportRequest)
            case end(Result<OpenedResponse, any Error>)
            case none
        }
        let step = state.withLock { state -> Step in
            guard !state.ended else { return .none }
            do {
                if state.cancelled { throw CancellationError() }
                let response = try result.get()
                if try state.hop.follow(response, mode: mode, maxRedirects: fetcher.maxRedirects) {
                    try fetcher.authorize(state.hop.target.host, state.hop.target.port)
                    return .send(state.hop.request)
                }
                state.ended = true
                return .end(
                    .success(
                        OpenedResponse(
                            head: response, url: state.hop.request.url, redirected: state.hop.redirects > 0)))
            } catch {
                state.ended = true
                return .end(.failure(error))
            }
        }
        switch step {
        case .send(let request):
            guard let cancel = start(request) else {
                state.withLock { $0.ended = true }
                completion(
                    .failure(HTTPError.network(kind: "other", message: "the transport stopped", url: request.url)))
                return
            }
            keep(cancel)
        case .end(let result):
            completion(result)
        case .none:
            break
        }
    }
}
