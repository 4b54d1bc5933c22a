import CJavaScriptCore
import Foundation
import JSBridge
import JSBridgeCore
import JSBridgeWeb

/// The `cordova` engine extension: Cordova's and JSCoreBridge's JavaScript API — `cordova` (= `jsCoreBridge`)
/// with `exec`/`execSync`, `cordova.define`/`require` and the modules `www/` files use — always, lazily; and
/// with its switch on (`--cordova`, or `"cordova": true` in `--config`), the browser-like globals Cordova apps
/// expect, `document` (its `deviceready`, `pause` and `resume` events) and `window`, which otherwise stay
/// undefined as in Node and Deno, so that libraries telling a browser by them take their non-browser branch
/// (docs/cordova.md).
public enum CordovaExtension {
    /// The switch that turns Cordova's `document` and `window` on.
    static let option = ExtensionOption.flag(
        "cordova", help: "Cordova's document and window globals: deviceready, pause and resume (docs/cordova.md)")

    static let declaration = EngineExtension("cordova", requires: [.web], state: CordovaState.init) { ext in
        ext.option(option)
        // cordovaPluginLifecycle(event): tells the plugins that declared `onLifecycle` of `event`
        // ("beforeDeviceReady", "afterDeviceReady"); native event `cordova.pluginLifecycleDone` (the event's
        // name) once every one has returned. False when no plugin listens (nothing to wait for).
        ext.native("cordovaPluginLifecycle", "(event: string): boolean") { call, state throws(NativeError) in
            guard let event = LifecycleEvent(rawValue: call.string(0)) else {
                throw .type("Unknown lifecycle event '\(call.string(0))'.")
            }
            return JSValueMakeBoolean(call.context, state.tellPlugins(event))
        }
        // cordovaPluginLifecycleHeard(): JavaScript heard a broadcast's end (it no longer keeps the loop alive).
        ext.native("cordovaPluginLifecycleHeard", "(): void") { _, state throws(NativeError) in
            state.told()
            return nil
        }
        ext.script(
            .lazy(
                "cordova.js", PackageResources.cordova_js, globals: ["cordova", "jsCoreBridge"],
                internals: ["cordovaLifecycle", "cordovaRunEnd"]))
        ext.script(
            .lazy(
                "cordova.js", PackageResources.cordova_js,
                globals: [
                    "document", "window", "jscExecuteCommand", "addEventListener", "removeEventListener",
                    "dispatchEvent",
                ]
            ).when(option.name))
    }
}

extension EngineExtension {
    /// Cordova's and JSCoreBridge's API (``CordovaExtension``).
    public static var cordova: EngineExtension { CordovaExtension.declaration }
}

/// Fires Cordova's `pause` on SIGTSTP and `resume` on SIGCONT, once a script has used Cordova, and tells the
/// plugins that hear lifecycle events (``LifecycleEvent``) of them and of `deviceready`; at the run's natural
/// end, warns when `deviceready` never fired (docs/cordova.md, "Nothing silent").
final class CordovaState {
    private let host: ExtensionHost
    /// Lifecycle broadcasts to the plugins not finished yet (they keep the loop alive).
    private var telling = 0

    init(host: ExtensionHost) {
        self.host = host
        host.onRunEnd { code in
            if code == nil, let warn = host.hook("cordovaRunEnd", definedBy: "cordova.js") { host.callJS(warn, []) }
            return nil
        }
        host.onSignal { signo in
            guard signo == SIGTSTP || signo == SIGCONT,
                let fire = host.hook("cordovaLifecycle", definedBy: "cordova.js")
            else { return false }
            let event: LifecycleEvent = signo == SIGTSTP ? .pause : .resume
            // The plugins hear `pause` before the page (and before the process stops), `resume` after it.
            let registry = host.registry
            if event == .pause, registry.anyHearsLifecycle { waitBlocking { await registry.broadcast(.pause) } }
            host.callJS(fire, [host.engine.makeString(event.rawValue)])
            if event == .resume, registry.anyHearsLifecycle { waitBlocking { await registry.broadcast(.resume) } }
            return false
        }
        host.keepAlive { [unowned self] in telling > 0 }
    }

    /// Starts telling the plugins of `event`; false when none listens. Its end is the native event
    /// `cordova.pluginLifecycleDone`.
    func tellPlugins(_ event: LifecycleEvent) -> Bool {
        let registry = host.registry
        guard registry.anyHearsLifecycle else { return false }
        telling += 1
        let events = host.events
        Task(executorPreference: ActionExecutor.shared) {
            await registry.broadcast(event)
            events.post("cordova.pluginLifecycleDone", BridgeValue(.string(event.rawValue)))
        }
        return true
    }

    /// A broadcast ended (its native event reached JavaScript).
    func told() { telling -= 1 }
}
