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
            for (name, value) in mapped.headers {
                headers.removeAll { $0.name.lowercased() == name.lowercased() }
                headers.append(HTTPField(name, value))
            }
            try await dao.didSetUpParameters(&mapped.parameters, context: context)
            var request = try DAORequestBuilder.request(endpoint, mapped, headers: headers)
            try await dao.willSend(&request, context: context)

            let response: FetchResponse
            var pending: HTTPCachePendingEntry? = nil
            if let mock {
                response = try await mockAnswer(dao, mock, request)
            } else if let cache, let options = cacheOptions(endpoint, request, parameters: mapped.parameters) {
                if context.attempt == 1, let onCache, options.mode == .both,
                    let cached = await cache.cachedResponse(for: request, options: options),
                    case .output(let output) = try await process(dao, request, cached, context: context)
                {
                    try await onCache(output)
                }
                let result = try await cache.send(request, options: options) { try await fetch(endpoint, $0) }
                (response, pending) = (result.response, result.pending)
            } else {
                response = try await fetch(endpoint, request)
            }
            let output: D.Output
            switch try await process(dao, request, response, context: context) {
            case .retry(let pause) where context.attempt <= hookRetries:
                try await clock.sleep(for: pause)
                continue
            case .retry: output = try await deliver(dao, request, response, context: context)
            case .output(let delivered): output = delivered
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

    /// Checks the status, parses the body, runs `outputEntity`, picks the key path, decodes and delivers.
    private func deliver<D: HTTPDAO>(
        _ dao: D, _ request: FetchRequest, _ response: FetchResponse, context: DAOCallContext
    ) async throws -> D.Output {
        let text = String(decoding: response.body, as: UTF8.self)
        guard (200...299).contains(response.status) else {
            throw HTTPError.status(
                response.status, statusText: response.statusText, url: response.url, headers: response.headers,
                body: String(text.prefix(65_536)))
        }
        let json: JSONValue
        if response.body.isEmpty || response.status == 204 || response.status == 205 || request.method == "HEAD" {
            json = .null
        } else {
            do {
                json = try JSONValue(parsing: response.body)
            } catch {
                throw DAOError(
                    domain: .dataFormat, code: "DATA_FORMAT",
                    message: "the response of \(response.url) is not valid JSON: \(error.message)", dao: dao.name,
                    status: response.status, body: String(text.prefix(65_536)),
                    issues: [ModelIssue(path: "", code: "INVALID_JSON", message: error.message)], underlying: error)
            }
        }
        let entity = try await dao.outputEntity(json, context: context)
        let value = dao.endpoint.keyPath.map { Self.value(at: $0, in: entity) } ?? entity
        do {
            return try await dao.deliver(try dao.decode(value, context: context), context: context)
        } catch var error as DAOError where error.domain == .dataFormat {
            error.status = response.status
            error.body = String(text.prefix(65_536))
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

    /// The cache options of a call, or nil when the call does not use the cache (an unsafe request without a
    /// cache mode still goes through it: it invalidates the URL's entries).
    private func cacheOptions(_ endpoint: DAOEndpoint, _ request: FetchRequest, parameters: JSONObject)
        -> HTTPCacheOptions?
    {
        let mode = endpoint.cacheMode ?? .none
        let isUnsafe = !HTTPCachePolicy.safeMethods.contains(request.method.uppercased())
        guard mode != .none || isUnsafe else { return nil }
        return HTTPCacheOptions(
            mode: mode, interval: endpoint.cacheInterval,
            parameters: parameters.map { (name: $0.key, value: DAORequestBuilder.scalar($0.value)) })
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

    /// The value at a dotted key path, or null.
    static func value(at keyPath: String, in json: JSONValue) -> JSONValue {
        var current = json
        for key in keyPath.split(separator: ".") {
            guard case .object(let object) = current, let next = object[String(key)] else { return .null }
            current = next
        }
        return current
    }
}

/// Turns an endpoint and parameters into a request (shared by every Swift DAO call).
enum DAORequestBuilder {
    struct Mapped {
        var path: [String: String] = [:]
        var headers: [(String, String)] = []
        /// Wire name → value, for the query and the body.
        var parameters: JSONObject = [:]
        /// Placements given explicitly (others follow the encoding).
        var placement: [String: ParameterPlacement] = [:]
    }

    static func map(_ endpoint: DAOEndpoint, _ input: JSONObject) throws(DAOError) -> Mapped {
        var mapped = Mapped()
        var issues: [ModelIssue] = []
        let pathNames = Set(pathPlaceholders(endpoint.path))
        var declared = Set<String>()
        for parameter in endpoint.parameters {
            declared.insert(parameter.name)
            if parameter.isIgnored { continue }
            guard let value = input[parameter.name].flatMap({ $0 == .null ? nil : $0 }) ?? parameter.defaultValue else {
                if parameter.isRequired || pathNames.contains(parameter.wireName) {
                    issues.append(
                        ModelIssue(path: "params.\(parameter.name)", code: "REQUIRED", message: "is required"))
                }
                continue
            }
            let placement = parameter.placement ?? (pathNames.contains(parameter.wireName) ? .path : nil)
            switch placement {
            case .path: mapped.path[parameter.wireName] = scalar(value)
            case .header: mapped.headers.append((parameter.wireName, scalar(value)))
            case .query, .body, nil:
                mapped.parameters[parameter.wireName] = value
                if let placement { mapped.placement[parameter.wireName] = placement }
            }
        }
        for (name, value) in input where !declared.contains(name) && value != .null {
            if pathNames.contains(name) { mapped.path[name] = scalar(value) } else { mapped.parameters[name] = value }
        }
        for name in pathNames where mapped.path[name] == nil && !issues.contains(where: { $0.path == "params.\(name)" })
        {
            issues.append(
                ModelIssue(
                    path: "params.\(name)", code: "REQUIRED", message: "is required by the path '\(endpoint.path)'"))
        }
        guard issues.isEmpty else {
            throw DAOError(
                domain: .request, code: "INVALID_ARGUMENT",
                message: "invalid parameters: " + issues.map { "\($0.path) \($0.message)" }.joined(separator: "; "),
                issues: issues)
        }
        return mapped
    }

    static func request(_ endpoint: DAOEndpoint, _ mapped: Mapped, headers: [HTTPField]) throws -> FetchRequest {
        var path = endpoint.path
        for (name, value) in mapped.path {
            path = path.replacingOccurrences(of: "{\(name)}", with: percentEncode(value, plusForSpace: false))
        }
        var url = join(endpoint.baseURL, path)
        let method = endpoint.method
        let encoding = endpoint.encoding ?? (["GET", "HEAD", "DELETE"].contains(method) ? .query : .json)
        var query: [(String, JSONValue)] = []
        var body: [(String, JSONValue)] = []
        for (name, value) in mapped.parameters {
            let placement = mapped.placement[name] ?? (encoding == .query ? .query : .body)
            if placement == .query { query.append((name, value)) } else { body.append((name, value)) }
        }
        let queryText = formEncode(query)
        if !queryText.isEmpty { url += (url.contains("?") ? "&" : "?") + queryText }
        var headers = headers
        var bytes: [UInt8]?
        if !body.isEmpty {
            let contentType: String
            switch encoding {
            case .json, .query:
                bytes = JSONValue.object(JSONObject(body)).serializedUTF8()
                contentType = "application/json"
            case .form:
                bytes = Array(formEncode(body).utf8)
                contentType = "application/x-www-form-urlencoded;charset=UTF-8"
            }
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                headers.append(HTTPField("content-type", contentType))
            }
        }
        return FetchRequest(
            method: method, url: url, headers: headers, body: bytes, connectTimeout: endpoint.connectTimeout)
    }

    static func pathPlaceholders(_ path: String) -> [String] {
        var names: [String] = []
        var rest = path[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    static func join(_ base: String, _ path: String) -> String {
        if path.contains("://") { return path }
        if path.isEmpty { return base }
        var base = base[...]
        while base.hasSuffix("/") { base = base.dropLast() }
        var path = path[...]
        while path.hasPrefix("/") { path = path.dropFirst() }
        return "\(base)/\(path)"
    }

    /// Text for a scalar parameter: strings as they are, integral numbers without a fraction, containers as JSON.
    static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .null: ""
        case .number, .array, .object: value.serialized()
        }
    }

    /// `application/x-www-form-urlencoded` pairs; arrays repeat their key.
    static func formEncode(_ pairs: [(String, JSONValue)]) -> String {
        var parts: [String] = []
        for (name, value) in pairs {
            let values: [JSONValue] = if case .array(let items) = value { items } else { [value] }
            for item in values {
                parts.append(
                    percentEncode(name, plusForSpace: true) + "=" + percentEncode(scalar(item), plusForSpace: true))
            }
        }
        return parts.joined(separator: "&")
    }

    /// Percent-encodes everything but ASCII letters, digits and `*-._` (and `~` in paths); spaces become
    /// `+` in forms, `%20` in paths — as URLSearchParams and encodeURIComponent do.
    static func percentEncode(_ text: String, plusForSpace: Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "*") where plusForSpace, UInt8(ascii: "~") where !plusForSpace:
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " ") where plusForSpace:
                out += "+"
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded()
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded() -> String { count == 1 ? "0" + self : self }
}
