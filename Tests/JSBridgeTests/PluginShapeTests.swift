import Foundation
import JSBridge
import JSBridgeTesting
import Synchronization
import Testing

/// A plugin that uses every part of a declaration: a capability, a configuration with rules, state made at
/// set-up, JavaScript files (a global with a shared helper, a module), and an event.
struct ShapePlugin: BridgePlugin {
    static let name = "Shape"
    static let greeting = Capability("greeting", guards: "greeting")

    struct Configuration: PluginConfiguration {
        var prefix: String?
        var times: Int?

        func validate() -> [ArgumentIssue] {
            guard let times, !(1...3).contains(times) else { return [] }
            return [ArgumentIssue(path: "times", message: "must be 1…3, got \(times)")]
        }
    }

    /// Counts set-ups across instances.
    final class Counter: Sendable {
        let setUps = Atomic<Int>(0)
    }

    let counter: Counter

    func setUp(_ context: SetUpContext<Self>) async throws -> String {
        counter.setUps.add(1, ordering: .relaxed)
        return String(repeating: context.configuration.prefix ?? "Hello", count: context.configuration.times ?? 1)
    }

    static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.script(
            .global(
                "shape.js",
                source: Array(
                    #"runtime.defineGlobal("Shape", { greet: (n) => plugin.shared.shout(plugin.execSync("greet", n)) });"#
                        .utf8),
                defines: ["Shape"]))
        plugin.script(
            .shared(
                "helpers.js", source: Array(#"plugin.shared.shout = (s) => s.toUpperCase();"#.utf8), shares: ["shout"]))
        plugin.script(
            .module(
                "shape", file: "module.js",
                source: Array(
                    #"return { twice: (s) => s + s, name: plugin.name, limits: plugin.constants.limits };"#.utf8)))
        plugin.constant("limits", ["max": 3, "names": ["a", "b"]])
        plugin.event("greeted", of: String.self)
        plugin.sync("greet", args: String.self, requires: greeting) { context, name in
            try context.emit("greeted", name)
            return "\(context.state), \(name)"
        }
        plugin.sync("stray") { context in
            try context.emit("undeclared", 1)
            return true
        }
        plugin.async("echo", args: JSONValue.self) { _, value in value }
        plugin.stream("count", args: Int.self, of: Int.self) { _, n, out in
            for i in 0..<n { try await out.yield(i) }
        }
    }
}

@Suite struct PluginShapeTests {
    static let granted = BridgeHost.Options.testing(
        configuration: ["Shape": ["prefix": "Hi", "times": 2]], permissions: Permissions(allowing: ShapePlugin.greeting)
    )

    @Test func aScriptUsesTheGlobalTheSharedHelperAndTheModule() async {
        let counter = ShapePlugin.Counter()
        let result = await ScriptRunner.run(
            """
            bridge.on("Shape", "greeted", (name) => console.log("event", name));
            console.log(Shape.greet("Ann"));
            const mod = require("jsbridge:shape");
            console.log(mod.twice("ab"), mod.name, require("jsbridge:shape") === mod);
            console.log(mod.limits.max, mod.limits.names.join(), Object.isFrozen(mod.limits.names));
            try { require("jsbridge:nope") } catch (e) { console.log(e.code) }
            """, plugins: [ShapePlugin(counter: counter)], options: Self.granted)
        #expect(
            result.lines == ["HIHI, ANN", "abab Shape true", "3 a,b true", "MODULE_NOT_FOUND", "event Ann"],
            "\(result.stderr)")
        #expect(counter.setUps.load(ordering: .relaxed) == 1)
    }

    @Test func withoutTheCapabilityTheActionIsDeniedNamingTheFlag() async {
        let result = await ScriptRunner.run(
            #"try { Shape.greet("Ann") } catch (e) { console.log(e.code, e.message, e.data.capability) }"#,
            plugins: [ShapePlugin(counter: .init())])
        #expect(result.lines == ["PERMISSION_DENIED Greeting was not granted; run with --allow-greeting. greeting"])
    }

    @Test func aBadConfigurationListsEveryIssueAndFailsEveryCall() async {
        let result = await ScriptRunner.run(
            """
            bridge.ready.catch((e) => console.log("ready", e.code));
            try { bridge.execSync("Shape", "greet", "x") } catch (e) { console.log(e.code, e.message, JSON.stringify(e.data.issues)) }
            """, plugins: [ShapePlugin(counter: .init())],
            options: .testing(configuration: ["Shape": ["prefix": 5, "times": 9]], permissions: .all))
        #expect(
            result.lines == [
                #"INVALID_ARGUMENT The configuration of plugin 'Shape' is invalid: at 'prefix': expected a string, got a number (5). [{"path":"prefix","message":"expected a string, got a number (5)"}]"#,
                "ready INVALID_ARGUMENT",
            ], "\(result.stderr)")
    }

    @Test func theTesterCollectsStreamsMixesLiteralsAndReportsMisuse() async throws {
        let shape = try await PluginTester(ShapePlugin(counter: .init()), options: Self.granted)
        #expect(try await shape.stream("count", 3).collect() == [0, 1, 2])
        #expect(try await shape.stream("count", 100).first(2) == [0, 1])
        let name = "Bo"
        #expect(try shape.callSync("greet", .string(name)) == "HiHi, Bo")
        #expect(try await shape.call("stray") == true)
        #expect(
            shape.misuses == [
                "Shape emitted 'undeclared', which it does not declare (plugin.event(\"undeclared\", of: …))."
            ])
    }

    @Test func mixedLiteralArgumentsEncodeEachValue() async throws {
        let shape = try await PluginTester(ShapePlugin(counter: .init()), options: Self.granted)
        let id = 7, tags = ["a", "b"], when = Date(timeIntervalSince1970: 1)
        #expect(
            try await shape.call("echo", ["n": id, "tags": tags, "ok": true, "at": when]) == [
                "n": 7, "tags": ["a", "b"], "ok": true, "at": "1970-01-01T00:00:01.000Z",
            ])
    }

    @Test func typingsListTheActionsEventsAndKinds() throws {
        let host = BridgeHost()
        try host.register(ShapePlugin(counter: .init()))
        let typings = try #require(host.plugins.first).typings
        #expect(typings.contains(#"greet: { kind: "sync"; args: string; result: string };"#))
        #expect(typings.contains(#"count: { kind: "stream"; args: number; value: number };"#))
        #expect(typings.contains("greeted: string;"))
        #expect(typings.contains("/** Needs --allow-greeting. */"))
    }
}
