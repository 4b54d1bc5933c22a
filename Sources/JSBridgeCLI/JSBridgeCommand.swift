import Foundation
import JSBridge
import JSBridgeCore

/// A runtime binary: its name, version and help, the engine extensions and the plugins it is built with.
///
/// `JSBridgeRuntime`'s ``jsbridge`` is `jsbridge` itself; a custom runtime starts from it or from nothing:
///
/// ```swift
/// // Sources/sensors-runtime/main.swift
/// import JSBridgeRuntime
/// import SensorsPlugin
/// JSBridgeCLI.main(.jsbridge.named("sensors", version: "1.0.0").adding { [SensorsPlugin()] })
/// ```
public struct RuntimeDescription: Sendable {
    /// The command's name in `--help`, messages, `--trace` lines and typings.
    public var name: String
    /// What `--version` prints after the name.
    public var version: String
    /// The first line of `--help`.
    public var abstract: String
    /// More help text, printed under the abstract.
    public var discussion: String
    /// The engine extensions (`[.web, .node, …]`; `JSBridgeExtensions`' `.jsbridge` has them all).
    public var extensions: [EngineExtension]
    /// Makes the plugins (called once per run).
    public var plugins: @Sendable () -> [any BridgePlugin]
    /// Makes the debugger for `--inspect` and its kin (`JSBridgeRuntime`'s ``jsbridge``: `JSBridgeInspector`'s);
    /// nil: the flags are refused. Given the request, the script's title and URL and the version; it throws a
    /// message when the debugger cannot start.
    public var inspector:
        (@Sendable (InspectRequest, _ title: String, _ url: String, _ version: String) throws -> any EngineDebugger)?

    public init(
        name: String = "jsbridge",
        version: String = JSBridgeVersion.string,
        abstract: String = "Run JavaScript with native Swift plugins (JavaScriptCore).",
        discussion: String =
            "Capabilities are denied unless granted with their --allow-… flag or --allow-all. Exit codes: 0 success, "
            + "1 uncaught error, the code given to process.exit(), 2 usage error.",
        extensions: [EngineExtension],
        plugins: @escaping @Sendable () -> [any BridgePlugin],
        inspector: (@Sendable (InspectRequest, String, String, String) throws -> any EngineDebugger)? = nil
    ) {
        self.name = name
        self.version = version
        self.abstract = abstract
        self.discussion = discussion
        self.extensions = extensions
        self.plugins = plugins
        self.inspector = inspector
    }

    /// This runtime under another name (and version).
    public func named(_ name: String, version: String? = nil) -> Self {
        var copy = self
        copy.name = name
        if let version { copy.version = version }
        return copy
    }

    /// This runtime with `plugins` made beside its own, on every run.
    public func adding(_ plugins: @escaping @Sendable () -> [any BridgePlugin]) -> Self {
        var copy = self
        let existing = self.plugins
        copy.plugins = { existing() + plugins() }
        return copy
    }

    /// Its name and version.
    var identity: RuntimeIdentity { RuntimeIdentity(name: name, version: version) }

    /// Every capability its plugins and engine extensions declare (the first declaration of a name wins).
    func capabilities(of host: BridgeHost) -> [Capability] {
        var all = host.capabilities
        for capability in extensions.flatMap(\.capabilities) where !all.contains(capability) { all.append(capability) }
        return all
    }

    /// Whether one of its extensions runs a REPL (the `repl` extension's `startRepl`).
    var hasREPL: Bool { extensions.contains { $0.provides("startRepl") } }
}

/// The `jsbridge` command line as a library: build your own runtime binary with your plugins and the
/// same flags, exit codes and behaviour as `jsbridge`; each plugin contributes its capabilities' flags and
/// its options, each engine extension its switches.
public enum JSBridgeCLI {
    /// Parses the process's arguments, runs the script with `runtime`'s extensions and plugins, and exits.
    public static func main(_ runtime: RuntimeDescription) -> Never {
        JSRuntime.tuneProcess()
        let code = JSBridgeCommand(runtime: runtime).run(Array(CommandLine.arguments.dropFirst()))
        exit(code)
    }
}

/// `jsbridge [options] <script.js> [args…]`: reads the command line against the engine's options and the
/// plugins' declarations, then runs the script.
///
/// The parser is written by hand (``CommandLineArguments``): swift-argument-parser's reflection-based
/// parsing took more than half of the process's own start-up work (docs/architecture.md, "Start-up").
struct JSBridgeCommand {
    let runtime: RuntimeDescription

    /// Runs the command; returns the exit code (2 for usage errors).
    func run(_ commandLine: [String]) -> Int32 {
        let host = BridgeHost()
        do {
            for plugin in runtime.plugins() { try host.register(plugin) }
        } catch {
            return fail("\(error.message)", code: 70)
        }
        do throws(UsageError) {
            let arguments = try CommandLineArguments(
                commandLine, plugins: host.plugins, capabilities: runtime.capabilities(of: host),
                extensions: runtime.extensions)
            if arguments.wantsHelp {
                print(CommandLineArguments.help(runtime, plugins: host.plugins), terminator: "")
                return 0
            }
            if arguments.wantsVersion {
                print("\(runtime.name) \(runtime.version)")
                return 0
            }
            if let name = arguments.typings {
                guard let plugin = host.plugins.first(where: { $0.name == name }) else {
                    throw UsageError(
                        "--typings: no plugin named '\(name)'; this runtime has \(host.pluginNames.joined(separator: ", "))."
                    )
                }
                print(plugin.typings(runtime: runtime.name), terminator: "")
                return 0
            }
            return try run(arguments, declarations: host)
        } catch {
            return fail(
                "Error: \(error.message)\n\(CommandLineArguments.usage(runtime.name).replacingOccurrences(of: "USAGE:", with: "Usage:"))\n"
                    + "  See '\(runtime.name) --help' for more information.", code: 2)
        }
    }

    private func fail(_ message: String, code: Int32) -> Int32 {
        FileHandle.standardError.write(Data("\(runtime.name): \(message)\n".utf8))
        return code
    }

    private func run(_ arguments: CommandLineArguments, declarations: BridgeHost) throws(UsageError) -> Int32 {
        let script: Script
        var scriptArguments = arguments.rest
        if let eval = arguments.eval {
            script = .eval(eval)
        } else if scriptArguments.first == "-" || (scriptArguments.isEmpty && isatty(0) == 0) {
            // As Node: stdin that is not a terminal (or `-`) is the script, read to its end.
            if !scriptArguments.isEmpty { scriptArguments.removeFirst() }
            script = .eval(try Self.readStandardInput())
        } else if scriptArguments.isEmpty {
            guard runtime.hasREPL else { throw UsageError("no script given (this runtime has no REPL).") }
            script = .repl
        } else {
            script = .file(scriptArguments.removeFirst())
        }
        var configuration = try loadConfiguration(arguments.config)
        var permissions = arguments.permissions
        if let allow = configuration.removeValue(forKey: "allow") {
            try Self.grant(allow, from: runtime.capabilities(of: declarations), into: &permissions)
        }
        // The extensions' switches: `--cordova` or `"cordova": true` in --config.
        var extensionSettings = arguments.extensionSettings
        for option in runtime.extensions.flatMap(\.options) {
            guard let value = configuration.removeValue(forKey: option.name) else { continue }
            guard case .bool(let on) = value else {
                throw UsageError("--config: \"\(option.name)\" must be true or false.")
            }
            if extensionSettings[option.name] == nil { extensionSettings[option.name] = .bool(on) }
        }
        for (plugin, option, value) in arguments.optionValues {
            configuration[plugin] = Self.setting(
                option.setting.split(separator: ".").map(String.init), to: .string(value), in: configuration[plugin])
        }
        let environment = RuntimeOptions.processEnvironment()
        let storage = StorageLocation(
            appID: arguments.appID ?? Self.defaultAppID(for: script),
            directory: arguments.storageDir ?? StorageLocation.defaultDirectory(environment: environment))
        let host = declarations.with(
            options: .init(
                permissions: permissions, configuration: configuration, storage: storage,
                runtime: runtime.identity))
        if !arguments.optionValues.isEmpty { try arguments.checkOptions(against: host.configurationIssues()) }

        let options = RuntimeOptions(
            arguments: scriptArguments,
            environment: environment,
            trace: arguments.trace,
            timeout: arguments.timeout.map { .milliseconds(Int64(($0 * 1000).rounded(.up))) },
            executablePath: Self.executablePath(),
            handlesSignals: true,
            baseURL: arguments.baseURL,
            extensionSettings: extensionSettings,
            runtime: runtime.identity)
        var debugged = options
        if let request = arguments.inspect {
            guard let makeInspector = runtime.inspector else {
                throw UsageError("this runtime has no debugger (--inspect).")
            }
            let (title, url): (String, String)
            switch script {
            case .file(let path):
                let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
                (title, url) = (path, "file://" + absolute)
            case .eval: (title, url) = ("[eval]", "[eval]")
            case .repl: (title, url) = ("[repl]", "[repl]")
            }
            do {
                debugged.debugger = try makeInspector(request, title, url, runtime.version)
            } catch {
                return fail("\(error)", code: 2)
            }
        }
        let runtime = JSRuntime(host: host, extensions: self.runtime.extensions, options: debugged)
        let code = runtime.run(script)
        // Exit without tearing the engine down: the OS reclaims it faster than a final GC would.
        withExtendedLifetime(runtime) { Foundation.exit(code) }
    }

    /// The most a script read from stdin may hold (the bound a file script has in practice: memory).
    static let maxStandardInputBytes = 256 << 20

    /// Stdin read to its end, as UTF-8.
    /// `section` with the setting at `path` (`["cache", "url"]`: a plugin option's dotted setting) set to
    /// `value`, making the objects on the way.
    static func setting(_ path: [String], to value: JSONValue, in section: JSONValue?) -> JSONValue {
        guard let first = path.first else { return value }
        var object = section?.objectValue ?? [:]
        object[first] = setting(Array(path.dropFirst()), to: value, in: object[first])
        return .object(object)
    }

    static func readStandardInput() throws(UsageError) -> String {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(0, &chunk, chunk.count)
            if count > 0 {
                data.append(contentsOf: chunk[0..<count])
                guard data.count <= maxStandardInputBytes else {
                    throw UsageError("the script on stdin is larger than \(maxStandardInputBytes >> 20) MiB.")
                }
            } else if count == 0 {
                return String(decoding: data, as: UTF8.self)
            } else if errno != EINTR {
                throw UsageError("cannot read the script from stdin: \(String(cString: strerror(errno))).")
            }
        }
    }

    /// The most `--config` may hold: configuration is small, and a bound keeps a wrong path (a device, a
    /// huge file) from being read whole.
    static let maxConfigurationBytes = 16 << 20

    private func loadConfiguration(_ path: String?) throws(UsageError) -> JSONObject {
        guard let path else { return [:] }
        // Read in chunks up to one byte past the limit: pipes and /proc files report no size.
        let data: Data
        do {
            guard let file = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileReadNoSuchFile) }
            defer { try? file.close() }
            data = try file.read(upToCount: Self.maxConfigurationBytes + 1) ?? Data()
        } catch {
            throw UsageError("--config: cannot read '\(path)'.")
        }
        guard data.count <= Self.maxConfigurationBytes else {
            throw UsageError("--config: '\(path)' is larger than \(Self.maxConfigurationBytes >> 20) MiB.")
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: data)
        } catch {
            throw UsageError("--config: '\(path)' is not valid JSON: \(error)")
        }
        guard case .object(let object) = value else {
            throw UsageError("--config: '\(path)' must hold a JSON object keyed by plugin name.")
        }
        return object
    }

    /// Grants what `--config`'s `"allow": {"<capability>": true | ["scope", …]}` lists.
    static func grant(_ allow: JSONValue, from capabilities: [Capability], into permissions: inout Permissions)
        throws(UsageError)
    {
        guard case .object(let entries) = allow else {
            throw UsageError("--config: \"allow\" must be an object: {\"<capability>\": true | [scopes]}.")
        }
        for (name, value) in entries.sorted(by: { $0.key < $1.key }) {
            guard let capability = capabilities.first(where: { $0.name == name }) else {
                let known = capabilities.map(\.name).sorted().joined(separator: ", ")
                throw UsageError("--config: \"allow\" names an unknown capability '\(name)' (known: \(known)).")
            }
            do throws(CapabilityError) {
                switch value {
                case .bool(true): try permissions.grant(capability)
                case .bool(false): break
                case .array(let items):
                    var scopes: [String] = []
                    for item in items {
                        guard case .string(let scope) = item else {
                            throw CapabilityError("each scope must be a string")
                        }
                        scopes.append(scope)
                    }
                    try permissions.grant(capability, scopes: scopes)
                default: throw CapabilityError("expected true, false or an array of scopes")
                }
            } catch {
                throw UsageError("--config: \"allow\".\(name): \(error.message)")
            }
        }
    }

    /// `<script name>-<hash of its absolute path>`, or `eval` for `-e`.
    static func defaultAppID(for script: Script) -> String {
        if case .repl = script { return "repl" }
        guard case .file(let path) = script else { return "eval" }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let name = URL(fileURLWithPath: absolute).deletingPathExtension().lastPathComponent
            .filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        return "\(name.isEmpty ? "script" : name)-\(String(fnv1a(absolute), radix: 16))"
    }

    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
