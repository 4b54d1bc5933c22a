import Foundation
import JSBridgeTesting
import SensorsPlugin
import Testing

/// Options whose Sensors root is a folder of real files shaped as `/sys/class/thermal` (one zone per value,
/// in millidegrees), with `--allow-sensors` granted.
func thermalZones(_ millidegrees: [String], clock: any BridgeClock = SystemClock()) throws -> BridgeHost.Options {
    let root = TemporaryDirectory.make(prefix: "sensors")
    for (zone, value) in millidegrees.enumerated() {
        try FileManager.default.createDirectory(
            atPath: "\(root)/thermal_zone\(zone)", withIntermediateDirectories: true)
        try value.write(toFile: "\(root)/thermal_zone\(zone)/temp", atomically: true, encoding: .utf8)
    }
    return .testing(
        configuration: ["Sensors": ["root": .string(root), "hotCelsius": 70]],
        permissions: Permissions(allowing: .sensors),
        clock: clock)
}

@Suite struct SensorsActionTests {
    @Test func zonesCountsTheThermalZones() async throws {
        let sensors = try await PluginTester(SensorsPlugin(), options: thermalZones(["41000", "52500"]))
        #expect(try sensors.callSync("zones") == 2)
    }

    @Test func readGivesDegreesAndEmitsHotAboveTheThreshold() async throws {
        let sensors = try await PluginTester(SensorsPlugin(), options: thermalZones(["41000", "75500"]))
        #expect(try await sensors.call("read", ["zone": 0]) == ["zone": 0, "celsius": 41])
        #expect(try await sensors.call("read", ["zone": 1]) == ["zone": 1, "celsius": 75.5])
        var events = sensors.events.makeAsyncIterator()
        let hot = await events.next()
        #expect(hot?.name == "hot" && hot?.payload == ["zone": 1, "celsius": 75.5])
        #expect(sensors.misuses.isEmpty)
    }

    @Test func readFailuresHaveCodesAndPaths() async throws {
        let sensors = try await PluginTester(SensorsPlugin(), options: thermalZones(["hot"]))
        let missing = await #expect(throws: BridgeError.self) { try await sensors.call("read", ["zone": 3]) }
        #expect(missing?.code == "NO_SUCH_ZONE")
        let garbled = await #expect(throws: BridgeError.self) { try await sensors.call("read", ["zone": 0]) }
        #expect(garbled?.code == "SENSOR_UNREADABLE")
        let invalid = await #expect(throws: BridgeError.self) { try await sensors.call("read", ["zone": "one"]) }
        #expect(invalid?.data?["issues"]?[0]?["path"] == "zone")
    }

    @Test func everyActionNeedsAllowSensors() async throws {
        let sensors = try await PluginTester(SensorsPlugin())
        let denied = #expect(throws: BridgeError.self) { try sensors.callSync("zones") }
        #expect(denied?.code == "PERMISSION_DENIED")
        #expect(denied?.message == "Sensor access was not granted; run with --allow-sensors.")
    }

    @Test func watchYieldsAReadingPerIntervalOfTheInjectedClock() async throws {
        let clock = ManualClock()
        let sensors = try await PluginTester(SensorsPlugin(), options: thermalZones(["40000"], clock: clock))
        var readings = try sensors.stream("watch", ["zone": 0, "intervalMs": 500]).makeAsyncIterator()
        #expect(try await readings.next() == ["zone": 0, "celsius": 40])
        try await clock.waitForSleepers()
        clock.advance(by: .milliseconds(500))
        #expect(try await readings.next() == ["zone": 0, "celsius": 40])
    }
}

@Suite struct SensorsScriptTests {
    @Test func aScriptUsesTheJavaScriptAPI() async throws {
        let result = await ScriptRunner.run(
            """
            Sensors.onHot((reading) => console.log("hot", reading.zone));
            Sensors.read(1).then((reading) => console.log(Sensors.zones(), reading.celsius));
            const watch = Sensors.watch(0, (reading) => { console.log("watched", reading.celsius); watch.cancel(); });
            """, plugins: [SensorsPlugin()], options: try thermalZones(["41000", "75500"]))
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.lines.sorted() == ["2 75.5", "hot 1", "watched 41"])
    }
}
