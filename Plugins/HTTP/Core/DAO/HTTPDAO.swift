import Foundation
import JSBridgeBase
import ModelConversion

/// Where a DAO parameter goes on the wire.
public enum ParameterPlacement: String, CaseIterable, Sendable, Hashable {
    case query, body, header, path
}

/// How body parameters are encoded (`query` puts every parameter in the query string; `multipart` leaves the
/// parts to the caller, which streams them: JavaScript DAOs).
public enum RequestEncoding: String, CaseIterable, Sendable, Hashable {
    case query, json, form, multipart
}

/// One declared parameter (HAccess `ppx`: `HPMapto`, `HPHeader`, `HPIgnore`).
public struct DAOParameter: Sendable, Hashable {
    /// The name callers use.
    public var name: String
    /// The name on the wire.
    public var wireName: String
    /// nil: the endpoint's default (a `{name}` in the path, else query or body per the encoding).
    public var placement: ParameterPlacement?
    /// Used when the caller gives no value.
    public var defaultValue: JSONValue?
    public var isRequired: Bool
    /// Never sent (a value only the hooks use).
    public var isIgnored: Bool

    public init(
        _ name: String, mapTo wireName: String? = nil, in placement: ParameterPlacement? = nil,
        default defaultValue: JSONValue? = nil, required: Bool = false, ignored: Bool = false
    ) {
        self.name = name
        self.wireName = wireName ?? name
        self.placement = placement
        self.defaultValue = defaultValue
        self.isRequired = required
        self.isIgnored = ignored
    }
}

/// What a DAO calls and how: shared settings compose by building one endpoint from another.
///
/// ```swift
/// let api = DAOEndpoint(baseURL: "https://api.example.com", headers: [HTTPField("X-Client", "app")])
/// let getUser = api.with(path: "/users/{id}", parameters: [DAOParameter("id")], keyPath: "data")
/// ```
public struct DAOEndpoint: Sendable, Hashable {
    public var baseURL: String
    /// Appended to `baseURL`; `{name}` segments are filled from parameters (percent-encoded).
    public var path: String
    public var method: String
    public var headers: [HTTPField]
    public var parameters: [DAOParameter]
    /// nil: `query` for GET/HEAD/DELETE, else `json`.
    public var encoding: RequestEncoding?
    /// Where the entity sits in the response JSON (`"resp.data"`); nil: the whole body.
    public var keyPath: String?
    /// How the body is read (a Swift DAO decodes `text` as a JSON string, `bytes` as base64 text).
    public var responseType: DAOResponseType = .json
    public var retry: RetryPolicy?
    public var connectTimeout: Duration?
    /// The deadline of each attempt, body included.
    public var totalTimeout: Duration?
    /// Answers from fixture files instead of the network (``DAOClient/mock`` sets it for every DAO).
    public var mock: DAOMock?
    /// How calls use the client's ``HTTPCache`` (nil or `.none`: not at all). With `.both`, the stored
    /// response goes to ``DAOClient/send(_:_:onCache:)``'s `onCache` and the call returns the network's.
    public var cacheMode: HTTPCacheMode?
    /// `alternative`: how long a stored response is served.
    public var cacheInterval: Duration?

    public init(
        baseURL: String, path: String = "", method: String = "GET", headers: [HTTPField] = [],
        parameters: [DAOParameter] = [], encoding: RequestEncoding? = nil, keyPath: String? = nil,
        retry: RetryPolicy? = nil, connectTimeout: Duration? = nil, totalTimeout: Duration? = nil,
        mock: DAOMock? = nil, cacheMode: HTTPCacheMode? = nil, cacheInterval: Duration? = nil
    ) {
        self.baseURL = baseURL
        self.path = path
        self.method = method.uppercased()
        self.headers = headers
        self.parameters = parameters
        self.encoding = encoding
        self.keyPath = keyPath
        self.retry = retry
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.mock = mock
        self.cacheMode = cacheMode
        self.cacheInterval = cacheInterval
    }

    /// This endpoint with some settings replaced; `headers` and `parameters` are added (same names replace).
    public func with(
        path: String? = nil, method: String? = nil, headers: [HTTPField] = [], parameters: [DAOParameter] = [],
        encoding: RequestEncoding? = nil, keyPath: String? = nil, retry: RetryPolicy? = nil
    ) -> DAOEndpoint {
        var copy = self
        if let path { copy.path = path }
        if let method { copy.method = method.uppercased() }
        for field in headers {
            copy.headers.removeAll { $0.name.lowercased() == field.name.lowercased() }
            copy.headers.append(field)
        }
        for parameter in parameters {
            copy.parameters.removeAll { $0.name == parameter.name }
            copy.parameters.append(parameter)
        }
        if let encoding { copy.encoding = encoding }
        if let keyPath { copy.keyPath = keyPath }
        if let retry { copy.retry = retry }
        return copy
    }
}

/// How a Swift DAO's calls are answered from fixture files instead of the network: `<directory>/<DAO
/// name>.json`, or `<DAO name>.<variant>.json` for a variant. A fixture is the response body, or an envelope
/// with `$status`, `$headers`, `$body`/`$text`, `$delayMs` or `$error` (``MockFixtures/answer(_:url:)``); the
/// answer then goes through the same checks and conversion as a real response. (Auto mocks, made from a
/// model's schema, exist for JavaScript DAOs.)
public struct DAOMock: Sendable, Hashable {
    public var directory: String
    public var variant: String?
    /// A pause before each answer (a fixture's `$delayMs` wins).
    public var delay: Duration?

    public init(directory: String = "mocks", variant: String? = nil, delay: Duration? = nil) {
        self.directory = directory
        self.variant = variant
        self.delay = delay
    }
}

/// What `didReceive` and `outputEntity` decide.
public enum DAOOutcome: Sendable, Hashable {
    case proceed
    /// Repeat the call from `setUpHeaders` after a pause (at most `retry.count` times, default 1).
    case retry(after: Duration)
}

/// The state of one call, passed to every hook.
public struct DAOCallContext: Sendable {
    /// 1 for the first attempt, then 2, 3… after retry outcomes.
    public var attempt: Int
    /// The caller's parameters.
    public var input: JSONObject
}

/// A Swift data-access object: an endpoint plus lifecycle hooks, run by ``DAOClient`` in this order:
/// `setUpHeaders` → `setUpParameters` → (mapping to wire names) → `didSetUpParameters` (e.g. signing) →
/// `willSend` → (the request) → `didReceive` → (status check, JSON parsing) → `outputEntity` (business
/// check) → (key path) → `decode` → `deliver`. Every hook has a default that does nothing.
///
/// ```swift
/// struct GetUser: HTTPDAO {
///     typealias Output = User                    // a ModelConvertible: decoded by the model engine
///     var endpoint: DAOEndpoint { Api.base.with(path: "/users/{id}", keyPath: "resp.data") }
///     func outputEntity(_ json: JSONValue, context: DAOCallContext) async throws -> JSONValue {
///         if json["status"] == false { throw DAOError.server(code: json["code"], message: "…") }
///         return json
///     }
/// }
/// let user = try await client.send(GetUser(), ["id": 7])
/// ```
public protocol HTTPDAO: Sendable {
    associatedtype Output: Sendable
    /// Used in errors and as the fixture name of mocks (default: the type's name).
    var name: String { get }
    var endpoint: DAOEndpoint { get }
    func setUpHeaders(_ headers: inout [HTTPField], context: DAOCallContext) async throws
    func setUpParameters(_ parameters: inout JSONObject, context: DAOCallContext) async throws
    /// Parameters by wire name, header and path ones excluded.
    func didSetUpParameters(_ parameters: inout JSONObject, context: DAOCallContext) async throws
    func willSend(_ request: inout FetchRequest, context: DAOCallContext) async throws
    func didReceive(_ response: FetchResponse, context: DAOCallContext) async throws -> DAOOutcome
    /// The business check: throw ``DAOError/server(code:message:)`` for an error envelope, or return the entity.
    func outputEntity(_ json: JSONValue, context: DAOCallContext) async throws -> JSONValue
    /// The entity (at the key path) as `Output`; throw ``DAOError`` `dataFormat` with issues on mismatch.
    func decode(_ entity: JSONValue, context: DAOCallContext) throws -> Output
    func deliver(_ output: Output, context: DAOCallContext) async throws -> Output
}

extension HTTPDAO {
    public var name: String { String(describing: Self.self) }
    public func setUpHeaders(_ headers: inout [HTTPField], context: DAOCallContext) async throws {}
    public func setUpParameters(_ parameters: inout JSONObject, context: DAOCallContext) async throws {}
    public func didSetUpParameters(_ parameters: inout JSONObject, context: DAOCallContext) async throws {}
    public func willSend(_ request: inout FetchRequest, context: DAOCallContext) async throws {}
    public func didReceive(_ response: FetchResponse, context: DAOCallContext) async throws -> DAOOutcome { .proceed }
    public func outputEntity(_ json: JSONValue, context: DAOCallContext) async throws -> JSONValue { json }
    public func deliver(_ output: Output, context: DAOCallContext) async throws -> Output { output }
}

extension HTTPDAO where Output: ModelConvertible {
    /// Converts with the model engine (lenient); its issues become a `dataFormat` error.
    public func decode(_ entity: JSONValue, context: DAOCallContext) throws -> Output {
        do {
            return try Output(json: entity)
        } catch {
            throw DAOError.dataFormat(dao: name, issues: error.issues, prefix: endpoint.keyPath ?? "")
        }
    }
}

extension HTTPDAO where Output: RangeReplaceableCollection, Output.Element: ModelConvertible {
    /// An array of models; every element's issues are collected (paths `[i].field`).
    public func decode(_ entity: JSONValue, context: DAOCallContext) throws -> Output {
        guard case .array(let items) = entity else {
            throw DAOError.dataFormat(
                dao: name,
                issues: [ModelIssue(path: "", code: "TYPE", message: "expected an array", input: entity)],
                prefix: endpoint.keyPath ?? "")
        }
        var output = Output()
        var issues: [ModelIssue] = []
        for (index, item) in items.enumerated() {
            do {
                output.append(try Output.Element(json: item))
            } catch {
                issues += error.issues.map { issue in
                    var issue = issue
                    issue.path =
                        "[\(index)]" + (issue.path.isEmpty || issue.path.hasPrefix("[") ? "" : ".") + issue.path
                    return issue
                }
            }
        }
        if !issues.isEmpty { throw DAOError.dataFormat(dao: name, issues: issues, prefix: endpoint.keyPath ?? "") }
        return output
    }
}

extension HTTPDAO where Output == JSONValue {
    /// The raw JSON.
    public func decode(_ entity: JSONValue, context: DAOCallContext) throws -> Output { entity }
}
