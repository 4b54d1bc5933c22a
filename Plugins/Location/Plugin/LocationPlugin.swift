import Foundation
import JSBridgeCore
@_exported import LocationCore

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
/// It also answers Cordova's `Geolocation` exec service (`getLocation`, `addWatch`, `clearWatch`: see
/// CordovaGeolocation.swift).
///
/// Everything that reads the device's position requires `--allow-location` (`PERMISSION_DENIED`);
/// geocoding given coordinates and the geometry actions do not.
public struct LocationPlugin: BridgePlugin {
    public static let name = "Location"

    private let injectedSource: (any LocationSource)?
    private let injectedGeocoder: ReverseGeocoder?

    /// A plugin whose source and index come from the configuration (`source`, `geonamesIndex`).
    public init() { self.init(source: nil, geocoder: nil) }

    /// A plugin with an injected source and/or geocoder (tests, embedders); nil falls back to the configuration.
    public init(source: (any LocationSource)? = nil, geocoder: ReverseGeocoder? = nil) {
        injectedSource = source
        injectedGeocoder = geocoder
    }

    /// The plugin's configuration section: `{"Location": {…}}` (`source` is also `--location`).
    public struct Configuration: PluginConfiguration {
        /// `gpsd://host[:port]` (default `gpsd://127.0.0.1:2947`), `fixed:lat,lon[,alt]` or `nmea:<file>`.
        public var source: String?
        /// The index built by scripts/build-geonames-index.py (default: under `$XDG_DATA_HOME/jsbridge/geonames`).
        public var geonamesIndex: String?
        /// NMEA replay pace: 1 = as recorded (default), 10 = ten times faster, 0 = no waiting.
        public var nmeaSpeed: Double?
        /// The default maximum distance from a city's centre for `getCity` (km, default 50).
        public var maxDistanceKm: Double?
        /// Horizontal accuracy reported for a `fixed:` source (metres, default 0).
        public var fixedAccuracy: Double?

        /// The parsed source (gpsd on its standard port when none is given).
        public func sourceSpec() throws(LocationError) -> LocationSourceSpec {
            try source.map { text throws(LocationError) in try LocationSourceSpec(parsing: text) } ?? .default
        }

        public func validate() -> [ArgumentIssue] {
            var issues: [ArgumentIssue] = []
            do {
                _ = try sourceSpec()
            } catch {
                issues.append(ArgumentIssue(path: "source", message: error.description))
            }
            if let speed = nmeaSpeed, !(speed >= 0 && speed.isFinite) {
                issues.append(ArgumentIssue(path: "nmeaSpeed", message: "must be a non-negative number"))
            }
            if let max = maxDistanceKm, !(max > 0) {
                issues.append(ArgumentIssue(path: "maxDistanceKm", message: "must be positive"))
            }
            return issues
        }
    }

    /// What set-up makes: the position service, the geocoder and the last place found (IPH's cache).
    public struct State: Sendable {
        let service: LocationService
        let geocoder: ReverseGeocoder
        let maxDistanceKm: Double
        let last: LastKnownPlace
        /// The watches of Cordova's `Geolocation` service (CordovaGeolocation.swift).
        let cordovaWatches = CordovaWatches()
    }

    public func setUp(_ context: SetUpContext<Self>) async throws -> State {
        let configuration = context.configuration
        let source: any LocationSource
        if let injectedSource {
            source = injectedSource
        } else {
            switch try configuration.sourceSpec() {
            case .gpsd(let host, let port): source = GPSDSource(host: host, port: port)
            case .fixed(let coordinate, let altitude):
                source = FixedSource(coordinate, altitude: altitude, accuracy: configuration.fixedAccuracy ?? 0)
            case .nmea(let path): source = NMEAReplaySource(path: path, speed: configuration.nmeaSpeed ?? 1)
            }
        }
        return State(
            service: LocationService(source: source, clock: context.clock),
            geocoder: injectedGeocoder ?? ReverseGeocoder(indexPath: configuration.geonamesIndex),
            maxDistanceKm: configuration.maxDistanceKm ?? ReverseGeocoder.defaultMaxDistanceKm,
            last: LastKnownPlace())
    }

    public static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.option(
            "location", value: "source", setting: "source",
            help: "Location source: gpsd://host[:port], fixed:lat,lon[,alt] or nmea:<file>.")
        plugin.capability(.location)
        plugin.typeScript(utf8: PackageResources.location_d_ts)
        plugin.script(
            .global(
                "location.js", source: PackageResources.location_js,
                defines: [
                    "Location", "navigator", "Navigator", "Geolocation", "GeolocationPositionError",
                    "GeolocationPosition",
                    "GeolocationCoordinates",
                ]))

        plugin.sync("checkPermission") { context in
            context.permissions.allows(.location) ? "granted" : "denied"
        }
        plugin.async("getCurrentPosition", args: PositionOptions.self, requires: .location) { context, options in
            Self.encode(try await context.state.position(options))
        }
        plugin.stream("watch", args: PositionOptions.self, of: JSONValue.self, requires: .location) {
            context, options, out in
            let stream = context.state.service.watch(
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
        plugin.sync("lastKnown", requires: .location) { context in
            let fix = context.state.service.lastFix
            let (place, address) = context.state.last.value
            return JSONValue.object([
                "location": fix.map(Self.encode) ?? .null,
                "coordinate": fix.map {
                    ["latitude": .number($0.coordinate.latitude), "longitude": .number($0.coordinate.longitude)]
                } ?? .null,
                "city": place.map { .string($0.city) } ?? .null,
                "address": address.map(JSONValue.string) ?? .null,
            ])
        }
        plugin.async("getCity", args: PlaceArguments.self) { context, args in
            let (_, place) = try await context.state.place(context, args)
            return place.map { (try? encodeResult($0)) ?? .null } ?? JSONValue.null
        }
        plugin.async("getAddress", args: PlaceArguments.self) { context, args in
            let (_, place) = try await context.state.place(context, args)
            return place.map { JSONValue.string($0.formattedAddress) } ?? .null
        }
        plugin.async("getPositionAndAddress", args: PlaceArguments.self) { context, args in
            var args = args
            args.coords = nil
            let (fix, place) = try await context.state.place(context, args)
            return JSONValue.object([
                "position": fix.map(Self.encode) ?? .null,
                "city": place.map { (try? encodeResult($0)) ?? .null } ?? .null,
                "address": place.map { .string($0.formattedAddress) } ?? .null,
            ])
        }
        plugin.sync("distance", args: PairArguments.self) { _, args in
            Geo.distanceKm(args.a.coordinate, args.b.coordinate) * 1000
        }
        plugin.sync("bearing", args: PairArguments.self) { _, args in
            Geo.bearingDegrees(args.a.coordinate, args.b.coordinate)
        }
        plugin.sync("status") { context in
            let (service, geocoder) = (context.state.service, context.state.geocoder)
            let granted = context.permissions.allows(.location)
            // A fixed source's description is a position: without the capability only its kind is told.
            let source = service.source.description
            var result: JSONObject = [
                "source": .string(granted ? source : String(source.prefix { $0 != ":" })),
                "permission": .string(granted ? "granted" : "denied"),
                "geonamesIndex": .string(geocoder.indexPath),
                "indexLoaded": .bool(geocoder.isLoaded),
            ]
            if let nmea = service.source as? NMEAReplaySource {
                result["nmea"] = [
                    "sentences": .number(Double(nmea.statistics.sentences)),
                    "skipped": .number(Double(nmea.statistics.skipped)),
                    "fixes": .number(Double(nmea.statistics.fixes)),
                    "lastProblem": nmea.statistics.lastProblem.map(JSONValue.string) ?? .null,
                ]
            }
            return JSONValue.object(result)
        }
        declareCordovaActions(&plugin)
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

extension Capability {
    /// Access to the device's position (`--allow-location`).
    public static let location = Capability("location", guards: "location access")
}

// MARK: - State helpers

extension LocationPlugin.State {
    func position(_ options: PositionOptions) async throws -> Fix {
        do {
            return try await service.currentPosition(
                maximumAge: options.maximumAgeDuration, timeout: options.timeoutDuration)
        } catch let error as LocationError {
            throw error.bridgeError
        }
    }

    /// The place at the given coordinates, or at the current position (which needs the permission).
    func place(_ context: PluginContext<LocationPlugin>, _ args: PlaceArguments) async throws -> (Fix?, Place?) {
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
        let place: Place?
        do {
            place = try geocoder.city(at: point, lang: args.lang, maxDistanceKm: args.maxDistanceKm ?? maxDistanceKm)
        } catch {
            throw error.bridgeError
        }
        if args.coords == nil || fix != nil {
            last.value = (place, place?.formattedAddress)
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
