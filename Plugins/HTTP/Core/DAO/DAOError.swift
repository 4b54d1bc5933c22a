import Foundation
import JSBridgeBase
import ModelConversion

/// A failed DAO call, in one of the domains JS DAOs use too; the status, the body's text and the underlying
/// error are kept whenever there was one.
public struct DAOError: Error, Sendable, CustomStringConvertible {
    public enum Domain: String, Sendable, Hashable {
        /// Connect, DNS, TLS, reset (`code` `NETWORK_ERROR`, `BODY_TOO_LARGE`).
        case network
        /// A non-2xx status (`HTTP_STATUS`).
        case http
        /// A business error from `outputEntity` (`SERVER_ERROR`).
        case server
        /// Malformed JSON or a response that does not convert (`DATA_FORMAT`, with issues).
        case dataFormat
        /// The task was cancelled (`CANCELLED`).
        case cancelled
        /// A deadline passed (`TIMEOUT`).
        case timeout
        /// The request could not be made: bad parameters, permission, mock fixtures.
        case request
    }

    public var domain: Domain
    /// The stable code JS sees.
    public var code: String
    public var message: String
    /// The DAO's name (filled in by the client when a hook throws without one).
    public var dao: String
    public var status: Int?
    /// The response body's text (for `http` and `dataFormat` errors).
    public var body: String?
    /// The server's own code, for `server` errors.
    public var serverCode: JSONValue?
    /// What did not convert, with paths from the response's root.
    public var issues: [ModelIssue]
    /// The response the error is about (`http` and `dataFormat` errors).
    public var response: DAOResponseSummary?
    public var underlying: (any Error)?

    public init(
        domain: Domain, code: String, message: String, dao: String = "", status: Int? = nil, body: String? = nil,
        serverCode: JSONValue? = nil, issues: [ModelIssue] = [], response: DAOResponseSummary? = nil,
        underlying: (any Error)? = nil
    ) {
        self.response = response
        self.domain = domain
        self.code = code
        self.message = message
        self.dao = dao
        self.status = status
        self.body = body
        self.serverCode = serverCode
        self.issues = issues
        self.underlying = underlying
    }

    public var description: String { dao.isEmpty ? message : "\(dao): \(message)" }

    /// A business error, thrown from `outputEntity`.
    public static func server(code: JSONValue? = nil, message: String) -> DAOError {
        DAOError(domain: .server, code: "SERVER_ERROR", message: message, serverCode: code)
    }

    /// A conversion failure; issue paths get `prefix` (the key path) in front.
    public static func dataFormat(dao: String, issues: [ModelIssue], prefix: String) -> DAOError {
        let prefixed = issues.map { issue in
            var issue = issue
            if !prefix.isEmpty {
                issue.path =
                    issue.path.isEmpty
                    ? prefix : issue.path.hasPrefix("[") ? prefix + issue.path : "\(prefix).\(issue.path)"
            }
            return issue
        }
        let summary = prefixed.prefix(3).map(\.description).joined(separator: "; ")
        return DAOError(
            domain: .dataFormat, code: "DATA_FORMAT", message: "the response does not convert: \(summary)", dao: dao,
            issues: prefixed)
    }

    /// Any error of a call as a DAOError of the right domain.
    public static func from(_ error: any Error, dao: String) -> DAOError {
        switch error {
        case var error as DAOError:
            if error.dao.isEmpty { error.dao = dao }
            return error
        case is CancellationError:
            return DAOError(domain: .cancelled, code: "CANCELLED", message: "the call was cancelled", dao: dao)
        case let error as HTTPError:
            switch error {
            case .network, .bodyTooLarge:
                return DAOError(
                    domain: .network, code: error.bridgeError.code, message: error.description, dao: dao,
                    underlying: error)
            case .timeout:
                return DAOError(
                    domain: .timeout, code: "TIMEOUT", message: error.description, dao: dao, underlying: error)
            case .status(let status, let statusText, let url, let headers, let body):
                let response = DAOResponseSummary(
                    status: status, statusText: statusText, headers: headers, url: url, body: body)
                return DAOError(
                    domain: .http, code: "HTTP_STATUS", message: error.description, dao: dao, status: status,
                    body: body, response: response, underlying: error)
            case .invalidURL:
                return DAOError(
                    domain: .request, code: "INVALID_ARGUMENT", message: error.description, dao: dao, underlying: error)
            }
        case let error as BridgeError:
            return DAOError(domain: .request, code: error.code, message: error.message, dao: dao, underlying: error)
        default:
            return DAOError(
                domain: .request, code: BridgeError.Code.pluginError, message: String(describing: error), dao: dao,
                underlying: error)
        }
    }
}

extension DAOError: BridgeErrorConvertible {
    /// The code and message, with `data` holding the underlying error's data (a network error's `kind`, an
    /// HTTP error's `url`…) and the DAO's: `domain`, `dao`, `status`, `body`, `serverCode`, `issues`, `response`.
    public var bridgeError: BridgeError {
        var data: JSONObject = [:]
        if let underlying, underlying is BridgeError || underlying is any BridgeErrorConvertible,
            case .object(let details) = BridgeError(from: underlying).data
        {
            data = details
        }
        data["domain"] = .string(domain.rawValue)
        data["dao"] = .string(dao)
        if let status { data["status"] = .number(Double(status)) }
        if let body { data["body"] = .string(body) }
        if let serverCode { data["serverCode"] = serverCode }
        if !issues.isEmpty { data["issues"] = .array(issues.map(\.json)) }
        if let response { data["response"] = response.json }
        return BridgeError(code: code, message: description, data: .object(data))
    }
}
