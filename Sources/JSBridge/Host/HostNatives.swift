import CJavaScriptCore
import CProcess
import Foundation
import JSBridgeCore

extension EngineExtension {
    /// The host itself, declared as the extensions are: the bridge (`bridge`, `BridgeError`, the plugins'
    /// JavaScript), timers, the console and `inspect`, uncaught-error reports, and the natives they use. Every
    /// runtime has it, first.
    package static let host = EngineExtension("host", state: { $0 }) { ext in
        ext.script(.eager("primordials.js", PackageResources.primordials_js))
        ext.script(.eager("loader.js", PackageResources.loader_js))
        ext.script(.eager("errors.js", PackageResources.errors_js))
        ext.script(
            .lazy(
                "bridge.js", PackageResources.bridge_js, globals: ["bridge", "BridgeError"],
                internals: [
                    "serialize", "serializeNative", "dispatch", "BridgeError", "onNativeEvent", "syncAction",
                    "bridgeExec", "bridgeExecSync", "bridgePlugins", "execKind", "resultCode", "execHooks",
                    "loadPluginFile", "pluginModule",
                ]))
        ext.script(
            .lazy(
                "timers.js", PackageResources.timers_js,
                globals: [
                    "setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate",
                    "queueMicrotask",
                ], internals: ["fireTimer", "Timeout"]))
        ext.script(
            .lazy(
                "inspect.js", PackageResources.inspect_js,
                internals: ["inspect", "format", "formatWithOptions", "formatError", "errorStack"]))
        ext.script(.lazy("console.js", PackageResources.console_js, globals: ["console"], internals: ["console"]))
        declareRuntimeNatives(&ext)
        declareTimerNatives(&ext)
        declareCallNatives(&ext)
    }

    private static func declareRuntimeNatives(_ ext: inout ExtensionDeclaration<ExtensionHost>) {
        ext.value("startup", type: "JSBridgeStartup") { engine, host in engine.makeValue(host.runtime.startupData()) }
        // manifest() → plugin → action → [index, kind] (`[index, kind, 1]` for a private action), for bridge.js,
        // which asks once, when it loads: a script that calls no plugin never builds it.
        ext.native(
            "manifest", "(): Record<string, Record<string, [number, 0 | 1 | 2] | [number, 0 | 1 | 2, 1]>>"
        ) { call, host throws(NativeError) in
            host.engine.makeValue(host.runtime.calls.manifest(host.runtime.registry))
        }
        ext.native("print", "(stream: 1 | 2, text: string): void") { call, host throws(NativeError) in
            let runtime = host.runtime
            if !runtime.stopping { runtime.output.write(call.string(1), to: call.number(0) == 2 ? .stderr : .stdout) }
            return nil
        }
        ext.native("now", "(): number") { call, _ throws(NativeError) in
            JSValueMakeNumber(call.context, Double(jsb_monotonic_ns()) / 1_000_000)
        }
        ext.native("defineGlobal", "(name: string, value: unknown): void") { call, host throws(NativeError) in
            host.engine.setProperty(JSContextGetGlobalObject(call.context)!, call.string(0), call[1], hidden: true)
            return nil
        }
        // Prints an uncaught error's text (already formatted by JS) and stops with exit code 1.
        ext.native("fatal", "(text: string): void") { call, host throws(NativeError) in
            host.runtime.fatal(call.string(0))
            return nil
        }
        // Ends the run with `code` at once; JavaScript unwinds through the exit sentinel.
        ext.native("exit", "(code: number): never") { call, host throws(NativeError) in
            host.runtime.stop(exitCode: JSRuntime.exitCode(fromJS: call.number(0)))
            host.runtime.guardExit()
            try host.runtime.ensureRunning()
            return nil
        }
        ext.native("evaluateRuntimeFile", "(name: string): void") { call, host throws(NativeError) in
            try host.runtime.evaluateRuntimeFile(named: call.string(0))
            return nil
        }
        // evaluatePluginFile(plugin, file, runtime, handle) → the file's return value (a module's exports).
        ext.native(
            "evaluatePluginFile", "(plugin: string, file: string, runtime: object, handle: object): any"
        ) { call, host throws(NativeError) in
            let (plugin, name) = (call.string(0), call.string(1))
            guard let registered = host.runtime.registry.plugins.first(where: { $0.name == plugin }),
                let script = registered.scripts.first(where: { $0.name == name })
            else { throw .type("Plugin '\(plugin)' has no JavaScript file named \(name).") }
            let function = try host.engine.compileFunction(
                body: String(decoding: script.source, as: UTF8.self), parameters: ["runtime", "plugin"],
                sourceURL: "jsbridge:plugin/\(plugin)/\(name)")
            return try host.engine.call(function, [call[2], call[3]])
        }
        // pluginConstants(plugin) → the values the plugin declared for its JavaScript.
        ext.native("pluginConstants", "(plugin: string): Record<string, any>") { call, host throws(NativeError) in
            let name = call.string(0)
            guard let plugin = host.runtime.registry.plugins.first(where: { $0.name == name }) else {
                throw .type("No plugin named \(name).")
            }
            return host.engine.makeValue(.object(plugin.constants))
        }
        ext.native("cwd", "(): string") { _, host throws(NativeError) in
            host.engine.makeString(FileManager.default.currentDirectoryPath)
        }
        // readFile(path) → the file's text (UTF-8); throws an Error with code ENOENT / EISDIR / EACCES.
        ext.native("readFile", "(path: string): string") { call, host throws(NativeError) in
            host.engine.makeString(String(decoding: try host.readSource(call.string(0)), as: UTF8.self))
        }
    }

    private static func declareTimerNatives(_ ext: inout ExtensionDeclaration<ExtensionHost>) {
        ext.native("timerStart", "(id: number, delayMs: number, repeats: boolean): void") {
            call, host throws(NativeError) in
            let runtime = host.runtime
            try runtime.ensureRunning()
            let delay = UInt64(max(0, call.number(1)) * 1_000_000)
            runtime.timers.start(id: Int(call.number(0)), delay: delay, repeats: call.bool(2), now: jsb_monotonic_ns())
            return nil
        }
        ext.native("timerClear", "(id: number): void") { call, host throws(NativeError) in
            host.runtime.timers.cancel(id: Int(call.number(0)))
            return nil
        }
        ext.native("timerRef", "(id: number, referenced: boolean): void") { call, host throws(NativeError) in
            host.runtime.timers.setReferenced(id: Int(call.number(0)), call.bool(1))
            return nil
        }
    }

}
