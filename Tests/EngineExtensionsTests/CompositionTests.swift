import EchoPlugin
import JSBridge
import JSBridgeExtensions
import JSBridgeTesting
import Testing

/// A plugin with a private action (glue for its own JavaScript) beside a public one.
struct GluePlugin: BridgePlugin {
    static let name = "Glue"

    static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.script(
            .global(
                "glue.js",
                source: Array(
                    #"""
                    runtime.defineGlobal("Glue", {
                      viaHandle: () => plugin.execSync("secret", 20),
                      viaCall: () => plugin.call("secret", 1),
                    });
                    """#.utf8),
                defines: ["Glue"]))
        plugin.sync("open", args: Int.self) { _, n in n + 1 }
        plugin.sync("secret", args: Int.self) { _, n in n * 2 }
        plugin.keepPrivate("secret")
    }
}

/// Runtimes made of the host and chosen engine extensions: what each extension brings, what a runtime without
/// it does, and the host's checks of the list.
@Suite struct CompositionTests {
    @Test func aRuntimeOfTheHostAndWebHasTheWebAPIsAndNoNodeModulesOrCordova() async {
        let result = await ScriptRunner.run(
            """
            var declared = 1;
            console.log(typeof URL, typeof TextEncoder, typeof structuredClone, typeof performance.now());
            console.log(typeof process, typeof require, typeof Buffer, typeof cordova, typeof document);
            console.log(globalThis.declared, bridge.execSync("Echo", "ping", [1]));
            """, plugins: [EchoPlugin()], extensions: [.web])
        #expect(result.exitCode == 0, "\(result.stderr)")
        // The main script runs as a classic script: its `var` is a global.
        #expect(
            result.lines == [
                "function function function number", "undefined undefined undefined undefined undefined", "1 2",
            ])
    }

    @Test func aScriptThatUsesNothingRunsOnlyTheEagerFiles() async {
        let result = await ScriptRunner.run(.eval("0"))
        #expect(result.exitCode == 0, "\(result.stderr)")
        // Start-up pays for these and no more: a lazy file loaded by the runtime's own code costs every run.
        #expect(result.loadedFiles == ["primordials.js", "loader.js", "errors.js", "module.js"])
        let touched = await ScriptRunner.run(.eval("process.features.typescript"))
        #expect(touched.loadedFiles.contains("process.js"))
    }

    @Test func theBridgeLoadsWithItsFirstUse() async {
        // Its global, a plugin's global (whose file bridge.js runs), and a runtime file's use of its names.
        for script in ["console.log(typeof bridge.call)", "console.log(Glue.viaHandle())"] {
            let result = await ScriptRunner.run(.eval(script), plugins: [GluePlugin()])
            #expect(result.lines == [script.contains("Glue") ? "40" : "function"], "\(script): \(result.stderr)")
            #expect(result.loadedFiles.contains("bridge.js"), "\(script)")
        }
        let cordova = await ScriptRunner.run(
            .eval("cordova.exec((v) => console.log(v), (e) => console.log(e), 'Echo', 'echo', ['hi'])"),
            plugins: [EchoPlugin()])
        #expect(cordova.lines == ["hi"], "\(cordova.stderr)")
        #expect(cordova.loadedFiles.contains("bridge.js"))
    }

    /// The start-up guard: a granted capability adds no file to an empty run, and each Node module loads its
    /// own file and what it builds on, never another module's (`zlib` does not load `child_process`).
    @Test func nodeModulesLoadOnlyTheirOwnFiles() async {
        let granted = await ScriptRunner.run(.eval("0"), options: .testing(permissions: .all))
        #expect(granted.loadedFiles == ["primordials.js", "loader.js", "errors.js", "module.js"])
        let zlib = await ScriptRunner.run(.eval("require('zlib').gzipSync('x')"))
        #expect(zlib.exitCode == 0, "\(zlib.stderr)")
        #expect(zlib.loadedFiles.contains("node-zlib.js") && zlib.loadedFiles.contains("node-stream.js"))
        #expect(!zlib.loadedFiles.contains("node-child-process.js"))
        let child = await ScriptRunner.run(
            .eval("require('child_process').spawnSync('true')"), options: .testing(permissions: .all))
        #expect(child.exitCode == 0, "\(child.stderr)")
        #expect(child.loadedFiles.contains("node-child-process.js") && !child.loadedFiles.contains("node-zlib.js"))
        let net = await ScriptRunner.run(.eval("require('net').isIP('::1')"))
        #expect(net.exitCode == 0, "\(net.stderr)")
        #expect(net.loadedFiles.contains("node-net.js") && !net.loadedFiles.contains("node-http.js"))
        #expect(!net.loadedFiles.contains("node-dns.js"))
    }

    @Test func aRuntimeWithoutAnExtensionAnotherRequiresDoesNotRun() async {
        let result = await ScriptRunner.run("console.log(1)", extensions: [.node])
        #expect(result.exitCode == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("the engine extension 'node' requires 'web', which this runtime lacks"))
    }

    @Test func aRuntimeWithoutTheREPLExtensionRefusesASession() async {
        let result = await ScriptRunner.run(.repl, extensions: [.web])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("this runtime has no REPL"), "\(result.stderr)")
    }

    @Test func documentAndWindowFollowTheCordovaSwitch() async {
        let script = "console.log(typeof document, typeof window, typeof cordova.exec)"
        let off = await ScriptRunner.run(script)
        let on = await ScriptRunner.run(script, extensionSettings: ["cordova": true])
        #expect(off.lines == ["undefined undefined function"], "\(off.stderr)")
        #expect(on.lines == ["object object function"], "\(on.stderr)")
    }

    @Test func aPrivateActionIsRefusedToScriptsAndServesThePluginsOwnJavaScript() async {
        let result = await ScriptRunner.run(
            """
            try { bridge.execSync("Glue", "secret", [1]); } catch (e) { console.log("execSync:", e.code); }
            bridge.plugins.Glue.secret(1).catch((e) => console.log("plugins:", e.code));
            bridge.call("Glue", "secret", 1).catch((e) => console.log("call:", e.code, e.message));
            cordova.exec(null, (e) => console.log("exec:", e.code, e.resCode), "Glue", "secret", [1]);
            console.log(bridge.execSync("Glue", "open", [1]), Glue.viaHandle());
            Glue.viaCall().then((n) => console.log("handle call:", n));
            """, plugins: [GluePlugin()])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(
            result.lines.sorted() == [
                "2 40", "call: ACTION_NOT_FOUND Plugin 'Glue' has no action 'secret'.", "exec: ACTION_NOT_FOUND 4003",
                "execSync: ACTION_NOT_FOUND", "handle call: 2", "plugins: ACTION_NOT_FOUND",
            ])
    }

    @Test func aPrivateActionIsLeftOutOfTheTypingsButTheTestKitCallsIt() async throws {
        let host = BridgeHost()
        try host.register(GluePlugin())
        let typings = try #require(host.plugins.first).typings
        #expect(typings.contains("open: { kind: \"sync\""))
        #expect(!typings.contains("secret"))
        let tester = try await PluginTester(GluePlugin())
        #expect(try tester.callSync("secret", 4) == 8)
    }
}
