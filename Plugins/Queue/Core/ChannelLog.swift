import Foundation
import JSBridgeBase

/// A message of a broadcast channel, as stored in the log.
public struct ChannelMessage: Sendable, Hashable {
    /// The log's number: increasing in commit order, per database (and app id).
    public var seq: Int64
    public var channel: String
    /// The posting process's id.
    public var sender: String
    /// The message in its wire form (text).
    public var data: String

    public init(seq: Int64, channel: String, sender: String, data: String) {
        self.seq = seq
        self.channel = channel
        self.sender = sender
        self.data = data
    }
}

/// The stored log behind cross-process `BroadcastChannel`s: posts are appended in commit order, readers
/// read after the last number they delivered — so a reader that was away (a restart of the server, a dropped
/// connection) reads what it missed, once. Messages are kept for `retentionMs` (default ten minutes).
public protocol ChannelLog: AnyObject, Sendable {
    /// Appends a message; returns its number.
    func post(channel: String, sender: String, data: String, now: Int64) throws(QueueError) -> Int64
    /// The number of the last message (0 when none): where a new reader starts.
    func lastSeq() throws(QueueError) -> Int64
    /// The messages of `channel` after `seq` not posted by `excluding`, oldest first, at most `limit`; and
    /// the number read up to (so a reader skips its own messages without reading them again).
    func read(channel: String, after seq: Int64, excluding sender: String, limit: Int) throws(QueueError)
        -> (messages: [ChannelMessage], through: Int64)
    /// Rings `doorbell` whenever a message may have been posted by another process (PostgreSQL: its
    /// `NOTIFY`), until the returned function is called. Logs without such a signal never ring: readers poll.
    func ringOnPosts(_ doorbell: Doorbell) -> @Sendable () -> Void
}

extension ChannelLog {
    public func ringOnPosts(_ doorbell: Doorbell) -> @Sendable () -> Void { {} }
}

/// How long a broadcast message stays in the log: what a short disconnection may miss and still get.
public let channelRetentionMs: Int64 = 600_000
