import Foundation
import JSBridgeTesting
import NetworkStatusPlugin
import Testing

/// A plugin written as a ported CDVPlugin would be: it fires document and window events, evaluates
/// JavaScript, answers a MultiPart result, calls another plugin, and hears the lifecycle.
struct PortedPlugin: BridgePlugin {
    static let name = "Ported"

    /// What the lifecycle handler heard, in order (shared with the test).
    let heard: Locked<[String]>

    func setUp(_ context: SetUpContext<Self>) async throws -> Locked<[String]> { heard }

    static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.async("notify", args: String.self) { context, type in
            context.fireDocumentEvent(type, ["level": 42])
            context.fireWindowEvent("batterystatus", ["isPlugged": true])
            context.evaluateScript("globalThis.fromNative = (globalThis.fromNative || 0) + 1;")
            context.evaluateScript("throw new Error('bad script');")
            return true
        }
        plugin.async("parts") { _ in
            CordovaMultipart(
                BridgeValue(.string("text")), BridgeValue(.number(7)), BridgeValue(bytes: Bytes([1, 2, 3])))
        }
        plugin.async("connection") { context in
            try await context.call("NetworkStatus", "getType")
        }
        plugin.async("missingPeer") { context in
            try await context.call("Nowhere", "x")
        }
        plugin.onLifecycle { context, event in
            // A slow hook: deviceready waits for it.
            if event == .beforeDeviceReady { try? await Task.sleep(for: .milliseconds(100)) }
            context.state.withLock { $0.append(event.rawValue) }
            if event == .beforeDeviceReady { context.evaluateScript("console.log('hook before deviceready')") }
        }
    }
}

@Suite struct CordovaPortingTests {
    @Test func eventsScriptMultipartPeersAndLifecycle() async throws {
        let heard = Locked<[String]>([])
        let result = await ScriptRunner.run(
            """
            document.addEventListener("deviceready", () => {
              console.log("deviceready");
              document.addEventListener("charging", (e) => console.log("document event", e.type, e.level));
              window.addEventListener("batterystatus", (e) => console.log("window event", e.type, e.isPlugged));
              cordova.exec(() => {
                setTimeout(() => {
                  console.log("evaluated", globalThis.fromNative);
                  cordova.exec((text, number, bytes) => {
                    console.log("multipart", text, number, bytes instanceof Uint8Array, Array.from(bytes).join(","));
                    bridge.call("Ported", "parts").then((value) => console.log("call:", Object.keys(value).join()));
                    cordova.exec((type) => console.log("peer", typeof type),
                      (e) => console.log("peer failed", e.code), "Ported", "connection", []);
                    cordova.exec(null, (e) => console.log("missing peer", e.code), "Ported", "missingPeer", []);
                  }, null, "Ported", "parts", []);
                }, 50);
              }, null, "Ported", "notify", ["charging"]);
            });
            """,
            plugins: [PortedPlugin(heard: heard), NetworkStatusPlugin(source: FakeInterfaces([cable]))],
            extensionSettings: ["cordova": true])
        #expect(result.exitCode == 0, "\(result.stderr)")
        // The last three answer in any order (three calls in flight at once).
        #expect(
            Set(result.lines.dropFirst(6)) == [
                "call: cordovaMultipart", "peer string", "missing peer PLUGIN_NOT_FOUND",
            ],
            "\(result.stdout)\n\(result.stderr)")
        // A window event fires at once, a document event on the next turn (as cordova-js).
        #expect(
            result.lines.prefix(6) == [
                "hook before deviceready", "deviceready", "window event batterystatus true",
                "document event charging 42",
                "evaluated 1", "multipart text 7 true 1,2,3",
            ], "\(result.stdout)\n\(result.stderr)")
        #expect(
            result.stderr.contains("Error in JavaScript evaluated by plugin Ported: Error: bad script"),
            "\(result.stderr)")
        #expect(heard.withLock { $0 } == ["beforeDeviceReady", "afterDeviceReady"])
    }

    /// No plugin hears the lifecycle: start-up does not wait for one.
    @Test func withoutLifecycleHandlersDevicereadyIsAsBefore() async throws {
        let result = await ScriptRunner.run(
            "document.addEventListener('deviceready', () => console.log('ready'));",
            plugins: [NetworkStatusPlugin(source: FakeInterfaces([]))], extensionSettings: ["cordova": true])
        #expect(result.lines == ["ready"], "\(result.stderr)")
    }
}

@Suite struct PluginLifecycleTests {
    /// `pause` and `resume` reach the plugins already set up (a CDVPlugin's `onPause`/`onResume`); the
    /// deviceready hooks set a plugin up first.
    @Test func pauseAndResumeReachThePluginsSetUp() async throws {
        let heard = Locked<[String]>([])
        let host = BridgeHost(options: .testing())
        try host.register(PortedPlugin(heard: heard))
        let registry = host.makeRegistry(events: { _, _, _ in })
        #expect(registry.anyHearsLifecycle)
        await registry.broadcast(.pause)
        #expect(heard.withLock { $0 }.isEmpty, "not set up yet: it hears no pause")
        await registry.broadcast(.afterDeviceReady)
        await registry.broadcast(.pause)
        await registry.broadcast(.resume)
        #expect(heard.withLock { $0 } == ["afterDeviceReady", "pause", "resume"])
        await registry.shutdown()
    }
}
