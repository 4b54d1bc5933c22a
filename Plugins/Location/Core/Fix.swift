import Foundation
import JSBridgeBase

/// One position fix from a source (the domain core's type; the plugin maps it to W3C fields).
public struct Fix: Sendable, Hashable {
    public var coordinate: Coordinate
    /// Metres above the WGS 84 ellipsoid (HAE) — what W3C `altitude` means; nil when unknown (2D fix).
    public var altitude: Double?
    /// Horizontal accuracy in metres (gpsd `eph`, 95 % confidence; NMEA: HDOP × 5 m).
    public var accuracy: Double
    /// Vertical accuracy in metres (gpsd `epv`), nil when unknown.
    public var altitudeAccuracy: Double?
    /// Course over ground, degrees clockwise from true north.
    public var heading: Double?
    /// Ground speed, metres per second.
    public var speed: Double?
    /// When the fix was taken (the receiver's time when it reports one, else the clock's).
    public var timestamp: Date
    /// When this process received it (the clock's time; `maximumAge` is measured against this).
    public var receivedAt: Date

    public init(
        coordinate: Coordinate, altitude: Double? = nil, accuracy: Double, altitudeAccuracy: Double? = nil,
        heading: Double? = nil, speed: Double? = nil, timestamp: Date, receivedAt: Date? = nil
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.accuracy = accuracy
        self.altitudeAccuracy = altitudeAccuracy
        self.heading = heading
        self.speed = speed
        self.timestamp = timestamp
        self.receivedAt = receivedAt ?? timestamp
    }
}

extension Fix {
    /// The fix as a position may be delivered: nil when its coordinate is not on Earth (latitude beyond ±90°,
    /// longitude beyond ±180°, or not finite) or its accuracy is negative or not finite; a value that cannot
    /// be (a heading outside 0–360°, a negative speed or altitude accuracy, an altitude that is not finite)
    /// becomes unknown. Every source's fixes pass here (``LocationService``), whatever a receiver sent.
    public func checked() -> Fix? {
        let (latitude, longitude) = (coordinate.latitude, coordinate.longitude)
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
            accuracy.isFinite, accuracy >= 0
        else { return nil }
        var fix = self
        func valid(_ value: Double?, _ range: ClosedRange<Double>) -> Double? {
            value.flatMap { range.contains($0) ? $0 : nil }
        }
        fix.altitude = valid(altitude, -.greatestFiniteMagnitude ... .greatestFiniteMagnitude)
        fix.altitudeAccuracy = valid(altitudeAccuracy, 0 ... .greatestFiniteMagnitude)
        fix.heading = valid(heading, 0...360).map { $0 == 360 ? 0 : $0 }
        fix.speed = valid(speed, 0 ... .greatestFiniteMagnitude)
        return fix
    }
}

/// Why no position could be delivered.
public enum LocationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The source cannot deliver positions (gpsd not running, file missing, …) — W3C code 2.
    case unavailable(String)
    /// No fix arrived within the requested time — W3C code 3.
    case timeout(milliseconds: Int)

    public var description: String {
        switch self {
        case .unavailable(let message): message
        case .timeout(let ms): "No position was obtained within the timeout of \(ms) ms."
        }
    }
}

/// A producer of fixes: gpsd, a fixed point, an NMEA replay.
///
/// Each call of ``fixes()`` starts an independent stream (for gpsd: its own connection); terminating the
/// stream (cancelling its consumer) stops the producer.
public protocol LocationSource: Sendable {
    /// A description such as `gpsd://127.0.0.1:2947`.
    var description: String { get }
    /// Fixes as they arrive; throws ``LocationError/unavailable(_:)`` when the source cannot deliver any.
    func fixes(clock: any BridgeClock) -> AsyncThrowingStream<Fix, any Error>
}

/// The parsed form of `--location` / `{"Location": {"source": …}}`.
public enum LocationSourceSpec: Sendable, Hashable, CustomStringConvertible {
    case gpsd(host: String, port: Int)
    case fixed(Coordinate, altitude: Double?)
    case nmea(path: String)

    /// gpsd on its standard port.
    public static let `default` = LocationSourceSpec.gpsd(host: "127.0.0.1", port: 2947)

    /// Parses a source; the error's message says what was expected (it is shown for `--location` and for
    /// `{"Location": {"source": …}}` alike).
    public init(parsing text: String) throws(LocationError) {
        if text.hasPrefix("gpsd://") {
            let bad = LocationError.unavailable("expected gpsd://host[:port] (IPv6 as [::1]), got '\(text)'")
            var rest = Substring(text.dropFirst("gpsd://".count))
            if rest.hasSuffix("/") { rest = rest.dropLast() }
            var host = rest, port = 2947
            if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                host = rest[rest.index(after: rest.startIndex)..<close]
                let after = rest[rest.index(after: close)...]
                if after.hasPrefix(":") {
                    guard let p = Int(after.dropFirst()), (1...65535).contains(p) else { throw bad }
                    port = p
                } else if !after.isEmpty {
                    throw bad
                }
            } else if let colon = rest.lastIndex(of: ":") {
                // A bare IPv6 address (`::1`) would read as host `:`: it must be written `[::1]`.
                guard rest.firstIndex(of: ":") == colon, let p = Int(rest[rest.index(after: colon)...]),
                    (1...65535).contains(p)
                else { throw bad }
                port = p
                host = rest[..<colon]
            }
            guard !host.isEmpty, !host.contains("/") else { throw bad }
            self = .gpsd(host: String(host), port: port)
        } else if text.hasPrefix("fixed:") {
            let numbers = text.dropFirst("fixed:".count).split(separator: ",", omittingEmptySubsequences: false).map {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            guard (2...3).contains(numbers.count), numbers.allSatisfy({ $0?.isFinite == true }),
                let lat = numbers[0], let lon = numbers[1], abs(lat) <= 90, abs(lon) <= 180
            else {
                throw .unavailable(
                    "expected fixed:lat,lon[,alt] with latitude -90…90 and longitude -180…180, got '\(text)'")
            }
            self = .fixed(Coordinate(latitude: lat, longitude: lon), altitude: numbers.count == 3 ? numbers[2] : nil)
        } else if text.hasPrefix("nmea:") {
            guard text.count > 5 else { throw .unavailable("expected nmea:<file>, got '\(text)'") }
            self = .nmea(path: String(text.dropFirst(5)))
        } else {
            throw .unavailable(
                "unknown source '\(text)'; use gpsd://host[:port], fixed:lat,lon[,alt] or nmea:<file>")
        }
    }

    public var description: String {
        switch self {
        case .gpsd(let host, let port): "gpsd://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .fixed(let c, let alt): "fixed:\(c.latitude),\(c.longitude)" + (alt.map { ",\($0)" } ?? "")
        case .nmea(let path): "nmea:\(path)"
        }
    }
}

/// A fixed position: one fix per request, then nothing until the consumer stops.
public struct FixedSource: LocationSource {
    public let coordinate: Coordinate
    public let altitude: Double?
    public let accuracy: Double

    public init(_ coordinate: Coordinate, altitude: Double? = nil, accuracy: Double = 0) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.accuracy = accuracy
    }

    public var description: String { LocationSourceSpec.fixed(coordinate, altitude: altitude).description }

    public func fixes(clock: any BridgeClock) -> AsyncThrowingStream<Fix, any Error> {
        let fix = Fix(
            coordinate: coordinate, altitude: altitude, accuracy: accuracy, altitudeAccuracy: altitude == nil ? nil : 0,
            heading: nil, speed: 0, timestamp: clock.now())
        return AsyncThrowingStream { continuation in
            continuation.yield(fix)
            // Stays open (a watch keeps its one position) until the consumer cancels.
        }
    }
}
