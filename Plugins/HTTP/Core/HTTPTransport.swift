import Foundation
import JSBridgeBase

/// One header field, in the order it was given or received (names keep their case on the wire).
public struct HTTPField: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A request as the transport sends it: one hop, no redirects followed.
public struct HTTPTransportRequest: Sendable, Hashable {
    public var method: String
    /// An absolute `http` or `https` URL.
    public var url: String
    public var headers: [HTTPField]
    public var body: [UInt8]?
    /// How long to wait for a connection to be established (nil: the transport's default).
    public var connectTimeout: Duration?
    /// A body produced in chunks (e.g. read from disk while it is sent); when set it is sent instead of
    /// ``body``, with `Content-Length` when its length is known, else chunked.
    public var bodyStream: HTTPRequestBodyStream?

    public init(
        method: String, url: String, headers: [HTTPField] = [], body: [UInt8]? = nil, connectTimeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.connectTimeout = connectTimeout
    }

    /// A request whose body is streamed.
    public init(
        method: String, url: String, headers: [HTTPField] = [], bodyStream: HTTPRequestBodyStream,
        connectTimeout: Duration? = nil
    ) {
        self.init(method: method, url: url, headers: headers, body: nil, connectTimeout: connectTimeout)
        self.bodyStream = bodyStream
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// A response head plus its body, streamed in chunks.
public struct HTTPTransportResponse: Sendable {
    public var status: Int
    public var reason: String
    public var headers: [HTTPField]
    public var body: HTTPResponseBody

    public init(status: Int, reason: String? = nil, headers: [HTTPField] = [], body: HTTPResponseBody = .empty) {
        self.status = status
        self.reason = reason ?? HTTPStatus.reason(status)
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// A response body as an async sequence of byte chunks; iterate it once.
///
/// Stopping the iteration early (or cancelling the task that iterates) releases the connection.
public struct HTTPResponseBody: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    private let make: @Sendable () -> AsyncIterator
    /// The whole body, when it was given in memory (``bytes(_:)``); nil for a body still arriving.
    public private(set) var buffered: [UInt8]?

    /// A body whose iterator is made by `makeNext`: each call of the returned closure gives the next
    /// chunk, or nil at the end.
    public init(_ makeNext: @escaping @Sendable () -> (() async throws -> [UInt8]?)) {
        self.make = { AsyncIterator(next: makeNext()) }
    }

    /// A body of the given chunks.
    public static func chunks(_ chunks: [[UInt8]]) -> HTTPResponseBody {
        HTTPResponseBody {
            var remaining = chunks[...]
            return { remaining.popFirst() }
        }
    }

    /// A body of `bytes` in one chunk (what ``HTTPTransport/startBuffered(_:timeout:maxBodyBytes:completion:)``
    /// answers with).
    public static func bytes(_ bytes: [UInt8]) -> HTTPResponseBody {
        var body = chunks(bytes.isEmpty ? [] : [bytes])
        body.buffered = bytes
        return body
    }

    /// The UTF-8 of `text` in one chunk.
    public static func text(_ text: String) -> HTTPResponseBody { bytes(Array(text.utf8)) }

    /// No body.
    public static let empty = chunks([])

    public func makeAsyncIterator() -> AsyncIterator { make() }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let next: () async throws -> [UInt8]?
        public mutating func next() async throws -> [UInt8]? { try await next() }
    }

    /// Reads the whole body; throws ``HTTPError/bodyTooLarge(limit:url:)`` past `limit` bytes.
    public func collect(upTo limit: Int, url: String = "") async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await chunk in self {
            if bytes.count + chunk.count > limit { throw HTTPError.bodyTooLarge(limit: limit, url: url) }
            if bytes.isEmpty { bytes = chunk } else { bytes += chunk }
            try Task.checkCancellation()
        }
        return bytes
    }
}

/// A request body produced in chunks, for bodies too large to hold in memory (uploads from disk).
///
/// Each iteration calls the factory again, so a transport may send the body more than once. Two values are
/// equal only when they are copies of the same stream.
public struct HTTPRequestBodyStream: AsyncSequence, Sendable, Hashable {
    public typealias Element = [UInt8]

    /// The body's length in bytes, when known up front (sent as `Content-Length`).
    public let length: Int64?
    private let identity: Identity
    private let make: @Sendable () -> HTTPResponseBody.AsyncIterator

    /// A body of `length` bytes (nil: unknown) whose chunks come from the closure `makeNext` returns: each
    /// call gives the next chunk, or nil at the end.
    public init(length: Int64?, _ makeNext: @escaping @Sendable () -> (() async throws -> [UInt8]?)) {
        self.length = length
        self.identity = Identity()
        self.make = { HTTPResponseBody.AsyncIterator(next: makeNext()) }
    }

    public func makeAsyncIterator() -> HTTPResponseBody.AsyncIterator { make() }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.identity === rhs.identity }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(identity)) }

    private final class Identity: Sendable {}
}

/// Sends one HTTP request and returns its response head with a streamed body (DESIGN §5: the live
/// implementation is ``AsyncHTTPClientTransport``; tests swap in a recording fake).
///
/// Implementations throw `CancellationError` when the calling task is cancelled (and really stop the
/// request), ``HTTPError`` for network failures, and never follow redirects themselves.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPTransportRequest, timeout: Duration) async throws -> HTTPTransportResponse
    /// Sends `request` and reads its whole body (at most `maxBodyBytes`, else ``HTTPError/bodyTooLarge(limit:url:)``):
    /// the response's `body` is then one in-memory chunk. `timeout` still bounds only the wait for the head.
    /// The default sends and collects; a transport may do it in one step, more cheaply.
    func sendBuffered(_ request: HTTPTransportRequest, timeout: Duration, maxBodyBytes: Int) async throws
        -> HTTPTransportResponse
    /// Starts sending `request` as ``sendBuffered(_:timeout:maxBodyBytes:)`` does, without a Swift task:
    /// `completion` gets the response or the error, once, on any thread. Returns a function that cancels the
    /// request (its completion then gets `CancellationError`), or nil when the transport cannot send this
    /// way (the default): the caller then awaits ``sendBuffered(_:timeout:maxBodyBytes:)``.
    func startBuffered(
        _ request: HTTPTransportRequest, timeout: Duration, maxBodyBytes: Int,
        completion: @escaping @Sendable (Result<HTTPTransportResponse, any Error>) -> Void
    ) -> (@Sendable () -> Void)?
    /// Starts sending `request` as ``startBuffered(_:timeout:maxBodyBytes:completion:)`` does, but answers once
    /// the head is in, without waiting for a body that is not complete by then: that body is streamed (it has no
    /// ``HTTPResponseBody/buffered`` bytes), read from the network only as fast as it is consumed, and dropping
    /// it (or cancelling the task reading it) cancels the request. A body that arrives with its head comes whole,
    /// as from `startBuffered`. Returns nil when the transport cannot send this way (the default).
    func startStreaming(
        _ request: HTTPTransportRequest, timeout: Duration, maxBodyBytes: Int,
        completion: @escaping @Sendable (Result<HTTPTransportResponse, any Error>) -> Void
    ) -> (@Sendable () -> Void)?
    /// Releases connections and threads; awaited in the plugin's `shutdown`.
    func shutdown() async
    /// Where the plugin's `request` calls that need a Swift task run, when the transport has executors of its
    /// own for them (nil, the default: the caller's pool). Every call asks when it starts and reports when it
    /// ends, task or not.
    var requestExecutors: RequestExecutors? { get }
}

/// Executors a transport lends to the requests that need a Swift task: ``next`` gives the one for a new
/// request (nil: the caller's own pool), ``ended`` hears when that request has answered.
public struct RequestExecutors: Sendable {
    public let next: @Sendable () -> (any TaskExecutor)?
    public let ended: @Sendable () -> Void

    public init(next: @escaping @Sendable () -> (any TaskExecutor)?, ended: @escaping @Sendable () -> Void) {
        self.next = next
        self.ended = ended
    }
}

extension HTTPTransport {
    public func sendBuffered(_ request: HTTPTransportRequest, timeout: Duration, maxBodyBytes: Int) async throws
        -> HTTPTransportResponse
    {
        try await sendCollecting(request, timeout: timeout, maxBodyBytes: maxBodyBytes)
    }

    /// ``sendBuffered(_:timeout:maxBodyBytes:)`` by way of ``send(_:timeout:)``: the default, and the fallback
    /// of transports whose own way does not cover every request.
    public func sendCollecting(_ request: HTTPTransportRequest, timeout: Duration, maxBodyBytes: Int) async throws
        -> HTTPTransportResponse
    {
        var response = try await send(request, timeout: timeout)
        response.body = .bytes(try await response.body.collect(upTo: maxBodyBytes, url: request.url))
        return response
    }

    public func startBuffered(
        _ request: HTTPTransportRequest, timeout: Duration, maxBodyBytes: Int,
        completion: @escaping @Sendable (Result<HTTPTransportResponse, any Error>) -> Void
    ) -> (@Sendable () -> Void)? { nil }

    public func startStreaming(
        _ request: HTTPTransportRequest, timeout: Duration, maxBodyBytes: Int,
        completion: @escaping @Sendable (Result<HTTPTransportResponse, any Error>) -> Void
    ) -> (@Sendable () -> Void)? { nil }

    public func shutdown() async {}
    public var requestExecutors: RequestExecutors? { nil }
}

/// Reason phrases of the common status codes.
public enum HTTPStatus {
    public static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 205: "Reset Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 410: "Gone"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }
}
