import Foundation
import JSBridgeBase
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 (an ephemeral port) for tests of HTTP clients.
///
/// Routes are registered by path (the query is ignored when matching); unknown paths answer 404.
/// Every request received is recorded in ``requests``.
///
/// ```swift
/// let server = try await TestHTTPServer.start()
/// server.route("/hello") { _ in .text("hi") }
/// server.route("/slow") { _ in .text("late", delay: .milliseconds(500)) }
/// // … fetch(server.url("/hello")) …
/// try await server.stop()
/// ```
public final class TestHTTPServer: Sendable {
    /// A request as the server received it.
    public struct Request: Sendable, Hashable {
        public var method: String
        /// The request target: path and query.
        public var uri: String
        public var headers: [HTTPFieldPair]
        /// The body, or its first ``TestHTTPServer/keptBodyBytes`` bytes when it is longer.
        public var body: [UInt8]
        /// The whole body's length (``body`` may hold only its start).
        public var bodyLength: Int
        /// The whole body's ``TestHTTPServer/fnv1a(_:continuing:)`` hash.
        public var bodyHash: UInt64

        public var path: String { String(uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]) }
        public var query: String? {
            let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            return parts.count > 1 ? String(parts[1]) : nil
        }
        public var text: String { String(decoding: body, as: UTF8.self) }

        /// The first value of header `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// A header field.
    public struct HTTPFieldPair: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// How the server answers.
    public struct Response: Sendable {
        public enum Body: Sendable {
            /// The whole body with a `content-length`.
            case fixed([UInt8])
            /// A chunked body: each chunk is written after its delay.
            case chunked([(delay: Duration, bytes: [UInt8])])
            /// Announces `contentLength` bytes, sends `bytes`, then closes the connection (a reset mid-body).
            case reset(contentLength: Int, bytes: [UInt8])
            /// `length` bytes of ``TestHTTPServer/patternByte(at:)`` with a `content-length`, generated and
            /// written in chunks of about `chunkSize` bytes as the connection takes them (back-pressure:
            /// memory use does not depend on `length`), each chunk `interval` after the previous one.
            case generated(length: Int64, chunkSize: Int, interval: Duration)
        }

        public var status: Int
        public var headers: [HTTPFieldPair]
        public var body: Body
        /// Waits this long before sending the head.
        public var delay: Duration

        public init(status: Int = 200, headers: [HTTPFieldPair] = [], body: Body = .fixed([]), delay: Duration = .zero)
        {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
        }

        /// A text body (`text/plain; charset=utf-8` unless `headers` sets a content type).
        public static func text(
            _ text: String, status: Int = 200, headers: [HTTPFieldPair] = [], delay: Duration = .zero
        ) -> Response {
            bytes(
                Array(text.utf8), status: status, contentType: "text/plain; charset=utf-8", headers: headers,
                delay: delay)
        }

        /// A JSON body (the text is sent as is, so it may be malformed on purpose).
        public static func json(_ text: String, status: Int = 200, headers: [HTTPFieldPair] = []) -> Response {
            bytes(Array(text.utf8), status: status, contentType: "application/json", headers: headers)
        }

        /// A binary body.
        public static func bytes(
            _ bytes: [UInt8], status: Int = 200, contentType: String = "application/octet-stream",
            headers: [HTTPFieldPair] = [], delay: Duration = .zero
        ) -> Response {
            var all = headers
            if !all.contains(where: { $0.name.lowercased() == "content-type" }) {
                all.append(HTTPFieldPair("content-type", contentType))
            }
            return Response(status: status, headers: all, body: .fixed(bytes), delay: delay)
        }

        /// A redirect to `location`.
        public static func redirect(to location: String, status: Int = 302) -> Response {
            Response(status: status, headers: [HTTPFieldPair("location", location)])
        }

        /// A chunked body of `chunks`, each sent `interval` after the previous one.
        public static func chunked(_ chunks: [String], interval: Duration = .zero, status: Int = 200) -> Response {
            Response(
                status: status, headers: [HTTPFieldPair("content-type", "text/plain; charset=utf-8")],
                body: .chunked(chunks.map { (interval, Array($0.utf8)) }))
        }

        /// A large body generated on the fly (see ``Body/generated(length:chunkSize:interval:)``).
        public static func generated(
            length: Int64, chunkSize: Int = 256 << 10, interval: Duration = .zero,
            contentType: String = "application/octet-stream", headers: [HTTPFieldPair] = []
        ) -> Response {
            var all = headers
            if !all.contains(where: { $0.name.lowercased() == "content-type" }) {
                all.append(HTTPFieldPair("content-type", contentType))
            }
            return Response(
                status: 200, headers: all, body: .generated(length: length, chunkSize: chunkSize, interval: interval))
        }

        /// Announces `contentLength` bytes but sends only `sent` of them, then closes the connection.
        public static func reset(contentLength: Int, sending sent: String) -> Response {
            Response(
                status: 200, headers: [HTTPFieldPair("content-type", "text/plain")],
                body: .reset(contentLength: contentLength, bytes: Array(sent.utf8)))
        }
    }

    public typealias Handler = @Sendable (Request) -> Response

    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    private let routes = Locked<[String: Handler]>([:])
    private let recorded = Locked<[Request]>([])
    private let streamed = Atomic<Int64>(0)
    private let accepted = Atomic<Int>(0)
    private let closed = Atomic<Int>(0)
    /// The port the server listens on.
    public let port: Int
    /// The address the server listens on.
    public let host: String

    private init(group: MultiThreadedEventLoopGroup, channel: any Channel, host: String, port: Int) {
        self.group = group
        self.channel = channel
        self.host = host
        self.port = port
    }

    /// Starts a server on `host` (127.0.0.1 unless told: another address for clients in other network
    /// namespaces) with an ephemeral port.
    public static func start(host: String = "127.0.0.1") async throws -> TestHTTPServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let box = Locked<TestHTTPServer?>(nil)
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    box.withLock { $0 }?.accepted.add(1, ordering: .relaxed)
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        try channel.pipeline.syncOperations.addHandler(
                            ConnectionHandler(server: { box.withLock { $0 } }))
                    }
                }
                .bind(host: host, port: 0).get()
            let server = TestHTTPServer(
                group: group, channel: channel, host: host, port: channel.localAddress?.port ?? 0)
            box.withLock { $0 = server }
            return server
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// `http://<host>:<port>`.
    public var baseURL: String { "http://\(host):\(port)" }

    /// The absolute URL of `path` on this server.
    public func url(_ path: String) -> String { baseURL + path }

    /// Registers (or replaces) the handler of `path`.
    public func route(_ path: String, _ handler: @escaping Handler) {
        routes.withLock { $0[path] = handler }
    }

    /// Every request received so far, in order.
    public var requests: [Request] { recorded.withLock { $0 } }

    /// The byte at `offset` of a generated body: `offset % 251` (a prime, so chunk edges never line up).
    public static func patternByte(at offset: Int64) -> UInt8 { UInt8(offset % 251) }

    /// How many connections the server has accepted so far.
    public var connectionsAccepted: Int { accepted.load(ordering: .relaxed) }

    /// How many connections have closed so far (either side closing them).
    public var connectionsClosed: Int { closed.load(ordering: .relaxed) }

    fileprivate func countClosed() { closed.add(1, ordering: .relaxed) }

    /// How much of a request body ``Request/body`` keeps (its length and hash cover all of it).
    public static let keptBodyBytes = 16 << 20

    /// The 64-bit FNV-1a hash of `bytes`, continuing from `hash` (start with the default).
    public static func fnv1a(_ bytes: some Sequence<UInt8>, continuing hash: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var hash = hash
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// How many bytes of generated bodies the server has written so far (all connections).
    public var generatedBytesSent: Int64 { streamed.load(ordering: .relaxed) }

    fileprivate func countGenerated(_ bytes: Int) { streamed.add(Int64(bytes), ordering: .relaxed) }

    /// Closes the listening socket and every connection.
    public func stop() async throws {
        try? await channel.close()
        try await group.shutdownGracefully()
    }

    fileprivate func handle(_ request: Request) -> Response {
        recorded.withLock { $0.append(request) }
        guard let handler = routes.withLock({ $0[request.path] }) else {
            return .text("No route for \(request.path)", status: 404)
        }
        return handler(request)
    }
}

private final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: () -> TestHTTPServer?
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var bodyLength = 0
    private var bodyHash = TestHTTPServer.fnv1a([])

    init(server: @escaping () -> TestHTTPServer?) { self.server = server }

    func channelInactive(context: ChannelHandlerContext) {
        server()?.countClosed()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
            bodyLength = 0
            bodyHash = TestHTTPServer.fnv1a([])
        case .body(let buffer):
            bodyLength += buffer.readableBytes
            bodyHash = buffer.withUnsafeReadableBytes { TestHTTPServer.fnv1a($0, continuing: bodyHash) }
            let kept = min(buffer.readableBytes, max(0, TestHTTPServer.keptBodyBytes - body.count))
            body += buffer.getBytes(at: buffer.readerIndex, length: kept) ?? []
        case .end:
            guard let head, let server = server() else { return }
            let request = TestHTTPServer.Request(
                method: head.method.rawValue, uri: head.uri,
                headers: head.headers.map { TestHTTPServer.HTTPFieldPair($0.name, $0.value) }, body: body,
                bodyLength: bodyLength, bodyHash: bodyHash)
            let response = server.handle(request)
            let isHead = head.method == .HEAD
            let version = head.version
            if response.delay > .zero {
                context.eventLoop.assumeIsolated().scheduleTask(in: Self.amount(response.delay)) {
                    self.write(response, version: version, isHead: isHead, context: context)
                }
            } else {
                write(response, version: version, isHead: isHead, context: context)
            }
        }
    }

    static func amount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    private func write(
        _ response: TestHTTPServer.Response, version: HTTPVersion, isHead: Bool, context: ChannelHandlerContext
    ) {
        guard context.channel.isActive else { return }
        var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        let status = HTTPResponseStatus(statusCode: response.status)
        switch response.body {
        case .fixed(let bytes):
            if !headers.contains(name: "content-length") {
                headers.add(name: "content-length", value: "\(bytes.count)")
            }
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))),
                promise: nil)
            if !bytes.isEmpty, !isHead {
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .chunked(let chunks):
            headers.remove(name: "content-length")
            headers.replaceOrAdd(name: "transfer-encoding", value: "chunked")
            context.writeAndFlush(
                wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))),
                promise: nil)
            sendChunks(chunks[...], context: context)
        case .reset(let length, let bytes):
            headers.replaceOrAdd(name: "content-length", value: "\(length)")
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))),
                promise: nil)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
            context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(20)) {
                context.close(promise: nil)
            }
        case .generated(let length, let chunkSize, let interval):
            headers.replaceOrAdd(name: "content-length", value: "\(length)")
            context.writeAndFlush(
                wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))),
                promise: nil)
            if isHead {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            // A block that is a whole number of pattern periods, so every chunk starts the pattern afresh.
            let period = 251
            let size = max(1, (chunkSize + period - 1) / period) * period
            var block = context.channel.allocator.buffer(capacity: size)
            for offset in 0..<size { block.writeInteger(TestHTTPServer.patternByte(at: Int64(offset))) }
            sendGenerated(remaining: length, block: block, interval: interval, context: context)
        }
    }

    /// Writes generated chunks while the channel is writable, then continues once the last write is done.
    private func sendGenerated(remaining: Int64, block: ByteBuffer, interval: Duration, context: ChannelHandlerContext)
    {
        guard context.channel.isActive else { return }
        var remaining = remaining
        var lastWrite: EventLoopFuture<Void>?
        repeat {
            if remaining == 0 {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            let count = Int(min(Int64(block.readableBytes), remaining))
            let promise = context.eventLoop.makePromise(of: Void.self)
            context.write(
                wrapOutboundOut(.body(.byteBuffer(block.getSlice(at: block.readerIndex, length: count)!))),
                promise: promise)
            server()?.countGenerated(count)
            remaining -= Int64(count)
            lastWrite = promise.futureResult
        } while interval == .zero && context.channel.isWritable
        context.flush()
        let left = remaining
        lastWrite?.assumeIsolated().whenSuccess {
            // Continue on a fresh stack (a write may complete synchronously).
            if interval > .zero {
                context.eventLoop.assumeIsolated().scheduleTask(in: Self.amount(interval)) {
                    self.sendGenerated(remaining: left, block: block, interval: interval, context: context)
                }
            } else {
                context.eventLoop.assumeIsolated().execute {
                    self.sendGenerated(remaining: left, block: block, interval: interval, context: context)
                }
            }
        }
    }

    private func sendChunks(_ chunks: ArraySlice<(delay: Duration, bytes: [UInt8])>, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        guard let first = chunks.first else {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        let send = {
            guard context.channel.isActive else { return }
            context.writeAndFlush(
                self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: first.bytes)))), promise: nil)
            self.sendChunks(chunks.dropFirst(), context: context)
        }
        if first.delay > .zero {
            context.eventLoop.assumeIsolated().scheduleTask(in: Self.amount(first.delay)) { send() }
        } else {
            send()
        }
    }
}
