import Foundation
import JSBridgeCore
import Synchronization

/// The HTTP plugin: `fetch()` (js/http.js) over an ``HTTPTransport``.
///
/// Action `request` takes `{url, method?, headers?: [[name, value]], body? (UTF-8 text) | bodyBase64?,
/// redirect?: "follow" | "manual" | "error"}` and answers `{status, statusText, headers: [[name, value]],
/// url, redirected, body | bodyBase64}` — the body crosses as text when it is valid UTF-8, else base64 —
/// or, with `json: true`, a successful JSON body parsed in `json` (with `brief: true` too, only `{status,
/// json}`; ``answer(_:attempts:form:)``). Network access needs `--allow-net` for the URL's host and
/// effective port (checked on every redirect hop, before connecting). See docs/http.md.
public struct HTTPPlugin: BridgePlugin {
    public static let name = "HTTP"

    /// The transport requests go through (the live AsyncHTTPClient one unless injected).
    public let transport: any HTTPTransport

    /// `--config` section `"HTTP"`.
    public struct Configuration: Decodable, Sendable {
        /// How long to wait for a response head, in milliseconds (default 300000).
        public var timeoutMs: Int?
        /// How many redirects `follow` follows (default 20).
        public var maxRedirects: Int?
        /// The largest response body read into memory (default 256 MiB).
        public var maxBodyBytes: Int?
        /// Mocked DAOs (docs/http.md, "Mocks").
        public var mock: MockConfiguration?
        /// The on-disk cache (docs/http.md, "Caches").
        public var cache: CacheConfiguration?
    }

    /// `--config` `"HTTP": {"mock": {...}}`: mock every DAO (`mode`), and where fixtures are.
    public struct MockConfiguration: Codable, Sendable {
        /// `"fixture"` or `"auto"` mocks every DAO; nil or `"off"`: only DAOs that ask for it.
        public var mode: String?
        /// The fixture directory (default `mocks`, relative to the working directory).
        public var dir: String?
        /// A delay before each mocked response, in milliseconds.
        public var delayMs: Int?
    }

    public init() { self.init(transport: AsyncHTTPClientTransport()) }

    public init(transport: any HTTPTransport) { self.transport = transport }

    public func setUp(_ context: PluginContext) async throws {
        let configuration = try context.configuration(as: Configuration.self)
        var issues: [ArgumentIssue] = []
        if let value = configuration.timeoutMs, value <= 0 {
            issues.append(ArgumentIssue(path: "timeoutMs", message: "must be positive, got \(value)"))
        }
        if let value = configuration.maxRedirects, value < 0 {
            issues.append(ArgumentIssue(path: "maxRedirects", message: "must not be negative, got \(value)"))
        }
        if let value = configuration.maxBodyBytes, value < 0 {
            issues.append(ArgumentIssue(path: "maxBodyBytes", message: "must not be negative, got \(value)"))
        }
        if let mode = configuration.mock?.mode, !["fixture", "auto", "off"].contains(mode) {
            issues.append(
                ArgumentIssue(path: "mock.mode", message: "expected \"fixture\", \"auto\" or \"off\", got \"\(mode)\""))
        }
        issues += try Self.transferConfigurationIssues(context)
        if !issues.isEmpty {
            throw BridgeError.invalidArgument("The configuration of plugin 'HTTP' is invalid.", issues: issues)
        }
    }

    public func shutdown() async {
        await transport.shutdown()
    }

    public func actions(_ a: inout ActionTable) {
        let transport = self.transport
        let cacheState = CacheState()
        let settings = ConfigurationMemo()
        let executors = transport.requestExecutors
        a.start("request", args: JSONValue.self) { context, json, reply in
            // The chooser counts the call and, on a JS thread, knows its loop (see `requestExecutors`).
            let executor = executors?.next() ?? ActionExecutor.shared
            let end: @Sendable (Result<EncodedJSON, any Error>) -> Void = { result in
                executors?.ended(executor)
                switch result {
                case .success(let answer): reply.resolve(encoded: answer)
                case .failure(let error): reply.reject(error)
                }
            }
            let plan: RequestPlan
            do {
                plan = try RequestPlan(json, context: context, transport: transport, settings: settings)
            } catch {
                return end(.failure(error))
            }
            // The common case without a Swift task, when the transport can: its completion answers.
            if case .plain(let request, let fetcher, let form) = plan,
                let cancel = fetcher.start(request, completion: { end($0.map { Self.answer($0, form: form) }) })
            {
                return reply.onCancel(cancel)
            }
            let task = Task(executorPreference: executor) {
                do {
                    switch plan {
                    case .plain(let request, let fetcher, let form):
                        end(.success(try await Self.request(request, fetcher: fetcher, form: form)))
                    case .policed(let request, let args, let fetcher):
                        end(
                            .success(
                                try await Self.request(
                                    request, args: args, fetcher: fetcher, context: context, cache: cacheState)))
                    }
                } catch {
                    end(.failure(error))
                }
            }
            reply.onCancel { task.cancel() }
        }
        Self.cacheActions(&a, state: cacheState)
        a.sync("settings") { context -> JSONValue in
            let mock = try settings.get(context).mock
            return [
                "mock": [
                    "mode": .string(mock?.mode ?? "off"), "dir": .string(mock?.dir ?? "mocks"),
                    "delayMs": .number(Double(mock?.delayMs ?? 0)),
                ]
            ]
        }
        a.async("mockFixture", args: MockFixtureArguments.self) { context, args -> JSONValue in
            let configured = try settings.get(context).mock?.dir
            return try MockFixtures(directory: args.dir ?? configured ?? "mocks").load(
                dao: args.dao, variant: args.variant)
        }
        Self.transferActions(&a, transport: transport)
    }

    /// A plain `request` call through a transport without ``HTTPTransport/startBuffered(_:timeout:maxBodyBytes:completion:)``.
    /// (Not inlined, here and below: an async function's locals live in task memory allocated with every call,
    /// and the task's closure then keeps only the plan.)
    @inline(never)
    private static func request(_ request: FetchRequest, fetcher: Fetcher, form: AnswerForm) async throws
        -> EncodedJSON
    {
        answer(try await fetcher.fetch(request), form: form)
    }

    /// A `request` call with a retry policy, a total timeout or a cache.
    @inline(never)
    private static func request(
        _ request: FetchRequest, args: RequestArguments, fetcher: Fetcher, context: PluginContext,
        cache state: CacheState
    ) async throws -> EncodedJSON {
        let policy = PolicyFetcher(
            fetcher: fetcher, retry: args.retry, totalTimeoutMs: args.totalTimeoutMs, clock: context.clock)
        let network: (FetchRequest) async throws -> (response: FetchResponse, attempts: Int?) = { request in
            guard let policy else { return (try await fetcher.fetch(request), nil) }
            let (response, attempts) = try await policy.fetch(request)
            return (response, attempts)
        }
        guard let cache = args.cache else {
            let (response, attempts) = try await network(request)
            return answer(response, attempts: attempts, form: args.answerForm)
        }
        // The disk cache blocks on file I/O: on the pool, not on the JS thread's loop where `request` calls run.
        return EncodedJSON(
            try await withTaskExecutorPreference(ActionExecutor.shared) {
                try await cachedRequest(request, cache: cache, state: state, context: context, network: network)
            })
    }

    /// The answer to a `request` call, encoded. With `json`, a successful response's JSON body (not 204 or 205)
    /// is embedded as is, in `json`, instead of escaped into `body`: JavaScript then parses it once, with the
    /// answer (`Benchmarks/scripts/answer-parse.js`: 2.2–4.0 → 1.2–1.4 µs of `JSON.parse` per answer for a
    /// 300-byte document). With `brief` too, that answer is only `{status, json}` (and `attempts`): a caller
    /// that delivers the data alone spares JavaScript the rest (Benchmarks/README.md, "HTTP": 6–8% of the
    /// CPU of a DAO call at 64 in flight).
    static func answer(_ response: FetchResponse, attempts: Int? = nil, form: AnswerForm) -> EncodedJSON {
        if form.json, (200...299).contains(response.status), response.status != 204, response.status != 205,
            !response.body.isEmpty, let text = String(validating: response.body, as: UTF8.self),
            let body = EncodedJSON(validating: text)
        {
            var head: JSONObject
            if form.brief {
                head = ["status": .number(Double(response.status))]
                if let attempts { head["attempts"] = .number(Double(attempts)) }
            } else {
                head = Self.head(response, attempts: attempts)
            }
            return EncodedJSON(head, adding: "json", body)
        }
        return EncodedJSON(encode(response, attempts: attempts))
    }

    /// The members of an answer other than its body.
    private static func head(_ response: FetchResponse, attempts: Int?, source: HTTPCacheSource? = nil) -> JSONObject {
        var object: JSONObject = [
            "status": .number(Double(response.status)),
            "statusText": .string(response.statusText),
            "headers": .array(response.headers.map { .array([.string($0.name.lowercased()), .string($0.value)]) }),
            "url": .string(response.url),
            "redirected": .bool(response.redirected),
        ]
        if let attempts { object["attempts"] = .number(Double(attempts)) }
        if let source { object["source"] = .string(source.rawValue) }
        return object
    }

    /// A response as `request` answers it, the body as `body` (text) or `bodyBase64`.
    static func encode(_ response: FetchResponse, attempts: Int? = nil, source: HTTPCacheSource? = nil) -> JSONValue {
        var object = head(response, attempts: attempts, source: source)
        if let text = String(validating: response.body, as: UTF8.self) {
            object["body"] = .string(text)
        } else {
            object["bodyBase64"] = .string(Data(response.body).base64EncodedString())
        }
        return .object(object)
    }
}

/// How a successful JSON answer is shaped: ``HTTPPlugin/answer(_:attempts:form:)``.
struct AnswerForm: Sendable {
    var json: Bool
    var brief: Bool
}

/// What a `request` call does, worked out synchronously when it starts: a plain fetch (sent without a Swift
/// task when the transport can), or one with retries, a total timeout or the cache (in a task).
private enum RequestPlan {
    case plain(FetchRequest, Fetcher, AnswerForm)
    indirect case policed(FetchRequest, RequestArguments, Fetcher)

    init(_ json: JSONValue, context: PluginContext, transport: any HTTPTransport, settings: ConfigurationMemo)
        throws(BridgeError)
    {
        let args = try RequestArguments(json: json)
        let configuration = try settings.get(context)
        let fetcher = Fetcher(
            transport: transport, timeout: .milliseconds(configuration.timeoutMs ?? 300_000),
            maxRedirects: configuration.maxRedirects ?? 20, maxBodyBytes: configuration.maxBodyBytes ?? (256 << 20),
            authorize: { host, port in try context.require(.net(host: host, port: port)) })
        let request = try args.request()
        let plain = args.cache == nil && args.retry == nil && args.totalTimeoutMs == nil
        self = plain ? .plain(request, fetcher, args.answerForm) : .policed(request, args, fetcher)
    }
}

/// The plugin's configuration, decoded once per runtime (it does not change while the runtime runs), so the
/// per-request path does not decode it again.
final class ConfigurationMemo: Sendable {
    private let decoded = Mutex<HTTPPlugin.Configuration?>(nil)

    func get(_ context: PluginContext) throws(BridgeError) -> HTTPPlugin.Configuration {
        if let configuration = decoded.withLock({ $0 }) { return configuration }
        let configuration = try context.configuration(as: HTTPPlugin.Configuration.self)
        decoded.withLock { $0 = configuration }
        return configuration
    }
}

/// The `[[name, value]]` pairs of an argument at `path` (headers, form fields, cache parameters); a pair of
/// another length is `INVALID_ARGUMENT` at `path[index]`.
func namedPairs(_ pairs: [[String]]?, at path: String) throws(BridgeError) -> [(name: String, value: String)] {
    var result: [(name: String, value: String)] = []
    result.reserveCapacity(pairs?.count ?? 0)
    for (index, pair) in (pairs ?? []).enumerated() {
        guard pair.count == 2 else {
            throw BridgeError.invalidArgument(at: "\(path)[\(index)]", "expected [name, value]")
        }
        result.append((pair[0], pair[1]))
    }
    return result
}

/// The arguments of `request` and `cacheLookup`, read by ``init(json:)``.
struct RequestArguments: Sendable {
    var url: String
    var method: String?
    var headers: [[String]]?
    var body: String?
    var bodyBase64: String?
    var redirect: String?
    /// How long to wait for a connection, in milliseconds.
    var connectTimeoutMs: Int?
    /// The deadline of each attempt, body included, in milliseconds.
    var totalTimeoutMs: Int?
    var retry: RetryPolicy?
    /// Answer through the HTTP cache (DAOs; docs/http.md, "Caches").
    var cache: CacheArguments?
    /// Answer a successful JSON body parsed, in `json` (not with `cache`; docs/http.md).
    var json: Bool?
    /// With `json`: answer a successful JSON body with `status` (and `attempts`) only.
    var brief: Bool?

    var answerForm: AnswerForm { AnswerForm(json: json ?? false, brief: brief ?? false) }

    /// The characters of an HTTP token (a method name).
    static let tokenBytes = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    func request() throws(BridgeError) -> FetchRequest {
        let method = method ?? "GET"
        guard !method.isEmpty, method.utf8.allSatisfy(Self.tokenBytes.contains) else {
            throw BridgeError.invalidArgument(at: "method", "'\(method)' is not a valid HTTP method")
        }
        let fields = try namedPairs(headers, at: "headers").map { HTTPField($0.name, $0.value) }
        var bytes: [UInt8]?
        if let body { bytes = Array(body.utf8) }
        if let bodyBase64 {
            guard let data = Data(base64Encoded: bodyBase64) else {
                throw BridgeError.invalidArgument(at: "bodyBase64", "is not base64")
            }
            bytes = Array(data)
        }
        let mode: RedirectMode
        switch redirect {
        case nil: mode = .follow
        case let value?:
            guard let parsed = RedirectMode(rawValue: value) else {
                throw BridgeError.invalidArgument(
                    at: "redirect", "expected \"follow\", \"manual\" or \"error\", got \"\(value)\"")
            }
            mode = parsed
        }
        for (path, value) in [("connectTimeoutMs", connectTimeoutMs), ("totalTimeoutMs", totalTimeoutMs)] {
            if let value, value <= 0 { throw BridgeError.invalidArgument(at: path, "must be positive, got \(value)") }
        }
        return FetchRequest(
            method: method.uppercased() == method ? method : normalize(method), url: url,
            headers: fields, body: bytes, redirect: mode, connectTimeout: connectTimeoutMs.map { .milliseconds($0) })
    }

    /// Fetch normalizes the standard methods' case (`post` → `POST`), not others.
    private func normalize(_ method: String) -> String {
        let upper = method.uppercased()
        return ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"].contains(upper) ? upper : method
    }
}

extension RequestArguments {
    /// Reads the arguments without the decoder: `request` runs once per HTTP request, and the decoder cost
    /// several times more than the rest of the action's own Swift. Same paths and messages as decoding would
    /// give (`ArgumentReader`); the nested `retry` and `cache` go through the decoder.
    init(json: JSONValue) throws(BridgeError) {
        let reader = try ArgumentReader(json)
        var headers: [[String]]?
        if let pairs = try reader.array("headers") {
            headers = try pairs.indices.map { (index) throws(BridgeError) -> [String] in
                let path = "headers[\(index)]"
                guard case .array(let pair) = pairs[index] else {
                    throw BridgeError.invalidArgument(
                        at: path, "expected an array, got \(pairs[index].kindDescription)")
                }
                return try pair.indices.map { (position) throws(BridgeError) -> String in
                    guard case .string(let text) = pair[position] else {
                        throw BridgeError.invalidArgument(
                            at: "\(path)[\(position)]", "expected a string, got \(pair[position].kindDescription)")
                    }
                    return text
                }
            }
        }
        self.init(
            url: try reader.requiredString("url"), method: try reader.string("method"), headers: headers,
            body: try reader.string("body"), bodyBase64: try reader.string("bodyBase64"),
            redirect: try reader.string("redirect"), connectTimeoutMs: try reader.int("connectTimeoutMs"),
            totalTimeoutMs: try reader.int("totalTimeoutMs"), retry: try reader.decode(RetryPolicy.self, "retry"),
            cache: try reader.decode(CacheArguments.self, "cache"), json: try reader.bool("json"),
            brief: try reader.bool("brief"))
    }
}

/// The arguments of `mockFixture`.
struct MockFixtureArguments: Decodable, Sendable {
    var dao: String
    var variant: String?
    var dir: String?
}

extension HTTPError: BridgeErrorConvertible {
    public var bridgeError: BridgeError {
        switch self {
        case .invalidURL(let url, let reason):
            BridgeError.invalidArgument(
                description, issues: [ArgumentIssue(path: "url", message: "\(reason) ('\(url)')")])
        case .network(let kind, _, let url):
            BridgeError(
                code: "NETWORK_ERROR", message: description, data: ["kind": .string(kind), "url": .string(url)])
        case .timeout(let ms, let url):
            BridgeError(
                code: BridgeError.Code.timeout, message: description,
                data: ["url": .string(url), "timeoutMs": .number(Double(ms))])
        case .bodyTooLarge(let limit, let url):
            BridgeError(
                code: "BODY_TOO_LARGE", message: description,
                data: ["url": .string(url), "limit": .number(Double(limit))])
        case .status(let status, let statusText, let url, let headers, let body):
            BridgeError(
                code: "HTTP_STATUS", message: description,
                data: [
                    "status": .number(Double(status)), "statusText": .string(statusText), "url": .string(url),
                    "headers": .array(headers.map { .array([.string($0.name.lowercased()), .string($0.value)]) }),
                    "body": .string(body),
                ])
        }
    }
}
