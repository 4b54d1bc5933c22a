import JSBridgeCore
import Synchronization
import Testing

/// The plugin API without any JavaScript engine: registration, dispatch, replies, permissions.
@Suite struct PluginAPITests {
    struct Twice: BridgePlugin {
        static let name = "Twice"
        static func declare(_ a: inout PluginDeclaration<Self>) {
            a.sync("x") { _ in 1 }
            a.sync("x") { _ in 2 }
        }
    }

    struct Named: BridgePlugin {
        static let name = "Named"
        static func declare(_ a: inout PluginDeclaration<Self>) {
            a.sync("hello", args: String.self) { _, name in "Hello, \(name)!" }
            a.async("later", args: Int.self) { _, n in n * 2 }
        }
    }

    final class Collector: CallOutcomeSink {
        let outcomes = Locked<[CallOutcome]>([])
        let misuse = Locked<[String]>([])
        func deliver(_ outcome: CallOutcome, callID: UInt64) { outcomes.withLock { $0.append(outcome) } }
        func reportMisuse(_ message: String) { misuse.withLock { $0.append(message) } }
    }

    /// A `start` action that answers from a "callback": here, a call of `finish` from the test.
    struct Starter: BridgePlugin {
        static let name = "Starter"

        final class Calls: Sendable {
            let pending = Locked<[(reply: CallReply, value: Int)]>([])
            let cancelled = Atomic<Int>(0)
        }
        let calls = Calls()

        func setUp(_ context: SetUpContext<Self>) async throws -> Calls { calls }

        static func declare(_ a: inout PluginDeclaration<Self>) {
            a.start("later", args: Int.self) { context, value, reply in
                let calls = context.state
                calls.pending.withLock { $0.append((reply, value)) }
                reply.onCancel { calls.cancelled.add(1, ordering: .relaxed) }
            }
        }

        /// Answers the first pending call with its value doubled.
        func finish() {
            let first = calls.pending.withLock { $0.removeFirst() }
            first.reply.resolve(.number(Double(first.value * 2)))
        }
    }

    @Test func startActionsRunWhereCalledAndAnswerLater() throws {
        let starter = Starter()
        let host = BridgeHost()
        try host.register(starter)
        let registry = host.makeRegistry { _, _, _ in }
        let resolved = try registry.resolve(plugin: "Starter", action: "later")
        #expect(resolved.action.kind == .async)
        let sink = Collector()
        func call(_ arguments: JSONValue, id: UInt64) -> CallHandle {
            registry.invoke(
                resolved, arguments: arguments,
                reply: CallReply(callID: id, plugin: "Starter", action: "later", sink: sink))
        }
        // The body ran before `invoke` returned, on this thread, with no task in between.
        _ = call(21, id: 1)
        #expect(starter.calls.pending.withLock { $0.count } == 1)
        #expect(sink.outcomes.withLock { $0 }.isEmpty)
        starter.finish()
        #expect(sink.outcomes.withLock { $0 } == [.value(42)])
        // Arguments that do not decode never reach the body.
        _ = call("x", id: 2)
        #expect(starter.calls.pending.withLock { $0.isEmpty })
        guard case .failed(let error)? = sink.outcomes.withLock({ $0.last }) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == BridgeError.Code.invalidArgument)
        // Cancelling reaches the handler once; a handler set after the cancellation runs at once.
        let handle = call(1, id: 3)
        handle.cancel()
        handle.cancel()
        let calls = starter.calls
        #expect(calls.cancelled.load(ordering: .relaxed) == 1)
        do {
            let late = calls.pending.withLock { $0[0].reply }
            late.onCancel { calls.cancelled.add(10, ordering: .relaxed) }
        }
        #expect(calls.cancelled.load(ordering: .relaxed) == 11)
        // A reply released unanswered reports DROPPED.
        calls.pending.withLock { $0.removeAll() }
        guard case .failed(let dropped)? = sink.outcomes.withLock({ $0.last }) else {
            Issue.record("expected DROPPED")
            return
        }
        #expect(dropped.code == BridgeError.Code.dropped)
    }

    /// A cancel handler usually captures what answers the call, and so the reply: answering releases it.
    @Test func answeringReleasesTheCancelHandler() {
        final class Token: Sendable {}
        let sink = Collector()
        weak var released: Token?
        let reply = CallReply(callID: 1, plugin: "P", action: "a", sink: sink)
        do {
            let token = Token()
            released = token
            reply.onCancel { _ = token }
        }
        #expect(released != nil)
        reply.resolve(1)
        #expect(released == nil)
    }

    @Test func duplicateActionsAndPluginNamesAreRejected() throws {
        let host = BridgeHost()
        #expect(throws: BridgeError.self) { try host.register(Twice()) }
        try host.register(Named())
        #expect(throws: BridgeError.self) { try host.register(Named()) }
        #expect(host.pluginNames == ["Named"])
    }

    @Test func resolveReportsUnknownPluginsAndActions() throws {
        let host = BridgeHost()
        try host.register(Named())
        let registry = host.makeRegistry { _, _, _ in }
        #expect(throws: BridgeError.pluginNotFound("Nope")) { try registry.resolve(plugin: "Nope", action: "x") }
        #expect(throws: BridgeError.actionNotFound("Named", "x")) { try registry.resolve(plugin: "Named", action: "x") }
        #expect(
            try registry.invokeSync(registry.resolve(plugin: "Named", action: "hello"), arguments: "Ann")
                == "Hello, Ann!")
    }

    @Test func aReplyAnswersOnceAndReportsDroppedCalls() {
        let sink = Collector()
        do {
            let reply = CallReply(callID: 7, plugin: "P", action: "a", sink: sink)
            reply.yield(1)
            reply.resolve(2)
            reply.resolve(3)
            reply.yield(4)
        }
        #expect(sink.outcomes.withLock { $0 } == [.item(1), .value(2)])
        #expect(sink.misuse.withLock { $0.count } == 1)

        let dropped = Collector()
        do { _ = CallReply(callID: 8, plugin: "P", action: "b", sink: dropped) }
        let outcomes = dropped.outcomes.withLock { $0 }
        #expect(outcomes.count == 1)
        if case .failed(let error) = outcomes.first {
            #expect(error.code == "DROPPED")
        } else {
            Issue.record("not DROPPED")
        }
    }

    @Test func errorsMapToBridgeCodes() {
        struct Plain: Error {}
        struct Coded: BridgeErrorConvertible {
            var bridgeError: BridgeError { BridgeError(code: "MINE", message: "m") }
        }
        #expect(BridgeError(from: Plain()).code == "PLUGIN_ERROR")
        #expect(BridgeError(from: Coded()).code == "MINE")
        #expect(BridgeError(from: CancellationError()).code == "CANCELLED")
    }

    @Test func nullArgumentsDecodeAsAnEmptyObjectForOptionalFields() throws {
        struct Options: Decodable, Sendable { var verbose: Bool? }
        #expect(try decodeArguments(Options.self, from: .null).verbose == nil)
        #expect(throws: BridgeError.self) { try decodeArguments(Int.self, from: .null) }
    }
}

@Suite struct PermissionTests {
    static let sensors = Capability("sensors", guards: "sensor access")

    @Test func hostPatternsParse() {
        #expect(HostPattern(parsing: "example.com") == .init(host: "example.com"))
        #expect(HostPattern(parsing: "Example.COM:8080") == .init(host: "example.com", port: 8080))
        #expect(HostPattern(parsing: "[::1]:80") == .init(host: "::1", port: 80))
        for bad in ["", ":80", "a.com:99999", "a.com:x", "-e", "a b", "a/b", "[::1", "::1", "[a.com]"] {
            #expect(HostPattern(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func checksMatchHostsAndPorts() throws {
        let permissions = try Permissions().granting(.net, scopes: ["a.com", "B.com:443"])
        #expect(permissions.allows(.net, scope: "A.com:1"))
        #expect(permissions.allows(.net, scope: "b.com:443"))
        #expect(!permissions.allows(.net, scope: "b.com:80"))
        #expect(!permissions.allows(.net))
        #expect(!permissions.allows(Self.sensors))
        #expect(Permissions.all.allows(Self.sensors))
        #expect(throws: BridgeError.self) { try Permissions.none.check(.net, scope: "x") }
        #expect(throws: CapabilityError.self) { try Permissions().granting(.net, scopes: ["::1"]) }
        #expect(throws: CapabilityError.self) { try Permissions().granting(Self.sensors, scopes: ["x"]) }
    }

    @Test func deniedNamesTheFlag() throws {
        let error = #expect(throws: BridgeError.self) { try Permissions.none.check(Self.sensors) }
        #expect(error?.code == "PERMISSION_DENIED")
        #expect(error?.message == "Sensor access was not granted; run with --allow-sensors.")
        #expect(error?.data?["capability"] == "sensors")
        let scoped = #expect(throws: BridgeError.self) { try Permissions.none.check(.net, scope: "a.com:80") }
        #expect(
            scoped?.message
                == "Network access to a.com:80 was not granted; run with --allow-net=a.com:80 (or --allow-net).")
    }
}
