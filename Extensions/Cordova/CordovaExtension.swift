import CJavaScriptCore
import Foundation
import JSBridge
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

/// Fires Cordova's `pause` on SIGTSTP and `resume` on SIGCONT, once a script has used Cordova; at the run's
/// natural end, warns when `deviceready` never fired (docs/cordova.md, "Nothing silent").
final class CordovaState {
    init(host: ExtensionHost) {
        host.onRunEnd { code in
            if code == nil, let warn = host.hook("cordovaRunEnd", definedBy: "cordova.js") { host.callJS(warn, []) }
            return nil
        }
        host.onSignal { signo in
            guard signo == SIGTSTP || signo == SIGCONT,
                let fire = host.hook("cordovaLifecycle", definedBy: "cordova.js")
            else { return false }
            host.callJS(fire, [host.engine.makeString(signo == SIGTSTP ? "pause" : "resume")])
            return false
        }
    }
}
