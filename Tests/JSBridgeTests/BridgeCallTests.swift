import EchoPlugin
import Foundation
import JSBridge
import JSBridgeCore
import JSBridgeTesting
import Testing

/// Runs `code` with Echo and a fresh Probe plugin.
func runScript(
    _ code: String, log: ProbePlugin.Log = .init(), options: BridgeHost.Options = .testing(),
    timeout: Duration = .seconds(120)  // a guard against a hang: a passing script ends long before
) async -> ScriptResult {
    await ScriptRunner.run(code, plugins: [EchoPlugin(), ProbePlugin(log: log)], options: options, timeout: timeout)
}

@Suite struct BridgeCallTests {
    @Test func execSyncReturnsTheValue() async {
        let result = await runScript(
            #"console.log(bridge.execSync("Echo", "ping", [41]), bridge.execSync("Echo", "ping", 1.5))"#)
        #expect(result.lines == ["42 2.5"])
        #expect(result.exitCode == 0)
    }

    /// Arguments whose reading throws (a getter, a Proxy trap, a `toJSON`) are `INVALID_ARGUMENT` with the
    /// path, for every kind of call: never the raw thrown value.
    @Test func argumentsThatThrowWhenReadAreInvalidArguments() async {
        let result = await runScript(
            #"""
            const report = (e) => console.log(e.code, e.data.issues[0].path, e.message.includes("threw"));
            const bad = [
              { a: { get x() { throw 5; } } },
              new Proxy({}, { ownKeys() { throw new Error("trap"); } }),
              { list: [1, { toJSON() { throw new TypeError("no"); } }] },
            ];
            (async () => {
              for (const args of bad) {
                await bridge.call("Echo", "echo", args).then(() => console.log("sent?"), report);
                try { bridge.execSync("Echo", "ping", args); console.log("sent?"); } catch (e) { report(e); }
              }
            })();
            """#)
        #expect(
            result.lines == [
                "INVALID_ARGUMENT a.x true", "INVALID_ARGUMENT a.x true", "INVALID_ARGUMENT  true",
                "INVALID_ARGUMENT  true", "INVALID_ARGUMENT list[1] true", "INVALID_ARGUMENT list[1] true",
            ], "\(result.stderr)")
    }

    /// A sync call reads a short array of primitives directly (the fast form) and anything else through
    /// `serialize`: both give what the async path, which always serializes, gives, and the same errors.
    @Test func syncArraysOfPrimitivesArriveAsSerializeWritesThem() async {
        let result = await runScript(
            #"""
            const withToJSON = ["a", "b"]; withToJSON.toJSON = () => "replaced";
            const holes = [1, , 3]; holes.length = 5;
            const cases = [
              [], ["key", "value"], ["", ""], [null, undefined, true, false], [0, -0, 1.5, -2e300, 1e21],
              [NaN, Infinity, -Infinity], ["\uD800", "a\uDC00b", "\uD83D\uDE00", "\uFFFF0041", "x\u0000y"],
              ["é日本🎉", "v".repeat(100000)], holes, withToJSON, [1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 8, 9],
              [["nested"]], [{ a: 1 }], new Proxy(["p", 1], {}),
            ];
            (async () => {
              for (const args of cases) {
                const sync = JSON.stringify(bridge.execSync("Probe", "echoSync", [args]));
                const plain = JSON.stringify(await bridge.call("Echo", "echo", args));
                console.log(sync === plain ? "same" : `differs: ${sync} vs ${plain}`);
              }
              const inherited = () => "inherited";
              Array.prototype.toJSON = inherited;
              const viaProto = JSON.stringify(bridge.execSync("Probe", "echoSync", [["a"]]));
              delete Array.prototype.toJSON;
              console.log(viaProto);
              for (const bad of [["ok", () => 1], ["ok", Symbol("s")], ["ok", 1n],
                                 Object.defineProperty(["a"], 0, { get() { throw new Error("getter"); } })]) {
                try { bridge.execSync("Probe", "echoSync", [bad]); console.log("sent?"); }
                catch (e) { console.log(e.code, e.data.issues[0].path); }
              }
            })();
            """#)
        #expect(result.lines.prefix(15) == ArraySlice(repeating: "same", count: 15), "\(result.stderr)")
        #expect(
            Array(result.lines.dropFirst(15)) == [
                "\"inherited\"", "INVALID_ARGUMENT [1]", "INVALID_ARGUMENT [1]", "INVALID_ARGUMENT [1]",
                "INVALID_ARGUMENT [0]",
            ], "\(result.lines) \(result.stderr)")
    }

    /// The runtime's JavaScript uses the built-ins as they were at start-up: a script that replaces
    /// `JSON.parse`, `Map.prototype.get`, `Array.prototype.push`, `Function.prototype.call`… still gets its
    /// calls, streams, events and timers.
    @Test func replacedBuiltInsDoNotBreakCallsStreamsOrTimers() async {
        let result = await runScript(
            #"""
            const saved = [];
            const replace = (object, key, value) => { saved[saved.length] = [object, key, object[key]]; object[key] = value; };
            const results = [];
            const record = (text) => {
              results[results.length] = text;
              if (results.length < 7) return;
              for (const [object, key, value] of saved) object[key] = value;
              console.log(results.sort().join(","));
            };
            const broken = () => { throw new Error("replaced"); };
            for (const [object, keys] of [
              [JSON, ["parse", "stringify"]], [Object, ["keys", "entries", "create", "freeze", "getPrototypeOf"]],
              [Array, ["isArray"]], [Array.prototype, ["push", "pop", "join", "map", "includes"]],
              [Map.prototype, ["get", "set", "has", "delete"]], [Set.prototype, ["add", "delete"]],
              [WeakMap.prototype, ["get", "set"]], [Function.prototype, ["call", "apply"]],
              [Promise, ["resolve", "reject"]], [Promise.prototype, ["finally"]],
            ]) {
              for (const key of keys) replace(object, key, broken);
            }
            bridge.call("Echo", "echo", { a: [1, "x"] }).then((v) => record("call " + v.a[1]));
            bridge.call("Echo", "fail", { code: "E1", message: "m" }).catch((e) => record("fail " + e.code));
            record("sync " + bridge.execSync("Echo", "ping", 1));
            bridge.subscribe("Echo", "ticks", { count: 2, intervalMs: 1 }, (v) => record("tick " + v)).done
              .then(() => record("done"));
            setTimeout(() => record("timer"), 5);
            """#)
        #expect(result.lines == ["call x,done,fail E1,sync 2,tick 0,tick 1,timer"], "\(result.stderr)")
        #expect(result.exitCode == 0)
    }

    /// The console and inspector load after the script has run, so they too must use the captured
    /// built-ins: the same output with the common prototype methods replaced as without.
    @Test func replacedBuiltInsDoNotChangeTheConsolesOutput() async {
        let values = #"""
            const values = { a: [1, "x", { b: 2 }], m: new Map([[1, 2]]), s: new Set(["q"]), f() {}, d: new Date(0) };
            const error = new Error("boom", { cause: new RangeError("inner") });
            const list = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
            """#
        let show = #"""
            console.log(values, list, new Uint8Array(2).buffer, "%s=%d", "n", 5);
            console.log("%s=%d", "n", 5, error);
            console.table([{ a: 1 }, { b: 2 }]);
            console.group("g");
            console.log("in\ngroup", Symbol("t"), /re/g);
            console.groupEnd();
            """#
        let plain = await runScript(values + show)
        let replaced = await runScript(
            values
                + #"""
                const broken = () => { throw new Error("replaced"); };
                for (const [object, keys] of [
                  [Object, ["keys", "getOwnPropertyNames", "getOwnPropertySymbols", "getPrototypeOf", "assign", "is"]],
                  [Object.prototype, ["toString", "hasOwnProperty", "propertyIsEnumerable"]], [Array, ["isArray", "from"]],
                  [Array.prototype, ["push", "pop", "join", "map", "filter", "includes", "slice", "splice", "concat"]],
                  [String.prototype, ["slice", "split", "replace", "replaceAll", "padStart", "padEnd", "repeat", "includes"]],
                  [Map.prototype, ["entries", "get", "set"]], [Set.prototype, ["values", "has", "add"]], [JSON, ["stringify"]],
                  [Math, ["max", "min", "floor"]], [RegExp.prototype, ["exec", "test", "toString"]],
                  [Number.prototype, ["toString", "toFixed"]], [Function.prototype, ["toString"]],
                ]) {
                  for (const key of keys) object[key] = broken;
                }
                Object.defineProperty(Map.prototype, "size", { get: broken });
                """# + show)
        #expect(plain.exitCode == 0 && replaced.exitCode == 0, "\(replaced.stderr)")
        #expect(plain.lines.count > 10)
        #expect(replaced.lines == plain.lines, "\(replaced.stderr)")
    }

    /// The runtime files loaded on first use (events, URL, URLPattern, encodings, Blob and FormData, streams,
    /// structured clone, WebAssembly's promises, the Node modules and Node's error constructors) load after the
    /// script has replaced the common built-ins, and work the same.
    @Test func lazilyLoadedRuntimeFilesUseTheCapturedBuiltIns() async {
        let checks = #"""
            const results = [];
            const check = async (name, f) => {
              try { results[results.length] = `${name} ${await f()}`; } catch (e) { results[results.length] = `${name} threw ${e?.message}`; }
            };
            (async () => {
              await check("events", () => { const t = new EventTarget(); let n = 0; t.addEventListener("x", () => n++); t.dispatchEvent(new Event("x")); const c = new AbortController(); c.abort(); return `${n} ${c.signal.aborted}`; });
              await check("url", () => { const u = new URL("HTTPS://Example.com:443/a/../b?x=1#h"); u.searchParams.append("y", "ü"); return u.href; });
              await check("ipv4", () => new URL("http://0x7f.1/").host);
              await check("urlpattern", () => { const p = new URLPattern("https://example.com/books/:id(\\d+)"); return `${p.exec("https://example.com/books/12").pathname.groups.id} ${p.pathname} ${p.test({ pathname: "/books/x" })}`; });
              await check("encoding", () => `${new TextDecoder("utf-8").decode(new TextEncoder().encode("héllo"))} ${btoa("ab")}`);
              await check("blob", () => new Blob(["ab", new Uint8Array([99])]).text());
              await check("formData", () => { const f = new FormData(); f.append("a", "1"); f.append("f", new Blob(["x"]), "x.txt"); return `${f.get("a")} ${f.get("f").name}`; });
              await check("streams", async () => { const r = new ReadableStream({ start(c) { c.enqueue("a"); c.enqueue("b"); c.close(); } }); let s = ""; for await (const v of r) s += v; return s; });
              await check("structuredClone", () => structuredClone({ a: [1, { b: 2 }] }).a[1].b);
              await check("node:events", () => { const e = new (require("events"))(); let n = 0; e.once("a", () => n++); e.emit("a"); e.emit("a"); return n; });
              await check("node:buffer", () => { const B = require("buffer").Buffer; return `${B.from("hi").toString("hex")} ${B.from("6869", "hex").toString("latin1")} ${B.from("é", "latin1")[0]}`; });
              await check("node:path", () => require("path").relative("/a/b/c", "/a/d"));
              await check("node:util", () => require("util").format("%s=%d %j", "a", 1, { b: [2] }));
              await check("node:url", () => require("url").parse("http://u@h:1/p?q=1").port);
              await check("node:stream", async () => { const { Readable, Transform, Writable, pipeline } = require("stream"); let out = ""; await new Promise((resolve, reject) => pipeline(Readable.from(["a", "b"]), new Transform({ objectMode: true, transform(c, e, cb) { cb(null, c + c); } }), new Writable({ objectMode: true, write(c, e, cb) { out += c; cb(); } }), (err) => err ? reject(err) : resolve())); return out; });
              await check("node:stream bytes", async () => { const { PassThrough } = require("stream"); const p = new PassThrough({ highWaterMark: 1 }); p.setEncoding("utf8"); let text = ""; p.on("data", (c) => { text += c; }); const ok = p.write("x"); p.end("yz"); await new Promise((r) => p.on("end", r)); return `${text} ${ok}`; });
              await check("node:readline", async () => { const rl = require("readline").createInterface({ input: require("stream").Readable.from(["a\nb", "\nc"]) }); let lines = ""; for await (const l of rl) lines += l + ";"; return lines; });
              await check("node:zlib", async () => { const z = require("zlib"); const back = await new Promise((r, j) => z.gunzip(z.gzipSync("abc"), (e, b) => e ? j(e) : r(b))); const s = z.createInflate(); let out = ""; s.on("data", (c) => { out += c; }); s.end(z.deflateSync("streamed")); await new Promise((r) => s.on("end", r)); return `${back} ${out} ${z.crc32("x")}`; });
              await check("node:vm", () => { const vm = require("vm"); const c = vm.createContext({ n: 1 }); vm.runInContext("var m = n + 1; n = 5", c); return `${c.m} ${c.n} ${vm.runInThisContext("typeof require")} ${vm.compileFunction("return a * 2", ["a"])(4)}`; });
              await check("node:async_hooks", () => { const als = new (require("async_hooks").AsyncLocalStorage)(); return new Promise((r) => als.run(7, () => setTimeout(() => r(als.getStore()), 1))); });
              await check("errors", () => { const o = {}; Error.captureStackTrace(o); const e = new TypeError("t"); return `${o.stack.substring(0, 5)} ${e.stack.substring(0, 12)} ${require("util").parseArgs({ args: ["-a", "--b=x"], options: { a: { type: "boolean", short: "a" }, b: { type: "string" } } }).values.b}`; });
              await check("timers", () => new Promise((resolve) => setTimeout(() => resolve("fired"), 1)));
              await check("wasm", async () => { const m = await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])); const i = await WebAssembly.instantiate(m); return `${m instanceof WebAssembly.Module} ${i instanceof WebAssembly.Instance}`; });
              await check("call", async () => (await bridge.call("Echo", "echo", { v: "é" })).v);
              restoreBuiltIns();
              console.log(results.join("\n"));
            })();
            """#
        let plain = await runScript(checks.replacingOccurrences(of: "restoreBuiltIns();", with: ""))
        let replaced = await runScript(ScriptRunner.replacingBuiltIns + checks)
        #expect(plain.lines.count == 24 && !plain.stdout.contains("threw"), "\(plain.stdout) \(plain.stderr)")
        #expect(replaced.lines == plain.lines, "\(replaced.stderr)")
    }

    @Test func callRoundTripsNestedJSONWithUnicode() async {
        let result = await runScript(
            #"""
            const value = { s: "héllo 🌍 \u0000 \"q\"", n: [1, 2.5, -0, 1e300, null, true], o: { deep: { x: [] } } };
            bridge.call("Echo", "echo", value).then((back) => console.log(JSON.stringify(back) === JSON.stringify(value)));
            """#)
        #expect(result.lines == ["true"])
    }

    @Test func pluginProxyAndCordovaExec() async {
        let result = await runScript(
            #"""
            bridge.plugins.Echo.echo({ a: 1 }).then((v) => console.log("proxy", v.a));
            cordova.exec((v) => console.log("exec", v.b), (e) => console.log("bad", e), "Echo", "echo", [{ b: 2 }]);
            cordova.exec(null, (e) => console.log("fail", e.code, e.plugin, e.action), "Echo", "fail", [{ code: "MINE" }]);
            bridge.plugins.Nope.thing().catch((e) => console.log("proxy-missing", e.code));
            console.log("has", "Echo" in bridge.plugins, Object.keys(bridge.plugins).includes("Probe"));
            """#)
        #expect(result.lines.first == "has true true")
        #expect(
            Set(result.lines.dropFirst()) == [
                "proxy 1", "exec 2", "fail MINE Echo fail", "proxy-missing PLUGIN_NOT_FOUND",
            ])
    }

    @Test func streamThroughExecCallsSuccessPerValue() async {
        let result = await runScript(
            #"""
            const got = [];
            cordova.exec((v) => got.push(v), (e) => console.log(e), "Echo", "ticks", [{ count: 4 }]);
            const poll = setInterval(() => { if (got.length >= 4) { clearInterval(poll); console.log(got.join(",")); } }, 5);
            """#)
        #expect(result.lines == ["0,1,2,3"])
    }

    @Test func subscribeDeliversValuesAndCancelReachesSwift() async {
        let log = ProbePlugin.Log()
        let result = await runScript(
            #"""
            const seen = [];
            const sub = bridge.subscribe("Probe", "forever", {}, (v) => {
              seen.push(v);
              if (v === 2) sub.cancel();
            });
            sub.done.then(() => console.log("done", seen.join(","), typeof sub.id));
            """#, log: log)
        #expect(result.lines == ["done 0,1,2 number"])
        // The cancellation reached the Swift task (it may finish after the script ended).
        #expect(await eventually { log.all.contains("forever cancelled") })
    }

    @Test func subscribeFinishesNormally() async {
        let result = await runScript(
            #"""
            const seen = [];
            bridge.subscribe("Echo", "ticks", { count: 3, intervalMs: 1 }, (v) => seen.push(v)).done.then(() => console.log(seen));
            """#)
        #expect(result.lines == ["[ 0, 1, 2 ]"])
    }

    @Test func eventsReachListenersUntilRemoved() async {
        let result = await runScript(
            #"""
            const seen = [];
            const handle = bridge.on("Probe", "tick", (p) => { seen.push(p.i); if (p.i === 1) handle.remove(); });
            bridge.call("Probe", "emit", 3).then(async (n) => {
              await new Promise((r) => setTimeout(r, 20));
              console.log(n, seen.join(","));
            });
            """#)
        #expect(result.lines == ["3 0,1"])
    }

    @Test func readyResolvesWhenPluginsAreSetUp() async {
        let result = await runScript(#"bridge.ready.then(() => console.log("ready"))"#)
        #expect(result.lines == ["ready"])
    }

    @Test func setUpFailureRejectsReadyAndTheCalls() async {
        let result = await ScriptRunner.run(
            #"""
            bridge.ready.catch((e) => console.log("ready", e.code));
            bridge.call("Broken", "ok").catch((e) => console.log("call", e.code, e.message));
            """#, plugins: [BrokenPlugin()])
        // The sync call fails at once (its set-up ran on the spot); `ready` settles after the set-up it awaits.
        #expect(
            result.lines.sorted() == [
                "call BROKEN_SETUP Plugin 'Broken' failed to set up: the disk is on fire", "ready BROKEN_SETUP",
            ])
    }

    /// A set-up that threw is run again by the next call: the first call fails, the second works.
    @Test func aFailedSetUpIsTriedAgainByTheNextCall() async {
        let result = await ScriptRunner.run(
            #"""
            bridge.call("Flaky", "ok").then(
              (v) => console.log("first", v), (e) => console.log("first", e.code)
            ).then(() => bridge.call("Flaky", "ok")).then((v) => console.log("second", v));
            """#, plugins: [FlakySetUpPlugin()])
        #expect(result.lines == ["first FLAKY_SETUP", "second 2"], "\(result.stderr)")
    }

    @Test func callbackTableIsEmptyAfterManyCalls() async {
        let result = await runScript(
            #"""
            (async () => {
              for (let round = 0; round < 20; round++) {
                const batch = [];
                for (let i = 0; i < 1000; i++) batch.push(bridge.call("Echo", "echo", { i }));
                const values = await Promise.all(batch);
                if (values[999].i !== 999) throw new Error("wrong answer");
              }
              const sub = bridge.subscribe("Echo", "ticks", { count: 1 }, () => {});
              await sub.done;
              console.log(bridge.pendingCalls, sub.id > 20000);
            })();
            """#)
        #expect(result.lines == ["0 true"], "\(result.stderr)")
    }

    @Test func serialExecutorRunsCallsOneAtATimeInOrder() async {
        let log = ProbePlugin.Log()
        let result = await runScript(
            #"""
            Promise.all([
              bridge.call("Probe", "serialDelay", { ms: 30, tag: "a" }),
              bridge.call("Probe", "serialDelay", { ms: 1, tag: "b" }),
              bridge.call("Probe", "serialDelay", { ms: 1, tag: "c" }),
            ]).then((tags) => console.log(tags.join("")));
            """#, log: log)
        #expect(result.lines == ["abc"])
        #expect(log.all == ["start a", "end a", "start b", "end b", "start c", "end c", "shutdown"])
    }

    /// A custom executor hears that each call it was asked for has ended — answered or failed, even when the
    /// arguments did not decode.
    @Test func customExecutorHearsEveryCallEnd() async throws {
        let log = ProbePlugin.lentLog
        let probe = try await PluginTester(ProbePlugin(log: ProbePlugin.Log()))
        #expect(try await probe.call("lent", 21) == 42)
        await #expect(throws: BridgeError.self) { try await probe.call("lent", "not a number") }
        // `ended` runs after the answer is delivered: wait for it.
        await log.wait { $0.filter { $0.hasPrefix("ended") }.count >= 2 }
        #expect(log.all == ["lend", "run 21", "ended", "lend", "ended"])
        await probe.shutdown()
    }

    /// The JS thread is an event loop while the script runs: an action lent that loop runs on the JS thread,
    /// and what it awaits on the loop (a timer here) wakes the loop and answers the script.
    @Test func theJSThreadIsAnEventLoop() async {
        let result = await runScript(
            #"""
            const js = bridge.execSync("Probe", "threadID", []);
            Promise.all([bridge.call("Probe", "onJSThread", 20), bridge.call("Probe", "onJSThread", 1)])
              .then((answers) => answers.forEach((a) => console.log(a.ms, a.thread === js)));
            """#, log: ProbePlugin.Log())
        #expect(result.lines == ["20 true", "1 true"], "\(result.stderr)")
    }

    @Test func shutdownIsAwaitedBeforeTheRunEnds() async {
        let log = ProbePlugin.Log()
        let result = await runScript(#"bridge.execSync("Probe", "threadID", []); process.exit(0)"#, log: log)
        #expect(result.exitCode == 0)
        #expect(log.all == ["shutdown"])
    }

    /// Plugins are set up on first use: a script that never calls one costs it nothing, not even a shutdown.
    @Test func unusedPluginsAreNeitherSetUpNorShutDown() async {
        let log = ProbePlugin.Log()
        let result = await ScriptRunner.run(
            #"console.log(typeof bridge.plugins.Probe, typeof bridge.plugins.Broken)"#,
            plugins: [ProbePlugin(log: log), BrokenPlugin()])
        #expect(result.lines == ["object object"])
        #expect(result.exitCode == 0)
        #expect(log.all == [])
    }

    @Test func configurationReachesThePlugin() async {
        let options = BridgeHost.Options.testing(configuration: ["Probe": ["mode": "fast", "level": 3]])
        let result = await runScript(
            #"console.log(JSON.stringify(bridge.execSync("Probe", "configuration")))"#, options: options)
        #expect(result.lines == [#"{"mode":"fast","level":3}"#])
    }

    @Test func fiftyMegabyteStringArgument() async {
        let result = await runScript(
            #"""
            const big = "x".repeat(50 * 1024 * 1024);
            bridge.call("Probe", "length", big).then((n) => console.log(n));
            """#, timeout: .seconds(120))  // a debug build on a loaded machine copies 50 MB slowly
        #expect(result.lines == ["\(50 * 1024 * 1024)"])
        #expect(result.exitCode == 0)
    }
}
