import Foundation
import JSBridgeBase

/// What a watch delivers: a position, or a timeout notice (the watch goes on, as in W3C).
public enum WatchEvent: Sendable, Hashable {
    case position(Fix)
    case timeout(milliseconds: Int)
}

/// The domain core of the Location plugin: one source, a cache of the last fix, W3C request semantics.
///
/// - `timeout`: the clock starts when the request reaches the service (after the permission check) and
///   covers connecting to the source and waiting for a fix; nil waits forever (W3C's `Infinity`).
/// - `maximumAge`: a cached fix received at most this long ago is returned at once, without touching the
///   source (and without the timeout); `.zero` always asks the source.
public final class LocationService: Sendable {
    public let source: any LocationSource
    public let clock: any BridgeClock
    private let cache = Locked<Fix?>(nil)

    public init(source: any LocationSource, clock: any BridgeClock = SystemClock()) {
        self.source = source
        self.clock = clock
    }

    /// The last fix any request or watch received.
    public var lastFix: Fix? { cache.withLock { $0 } }

    private func remember(_ fix: Fix) { cache.withLock { $0 = fix } }

    /// The cached fix if it is at most `maximumAge` old.
    public func cachedFix(maximumAge: Duration) -> Fix? {
        guard maximumAge > .zero, let fix = lastFix else { return nil }
        let age = clock.now().timeIntervalSince(fix.receivedAt)
        return age <= maximumAge.seconds ? fix : nil
    }

    /// One position: from the cache (within `maximumAge`) or the next fix of the source.
    public func currentPosition(maximumAge: Duration = .zero, timeout: Duration? = nil) async throws -> Fix {
        if let fix = cachedFix(maximumAge: maximumAge) { return fix }
        if let timeout, timeout <= .zero { throw LocationError.timeout(milliseconds: 0) }
        let source = source, clock = clock
        let fix: Fix = try await withThrowingTaskGroup(of: Fix?.self) { group in
            group.addTask {
                for try await fix in source.fixes(clock: clock) { if let fix = fix.checked() { return fix } }
                throw LocationError.unavailable("The source \(source.description) ended without a position.")
            }
            if let timeout {
                group.addTask {
                    try await clock.sleep(for: timeout)
                    throw LocationError.timeout(milliseconds: Int(timeout.seconds * 1000))
                }
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let fix = first else { throw CancellationError() }
            return fix
        }
        remember(fix)
        return fix
    }

    /// Positions as they arrive (a fresh-enough cached fix first), with a `timeout` event whenever no fix
    /// arrived for `timeout`. Ends when the source ends; stopping the consumer stops the source.
    public func watch(maximumAge: Duration = .zero, timeout: Duration? = nil) -> AsyncThrowingStream<
        WatchEvent, any Error
    > {
        let source = source, clock = clock
        let cached = cachedFix(maximumAge: maximumAge)
        return AsyncThrowingStream { continuation in
            let task = Task {
                let lastEvent = Locked(clock.now())
                if let cached { continuation.yield(.position(cached)) }
                do {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await fix in source.fixes(clock: clock) {
                                guard let fix = fix.checked() else { continue }
                                self.remember(fix)
                                lastEvent.withLock { $0 = clock.now() }
                                continuation.yield(.position(fix))
                            }
                        }
                        if let timeout, timeout > .zero {
                            group.addTask {
                                while true {
                                    let due = lastEvent.withLock { $0 }.addingTimeInterval(timeout.seconds)
                                    let wait = due.timeIntervalSince(clock.now())
                                    if wait > 0 {
                                        try await clock.sleep(for: .microseconds(Int64((wait * 1e6).rounded(.up))))
                                        continue
                                    }
                                    lastEvent.withLock { $0 = clock.now() }
                                    continuation.yield(.timeout(milliseconds: Int(timeout.seconds * 1000)))
                                }
                            }
                        }
                        try await group.next()
                        group.cancelAll()
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
