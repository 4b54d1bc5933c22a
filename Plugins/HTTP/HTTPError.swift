/// Failures of the HTTP core (no bridge types inside; the adapter maps them to codes).
public enum HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL is not an absolute http(s) URL.
    case invalidURL(String, reason: String)
    /// The request could not be completed: `kind` is `connect`, `dns`, `reset`, `tls`, `timeout`,
    /// `redirect`, `protocol` or `other`.
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
