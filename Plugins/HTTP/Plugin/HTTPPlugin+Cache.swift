import Foundation
import HTTPPostgres
import JSBridgeCore
import StoragePostgres

/// `--config` `"HTTP": {"cache": {...}}`: where the cache lives and how big it may get.
public struct CacheConfiguration: Codable, Sendable {
    /// Default: `<storage dir>/<app id>.http-cache`.
    public var dir: String?
    /// Default 64 MiB.
    public var sizeLimitBytes: Int?
    /// Default 7 days.
    public var maxEntryAgeSeconds: Int?
    /// `postgres://…`: keep the cache in PostgreSQL, shared by every host using the database (set by
    /// `--storage-url` with Storage's and Queue's; else `JSBRIDGE_STORAGE_URL`).
    public var url: String?
    /// How long a call waits for an unreachable PostgreSQL server (default 10000).
    public var unavailableWaitMs: Int?

    public init(dir: String? = nil, sizeLimitBytes: Int? = nil, maxEntryAgeSeconds: Int? = nil, url: String? = nil) {
        self.dir = dir
        self.sizeLimitBytes = sizeLimitBytes
        self.maxEntryAgeSeconds = maxEntryAgeSeconds
        self.url = url
    }

    /// The storage URL of the cache: the configuration's, else `JSBRIDGE_STORAGE_URL`'s.
    var storageURL: String? {
        url ?? ProcessInfo.processInfo.environment["JSBRIDGE_STORAGE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }
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
            let sizeLimit = configuration?.sizeLimitBytes ?? (64 << 20)
            let maxEntryAge = Duration.seconds(configuration?.maxEntryAgeSeconds ?? 7 * 86_400)
            let store: any HTTPCacheStore
            if let url = configuration?.storageURL {
                // Shared by every host on the database: a response one host fetched serves the others.
                store = try PostgresHTTPCacheStore(
                    url: try PostgresURL(url), appID: storage.appID, sizeLimit: sizeLimit, maxEntryAge: maxEntryAge,
                    unavailableWait: .milliseconds(configuration?.unavailableWaitMs ?? 10_000), clock: clock)
            } else {
                store = try DiskHTTPCacheStore(
                    directory: configuration?.dir ?? DiskHTTPCacheStore.defaultDirectory(for: storage),
                    sizeLimit: sizeLimit, maxEntryAge: maxEntryAge, clock: clock)
            }
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
            let state = context.state.cache
            guard let pending = state.take(args.token) else { return false }
            // Requests of other processes waiting for this entry go to the network now.
            await (try? state.cache(create: false))?.discard(pending)
            return true
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
