import CounterPlugin
import JSBridgeCore
import JSBridgeTesting
import Testing

// MARK: - The domain core, without the bridge

@Suite("CounterStore (domain core)")
struct CounterStoreTests {
    @Test("counters start at 0 and are independent")
    func independentCounters() throws {
        let store = CounterStore()
        #expect(store.value(of: "a") == 0)
        #expect(try store.increment("a") == 1)
        #expect(try store.increment("a", by: 4) == 5)
        #expect(try store.increment("b", by: -2) == -2)
        #expect(store.value(of: "a") == 5)
        #expect(store.names == ["a", "b"])
    }

    @Test("going above the limit throws and leaves the counter unchanged")
    func limit() throws {
        let store = CounterStore()
        #expect(try store.increment("a", by: 3, limit: 3) == 3)
        #expect(throws: CounterError.limitExceeded(name: "a", limit: 3, attempted: 4)) {
            try store.increment("a", limit: 3)
        }
        #expect(store.value(of: "a") == 3)
    }

    @Test("overflow is an error, not a crash")
    func overflow() throws {
        let store = CounterStore()
        try store.increment("a", by: .max)
        #expect(throws: CounterError.overflow(name: "a")) { try store.increment("a") }
        #expect(store.value(of: "a") == .max)
    }

    @Test("reset returns the previous value")
    func reset() throws {
        let store = CounterStore()
        try store.increment("a", by: 7)
        #expect(store.reset("a") == 7)
        #expect(store.value(of: "a") == 0)
        #expect(store.reset("never") == 0)
    }

    @Test("whenReaches notifies once, at once or from the increment that reaches the target")
    func whenReaches() throws {
        let store = CounterStore()
        let seen = Box<[Int]>([])
        store.whenReaches("a", 0) { seen.append($0) }  // already reached
        store.whenReaches("a", 2) { seen.append($0 * 10) }
        #expect(seen.value == [0])
        #expect(store.waiterCount == 1)
        try store.increment("a")
        #expect(seen.value == [0])
        try store.increment("a", by: 2)
        try store.increment("a")
        #expect(seen.value == [0, 30])
        #expect(store.waiterCount == 0)
    }

    @Test("concurrent increments are not lost")
    func concurrent() async throws {
        let store = CounterStore()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<200 { group.addTask { _ = try? store.increment("n") } }
        }
        #expect(store.value(of: "n") == 200)
    }
}

// MARK: - Each action through PluginTester (no JavaScript)

@Suite("CounterPlugin actions")
struct CounterPluginActionTests {
    @Test("value is a sync action over the store")
    func value() async throws {
        let store = CounterStore()
        try store.increment("a", by: 41)
        let tester = try await PluginTester(CounterPlugin(store: store))
        #expect(try tester.callSync("value", ["name": "a"]) == 41)
        #expect(try tester.callSync("value", ["name": "other"]) == 0)
    }

    @Test("increment returns the new value and emits `changed`")
    func increment() async throws {
        let tester = try await PluginTester(CounterPlugin())
        var events = tester.events.makeAsyncIterator()
        #expect(try await tester.call("increment", ["name": "a"]) == 1)
        #expect(try await tester.call("increment", ["name": "a", "by": 9]) == 10)
        #expect(try tester.callSync("value", ["name": "a"]) == 10)
        let first = try #require(await events.next())
        #expect(first.plugin == "Counter")
        #expect(first.name == "changed")
        #expect(first.payload == ["name": "a", "value": 1])
        #expect(await events.next()?.payload == ["name": "a", "value": 10])
    }

    @Test("typed call decodes the result")
    func typedCall() async throws {
        struct Args: Encodable, Sendable { var name: String; var by: Int }
        let tester = try await PluginTester(CounterPlugin())
        let value = try await tester.call("increment", Args(name: "t", by: 3), as: Int.self)
        #expect(value == 3)
    }

    static let badIncrements: [(JSONValue, String, String)] = [
        (["name": 5], "name", "expected a string, got a number (5)"),
        (["name": "a", "by": 1.5], "by", "expected an integer"),
        (["by": 1], "name", "missing required key \"name\""),
        ("a", "", "expected"),
    ]

    @Test("bad arguments are INVALID_ARGUMENT with the path of each problem", arguments: badIncrements)
    func invalidArguments(arguments: JSONValue, path: String, message: String) async throws {
        let tester = try await PluginTester(CounterPlugin())
        let error = await #expect(throws: BridgeError.self) { try await tester.call("increment", arguments) }
        #expect(error?.code == "INVALID_ARGUMENT")
        let issue = error?.data?["issues"]?[0]
        #expect(issue?["path"] == .string(path))
        #expect(issue?["message"]?.stringValue?.hasPrefix(message) == true, "\(String(describing: issue))")
    }

    @Test("the configured limit gives COUNTER_LIMIT with data, and nothing changes")
    func configuredLimit() async throws {
        let tester = try await PluginTester(
            CounterPlugin(), options: .testing(configuration: ["Counter": ["limit": 5]]))
        #expect(try await tester.call("increment", ["name": "a", "by": 5]) == 5)
        let error = await #expect(throws: BridgeError.self) { try await tester.call("increment", ["name": "a"]) }
        #expect(error?.code == "COUNTER_LIMIT")
        #expect(error?.data == ["name": "a", "limit": 5, "attempted": 6])
        #expect(try tester.callSync("value", ["name": "a"]) == 5)
    }

    @Test("without a limit there is none")
    func noLimit() async throws {
        let tester = try await PluginTester(CounterPlugin())
        #expect(try await tester.call("increment", ["name": "a", "by": 1_000_000]) == 1_000_000)
    }

    @Test("a bad configuration fails set-up with the path of the problem")
    func badConfiguration() async throws {
        let negative = await #expect(throws: BridgeError.self) {
            _ = try await PluginTester(CounterPlugin(), options: .testing(configuration: ["Counter": ["limit": -1]]))
        }
        #expect(negative?.code == "INVALID_ARGUMENT")
        #expect(negative?.data?["issues"]?[0]?["path"] == "limit")

        let wrongType = await #expect(throws: BridgeError.self) {
            _ = try await PluginTester(CounterPlugin(), options: .testing(configuration: ["Counter": ["limit": "ten"]]))
        }
        #expect(wrongType?.data?["issues"]?[0]?["path"] == "limit")
    }

    @Test("increments run serially: `changed` events arrive in order")
    func serialOrder() async throws {
        let tester = try await PluginTester(CounterPlugin())
        try await withThrowingTaskGroup(of: JSONValue.self) { group in
            for _ in 0..<200 { group.addTask { try await tester.call("increment", ["name": "s"]) } }
            var results: [Int] = []
            for try await value in group { results.append(try #require(value.intValue)) }
            #expect(results.sorted() == Array(1...200))
        }
        var values: [Int] = []
        for await event in tester.events {
            values.append(event.payload["value"]?.intValue ?? -1)
            if values.count == 200 { break }
        }
        #expect(values == Array(1...200))
    }

    @Test("countdown yields from…1, one value per interval of the injected clock")
    func countdown() async throws {
        let clock = ManualClock()
        let tester = try await PluginTester(CounterPlugin(), options: .testing(clock: clock))
        var values = try tester.stream("countdown", ["from": 3, "intervalMs": 1000]).makeAsyncIterator()
        #expect(try await values.next() == 3)
        try await clock.waitForSleepers()
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1)  // not due yet
        clock.advance(by: .milliseconds(1))
        #expect(try await values.next() == 2)
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        #expect(try await values.next() == 1)
        #expect(try await values.next() == nil)  // finished
    }

    @Test("cancelling a countdown reaches the sleeping Swift task")
    func countdownCancel() async throws {
        let clock = ManualClock()
        let tester = try await PluginTester(CounterPlugin(), options: .testing(clock: clock))
        let stream = try tester.stream("countdown", ["from": 10, "intervalMs": 1000])
        let consumer = Task {
            var seen: [JSONValue] = []
            for try await value in stream { seen.append(value) }
            return seen
        }
        try await clock.waitForSleepers()
        consumer.cancel()
        let deadline = ContinuousClock.now + .seconds(5)
        while clock.sleeperCount > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        #expect(clock.sleeperCount == 0)
        let seen = try? await consumer.value
        #expect((seen ?? [10]).count <= 1)
    }

    static let badCountdowns: [(JSONValue, String)] = [
        (["from": -1], "from"),
        (["from": 3, "intervalMs": -5], "intervalMs"),
        (["intervalMs": 5], "from"),
    ]

    @Test("countdown validates its arguments", arguments: badCountdowns)
    func countdownInvalid(arguments: JSONValue, path: String) async throws {
        let tester = try await PluginTester(CounterPlugin())
        let error = await #expect(throws: BridgeError.self) {
            for try await _ in try tester.stream("countdown", arguments) {}
        }
        #expect(error?.code == "INVALID_ARGUMENT")
        #expect(error?.data?["issues"]?[0]?["path"] == .string(path))
    }

    @Test("whenReaches answers later, from the increment that reaches the target")
    func whenReaches() async throws {
        let store = CounterStore()
        let tester = try await PluginTester(CounterPlugin(store: store))
        let waiting = Task { try await tester.call("whenReaches", ["name": "w", "value": 2]) }
        while store.waiterCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        _ = try await tester.call("increment", ["name": "w"])
        _ = try await tester.call("increment", ["name": "w", "by": 2])
        #expect(try await waiting.value == 3)
    }

    @Test("a whenReaches still waiting at shutdown ends with DROPPED, never a hang")
    func dropped() async throws {
        let store = CounterStore()
        let tester = try await PluginTester(CounterPlugin(store: store))
        let waiting = Task { () async throws(BridgeError) -> JSONValue in
            try await tester.call("whenReaches", ["name": "w", "value": 100])
        }
        while store.waiterCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        await tester.shutdown()
        let result = await waiting.result
        guard case .failure(let error) = result else {
            Issue.record("expected DROPPED, got \(result)")
            return
        }
        #expect((error as? BridgeError)?.code == "DROPPED")
    }

    @Test("unknown actions and the wrong kind are ACTION_NOT_FOUND")
    func unknownAction() async throws {
        let tester = try await PluginTester(CounterPlugin())
        let missing = await #expect(throws: BridgeError.self) { try await tester.call("decrement", ["name": "a"]) }
        #expect(missing?.code == "ACTION_NOT_FOUND")
        let wrongKind = #expect(throws: BridgeError.self) { try tester.callSync("increment", ["name": "a"]) }
        #expect(wrongKind?.code == "ACTION_NOT_FOUND")
    }
}

// MARK: - JavaScript against the real engine

@Suite("Counter from JavaScript")
struct CounterScriptTests {
    @Test("a script uses every kind of action, events and the custom error code")
    func script() async throws {
        let result = await ScriptRunner.run(
            """
            bridge.on("Counter", "changed", (e) => console.log(`changed ${e.name}=${e.value}`));
            (async () => {
              await bridge.ready;
              console.log("value", bridge.execSync("Counter", "value", [{ name: "a" }]));
              console.log("increment", await bridge.plugins.Counter.increment({ name: "a", by: 2 }));
              try {
                await bridge.call("Counter", "increment", { name: "a", by: 5 });
              } catch (e) {
                console.log(e instanceof BridgeError, e.code, e.data);
              }
              const values = [];
              const countdown = bridge.subscribe("Counter", "countdown", { from: 3, intervalMs: 1 }, (v) => values.push(v));
              await countdown.done;
              console.log("countdown", values);
              process.exitCode = 3;
            })();
            """,
            plugins: [CounterPlugin()],
            options: .testing(configuration: ["Counter": ["limit": 4]]))
        #expect(result.stderr == "")
        #expect(
            result.lines == [
                "value 0",
                "changed a=2",
                "increment 2",
                "true COUNTER_LIMIT { name: 'a', limit: 4, attempted: 7 }",
                "countdown [ 3, 2, 1 ]",
            ])
        #expect(result.exitCode == 3)
    }

    @Test("an uncaught COUNTER_LIMIT ends the script with exit code 1")
    func uncaught() async throws {
        let result = await ScriptRunner.run(
            "bridge.call('Counter', 'increment', { name: 'a', by: 2 }).then(() => console.log('unreachable'))",
            plugins: [CounterPlugin()],
            options: .testing(configuration: ["Counter": ["limit": 1]]))
        #expect(result.exitCode == 1)
        #expect(result.stdout == "")
        #expect(result.uncaughtErrors.count == 1)
        #expect(result.stderr.contains("COUNTER_LIMIT"))
    }
}

/// A tiny thread-safe box for values captured by `@Sendable` callbacks.
final class Box<Value: Sendable>: Sendable {
    private let storage: Locked<Value>
    init(_ value: Value) { storage = Locked(value) }
    var value: Value { storage.withLock { $0 } }
    func append<E>(_ element: E) where Value == [E] { storage.withLock { $0.append(element) } }
}
