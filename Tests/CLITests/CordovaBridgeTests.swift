import Foundation
import Testing

// Cordova's and JSCoreBridge's behaviour that apps rely on beyond the module system (issue 33): nothing
// silent (unknown services, a `deviceready` that never fires, callbacks that throw) and JSCoreBridge's own
// surface (`window` at once, `execSync`'s result dictionary, an app's own `jscorebridge.js`). The app files are
// written here for these tests from the projects' documented protocols; none is copied.

/// The lines of `text` that are not `--trace` lines.
private func untraced(_ text: String) -> [String] {
    text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("[jsbridge]") }
}

@Suite struct CordovaNothingSilentTests {
    /// Cordova iOS's message, once per service (and per missing method), whether or not the call has a fail
    /// callback; with `--trace`, one line per such exec.
    @Test func execToAnUnknownServiceIsLoggedOnceAndTraced() async throws {
        let script = """
            cordova.exec(null, null, "Camera", "takePicture", []);
            cordova.exec(null, null, "Camera", "cleanup", []);
            cordova.exec(null, (e) => console.log("fail", e.code, e.resCode), "Camera", "getPicture", []);
            cordova.exec(null, null, "Echo", "nosuch", []);
            cordova.exec(null, null, "Echo", "nosuch", []);
            cordova.exec((v) => console.log("echo", v), null, "Echo", "echo", ["ok"]);
            """
        let result = try await CLI.run(["--trace", "-e", script])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stdout == "fail PLUGIN_NOT_FOUND 4001\necho ok\n", "\(result.summary)")
        #expect(
            untraced(result.stderr) == [
                "ERROR: Plugin 'Camera' not found, or is not a CDVPlugin. Check your plugin mapping in config.xml.",
                "ERROR: Method 'nosuch:' not defined in Plugin 'Echo'",
            ], "\(result.summary)")
        let trace = result.stderr.split(separator: "\n").filter { $0.hasPrefix("[jsbridge] exec ") }
        #expect(
            trace == [
                "[jsbridge] exec Camera.takePicture not started: PLUGIN_NOT_FOUND",
                "[jsbridge] exec Camera.cleanup not started: PLUGIN_NOT_FOUND",
                "[jsbridge] exec Camera.getPicture not started: PLUGIN_NOT_FOUND",
                "[jsbridge] exec Echo.nosuch not started: ACTION_NOT_FOUND",
                "[jsbridge] exec Echo.nosuch not started: ACTION_NOT_FOUND",
            ], "\(result.summary)")
        let quiet = try await CLI.run(["-e", script])
        #expect(!quiet.stderr.contains("[jsbridge]"), "\(quiet.summary)")
    }

    /// A plugin that waits for a service that never answers (cordova-plugin-camera without its `Camera` service):
    /// cordova-js's warning names the channels `deviceready` still waits for — after the delay while the run
    /// goes on, or when the run ends first (the warning's timer does not keep the run alive).
    @Test func devicereadyNotFiredIsReported() async throws {
        let waiting = """
            const channel = cordova.require("cordova/channel");
            channel.createSticky("onCameraReady");
            channel.waitForInitialization("onCameraReady");
            cordova.exec(() => channel.onCameraReady.fire(), null, "Camera", "takePicture", []);
            document.addEventListener("deviceready", () => console.log("deviceready"));
            """
        let plugin = "ERROR: Plugin 'Camera' not found, or is not a CDVPlugin. Check your plugin mapping in config.xml."
        // The run ends at once: the warning comes at its end.
        let ended = try await CLI.run(["--cordova", "-e", waiting])
        #expect(ended.exitCode == 0, "\(ended.summary)")
        #expect(ended.stdout == "", "\(ended.summary)")
        #expect(
            ended.stderr
                == "\(plugin)\ndeviceready has not fired before the run ended.\nChannel not fired: onCameraReady\n",
            "\(ended.summary)")
        // The run goes on past the delay (shortened here; 5 s by default): the warning comes then, once.
        let running = try await CLI.run(
            ["--cordova", "-e", waiting + "setTimeout(() => console.log('later'), 400);"],
            environment: ["JSBRIDGE_CORDOVA_READY_WARNING_MS": "50"])
        #expect(running.exitCode == 0, "\(running.summary)")
        #expect(running.stdout == "later\n", "\(running.summary)")
        #expect(
            running.stderr
                == "\(plugin)\ndeviceready has not fired after 0.05 seconds.\nChannel not fired: onCameraReady\n",
            "\(running.summary)")
        // An app whose deviceready fires hears nothing of it.
        let fine = try await CLI.run(
            ["--cordova", "-e", "document.addEventListener('deviceready', () => console.log('deviceready'));"])
        #expect(fine.stdout == "deviceready\n" && fine.stderr == "", "\(fine.summary)")
    }

    /// A success or fail callback that throws: logged, `cordovacallbackerror` fires (window's handlers, as in
    /// Cordova, and document's), and the script goes on.
    @Test func aThrowingCallbackFiresCordovacallbackerrorAndTheRunGoesOn() async throws {
        let script = """
            cordova.addWindowEventHandler("cordovacallbackerror").subscribe((e) => console.log("window:", e.message));
            let errors = 0;
            document.addEventListener("cordovacallbackerror", (e) => {
              console.log("document:", e.error.message);
              if (++errors === 2) setTimeout(() => console.log("still running"), 1);
            });
            cordova.exec(() => { throw new Error("in success"); }, null, "Echo", "echo", [1]);
            cordova.exec(null, () => { throw new Error("in fail"); }, "Echo", "fail", [{ code: "MINE" }]);
            """
        let result = try await CLI.run(["--cordova", "-e", script])
        #expect(result.exitCode == 0, "\(result.summary)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(result.summary)")
        #expect(lines.last == "still running", "\(result.summary)")
        #expect(
            Set(lines.dropLast()) == [
                "window: Error in Success callbackId: Echo1 : Error: in success", "document: in success",
                "window: Error in Error callbackId: Echo2 : Error: in fail", "document: in fail",
            ], "\(result.summary)")
        #expect(result.stderr.contains("Error in Success callbackId: Echo1 : Error: in success"), "\(result.summary)")
        #expect(result.stderr.contains("Error in Error callbackId: Echo2 : Error: in fail"), "\(result.summary)")
    }
}

@Suite struct JSCoreBridgeSurfaceTests {
    @Test func windowExistsFromTheFirstStatement() async throws {
        let app = try Project([
            "app.js": """
            window.jsCoreBridge.exec((v) => console.log("echo", v), null, "Echo", "echo", ["first"]);
            console.log(typeof window, window === globalThis, window.cordova === jsCoreBridge);
            """
        ])
        let result = try await CLI.run(["--cordova", app.path("app.js")])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stdout == "object true true\necho first\n", "\(result.summary)")
    }

    /// JSCoreBridge's execSync answers a bridge failure with its `{resCode, resMsg}` dictionary; the
    /// bridge's own execSync throws the BridgeError.
    @Test func execSyncAnswersJSCoreBridgesResultDictionary() async throws {
        let script = """
            console.log(jsCoreBridge.execSync("Echo", "ping", [1]));
            const show = (r) => console.log(JSON.stringify(Object.keys(r)), r.resCode, typeof r.resMsg);
            show(jsCoreBridge.execSync("JSCTestPlugin", "getAppVersionSync", null));
            show(jsCoreBridge.execSync("Echo", "echo", ["async"]));
            show(cordova.execSync("Echo", "ping", ["not a number"]));
            try { bridge.execSync("JSCTestPlugin", "getAppVersionSync", null); } catch (e) { console.log("throws", e.code); }
            """
        let result = try await CLI.run(["-e", script])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == """
                2
                ["resCode","resMsg"] 4001 string
                ["resCode","resMsg"] 4003 string
                ["resCode","resMsg"] INVALID_ARGUMENT string
                throws PLUGIN_NOT_FOUND

                """, "\(result.summary)")
    }

    /// A JSCoreBridge-style `jscorebridge.js` written for this test from JSCoreBridge's protocol: it replaces
    /// `window.cordova` and `window.jsCoreBridge` with its own object, sends `[callbackId, plugin, method, args]`
    /// to `jscExecuteCommand` ("EXECSYNC" for sync calls, "INVALID" without callbacks), keeps its own callback
    /// table, and gets answers through `jsCoreBridge.nativeCallback(callbackId, status, message, keepCallback)`;
    /// it fires `deviceready` itself with `document.createEvent` and `initEvent`.
    private static let ownBridge = """
        (function () {
          var nextId = 1000;
          var pending = {};
          function send(command) {
            if (typeof jscExecuteCommand === "undefined") throw new Error("no transport");
            return jscExecuteCommand(command);
          }
          var own = {
            version: "0.1.0",
            isAppsOwn: true,
            exec: function (success, fail, plugin, method, args) {
              setTimeout(function () {
                var id = "INVALID";
                if (success || fail) {
                  id = plugin + nextId++;
                  pending[id] = { success: success, fail: fail };
                }
                send([id, plugin, method, args || []]);
              }, 0);
            },
            execSync: function (plugin, method, args) { return send(["EXECSYNC", plugin, method, args || []]); },
            nativeCallback: function (id, status, message, keepCallback) {
              setTimeout(function () {
                var callback = pending[id];
                if (!callback) return;
                if (status == 0) { if (callback.success) callback.success(message); }
                else if (callback.fail) callback.fail(message);
                if (!keepCallback) delete pending[id];
              }, 0);
            },
            fireDocumentEvent: function (name) {
              setTimeout(function () {
                if (name == "deviceready" && typeof jscBridgeWillReady != "undefined") jscBridgeWillReady();
                var event = document.createEvent("Events");
                event.initEvent(name, false, false);
                document.dispatchEvent(event);
              }, 0);
            }
          };
          window.cordova = own;
          window.jsCoreBridge = own;
        })();
        """

    @Test func anAppsOwnJscorebridgeJSWorks() async throws {
        let app = try Project([
            "www/jscorebridge.js": Self.ownBridge,
            "www/index.js": """
            require("./jscorebridge.js");
            globalThis.jscBridgeWillReady = function () { console.log("will ready"); };
            document.addEventListener("deviceready", function (event) {
              console.log("deviceready", event.type, jsCoreBridge.isAppsOwn === true, cordova === jsCoreBridge);
              console.log("sync", jsCoreBridge.execSync("Echo", "ping", [41]));
              console.log("sync failure", JSON.stringify(jsCoreBridge.execSync("JSCTestPlugin", "getAppVersionSync", null)));
              jsCoreBridge.exec(function (res) { console.log("echo", JSON.stringify(res)); }, null, "Echo", "echo", [{ title: "t" }]);
              jsCoreBridge.exec(null, function (err) { console.log("fail", err.resCode, err.resMsg === err.message); },
                "JSCTestPlugin", "changeNavTitle", [{ title: "x" }]);
              jsCoreBridge.exec(null, null, "Echo", "echo", ["no callbacks"]);
              // jscorebridge.js sends an ArrayBuffer argument as {CDVType: "ArrayBuffer", data: base64}: the
              // plugin gets the bytes (Echo answers bytes as their base64 text).
              jsCoreBridge.exec(function (res) { console.log("bytes", JSON.stringify(res)); }, null, "Echo", "echo",
                [{ CDVType: "ArrayBuffer", data: "AQID" }]);
              var ticks = [];
              jsCoreBridge.exec(function (n) {
                ticks.push(n);
                if (ticks.length === 3) setTimeout(function () {
                  console.log("ticks", ticks.join(","));
                }, 30);
              }, null, "Echo", "ticks", [{ count: 3, intervalMs: 1 }]);
            }, false);
            """,
        ])
        let result = try await CLI.run(["--cordova", app.path("www/index.js")])
        #expect(result.exitCode == 0, "\(result.summary)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            Array(lines.prefix(4)) == [
                "will ready", "deviceready deviceready true true", "sync 42",
                #"sync failure {"resCode":"4001","resMsg":"No plugin named 'JSCTestPlugin' is registered."}"#,
            ], "\(result.summary)")
        #expect(
            Set(lines.dropFirst(4)) == [
                #"echo {"title":"t"}"#, "fail 4001 true", "ticks 0,1,2", #"bytes "AQID""#,
            ], "\(result.summary)")
    }
}

@Suite struct CordovaJavaScriptServicesTests {
    /// A browser-platform style proxy file (`src/browser/GreeterProxy.js`, as the Cordova CLI wraps it) answers
    /// its service in JavaScript; exec consults `cordova/exec/proxy` before the plugins.
    @Test func execProxyAnswersAServiceInJavaScript() async throws {
        let app = try Project([
            "www/plugins/cordova-plugin-greeter/src/browser/GreeterProxy.js": """
            cordova.define("cordova-plugin-greeter.GreeterProxy", function (require, exports, module) {
              module.exports = {
                hello: function (win, fail, args) { win("hello " + args[0]); },
                refuse: function (win, fail) { fail({ code: 3, message: "no" }); },
                count: function (win, fail, args) {
                  win(1, { keepCallback: true });
                  setTimeout(function () { win(2, { keepCallback: true }); win(3); }, 1);
                },
                broken: function () { throw new Error("proxy bug"); }
              };
              require("cordova/exec/proxy").add("Greeter", module.exports);
            });
            """,
            "app.js": """
            require("./www/plugins/cordova-plugin-greeter/src/browser/GreeterProxy.js");
            cordova.require("cordova-plugin-greeter.GreeterProxy");
            const exec = cordova.require("cordova/exec");
            const proxy = cordova.require("cordova/exec/proxy");
            console.log("get", typeof proxy.get("Greeter", "hello"), proxy.get("Greeter", "nope"), proxy.get("None", "x"));
            exec((v) => console.log("win", v), null, "Greeter", "hello", ["ann"]);
            exec(null, (e) => console.log("fail", JSON.stringify(e)), "Greeter", "refuse", []);
            const seen = [];
            exec((n) => {
              seen.push(n);
              if (n === 3) {
                console.log("count", seen.join(","));
                proxy.add("Echo", { echo: (win, fail, args) => win("from JS " + args[0]) });
                exec((v) => console.log("echo", v), null, "Echo", "echo", ["x"]);
                setTimeout(() => {
                  console.log("callbacks left", Object.keys(cordova.callbacks).length);
                  console.log("removed", typeof proxy.remove("Echo").echo);
                  exec((v) => console.log("echo", v), null, "Echo", "echo", ["native"]);
                }, 5);
              }
            }, null, "Greeter", "count", []);
            exec(null, null, "Greeter", "broken", []);
            """,
        ])
        let result = try await CLI.run([app.path("app.js")])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == """
                get function undefined null
                win hello ann
                fail {"code":3,"message":"no"}
                count 1,2,3
                echo from JS x
                callbacks left 0
                removed function
                echo native

                """, "\(result.summary)")
        #expect(
            result.stderr
                == "Exception calling native with command :: Greeter :: broken ::exception=Error: proxy bug\n",
            "\(result.summary)")
    }

    /// `window`'s listeners (`online`, `offline`, any window event) and the legacy `document.createEvent`.
    @Test func windowListenersAndDocumentCreateEvent() async throws {
        let script = """
            const log = (...a) => console.log(...a);
            const onOnline = (e) => log("online", e.type, e.detail);
            window.addEventListener("online", onOnline);
            addEventListener("offline", { handleEvent(e) { log("offline", e.type); } });
            cordova.fireWindowEvent("online", { detail: 1 });
            window.dispatchEvent(new Event("offline"));
            window.removeEventListener("online", onOnline);
            cordova.fireWindowEvent("online", { detail: 2 });
            log("window's own", window.addEventListener === addEventListener, typeof dispatchEvent);
            const event = document.createEvent("Events");
            event.initEvent("myevent", false, false);
            document.addEventListener("myevent", (e) => log("document", e.type, e === event));
            log("dispatched", document.dispatchEvent(event));
            """
        let result = try await CLI.run(["--cordova", "-e", script])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == """
                online online 1
                offline offline
                window's own true function
                document myevent true
                dispatched true

                """, "\(result.summary)")
        let off = try await CLI.run(["-e", "console.log(typeof addEventListener, typeof cordova.exec)"])
        #expect(off.stdout == "undefined function\n", "\(off.summary)")
    }
}

@Suite struct CordovaPluginListTests {
    /// `module.exports` of a Cordova-CLI-wrapped file: `cordova.define(id, function (require, exports, module) {…})`.
    private static func wrap(_ id: String, _ body: String) -> String {
        "console.log(\"file \(id)\");\ncordova.define(\"\(id)\", function (require, exports, module) {\n\(body)\n});\n"
    }

    /// A `www/` laid out as the Cordova CLI prepares it; the app requires only `cordova_plugins.js`: each entry's
    /// file is loaded relative to it, in the list's order; a file that is missing or throws is logged and left
    /// out, and start-up goes on to `deviceready`. `cordova.plugins` is a plain namespace that clobbers write into.
    @Test func thePluginListLoadsItsFilesInOrder() async throws {
        let app = try Project([
            "www/cordova_plugins.js": """
            cordova.define("cordova/plugin_list", function (require, exports, module) {
              module.exports = [
                { "id": "cordova-plugin-first.first", "file": "plugins/cordova-plugin-first/www/first.js",
                  "pluginId": "cordova-plugin-first", "clobbers": ["first"] },
                { "id": "cordova-plugin-missing.missing", "file": "plugins/cordova-plugin-missing/www/missing.js",
                  "pluginId": "cordova-plugin-missing", "clobbers": ["missing"] },
                { "id": "cordova-plugin-broken.broken", "file": "plugins/cordova-plugin-broken/www/broken.js",
                  "pluginId": "cordova-plugin-broken", "clobbers": ["broken"] },
                { "id": "cordova-plugin-greeter.greeter", "file": "plugins/cordova-plugin-greeter/www/greeter.js",
                  "pluginId": "cordova-plugin-greeter", "clobbers": ["cordova.plugins.greeter"] },
                { "id": "cordova-plugin-greeter.extra", "file": "plugins/cordova-plugin-greeter/www/extra.js",
                  "pluginId": "cordova-plugin-greeter", "merges": ["cordova.plugins.greeter"], "runs": true }
              ];
              module.exports.metadata = { "cordova-plugin-first": "1.0.0" };
            });
            """,
            "www/plugins/cordova-plugin-first/www/first.js": Self.wrap(
                "cordova-plugin-first.first",
                """
                console.log("defined first");
                var channel = require("cordova/channel");
                channel.createSticky("onFirstReady");
                channel.waitForInitialization("onFirstReady");
                var first = { value: null };
                channel.onCordovaReady.subscribe(function () {
                  require("cordova/exec")(function (v) { first.value = v; channel.onFirstReady.fire(); }, null,
                    "Echo", "echo", ["from native"]);
                });
                module.exports = first;
                """),
            "www/plugins/cordova-plugin-broken/www/broken.js":
                "console.log('defined broken'); throw new Error('bad plugin file');\n",
            "www/plugins/cordova-plugin-greeter/www/greeter.js": Self.wrap(
                "cordova-plugin-greeter.greeter",
                "console.log('defined greeter'); module.exports = { hello: function () { return 'hello'; } };"),
            "www/plugins/cordova-plugin-greeter/www/extra.js": Self.wrap(
                "cordova-plugin-greeter.extra", "console.log('ran extra'); module.exports = { extra: true };"),
            "www/index.js": """
            require("./cordova_plugins.js");
            document.addEventListener("deviceready", function () {
              console.log("deviceready", first.value, typeof missing, typeof broken);
              console.log("greeter", cordova.plugins.greeter.hello(), cordova.plugins.greeter.extra);
              console.log("plain", Object.keys(cordova.plugins).join(","), typeof cordova.plugins.Echo,
                typeof bridge.plugins.Echo.echo);
            });
            """,
        ])
        let result = try await CLI.run(["--cordova", app.path("www/index.js")])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == """
                file cordova-plugin-first.first
                defined broken
                file cordova-plugin-greeter.greeter
                file cordova-plugin-greeter.extra
                defined first
                defined greeter
                ran extra
                deviceready from native undefined undefined
                greeter hello true
                plain greeter undefined function

                """, "\(result.summary)")
        let www = app.path("www")
        let stderrLines: [String] = result.stderr.split(separator: "\n").map(String.init)
        let summary = Comment(rawValue: result.summary)
        let missing = "Failed to load plugin file " + www + "/plugins/cordova-plugin-missing/www/missing.js"
        let broken = "Failed to load plugin file " + www + "/plugins/cordova-plugin-broken/www/broken.js"
        #expect(stderrLines.count == 2, summary)
        #expect(
            (stderrLines.first ?? "").hasPrefix(
                missing + " for module cordova-plugin-missing.missing (cordova_plugins.js): "),
            summary)
        #expect(
            (stderrLines.last ?? "") == broken
                + " for module cordova-plugin-broken.broken (cordova_plugins.js): bad plugin file",
            summary)
    }
}

@Suite struct CordovaInternalsTests {
    /// cordova-js's callback table: `callbackFromNative` (success only with status OK, fail, keepCallback),
    /// `callbackSuccess`/`callbackError`, and a throwing callback's `cordovacallbackerror` and rethrow.
    @Test func callbacksAndCallbackFromNative() async throws {
        let script = """
            const log = [];
            const start = cordova.callbackId;
            console.log("callbackId", typeof start, Number.isInteger(start));
            cordova.callbacks["A1"] = { success: (...a) => log.push("success " + a.join("+")), fail: (e) => log.push("fail " + e) };
            cordova.callbackFromNative("A1", true, cordova.callbackStatus.OK, [1, 2], true);
            cordova.callbackFromNative("A1", true, cordova.callbackStatus.NO_RESULT, ["ignored"], true);
            cordova.callbackFromNative("A1", false, cordova.callbackStatus.ERROR, ["bad"], false);
            log.push("A1 kept: " + ("A1" in cordova.callbacks));
            cordova.callbacks["B2"] = { success: (v) => log.push("B2 " + v) };
            cordova.callbackSuccess("B2", { status: cordova.callbackStatus.OK, message: "done", keepCallback: false });
            cordova.callbacks["C3"] = { fail: (v) => log.push("C3 " + JSON.stringify(v)) };
            cordova.callbackError("C3", { status: cordova.callbackStatus.ERROR, message: { code: 2 } });
            log.push("left: " + Object.keys(cordova.callbacks).length);
            cordova.addWindowEventHandler("cordovacallbackerror").subscribe((e) => log.push("event: " + e.message));
            cordova.callbacks["D4"] = { success: () => { throw new Error("boom"); } };
            try {
              cordova.callbackSuccess("D4", { status: cordova.callbackStatus.OK, message: 1 });
            } catch (e) {
              log.push("rethrown: " + e.message);
            }
            cordova.callbacks = {};
            cordova.callbacks["E5"] = { success: (v) => log.push("replaced table " + v) };
            cordova.callbackSuccess("E5", { status: 1, message: "ok" });
            console.log(log.join("\\n"));
            """
        let result = try await CLI.run(["-e", script])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == """
                callbackId number true
                success 1+2
                fail bad
                A1 kept: false
                B2 done
                C3 {"code":2}
                left: 0
                event: Error in Success callbackId: D4 : Error: boom
                rethrown: boom
                replaced table ok

                """, "\(result.summary)")
        #expect(result.stderr == "Error in Success callbackId: D4 : Error: boom\n", "\(result.summary)")
    }

    /// `cordova/base64`, `cordova/urlutil`, `cordova/builder`'s buildInto* and `cordova/pluginloader`.
    @Test func base64UrlutilBuilderAndPluginloader() async throws {
        let app = try Project([
            "late.js": """
            cordova.define("late.module", function (require, exports, module) { module.exports = { late: true }; });
            """
        ])
        let script = """
            const base64 = cordova.require("cordova/base64");
            const text = base64.fromArrayBuffer(new Uint8Array([0, 1, 2, 250, 255]).buffer);
            const back = new Uint8Array(base64.toArrayBuffer(text));
            console.log(text, Array.from(back).join(","), base64.toArrayBuffer("").byteLength);
            try { base64.toArrayBuffer("%%"); } catch (e) { console.log(e.name); }
            const urlutil = cordova.require("cordova/urlutil");
            console.log(urlutil.makeAbsolute("www/index.html") === "file://" + process.cwd() + "/www/index.html",
              urlutil.makeAbsolute("https://example.com/a/../b"));
            const builder = cordova.require("cordova/builder");
            cordova.define("m.a", function (r, e, module) { module.exports = { a: 1, nested: { x: 1 } }; });
            cordova.define("m.b", function (r, e, module) { module.exports = { b: 2, nested: { y: 2 } }; });
            const target = { kept: { old: true } };
            builder.buildIntoButDoNotClobber({ kept: { path: "m.a" }, fresh: { path: "m.a", children: { sub: {} } } }, target);
            console.log(JSON.stringify(target));
            builder.buildIntoAndClobber({ kept: { path: "m.a" } }, target);
            console.log(JSON.stringify(target.kept));
            builder.buildIntoAndMerge({ kept: { path: "m.b" } }, target);
            console.log(JSON.stringify(target.kept));
            builder.buildIntoButDoNotClobber({ broken: { path: "no.such.module" } }, target);
            const loader = cordova.require("cordova/pluginloader");
            loader.injectScript(\(String(reflecting: app.path("late.js"))), () => console.log("loaded",
              cordova.require("late.module").late), (e) => console.log("error", e.message));
            loader.injectScript("/nonexistent/file.js", () => console.log("unexpected"), () => console.log("onerror"));
            """
        let result = try await CLI.run(["--allow-read", "-e", script])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == """
                AAEC+v8= 0,1,2,250,255 0
                InvalidCharacterError
                true https://example.com/b
                {"kept":{"old":true},"fresh":{"a":1,"nested":{"x":1},"sub":{}}}
                {"a":1,"nested":{"x":1},"sub":{}}
                {"a":1,"nested":{"x":1,"y":2},"sub":{},"b":2}
                Exception building Cordova JS globals: Error: module no.such.module not found for key "broken"
                loaded true
                onerror

                """, "\(result.summary)")
    }
}
