import Foundation
import JSBridgeCore
import JSBridgeTesting
import LocationPlugin
import Testing

let allowLocation = Permissions(allowing: .location)

func gpsdConfig(_ port: Int) -> JSONObject {
    ["Location": ["source": .string("gpsd://127.0.0.1:\(port)"), "geonamesIndex": .string(GeonamesFixture.path)]]
}

@Suite(.timeLimit(.minutes(Sanitizer.slowdown)), .blocking) struct GPSDTests {
    @Test func oneShotFixAndMaximumAgeCache() async throws {
        try await withGPSD { gpsd, _ in
            let source = GPSDSource(port: gpsd.port)
            let tester = try await PluginTester(
                LocationPlugin(source: source), options: .testing(permissions: allowLocation))
            let first = try await tester.call("getCurrentPosition", ["timeout": 10_000])
            #expect(first["coords"]?["latitude"]?.doubleValue.map { abs($0 - 39.9042) < 1e-6 } == true)
            #expect(first["coords"]?["longitude"]?.doubleValue.map { abs($0 - 116.4074) < 1e-6 } == true)
            #expect(first["coords"]?["altitude"] == 42)  // altHAE: 50 m MSL - 8 m geoid separation
            #expect((first["coords"]?["accuracy"]?.doubleValue ?? 0) > 0)
            #expect(first["coords"]?["heading"] == 45)
            let connections = source.totalConnections
            // maximumAge: the cached fix, without asking gpsd.
            let cached = try await tester.call("getCurrentPosition", ["maximumAge": 60_000, "timeout": 0])
            #expect(cached == first)
            #expect(source.totalConnections == connections)
            // maximumAge 0: a new fix from gpsd.
            let fresh = try await tester.call("getCurrentPosition", ["maximumAge": 0, "timeout": 10_000])
            #expect(fresh["timestamp"] != first["timestamp"])
            #expect(source.totalConnections == connections + 1)
            #expect(await eventually { source.openConnections == 0 })
        }
    }

    @Test func timeoutIsCode3() async throws {
        try await withGPSD(silent: true) { gpsd, _ in
            let result = await ScriptRunner.run(
                """
                const t0 = Date.now();
                navigator.geolocation.getCurrentPosition(() => console.log("fix?"), (e) => {
                  console.log(e.code, e.code === GeolocationPositionError.TIMEOUT, e.TIMEOUT, e.bridgeCode, Date.now() - t0 >= 290);
                }, { timeout: 300 });
                """, plugins: [LocationPlugin()],
                options: .testing(configuration: gpsdConfig(gpsd.port), permissions: allowLocation),
                timeout: .seconds(20))
            #expect(result.lines == ["3 true 3 TIMEOUT true"])
            #expect(result.exitCode == 0)
        }
    }

    @Test func gpsdNotRunningIsCode2() async throws {
        let port = try freePort()
        let result = await ScriptRunner.run(
            """
            navigator.geolocation.getCurrentPosition(() => console.log("fix?"), (e) => {
              console.log(e.code, e.message.startsWith("Cannot connect to gpsd at 127.0.0.1:\(port) (connection refused)"));
            });
            Location.getCurrentPosition().catch((e) => console.log(e.code));
            """, plugins: [LocationPlugin()],
            options: .testing(configuration: gpsdConfig(port), permissions: allowLocation),
            timeout: .seconds(20))
        #expect(result.lines.sorted() == ["2 true", "POSITION_UNAVAILABLE"])
    }

    @Test func watchAndClearWatchStopTheNativeStream() async throws {
        try await withGPSD { gpsd, _ in
            let source = GPSDSource(port: gpsd.port)
            let result = await ScriptRunner.run(
                """
                let n = 0;
                const id = navigator.geolocation.watchPosition((p) => {
                  n++;
                  console.log(p instanceof GeolocationPosition, p.coords.latitude.toFixed(4), typeof p.timestamp);
                  if (n === 3) { navigator.geolocation.clearWatch(id); setTimeout(() => console.log("after", n), 500); }
                }, (e) => console.log("error", e.code, e.message), { timeout: \(10000 * Sanitizer.slowdown) });
                console.log("id", id);
                """, plugins: [LocationPlugin(source: source)], options: .testing(permissions: allowLocation),
                timeout: .seconds(30))
            #expect(
                result.lines == [
                    "id 1", "true 39.9042 number", "true 39.9042 number", "true 39.9042 number", "after 3",
                ])
            #expect(result.exitCode == 0)
            #expect(await eventually { source.openConnections == 0 })
        }
    }

    @Test func recoversAfterGPSDRestart() async throws {
        let feeder = try NMEAFeeder()
        defer { feeder.stop() }
        let first = try await runBlocking { try GPSD(feederPort: feeder.port) }
        let source = GPSDSource(port: first.port)
        let tester = try await PluginTester(
            LocationPlugin(source: source), options: .testing(permissions: allowLocation))
        var stream = try tester.stream("watch", [:]).makeAsyncIterator()
        let before = try #require(try await stream.next()?["timestamp"]?.doubleValue)
        try await runBlocking { first.stop() }
        #expect(await eventually { source.openConnections == 0 })
        let gpsd = try await runBlocking { try GPSD(port: first.port, feederPort: feeder.port) }
        defer { gpsd.stop() }
        #expect(await eventually { source.totalConnections >= 2 && source.openConnections == 1 })
        // The new gpsd's feed starts again at 12:00:00: the receiver time jumping back proves a fix came through it.
        var recovered = false
        var seen: [Double] = []
        var previous = before
        for _ in 0..<1000 {
            guard let next = try await stream.next()?["timestamp"]?.doubleValue else { break }
            seen.append(next - before)
            defer { previous = next }
            if next < previous {
                recovered = true
                break
            }
        }
        #expect(recovered, "timestamps after the first fix (ms): \(seen)")
    }
}

@Suite struct LocationPluginTests {
    func fixedOptions(_ permissions: Permissions = allowLocation) -> BridgeHost.Options {
        .testing(
            configuration: [
                "Location": ["source": "fixed:39.9042,116.4074,42", "geonamesIndex": .string(GeonamesFixture.path)]
            ],
            permissions: permissions)
    }

    /// The Location plugin's JavaScript takes its built-ins from the primordials: with `Promise.prototype.then`,
    /// `Map.prototype.get`, `Reflect.apply` and the rest replaced, `Location` and `navigator.geolocation` work.
    @Test func aScriptThatReplacesBuiltInsDoesNotBreakLocation() async {
        let result = await ScriptRunner.run(
            ScriptRunner.replacingBuiltIns + """
                const results = [];
                (async () => {
                  results[results.length] = (await Location.getCurrentPosition()).coords.latitude;
                  results[results.length] = await new Promise((resolve) => {
                    const id = navigator.geolocation.watchPosition((p) => { navigator.geolocation.clearWatch(id); resolve(p.coords.longitude); });
                  });
                  results[results.length] = (await Location.getCity({ latitude: 39.9, longitude: 116.4 })).countryCode;
                  restoreBuiltIns();
                  console.log(results.join(" | "));
                })();
                """, plugins: [LocationPlugin()], options: fixedOptions())
        #expect(result.lines == ["39.9042 | 116.4074 | CN"], "\(result.stderr)")
    }

    @Test func noPermissionIsCode1() async throws {
        let result = await ScriptRunner.run(
            """
            navigator.geolocation.getCurrentPosition(() => console.log("fix?"), (e) => console.log(e.code, e.PERMISSION_DENIED, e.message));
            Location.checkPermission().then((s) => console.log(s));
            Location.getCurrentPosition().catch((e) => console.log(e.code));
            """, plugins: [LocationPlugin()], options: fixedOptions(.none))
        #expect(
            result.lines.sorted() == [
                "1 1 Location access was not granted; run with --allow-location.", "PERMISSION_DENIED", "denied",
            ])
        let tester = try await PluginTester(LocationPlugin(), options: fixedOptions(.none))
        let error = await #expect(throws: BridgeError.self) { try await tester.call("getCity", [:]) }
        #expect(error?.code == "PERMISSION_DENIED")
        // Geocoding given coordinates and geometry need no permission.
        #expect(
            try await tester.call("getAddress", ["coords": ["latitude": 48.8566, "longitude": 2.3522]])
                == "Paris, France")
        // The status tells the source's kind, not the configured position.
        #expect(try await tester.call("status")["source"] == "fixed")
        let granted = try await PluginTester(LocationPlugin(), options: fixedOptions())
        #expect(try await granted.call("status")["source"]?.stringValue?.hasPrefix("fixed:39.9042") == true)
    }

    @Test func fixedSourceCityAddressAndLastKnown() async throws {
        _ = try GeonamesFixture.require()
        let result = await ScriptRunner.run(
            """
            (async () => {
              const p = await Location.getCurrentPosition();
              console.log(p.coords.latitude, p.coords.longitude, p.coords.altitude, p.coords.accuracy, Number.isNaN(p.coords.heading));
              console.log(JSON.stringify(await Location.lastKnown().then((k) => [k.coordinate, k.city])));
              const c = await Location.getCity(undefined, { lang: "zh" });
              console.log(c.city, c.country, c.countryCode, c.timezone, c.distanceKm.toFixed(2));
              console.log(await Location.getAddress([37.7749, -122.4194]));
              console.log(await Location.getAddress({ latitude: 0, longitude: -30 }));
              const both = await Location.getPositionAndAddress();
              console.log(both.position.coords.latitude, both.address);
              const k = await Location.lastKnown();
              console.log(k.city, k.address, k.location.coords.longitude);
              console.log(Math.round(Location.distance({ latitude: 48.8566, longitude: 2.3522 }, [51.5074, -0.1278]) / 1000));
              console.log(Math.round(Location.bearing([0, 0], [0, 1])));
              await Location.getCity({ latitude: 91, longitude: 0 }).catch((e) => console.log(e.code, e.data.issues[0].path));
            })();
            """, plugins: [LocationPlugin()], options: fixedOptions())
        #expect(
            result.lines == [
                "39.9042 116.4074 42 0 true",  // a fixed source stands still: speed 0, heading NaN
                #"[{"latitude":39.9042,"longitude":116.4074},null]"#,
                "北京市 中国 CN Asia/Shanghai 0.94",
                "San Francisco, California, United States",
                "null",
                "39.9042 Beijing, China",
                "Beijing Beijing, China 116.4074",
                "344",
                "90",
                "INVALID_ARGUMENT coords.latitude",
            ])
        #expect(result.stderr == "")
    }

    @Test func missingIndexIsAClearError() async throws {
        let tester = try await PluginTester(
            LocationPlugin(), options: .testing(configuration: ["Location": ["geonamesIndex": "/nonexistent/x.jsbgeo"]])
        )
        let error = await #expect(throws: BridgeError.self) {
            try await tester.call("getCity", ["coords": ["latitude": 1, "longitude": 2]])
        }
        #expect(error?.code == "GEOCODER_UNAVAILABLE")
        #expect(error?.message.contains("Run scripts/setup.sh") == true)
    }

    @Test func badSourceConfigurationFailsSetUp() async throws {
        await #expect(throws: BridgeError.self) {
            _ = try await PluginTester(
                LocationPlugin(), options: .testing(configuration: ["Location": ["source": "serial:x"]]))
        }
    }

    @Test func nmeaReplayThroughTheBridge() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).nmea")
        defer { try? FileManager.default.removeItem(at: file) }
        let lines =
            (0..<3).map { NMEA.sentence("GPGGA,12000\($0).00,3352.1280,S,15112.5580,E,1,08,1.0,10.0,M,20.0,M,,") } + [
                "junk*ZZ"
            ]
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let options = BridgeHost.Options.testing(
            configuration: ["Location": ["source": .string("nmea:\(file.path)"), "nmeaSpeed": 0]],
            permissions: allowLocation)
        let result = await ScriptRunner.run(
            """
            const seen = [];
            const w = Location.watch({}, (p) => seen.push(p.coords.latitude.toFixed(3)));
            w.done.then(async () => {
              const s = await Location.status();
              console.log(seen.join(","), s.nmea.skipped, s.nmea.fixes);
            });
            """, plugins: [LocationPlugin()], options: options)
        #expect(result.lines == ["-33.869,-33.869,-33.869 1 3"], "\(result.stderr)")
    }
}

/// The plugin against the test kit's manual source: no gpsd, fixes on demand.
@Suite struct ManualSourceTests {
    /// W3C: a device standing still (speed 0) has heading NaN, whether or not the receiver gave a course.
    @Test func aStationaryDeviceHasHeadingNaN() async throws {
        let source = ManualLocationSource()
        let feeder = Task {
            await source.waitForOpenStreams()
            for (speed, heading) in [(0.0, nil), (0, 30), (2, 45)] as [(Double, Double?)] {
                source.send(
                    Fix(
                        coordinate: Coordinate(latitude: 1, longitude: 2), accuracy: 5, heading: heading, speed: speed,
                        timestamp: Date()))
            }
        }
        let result = await ScriptRunner.run(
            """
            let n = 0;
            const w = Location.watch({}, (p) => {
              console.log(p.coords.speed, p.coords.heading);
              if (++n === 3) w.cancel();
            });
            """, plugins: [LocationPlugin(source: source)], options: .testing(permissions: allowLocation))
        feeder.cancel()
        #expect(result.lines == ["0 NaN", "0 NaN", "2 45"], "\(result.stderr)")
    }

    @Test func watchDeliversEachFixAndCancelClosesTheSource() async throws {
        let source = ManualLocationSource()
        let location = try await PluginTester(LocationPlugin(source: source), options: .testing(permissions: .all))
        let stream = try location.stream("watch", [:])
        var values = stream.makeAsyncIterator()
        // Fixes go only to streams already open.
        await source.waitForOpenStreams()
        source.send(Fix(coordinate: Coordinate(latitude: 48.8584, longitude: 2.2945), accuracy: 5, timestamp: Date()))
        let first = try await values.next()
        #expect(first?["coords"]?["latitude"] == 48.8584)
        stream.cancel()
        #expect(await eventually { source.openStreams == 0 })
    }
}
