import Foundation
import JSBridgeCore
import Synchronization

/// The `Location` plugin: positions from gpsd, a fixed point or an NMEA replay, and offline reverse
/// geocoding. A thin adapter over ``LocationService`` and ``ReverseGeocoder`` (see docs/location.md).
///
/// | action | kind | arguments | result |
/// |---|---|---|---|
/// | `checkPermission` | sync | none | `"granted"` or `"denied"` |
/// | `getCurrentPosition` | async | `{enableHighAccuracy?, timeout?, maximumAge?}` (ms; `timeout` null = none) | W3C position `{coords, timestamp}` |
/// | `watch` | stream | same | positions, and `{error: {code: "TIMEOUT", message}}` items when a `timeout` passes without a fix |
/// | `lastKnown` | sync | none | `{location, coordinate, city, address}` (IPH's cached results; nulls when none) |
/// | `getCity` | async | `{coords?, lang?, maxDistanceKm?, timeout?, maximumAge?}` | `{city, state, country, countryCode, timezone, population, distanceKm, …}` or null |
/// | `getAddress` | async | same | `"city, state, country"` or null |
/// | `getPositionAndAddress` | async | same | `{position, city, address}` |
/// | `distance` | sync | `{a, b}` coordinates | metres (haversine) |
/// | `bearing` | sync | `{a, b}` | initial bearing, degrees from true north |
/// | `status` | sync | none | `{source, geonamesIndex, indexLoaded, nmea?}` |
///
/// Everything that reads the device's position requires `--allow-location` (`PERMISSION_DENIED`);
/// geocoding given coordinates and the geometry actions do not.
public struct LocationPlugin: BridgePlugin {
    public static let name = "Location"

    let state: State

    /// A plugin whose source and index come from the configuration (`source`, `geonamesIndex`).
    public init() { state = State(source: nil, geocoder: nil) }

    /// A plugin with an injected source and/or geocoder (tests, embedders); nil falls back to the configuration.
    public init(source: (any LocationSource)? = nil, geocoder: ReverseGeocoder? = nil) {
        state = State(source: source, geocoder: geocoder)
    }

    /// The plugin's configuration section: `{"Location": {…}}`.
    public struct Configuration: Decodable, Sendable {
        /// `gpsd://host:port` (default `gpsd://127.0.0.1:2947`), `fixed:lat,lon[,alt]` or `nmea:<file>`.
        public var source: String?
        /// The index built by scripts/build-geonames-index.py (default: under `$XDG_DATA_HOME/jsbridge/geonames`).
        public var geonamesIndex: String?
        /// NMEA replay pace: 1 = as recorded (default), 10 = ten times faster, 0 = no waiting.
        public var nmeaSpeed: Double?
        /// The default maximum distance from a city's centre for `getCity` (km, default 50).
        public var maxDistanceKm: Double?
        /// Horizontal accuracy reported for a `fixed:` source (metres, default 0).
        public var fixedAccuracy: Double?
    }

    final class State: Sendable {
        let injectedSource: (any LocationSource)?
        let injectedGeocoder: ReverseGeocoder?
        let service = Mutex<LocationService?>(nil)
        let geocoder = Mutex<ReverseGeocoder?>(nil)
        let maxDistanceKm = Mutex(ReverseGeocoder.defaultMaxDistanceKm)
        let last = Mutex<(place: Place?, address: String?)>((nil, nil))

        init(source: (any LocationSource)?, geocoder: ReverseGeocoder?) {
            injectedSource = source
            injectedGeocoder = geocoder
        }
    }

    public func setUp(_ context: PluginContext) async throws {
        let configuration = try context.configuration(as: Configuration.self)
        let source: any LocationSource
        if let injected = state.injectedSource {
            source = injected
        } else {
            let spec: LocationSourceSpec
            do {
                spec =
                    try configuration.source.map { text throws(LocationError) in try LocationSourceSpec(parsing: text) }
                    ?? .default
            } catch {
                throw BridgeError.invalidArgument(
                    "The configuration of plugin 'Location' is invalid.",
                    issues: [ArgumentIssue(path: "source", message: error.description)])
            }
            if let speed = configuration.nmeaSpeed, !(speed >= 0 && speed.isFinite) {
                throw BridgeError.invalidArgument(
                    "The configuration of plugin 'Location' is invalid.",
                    issues: [ArgumentIssue(path: "nmeaSpeed", message: "must be a non-negative number")])
            }
            switch spec {
            case .gpsd(let host, let port): source = GPSDSource(host: host, port: port)
            case .fixed(let coordinate, let altitude):
                source = FixedSource(coordinate, altitude: altitude, accuracy: configuration.fixedAccuracy ?? 0)
            case .nmea(let path): source = NMEAReplaySource(path: path, speed: configuration.nmeaSpeed ?? 1)
            }
        }
        if let max = configuration.maxDistanceKm {
            guard max > 0 else {
                throw BridgeError.invalidArgument(
                    "The configuration of plugin 'Location' is invalid.",
                    issues: [ArgumentIssue(path: "maxDistanceKm", message: "must be positive")])
            }
            state.maxDistanceKm.withLock { $0 = max }
        }
        let service = LocationService(source: source, clock: context.clock)
        let geocoder = state.injectedGeocoder ?? ReverseGeocoder(indexPath: configuration.geonamesIndex)
        state.service.withLock { $0 = service }
        state.geocoder.withLock { $0 = geocoder }
    }

    public func actions(_ a: inout ActionTable) {
        let state = self.state

        a.sync("checkPermission") { context in
            context.permissions.allows(.location) ? "granted" : "denied"
        }
        a.async("getCurrentPosition", args: PositionOptions.self) { context, options in
            try context.require(.location)
            return Self.encode(try await state.position(options))
        }
        a.stream("watch", args: PositionOptions.self, of: JSONValue.self) { context, options, out in
            try context.require(.location)
            let stream = try state.requireService().watch(
                maximumAge: options.maximumAgeDuration, timeout: options.timeoutDuration)
            do {
                for try await event in stream {
                    switch event {
                    case .position(let fix): try await out.yield(Self.encode(fix))
                    case .timeout(let ms):
                        let error = LocationError.timeout(milliseconds: ms).bridgeError
                        try await out.yield(["error": ["code": .string(error.code), "message": .string(error.message)]])
                    }
                }
            } catch let error as LocationError {
                throw error.bridgeError
            }
        }
        a.sync("lastKnown") { context in
            try context.require(.location)
            let fix = state.service.withLock { $0 }?.lastFix
            let (place, address) = state.last.withLock { $0 }
            return JSONValue.object([
                "location": fix.map(Self.encode) ?? .null,
                "coordinate": fix.map {
                    ["latitude": .number($0.coordinate.latitude), "longitude": .number($0.coordinate.longitude)]
                } ?? .null,
                "city": place.map { .string($0.city) } ?? .null,
                "address": address.map(JSONValue.string) ?? .null,
            ])
        }
        a.async("getCity", args: PlaceArguments.self) { context, args in
            let (_, place) = try await state.place(context, args)
            return place.map { (try? encodeResult($0)) ?? .null } ?? JSONValue.null
        }
        a.async("getAddress", args: PlaceArguments.self) { context, args in
            let (_, place) = try await state.place(context, args)
            return place.map { JSONValue.string($0.formattedAddress) } ?? .null
        }
        a.async("getPositionAndAddress", args: PlaceArguments.self) { context, args in
            var args = args
            args.coords = nil
            let (fix, place) = try await state.place(context, args)
            return JSONValue.object([
                "position": fix.map(Self.encode) ?? .null,
                "city": place.map { (try? encodeResult($0)) ?? .null } ?? .null,
                "address": place.map { .string($0.formattedAddress) } ?? .null,
            ])
        }
        a.sync("distance", args: PairArguments.self) { _, args in
            Geo.distanceKm(args.a.coordinate, args.b.coordinate) * 1000
        }
        a.sync("bearing", args: PairArguments.self) { _, args in
            Geo.bearingDegrees(args.a.coordinate, args.b.coordinate)
        }
        a.sync("status") { context in
            let service = state.service.withLock { $0 }
            let geocoder = state.geocoder.withLock { $0 }
            var result: JSONObject = [
                "source": service.map { .string($0.source.description) } ?? .null,
                "permission": .string(context.permissions.allows(.location) ? "granted" : "denied"),
                "geonamesIndex": geocoder.map { .string($0.indexPath) } ?? .null,
                "indexLoaded": .bool(geocoder?.isLoaded ?? false),
            ]
            if let nmea = service?.source as? NMEAReplaySource {
                result["nmea"] = [
                    "sentences": .number(Double(nmea.statistics.sentences)),
                    "skipped": .number(Double(nmea.statistics.skipped)),
                    "fixes": .number(Double(nmea.statistics.fixes)),
                    "lastProblem": nmea.statistics.lastProblem.map(JSONValue.string) ?? .null,
                ]
            }
            return JSONValue.object(result)
        }
    }

    /// A fix as W3C `GeolocationPosition` JSON: `{coords: {…}, timestamp}` (unknown values are null).
    static func encode(_ fix: Fix) -> JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map { $0.isFinite ? .number($0) : .null } ?? .null }
        return [
            "coords": [
                "latitude": .number(fix.coordinate.latitude),
                "longitude": .number(fix.coordinate.longitude),
                "altitude": number(fix.altitude),
                "accuracy": .number(fix.accuracy),
                "altitudeAccuracy": number(fix.altitudeAccuracy),
                "heading": number(fix.heading),
                "speed": number(fix.speed),
            ],
            "timestamp": .number((fix.timestamp.timeIntervalSince1970 * 1000).rounded()),
        ]
    }
}

// MARK: - State helpers

extension LocationPlugin.State {
    func requireService() throws -> LocationService {
        guard let service = service.withLock({ $0 }) else {
            throw BridgeError(code: "POSITION_UNAVAILABLE", message: "The Location plugin was not set up.")
        }
        return service
    }

    func position(_ options: PositionOptions) async throws -> Fix {
        do {
            return try await requireService().currentPosition(
                maximumAge: options.maximumAgeDuration, timeout: options.timeoutDuration)
        } catch let error as LocationError {
            throw error.bridgeError
        }
    }

    /// The place at the given coordinates, or at the current position (which needs the permission).
    func place(_ context: PluginContext, _ args: PlaceArguments) async throws -> (Fix?, Place?) {
        var fix: Fix?
        let point: Coordinate
        if let coords = args.coords {
            point = coords.coordinate
        } else {
            try context.require(.location)
            var options = args.positionOptions
            if options.maximumAge == nil { options.maximumAge = 60_000 }
            let current = try await position(options)
            fix = current
            point = current.coordinate
        }
        guard let geocoder = geocoder.withLock({ $0 }) else {
            throw BridgeError(code: "GEOCODER_UNAVAILABLE", message: "The Location plugin was not set up.")
        }
        let limit = args.maxDistanceKm ?? maxDistanceKm.withLock { $0 }
        let place: Place?
        do {
            place = try geocoder.city(at: point, lang: args.lang, maxDistanceKm: limit)
        } catch {
            throw error.bridgeError
        }
        if args.coords == nil || fix != nil {
            last.withLock { $0 = (place, place?.formattedAddress) }
        }
        return (fix, place)
    }
}

// MARK: - Arguments

/// W3C `PositionOptions` (milliseconds; `timeout` absent or null = no timeout; `maximumAge` default 0).
public struct PositionOptions: Decodable, Sendable {
    /// Accepted for compatibility; every source has a single accuracy.
    public var enableHighAccuracy: Bool?
    public var timeout: Double?
    public var maximumAge: Double?

    public init(enableHighAccuracy: Bool? = nil, timeout: Double? = nil, maximumAge: Double? = nil) {
        self.enableHighAccuracy = enableHighAccuracy
        self.timeout = timeout
        self.maximumAge = maximumAge
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        enableHighAccuracy = try c.decodeIfPresent(Bool.self, forKey: .enableHighAccuracy)
        timeout = try c.decodeIfPresent(Double.self, forKey: .timeout)
        maximumAge = try c.decodeIfPresent(Double.self, forKey: .maximumAge)
        for (key, value) in [(CodingKeys.timeout, timeout), (.maximumAge, maximumAge)] {
            if let value, !(value >= 0) {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "must be a non-negative number of milliseconds")
            }
        }
    }

    var timeoutDuration: Duration? { timeout.map { .milliseconds(Int64(min($0, 1e12))) } }
    var maximumAgeDuration: Duration { .milliseconds(Int64(min(maximumAge ?? 0, 1e12))) }

    private enum CodingKeys: String, CodingKey { case enableHighAccuracy, timeout, maximumAge }
}

/// `{latitude, longitude}` (a W3C position's `coords` is accepted too).
public struct CoordinateArgument: Decodable, Sendable {
    public var coordinate: Coordinate

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if c.contains(.coords) {
            coordinate = try c.decode(CoordinateArgument.self, forKey: .coords).coordinate
            return
        }
        let latitude = try c.decode(Double.self, forKey: .latitude)
        let longitude = try c.decode(Double.self, forKey: .longitude)
        guard abs(latitude) <= 90 else {
            throw DecodingError.dataCorruptedError(
                forKey: .latitude, in: c, debugDescription: "must be between -90 and 90")
        }
        guard abs(longitude) <= 180 else {
            throw DecodingError.dataCorruptedError(
                forKey: .longitude, in: c, debugDescription: "must be between -180 and 180")
        }
        coordinate = Coordinate(latitude: latitude, longitude: longitude)
    }

    private enum CodingKeys: String, CodingKey { case latitude, longitude, coords }
}

/// Arguments of `getCity`, `getAddress`, `getPositionAndAddress`.
public struct PlaceArguments: Decodable, Sendable {
    /// Where to look; absent = the current position (needs `--allow-location`).
    public var coords: CoordinateArgument?
    /// A language tag: `zh`, `ja`, `ko`, `ru`, `ar`, `he`, `el`, `th`, `hi`, `ka`, `hy` have localized names.
    public var lang: String?
    public var maxDistanceKm: Double?
    public var timeout: Double?
    public var maximumAge: Double?

    var positionOptions: PositionOptions { PositionOptions(timeout: timeout, maximumAge: maximumAge) }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        coords = try c.decodeIfPresent(CoordinateArgument.self, forKey: .coords)
        lang = try c.decodeIfPresent(String.self, forKey: .lang)
        maxDistanceKm = try c.decodeIfPresent(Double.self, forKey: .maxDistanceKm)
        timeout = try c.decodeIfPresent(Double.self, forKey: .timeout)
        maximumAge = try c.decodeIfPresent(Double.self, forKey: .maximumAge)
        if let max = maxDistanceKm, !(max > 0) {
            throw DecodingError.dataCorruptedError(forKey: .maxDistanceKm, in: c, debugDescription: "must be positive")
        }
        for (key, value) in [(CodingKeys.timeout, timeout), (.maximumAge, maximumAge)] {
            if let value, !(value >= 0) {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c, debugDescription: "must be a non-negative number of milliseconds")
            }
        }
    }

    private enum CodingKeys: String, CodingKey { case coords, lang, maxDistanceKm, timeout, maximumAge }
}

/// `{a, b}`: two coordinates.
public struct PairArguments: Decodable, Sendable {
    public var a: CoordinateArgument
    public var b: CoordinateArgument
}

// MARK: - Errors and clock

extension LocationError: BridgeErrorConvertible {
    /// `POSITION_UNAVAILABLE` (W3C 2) or `TIMEOUT` (W3C 3).
    public var bridgeError: BridgeError {
        switch self {
        case .unavailable(let message):
            BridgeError(code: "POSITION_UNAVAILABLE", message: message)
        case .timeout(let ms):
            BridgeError(code: BridgeError.Code.timeout, message: description, data: ["timeout": .number(Double(ms))])
        }
    }
}

extension GeonamesIndexError: BridgeErrorConvertible {
    /// `GEOCODER_UNAVAILABLE`, naming the path and the fix (run scripts/setup.sh).
    public var bridgeError: BridgeError {
        switch self {
        case .missing(let path), .corrupt(let path, _):
            BridgeError(code: "GEOCODER_UNAVAILABLE", message: description, data: ["path": .string(path)])
        }
    }
}
