import Foundation
@_exported import HTTPCore
import JSBridgeCore

/// The HTTP plugin: `fetch()` (http.js) over an ``HTTPTransport``.
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

    public init() { self.init(transport: AsyncHTTPClientTransport()) }

    public init(transport: any HTTPTransport) { self.transport = transport }

    /// `--config` section `"HTTP"`.
    public struct Configuration: PluginConfiguration {
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
        /// The downloads folder (default `<storage dir>/downloads/<app id>`).
        public var downloadsDir: String?
        /// When a download starts, remove downloads older than this many seconds (default: keep).
        public var downloadsMaxAgeSeconds: Double?
        /// When a download starts, remove the oldest downloads so that at most this many remain once it is
        /// in (default: no limit).
        public var downloadsMaxFiles: Int?
        /// The shortest time between two progress events, in milliseconds (default 100).
        public var progressIntervalMs: Int?

        public func validate() -> [ArgumentIssue] {
            var issues: [ArgumentIssue] = []
            func check(_ ok: Bool, _ path: String, _ message: @autoclosure () -> String) {
                if !ok { issues.append(ArgumentIssue(path: path, message: message())) }
            }
            if let value = timeoutMs { check(value > 0, "timeoutMs", "must be positive, got \(value)") }
            if let value = maxRedirects { check(value >= 0, "maxRedirects", "must not be negative, got \(value)") }
            if let value = maxBodyBytes { check(value >= 0, "maxBodyBytes", "must not be negative, got \(value)") }
            if let mode = mock?.mode {
                check(
                    ["fixture", "auto", "off"].contains(mode), "mock.mode",
                    "expected \"fixture\", \"auto\" or \"off\", got \"\(mode)\"")
            }
            if let value = downloadsDir { check(!value.isEmpty, "downloadsDir", "must not be empty") }
            if let value = downloadsMaxAgeSeconds {
                check(value >= 0, "downloadsMaxAgeSeconds", "must not be negative, got \(value)")
            }
            if let value = downloadsMaxFiles {
                check(value >= 1, "downloadsMaxFiles", "must be at least 1, got \(value)")
            }
            if let value = progressIntervalMs {
                check(value >= 0, "progressIntervalMs", "must not be negative, got \(value)")
            }
            return issues
        }
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

    /// What set-up makes: the fetcher over the transport (limits and the network permission check), the
    /// transport's executors, the cache and the transfers' settings.
    public struct State: Sendable {
        let fetcher: Fetcher
        let executors: RequestExecutors?
        let cache: CacheState
        let transfers: TransferSettings
    }

    public func setUp(_ context: SetUpContext<Self>) async throws -> State {
        let configuration = context.configuration
        let permissions = context.permissions
        let fetcher = Fetcher(
            transport: transport, timeout: .milliseconds(configuration.timeoutMs ?? 300_000),
            maxRedirects: configuration.maxRedirects ?? 20, maxBodyBytes: configuration.maxBodyBytes ?? (256 << 20),
            authorize: { host, port in
                try permissions.check(.net, scope: HostPattern(host: host, port: port).description)
            })
        return State(
            fetcher: fetcher, executors: transport.requestExecutors,
            cache: CacheState(configuration: configuration.cache, storage: context.storage, clock: context.clock),
            transfers: TransferSettings(configuration, storage: context.storage))
    }

    public func shutdown(_ state: State) async {
        await state.fetcher.transport.shutdown()
    }

    public static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.capability(.net)
        plugin.typeScript(utf8: PackageResources.http_d_ts)
        plugin.script(
            .global(
                "http.js", source: PackageResources.http_js,
                defines: ["fetch", "Headers", "Request", "Response", "HTTP"],
                shares: ["httpCore"]))
        plugin.script(.shared("http-dao.js", source: PackageResources.http_dao_js, shares: ["httpDAO"]))
        plugin.script(.shared("http-transfer.js", source: PackageResources.http_transfer_js, shares: ["httpTransfer"]))
        plugin.start("request", args: RequestArguments.self) { context, args, reply in
            let state = context.state
            // The chooser counts the call and, on a JS thread, knows its loop (see `requestExecutors`).
            let executor = state.executors?.next() ?? ActionExecutor.shared
            let end: @Sendable (Result<EncodedJSON, any Error>) -> Void = { result in
                state.executors?.ended()
                switch result {
                case .success(let answer): reply.resolve(encoded: answer)
                case .failure(let error): reply.reject(error)
                }
            }
            let plan: RequestPlan
            do {
                plan = try RequestPlan(args, fetcher: state.fetcher)
            } catch {
                return end(.failure(error))
            }
            // The common case without a Swift task, when the transport can: its completion answers.
            if case .plain(let request, let form) = plan,
                let cancel = state.fetcher.start(request, completion: { end($0.map { Self.answer($0, form: form) }) })
            {
                return reply.onCancel(cancel)
            }
            let task = Task(executorPreference: executor) {
                do {
                    switch plan {
                    case .plain(let request, let form):
                        end(.success(try await Self.request(request, fetcher: state.fetcher, form: form)))
                    case .policed(let request, let args):
                        end(.success(try await Self.request(request, args: args, context: context)))
                    }
                } catch {
                    end(.failure(error))
                }
            }
            reply.onCancel { task.cancel() }
        }
        cacheActions(&plugin)
        plugin.sync("settings") { context -> JSONValue in
            let mock = context.configuration.mock
            return [
                "mock": [
                    "mode": .string(mock?.mode ?? "off"), "dir": .string(mock?.dir ?? "mocks"),
                    "delayMs": .number(Double(mock?.delayMs ?? 0)),
                ]
            ]
        }
        plugin.async("mockFixture", args: MockFixtureArguments.self) { context, args -> JSONValue in
            try MockFixtures(directory: args.dir ?? context.configuration.mock?.dir ?? "mocks").load(
                dao: args.dao, variant: args.variant)
        }
        transferActions(&plugin)
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
    private static func request(_ request: FetchRequest, args: RequestArguments, context: PluginContext<Self>)
        async throws -> EncodedJSON
    {
        let fetcher = context.state.fetcher
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
                try await cachedRequest(request, cache: cache, state: context.state.cache, network: network)
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
    case plain(FetchRequest, AnswerForm)
    indirect case policed(FetchRequest, RequestArguments)

    init(_ args: RequestArguments, fetcher: Fetcher) throws(BridgeError) {
        let request = try args.request()
        let plain = args.cache == nil && args.retry == nil && args.totalTimeoutMs == nil
        self = plain ? .plain(request, args.answerForm) : .policed(request, args)
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

/// The arguments of `request` and `cacheLookup`, read by ``init(arguments:)``.
struct RequestArguments: ArgumentsReadable {
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

    static let typeScript = TypeScriptType.raw(
        "{ url: string; method?: string; headers?: Array<[string, string]>; body?: string; bodyBase64?: string; "
            + "redirect?: \"follow\" | \"manual\" | \"error\"; connectTimeoutMs?: number; totalTimeoutMs?: number; "
            + "retry?: object; cache?: object; json?: boolean; brief?: boolean }")

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
    init(arguments json: JSONValue) throws(BridgeError) {
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
