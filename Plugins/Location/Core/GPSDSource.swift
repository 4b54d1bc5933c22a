import Foundation
import JSBridgeBase
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Positions from gpsd, spoken over TCP in its JSON protocol (no libgps).
///
/// Each stream opens its own connection and sends `?WATCH={"enable":true,"json":true}`. The several TPV
/// reports gpsd may send for one fix (same `time`) are merged and delivered once the next fix starts or
/// 150 ms pass without another report. When the first connection cannot be made the stream fails with
/// ``LocationError/unavailable(_:)``; when an established connection drops (gpsd restarted), it reconnects
/// every ``reconnectInterval`` until the consumer stops.
public final class GPSDSource: LocationSource {
    public let host: String
    public let port: Int
    public let connectTimeout: Duration
    public let reconnectInterval: Duration
    private let connections = Atomic<Int>(0)
    private let connectCount = Atomic<Int>(0)
    /// The longest report line read (gpsd's own are a few KiB); a longer one is dropped unread.
    public static let maxLineBytes = 65_536

    public init(
        host: String = "127.0.0.1", port: Int = 2947, connectTimeout: Duration = .seconds(2),
        reconnectInterval: Duration = .milliseconds(250)
    ) {
        self.host = host
        self.port = port
        self.connectTimeout = connectTimeout
        self.reconnectInterval = reconnectInterval
    }

    public var description: String { LocationSourceSpec.gpsd(host: host, port: port).description }

    /// Connections open right now (each active stream holds one while connected).
    public var openConnections: Int { connections.load(ordering: .relaxed) }
    /// Connections made so far (reconnections included).
    public var totalConnections: Int { connectCount.load(ordering: .relaxed) }

    public func fixes(clock: any BridgeClock) -> AsyncThrowingStream<Fix, any Error> {
        AsyncThrowingStream { continuation in
            let stop = StopFlag()
            continuation.onTermination = { _ in stop.set() }
            let thread = Thread { [self] in
                run(stop: stop, clock: clock) {
                    continuation.yield($0)
                } finish: {
                    continuation.finish(throwing: $0)
                }
            }
            thread.name = "jsbridge-gpsd"
            thread.start()
        }
    }

    final class StopFlag: Sendable {
        private let flag = Atomic<Bool>(false)
        func set() { flag.store(true, ordering: .releasing) }
        var isSet: Bool { flag.load(ordering: .acquiring) }
    }

    private func run(stop: StopFlag, clock: any BridgeClock, yield: (Fix) -> Void, finish: ((any Error)?) -> Void) {
        var everConnected = false
        var merger = TPVMerger()
        while !stop.isSet {
            let fd: Int32
            switch Self.connect(host: host, port: port, timeout: connectTimeout, stop: stop) {
            case .success(let socket):
                fd = socket
            case .failure(let reason):
                if !everConnected {
                    finish(
                        LocationError.unavailable(
                            "Cannot connect to gpsd at \(host):\(port) (\(reason)). Is gpsd running? Start it (e.g. "
                                + "`gpsd -N -S \(port) /dev/ttyUSB0`) or choose another source with --location "
                                + "(fixed:lat,lon or nmea:<file>)."))
                    return
                }
                Self.pause(reconnectInterval, stop: stop)
                continue
            }
            everConnected = true
            connections.add(1, ordering: .relaxed)
            connectCount.add(1, ordering: .relaxed)
            let watch = Array(#"?WATCH={"enable":true,"json":true}"#.utf8) + [10]
            _ = watch.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var lines = LineSplitter(maxLength: Self.maxLineBytes)
            var chunk = [UInt8](repeating: 0, count: 16_384)
            reading: while !stop.isSet {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&pfd, 1, 50)
                if ready < 0 {
                    if errno == EINTR { continue }
                    break
                }
                if ready > 0 {
                    let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if n <= 0 {
                        if n < 0, errno == EINTR || errno == EAGAIN { continue }
                        break reading  // gpsd went away
                    }
                    lines.feed(
                        chunk[0..<n],
                        line: { line in if let fix = merger.add(line: line, receivedAt: clock.now()) { yield(fix) } },
                        tooLong: { _ in })  // not a report gpsd sends: dropped, as unparsable lines are
                }
                if let fix = merger.flushIfQuiet(now: clock.now(), quiet: 0.15) { yield(fix) }
            }
            close(fd)
            connections.add(-1, ordering: .relaxed)
            if let fix = merger.flush() { yield(fix) }
            if !stop.isSet { Self.pause(reconnectInterval, stop: stop) }
        }
        finish(nil)
    }

    private static func pause(_ duration: Duration, stop: StopFlag) {
        let end = ContinuousClock.now + duration
        while !stop.isSet, ContinuousClock.now < end { usleep(20_000) }
    }

    /// Connects with a timeout; returns the socket or a reason.
    static func connect(host: String, port: Int, timeout: Duration, stop: StopFlag) -> Result<Int32, ConnectFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(
                ConnectFailure(reason: "cannot resolve '\(host)': \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            if fd < 0 { continue }
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            var result = Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen)
            if result < 0, errno == EINPROGRESS {
                let deadline = ContinuousClock.now + timeout
                result = -1
                while !stop.isSet, ContinuousClock.now < deadline {
                    var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    let ready = poll(&pfd, 1, 50)
                    if ready > 0 {
                        var error: Int32 = 0
                        var length = socklen_t(MemoryLayout<Int32>.size)
                        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                        if error == 0 { result = 0 } else { errno = error }
                        break
                    }
                    errno = ETIMEDOUT
                }
            }
            if result == 0 {
                _ = fcntl(fd, F_SETFL, flags)
                return .success(fd)
            }
            lastError = String(cString: strerror(errno))
            close(fd)
        }
        return .failure(ConnectFailure(reason: lastError.lowercased()))
    }

    struct ConnectFailure: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }
}

/// Merges gpsd's TPV reports of one fix (same `time`) into one ``Fix``.
package struct TPVMerger {
    private var pendingTime: String?
    private var fields: [String: JSONValue] = [:]
    private var pendingSince: Date?
    private var receivedAt = Date()
    private let iso: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }()

    package init() {}

    package mutating func add(line: [UInt8], receivedAt now: Date) -> Fix? {
        guard let object = (try? JSONValue(parsing: line))?.objectValue, object["class"] == "TPV" else { return nil }
        let time = object["time"]?.stringValue
        var finished: Fix?
        if pendingTime != nil, time != pendingTime { finished = flush() }
        if pendingTime == nil {
            pendingTime = time
            pendingSince = now
            receivedAt = now
        }
        for (key, value) in object { fields[key] = value }
        pendingSince = now
        if time == nil { return finished ?? flush() }
        return finished
    }

    mutating func flushIfQuiet(now: Date, quiet: TimeInterval) -> Fix? {
        guard let since = pendingSince, now.timeIntervalSince(since) >= quiet || now < since else { return nil }
        return flush()
    }

    package mutating func flush() -> Fix? {
        defer {
            pendingTime = nil
            pendingSince = nil
            fields = [:]
        }
        guard pendingSince != nil else { return nil }
        func number(_ key: String) -> Double? { fields[key]?.doubleValue }
        let mode = fields["mode"]?.intValue ?? 0
        guard mode >= 2, let lat = number("lat"), let lon = number("lon") else { return nil }
        var altitude: Double?
        if mode >= 3 {
            altitude = number("altHAE") ?? number("altMSL").flatMap { msl in number("geoidSep").map { msl + $0 } }
        }
        var accuracy = number("eph")
        if accuracy == nil, let x = number("epx"), let y = number("epy") { accuracy = (x * x + y * y).squareRoot() }
        let timestamp = pendingTime.flatMap { iso.date(from: $0) } ?? receivedAt
        return Fix(
            coordinate: Coordinate(latitude: lat, longitude: lon), altitude: altitude, accuracy: accuracy ?? 50,
            altitudeAccuracy: altitude == nil ? nil : number("epv"), heading: number("track"), speed: number("speed"),
            timestamp: timestamp, receivedAt: receivedAt)
    }
}
