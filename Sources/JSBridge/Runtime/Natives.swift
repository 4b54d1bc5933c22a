import CJavaScriptCore
import Foundation
import JSBridgeCore
import JSBridgeScripts

/// The native functions on the hidden `internal` object, used by the runtime's JS files.
extension JSRuntime {
    /// Defines native function `name` on `internal`.
    func defineNative(_ name: String, _ body: @escaping (NativeCall) throws(NativeError) -> JSValueRef?) {
        setProperty(internalObject, name, makeNativeFunction(body))
    }

    /// A JS function object that runs `body`.
    func makeNativeFunction(_ body: @escaping (NativeCall) throws(NativeError) -> JSValueRef?) -> JSObjectRef {
        let box = NativeFunctionBox(runtime: self, body: body)
        return JSObjectMake(context, NativeFunctionClass.shared, Unmanaged.passRetained(box).toOpaque())!
    }

    /// Throws the exit sentinel once the runtime is stopping, so no more work starts.
    func ensureRunning() throws(NativeError) {
        guard stopping else { return }
        throw .exception(ThrownValue(value: hooks.exitSentinel ?? JSValueMakeUndefined(context)))
    }

    func installNatives() {
        setProperty(internalObject, "startup", makeValue(startupData()))
        installConsoleAndProcessNatives()
        installTimerNatives()
        installBridgeNatives()
        installModuleNatives()
        installNodeNatives()
        installCompressionNatives()
        installModuleLoaderNatives()
        // The encoding natives are defined when js/encoding.js or js/url.js first needs them.
        defineNative("loadEncodingNatives") { [unowned(unsafe) self] _ throws(NativeError) in
            installEncodingNatives()
            return nil
        }
    }

    private func installConsoleAndProcessNatives() {
        defineNative("print") { [unowned(unsafe) self] call throws(NativeError) in
            if !stopping { output.write(call.string(1), to: call.number(0) == 2 ? .stderr : .stdout) }
            return nil
        }
        defineNative("now") { call in
            JSValueMakeNumber(call.context, Double(jsb_monotonic_ns()) / 1_000_000)
        }
        defineNative("rss") { call in
            JSValueMakeNumber(call.context, Double(jsb_resident_bytes()))
        }
        defineNative("defineGlobal") { [unowned(unsafe) self] call throws(NativeError) in
            let global = JSContextGetGlobalObject(context)!
            setProperty(global, call.string(0), call[1], hidden: true)
            return nil
        }
        // Prints an uncaught error's text (already formatted by JS) and stops with exit code 1.
        defineNative("fatal") { [unowned(unsafe) self] call throws(NativeError) in
            if !stopping {
                let text = call.string(0)
                uncaughtErrors.append(text)
                output.write(text, to: .stderr)
                stop(exitCode: 1)
            }
            return nil
        }
        // `process.exit(code)`: stops at once; JS unwinds through the exit sentinel.
        defineNative("exit") { [unowned(unsafe) self] call throws(NativeError) in
            stop(exitCode: Self.exitCode(fromJS: call.number(0)))
            try ensureRunning()
            return nil
        }
        defineNative("evaluateRuntimeFile") { [unowned(unsafe) self] call throws(NativeError) in
            let name = call.string(0)
            guard let file = JSBridgeScripts.files.first(where: { $0.name == name }) else {
                throw .type("No runtime file named \(name).")
            }
            if let exception = evaluateRuntimeFile(file) { throw .exception(ThrownValue(value: exception)) }
            return nil
        }
        // evaluatePluginFile(plugin, file, runtime, handle) → the file's return value (a module's exports).
        defineNative("evaluatePluginFile") { [unowned(unsafe) self] call throws(NativeError) in
            let (plugin, name) = (call.string(0), call.string(1))
            guard let script = pluginScripts[plugin + "/" + name] else {
                throw .type("Plugin '\(plugin)' has no JavaScript file named \(name).")
            }
            let function = try compileFunction(
                body: String(decoding: script.source, as: UTF8.self), parameters: ["runtime", "plugin"],
                sourceURL: "jsbridge:plugin/\(plugin)/\(name)")
            var exception: JSValueRef?
            let result = JSObjectCallAsFunction(context, function, nil, 2, [call[2], call[3]], &exception)
            if let exception { throw .exception(ThrownValue(value: exception)) }
            return result
        }
        // pluginConstants(plugin) → the values the plugin declared for its JavaScript.
        defineNative("pluginConstants") { [unowned(unsafe) self] call throws(NativeError) in
            let name = call.string(0)
            guard let plugin = registry.plugins.first(where: { $0.name == name }) else {
                throw .type("No plugin named \(name).")
            }
            return makeValue(.object(plugin.constants))
        }
        // signalListened(number, listened): whether a `process.on(signal)` listener exists (the C handler reads it).
        defineNative("signalListened") { call throws(NativeError) in
            Self.setSignalListened(Int32(call.number(0)), call.bool(1))
            return nil
        }
        defineNative("reportUncaught") { [unowned(unsafe) self] call throws(NativeError) in
            reportUncaught(call[0], kind: call.string(1))
            return nil
        }
    }

    private func installTimerNatives() {
        // timerStart(id, delayMs, repeats)
        defineNative("timerStart") { [unowned(unsafe) self] call throws(NativeError) in
            try ensureRunning()
            let delay = UInt64(max(0, call.number(1)) * 1_000_000)
            timers.start(id: Int(call.number(0)), delay: delay, repeats: call.bool(2), now: jsb_monotonic_ns())
            return nil
        }
        defineNative("timerClear") { [unowned(unsafe) self] call throws(NativeError) in
            timers.cancel(id: Int(call.number(0)))
            return nil
        }
        defineNative("timerRef") { [unowned(unsafe) self] call throws(NativeError) in
            timers.setReferenced(id: Int(call.number(0)), call.bool(1))
            return nil
        }
    }

    /// The bytes of a module or package file; Node's error codes when it cannot be read.
    static func readSourceFile(_ path: String) throws(NativeError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .plain("ENOENT: no such file or directory, open '\(path)'", code: "ENOENT")
        }
        if isDirectory.boolValue {
            throw .plain("EISDIR: illegal operation on a directory, read '\(path)'", code: "EISDIR")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .plain("EACCES: permission denied, open '\(path)'", code: "EACCES")
        }
        return data
    }

    private func installModuleNatives() {
        defineNative("cwd") { [unowned(unsafe) self] _ throws(NativeError) in
            makeString(FileManager.default.currentDirectoryPath)
        }
        // readFile(path) → string; throws an Error with code ENOENT / EISDIR / EACCES / EILSEQ.
        defineNative("readFile") { [unowned(unsafe) self] call throws(NativeError) in
            makeString(String(decoding: try Self.readSourceFile(call.string(0)), as: UTF8.self))
        }
        // stat(path) → 0 missing, 1 file, 2 directory.
        defineNative("stat") { [unowned(unsafe) self] call throws(NativeError) in
            var info = stat()
            guard stat(call.string(0), &info) == 0 else { return JSValueMakeNumber(context, 0) }
            return JSValueMakeNumber(context, info.st_mode & S_IFMT == S_IFDIR ? 2 : 1)
        }
        defineNative("realpath") { [unowned(unsafe) self] call throws(NativeError) in
            let path = call.string(0)
            guard let resolved = realpath(path, nil) else { return makeString(path) }
            defer { free(resolved) }
            return makeString(String(cString: resolved))
        }
        // compile(source, filename, ...params) → a function whose body is `source` (CommonJS wrapper).
        defineNative("compile") { [unowned(unsafe) self] call throws(NativeError) in
            let names = (2..<max(2, call.count)).map { call.string($0) }
            let function = try compileFunction(body: call.string(0), parameters: names, sourceURL: call.string(1))
            return function
        }
        // evaluateScript(source, url[, checkOnly]) → the completion value of `source` run as a classic script
        // at global scope (its let/const/class declarations persist in the global lexical scope, as the REPL
        // needs); with checkOnly, only parses it and returns its SyntaxError, or undefined.
        defineNative("evaluateScript") { [unowned(unsafe) self] call throws(NativeError) in
            var exception: JSValueRef?
            let checkOnly = call.count > 2 && call.bool(2)
            let value = withJSString(call.string(0)) { source in
                withJSString(call.string(1)) { url -> JSValueRef? in
                    if checkOnly {
                        _ = JSCheckScriptSyntax(context, source, url, 1, &exception)
                        return nil
                    }
                    return JSEvaluateScript(context, source, nil, url, 1, &exception)
                }
            }
            if let exception {
                if checkOnly { return exception }
                throw .exception(ThrownValue(value: exception))
            }
            return value
        }
    }
}
