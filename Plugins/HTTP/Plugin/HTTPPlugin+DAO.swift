import Foundation
import JSBridgeCore

/// A JavaScript DAO as http-dao.js describes it, once, to `daoDefine`: its name and the parts of its
/// definition that are data (hooks, function defaults and cache key functions stay in JavaScript). The engine
/// — mapping, URL, encodings, mocks, retries, caches, status, body and key path — is HTTPCore's, shared with
/// Swift DAOs. A class: each call holds one reference to it rather than a copy of the endpoint.
final class JavaScriptDAO: Sendable {
    let name: String
    let endpoint: DAOEndpoint
    /// The request of a call without parameters, when the DAO declares none and its path has no
    /// placeholders: built once, by the same builder.
    let requestWithoutParameters: FetchRequest?

    /// The definition's JSON, as http-dao.js's `make` writes it.
    private struct Definition: Decodable {
        struct Parameter: Decodable {
            var name: String
            var wire: String
            var `in`: String?
            var required: Bool?
            var `default`: JSONValue?
            var ignore: Bool?
        }
        struct Response: Decodable {
            var keyPath: String?
            var type: String?
        }
        struct Timeout: Decodable {
            var connectMs: Int?
            var totalMs: Int?
        }
        struct Cache: Decodable {
            var mode: String
            var intervalMs: Int?
        }
        var name: String
        var baseURL: String?
        var path: String?
        var method: String?
        var headers: [[String]]?
        var params: [Parameter]?
        var encoding: String?
        var response: Response?
        var timeout: Timeout?
        var retry: RetryPolicy?
        var cache: Cache?
    }

    /// Definitions read from their text and not registered (past ``DAODefinitions/limit``), by their text.
    private static let unregistered = BoundedMemo<JavaScriptDAO>()

    /// The DAO whose definition is `text` (read once while it is among the last 64 used).
    static func described(by text: String) throws(BridgeError) -> JavaScriptDAO {
        try unregistered.value(for: text) { () throws(BridgeError) -> JavaScriptDAO in try JavaScriptDAO(text) }
    }

    fileprivate init(_ text: String) throws(BridgeError) {
        let definition: Definition
        do {
            definition = try JSONValueDecoder().decode(Definition.self, from: try JSONValue(parsing: text))
        } catch {
            throw BridgeError.invalidArgument(at: "dao", "is not a DAO definition: \(error)")
        }
        func choice<T: RawRepresentable<String>>(_ value: String?, at path: String, _: T.Type) throws(BridgeError)
            -> T?
        {
            guard let value else { return nil }
            guard let parsed = T(rawValue: value) else {
                throw BridgeError.invalidArgument(at: "\(definition.name).\(path)", "'\(value)' is not known")
            }
            return parsed
        }
        var parameters: [DAOParameter] = []
        for (index, spec) in (definition.params ?? []).enumerated() {
            parameters.append(
                DAOParameter(
                    spec.name, mapTo: spec.wire,
                    in: try choice(spec.in, at: "params[\(index)].in", ParameterPlacement.self),
                    default: spec.default, required: spec.required ?? false, ignored: spec.ignore ?? false))
        }
        var endpoint = DAOEndpoint(
            baseURL: definition.baseURL ?? "", path: definition.path ?? "", method: definition.method ?? "GET",
            headers: try namedPairs(definition.headers, at: "headers").map { HTTPField($0.name, $0.value) },
            parameters: parameters, encoding: try choice(definition.encoding, at: "encoding", RequestEncoding.self),
            keyPath: definition.response?.keyPath, retry: definition.retry,
            connectTimeout: definition.timeout?.connectMs.map { .milliseconds($0) },
            totalTimeout: definition.timeout?.totalMs.map { .milliseconds($0) },
            cacheMode: try choice(definition.cache?.mode, at: "cache.mode", HTTPCacheMode.self),
            cacheInterval: definition.cache?.intervalMs.map { .milliseconds($0) })
        endpoint.responseType =
            try choice(definition.response?.type, at: "response.type", DAOResponseType.self) ?? .json
        self.name = definition.name
        self.endpoint = endpoint
        requestWithoutParameters =
            parameters.isEmpty && DAORequestBuilder.pathPlaceholders(endpoint.path).isEmpty
            ? DAORequestBuilder.request(endpoint, DAOMappedParameters(), headers: endpoint.headers).request : nil
    }
}

/// The JavaScript DAOs of one runtime by the number `daoDefine` gave each definition, so that a call names
/// its DAO with a number rather than its definition's text. Each distinct definition is read once; past
/// ``limit`` definitions, `daoDefine` answers null and the calls of a new one carry its text.
final class DAODefinitions: Sendable {
    static let limit = 4096
    private struct Table {
        var keys: [String: Int] = [:]
        var daos: [JavaScriptDAO] = []
    }
    private let table = Locked(Table())

    /// The number of the definition `text` (the same for the same text), or nil when the table is full.
    func define(_ text: String) throws(BridgeError) -> Int? {
        if let key = table.withLock({ $0.keys[text] }) { return key }
        let dao = try JavaScriptDAO(text)
        return table.withLock { table in
            if let key = table.keys[text] { return key }
            guard table.daos.count < Self.limit else { return nil }
            table.daos.append(dao)
            table.keys[text] = table.daos.count - 1
            return table.daos.count - 1
        }
    }

    /// The DAO a call names: a number from ``define(_:)``, or a definition's text.
    func dao(_ name: JSONValue) throws(BridgeError) -> JavaScriptDAO {
        switch name {
        case .number(let number):
            guard
                let dao = table.withLock({ table in
                    Int(exactly: number).flatMap { table.daos.indices.contains($0) ? table.daos[$0] : nil }
                })
            else {
                throw BridgeError.invalidArgument(at: "dao", "no DAO has the number \(number)")
            }
            return dao
        case .string(let text): return try JavaScriptDAO.described(by: text)
        default: throw BridgeError.invalidArgument(at: "dao", "expected a DAO's number or definition")
        }
    }
}

/// How far `daoSend` and `daoRead` take a response: as it came (for a `didReceive` hook), to its checked
/// and parsed body (for an `outputEntity` hook), or to the value at the DAO's key path.
enum DAOReadStage: String, CaseIterable, Decodable, Sendable {
    case response, entity, data
}

/// `daoRequest`'s arguments: the call's parameters (and the headers after `setUpHeaders`), or — the second
/// half of a call with a `didSetUpParams` hook — the `mapped` parts with the hook's `wire` parameters.
struct DAORequestArguments: Decodable, Sendable {
    struct Mapped: Codable, Sendable {
        var path: [String: String]
        var headers: [[String]]
        var placement: [String: String]
    }
    var dao: JSONValue
    var params: JSONValue?
    var headers: [[String]]?
    /// `"map"`: answer the mapped parameters only, for `didSetUpParams`.
    var stage: String?
    var mapped: Mapped?
    var wire: JSONValue?
}

/// `daoSend`'s arguments: the parameters (the engine builds the request) or the request that hooks built (its
/// `bodyBytes` beside the JSON).
struct DAOSendArguments: ArgumentsReadable {
    struct Mock: Decodable, Sendable {
        var dir: String?
        var variant: String?
        var delayMs: Int?
    }
    var dao: JSONValue
    var params: JSONValue?
    var request: RequestArguments?
    /// The wire parameters of `request` (part of the cache key).
    var wire: JSONValue?
    /// Answer from a fixture file instead of the network…
    var mock: Mock?
    /// …or from this content (an auto mock made by the Model plugin's samples).
    var mockContent: JSONValue?
    /// The result of the DAO's cache key function.
    var cacheKey: String?
    /// Mode `both`'s first half: the stored response, or null.
    var lookup: Bool?
    var read: DAOReadStage
    /// Answer `{status, url, data}` only (and `source` when not the network): the caller delivers the data
    /// alone.
    var brief: Bool?

    static let typeScript = TypeScriptType.raw(
        "{ dao: number | string; params?: object; request?: object; wire?: object; "
            + "mock?: { dir?: string; variant?: string; delayMs?: number }; mockContent?: unknown; cacheKey?: string; "
            + "lookup?: boolean; read: \"response\" | \"entity\" | \"data\"; brief?: boolean }")

    /// Read without the decoder, as `request`'s arguments are: a plain DAO call's only Swift beside the
    /// exchange.
    init(arguments value: JSONValue) throws(BridgeError) {
        try self.init(arguments: BridgeValue(value))
    }

    init(arguments value: BridgeValue) throws(BridgeError) {
        let reader = try ArgumentReader(value.json)
        let stage = try reader.requiredString("read")
        guard let read = DAOReadStage(rawValue: stage) else {
            throw reader.issue("read", "expected \"response\", \"entity\" or \"data\", got \"\(stage)\"")
        }
        self.read = read
        guard let dao = reader.value("dao") else { throw reader.issue("dao", "is required") }
        self.dao = dao
        params = reader.value("params")
        request = try value.member("request").map { (value) throws(BridgeError) in
            try RequestArguments(arguments: value)
        }
        wire = reader.value("wire")
        mock = try reader.decode(Mock.self, "mock")
        mockContent = reader.value("mockContent")
        cacheKey = try reader.string("cacheKey")
        lookup = try reader.bool("lookup")
        brief = try reader.bool("brief")
    }
}

/// `daoRead`'s arguments: an answer to take from `entity` to `data`, or an entity to take to `data`.
struct DAOReadArguments: Decodable, Sendable {
    struct Answer: Decodable, Sendable {
        var status: Int
        var statusText: String?
        var headers: [[String]]?
        var url: String
        /// The body as the answer gave it: text, or bytes (beside the JSON).
        var body: String?
        var bodyBytes: Bytes?
    }
    var dao: JSONValue
    var method: String
    var answer: Answer?
    var entity: JSONValue?
    var read: DAOReadStage
}

extension HTTPPlugin {
    static func daoActions(_ plugin: inout PluginDeclaration<Self>) {
        plugin.sync("daoDefine", args: String.self) { context, text -> Int? in
            try context.state.daoDefinitions.define(text)
        }
        plugin.sync("daoRequest", args: DAORequestArguments.self) { context, args -> JSONValue in
            try daoRequest(args, dao: try context.state.daoDefinitions.dao(args.dao))
        }
        plugin.start("daoSend", args: DAOSendArguments.self) { context, args, reply in
            let call: DAOSend
            do {
                call = try DAOSend(args, dao: try context.state.daoDefinitions.dao(args.dao))
            } catch {
                return reply.reject(error)
            }
            exchange(
                context, reply, plain: call.isPlain ? call.request : nil,
                failure: { DAOError.from($0, dao: call.dao.name) },
                read: { try call.answer($0, source: "network", attempts: nil, token: nil) },
                work: { try await call.run(context) })
        }
        plugin.sync("daoRead", args: DAOReadArguments.self) { context, args -> BridgeValue in
            let dao = try context.state.daoDefinitions.dao(args.dao)
            do {
                let answer: WireAnswer
                if let entity = args.entity {
                    answer = DAOSend.data(dao, entity, head: [:])
                } else if let given = args.answer {
                    let body =
                        given.bodyBytes.map { $0.withUnsafeBytes { Array($0) } } ?? Array((given.body ?? "").utf8)
                    let response = FetchResponse(
                        status: given.status, statusText: given.statusText ?? "",
                        headers: try namedPairs(given.headers, at: "answer.headers").map {
                            HTTPField($0.name, $0.value)
                        },
                        url: given.url, redirected: false, body: body)
                    answer = try DAOSend.read(dao, response, method: args.method, stage: args.read, head: [:])
                } else {
                    throw BridgeError.invalidArgument(at: "answer", "daoRead needs an answer or an entity")
                }
                return answer.value
            } catch {
                throw DAOError.from(error, dao: dao.name)
            }
        }
    }

    /// `daoRequest`: the mapped parameters (stage `map`), or the request of a call.
    private static func daoRequest(_ args: DAORequestArguments, dao: JavaScriptDAO) throws(BridgeError) -> JSONValue {
        let headers = try args.headers.map { (pairs) throws(BridgeError) in
            try namedPairs(pairs, at: "headers").map { HTTPField($0.name, $0.value) }
        }
        var mapped: DAOMappedParameters
        do {
            if let given = args.mapped, case .object(let wire)? = args.wire {
                mapped = DAOMappedParameters()
                mapped.path = given.path
                mapped.headers = try namedPairs(given.headers, at: "mapped.headers")
                mapped.placement = given.placement.compactMapValues(ParameterPlacement.init(rawValue:))
                mapped.parameters = wire
            } else {
                mapped = try DAORequestBuilder.map(dao.endpoint, try object(args.params, at: "params"))
            }
        } catch {
            throw DAOError.from(error, dao: dao.name).bridgeError
        }
        if args.stage == "map" {
            return [
                "params": .object(mapped.parameters),
                "mapped": [
                    "path": .object(JSONObject(mapped.path.map { ($0.key, .string($0.value)) })),
                    "headers": .array(mapped.headers.map { [.string($0.name), .string($0.value)] }),
                    "placement": .object(JSONObject(mapped.placement.map { ($0.key, .string($0.value.rawValue)) })),
                ],
            ]
        }
        let built = DAORequestBuilder.request(dao.endpoint, mapped, headers: headers ?? dao.endpoint.headers)
        var out: JSONObject = [
            "method": .string(built.request.method), "url": .string(built.request.url),
            "headers": .array(built.request.headers.map { [.string($0.name), .string($0.value)] }),
            "params": .object(mapped.parameters),
        ]
        if let body = built.request.body { out["body"] = .string(String(decoding: body, as: UTF8.self)) }
        if let parts = built.parts { out["multipart"] = multipart(parts) }
        return .object(out)
    }
}

/// A multipart body's `{fields: [[name, text]], files: [[name, index]]}`: a part whose value is a file
/// reference (`{"$jsbridgeFile": index}`: the file stays in JavaScript) is a file, an array gives a field per
/// item, any other value one field.
private func multipart(_ parts: [(name: String, value: JSONValue)]) -> JSONValue {
    var fields: [JSONValue] = []
    var files: [JSONValue] = []
    for (name, value) in parts {
        if case .object(let object) = value, object.keys.count == 1, let index = object["$jsbridgeFile"] {
            files.append([.string(name), index])
        } else if case .array(let items) = value {
            fields += items.map { [.string(name), .string(DAORequestBuilder.scalar($0))] }
        } else {
            fields.append([.string(name), .string(DAORequestBuilder.scalar(value))])
        }
    }
    return ["fields": .array(fields), "files": .array(files)]
}

/// One `daoSend` call: its DAO, request and wire parameters, worked out when it starts (a class: the
/// exchange's closures share it).
private final class DAOSend: Sendable {
    let dao: JavaScriptDAO
    let request: FetchRequest
    let wire: JSONObject
    let args: DAOSendArguments
    /// The cache options of the call, or nil when it does not use the cache.
    let cacheOptions: HTTPCacheOptions?

    init(_ args: DAOSendArguments, dao: JavaScriptDAO) throws(BridgeError) {
        self.dao = dao
        self.args = args
        do {
            if let given = args.request {
                var request = try given.request()
                request.connectTimeout = request.connectTimeout ?? dao.endpoint.connectTimeout
                self.request = request
                wire = try object(args.wire, at: "wire")
            } else if let request = dao.requestWithoutParameters, args.params?.objectValue?.keys.isEmpty ?? true {
                self.request = request
                wire = [:]
            } else {
                let mapped = try DAORequestBuilder.map(dao.endpoint, try object(args.params, at: "params"))
                request = DAORequestBuilder.request(dao.endpoint, mapped, headers: dao.endpoint.headers).request
                wire = mapped.parameters
            }
        } catch {
            throw DAOError.from(error, dao: dao.name).bridgeError
        }
        cacheOptions = HTTPCacheOptions.dao(
            mode: dao.endpoint.cacheMode ?? .none, interval: dao.endpoint.cacheInterval, key: args.cacheKey,
            method: request.method, parameters: wire)
    }

    /// Whether the call is one network exchange: no mock, no cache, no retry, no total timeout.
    var isPlain: Bool {
        args.mock == nil && args.mockContent == nil && args.lookup != true && dao.endpoint.retry == nil
            && dao.endpoint.totalTimeout == nil && cacheOptions == nil
    }

    /// The call from a mock, the cache or the network, read as far as `args.read` says.
    func run(_ context: PluginContext<HTTPPlugin>) async throws -> WireAnswer {
        if args.mock != nil || args.mockContent != nil {
            return try answer(try await mocked(context), source: "mock", attempts: nil, token: nil)
        }
        let state = context.state
        try state.fetcher.authorize(url: request.url)
        let policy = PolicyFetcher(
            fetcher: state.fetcher, retry: dao.endpoint.retry, totalTimeout: dao.endpoint.totalTimeout,
            clock: context.clock)
        var attempts: Int?
        func network(_ request: FetchRequest) async throws -> FetchResponse {
            let (response, count) = try await policy.fetch(request)
            // Counted with a retry policy only, as a plain call (answered by a completion) cannot count.
            if dao.endpoint.retry != nil { attempts = count }
            return response
        }
        guard let options = cacheOptions else {
            return try answer(try await network(request), source: "network", attempts: attempts, token: nil)
        }
        // The disk cache blocks on file I/O: on the pool, not on the JS thread's loop.
        return try await withTaskExecutorPreference(ActionExecutor.shared) {
            guard let cache = try state.cache.cache(create: options.mode != .none) else {
                return try answer(try await network(request), source: "network", attempts: attempts, token: nil)
            }
            if args.lookup == true {
                guard let stored = await cache.cachedResponse(for: request, options: options) else {
                    return WireAnswer(EncodedJSON(.null))
                }
                return try answer(stored, source: "cache", attempts: nil, token: nil)
            }
            let result = try await cache.send(request, options: options, network: network)
            return try answer(
                result.response, source: result.source.rawValue, attempts: attempts,
                token: result.pending.map { state.cache.hold($0) })
        }
    }

    /// The fixture's (or the auto mock's) response, after its delay.
    private func mocked(_ context: PluginContext<HTTPPlugin>) async throws -> FetchResponse {
        let configured = context.configuration.mock
        let fixture: JSONValue
        if let content = args.mockContent {
            fixture = content
        } else if let directory = args.mock?.dir {
            // A directory the script names is read with its --allow-read, file by file (a fixture may be a link
            // out of it); the configured one (or the default) is the operator's.
            fixture = try MockFixtures(directory: directory).load(dao: dao.name, variant: args.mock?.variant) {
                (file) throws(BridgeError) in try context.requirePath(.read, file)
            }
        } else {
            fixture = try MockFixtures(directory: configured?.dir ?? "mocks").load(
                dao: dao.name, variant: args.mock?.variant)
        }
        let answer = try MockFixtures.answer(fixture, url: request.url)
        let delayMs = args.mock?.delayMs ?? configured?.delayMs
        if let delay = answer.delay ?? delayMs.map({ .milliseconds($0) }), delay > .zero {
            try await context.clock.sleep(for: delay)
        }
        return try answer.outcome.get()
    }

    /// The answer to the call: its head (`{status, url}` when brief) with the response read to `args.read`.
    func answer(_ response: FetchResponse, source: String, attempts: Int?, token: Int?) throws
        -> WireAnswer
    {
        var head: JSONObject
        if args.brief == true {
            head = ["status": .number(Double(response.status)), "url": .string(response.url)]
            if source != "network" { head["source"] = .string(source) }
            if let attempts { head["attempts"] = .number(Double(attempts)) }
        } else {
            head = HTTPPlugin.head(response, attempts: attempts, source: source)
        }
        if let token { head["cacheToken"] = .number(Double(token)) }
        return try Self.read(dao, response, method: request.method, stage: args.read, head: head)
    }

    /// `head` with `response` read to `stage`: its body (`body`, or `bodyBytes` beside the JSON when it is not
    /// UTF-8), or its checked body as `data` (bytes beside the JSON for a `bytes` response), at the key path
    /// for stage `data` (absent when the path leads nowhere).
    static func read(
        _ dao: JavaScriptDAO, _ response: FetchResponse, method: String, stage: DAOReadStage, head: JSONObject
    ) throws(DAOError) -> WireAnswer {
        var head = head
        guard stage != .response else { return WireAnswer(head, body: response.body) }
        try DAOResponseReader.checkStatus(response, dao: dao.name)
        let endpoint = dao.endpoint
        let keyPath = stage == .data ? endpoint.keyPath ?? "" : ""
        // A JSON body taken whole is embedded as it came, once validated: JavaScript parses it once, with the
        // answer (Benchmarks/README.md, "HTTP").
        if endpoint.responseType == .json, keyPath.isEmpty, !DAOResponseReader.hasNoJSONBody(response, method: method),
            let text = String(validating: response.body, as: UTF8.self), let body = EncodedJSON(validating: text)
        {
            return WireAnswer(EncodedJSON(head, adding: "data", body))
        }
        switch try DAOResponseReader.body(response, method: method, type: endpoint.responseType, dao: dao.name) {
        case .json(let value):
            return data(dao, value, head: head, keyPath: keyPath)
        case .text(let text):
            head["data"] = keyPath.isEmpty ? .string(text) : nil
        case .bytes(let bytes):
            if keyPath.isEmpty {
                head["data"] = .null
                return WireAnswer(
                    EncodedJSON(.object(head)), bytes: [ByteAttachment(path: [.key("data")], bytes: Bytes(bytes))])
            }
        }
        return WireAnswer(EncodedJSON(.object(head)))
    }

    /// `head` with the value at the DAO's key path in `entity` as `data`.
    static func data(_ dao: JavaScriptDAO, _ entity: JSONValue, head: JSONObject, keyPath: String? = nil)
        -> WireAnswer
    {
        var head = head
        head["data"] = DAOResponseReader.value(at: keyPath ?? dao.endpoint.keyPath ?? "", in: entity)
        return WireAnswer(EncodedJSON(.object(head)))
    }
}

/// The object an argument at `path` holds (none: an empty one).
private func object(_ value: JSONValue?, at path: String) throws(BridgeError) -> JSONObject {
    switch value {
    case nil, .null?: return [:]
    case .object(let object)?: return object
    case let other?: throw BridgeError.invalidArgument(at: path, "expected an object, got \(other.kindDescription)")
    }
}
