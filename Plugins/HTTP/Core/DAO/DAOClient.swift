import Foundation
import JSBridgeBase
import ModelConversion

/// Runs Swift DAOs: maps parameters, runs the hooks in order, sends through a transport (with the DAO's
/// retry policy and timeouts; or answers from a mock fixture), checks the status, parses and converts.
///
/// Every failure is a ``DAOError``; cancelling the calling task ends the call with `cancelled` (the request
/// is really stopped).
public struct DAOClient: Sendable {
    public var transport: any HTTPTransport
    public var clock: any BridgeClock
    /// Throws when `host:port` may not be reached; a plugin passes `context.require(.net(...))`.
    public var authorize: @Sendable (_ host: String, _ port: Int) throws -> Void
    /// How long to wait for a response head when the endpoint sets no total timeout.
    public var headTimeout: Duration
    public var maxBodyBytes: Int
    /// Used by endpoints with a ``DAOEndpoint/cacheMode``; responses are stored once they converted.
    public var cache: HTTPCache?
    /// Mocks every DAO whose endpoint has no ``DAOEndpoint/mock`` of its own (an app against fixtures).
    public var mock: DAOMock?

    public init(
        transport: any HTTPTransport, clock: any BridgeClock = SystemClock(), cache: HTTPCache? = nil,
        mock: DAOMock? = nil, headTimeout: Duration = .seconds(300), maxBodyBytes: Int = 256 << 20,
        authorize: @escaping @Sendable (_ host: String, _ port: Int) throws -> Void = { _, _ in }
    ) {
        self.transport = transport
        self.clock = clock
        self.cache = cache
        self.mock = mock
        self.headTimeout = headTimeout
        self.maxBodyBytes = maxBodyBytes
        self.authorize = authorize
    }

    /// Calls `dao` with `input` (parameters by their declared names) and returns its delivered output.
    ///
    /// With the endpoint's cache mode `both` and an `onCache`, the stored response (through the same hooks and
    /// checks as a network one) is handed to `onCache` first, as the JavaScript DAO's `options.onCache`; the
    /// call then returns the network's answer.
    public func send<D: HTTPDAO>(
        _ dao: D, _ input: JSONObject = [:], onCache: (@Sendable (D.Output) async throws -> Void)? = nil
    ) async throws(DAOError) -> D.Output {
        do {
            return try await run(dao, input, onCache: onCache)
        } catch {
            throw DAOError.from(error, dao: dao.name)
        }
    }

    private func run<D: HTTPDAO>(
        _ dao: D, _ input: JSONObject, onCache: (@Sendable (D.Output) async throws -> Void)?
    ) async throws -> D.Output {
        let endpoint = dao.endpoint
        let hookRetries = endpoint.retry?.count ?? 1
        let mock = endpoint.mock ?? self.mock
        var context = DAOCallContext(attempt: 0, input: input)
        while true {
            context.attempt += 1
            try Task.checkCancellation()
            var headers = endpoint.headers
            try await dao.setUpHeaders(&headers, context: context)
            var parameters = input
            try await dao.setUpParameters(&parameters, context: context)
            var mapped = try DAORequestBuilder.map(endpoint, parameters)
            try await dao.didSetUpParameters(&mapped.parameters, context: context)
            let built = DAORequestBuilder.request(endpoint, mapped, headers: headers)
            guard built.parts == nil else {
                throw DAOError(
                    domain: .request, code: "NOT_IMPLEMENTED",
                    message: "Swift DAOs do not send multipart bodies yet (use Uploader, or a JavaScript DAO)")
            }
            var request = built.request
            try await dao.willSend(&request, context: context)

            let response: FetchResponse
            var pending: HTTPCachePendingEntry? = nil
            if let mock {
                response = try await mockAnswer(dao, mock, request)
            } else if let cache, let options = cacheOptions(endpoint, request, parameters: mapped.parameters) {
                // A stored response needs the network permission as a fetched one does.
                let target = try HTTPTarget(request.url)
                try authorize(target.host, target.port)
                // A stored answer that no longer passes the DAO's checks is skipped: the network's decides.
                if context.attempt == 1, let onCache, options.mode == .both,
                    let cached = await cache.cachedResponse(for: request, options: options),
                    case .output(let output)? = try? await process(dao, request, cached, context: context)
                {
                    try Task.checkCancellation()
                    try await onCache(output)
                }
                let result = try await cache.send(request, options: options) { try await fetch(endpoint, $0) }
                (response, pending) = (result.response, result.pending)
            } else {
                response = try await fetch(endpoint, request)
            }
            let output: D.Output
            do {
                switch try await process(dao, request, response, context: context) {
                case .retry(let pause) where context.attempt <= hookRetries:
                    if let pending { await cache?.discard(pending) }
                    try await clock.sleep(for: pause)
                    continue
                case .retry: output = try await deliver(dao, request, response, context: context)
                case .output(let delivered): output = delivered
                }
            } catch {
                // Not stored: requests elsewhere waiting for this entry go to the network now.
                if let pending { await cache?.discard(pending) }
                throw error
            }
            if let pending { try await cache?.commit(pending) }
            return output
        }
    }

    /// What a response turns into: the `didReceive` hook's request to retry, or the delivered output.
    private enum Processed<Output> {
        case retry(Duration)
        case output(Output)
    }

    /// Steps after a response arrived, the same for a fixture, a stored and a network response: `didReceive`,
    /// then (unless it asks to retry) ``deliver(_:_:_:context:)``.
    private func process<D: HTTPDAO>(
        _ dao: D, _ request: FetchRequest, _ response: FetchResponse, context: DAOCallContext
    ) async throws -> Processed<D.Output> {
        if case .retry(let pause) = try await dao.didReceive(response, context: context) { return .retry(pause) }
        return .output(try await deliver(dao, request, response, context: context))
    }

    /// Checks the status, reads the body, runs `outputEntity`, picks the key path, decodes and delivers.
    private func deliver<D: HTTPDAO>(
        _ dao: D, _ request: FetchRequest, _ response: FetchResponse, context: DAOCallContext
    ) async throws -> D.Output {
        try DAOResponseReader.checkStatus(response, dao: dao.name)
        let json: JSONValue =
            switch try DAOResponseReader.body(
                response, method: request.method, type: dao.endpoint.responseType, dao: dao.name)
            {
            case .json(let value): value
            case .text(let text): .string(text)
            case .bytes(let bytes): .string(bytes.withUnsafeBytes { Base64.encode($0) })
            }
        let entity = try await dao.outputEntity(json, context: context)
        let value = dao.endpoint.keyPath.map { DAOResponseReader.value(at: $0, in: entity) ?? .null } ?? entity
        do {
            return try await dao.deliver(try dao.decode(value, context: context), context: context)
        } catch var error as DAOError where error.domain == .dataFormat {
            let summary = DAOResponseSummary(response)
            error.status = response.status
            error.body = summary.body
            error.response = summary
            throw error
        }
    }

    /// The fixture's answer for `request`, after its delay.
    private func mockAnswer<D: HTTPDAO>(_ dao: D, _ mock: DAOMock, _ request: FetchRequest) async throws
        -> FetchResponse
    {
        let fixture = try MockFixtures(directory: mock.directory).load(dao: dao.name, variant: mock.variant)
        let answer = try MockFixtures.answer(fixture, url: request.url)
        if let delay = answer.delay ?? mock.delay { try await clock.sleep(for: delay) }
        return try answer.outcome.get()
    }

    /// The cache options of a call, or nil when the call does not use the cache.
    private func cacheOptions(_ endpoint: DAOEndpoint, _ request: FetchRequest, parameters: JSONObject)
        -> HTTPCacheOptions?
    {
        HTTPCacheOptions.dao(
            mode: endpoint.cacheMode ?? .none, interval: endpoint.cacheInterval, method: request.method,
            parameters: parameters)
    }

    /// The network's response, with the endpoint's retry policy and timeouts.
    private func fetch(_ endpoint: DAOEndpoint, _ request: FetchRequest) async throws -> FetchResponse {
        let fetcher = Fetcher(
            transport: transport, timeout: endpoint.totalTimeout ?? headTimeout, maxBodyBytes: maxBodyBytes,
            authorize: authorize)
        let policy = PolicyFetcher(
            fetcher: fetcher, retry: endpoint.retry, totalTimeout: endpoint.totalTimeout, clock: clock)
        return try await policy.fetch(request).response
    }

}
