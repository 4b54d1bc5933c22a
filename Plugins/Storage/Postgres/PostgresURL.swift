import Foundation

/// A `postgres://user[:password]@host[:port]/database[?sslmode=…]` URL, checked, with a form safe to show.
public struct PostgresURL: Sendable, Hashable {
    /// The URL as given (it may hold a password: never print it).
    package let url: String
    /// `host:port`, for errors and traces.
    public let host: String
    public let database: String
    public let user: String
    let password: String?

    /// Parses `text`; the error message never repeats the URL (it may hold a password).
    public init(_ text: String) throws(PostgresURLError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "postgres" || scheme == "postgresql"
        else { throw PostgresURLError(reason: "expected postgres://user[:password]@host[:port]/database") }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresURLError(reason: "the URL has no host")
        }
        // The port's text, not `components.port`: a number too large for an `Int` reads as no port at all.
        // An empty port (`host:/db`) is the default one.
        if let range = components.rangeOfPort, !range.isEmpty {
            let port = text[range]
            guard port.utf8.count <= 5, let number = Int(port), (1...65535).contains(number) else {
                throw PostgresURLError(reason: "the port must be 1–65535, got \(port)")
            }
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresURLError(reason: "the URL has no database (…@host[:port]/database)")
        }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresURLError(reason: "the URL has no user (postgres://user@host/database)")
        }
        let allowed: Set<String> = [
            "sslmode", "sslrootcert", "sslcert", "sslkey", "application_name", "connect_timeout",
        ]
        for item in components.queryItems ?? [] where !allowed.contains(item.name) {
            throw PostgresURLError(
                reason:
                    "unsupported URL parameter '\(item.name)' (allowed: \(allowed.sorted().joined(separator: ", ")))")
        }
        url = text
        self.host = "\(host):\(components.port ?? 5432)"
        self.database = database
        self.user = user
        password = components.password
    }

    /// The URL without its password, for logs and `info`.
    public var redacted: String { "postgres://\(user)@\(host)/\(database)" }

    /// Removes the password from a message that might repeat it.
    package func scrub(_ message: String) -> String {
        guard let password, !password.isEmpty else { return message }
        return message.replacingOccurrences(of: password, with: "***")
    }
}

/// Why a storage URL is not usable.
public struct PostgresURLError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
