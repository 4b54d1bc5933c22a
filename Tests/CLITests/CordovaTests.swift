import DeviceCore
import Foundation
import Testing

// Cordova and JSCoreBridge compatibility, run through the built binary. The Cordova-style plugin files are
// generated here from the documented API of Apache's cordova-plugin-device and cordova-plugin-geolocation
// (written for these tests, not copied), and wrapped as the Cordova CLI wraps a plugin's `www/` files.

/// A directory of generated app files for one test (the Cordova suites share it).
struct Project {
    let root: String

    init(_ files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("cordova-\(UUID().uuidString)").path
        for (path, text) in files {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    func path(_ name: String) -> String { root + "/" + name }
}

/// `body` wrapped as the Cordova CLI wraps a plugin module (`cordova.define(id, function (require, exports, module) {…})`).
private func wrapped(_ id: String, _ body: String) -> String {
    "cordova.define(\"\(id)\", function (require, exports, module) {\n\(body)\n});\n"
}

/// A `www/cordova_plugins.js` listing `entries` (JSON objects: id, file, pluginId, clobbers).
private func pluginList(_ entries: String) -> String {
    """
    cordova.define("cordova/plugin_list", function (require, exports, module) {
      module.exports = \(entries);
      module.exports.metadata = {};
    });

    """
}

/// A device module written from cordova-plugin-device's documented API: a sticky `onCordovaInfoReady` channel
/// that `deviceready` waits for, filled from `exec(…, "Device", "getDeviceInfo", [])` once Cordova is ready.
private let deviceModule = """
    var argscheck = require("cordova/argscheck");
    var channel = require("cordova/channel");
    var exec = require("cordova/exec");
    var cordova = require("cordova");

    channel.createSticky("onCordovaInfoReady");
    channel.waitForInitialization("onCordovaInfoReady");

    function Device() {
      this.available = false;
      this.platform = null;
      this.version = null;
      this.uuid = null;
      this.cordova = null;
      this.model = null;
      this.manufacturer = null;
      this.isVirtual = null;
      this.serial = null;
      var self = this;
      channel.onCordovaReady.subscribe(function () {
        self.getInfo(function (info) {
          self.available = true;
          self.platform = info.platform;
          self.version = info.version;
          self.uuid = info.uuid;
          self.cordova = cordova.version;
          self.model = info.model;
          self.manufacturer = info.manufacturer;
          self.isVirtual = info.isVirtual;
          self.serial = info.serial;
          channel.onCordovaInfoReady.fire();
        }, function (error) {
          self.available = false;
          console.error("device: could not read the device: " + error);
        });
      });
    }

    Device.prototype.getInfo = function (successCallback, errorCallback) {
      argscheck.checkArgs("fF", "Device.getInfo", arguments);
      exec(successCallback, errorCallback, "Device", "getDeviceInfo", []);
    };

    module.exports = new Device();
    """

@Suite struct CordovaTests {
    @Test func deviceJSReportsTheDeviceAfterDeviceready() async throws {
        let project = try Project([
            "www/cordova_plugins.js": pluginList(
                """
                [{ "id": "cordova-plugin-device.device", "file": "plugins/cordova-plugin-device/www/device.js",
                   "pluginId": "cordova-plugin-device", "clobbers": ["device"] }]
                """),
            "www/plugins/cordova-plugin-device/www/device.js": wrapped("cordova-plugin-device.device", deviceModule),
            "app.js": """
            require("./www/cordova_plugins.js");
            require("./www/plugins/cordova-plugin-device/www/device.js");
            console.log("before deviceready:", typeof device);
            let count = 0;
            document.addEventListener("deviceready", function () {
              count++;
              console.log("deviceready", JSON.stringify({
                available: device.available, platform: device.platform, version: device.version, uuid: device.uuid,
                cordova: device.cordova, model: device.model, manufacturer: device.manufacturer,
                isVirtual: device.isVirtual, serial: device.serial }));
              console.log("same module:", device === cordova.require("cordova-plugin-device.device"));
              setTimeout(function () {
                document.addEventListener("deviceready", function () { console.log("late listener, count", count); });
              }, 10);
            }, false);
            """,
        ])
        let result = try await CLI.run(["--cordova", "--app-id", "org.example.app", project.path("app.js")])
        #expect(result.exitCode == 0, "\(result.summary)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "before deviceready: undefined", "\(result.summary)")
        let json = try #require(lines.first { $0.hasPrefix("deviceready ") }?.dropFirst("deviceready ".count))
        let device = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let expected = DeviceInfoReader().read(appID: "org.example.app", runtimeVersion: "0.1.0")
        #expect(device["available"] as? Bool == true)
        #expect(device["platform"] as? String == "Linux")
        #expect(device["uuid"] as? String == expected.uuid)
        #expect(device["version"] as? String == expected.version)
        #expect(device["model"] as? String == expected.model)
        #expect(device["manufacturer"] as? String == expected.manufacturer)
        #expect(device["isVirtual"] as? Bool == expected.isVirtual)
        #expect(device["serial"] as? String == expected.serial)
        #expect(device["cordova"] as? String == "0.1.0")
        #expect(lines.contains("same module: true"))
        #expect(lines.last == "late listener, count 1", "\(result.summary)")
    }

    @Test func deviceUUIDIsStablePerAppAndDiffersBetweenApps() async throws {
        let script = """
            cordova.exec(function (info) { console.log(info.uuid); }, function (e) { console.log("fail", e.code); },
              "Device", "getDeviceInfo", []);
            """
        let first = try await CLI.run(["--app-id", "one", "-e", script])
        let again = try await CLI.run(["--app-id", "one", "-e", script])
        let other = try await CLI.run(["--app-id", "two", "-e", script])
        #expect(first.exitCode == 0, "\(first.summary)")
        #expect(first.stdout == again.stdout)
        #expect(first.stdout != other.stdout)
        #expect(
            first.stdout.trimmingCharacters(in: .newlines)
                == DeviceInfoReader().read(appID: "one", runtimeVersion: "").uuid)
    }

    /// cordova-plugin-geolocation's `www/` API, written from its documentation: Position, Coordinates,
    /// PositionError and `navigator.geolocation` over the `Geolocation` exec service.
    private static let geolocationFiles: [String: String] = [
        "www/plugins/cordova-plugin-geolocation/www/Coordinates.js": wrapped(
            "cordova-plugin-geolocation.Coordinates",
            """
            var Coordinates = function (lat, lng, alt, acc, head, vel, altacc) {
              this.latitude = lat;
              this.longitude = lng;
              this.accuracy = acc;
              this.altitude = alt !== undefined ? alt : null;
              this.heading = head !== undefined ? head : null;
              this.speed = vel !== undefined ? vel : null;
              if (this.speed === 0 || this.speed === null) this.heading = NaN;
              this.altitudeAccuracy = altacc !== undefined ? altacc : null;
            };
            module.exports = Coordinates;
            """),
        "www/plugins/cordova-plugin-geolocation/www/Position.js": wrapped(
            "cordova-plugin-geolocation.Position",
            """
            var Coordinates = require("./Coordinates");
            var Position = function (coords, timestamp) {
              this.coords = coords ? new Coordinates(coords.latitude, coords.longitude, coords.altitude, coords.accuracy,
                coords.heading, coords.velocity, coords.altitudeAccuracy) : new Coordinates();
              this.timestamp = timestamp !== undefined ? timestamp : new Date().getTime();
            };
            module.exports = Position;
            """),
        "www/plugins/cordova-plugin-geolocation/www/PositionError.js": wrapped(
            "cordova-plugin-geolocation.PositionError",
            """
            var PositionError = function (code, message) { this.code = code || null; this.message = message || ""; };
            PositionError.prototype.toString = function () { return "PositionError " + this.code + ": " + this.message; };
            PositionError.PERMISSION_DENIED = 1;
            PositionError.POSITION_UNAVAILABLE = 2;
            PositionError.TIMEOUT = 3;
            module.exports = PositionError;
            """),
        "www/plugins/cordova-plugin-geolocation/www/geolocation.js": wrapped(
            "cordova-plugin-geolocation.geolocation",
            """
            var argscheck = require("cordova/argscheck");
            var utils = require("cordova/utils");
            var exec = require("cordova/exec");
            var PositionError = require("./PositionError");
            var Position = require("./Position");
            var watches = {};

            function options(given) {
              var result = { maximumAge: 0, enableHighAccuracy: false, timeout: Infinity };
              if (given) {
                if (given.maximumAge !== undefined && !isNaN(given.maximumAge) && given.maximumAge > 0) result.maximumAge = given.maximumAge;
                if (given.enableHighAccuracy !== undefined) result.enableHighAccuracy = given.enableHighAccuracy;
                if (given.timeout !== undefined && !isNaN(given.timeout)) result.timeout = given.timeout < 0 ? 0 : given.timeout;
              }
              return result;
            }

            function toPosition(p) {
              return new Position({ latitude: p.latitude, longitude: p.longitude, altitude: p.altitude, accuracy: p.accuracy,
                heading: p.heading, velocity: p.velocity, altitudeAccuracy: p.altitudeAccuracy }, p.timestamp);
            }

            var geolocation = {
              lastPosition: null,
              getCurrentPosition: function (successCallback, errorCallback, given) {
                argscheck.checkArgs("fFO", "geolocation.getCurrentPosition", arguments);
                var o = options(given);
                var timer = { timer: null };
                var win = function (p) {
                  clearTimeout(timer.timer);
                  if (!timer.timer) return;
                  var position = toPosition(p);
                  geolocation.lastPosition = position;
                  successCallback(position);
                };
                var fail = function (e) {
                  clearTimeout(timer.timer);
                  timer.timer = null;
                  if (errorCallback) errorCallback(new PositionError(e.code, e.message));
                };
                if (o.timeout !== Infinity) {
                  timer.timer = setTimeout(function () { fail({ code: PositionError.TIMEOUT, message: "Position retrieval timed out." }); }, o.timeout);
                } else {
                  timer.timer = true;
                }
                exec(win, fail, "Geolocation", "getLocation", [o.enableHighAccuracy, o.maximumAge]);
                return timer;
              },
              watchPosition: function (successCallback, errorCallback, given) {
                argscheck.checkArgs("fFO", "geolocation.watchPosition", arguments);
                var o = options(given);
                var id = utils.createUUID();
                watches[id] = true;
                var fail = function (e) { if (errorCallback) errorCallback(new PositionError(e.code, e.message)); };
                var win = function (p) {
                  if (!watches[id]) return;
                  var position = toPosition(p);
                  geolocation.lastPosition = position;
                  successCallback(position);
                };
                exec(win, fail, "Geolocation", "addWatch", [id, o.enableHighAccuracy]);
                return id;
              },
              clearWatch: function (id) {
                if (id && watches[id] !== undefined) {
                  delete watches[id];
                  exec(null, null, "Geolocation", "clearWatch", [id]);
                }
              }
            };
            module.exports = geolocation;
            """),
        "www/cordova_plugins.js": pluginList(
            """
            [{ "id": "cordova-plugin-geolocation.Coordinates", "file": "plugins/cordova-plugin-geolocation/www/Coordinates.js",
               "pluginId": "cordova-plugin-geolocation", "clobbers": ["Coordinates"] },
             { "id": "cordova-plugin-geolocation.PositionError", "file": "plugins/cordova-plugin-geolocation/www/PositionError.js",
               "pluginId": "cordova-plugin-geolocation", "clobbers": ["PositionError"] },
             { "id": "cordova-plugin-geolocation.Position", "file": "plugins/cordova-plugin-geolocation/www/Position.js",
               "pluginId": "cordova-plugin-geolocation", "clobbers": ["Position"] },
             { "id": "cordova-plugin-geolocation.geolocation", "file": "plugins/cordova-plugin-geolocation/www/geolocation.js",
               "pluginId": "cordova-plugin-geolocation", "clobbers": ["navigator.geolocation"] }]
            """),
    ]

    @Test func geolocationJSGetsAndWatchesPositionsThroughTheLocationPlugin() async throws {
        var files = Self.geolocationFiles
        files["app.js"] = """
            for (const name of ["cordova_plugins", "plugins/cordova-plugin-geolocation/www/Coordinates",
                "plugins/cordova-plugin-geolocation/www/Position", "plugins/cordova-plugin-geolocation/www/PositionError",
                "plugins/cordova-plugin-geolocation/www/geolocation"]) require("./www/" + name + ".js");
            document.addEventListener("deviceready", function () {
              console.log("clobbered:", navigator.geolocation === cordova.require("cordova-plugin-geolocation.geolocation"));
              navigator.geolocation.getCurrentPosition(function (position) {
                console.log("position", position instanceof Position, position.coords.latitude, position.coords.longitude,
                  position.coords.altitude, typeof position.timestamp);
                let seen = 0;
                const id = navigator.geolocation.watchPosition(function (p) {
                  seen++;
                  console.log("watch", seen, p.coords.latitude, p.coords.longitude);
                  navigator.geolocation.clearWatch(id);
                }, function (e) { console.log("watch error", e.code); });
              }, function (error) { console.log("error", error.code, error.message); }, { timeout: 5000 });
            });
            process.on("exit", function () { console.log("exit"); });
            """
        let project = try Project(files)
        let result = try await CLI.run(
            ["--cordova", "--allow-location", "--location", "fixed:48.8584,2.2945,35", project.path("app.js")],
            timeLimit: 20)
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == """
                clobbered: true
                position true 48.8584 2.2945 35 number
                watch 1 48.8584 2.2945
                exit

                """, "\(result.summary)")
    }

    /// The `Geolocation` service fails with PositionError's numeric code (1: permission denied), as Cordova's
    /// native side answers, with the bridge's text code as `bridgeCode`; Location's own actions keep the text code.
    @Test func geolocationWithoutThePermissionFailsWithResCode4002() async throws {
        let script = """
            cordova.exec(function () { console.log("unexpected"); }, function (e) {
              console.log(e.code, e.bridgeCode, e.resCode, e.resMsg === e.message, e.plugin, e.action);
              // The second call after the first's answer: two calls' answers may come in either order.
              cordova.exec(null, function (e) { console.log("Location's own:", e.code); }, "Location", "getCurrentPosition", [{}]);
            }, "Geolocation", "getLocation", [false, 0]);
            """
        let result = try await CLI.run(["--location", "fixed:1,2", "-e", script])
        #expect(
            result.stdout
                == "1 PERMISSION_DENIED 4002 true Geolocation getLocation\nLocation's own: PERMISSION_DENIED\n",
            "\(result.summary)")
    }

    /// cordova-plugin-geolocation's `www/` code compares `err.code === PositionError.PERMISSION_DENIED`.
    @Test func geolocationJSSeesPositionErrorCodes() async throws {
        var files = Self.geolocationFiles
        files["app.js"] = """
            for (const name of ["cordova_plugins", "plugins/cordova-plugin-geolocation/www/Coordinates",
                "plugins/cordova-plugin-geolocation/www/Position", "plugins/cordova-plugin-geolocation/www/PositionError",
                "plugins/cordova-plugin-geolocation/www/geolocation"]) require("./www/" + name + ".js");
            document.addEventListener("deviceready", function () {
              navigator.geolocation.getCurrentPosition(function () { console.log("unexpected"); }, function (err) {
                console.log(err instanceof PositionError, err.code === PositionError.PERMISSION_DENIED, err.code,
                  typeof err.message, String(err).startsWith("PositionError 1: "));
              });
            });
            """
        let project = try Project(files)
        let result = try await CLI.run(["--cordova", "--location", "fixed:1,2", project.path("app.js")])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stdout == "true true 1 string true\n", "\(result.summary)")
    }

    @Test func execFailuresCarryJSCoreBridgeResultCodes() async throws {
        let script = """
            console.log("same object:", jsCoreBridge === cordova, cordova.exec === bridge.exec);
            console.log("execSync:", jsCoreBridge.execSync("Echo", "ping", [41]));
            const show = (label) => (e) => console.log(label, e instanceof BridgeError, e.code, e.resCode,
              e.resMsg === e.message, typeof e.resMsg);
            jsCoreBridge.exec(null, show("no plugin"), "NoSuchPlugin", "x", []);
            cordova.exec(null, show("no action"), "Echo", "nosuch", []);
            cordova.exec(null, show("plugin error"), "Echo", "fail", [{ code: "MINE" }]);
            """
        let result = try await CLI.run(["-e", script])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == """
                same object: true true
                execSync: 42
                no plugin true PLUGIN_NOT_FOUND 4001 true string
                no action true ACTION_NOT_FOUND 4003 true string
                plugin error true MINE MINE true string

                """, "\(result.summary)")
    }

    @Test func channelsStickyJoinAndWaitForInitialization() async throws {
        let script = """
            const channel = cordova.require("cordova/channel");
            const log = [];
            const plain = channel.create("onPlain");
            const f = (x) => log.push("plain " + x);
            plain.subscribe(f);
            plain.subscribe(f);
            plain.fire(1);
            plain.fire(2);
            plain.unsubscribe(f);
            plain.fire(3);
            const listener = { n: 0, handleEvent() { this.n++; } };
            plain.subscribe(listener);
            plain.fire();
            plain.fire();
            log.push("handleEvent object " + listener.n + " handlers " + plain.numHandlers);
            const sticky = channel.createSticky("onSticky");
            sticky.subscribe((v) => log.push("early " + v));
            sticky.fire("s");
            log.push("sticky handlers after fire " + sticky.numHandlers);
            sticky.subscribe((v) => log.push("late " + v));
            const a = channel.createSticky("onA"), b = channel.createSticky("onB");
            channel.join(() => log.push("joined"), [a, b]);
            a.fire();
            log.push("after a");
            b.fire();
            channel.join(() => log.push("joined empty"), []);
            try { channel.join(() => {}, [plain]); } catch (e) { log.push("join error: " + e.message); }
            try { plain.subscribe(42); } catch (e) { log.push("subscribe error: " + e.message); }
            log.push("ready channels " + channel.deviceReadyChannelsArray.length);
            channel.waitForInitialization("onMyFeature");
            log.push("ready channels " + channel.deviceReadyChannelsArray.length);
            channel.onCordovaReady.subscribe(() => log.push("onCordovaReady"));
            channel.onPluginsReady.subscribe(() => log.push("onPluginsReady"));
            channel.onNativeReady.subscribe(() => log.push("onNativeReady"));
            document.addEventListener("deviceready", () => {
              log.push("deviceready");
              console.log(log.join("\\n"));
            });
            setTimeout(() => {
              log.push("feature ready");
              channel.initializationComplete("onMyFeature");
            }, 30);
            """
        let result = try await CLI.run(["--cordova", "-e", script])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == """
                plain 1
                plain 2
                handleEvent object 2 handlers 1
                early s
                sticky handlers after fire 0
                late s
                after a
                joined
                joined empty
                join error: Can only use join with sticky channels.
                subscribe error: Function required as first argument!
                ready channels 2
                ready channels 3
                onNativeReady
                onPluginsReady
                onCordovaReady
                feature ready
                deviceready

                """, "\(result.summary)")
    }

    @Test func argscheckMessages() async throws {
        let script = """
            const argscheck = cordova.require("cordova/argscheck");
            function getInfo(success, failure, options) {
              argscheck.checkArgs("fFO", "Device.getInfo", arguments);
              return "ok";
            }
            const attempt = (f) => { try { console.log(f()); } catch (e) { console.log(e.name + ": " + e.message); } };
            attempt(() => getInfo(() => {}));
            attempt(() => getInfo(() => {}, null, {}));
            attempt(() => getInfo("x"));
            attempt(() => getInfo(() => {}, 5));
            attempt(() => getInfo(() => {}, undefined, []));
            attempt(() => getInfo());
            attempt(() => argscheck.checkArgs("sNaD*", "X.y", ["s", 1, [], new Date(), Symbol()]) ?? "ok");
            attempt(() => argscheck.checkArgs("s", "X.y", [undefined]));
            argscheck.enableChecks = false;
            attempt(() => getInfo(1, 2, 3));
            console.log(argscheck.getValue(undefined, "default"), argscheck.getValue(0, "default"));
            """
        let result = try await CLI.run(["-e", script])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == """
                ok
                ok
                TypeError: Wrong type for parameter "success" of Device.getInfo: Expected Function, but got String.
                TypeError: Wrong type for parameter "failure" of Device.getInfo: Expected Function, but got Number.
                TypeError: Wrong type for parameter "options" of Device.getInfo: Expected Object, but got Array.
                TypeError: Wrong type for parameter "success" of Device.getInfo: Expected Function, but got Undefined.
                ok
                TypeError: Wrong type for parameter "#1" of X.y: Expected String, but got Undefined.
                ok
                default 0

                """, "\(result.summary)")
        // Cordova also logs the message as an error.
        #expect(result.stderr.contains("Wrong type for parameter \"success\" of Device.getInfo"), "\(result.summary)")
    }

    @Test func moduleSystem() async throws {
        let script = """
            cordova.define("app.util", function (require, exports, module) { exports.name = "util"; });
            cordova.define("app.main", function (require, exports, module) {
              module.exports = { util: require("./util").name, id: module.id, channel: typeof require("cordova/channel").join };
            });
            cordova.define("app.sub.deep", function (require, exports, module) { exports.up = require("../util").name; });
            cordova.define("cycle.a", function (require) { require("cycle.b"); });
            cordova.define("cycle.b", function (require) { require("cycle.a"); });
            let builds = 0;
            cordova.define("once", function (require, exports) { builds++; });
            console.log(JSON.stringify(cordova.require("app.main")));
            console.log(cordova.require("app.sub.deep").up);
            cordova.require("once"); cordova.require("once");
            console.log("built", builds, "times");
            const attempt = (f) => { try { f(); console.log("no error"); } catch (e) { console.log(e.code, e.message); } };
            attempt(() => cordova.require("cycle.a"));
            attempt(() => cordova.require("nope"));
            attempt(() => cordova.define("app.util", function () {}));
            attempt(() => cordova.define("x"));
            console.log("in map:", "app.util" in cordova.define.moduleMap);
            cordova.define.remove("app.util");
            console.log("removed:", "app.util" in cordova.define.moduleMap);
            const mapper = cordova.require("cordova/modulemapper");
            cordova.define("m.clobber", function (r, e, module) { module.exports = { a: 1 }; });
            cordova.define("m.merge", function (r, e, module) { module.exports = { b: 2 }; });
            globalThis.target = { kept: true };
            mapper.clobbers("m.clobber", "ns.deep.thing");
            mapper.merges("m.merge", "target");
            mapper.mapModules(globalThis);
            console.log(JSON.stringify(ns), JSON.stringify(target));
            attempt(() => mapper.clobbers("m.none", "x"));
            console.log("version", cordova.version === process.versions.jsbridge, typeof cordova.platformId);
            """
        let result = try await CLI.run(["-e", script])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == """
                {"util":"util","id":"app.main","channel":"function"}
                util
                built 1 times
                CORDOVA_MODULE_CYCLE Cycle in require graph: cycle.a->cycle.b->cycle.a
                CORDOVA_MODULE_NOT_FOUND module nope not found
                CORDOVA_MODULE_DEFINED module app.util already defined
                CORDOVA_INVALID_MODULE cordova.define('x') needs a factory function.
                in map: true
                removed: false
                {"deep":{"thing":{"a":1}}} {"kept":true,"b":2}
                CORDOVA_MODULE_NOT_FOUND Module m.none does not exist.
                version true string

                """, "\(result.summary)")
    }

    @Test func documentEvents() async throws {
        let script = """
            const log = (...a) => console.log(...a);
            console.log("window before:", typeof window);
            const onCustom = (e) => log("custom", e.type, e.value, e instanceof Event);
            document.addEventListener("custom", onCustom);
            cordova.fireDocumentEvent("custom", { value: 1 }, true);
            log("after sync fire");
            cordova.fireDocumentEvent("custom", { value: 2 });
            log("after detached fire");
            setTimeout(() => {
              document.removeEventListener("custom", onCustom);
              cordova.fireDocumentEvent("custom", { value: 3 }, true);
              document.addEventListener("other", { handleEvent(e) { log("handleEvent", e.type); } });
              log("dispatch returns", document.dispatchEvent(new Event("other")));
              try { document.dispatchEvent(42); } catch (e) { log(e.code); }
              document.addEventListener("pause", () => log("pause"));
              document.addEventListener("resume", () => log("resume"));
              cordova.fireDocumentEvent("pause", null, true);
              cordova.fireDocumentEvent("resume", null, true);
              const onWindow = (e) => log("window event", e.type, e.n);
              cordova.addWindowEventHandler("online").subscribe(onWindow);
              cordova.fireWindowEvent("online", { n: 5 });
              log("window is globalThis:", window === globalThis, String(document));
            }, 20);
            """
        let result = try await CLI.run(["--cordova", "-e", script])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == """
                window before: object
                custom custom 1 true
                after sync fire
                after detached fire
                custom custom 2 true
                handleEvent other
                dispatch returns true
                ERR_INVALID_ARG_TYPE
                pause
                resume
                window event online 5
                window is globalThis: true [object Document]

                """, "\(result.stdout)\n\(result.summary)")
    }

    @Test func theLayerLoadsOnlyWhenUsed() async throws {
        let script = """
            const lazy = (name) => typeof Object.getOwnPropertyDescriptor(globalThis, name).get === "function";
            console.log(lazy("cordova"), lazy("jsCoreBridge"), lazy("document"), lazy("window"));
            void jsCoreBridge;
            console.log(lazy("cordova"), lazy("document"), window === globalThis, cordova === jsCoreBridge);
            """
        let result = try await CLI.run(["--cordova", "-e", script])
        #expect(result.stdout == "true true true true\nfalse false true true\n", "\(result.summary)")
    }

    /// Without the switch, no script sees `document` or `window` (libraries telling a browser by them take their
    /// other branch, as in Node and Deno); `cordova` and `jsCoreBridge` stay there, lazily. `--config`'s
    /// `"cordova": true` turns it on as `--cordova` does.
    @Test func documentAndWindowOnlyWithTheCordovaSwitch() async throws {
        let script = """
            console.log(typeof document, typeof window, "document" in globalThis, "window" in globalThis);
            console.log(typeof cordova.exec, jsCoreBridge === cordova, typeof document, typeof window);
            """
        let off = try await CLI.run(["-e", script])
        #expect(off.stdout == "undefined undefined false false\nfunction true undefined undefined\n", "\(off.summary)")
        let on = try await CLI.run(["--cordova", "-e", script])
        #expect(on.stdout == "object object true true\nfunction true object object\n", "\(on.summary)")
        let project = try Project(["config.json": #"{"cordova": true}"#])
        let configured = try await CLI.run(["--config", project.path("config.json"), "-e", script])
        #expect(configured.stdout == on.stdout, "\(configured.summary)")
        let wrong = try await CLI.run(["--config", project.path("config.json"), "--cordov", "-e", "0"])
        #expect(wrong.exitCode == 2)
        #expect(wrong.stderr.contains("Unknown option '--cordov'. Did you mean '--cordova'?"), "\(wrong.summary)")
    }
}
