import JSBridgeCore
import JSBridgeTesting
import Testing

/// Every core error code of DESIGN §3.2, reached from JavaScript.
@Suite struct BridgeErrorTests {
    @Test func pluginNotFound() async {
        let result = await runScript(
            #"""
            bridge.call("Nope", "x").catch((e) => console.log(e instanceof BridgeError, e instanceof Error, e.name, e.code, e.plugin, e.action));
            try { bridge.execSync("Nope", "x", []); } catch (e) { console.log("sync", e.code); }
            """#)
        #expect(result.lines == ["sync PLUGIN_NOT_FOUND", "true true BridgeError PLUGIN_NOT_FOUND Nope x"])
    }

    @Test func actionNotFoundIncludingWrongKinds() async {
        let result = await runScript(
            #"""
            bridge.call("Echo", "nope").catch((e) => console.log("unknown", e.code));
            try { bridge.execSync("Echo", "echo", [{}]); } catch (e) { console.log("execSync-async", e.code, e.message); }
            bridge.call("Echo", "ticks", { count: 1 }).catch((e) => console.log("call-stream", e.code));
            bridge.subscribe("Echo", "echo", {}, () => {}, (e) => console.log("subscribe-async", e.code));
            """#)
        #expect(
            result.lines.contains(
                "execSync-async ACTION_NOT_FOUND Plugin 'Echo' has no synchronous action 'echo': it is an async action."
            ))
        #expect(
            Set(result.lines).isSuperset(of: [
                "unknown ACTION_NOT_FOUND", "call-stream ACTION_NOT_FOUND", "subscribe-async ACTION_NOT_FOUND",
            ]))
        #expect(result.lines.count == 4)
    }

    @Test func invalidArgumentHasPathsForWrongTypes() async {
        let result = await runScript(
            #"""
            try { bridge.execSync("Echo", "ping", ["seven"]); } catch (e) { console.log(e.code, JSON.stringify(e.data.issues)); }
            bridge.call("Probe", "hotel", { rooms: [{ name: "a", price: 1 }, { name: "b", price: "cheap" }] })
              .catch((e) => console.log(e.code, e.data.issues[0].path, e.data.issues[0].message));
            bridge.call("Probe", "hotel", { rooms: [{ price: 1 }] }).catch((e) => console.log(e.data.issues[0].path));
            bridge.call("Echo", "ticks", { count: -1 }).catch(() => {});
            bridge.subscribe("Echo", "ticks", { count: -1 }, () => {}, (e) => console.log("ticks", e.code, e.data.issues[0].path));
            """#)
        #expect(
            result.lines.first
                == #"INVALID_ARGUMENT [{"path":"","message":"expected a number, got a string (\"seven\")"}]"#)
        #expect(result.lines.contains(#"INVALID_ARGUMENT rooms[1].price expected a number, got a string ("cheap")"#))
        #expect(result.lines.contains("rooms[0].name"))
        #expect(result.lines.contains("ticks INVALID_ARGUMENT count"))
    }

    @Test func unserializableArgumentsAreRejectedWithPaths() async {
        let result = await runScript(
            #"""
            const cyclic = { a: { b: {} } }; cyclic.a.b.back = cyclic;
            const cases = { fn: { f: [1, () => 1] }, cyclic, big: { n: 10n }, sym: { s: Symbol("x") } };
            for (const [name, args] of Object.entries(cases)) {
              bridge.call("Echo", "echo", args).catch((e) => console.log(name, e.code, e.data.issues[0].path));
            }
            try { bridge.execSync("Echo", "ping", [{ f() {} }]); } catch (e) { console.log("sync", e.code, e.data.issues[0].path); }
            """#)
        #expect(
            result.lines == [
                "sync INVALID_ARGUMENT f", "fn INVALID_ARGUMENT f[1]", "cyclic INVALID_ARGUMENT a.b.back",
                "big INVALID_ARGUMENT n", "sym INVALID_ARGUMENT s",
            ])
    }

    @Test func permissionDeniedNamesTheFlag() async {
        let denied = await runScript(
            #"bridge.call("Probe", "needsNet", "example.com").catch((e) => console.log(e.code, e.message))"#)
        #expect(
            denied.lines == [
                "PERMISSION_DENIED Network access to example.com:443 was not granted; run with --allow-net=example.com:443 (or --allow-net)."
            ])
        let options = BridgeHost.Options.testing(permissions: Permissions(["net": .scopes(["example.com"])]))
        let granted = await runScript(
            #"bridge.call("Probe", "needsNet", "example.com").then(console.log)"#, options: options)
        #expect(granted.lines == ["connected to example.com"])
    }

    @Test func pluginErrorForSwiftErrorsWithoutACode() async {
        let result = await runScript(
            #"bridge.call("Probe", "throwPlain").catch((e) => console.log(e.code, typeof e.message, e.data.type.endsWith(".CocoaError")))"#
        )
        #expect(result.lines == ["PLUGIN_ERROR string true"])
    }

    @Test func customCodesAndDataFromSyncAndAsyncActions() async {
        let result = await runScript(
            #"""
            try { bridge.execSync("Probe", "syncThrow"); } catch (e) { console.log(e.code, e.message, e.data.why); }
            bridge.call("Echo", "fail", { code: "OUT_OF_COFFEE", message: "refill" }).catch((e) => console.log(e.code, e.message));
            """#)
        #expect(result.lines == ["SYNC_BAD sync failed test", "OUT_OF_COFFEE refill"])
    }

    @Test func cancelledBySignalReachesSwift() async {
        let log = ProbePlugin.Log()
        let result = await runScript(
            #"""
            const controller = new AbortController();
            bridge.call("Probe", "hang", {}, { signal: controller.signal }).catch((e) => {
              console.log(e.code, bridge.pendingCalls);
              \#(Self.untilCancellationReachedSwift)
            });
            setTimeout(() => controller.abort(), 10);
            bridge.call("Echo", "echo", {}, { signal: AbortSignal.abort() }).catch((e) => console.log("pre-aborted", e.code));
            """#, log: log)
        #expect(result.lines == ["pre-aborted CANCELLED", "CANCELLED 0"])
        #expect(log.all.contains("hang cancelled"))
    }

    @Test func timeoutEndsTheCallAndCancelsTheTask() async {
        let log = ProbePlugin.Log()
        let result = await runScript(
            #"""
            bridge.call("Probe", "hang", {}, { timeout: 30 }).catch((e) => {
              console.log(e.code, e.message);
              \#(Self.untilCancellationReachedSwift)
            });
            """#, log: log)
        #expect(result.lines == ["TIMEOUT Probe.hang did not finish within 30 ms."])
        #expect(result.exitCode == 0)
        #expect(log.all.contains("hang cancelled"))
    }

    /// Keeps the script alive until `Probe.hang` saw its cancellation. The call settles in JS at once; its
    /// Swift task may start later (the pool is shared with the other tests), and once nothing is pending the
    /// runtime ends and its plugins go, so the task would find its plugin gone instead of running.
    static let untilCancellationReachedSwift = """
        bridge.call("Probe", "logged", "hang cancelled");
        """

    @Test func droppedWhenThePluginReleasesTheCallUnanswered() async {
        let result = await runScript(#"bridge.call("Probe", "dropReply").catch((e) => console.log(e.code, e.message))"#)
        #expect(result.lines.count == 1)
        #expect(result.lines.first?.hasPrefix("DROPPED Probe.dropReply released call") == true)
    }

    @Test func answeringTwiceIsReportedAndIgnored() async {
        let result = await runScript(#"bridge.call("Probe", "answerTwice").then((v) => console.log(v))"#)
        #expect(result.lines == ["first"])
        #expect(result.stderr.contains("answered call 1 more than once; the extra answer was ignored"))
        #expect(result.exitCode == 0)
    }

    @Test func aCallbackThatThrowsIsAnUncaughtError() async {
        let result = await runScript(
            #"""
            bridge.exec(() => {
              setTimeout(() => console.log("never"), 0);
              throw new Error("callback broke");
            }, null, "Echo", "echo", [{}]);
            """#)
        #expect(result.exitCode == 1)
        #expect(result.uncaughtErrors.count == 1)
        #expect(result.stderr.contains("Uncaught Error: callback broke"))
        #expect(!result.stdout.contains("never"))
    }

    /// Once the Cordova layer has loaded, a throwing exec callback is Cordova's callback error: logged,
    /// `cordovacallbackerror` fired, and the run goes on (docs/cordova.md, "Nothing silent").
    @Test func aCallbackThatThrowsUnderCordovaIsLoggedAndTheRunGoesOn() async {
        let result = await runScript(
            #"""
            cordova.exec(() => {
              setTimeout(() => console.log("later"), 0);
              throw new Error("callback broke");
            }, null, "Echo", "echo", [{}]);
            """#)
        #expect(result.exitCode == 0)
        #expect(result.uncaughtErrors.isEmpty)
        #expect(result.stderr.contains("Error in Success callbackId: Echo1 : Error: callback broke"))
        #expect(result.lines == ["later"])
    }
}
