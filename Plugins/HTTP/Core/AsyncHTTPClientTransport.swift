import AsyncHTTPClient
import Foundation
import JSBridgeBase
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// The live ``HTTPTransport``: AsyncHTTPClient `HTTPClient`s, created on first use and shut down (with
/// their async `shutdown()`) by ``shutdown()``. Redirects are never followed here: the plugin follows them
/// itself so that every hop passes the permission check.
///
/// Where connections live: one client per event loop of AsyncHTTPClient's (SwiftNIO's singleton group),
/// which share AsyncHTTPClient's default of 8 connections per host between them, and one more client for
/// the lone calls made on the JS thread's event loop (see ``startBuffered(_:timeout:maxBodyBytes:completion:)``).
/// Each request goes to the loop with the fewest requests under way. With one client over all the loops
/// instead, AsyncHTTPClient put a connection on the loop of the request that made it start, which in a
/// burst of requests was often one loop for all 8 (the other idle), and ran each request's callbacks on a
/// loop chosen before its connection was known, handing them between the loops for about half of the
/// requests (Benchmarks/README.md, "HTTP"). AsyncHTTPClient's connect timeout is a client setting, so all
/// of this is per distinct connect timeout requested (usually one).
public final class AsyncHTTPClientTransport: HTTPTransport {
    private struct State {
        /// Clients by connect timeout in nanoseconds and by where their connections live.
        var clients: [ClientKey: HTTPClient] = [:]
        /// AsyncHTTPClient's loops that hold connections (at most 8, so that each has at least one), looked up
        /// with the first of their clients: asking for them starts SwiftNIO's singleton group, whose threads a
        /// script that makes no request does not need.
        var sharedLoops: [any EventLoop] = []
        /// The requests under way on each of `sharedLoops` (buffered exchanges).
        var underWay: [Int] = []
        /// Where the search for the least busy loop starts next.
        var turn = 0
        var isShutDown = false
    }

    private struct ClientKey: Hashable {
        let connectTimeout: Int64
        let placement: Placement
    }

    /// Where a client's connections live.
    private enum Placement: Hashable {
        /// On the JS threads' loops: the lone calls' client.
        case jsLoops
        /// On `sharedLoops[index]`.
        case sharedLoop(Int)
    }

    private let state = Locked(State())
    private let defaultConnectTimeout: Duration
    /// The JS threads' event loops that run requests.
    private let jsLoops = JSThreadEventLoops()
    /// The `request` calls under way (chosen an executor, not ended yet).
    private let callsUnderWay = Atomic<Int>(0)
    /// Requests without headers or body, by method and URL (see ``execute(_:timeout:maxBodyBytes:on:answer:)``).
    private let requests = BoundedMemo<HTTPClient.Request>()

    /// Calls made on a JS thread that need a task (retries, a total timeout, the cache) run on that thread's
    /// event loop; every call is counted, so that a call with no other under way can send on that loop.
    ///
    /// The plugin asks on the JS thread, which is a SwiftNIO event loop while a script runs
    /// (`MultiThreadedEventLoopGroup.currentEventLoop`), when a call starts, and tells `ended` when it ends.
    /// Plain calls need no task: they send through ``startBuffered(_:timeout:maxBodyBytes:completion:)``. A
    /// task's own Swift work is short (it builds the request, awaits the answer and encodes it), so it stays
    /// on that loop: the answer resumes it there, with no pool thread in between. Asked elsewhere (a headless
    /// `PluginTester`), the caller's pool.
    ///
    /// Measured (`Benchmarks/http/client.js`; Benchmarks/README.md, "HTTP"): running the calls on the pool and
    /// sending through the async API made about four context switches per request at 64 in flight; running
    /// them on AsyncHTTPClient's loops, about two, and the two loops then handed answers to each other; on the
    /// JS thread's loop, about one, as the raw AsyncHTTPClient peer; without a task, the JS thread spent ~30%
    /// fewer samples per request.
    public var requestExecutors: RequestExecutors? {
        RequestExecutors(
            next: { [self] () -> (any TaskExecutor)? in
                callsUnderWay.wrappingAdd(1, ordering: .relaxed)
                return MultiThreadedEventLoopGroup.currentEventLoop.map { jsLoops.executor(for: $0) }
            },
            ended: { [self] in callsUnderWay.wrappingSubtract(1, ordering: .relaxed) })
    }

    public init(connectTimeout: Duration = .seconds(10)) {
        self.defaultConnectTimeout = connectTimeout
    }

    /// AsyncHTTPClient's default limit of connections per host, shared by the clients of the shared loops.
    private static let connectionsPerHost = 8

    /// Whether an `HTTPClient` was created (tests check that a plugin that made no request made none).
    public var isClientCreated: Bool {
        state.withLock { !$0.clients.isEmpty }
    }

    /// The client of `placement`, created on first use.
    private func client(connectTimeout: Duration?, placement: Placement) throws -> HTTPClient {
        try state.withLock { try client(connectTimeout: connectTimeout, placement: placement, in: &$0) }
    }

    /// The client of the shared loop with the fewest requests under way (the loops taking turns among equals),
    /// and that loop's index; with `counted`, the request counts as under way there until ``release(_:)``.
    private func leastBusyClient(connectTimeout: Duration?, counted: Bool, url: String) throws -> (HTTPClient, Int) {
        try state.withLock { state in
            if state.sharedLoops.isEmpty {
                // SwiftNIO ends the process when a loop of its shared group cannot get its descriptors.
                guard FileDescriptors.available(FileDescriptors.perEventLoop * NIOSingletons.groupLoopCountSuggestion)
                else {
                    throw HTTPError.network(
                        kind: "descriptors",
                        message: "too many open files (EMFILE): no descriptors left for the connection's event loops",
                        url: url)
                }
                state.sharedLoops = Array(
                    HTTPClient.defaultEventLoopGroup.makeIterator().prefix(Self.connectionsPerHost))
                state.underWay = Array(repeating: 0, count: state.sharedLoops.count)
            }
            let count = state.sharedLoops.count
            state.turn = (state.turn + 1) % count
            var index = state.turn
            for step in 1..<count {
                let i = (state.turn + step) % count
                if state.underWay[i] < state.underWay[index] { index = i }
            }
            let client = try client(connectTimeout: connectTimeout, placement: .sharedLoop(index), in: &state)
            if counted { state.underWay[index] += 1 }
            return (client, index)
        }
    }

    /// Ends a request counted by ``leastBusyClient(connectTimeout:counted:url:)``.
    private func release(_ index: Int) {
        state.withLock { $0.underWay[index] -= 1 }
    }

    private func client(connectTimeout: Duration?, placement: Placement, in state: inout State) throws -> HTTPClient {
        let nanoseconds = Self.nanoseconds(connectTimeout ?? defaultConnectTimeout)
        let key = ClientKey(connectTimeout: nanoseconds, placement: placement)
        if state.isShutDown {
            throw HTTPError.network(kind: "other", message: "the HTTP client was shut down", url: "")
        }
        if let client = state.clients[key] { return client }
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout.connect = .nanoseconds(nanoseconds)
        configuration.decompression = .disabled
        // Fail at once on a refused connection (like browsers and Node) instead of retrying until the
        // connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        // No tracing: jsbridge exports no spans, and AsyncHTTPClient otherwise starts a (no-op) span with
        // attributes for every request.
        configuration.tracing.tracer = nil
        let group: any EventLoopGroup
        switch placement {
        case .jsLoops:
            group = jsLoops
        case .sharedLoop(let index):
            // An event loop is a group of one: the client's connections, and its requests' callbacks, stay there.
            group = state.sharedLoops[index]
            let count = state.sharedLoops.count
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit =
                Self.connectionsPerHost / count + (index < Self.connectionsPerHost % count ? 1 : 0)
        }
        let client = HTTPClient(eventLoopGroupProvider: .shared(group), configuration: configuration)
        state.clients[key] = client
        return client
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    /// The async API, its body streamed. A streamed exchange (a download, an upload) is not counted as under
    /// way, since it may last: it goes to the least busy loop, the loops taking turns among equals.
    public func send(_ request: HTTPTransportRequest, timeout: Duration) async throws -> HTTPTransportResponse {
        let (client, _) = try leastBusyClient(connectTimeout: request.connectTimeout, counted: false, url: request.url)
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for field in request.headers { outgoing.headers.add(name: field.name, value: field.value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        if let stream = request.bodyStream {
            outgoing.body = .stream(
                ByteBufferChunks(base: stream), length: stream.length.map { .known($0) } ?? .unknown)
        }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(outgoing, timeout: .nanoseconds(Self.nanoseconds(timeout)))
        } catch {
            throw Self.map(error, url: request.url, timeout: timeout)
        }
        let body = response.body
        let url = request.url
        return HTTPTransportResponse(
            status: Int(response.status.code), reason: response.status.reasonPhrase,
            headers: response.headers.map { HTTPField($0.name, $0.value) },
            body: HTTPResponseBody {
                let iterator = IteratorBox(body.makeAsyncIterator())
                return {
                    do {
                        return try await iterator.next()
                    } catch {
                        throw Self.map(error, url: url, timeout: timeout)
                    }
                }
            })
    }

    /// On a JS thread's event loop (see ``requestExecutors``): AsyncHTTPClient's delegate API (no body
    /// stream, no per-request tasks or actor hops), the answer resuming the call on that loop. Elsewhere: the
    /// async API, collected. Where the exchange runs: see ``startBuffered(_:timeout:maxBodyBytes:completion:)``.
    public func sendBuffered(_ request: HTTPTransportRequest, timeout: Duration, maxBodyBytes: Int) async throws
        -> HTTPTransportResponse
    {
        guard request.bodyStream == nil, let loop = MultiThreadedEventLoopGroup.currentEventLoop,
            jsLoops.contains(loop)
        else {
            return try await sendCollecting(request, timeout: timeout, maxBodyBytes: maxBodyBytes)
        }
        let (task, delegate) = try execute(
            request, timeout: timeout, maxBodyBytes: maxBodyBytes, on: loop, answer: nil)
        do {
            return try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
        } catch {
            throw Self.failure(error, delegate: delegate, url: request.url, timeout: timeout)
        }
    }

    /// The delegate API, without a task: the completion runs on the JS thread's loop when the call started
    /// there, else on the loop of the exchange.
    ///
    /// A call with no other under way, made on a JS thread's loop, sends on that loop through a client whose
    /// connections live there: request, connection and answer on the JS thread, as in Node. The others send
    /// on AsyncHTTPClient's own loops, so that many requests in flight do not load the JS thread with the
    /// exchanges (and take no connection of the lone calls' client).
    public func startBuffered(
        _ request: HTTPTransportRequest, timeout: Duration, maxBodyBytes: Int,
        completion: @escaping @Sendable (Result<HTTPTransportResponse, any Error>) -> Void
    ) -> (@Sendable () -> Void)? {
        start(request, timeout: timeout, maxBodyBytes: maxBodyBytes, streams: false, completion: completion)
    }

    /// As ``startBuffered(_:timeout:maxBodyBytes:completion:)``, but a body not complete by the end of the
    /// event-loop turn that read the head is handed on as it arrives (``StreamedBody``: bounded, read from the
    /// connection as it is consumed).
    public func startStreaming(
        _ request: HTTPTransportRequest, timeout: Duration, maxBodyBytes: Int,
        completion: @escaping @Sendable (Result<HTTPTransportResponse, any Error>) -> Void
    ) -> (@Sendable () -> Void)? {
        start(request, timeout: timeout, maxBodyBytes: maxBodyBytes, streams: true, completion: completion)
    }

    private func start(
        _ request: HTTPTransportRequest, timeout: Duration, maxBodyBytes: Int, streams: Bool,
        completion: @escaping @Sendable (Result<HTTPTransportResponse, any Error>) -> Void
    ) -> (@Sendable () -> Void)? {
        guard request.bodyStream == nil else { return nil }
        let loop = MultiThreadedEventLoopGroup.currentEventLoop.flatMap { jsLoops.contains($0) ? $0 : nil }
        let url = request.url
        // Back on the JS thread's loop, as a task's answer would be. With the completions (and the answers'
        // encoding) on AsyncHTTPClient's loops, 13 of 25 runs at 64 in flight fell into a slow regime of ~4
        // context switches per request, against 4 of 15 this way (Benchmarks/README.md, "HTTP").
        let answer = ExchangeDelegate.Answer(
            streams: streams,
            deliver: { result, delegate in
                let result = result.mapError { Self.failure($0, delegate: delegate, url: url, timeout: timeout) }
                if let loop, !loop.inEventLoop {
                    loop.execute { completion(result) }
                } else {
                    completion(result)
                }
            },
            failure: { Self.failure($0, delegate: $1, url: url, timeout: timeout) })
        let task: HTTPClient.Task<HTTPTransportResponse>
        do {
            (task, _) = try execute(request, timeout: timeout, maxBodyBytes: maxBodyBytes, on: loop, answer: answer)
        } catch {
            completion(.failure(error))
            return {}
        }
        return { task.cancel() }
    }

    /// Starts an exchange with the delegate API: on `loop` (a JS thread's) through the lone calls' client when
    /// no other call is under way, else on the least busy of AsyncHTTPClient's loops. With `answer`, the
    /// delegate answers through it; without, the task's future is the answer.
    private func execute(
        _ request: HTTPTransportRequest, timeout: Duration, maxBodyBytes: Int, on loop: (any EventLoop)?,
        answer: ExchangeDelegate.Answer?
    ) throws -> (HTTPClient.Task<HTTPTransportResponse>, ExchangeDelegate) {
        var outgoing: HTTPClient.Request
        do {
            // AsyncHTTPClient parses the URL (twice, with Foundation) when a request is made; its method is fixed
            // then, its headers and body are not.
            outgoing = try requests.value(for: request.method + " " + request.url) {
                try HTTPClient.Request(url: request.url, method: HTTPMethod(rawValue: request.method))
            }
        } catch {
            throw Self.map(error, url: request.url, timeout: timeout)
        }
        outgoing.headers.reserveCapacity(request.headers.count)
        for field in request.headers { outgoing.headers.add(name: field.name, value: field.value) }
        outgoing.body = request.body.map { .bytes($0) }
        let delegate = ExchangeDelegate(limit: maxBodyBytes, url: request.url, answer: answer)
        let headTimeout = TimeAmount.nanoseconds(Self.nanoseconds(timeout))
        if let lone = callsUnderWay.load(ordering: .relaxed) <= 1 ? loop : nil {
            let client = try client(connectTimeout: request.connectTimeout, placement: .jsLoops)
            let task = client.execute(request: outgoing, delegate: delegate, eventLoop: .delegateAndChannel(on: lone))
            delegate.watch(task, headTimeout: headTimeout)
            return (task, delegate)
        }
        let (client, index) = try leastBusyClient(
            connectTimeout: request.connectTimeout, counted: true, url: request.url)
        let task = client.execute(request: outgoing, delegate: delegate, eventLoop: .indifferent)
        delegate.watch(task, headTimeout: headTimeout) { self.release(index) }
        return (task, delegate)
    }

    /// An exchange's error as ``HTTPError`` (the head timeout's cancellation as a timeout).
    private static func failure(_ error: any Error, delegate: ExchangeDelegate, url: String, timeout: Duration)
        -> any Error
    {
        map(delegate.timedOut ? HTTPClientError.deadlineExceeded : error, url: url, timeout: timeout)
    }

    /// A transport dropped without ``shutdown()`` (an error path that never reached it) still shuts its clients
    /// down, in the background: each client holds itself until its shutdown ends, so nothing leaks, and
    /// AsyncHTTPClient's debug builds do not stop the process for a client released while running.
    deinit {
        for client in state.withLock({ $0.clients.values }) { _ = client.shutdown() }
    }

    public func shutdown() async {
        let clients = state.withLock { state in
            state.isShutDown = true
            defer { state.clients = [:] }
            return Array(state.clients.values)
        }
        for client in clients { try? await client.shutdown() }
    }

    /// Maps AsyncHTTPClient and NIO errors to ``HTTPError`` (cancellation stays `CancellationError`).
    static func map(_ error: any Error, url: String, timeout: Duration) -> any Error {
        if error is CancellationError || error is HTTPError { return error }
        let message = String(describing: error)
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled: return CancellationError()
            case .deadlineExceeded:
                return HTTPError.timeout(
                    ms: Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000),
                    url: url)
            case .connectTimeout, .readTimeout, .writeTimeout:
                return HTTPError.network(kind: "timeout", message: message, url: url)
            case .remoteConnectionClosed, .bodyLengthMismatch:
                return HTTPError.network(
                    kind: "reset", message: "the connection closed before the response was complete", url: url)
            case .invalidURL, .emptyHost, .emptyScheme:
                return HTTPError.invalidURL(url, reason: message)
            default:
                return HTTPError.network(kind: "protocol", message: message, url: url)
            }
        }
        if let error = error as? HTTPParserError {
            if error == .invalidEOFState {
                return HTTPError.network(
                    kind: "reset", message: "the connection closed before the response was complete", url: url)
            }
            if error == .headerOverflow {
                return HTTPError.network(
                    kind: "protocol",
                    message: "the response head is too large: over 80 KiB in one field or in all fields, "
                        + "or over 65,534 fields (docs/limits.md)", url: url)
            }
            return HTTPError.network(kind: "protocol", message: message, url: url)
        }
        // A name that does not resolve: NIO's SocketAddressError (alone, or as the DNS error of a
        // NIOConnectionError), told by its type or its description without importing NIOPosix.
        let typeName = String(reflecting: type(of: error))
        if typeName.hasSuffix("SocketAddressError") || message.contains("DNS error") || message.contains("UnknownHost")
            || message.contains("dnsA") || message.contains("resolve")
        {
            return HTTPError.network(kind: "dns", message: message, url: url)
        }
        if typeName.hasSuffix("NIOConnectionError") {
            return HTTPError.network(kind: "connect", message: message, url: url)
        }
        if let error = error as? IOError, error.errnoCode == EMFILE || error.errnoCode == ENFILE {
            return HTTPError.network(
                kind: "descriptors",
                message: "too many open files (\(error.errnoCode == EMFILE ? "EMFILE" : "ENFILE")): \(message)",
                url: url)
        }
        if let error = error as? IOError {
            let kind = error.errnoCode == ECONNRESET || error.errnoCode == EPIPE ? "reset" : "connect"
            return HTTPError.network(kind: kind, message: message, url: url)
        }
        if typeName.contains("SSL") || typeName.contains("TLS") {
            return HTTPError.network(kind: "tls", message: message, url: url)
        }
        return HTTPError.network(kind: "other", message: message, url: url)
    }
}

/// Reads a response on its event loop for the delegate-API exchanges, and cancels the request when no head
/// arrives in time. Its state (`head`, `body`, `stream`, `answered`, the timer) is touched only on the task's
/// event loop: AsyncHTTPClient calls the delegate there, and `watch` and the end-of-turn check hop there.
private final class ExchangeDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = HTTPTransportResponse

    /// How an exchange started with a completion answers (without one, the task's future is the answer).
    struct Answer: Sendable {
        /// Whether a body not complete by the end of the event-loop turn that read the head is streamed.
        let streams: Bool
        /// Gets the answer, once, its error still AsyncHTTPClient's (see `failure`).
        let deliver: @Sendable (Result<HTTPTransportResponse, any Error>, ExchangeDelegate) -> Void
        /// The transport's form of an error that ends a streamed body.
        let failure: @Sendable (any Error, ExchangeDelegate) -> any Error
    }

    private let limit: Int
    private let url: String
    private let answer: Answer?
    private var answered = false
    private var head: HTTPResponseHead?
    private var body: ByteBuffer?
    /// Where the body goes once the exchange has answered before the body's end.
    private var stream: StreamedBody?
    private var headTimer: Scheduled<Void>?
    private let fired = Atomic<Bool>(false)

    init(limit: Int, url: String, answer: Answer?) {
        self.limit = limit
        self.url = url
        self.answer = answer
    }

    /// Whether the head timeout cancelled the request.
    var timedOut: Bool { fired.load(ordering: .acquiring) }

    /// Cancels `task` when no head arrived `headTimeout` from now, calls `ended` when the task ends, and then
    /// answers (or ends the streamed body). The timer goes when the task ends, however it ends (so a failed or
    /// cancelled request holds nothing until the timeout).
    func watch(
        _ task: HTTPClient.Task<Response>, headTimeout: TimeAmount, ended: (@Sendable () -> Void)? = nil
    ) {
        let loop = task.eventLoop
        loop.execute {
            if self.head == nil {
                self.headTimer = loop.scheduleTask(in: headTimeout) {
                    self.fired.store(true, ordering: .releasing)
                    task.cancel()
                }
            }
            // Registered after the timer, on the same loop: a task already ended runs this at once.
            task.futureResult.whenComplete { result in
                self.headTimer?.cancel()
                self.headTimer = nil
                ended?()
                self.finish(result, task)
            }
        }
    }

    private func finish(_ result: Result<Response, any Error>, _ task: HTTPClient.Task<Response>) {
        guard let answer else { return }
        // A failure read in the head's own turn (a reset right after the head) still answers with the head: the
        // body fails, not the exchange, as when the failure comes later.
        if case .failure = result, head != nil { answerWithHead(task) }
        if let stream {
            stream.end(result.map { _ in () }.mapError { answer.failure($0, self) })
        } else if !answered {
            answered = true
            answer.deliver(result, self)
        }
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        headTimer?.cancel()
        headTimer = nil
        // Parts read in the same turn as the head arrive before this runs: a body that came with its head is
        // answered whole, in one piece, as a buffered exchange answers it.
        if answer?.streams == true { task.eventLoop.execute { self.answerWithHead(task) } }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    /// Answers with the head and a streamed body, unless the exchange does not stream or has already answered.
    private func answerWithHead(_ task: HTTPClient.Task<Response>) {
        guard let answer, answer.streams, !answered, let head else { return }
        answered = true
        let stream = StreamedBody(loop: task.eventLoop, cancel: { task.cancel() })
        if let body { _ = stream.append(body) }
        body = nil
        self.stream = stream
        answer.deliver(.success(response(head, body: stream.body)), self)
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        if let stream { return stream.append(part) }
        let total = (body?.readableBytes ?? 0) + part.readableBytes
        if total > limit {
            // The limit is for bodies read whole: a body that may stream does, however fast it came.
            answerWithHead(task)
            if let stream { return stream.append(part) }
            return task.eventLoop.makeFailedFuture(HTTPError.bodyTooLarge(limit: limit, url: url))
        }
        if body == nil {
            body = part
        } else {
            var part = part
            body!.writeBuffer(&part)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> HTTPTransportResponse {
        guard let head else { throw HTTPClientError.remoteConnectionClosed }
        // A streamed body ends through `finish`; the task's value is then not used.
        guard stream == nil else { return response(head, body: .empty) }
        return response(head, body: .bytes(body.map { Array(buffer: $0) } ?? []))
    }

    private func response(_ head: HTTPResponseHead, body: HTTPResponseBody) -> HTTPTransportResponse {
        HTTPTransportResponse(
            status: Int(head.status.code), reason: head.status.reasonPhrase,
            headers: head.headers.map { HTTPField($0.name, $0.value) }, body: body)
    }
}

/// A response body handed on as it arrives: the exchange's delegate appends parts on its event loop, a reader
/// takes them from any thread, a few parts at a time. Once ``highWater`` bytes wait unread, the future of the
/// part just appended stays pending, so AsyncHTTPClient reads no more from the connection until the reader
/// takes some: memory stays bounded however large the body and however slow its reader.
final class StreamedBody: Sendable {
    /// Unread bytes past which the connection is not read.
    static let highWater = 1 << 20
    /// The most bytes one read joins from several parts (a single larger part is given whole).
    static let maxChunk = 256 << 10

    private struct State {
        var parts = CircularBuffer<ByteBuffer>()
        var unread = 0
        var end: Result<Void, any Error>?
        var reader: CheckedContinuation<[UInt8]?, any Error>?
        /// Completed when the reader has taken enough: AsyncHTTPClient then reads on.
        var demand: EventLoopPromise<Void>?
        /// Cancels the exchange; dropped at the end, so nothing holds the finished task.
        var cancel: (@Sendable () -> Void)?
    }

    private let state: Locked<State>
    private let loop: any EventLoop

    init(loop: any EventLoop, cancel: @escaping @Sendable () -> Void) {
        self.loop = loop
        self.state = Locked(State(cancel: cancel))
    }

    /// The body as its reader sees it. Dropping it (every copy, and its iterator) before its end cancels the
    /// exchange, as stopping the iteration of AsyncHTTPClient's own body does.
    var body: HTTPResponseBody {
        let reader = Reader(self)
        return HTTPResponseBody { { try await reader.source.next() } }
    }

    /// Ends the exchange when its reader goes away first.
    private final class Reader: Sendable {
        let source: StreamedBody
        init(_ source: StreamedBody) { self.source = source }
        deinit { source.cancel() }
    }

    /// Cancels the exchange unless it has ended.
    func cancel() {
        state.withLock { $0.cancel }?()
    }

    /// Adds a part (on the exchange's loop); the future completes when AsyncHTTPClient may read on.
    func append(_ part: ByteBuffer) -> EventLoopFuture<Void> {
        let (reader, demand) = state.withLock {
            state -> (CheckedContinuation<[UInt8]?, any Error>?, EventLoopPromise<Void>?) in
            if let reader = state.reader {
                state.reader = nil
                return (reader, nil)
            }
            state.parts.append(part)
            state.unread += part.readableBytes
            guard state.unread >= Self.highWater else { return (nil, nil) }
            let demand = loop.makePromise(of: Void.self)
            state.demand = demand
            return (nil, demand)
        }
        reader?.resume(returning: Array(buffer: part))
        return demand?.futureResult ?? loop.makeSucceededVoidFuture()
    }

    /// Ends the body (on the exchange's loop): the reader gets what is left, then nil or the error.
    func end(_ result: Result<Void, any Error>) {
        let (reader, demand) = state.withLock {
            state -> (CheckedContinuation<[UInt8]?, any Error>?, EventLoopPromise<Void>?) in
            guard state.end == nil else { return (nil, nil) }
            state.end = result
            state.cancel = nil
            defer {
                state.reader = nil
                state.demand = nil
            }
            return (state.reader, state.demand)
        }
        demand?.succeed(())
        reader?.resume(with: result.map { nil })
    }

    /// The next bytes, nil at the end; cancelling the calling task cancels the exchange.
    func next() async throws -> [UInt8]? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8]?, any Error>) in
                let (outcome, demand) = state.withLock {
                    state -> (Result<[UInt8]?, any Error>?, EventLoopPromise<Void>?) in
                    if !state.parts.isEmpty {
                        var chunk: [UInt8] = []
                        chunk.reserveCapacity(min(state.unread, Self.maxChunk))
                        while let part = state.parts.first,
                            chunk.isEmpty || chunk.count + part.readableBytes <= Self.maxChunk
                        {
                            state.parts.removeFirst()
                            state.unread -= part.readableBytes
                            part.withUnsafeReadableBytes { chunk.append(contentsOf: $0) }
                        }
                        var demand: EventLoopPromise<Void>?
                        if state.unread < Self.highWater { swap(&demand, &state.demand) }
                        return (.success(chunk), demand)
                    }
                    if let end = state.end { return (end.map { nil }, nil) }
                    state.reader = continuation
                    return (nil, nil)
                }
                demand?.succeed(())
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            cancel()
        }
    }
}

/// Holds the body's iterator so the non-Sendable iteration closure can advance it.
private final class IteratorBox {
    var iterator: HTTPClientResponse.Body.AsyncIterator
    init(_ iterator: HTTPClientResponse.Body.AsyncIterator) { self.iterator = iterator }
    func next() async throws -> [UInt8]? {
        guard let buffer = try await iterator.next() else { return nil }
        return Array(buffer: buffer)
    }
}

/// A streamed request body as the `ByteBuffer`s AsyncHTTPClient sends.
private struct ByteBufferChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let base: HTTPRequestBodyStream

    func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPResponseBody.AsyncIterator
        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await base.next() else { return nil }
            return ByteBuffer(bytes: chunk)
        }
    }
}

/// The JS threads' event loops that ``AsyncHTTPClientTransport/requestExecutors`` ran requests on: the group
/// of the client whose connections live there (AsyncHTTPClient runs a request on a loop only if its client's
/// group has it). Shutting this group down leaves every loop running (none is its own).
final class JSThreadEventLoops: EventLoopGroup {
    /// One executor per loop seen so far (usually one: the runtime's JS thread).
    private let executors = Locked<[EventLoopTaskExecutor]>([])

    /// The loop seen last (connections are made on the loop of the request that needs one).
    func next() -> any EventLoop {
        executors.withLock { $0.last?.loop } ?? HTTPClient.defaultEventLoopGroup.next()
    }

    func makeIterator() -> EventLoopIterator { EventLoopIterator(executors.withLock { $0.map(\.loop) }) }

    /// The executor that runs a call's jobs on `loop`, which joins the group if it is new.
    func executor(for loop: any EventLoop) -> EventLoopTaskExecutor {
        executors.withLock { executors in
            if let known = executors.first(where: { $0.loop === loop }) { return known }
            let executor = EventLoopTaskExecutor(loop)
            executors.append(executor)
            return executor
        }
    }

    func contains(_ loop: any EventLoop) -> Bool {
        executors.withLock { $0.contains { $0.loop === loop } }
    }

    func shutdownGracefully(queue: DispatchQueue, _ callback: @escaping @Sendable ((any Error)?) -> Void) {
        queue.async { callback(nil) }
    }
}

/// Runs a task's jobs on one NIO event loop, so that awaiting that loop's futures resumes without a hop.
final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(_ loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
