import EchoPlugin
import JSBridgeCore
import JSBridgeTesting
import Testing

/// The Echo plugin through the headless test kit (no JavaScript).
@Suite struct EchoPluginTests {
    @Test func pingAddsOne() async throws {
        let echo = try await PluginTester(EchoPlugin())
        #expect(try echo.callSync("ping", 41) == 42)
        #expect(try echo.callSync("ping", 0.5) == 1.5)
    }

    @Test func pingRejectsNonNumbersWithAPath() async throws {
        let echo = try await PluginTester(EchoPlugin())
        #expect {
            try echo.callSync("ping", "seven")
        } throws: { error in
            guard let error = error as? BridgeError else { return false }
            return error.code == "INVALID_ARGUMENT" && error.data?["issues"]?[0]?["path"] == ""
        }
    }

    @Test func echoReturnsItsArgumentUnchanged() async throws {
        let echo = try await PluginTester(EchoPlugin())
        let value: JSONValue = ["z": 1, "a": ["nested": [true, nil, "ü"]]]
        let back = try await echo.call("echo", value)
        #expect(back == value)
        #expect(back.objectValue?.keys == ["z", "a"])
    }

    @Test func ticksStreamsAtTheClocksPace() async throws {
        let clock = ManualClock()
        let echo = try await PluginTester(EchoPlugin(), options: .testing(clock: clock))
        let stream = try echo.stream("ticks", ["count": 3, "intervalMs": 1000])
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        try await clock.waitForSleepers()
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        #expect(try await iterator.next() == 1)
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        #expect(try await iterator.next() == 2)
        #expect(try await iterator.next() == nil)
    }

    @Test func ticksValidatesItsArguments() async throws {
        let echo = try await PluginTester(EchoPlugin())
        await #expect(throws: BridgeError.self) {
            for try await _ in try echo.stream("ticks", ["count": -1]) {}
        }
        await #expect(throws: BridgeError.self) {
            for try await _ in try echo.stream("ticks", ["count": 1, "intervalMs": -5]) {}
        }
    }

    @Test func cancellingTheStreamStopsTheSwiftSide() async throws {
        let clock = ManualClock()
        let echo = try await PluginTester(EchoPlugin(), options: .testing(clock: clock))
        let consumer = Task {
            var seen: [JSONValue] = []
            for try await value in try echo.stream("ticks", ["count": 1000, "intervalMs": 10]) { seen.append(value) }
            return seen
        }
        try await clock.waitForSleepers()
        consumer.cancel()
        // The producer's sleep is cancelled: nobody sleeps on the clock any more.
        #expect(await eventually { clock.sleeperCount == 0 })
    }

    @Test func failThrowsItsOwnCode() async throws {
        let echo = try await PluginTester(EchoPlugin())
        do {
            _ = try await echo.call("fail", ["code": "E_CUSTOM", "message": "custom"])
            Issue.record("fail did not throw")
        } catch {
            #expect(error == BridgeError(code: "E_CUSTOM", message: "custom"))
        }
        do {
            _ = try await echo.call("fail")
            Issue.record("fail did not throw")
        } catch {
            #expect(error.code == "ECHO_FAILURE")
        }
    }

    @Test func contextReportsWhatTheHostGranted() async throws {
        let options = BridgeHost.Options.testing(
            configuration: ["Echo": ["x": 1]],
            permissions: Permissions(allowing: .net, Capability("location", guards: "location access")),
            appID: "probe")
        let echo = try await PluginTester(EchoPlugin(), options: options)
        let context = try echo.callSync("context")
        // Echo alone declares no capability: the granted ones are reported as granted.
        #expect(context["permissions"] == ["net": true, "location": true])
        #expect(context["appId"] == "probe")
        #expect(context["configuration"] == ["x": 1])
    }

    @Test func unknownActionsAndWrongKinds() async throws {
        let echo = try await PluginTester(EchoPlugin())
        await #expect(throws: BridgeError.actionNotFound("Echo", "nope")) { try await echo.call("nope") }
        #expect(throws: BridgeError.self) { try echo.stream("echo") }
    }
}

@Suite struct StreamBackPressureTests {
    @Test func aFastProducerWaitsForASlowConsumer() async throws {
        let echo = try await PluginTester(EchoPlugin())
        let stream = try echo.stream("ticks", ["count": 100_000])
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        // The producer runs a full window ahead, then waits.
        #expect(await eventually { stream.unconsumed >= CallState.window })
        stream.cancel()
        // Only what the producer sent before it had to wait for us is left: about one window.
        var left = 0
        do {
            while try await iterator.next() != nil { left += 1 }
        } catch {}
        #expect(left > 0)
        #expect(left <= CallState.window + 1)
    }
}
