import Foundation
@_exported import HTTPCore
import JSBridgeCore
import StoragePostgres

/// The HTTP plugin: `fetch()` (http.js) over an ``HTTPTransport``.
///
/// Action `request` takes `{url, method?, headers?: [[name, value]], body? (text) | bodyBytes? (bytes),
/// redirect?: "follow" | "manual" | "error"}` and answers `{status, statusText, headers: [[name, value]],
/// url, redirected, body | bodyBytes}` — the body crosses as text when it is valid UTF-8, else as bytes beside
/// the JSON (a `Uint8Array` in JavaScript): bytes never become text on the bridge — and `attempts` with a retry
/// policy. DAOs go through `daoSend` (HTTPPlugin+DAO.swift). Network access needs `--allow-net` for the URL's
/// host and effective port (checked on every redirect hop, before connecting). See docs/http.md.
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
            if let url = cache?.url {
                do {
                    _ = try PostgresURL(url)
                } catch {
                    issues.append(ArgumentIssue(path: "cache.url", message: error.reason))
                }
            }
            if let value = cache?.unavailableWaitMs {
                check((0...600_000).contains(value), "cache.unavailableWaitMs", "must be between 0 and 600000")
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
        let daoDefinitions = DAODefinitions()
        /// Bodies crossing the bridge in pieces (HTTPPlugin+Bodies.swift).
        let bodies = OpenBodies()
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
        state.bodies.cancelAll()
        await state.fetcher.transport.shutdown()
    }

    public static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.capability(.net)
        plugin.capability(.read)
        plugin.option(
            "storage-url", value: "url", setting: "cache.url",
            help: "Keep Storage, Queue and the HTTP cache in PostgreSQL: postgres://user[:password]@host[:port]/db.")
        plugin.typeScript(utf8: PackageResources.http_d_ts)
        plugin.script(
            .global(
                "http.js", source: PackageResources.http_js,
                defines: ["fetch", "Headers", "Request", "Response", "HTTP"],
                shares: ["httpCore"]))
        plugin.script(.shared("http-dao.js", source: PackageResources.http_dao_js, shares: ["httpDAO"]))
        plugin.constant("daoEncodings", .array(RequestEncoding.allCases.map { .string($0.rawValue) }))
        plugin.constant("daoPlacements", .array(ParameterPlacement.allCases.map { .string($0.rawValue) }))
        plugin.constant("daoResponseTypes", .array(DAOResponseType.allCases.map { .string($0.rawValue) }))
        plugin.constant("cacheModes", .array(HTTPCacheMode.allCases.map { .string($0.rawValue) }))
        // Upload parts without a type are typed by their file name's extension, from the same table as Swift's.
        plugin.constant(
            "mimeTypesByExtension", .object(JSONObject(MIMEType.extensionTable.map { ($0.key, .string($0.value)) })))
        plugin.script(.shared("http-transfer.js", source: PackageResources.http_transfer_js, shares: ["httpTransfer"]))
        plugin.start("request", args: RequestArguments.self) { context, args, reply in
            let request: FetchRequest
            do {
                var built = try args.request()
                if let id = args.bodyStream { built.bodyStream = try context.state.bodies.requestBody(id).stream }
                request = built
            } catch {
                if let id = args.bodyStream { context.state.bodies.closeRequestBody(id) }
                return reply.reject(error)
            }
            let policy = PolicyFetcher(
                fetcher: context.state.fetcher, retry: args.retry, totalTimeoutMs: args.totalTimeoutMs,
                clock: context.clock)
            if args.stream == true, policy == nil {
                return open(context, reply, request, bodyStream: args.bodyStream)
            }
            // A body with a Content-Encoding is decoded (``ContentDecoding``), at most `maxBodyBytes` of it.
            let limit = context.state.fetcher.maxBodyBytes
            let method = request.method
            exchange(context, reply, plain: policy == nil ? request : nil) {
                encode(try ContentDecoding.decode($0, method: method, limit: limit))
            } work: {
                guard let policy else {
                    return encode(
                        try ContentDecoding.decode(
                            try await context.state.fetcher.fetch(request), method: method, limit: limit))
                }
                let (response, attempts) = try await policy.fetch(request)
                return encode(try ContentDecoding.decode(response, method: method, limit: limit), attempts: attempts)
            }
        }
        bodyActions(&plugin)
        cacheActions(&plugin)
        daoActions(&plugin)
        plugin.sync("settings") { context -> JSONValue in
            let mock = context.configuration.mock
            return [
                "mock": [
                    "mode": .string(mock?.mode ?? "off"), "dir": .string(mock?.dir ?? "mocks"),
                    "delayMs": .number(Double(mock?.delayMs ?? 0)),
                ]
            ]
        }
        transferActions(&plugin)
        // Glue for the plugin's own JavaScript (fetch bodies, DAOs, the DAO cache, mock settings): not API.
        plugin.keepPrivate(
            "bodyRead", "bodyCancel", "bodyOpen", "bodyWrite", "daoDefine", "daoRequest", "daoSend", "daoRead",
            "cacheCommit", "cacheDiscard", "settings")
    }

    /// Answers a call that makes an HTTP exchange with the whole body read: without a Swift task when the call is
    /// `plain` (one request, no retry, timeout, cache or mock) and the transport can — its completion answers
    /// through `read` — else through `work` (see ``exchange(_:_:failure:start:work:)``).
    static func exchange(
        _ context: PluginContext<Self>, _ reply: CallReply, plain: FetchRequest?,
        failure: @escaping @Sendable (any Error) -> any Error = { $0 },
        read: @escaping @Sendable (FetchResponse) throws -> WireAnswer,
        work: @escaping @Sendable () async throws -> WireAnswer
    ) {
        var start: ExchangeStart?
        if let plain {
            start = { fetcher, end in
                fetcher.start(plain) { result in end(result.flatMap { response in Result { try read(response) } }) }
            }
        }
        exchange(context, reply, failure: failure, start: start, work: work)
    }

    /// `request` with `stream: true`: answers with the head, the body left here unless it came whole with the
    /// head (``encode(opened:bodies:)``). Without a Swift task when the transport can; a stream request body
    /// (pipe `bodyStream`) needs one, and its pipe is closed when the request has its answer.
    static func open(_ context: PluginContext<Self>, _ reply: CallReply, _ request: FetchRequest, bodyStream: Int?) {
        let state = context.state
        // A call cancelled meanwhile drops the response (and so cancels a streamed body) instead of keeping it.
        let answer: @Sendable (OpenedResponse) -> WireAnswer = { opened in
            reply.isCancelled
                ? WireAnswer(EncodedJSON(.null))
                : encode(opened: opened, bodies: state.bodies, method: request.method)
        }
        var start: ExchangeStart?
        if bodyStream == nil {
            start = { fetcher, end in fetcher.startStreaming(request) { result in end(result.map(answer)) } }
        }
        exchange(context, reply, start: start) {
            defer { if let bodyStream { state.bodies.closeRequestBody(bodyStream) } }
            return answer(try await state.fetcher.open(request))
        }
    }

    /// Starts an exchange on the fetcher, answering through the completion it is given; returns how to cancel it,
    /// or nil having done nothing when the transport cannot start it without a task.
    typealias ExchangeStart = (Fetcher, @escaping @Sendable (Result<WireAnswer, any Error>) -> Void) -> (
        @Sendable () -> Void
    )?

    /// Answers a call that makes an HTTP exchange: without a Swift task when `start` can (it starts the exchange
    /// on the fetcher and answers through its completion, or returns nil having done nothing), else from a task
    /// on the executor the transport prefers, through `work`. Errors go through `failure`.
    static func exchange(
        _ context: PluginContext<Self>, _ reply: CallReply,
        failure: @escaping @Sendable (any Error) -> any Error = { $0 },
        start: ExchangeStart?,
        work: @escaping @Sendable () async throws -> WireAnswer
    ) {
        let state = context.state
        // The chooser counts the call and, on a JS thread, knows its loop (see `requestExecutors`).
        let executor = state.executors?.next() ?? ActionExecutor.shared
        let end: @Sendable (Result<WireAnswer, any Error>) -> Void = { result in
            state.executors?.ended()
            switch result {
            case .success(let answer): reply.resolve(encoded: answer.json, bytes: answer.bytes)
            case .failure(let error): reply.reject(failure(error))
            }
        }
        if let start, let cancel = start(state.fetcher, end) {
            return reply.onCancel(cancel)
        }
        let task = Task(executorPreference: executor) {
            do {
                end(.success(try await work()))
            } catch {
                end(.failure(error))
            }
        }
        reply.onCancel { task.cancel() }
    }

    /// The members of an answer other than its body.
    static func head(_ response: FetchResponse, attempts: Int?, source: String? = nil) -> JSONObject {
        head(
            status: response.status, statusText: response.statusText, headers: response.headers, url: response.url,
            redirected: response.redirected, attempts: attempts, source: source)
    }

    static func head(
        status: Int, statusText: String, headers: [HTTPField], url: String, redirected: Bool, attempts: Int?,
        source: String? = nil
    ) -> JSONObject {
        var object: JSONObject = [
            "status": .number(Double(status)),
            "statusText": .string(statusText),
            "headers": .array(headers.map { .array([.string($0.name.lowercased()), .string($0.value)]) }),
            "url": .string(url),
            "redirected": .bool(redirected),
        ]
        if let attempts { object["attempts"] = .number(Double(attempts)) }
        if let source { object["source"] = .string(source) }
        return object
    }

    /// A response as `request` answers it, the body as `body` (text) or `bodyBytes` (beside the JSON).
    static func encode(_ response: FetchResponse, attempts: Int? = nil) -> WireAnswer {
        WireAnswer(head(response, attempts: attempts), body: response.body)
    }

    /// Adds `body` to an answer as it crosses the bridge: `body` (a string) when it is valid UTF-8, else
    /// `bodyBytes`, whose bytes go beside the JSON (returned, at their path; the JSON holds `null` there).
    static func addBody(_ body: [UInt8], to object: inout JSONObject) -> [ByteAttachment] {
        if let text = String(validating: body, as: UTF8.self) {
            object["body"] = .string(text)
            return []
        }
        object["bodyBytes"] = .null
        return [ByteAttachment(path: [.key("bodyBytes")], bytes: Bytes(body))]
    }
}

/// An answer as it crosses the bridge: its JSON text, built once and embedded in the answer as is, and the
/// bytes that go beside it, each at its path in the value (where the text holds `null`).
struct WireAnswer: Sendable {
    var json: EncodedJSON
    var bytes: [ByteAttachment]

    init(_ json: EncodedJSON, bytes: [ByteAttachment] = []) {
        self.json = json
        self.bytes = bytes
    }

    /// `object` with `body` added as it crosses the bridge (``HTTPPlugin/addBody(_:to:)``).
    init(_ object: JSONObject, body: [UInt8]) {
        var object = object
        let bytes = HTTPPlugin.addBody(body, to: &object)
        self.init(EncodedJSON(.object(object)), bytes: bytes)
    }

    /// The answer as a value (for a sync action).
    var value: BridgeValue { BridgeValue(json.value, bytes: bytes) }
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

/// The arguments of `request` (and a DAO's request after its hooks), read by ``init(arguments:)``.
struct RequestArguments: ArgumentsReadable {
    var url: String
    var method: String?
    var headers: [[String]]?
    /// A text body, sent as UTF-8…
    var body: String?
    /// …or a body of bytes (beside the JSON).
    var bodyBytes: Bytes?
    var redirect: String?
    /// How long to wait for a connection, in milliseconds.
    var connectTimeoutMs: Int?
    /// The deadline of each attempt, body included, in milliseconds.
    var totalTimeoutMs: Int?
    var retry: RetryPolicy?
    /// Answer once the head is in, leaving a body still arriving to `bodyRead` (HTTPPlugin+Bodies.swift).
    var stream: Bool?
    /// The id of a request body pipe (`bodyOpen`) to send, chunked, instead of `body`.
    var bodyStream: Int?

    static let typeScript = TypeScriptType.raw(
        "{ url: string; method?: string; headers?: Array<[string, string]>; body?: string; bodyBytes?: Uint8Array; "
            + "redirect?: \"follow\" | \"manual\" | \"error\"; connectTimeoutMs?: number; totalTimeoutMs?: number; "
            + "retry?: object; stream?: boolean; bodyStream?: number }")

    /// The characters of an HTTP token (a method name).
    static let tokenBytes = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    func request() throws(BridgeError) -> FetchRequest {
        let method = method ?? "GET"
        guard !method.isEmpty, method.utf8.allSatisfy(Self.tokenBytes.contains) else {
            throw BridgeError.invalidArgument(at: "method", "'\(method)' is not a valid HTTP method")
        }
        let fields = try namedPairs(headers, at: "headers").map { HTTPField($0.name, $0.value) }
        if body != nil, bodyBytes != nil {
            throw BridgeError.invalidArgument(at: "bodyBytes", "a request has one body: give body or bodyBytes")
        }
        let bytes = bodyBytes.map { $0.withUnsafeBytes { Array($0) } } ?? body.map { Array($0.utf8) }
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
    /// give (`ArgumentReader`); the nested `retry` goes through the decoder. `bodyBytes` is the bytes beside
    /// the JSON at that member.
    init(arguments value: JSONValue) throws(BridgeError) {
        try self.init(arguments: BridgeValue(value))
    }

    init(arguments value: BridgeValue) throws(BridgeError) {
        let reader = try ArgumentReader(value.json)
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
            body: try reader.string("body"), bodyBytes: try value.bytesArgument("bodyBytes"),
            redirect: try reader.string("redirect"), connectTimeoutMs: try reader.int("connectTimeoutMs"),
            totalTimeoutMs: try reader.int("totalTimeoutMs"), retry: try reader.decode(RetryPolicy.self, "retry"),
            stream: try reader.bool("stream"), bodyStream: try reader.int("bodyStream"))
    }
}
