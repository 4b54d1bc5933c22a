import JSBridgeBase

/// Failures of the HTTP core, each with a stable code (``bridgeError``).
public enum HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL is not an absolute http(s) URL.
    case invalidURL(String, reason: String)
    /// The request could not be completed: `kind` is `connect`, `dns`, `reset`, `tls`, `timeout`,
    /// `redirect`, `protocol`, `descriptors` (no file descriptor left: EMFILE) or `other`.
    case network(kind: String, message: String, url: String)
    /// No response head arrived within the request timeout.
    case timeout(ms: Int, url: String)
    /// The response body is larger than the configured limit.
    case bodyTooLarge(limit: Int, url: String)
    /// The server answered with a status the caller does not accept (a DAO or download wants 2xx); `body`
    /// keeps the start of the response body (at most 64 KiB, as text).
    case status(Int, statusText: String, url: String, headers: [HTTPField], body: String)

    public var description: String {
        switch self {
        case .invalidURL(let url, let reason): "Invalid URL '\(url)': \(reason)."
        case .network(_, let message, let url): "Network error for \(url): \(message)"
        case .timeout(let ms, let url): "\(url) did not respond within \(ms) ms."
        case .bodyTooLarge(let limit, let url): "The response body of \(url) is larger than \(limit) bytes."
        case .status(let status, let statusText, let url, _, _):
            "\(url) answered HTTP \(status)\(statusText.isEmpty ? "" : " \(statusText)")."
        }
    }
}

/// The error as JavaScript sees it: its stable code, with details in `data`.
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
