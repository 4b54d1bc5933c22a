import AsyncHTTPClient
import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridgeCore
import JSBridgeTesting
import NIOPosix
import Testing

/// The `request` action through PluginTester, with the recording transport and the live one.
@Suite struct HTTPActionTests {
    static let allowAll = BridgeHost.Options.testing(permissions: Permissions(allowing: .net))

    @Test func requestSendsMethodHeadersAndTextBody() async throws {
        let transport = RecordingHTTPTransport { _ in
            HTTPTransportResponse(status: 201, headers: [HTTPField("Content-Type", "text/plain")], body: .text("créé"))
        }
        let tester = try await PluginTester(HTTPPlugin(transport: transport), options: Self.allowAll)
        let answer = try await tester.call(
            "request",
            [
                "url": "http://example.com/items?x=1", "method": "POST", "headers": [["X-Token", "abc"]],
                "body": "{\"a\":1}",
            ])
        #expect(
            answer == [
                "status": 201, "statusText": "Created", "headers": [["content-type", "text/plain"]],
                "url": "http://example.com/items?x=1", "redirected": false, "body": "créé",
            ])
        #expect(
            transport.requests == [
                HTTPTransportRequest(
                    method: "POST", url: "http://example.com/items?x=1", headers: [HTTPField("X-Token", "abc")],
                    body: Array("{\"a\":1}".utf8))
            ])
    }

    /// A binary body crosses beside the JSON (BodyBytesTests); in PluginTester's plain JSON its bytes are base64
    /// text, as every `Bytes` is where there is no bridge.
    @Test func binaryBodiesAreBytes() async throws {
        let binary: [UInt8] = [0, 0xff, 0xfe, 0x80, 65]
        let transport = RecordingHTTPTransport { _ in
            HTTPTransportResponse(status: 200, body: .chunks([[0, 0xff], [0xfe, 0x80, 65]]))
        }
        let tester = try await PluginTester(HTTPPlugin(transport: transport), options: Self.allowAll)
        let answer = try await tester.call(
            "request",
            ["url": "https://example.com/", "method": "PUT", "bodyBytes": .string(Data(binary).base64EncodedString())])
        #expect(answer["bodyBytes"] == .string(Data(binary).base64EncodedString()))
        #expect(answer["body"] == nil)
        #expect(transport.requests.map(\.body) == [binary])
    }

    @Test func invalidArgumentsHavePaths() async throws {
        let transport = RecordingHTTPTransport()
        let tester = try await PluginTester(HTTPPlugin(transport: transport), options: Self.allowAll)
        let cases: [(JSONValue, String)] = [
            (["url": "http://example.com/", "redirect": "sometimes"], "redirect"),
            (["url": "not a url"], "url"),
            (["url": "ftp://example.com/file"], "url"),
            (["url": "http://example.com/", "method": "GE T"], "method"),
            (["url": "http://example.com/", "headers": [["only-name"]]], "headers[0]"),
            (["url": "http://example.com/", "headers": [["a", "b"], ["a", "b", "c"]]], "headers[1]"),
            (["url": 5], "url"),
        ]
        for (args, path) in cases {
            let error = await #expect(throws: BridgeError.self) { try await tester.call("request", args) }
            #expect(error?.code == "INVALID_ARGUMENT")
            #expect(error?.data?["issues"]?[0]?["path"] == .string(path))
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func permissionIsCheckedBeforeAnyRequest() async throws {
        let transport = RecordingHTTPTransport()
        let denied = try await PluginTester(HTTPPlugin(transport: transport))
        let error = await #expect(throws: BridgeError.self) {
            try await denied.call("request", ["url": "http://example.com/"])
        }
        #expect(error?.code == "PERMISSION_DENIED")
        #expect(error?.message.contains("--allow-net=example.com:80") == true)
        #expect(transport.requests.isEmpty)

        // The effective port: 443 for https, 80 for http.
        let list = try await PluginTester(
            HTTPPlugin(transport: transport),
            options: .testing(permissions: Permissions(["net": .scopes(["example.com:443"])])))
        _ = try await list.call("request", ["url": "https://EXAMPLE.com/a"])
        let wrongPort = await #expect(throws: BridgeError.self) {
            try await list.call("request", ["url": "http://example.com/a"])
        }
        #expect(wrongPort?.code == "PERMISSION_DENIED")
        #expect(transport.requests.map(\.url) == ["https://EXAMPLE.com/a"])
    }

    /// Whether a test's transport offers `startBuffered` (the plugin then fetches without a task).
    static let bothPaths = [false, true]

    @Test(arguments: bothPaths) func redirectsAreCheckedHopByHop(completions: Bool) async throws {
        let transport = RecordingHTTPTransport { request in
            if request.url.hasPrefix("http://allowed.test/") {
                return HTTPTransportResponse(status: 302, headers: [HTTPField("Location", "http://other.test/x")])
            }
            return HTTPTransportResponse(status: 200, body: .text("other"))
        }
        let tester = try await PluginTester(
            HTTPPlugin(transport: completions ? CompletionTransport(base: transport) : transport),
            options: .testing(permissions: Permissions(["net": .scopes(["allowed.test"])])))
        let error = await #expect(throws: BridgeError.self) {
            try await tester.call("request", ["url": "http://allowed.test/start"])
        }
        #expect(error?.code == "PERMISSION_DENIED")
        #expect(transport.requests.map(\.url) == ["http://allowed.test/start"])
    }

    /// A redirect's host is read as fetch reads URLs: `2130706433`, `0x7f.1` and `127.1` are 127.0.0.1, so a
    /// permission for 127.0.0.1 lets the redirect through as it lets `fetch` of the same URL; a number that is
    /// no address is an invalid redirect.
    @Test(arguments: bothPaths) func redirectHostsInIPv4NumberFormsAreAddresses(completions: Bool) async throws {
        let transport = RecordingHTTPTransport { request in
            switch request.url {
            case "http://127.0.0.1/a":
                HTTPTransportResponse(status: 302, headers: [HTTPField("Location", "http://2130706433/b")])
            case "http://127.0.0.1/b":
                HTTPTransportResponse(status: 302, headers: [HTTPField("Location", "http://0x7f.1/c")])
            case "http://127.0.0.1/c":
                HTTPTransportResponse(status: 302, headers: [HTTPField("Location", "http://127.1/d")])
            case "http://127.0.0.1/d":
                HTTPTransportResponse(status: 302, headers: [HTTPField("Location", "http://256.1.1.1/")])
            default: HTTPTransportResponse(status: 200, body: .text("?"))
            }
        }
        let tester = try await PluginTester(
            HTTPPlugin(transport: completions ? CompletionTransport(base: transport) : transport),
            options: .testing(permissions: Permissions(["net": .scopes(["127.0.0.1"])])))
        let error = await #expect(throws: BridgeError.self) {
            try await tester.call("request", ["url": "http://127.0.0.1/a"])
        }
        #expect(error?.code == "NETWORK_ERROR" && error?.data?["kind"] == "redirect", "\(String(describing: error))")
        #expect(
            transport.requests.map(\.url) == [
                "http://127.0.0.1/a", "http://127.0.0.1/b", "http://127.0.0.1/c", "http://127.0.0.1/d",
            ])
    }

    @Test(arguments: bothPaths) func redirectRewritesMethodAndDropsCredentialsAcrossOrigins(completions: Bool)
        async throws
    {
        let transport = RecordingHTTPTransport { request in
            switch request.url {
            case "http://a.test/form": HTTPTransportResponse(status: 303, headers: [HTTPField("location", "/done")])
            case "http://a.test/done":
                HTTPTransportResponse(status: 307, headers: [HTTPField("location", "http://b.test/final")])
            default: HTTPTransportResponse(status: 200, body: .text("ok"))
            }
        }
        let tester = try await PluginTester(
            HTTPPlugin(transport: completions ? CompletionTransport(base: transport) : transport),
            options: Self.allowAll)
        let answer = try await tester.call(
            "request",
            [
                "url": "http://a.test/form", "method": "POST", "body": "a=1",
                "headers": [["content-type", "application/x-www-form-urlencoded"], ["authorization", "Bearer t"]],
            ])
        #expect(answer["redirected"] == true)
        #expect(answer["url"] == "http://b.test/final")
        let requests = transport.requests
        #expect(requests.map(\.method) == ["POST", "GET", "GET"])
        #expect(requests[1].body == nil)
        #expect(requests[1].headers == [HTTPField("authorization", "Bearer t")])
        #expect(requests[2].headers == [])
    }

    @Test func tooManyRedirectsIsANetworkError() async throws {
        let transport = RecordingHTTPTransport { _ in
            HTTPTransportResponse(status: 302, headers: [HTTPField("location", "/again")])
        }
        let tester = try await PluginTester(
            HTTPPlugin(transport: transport),
            options: .testing(configuration: ["HTTP": ["maxRedirects": 3]], permissions: .all))
        let error = await #expect(throws: BridgeError.self) {
            try await tester.call("request", ["url": "http://a.test/"])
        }
        #expect(error?.code == "NETWORK_ERROR")
        #expect(error?.data?["kind"] == "redirect")
        #expect(transport.requests.count == 4)
    }

    @Test func bodyLimitIsEnforced() async throws {
        let transport = RecordingHTTPTransport { _ in
            HTTPTransportResponse(status: 200, body: .text(String(repeating: "x", count: 100)))
        }
        let tester = try await PluginTester(
            HTTPPlugin(transport: transport),
            options: .testing(configuration: ["HTTP": ["maxBodyBytes": 10]], permissions: .all))
        let error = await #expect(throws: BridgeError.self) {
            try await tester.call("request", ["url": "http://a.test/"])
        }
        #expect(error?.code == "BODY_TOO_LARGE")
    }

    @Test func badConfigurationFailsSetUp() async throws {
        let error = await #expect(throws: BridgeError.self) {
            _ = try await PluginTester(
                HTTPPlugin(transport: RecordingHTTPTransport()),
                options: .testing(configuration: ["HTTP": ["timeoutMs": 0]]))
        }
        #expect(error?.code == "INVALID_ARGUMENT")
        #expect(error?.data?["issues"]?[0]?["path"] == "timeoutMs")
    }

    @Test func cancellationReachesTheTransport() async throws {
        let cancelled = Locked(false)
        let arrived = TestSignal()
        let transport = RecordingHTTPTransport { _ in
            arrived.fire()
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                cancelled.withLock { $0 = true }
                throw error
            }
            return HTTPTransportResponse(status: 200)
        }
        let fetcher = Fetcher(transport: transport, authorize: { _, _ in })
        let task = Task { try await fetcher.fetch(FetchRequest(url: "http://a.test/")) }
        await arrived.wait()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(cancelled.withLock { $0 })
    }

    @Test func shutdownShutsTheTransportDown() async throws {
        let transport = RecordingHTTPTransport()
        let tester = try await PluginTester(HTTPPlugin(transport: transport))
        await tester.shutdown()
        #expect(transport.isShutDown)
    }

    // MARK: Live transport against the test server

    /// A transport released without `shutdown()` shuts its clients down itself: AsyncHTTPClient's debug builds
    /// stop the process when a running client is released, so this test's process surviving is the check.
    @Test func aTransportReleasedWithoutShutdownShutsItsClientsDown() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/hello") { _ in .text("hello") }
        var transport: AsyncHTTPClientTransport? = AsyncHTTPClientTransport()
        let answer = try await transport?.sendBuffered(
            HTTPTransportRequest(method: "GET", url: server.url("/hello")), timeout: .seconds(30), maxBodyBytes: 100)
        #expect(try await answer?.body.collect(upTo: 100) == Array("hello".utf8))
        #expect(transport?.isClientCreated == true)
        transport = nil
        let next = AsyncHTTPClientTransport()
        let again = try await next.sendBuffered(
            HTTPTransportRequest(method: "GET", url: server.url("/hello")), timeout: .seconds(30), maxBodyBytes: 100)
        #expect(again.status == 200)
        await next.shutdown()
        try await server.stop()
    }

    @Test func liveTransportIsCreatedLazilyAndShutDown() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/hello") { request in .text("hello \(request.method)", headers: [.init("X-Reply", "yes")]) }
        let transport = AsyncHTTPClientTransport()
        let tester = try await PluginTester(HTTPPlugin(transport: transport), options: Self.allowAll)
        #expect(!transport.isClientCreated)
        let answer = try await tester.call("request", ["url": .string(server.url("/hello"))])
        #expect(transport.isClientCreated)
        #expect(answer["status"] == 200)
        #expect(answer["body"] == "hello GET")
        #expect(answer["headers"]?.arrayValue?.contains(["x-reply", "yes"]) == true)
        await tester.shutdown()
        #expect(!transport.isClientCreated)
        let after = await #expect(throws: BridgeError.self) {
            try await tester.call("request", ["url": .string(server.url("/hello"))])
        }
        #expect(after?.code == "NETWORK_ERROR")
        try await server.stop()
    }

    @Test func liveTransportMapsNetworkFailures() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/reset") { _ in .reset(contentLength: 1000, sending: "partial") }
        server.route("/slow") { _ in .text("late", delay: .seconds(3600)) }  // never, within the test
        let tester = try await PluginTester(HTTPPlugin(), options: .testing(permissions: .all))
        let reset = await #expect(throws: BridgeError.self) {
            try await tester.call("request", ["url": .string(server.url("/reset"))])
        }
        #expect(reset?.code == "NETWORK_ERROR")
        #expect(reset?.data?["kind"] == "reset", "\(reset?.message ?? "")")
        // The head never comes, so the head timeout is the only way the call can end.
        let timing = try await PluginTester(
            HTTPPlugin(), options: .testing(configuration: ["HTTP": ["timeoutMs": 300]], permissions: .all))
        let slow = await #expect(throws: BridgeError.self) {
            try await timing.call("request", ["url": .string(server.url("/slow"))])
        }
        #expect(slow?.code == "TIMEOUT")
        await timing.shutdown()
        try await server.stop()
        // A port bound but not listening refuses connections, and no other test's server can take it meanwhile.
        let closed = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(closed) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(closed, $0, length) == 0 && getsockname(closed, $0, &length) == 0
            }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let refused = await #expect(throws: BridgeError.self) {
            try await tester.call("request", ["url": .string("http://127.0.0.1:\(port)/")])
        }
        #expect(refused?.code == "NETWORK_ERROR")
        #expect(refused?.data?["kind"] == "connect")
        // A name that does not resolve (`.invalid` never does, RFC 6761) is a DNS failure.
        let unknown = await #expect(throws: BridgeError.self) {
            try await tester.call("request", ["url": "http://no-such-host.invalid/"])
        }
        #expect(unknown?.code == "NETWORK_ERROR")
        #expect(unknown?.data?["kind"] == "dns", "\(unknown?.message ?? "")")
        await tester.shutdown()
    }

    /// Where `sendBuffered` (what `request` uses) can run a call.
    enum BufferedPath: CaseIterable {
        /// On the JS thread's loop (a stand-in here), alone: the delegate API, connections on that loop.
        case lone
        /// On the JS thread's loop with another call under way: the delegate API on AsyncHTTPClient's loops.
        case shared
        /// Off any event loop (the pool): the async API.
        case pool
    }

    /// `sendBuffered` each way: the body limit holds, the timeout bounds only the head, and cancelling the
    /// calling task stops a request at once.
    @Test(arguments: BufferedPath.allCases) func liveBufferedExchange(_ path: BufferedPath) async throws {
        try await LiveExchange.with(path) { live in try await Self.bufferedExchange(live, path) }
    }

    private static func bufferedExchange(_ live: LiveExchange, _ path: BufferedPath) async throws {
        let (server, transport, executor) = (live.server, live.transport, live.executor)
        let onTheEventLoop = path != .pool
        #expect((executor === ActionExecutor.shared) != onTheEventLoop)
        /// Sends on `executor`, in a task of its own (so that the caller can cancel it); checks which API ran.
        func send(_ path: String, timeout: Duration, maxBodyBytes: Int) -> Task<HTTPTransportResponse, any Error> {
            Task(executorPreference: executor) {
                #expect((MultiThreadedEventLoopGroup.currentEventLoop != nil) == onTheEventLoop)
                return try await transport.sendBuffered(
                    HTTPTransportRequest(method: "GET", url: server.url(path)), timeout: timeout,
                    maxBodyBytes: maxBodyBytes)
            }
        }
        await #expect(throws: HTTPError.bodyTooLarge(limit: 1000, url: server.url("/big"))) {
            try await send("/big", timeout: .seconds(30), maxBodyBytes: 1000).value
        }
        let whole = try await send("/big", timeout: .seconds(30), maxBodyBytes: 1 << 20).value
        let bytes = try await whole.body.collect(upTo: .max)
        #expect(bytes.count == 1 << 20)
        #expect(bytes.enumerated().allSatisfy { $0.element == TestHTTPServer.patternByte(at: Int64($0.offset)) })
        // The body takes ~3.6 s, the head timeout is 2 s: the head came in time, so the whole body arrives.
        let slowBody = try await send("/slow-body", timeout: .seconds(2), maxBodyBytes: 100).value
        #expect(try await slowBody.body.collect(upTo: 100) == Array("abc".utf8))
        // `/slow` never answers: only the cancel can end the call before its 60 s timeout.
        let arrivedBefore = live.slowArrived.count
        let call = send("/slow", timeout: .seconds(60), maxBodyBytes: 100)
        await live.slowArrived.wait(count: arrivedBefore + 1)
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
    }

    /// `startBuffered` each way (off any loop it sends on AsyncHTTPClient's loops too): the body limit holds,
    /// the timeout bounds only the head, and the returned function cancels a request at once.
    @Test(arguments: BufferedPath.allCases) func liveStartedExchange(_ path: BufferedPath) async throws {
        try await LiveExchange.with(path) { live in try await Self.startedExchange(live, path) }
    }

    private static func startedExchange(_ live: LiveExchange, _ path: BufferedPath) async throws {
        let (server, transport, loop) = (live.server, live.transport, live.jsThread.next())
        let onTheLoop = path != .pool
        /// Starts a request where `path` says; returns its cancel function and its outcome.
        func start(_ path: String, timeout: Duration, maxBodyBytes: Int) async throws -> (
            cancel: @Sendable () -> Void, outcome: Task<HTTPTransportResponse, any Error>
        ) {
            let (outcomes, continuation) = AsyncStream.makeStream(of: Result<HTTPTransportResponse, any Error>.self)
            let request = HTTPTransportRequest(method: "GET", url: server.url(path))
            let begin: @Sendable () -> (@Sendable () -> Void)? = {
                transport.startBuffered(request, timeout: timeout, maxBodyBytes: maxBodyBytes) {
                    continuation.yield($0)
                    continuation.finish()
                }
            }
            let cancel = try #require(onTheLoop ? try await loop.submit(begin).get() : begin())
            return (cancel, Task { try await outcomes.first { _ in true }!.get() })
        }
        await #expect(throws: HTTPError.bodyTooLarge(limit: 1000, url: server.url("/big"))) {
            try await start("/big", timeout: .seconds(30), maxBodyBytes: 1000).outcome.value
        }
        let whole = try await start("/big", timeout: .seconds(30), maxBodyBytes: 1 << 20).outcome.value
        let bytes = try await whole.body.collect(upTo: .max)
        #expect(bytes.count == 1 << 20)
        #expect(bytes.enumerated().allSatisfy { $0.element == TestHTTPServer.patternByte(at: Int64($0.offset)) })
        let slowBody = try await start("/slow-body", timeout: .seconds(2), maxBodyBytes: 100).outcome.value
        #expect(try await slowBody.body.collect(upTo: 100) == Array("abc".utf8))
        await #expect(throws: HTTPError.timeout(ms: 500, url: server.url("/slow"))) {
            try await start("/slow", timeout: .milliseconds(500), maxBodyBytes: 100).outcome.value
        }
        let arrivedBefore = live.slowArrived.count
        let call = try await start("/slow", timeout: .seconds(60), maxBodyBytes: 100)
        await live.slowArrived.wait(count: arrivedBefore + 1)
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.outcome.value }
    }

    /// Many requests in flight to one host share AsyncHTTPClient's 8 connections per host, spread over its event
    /// loops: more than one loop's share (4 of 8 on a two-loop machine) is opened, and no more than 8 in all —
    /// for exchanges started with `startBuffered` off any loop and for streamed ones (`send`) alike.
    @Test func manyInFlightShareEightConnections() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/wait") { _ in .text("done", delay: .milliseconds(50)) }
        let transport = AsyncHTTPClientTransport()
        let request = HTTPTransportRequest(method: "GET", url: server.url("/wait"))
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    let (outcomes, continuation) = AsyncStream.makeStream(
                        of: Result<HTTPTransportResponse, any Error>.self)
                    _ = transport.startBuffered(request, timeout: .seconds(30), maxBodyBytes: 100) {
                        continuation.yield($0)
                        continuation.finish()
                    }
                    return try await outcomes.first { _ in true }!.get().status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 64))
        let opened = server.connectionsAccepted
        #expect(opened > 4 && opened <= 8)
        let streamed = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<32 {
                group.addTask {
                    try await transport.send(request, timeout: .seconds(30)).body.collect(upTo: 100, url: request.url)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(streamed.allSatisfy { $0 == Array("done".utf8) } && streamed.count == 32)
        #expect(server.connectionsAccepted <= 8)
        await transport.shutdown()
        try await server.stop()
    }

    /// Every call asked for on the JS thread's event loop runs there (one executor, whatever else is under
    /// way); asked off any event loop, on the bridge's pool.
    @Test func callsRunOnTheJSThreadsLoop() async throws {
        let jsThread = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = jsThread.next()
        let transport = AsyncHTTPClientTransport()
        let executors = try #require(transport.requestExecutors)
        func next() async throws -> (any TaskExecutor)? { try await loop.submit { executors.next() }.get() }
        #expect(executors.next() == nil)  // off any event loop: the caller's pool
        let first = try #require(try await next()), second = try #require(try await next())
        #expect(first === second)
        let onLoop = await Task(executorPreference: second) { loop.inEventLoop }.value
        #expect(onLoop)
        for _ in 0..<3 { executors.ended() }
        try await jsThread.shutdownGracefully()
    }
}

/// Sends through a recording transport from the completion-based entry point, so that the plugin fetches
/// without a task (``HTTPTransport/startBuffered(_:timeout:maxBodyBytes:completion:)``).
struct CompletionTransport: HTTPTransport {
    let base: RecordingHTTPTransport

    func send(_ request: HTTPTransportRequest, timeout: Duration) async throws -> HTTPTransportResponse {
        try await base.send(request, timeout: timeout)
    }

    func startBuffered(
        _ request: HTTPTransportRequest, timeout: Duration, maxBodyBytes: Int,
        completion: @escaping @Sendable (Result<HTTPTransportResponse, any Error>) -> Void
    ) -> (@Sendable () -> Void)? {
        let task = Task {
            do {
                completion(.success(try await base.sendBuffered(request, timeout: timeout, maxBodyBytes: maxBodyBytes)))
            } catch {
                completion(.failure(error))
            }
        }
        return { task.cancel() }
    }
}

/// What the live exchange tests share: a loopback server with their routes, a stand-in JS thread, and a live
/// transport whose executor chooser was asked as the plugin asks when calls start — on that thread, or off
/// any loop for `.pool` — once, or twice for `.shared` (another call under way).
struct LiveExchange {
    let server: TestHTTPServer
    let jsThread: MultiThreadedEventLoopGroup
    let transport: AsyncHTTPClientTransport
    let executors: RequestExecutors
    /// Fired each time `/slow` (which never answers) receives a request.
    let slowArrived: TestSignal
    /// The executors the calls under way were given.
    let calls: [any TaskExecutor]

    /// The first call's executor.
    var executor: any TaskExecutor { calls[0] }

    /// Runs `body` with a live exchange for `path` and shuts it down afterwards, also when `body` throws:
    /// a transport dropped without its shutdown is a fatal error in AsyncHTTPClient's debug builds, which would
    /// end the whole test process instead of failing one test.
    static func with(_ path: HTTPActionTests.BufferedPath, _ body: (LiveExchange) async throws -> Void) async throws {
        let live = try await start(path)
        do {
            try await body(live)
        } catch {
            try? await live.stop()
            throw error
        }
        try await live.stop()
    }

    private static func start(_ path: HTTPActionTests.BufferedPath) async throws -> LiveExchange {
        let server = try await TestHTTPServer.start()
        server.route("/big") { _ in .generated(length: 1 << 20, chunkSize: 64 << 10) }
        server.route("/slow-body") { _ in .chunked(["a", "b", "c"], interval: .milliseconds(1200)) }
        let slowArrived = TestSignal()
        server.route("/slow") { _ in
            slowArrived.fire()
            return .text("late", delay: .seconds(3600))
        }
        let jsThread = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let transport = AsyncHTTPClientTransport()
        let executors = try #require(transport.requestExecutors)
        var calls: [any TaskExecutor] = []
        for _ in 0..<(path == .shared ? 2 : 1) {
            let executor =
                path == .pool ? executors.next() : try await jsThread.next().submit { executors.next() }.get()
            calls.append(executor ?? ActionExecutor.shared)
        }
        return LiveExchange(
            server: server, jsThread: jsThread, transport: transport, executors: executors,
            slowArrived: slowArrived, calls: calls)
    }

    /// Ends the calls and shuts everything down.
    func stop() async throws {
        for _ in calls { executors.ended() }
        await transport.shutdown()
        try await jsThread.shutdownGracefully()
        try await server.stop()
    }
}
