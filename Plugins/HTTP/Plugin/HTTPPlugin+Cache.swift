import Foundation
import JSBridgeCore

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
    private let cacheState = Locked<HTTPCache?>(nil)
    /// Responses waiting for their DAO to commit or discard them, by token; past 256, the oldest are dropped
    /// (a DAO that never answers does not keep them).
    private let pending = HandleTable<HTTPCachePendingEntry>(limit: 256)
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
        try cacheState.withLock { cached in
            if let cache = cached { return cache }
            guard create else { return nil }
            let store = try DiskHTTPCacheStore(
                directory: configuration?.dir ?? DiskHTTPCacheStore.defaultDirectory(for: storage),
                sizeLimit: configuration?.sizeLimitBytes ?? (64 << 20),
                maxEntryAge: .seconds(configuration?.maxEntryAgeSeconds ?? 7 * 86_400), clock: clock)
            let cache = HTTPCache(store: store, clock: clock)
            cached = cache
            return cache
        }
    }

    /// Keeps `entry` until ``take(_:)``; returns its token.
    func hold(_ entry: HTTPCachePendingEntry) -> Int { pending.insert(entry) }

    func take(_ token: Int) -> HTTPCachePendingEntry? { pending.remove(token) }
}

extension HTTPPlugin {
    static func cacheActions(_ plugin: inout PluginDeclaration<Self>) {
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
