import Foundation
import JSBridgeBase

/// When and how often a request is tried again: on network failures and on chosen statuses, for idempotent
/// methods unless told otherwise, with exponential backoff (a `Retry-After` in seconds is honoured up to
/// `maxDelayMs`).
public struct RetryPolicy: Sendable, Hashable, Decodable {
    /// Retries after the first attempt (0: no retry).
    public var count: Int
    /// The wait before the first retry, in milliseconds.
    public var delayMs: Int
    /// Each further wait is the previous one times `factor`.
    public var factor: Double
    /// No wait is longer than this, in milliseconds.
    public var maxDelayMs: Int
    /// Statuses that are retried.
    public var statuses: Set<Int>
    /// Methods that are retried (upper case); nil: the idempotent ones.
    public var methods: Set<String>?

    /// The methods RFC 9110 calls idempotent.
    public static let idempotentMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]
    /// Network failures worth another attempt (an invalid URL or a redirect loop is not).
    static let retriedKinds: Set<String> = ["connect", "dns", "reset", "timeout"]

    public init(
        count: Int, delayMs: Int = 200, factor: Double = 2, maxDelayMs: Int = 10_000,
        statuses: Set<Int> = [408, 429, 500, 502, 503, 504], methods: Set<String>? = nil
    ) {
        self.count = count
        self.delayMs = delayMs
        self.factor = factor
        self.maxDelayMs = maxDelayMs
        self.statuses = statuses
        self.methods = methods
    }

    enum CodingKeys: String, CodingKey { case count, delayMs, factor, maxDelayMs, statuses, methods }

    public init(from decoder: any Decoder) throws {
        let defaults = RetryPolicy(count: 0)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        count = try container.decode(Int.self, forKey: .count)
        delayMs = try container.decodeIfPresent(Int.self, forKey: .delayMs) ?? defaults.delayMs
        factor = try container.decodeIfPresent(Double.self, forKey: .factor) ?? defaults.factor
        maxDelayMs = try container.decodeIfPresent(Int.self, forKey: .maxDelayMs) ?? defaults.maxDelayMs
        statuses = try container.decodeIfPresent(Set<Int>.self, forKey: .statuses) ?? defaults.statuses
        methods = try container.decodeIfPresent([String].self, forKey: .methods).map { Set($0.map { $0.uppercased() }) }
        guard count >= 0, count <= 100 else {
            throw DecodingError.dataCorruptedError(
                forKey: .count, in: container, debugDescription: "must be between 0 and 100, got \(count)")
        }
        guard delayMs >= 0, maxDelayMs >= 0, factor >= 1, factor.isFinite else {
            throw DecodingError.dataCorruptedError(
                forKey: .factor, in: container,
                debugDescription: "delays must not be negative and factor must be at least 1")
        }
    }

    func allows(method: String) -> Bool {
        (methods ?? Self.idempotentMethods).contains(method.uppercased())
    }

    /// The wait before retry number `retry` (1-based).
    func delay(beforeRetry retry: Int, retryAfter: String?) -> Duration {
        if let retryAfter, let seconds = Int(retryAfter.trimmingCharacters(in: .whitespaces)), seconds >= 0 {
            return .milliseconds(min(seconds * 1000, maxDelayMs))
        }
        let scaled = Double(delayMs) * pow(factor, Double(retry - 1))
        return .milliseconds(Int(min(scaled, Double(maxDelayMs))))
    }
}

/// A fetch with a total deadline per attempt (head and body) and retries: what DAOs use.
public struct PolicyFetcher: Sendable {
    public var fetcher: Fetcher
    public var retry: RetryPolicy?
    /// Each attempt, body included, must finish within this (nil: only the fetcher's head timeout).
    public var totalTimeout: Duration?
    public var clock: any BridgeClock

    public init(fetcher: Fetcher, retry: RetryPolicy? = nil, totalTimeout: Duration? = nil, clock: any BridgeClock) {
        self.fetcher = fetcher
        self.retry = retry
        self.totalTimeout = totalTimeout
        self.clock = clock
    }

    /// The policy of a request's arguments, or nil when they ask for none (no retry, no total timeout).
    public init?(fetcher: Fetcher, retry: RetryPolicy?, totalTimeoutMs: Int?, clock: any BridgeClock) {
        guard retry != nil || totalTimeoutMs != nil else { return nil }
        self.init(fetcher: fetcher, retry: retry, totalTimeout: totalTimeoutMs.map { .milliseconds($0) }, clock: clock)
    }

    /// Sends `request`; returns the response and how many attempts it took.
    public func fetch(_ request: FetchRequest) async throws -> (response: FetchResponse, attempts: Int) {
        let fetcher = self.fetcher
        return try await run(method: request.method, url: request.url) { try await fetcher.fetch(request) }
    }

    /// Runs `operation` (one exchange, e.g. an upload whose body is streamed anew each time) under this
    /// policy: each attempt within ``totalTimeout``, tried again per ``retry`` for `method`.
    public func run(
        method: String, url: String, _ operation: @escaping @Sendable () async throws -> FetchResponse
    ) async throws -> (response: FetchResponse, attempts: Int) {
        var attempt = 1
        while true {
            let response: FetchResponse
            do {
                response = try await attemptOnce(url: url, operation)
            } catch let error as HTTPError {
                guard let retry, attempt <= retry.count, retry.allows(method: method), Self.isRetried(error)
                else { throw error }
                try await clock.sleep(for: retry.delay(beforeRetry: attempt, retryAfter: nil))
                attempt += 1
                continue
            }
            if let retry, attempt <= retry.count, retry.statuses.contains(response.status), retry.allows(method: method)
            {
                let retryAfter = response.headers.first { $0.name.lowercased() == "retry-after" }?.value
                try await clock.sleep(for: retry.delay(beforeRetry: attempt, retryAfter: retryAfter))
                attempt += 1
                continue
            }
            return (response, attempt)
        }
    }

    static func isRetried(_ error: HTTPError) -> Bool {
        switch error {
        case .network(let kind, _, _): RetryPolicy.retriedKinds.contains(kind)
        case .timeout: true
        default: false
        }
    }

    private func attemptOnce(
        url: String, _ operation: @escaping @Sendable () async throws -> FetchResponse
    ) async throws -> FetchResponse {
        guard let totalTimeout else { return try await operation() }
        let clock = self.clock
        return try await withThrowingTaskGroup(of: FetchResponse?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await clock.sleep(for: totalTimeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            guard let response = first else {
                throw HTTPError.timeout(
                    ms: Int(AsyncHTTPClientTransport.nanoseconds(totalTimeout) / 1_000_000), url: url)
            }
            return response
        }
    }
}
