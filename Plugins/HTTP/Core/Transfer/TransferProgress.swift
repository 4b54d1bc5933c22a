/// How far a transfer is: bytes received (download) or sent (upload), and the total when known.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes transferred so far.
    public var bytes: Int64
    /// The body's length, when the server announced it (downloads) or it was computed (uploads).
    public var total: Int64?

    public init(bytes: Int64, total: Int64?) {
        self.bytes = bytes
        self.total = total
    }
}

/// A progress callback: awaited, so a slow consumer slows the transfer down instead of piling up updates;
/// throwing from it ends the transfer with that error.
public typealias TransferProgressHandler = @Sendable (TransferProgress) async throws -> Void

/// Decides which progress updates are worth reporting: at most one per `interval`, plus the first and the
/// final one (so a listener always sees the transfer complete), and never the same byte count twice.
public struct ProgressThrottle: Sendable {
    /// The shortest time between two reports (zero: report every update).
    public var interval: Duration
    private var lastReport: ContinuousClock.Instant?
    private var lastBytes: Int64 = -1

    public init(interval: Duration = .milliseconds(100)) {
        self.interval = interval
    }

    /// Whether to report `bytes` now; `isFinal` marks the last update of the transfer.
    public mutating func shouldReport(_ bytes: Int64, isFinal: Bool = false) -> Bool {
        guard bytes != lastBytes else { return false }
        let now = ContinuousClock.now
        if !isFinal, let lastReport, interval > .zero, now - lastReport < interval { return false }
        lastReport = now
        lastBytes = bytes
        return true
    }
}
