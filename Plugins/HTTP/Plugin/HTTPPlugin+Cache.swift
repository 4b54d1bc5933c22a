import Foundation
import JSBridgeCore
import Synchronization

/// The `cache` argument of `request` and `cacheLookup`.
struct CacheArguments: Decodable, Sendable {
    var mode: String
    var key: String?
    var intervalMs: Int?
    /// `[[name, value]]`: the DAO's parameters, part of the default key.
    var parameters: [[String]]?

    func options() throws(BridgeError) -> HTTPCacheOptions {
        guard let mode = HTTPCacheMode(rawValue: mode) else {
            let modes = HTTPCacheMode.allCases.map(\.rawValue).joined(separator: ", ")
            throw BridgeError.invalidArgument(
                "Unknown cache mode '\(mode)' (use \(modes)).",
                issues: [ArgumentIssue(path: "cache.mode", message: "expected one of \(modes)")])
        }
        if let intervalMs, intervalMs < 0 {
            throw BridgeError.invalidArgument(
                "cache.intervalMs must not be negative.",
                issues: [ArgumentIssue(path: "cache.intervalMs", message: "must not be negative, got \(intervalMs)")])
        }
        let pairs = try namedPairs(parameters, at: "cache.parameters")
        return HTTPCacheOptions(mode: mode, interval: intervalMs.map { .milliseconds($0) }, key: key, parameters: pairs)
    }
}

/// `--config` `"HTTP": {"cache": {...}}`: where the on-disk cache lives and how big it may get.
public struct CacheConfiguration: Codable, Sendable {
    /// Default: `<storage dir>/<app id>.http-cache`.
    public var dir: String?
    /// Default 64 MiB.
    public var sizeLimitBytes: Int?
    /// Default 7 days.
    public var maxEntryAgeSeconds: Int?
}

/// The runtime's HTTP cache (opened on first use: a script that never asks for it creates no folder) and the
/// responses waiting for their DAO's validation.
final class CacheState: Sendable {
    private struct State {
        var cache: HTTPCache?
        var pending: [Int: HTTPCachePendingEntry] = [:]
        var order: [Int] = []
        var nextToken = 1
    }

    /// Pending entries kept at most (a DAO commits or discards each; older ones are dropped past this).
    static let pendingLimit = 256
    private let state = Mutex(State())
    private let configuration: CacheConfiguration?
    private let storage: StorageLocation
    private let clock: any BridgeClock

    init(configuration: CacheConfiguration?, storage: StorageLocation, clock: any BridgeClock) {
        self.configuration = configuration
        self.storage = storage
        self.clock = clock
    }

    /// The cache; opened when `create` or already open, else nil.
    func cache(create: Bool) throws -> HTTPCache? {
        try state.withLock { state in
            if let cache = state.cache { return cache }
            guard create else { return nil }
            let store = try DiskHTTPCacheStore(
                directory: configuration?.dir ?? DiskHTTPCacheStore.defaultDirectory(for: storage),
                sizeLimit: configuration?.sizeLimitBytes ?? (64 << 20),
                maxEntryAge: .seconds(configuration?.maxEntryAgeSeconds ?? 7 * 86_400), clock: clock)
            let cache = HTTPCache(store: store, clock: clock)
            state.cache = cache
            return cache
        }
    }

    /// Keeps `entry` until ``take(_:)``; returns its token.
    func hold(_ entry: HTTPCachePendingEntry) -> Int {
        state.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            state.pending[token] = entry
            state.order.append(token)
            if state.order.count > Self.pendingLimit { state.pending[state.order.removeFirst()] = nil }
            return token
        }
    }

    func take(_ token: Int) -> HTTPCachePendingEntry? {
        state.withLock { state in
            state.order.removeAll { $0 == token }
            return state.pending.removeValue(forKey: token)
        }
    }
}

extension HTTPPlugin {
    /// `request` with a `cache` argument: through the cache, the answer marked with its `source` and, when the
    /// response may be stored, a `cacheToken` for `cacheCommit` / `cacheDiscard`.
    static func cachedRequest(
        _ request: FetchRequest, cache arguments: CacheArguments, state: CacheState,
        network: (FetchRequest) async throws -> (response: FetchResponse, attempts: Int?)
    ) async throws -> JSONValue {
        let options = try arguments.options()
        let isUnsafe = !HTTPCachePolicy.safeMethods.contains(request.method.uppercased())
        // Mode none only matters for invalidation by unsafe methods, and only when a cache is open.
        guard let cache = try state.cache(create: options.mode != .none), options.mode != .none || isUnsafe
        else {
            let (response, attempts) = try await network(request)
            return encode(response, attempts: attempts, source: .network)
        }
        var attempts: Int?
        let result = try await cache.send(request, options: options) { request in
            let answer = try await network(request)
            attempts = answer.attempts
            return answer.response
        }
        var answer = encode(result.response, attempts: attempts, source: result.source)
        if let pending = result.pending, case .object(var object) = answer {
            object["cacheToken"] = .number(Double(state.hold(pending)))
            answer = .object(object)
        }
        return answer
    }

    static func cacheActions(_ plugin: inout PluginDeclaration<Self>) {
        plugin.async("cacheLookup", args: RequestArguments.self) { context, args -> JSONValue in
            guard let arguments = args.cache else {
                throw BridgeError.invalidArgument(
                    "cacheLookup needs cache options.", issues: [ArgumentIssue(path: "cache", message: "is required")])
            }
            let request = try args.request()
            guard let cache = try context.state.cache.cache(create: true),
                let response = await cache.cachedResponse(for: request, options: try arguments.options())
            else { return .null }
            return encode(response, source: .cache)
        }
        plugin.async("cacheCommit", args: CacheTokenArguments.self) { context, args -> Bool in
            let state = context.state.cache
            guard let pending = state.take(args.token), let cache = try state.cache(create: true) else { return false }
            try await cache.commit(pending)
            return true
        }
        plugin.async("cacheDiscard", args: CacheTokenArguments.self) { context, args -> Bool in
            context.state.cache.take(args.token) != nil
        }
        plugin.async("cacheClear") { context -> JSONValue in
            try await context.state.cache.cache(create: true)?.removeAll()
            return .null
        }
    }
}

/// The arguments of `cacheCommit` / `cacheDiscard`.
struct CacheTokenArguments: Decodable, Sendable {
    var token: Int
}
