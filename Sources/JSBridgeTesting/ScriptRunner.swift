import Foundation
import JSBridge
import JSBridgeCore
import JSBridgeExtensions

/// What a script run produced.
public struct ScriptResult: Sendable {
    /// Everything written to stdout (`console.log`, `process.stdout.write`).
    public var stdout: String
    /// Everything written to stderr (warnings, errors, uncaught error reports).
    public var stderr: String
    /// The exit code the CLI would have returned.
    public var exitCode: Int32
    /// The uncaught exception or unhandled rejection that ended the run, as printed.
    public var uncaughtErrors: [String]
    /// The runtime's own JavaScript files that ran (``JSRuntime/loadedFiles``).
    public var loadedFiles: Set<String> = []

    /// stdout split into lines (without the final empty line).
    public var lines: [String] {
        var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

/// Runs JavaScript against a real engine with chosen plugins (and, by default, every engine extension
/// `jsbridge` has), headlessly, and returns what it printed.
///
/// ```swift
/// let result = await ScriptRunner.run("console.log(bridge.execSync('Greeter', 'hello', ['Ann']))", plugins: [GreeterPlugin()])
/// #expect(result.lines == ["Hello, Ann!"])
/// ```
public enum ScriptRunner {
    /// Runs `code` (as `-e` would) with `plugins` registered on a fresh host, in a runtime of `extensions`
    /// (their switches set by `extensionSettings`: `["cordova": true]`).
    public static func run(
        _ code: String,
        plugins: [any BridgePlugin] = [],
        extensions: [EngineExtension] = .jsbridge,
        options: BridgeHost.Options = .testing(),
        arguments: [String] = [],
        environment: [String: String] = [:],
        extensionSettings: [String: JSONValue] = [:],
        timeout: Duration = .seconds(60)
    ) async -> ScriptResult {
        await run(
            .eval(code), plugins: plugins, extensions: extensions, options: options, arguments: arguments,
            environment: environment, extensionSettings: extensionSettings, timeout: timeout)
    }

    /// Runs `script` with `plugins` on a fresh host, on a dedicated JS thread.
    ///
    /// `timeout` is the run's time limit in a plain build. Under AddressSanitizer it is stretched by
    /// ``Sanitizer/slowdown``, so a limit chosen to catch a hang does not end a slow but healthy run; under
    /// ThreadSanitizer none is armed (``Sanitizer/stopsNoRunningLoop``).
    public static func run(
        _ script: Script,
        plugins: [any BridgePlugin] = [],
        extensions: [EngineExtension] = .jsbridge,
        options: BridgeHost.Options = .testing(),
        arguments: [String] = [],
        environment: [String: String] = [:],
        extensionSettings: [String: JSONValue] = [:],
        timeout: Duration = .seconds(60)
    ) async -> ScriptResult {
        let host = BridgeHost(options: options)
        for plugin in plugins {
            do {
                try host.register(plugin)
            } catch {
                return ScriptResult(stdout: "", stderr: "\(error)\n", exitCode: 2, uncaughtErrors: [])
            }
        }
        let limit = Sanitizer.stopsNoRunningLoop ? nil : Sanitizer.scaled(timeout)
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                let output = CapturedOutput()
                let runtime = JSRuntime(
                    host: host, extensions: extensions,
                    options: RuntimeOptions(
                        arguments: arguments, environment: environment, timeout: limit, output: output,
                        extensionSettings: extensionSettings))
                let code = runtime.run(script)
                continuation.resume(
                    returning: ScriptResult(
                        stdout: output.stdout, stderr: output.stderr, exitCode: code,
                        uncaughtErrors: runtime.uncaughtErrors, loadedFiles: runtime.loadedFiles))
            }
            thread.name = "jsbridge-js"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}

/// Collects output in memory (JS thread only).
final class CapturedOutput: OutputSink {
    private(set) var stdout = ""
    private(set) var stderr = ""

    func write(_ text: String, to stream: StandardStream) {
        switch stream {
        case .stdout: stdout += text
        case .stderr: stderr += text
        }
    }

    func flush() {}
}

extension ScriptRunner {
    /// JavaScript to put before a script that checks a plugin's JS API against a hostile script: it replaces
    /// the built-ins scripts most often patch (`JSON.parse`, `Object.keys`, `Array.prototype.push`,
    /// `Map.prototype.get`, `Function.prototype.apply`, `Promise.prototype.then`, …) with functions that throw,
    /// and defines `restoreBuiltIns()` to put them back. A plugin's JavaScript that takes its built-ins from
    /// `runtime.primordials` keeps working (docs/writing-a-plugin.md, "The plugin's JavaScript").
    ///
    /// The script itself must not call what was replaced before `restoreBuiltIns()`: collect results with
    /// `results[results.length] = …` and print them with `console.log`, which does not use them.
    public static let replacingBuiltIns = #"""
        const restoreBuiltIns = (() => {
          const saved = [];
          const broken = () => { throw new Error("the script replaced this built-in"); };
          for (const [object, keys] of [
            [JSON, ["parse", "stringify"]],
            [Object, ["keys", "entries", "values", "assign", "defineProperty", "freeze", "create", "getPrototypeOf", "hasOwn"]],
            [Array, ["isArray", "from"]],
            [Array.prototype, ["push", "pop", "shift", "splice", "map", "forEach", "join", "filter", "slice", "indexOf",
              "includes", "some", "find", "findIndex", "reduce", "sort", "reverse"]],
            [String.prototype, ["slice", "split", "replace", "replaceAll", "startsWith", "endsWith", "indexOf",
              "includes", "trim", "toLowerCase", "toUpperCase", "padStart", "charCodeAt", "codePointAt", "repeat",
              "toWellFormed"]],
            [RegExp.prototype, ["test"]], [Number.prototype, ["toString"]],
            [Map.prototype, ["get", "set", "has", "delete"]], [Set.prototype, ["add", "has", "delete"]],
            [WeakMap.prototype, ["get", "set", "has"]], [Function.prototype, ["call", "apply", "bind"]],
            [Promise, ["resolve", "reject"]], [Promise.prototype, ["then", "catch", "finally"]],
            [Reflect, ["apply", "get", "set", "ownKeys"]], [Math, ["min", "max", "floor"]],
          ]) {
            for (const key of keys) { saved[saved.length] = [object, key, object[key]]; object[key] = broken; }
          }
          return () => { for (const [object, key, value] of saved) object[key] = value; };
        })();

        """#
}
