import Foundation
import JSBridgeBase
import ModelConversion

/// How a DAO reads a response's body.
public enum DAOResponseType: String, CaseIterable, Sendable, Hashable {
    /// Parsed JSON; an empty body, a 204 or 205 response and a HEAD request's answer give null.
    case json
    /// The body as UTF-8 text.
    case text
    /// The body's bytes.
    case bytes
}

/// A response's body as a DAO reads it (``DAOResponseReader/body(_:method:type:dao:)``).
public enum DAOBody: Sendable {
    case json(JSONValue)
    case text(String)
    case bytes([UInt8])
}

/// What an error keeps of the response it is about.
public struct DAOResponseSummary: Sendable {
    public var status: Int
    public var statusText: String
    public var headers: [HTTPField]
    public var url: String
    /// The body's text (at most 64 KiB).
    public var body: String

    public init(status: Int, statusText: String, headers: [HTTPField], url: String, body: String) {
        self.status = status
        self.statusText = statusText
        self.headers = headers
        self.url = url
        self.body = body
    }

    public init(_ response: FetchResponse) {
        self.init(
            status: response.status, statusText: response.statusText, headers: response.headers, url: response.url,
            body: String(String(decoding: response.body, as: UTF8.self).prefix(65_536)))
    }

    var json: JSONValue {
        .object([
            "status": .number(Double(status)), "statusText": .string(statusText),
            "headers": .object(JSONObject(headers.map { ($0.name.lowercased(), .string($0.value)) })),
            "url": .string(url), "body": .string(body),
        ])
    }
}

/// The DAO rules between a response and its entity: the status check, the body per response type, and the
/// key path. Swift DAOs (``DAOClient``) and JavaScript ones (the HTTP plugin's `daoSend` and `daoRead`) read
/// responses here.
public enum DAOResponseReader {
    /// Throws an `http` ``DAOError`` (`HTTP_STATUS`, keeping the response) unless the status is 2xx.
    public static func checkStatus(_ response: FetchResponse, dao: String) throws(DAOError) {
        guard !(200...299).contains(response.status) else { return }
        let summary = DAOResponseSummary(response)
        let error = HTTPError.status(
            response.status, statusText: response.statusText, url: response.url, headers: response.headers,
            body: summary.body)
        throw DAOError(
            domain: .http, code: "HTTP_STATUS", message: error.description, dao: dao, status: response.status,
            body: summary.body, response: summary, underlying: error)
    }

    /// Whether a JSON response has no body to parse (null): empty, 204, 205, or the answer to HEAD.
    public static func hasNoJSONBody(_ response: FetchResponse, method: String) -> Bool {
        response.body.isEmpty || response.status == 204 || response.status == 205 || method == "HEAD"
    }

    /// The body of a successful response per `type`; JSON that does not parse is a `dataFormat` ``DAOError``
    /// with an `INVALID_JSON` issue.
    public static func body(_ response: FetchResponse, method: String, type: DAOResponseType, dao: String)
        throws(DAOError) -> DAOBody
    {
        switch type {
        case .text: return .text(String(decoding: response.body, as: UTF8.self))
        case .bytes: return .bytes(response.body)
        case .json:
            if hasNoJSONBody(response, method: method) { return .json(.null) }
            do {
                return .json(try JSONValue(parsing: response.body))
            } catch {
                throw invalidJSON(response, error, dao: dao)
            }
        }
    }

    /// The `dataFormat` error of a JSON body that does not parse.
    public static func invalidJSON(_ response: FetchResponse, _ error: JSONParseError, dao: String) -> DAOError {
        let summary = DAOResponseSummary(response)
        return DAOError(
            domain: .dataFormat, code: "DATA_FORMAT",
            message: "the response of \(response.url) is not valid JSON: \(error.message)", dao: dao,
            status: response.status, body: summary.body,
            issues: [
                ModelIssue(
                    path: "", code: "INVALID_JSON", message: error.message,
                    input: .string(String(summary.body.prefix(200))))
            ], response: summary, underlying: error)
    }

    /// The value at a dotted key path (`"resp.data"`); nil when a step is missing or not an object. An empty
    /// path is the value itself.
    public static func value(at keyPath: String, in json: JSONValue) -> JSONValue? {
        var current = json
        for key in keyPath.split(separator: ".", omittingEmptySubsequences: false) where !keyPath.isEmpty {
            guard case .object(let object) = current, let next = object[String(key)] else { return nil }
            current = next
        }
        return current
    }
}
