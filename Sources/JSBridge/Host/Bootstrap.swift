import CJavaScriptCore
import CJavaScriptCoreExtras
import Foundation
import JSBridgeCore

/// Start-up: the extensions in order, their files, their natives (installed on `internal` before the
/// extension's first file runs), the data the runtime's JavaScript reads first, and the main script.
extension JSRuntime {
    /// `extensions` without repeats, each after the ones it requires (otherwise in the order given).
    static func ordered(_ extensions: [EngineExtension]) -> [EngineExtension] {
        var placed: [EngineExtension] = []
        func place(_ candidate: EngineExtension) {
            guard !placed.contains(where: { $0.name == candidate.name }) else { return }
            for name in candidate.requires {
                if let required = extensions.first(where: { $0.name == name }) { place(required) }
            }
            placed.append(candidate)
        }
        extensions.forEach(place)
        return placed
    }

    /// What is wrong with the runtime's list of extensions: one that another requires is missing.
    func missingExtension() -> String? {
        let names = Set(extensions.map(\.name))
        for candidate in extensions {
            if let missing = candidate.requires.first(where: { !names.contains($0) }) {
                return "the engine extension '\(candidate.name)' requires '\(missing)', which this runtime lacks"
            }
        }
        return nil
    }

    /// Loads the runtime's eager JavaScript; false if it failed (a bug, reported on stderr).
    func bootstrap() -> Bool {
        for (script, owner) in allScripts() where script.loading == .eager {
            if let exception = evaluateRuntimeFile(script, of: owner) {
                output.write(
                    "\(options.runtime.name): internal error loading \(script.name): \(engine.describe(exception))\n",
                    to: .stderr)
                exitCode = 70
                return false
            }
        }
        hooks.reportUncaught = engine.internalFunction("reportUncaught")
        engine.errorMaker = engine.internalFunction("makeError")
        if let sentinel = engine.property(engine.internalObject, "exitSentinel") {
            engine.protect(sentinel)
            hooks.exitSentinel = sentinel
        }
        if let onRejection = engine.internalFunction("onUnhandledRejection") {
            _ = jsb_set_unhandled_rejection_callback(engine.context, onRejection)
        }
        return true
    }

    /// Every extension's files this run uses (those whose switch is off left out), with their extension.
    func allScripts() -> [(ExtensionScript, EngineExtension)] {
        extensions.flatMap { owner in
            owner.scripts.filter { $0.condition.map(isOn) ?? true }.map { ($0, owner) }
        }
    }

    /// Whether the extensions' switch `name` was given (``RuntimeOptions/extensionSettings``).
    func isOn(_ name: String) -> Bool {
        switch options.extensionSettings[name] {
        case nil, .null?, .bool(false)?: false
        default: true
        }
    }

    /// Runs the runtime file `name` (any extension's); its exception, if any.
    func evaluateRuntimeFile(named name: String) throws(NativeError) {
        guard let (script, owner) = allScripts().first(where: { $0.0.name == name }) else {
            throw .type("No runtime file named \(name).")
        }
        if let exception = evaluateRuntimeFile(script, of: owner) { throw .exception(ThrownValue(value: exception)) }
    }

    /// Runs one runtime file with `internal`, after its extension's natives are installed; its exception, if any.
    private func evaluateRuntimeFile(_ script: ExtensionScript, of owner: EngineExtension) -> JSValueRef? {
        installNatives(of: owner)
        loadedFiles.insert(script.name)
        do throws(NativeError) {
            let function = try engine.compileFunction(
                body: String(decoding: script.source(), as: UTF8.self), parameters: ["internal"],
                sourceURL: "jsbridge:internal/\(script.name)")
            try engine.call(function, [engine.internalObject])
            return nil
        } catch {
            if case .exception(let thrown) = error { return thrown.value }
            return engine.makeException(error)
        }
    }

    /// Puts `owner`'s natives (and those of the extensions it requires) on `internal`, once: its state is made
    /// then, so an extension whose JavaScript never runs costs nothing but its declaration.
    private func installNatives(of owner: EngineExtension) {
        guard installedExtensions.insert(owner.name).inserted else { return }
        for name in owner.requires {
            if let required = extensions.first(where: { $0.name == name }) { installNatives(of: required) }
        }
        owner.install(ExtensionHost(runtime: self)) { name, value in
            engine.setProperty(engine.internalObject, name, value)
        }
    }

    /// A hook defined by a lazy runtime file, once that file ran (asking for it before would load the file:
    /// timers fire only after `timers.js` started them).
    func hook(_ slot: WritableKeyPath<Hooks, JSObjectRef?>, _ name: String, _ file: String) -> JSObjectRef? {
        if let hook = hooks[keyPath: slot] { return hook }
        guard loadedFiles.contains(file) else { return nil }
        hooks[keyPath: slot] = engine.internalFunction(name)
        return hooks[keyPath: slot]
    }

    /// ``hook(_:_:_:)`` for the extensions' hooks, kept by name.
    func hook(_ name: String, definedBy file: String) -> JSObjectRef? {
        if let hook = hooks.named[name] { return hook }
        guard loadedFiles.contains(file), let hook = engine.internalFunction(name) else { return nil }
        hooks.named[name] = hook
        return hook
    }

    /// Runs the main script: through an extension's loader when one provides `internal.runMain` (the modules
    /// extension: CommonJS and ES modules), else as a classic script; a REPL through `internal.startRepl`.
    func runMain(_ script: Script) {
        let runMain = engine.internalFunction("runMain")
        switch script {
        case .file(let path):
            let absolute = Self.absolutePath(path)
            guard let runMain else { return runClassicScript(file: absolute) }
            callJS(runMain, [engine.makeString("file"), engine.makeString(absolute)])
        case .eval(let code):
            guard let runMain else { return runClassicScript(code, sourceURL: "[eval]") }
            callJS(runMain, [engine.makeString("eval"), engine.makeString(code)])
        case .repl:
            guard let startRepl = engine.internalFunction("startRepl") else {
                return fatal("\(options.runtime.name): this runtime has no REPL (its engine extensions lack 'repl')\n")
            }
            callJS(startRepl, [])
        }
    }

    private func runClassicScript(file path: String) {
        do throws(NativeError) {
            runClassicScript(String(decoding: try sourceFiles.read(path), as: UTF8.self), sourceURL: path)
        } catch {
            fatal("\(options.runtime.name): cannot read script '\(path)'\n")
        }
    }

    /// Evaluates `source` at global scope, as a browser runs a `<script>`.
    private func runClassicScript(_ source: String, sourceURL: String) {
        var exception: JSValueRef?
        withJSString(source) { text in
            withJSString(sourceURL) { url in _ = JSEvaluateScript(engine.context, text, nil, url, 1, &exception) }
        }
        if let exception { reportUncaught(exception, kind: "exception") }
    }

    /// The data the runtime's JavaScript reads at start-up (`internal.startup`): argv, env, the lazy files,
    /// the plugins' files, the extensions' switches (the plugins' actions are `internal.manifest()`'s).
    func startupData() -> JSONValue {
        var env = JSONObject()
        for key in options.environment.keys.sorted() { env[key] = .string(options.environment[key]!) }
        var pluginFiles: [JSONValue] = []
        for plugin in registry.plugins {
            for script in plugin.scripts {
                pluginFiles.append([
                    "plugin": .string(plugin.name), "file": .string(script.name),
                    "globals": .array(script.globals.map(JSONValue.string)),
                    "shares": .array(script.shares.map(JSONValue.string)),
                    "module": script.module.map(JSONValue.string) ?? .null,
                ])
            }
        }
        var lazyFiles: [JSONValue] = []
        for (script, _) in allScripts() {
            guard case .lazy(let globals, let internals) = script.loading else { continue }
            lazyFiles.append([
                "file": .string(script.name), "globals": .array(globals.map(JSONValue.string)),
                "internals": .array(internals.map(JSONValue.string)),
            ])
        }
        return .object([
            "arguments": .array(options.arguments.map(JSONValue.string)),
            "execPath": .string(options.executablePath),
            "env": .object(env),
            "version": .string(JSBridgeVersion.string),
            "runtime": ["name": .string(options.runtime.name), "version": .string(options.runtime.version)],
            "pid": .number(Double(getpid())),
            "lazyFiles": .array(lazyFiles),
            "pluginFiles": .array(pluginFiles),
            "pluginRuntimeNames": .array(extensions.flatMap(\.pluginRuntimeNames).map(JSONValue.string)),
            "options": .object(
                JSONObject(options.extensionSettings.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })),
            "baseURL": options.baseURL.map(JSONValue.string) ?? .null,
        ])
    }
}
