import JSBridgeBase

/// A fake ``HTTPTransport`` for tests: records every request and answers with `respond`.
///
/// ```swift
/// let transport = RecordingHTTPTransport { request in
///     HTTPTransportResponse(status: 200, headers: [HTTPField("content-type", "text/plain")], body: .text("hi"))
/// }
/// let tester = try await PluginTester(HTTPPlugin(transport: transport), options: .testing(permissions: .all))
/// ```
public final class RecordingHTTPTransport: HTTPTransport {
    private let respond: @Sendable (HTTPTransportRequest) async throws -> HTTPTransportResponse
    private let recorded = Locked<[HTTPTransportRequest]>([])
    private let shutDown = Locked(false)

    /// A transport answering every request with `respond` (default: 200 with an empty body).
    public init(
        respond: @escaping @Sendable (HTTPTransportRequest) async throws -> HTTPTransportResponse = { _ in
            HTTPTransportResponse(status: 200)
        }
    ) {
        self.respond = respond
    }

    /// The requests sent so far, in order.
    public var requests: [HTTPTransportRequest] { recorded.withLock { $0 } }

    /// Whether `shutdown()` was called.
    public var isShutDown: Bool { shutDown.withLock { $0 } }

    public func send(_ request: HTTPTransportRequest, timeout: Duration) async throws -> HTTPTransportResponse {
        recorded.withLock { $0.append(request) }
        return try await respond(request)
    }

    public func shutdown() async {
        shutDown.withLock { $0 = true }
    }
}
