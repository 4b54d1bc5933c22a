import ArgumentParser
import Foundation
import JSBridge
import JSBridgeCore
import Synchronization

/// A runtime binary: its name, version and help, and the plugins it is built with.
///
/// ```swift
/// // Sources/sensors-runtime/main.swift
/// import JSBridgeCLI
/// JSBridgeCLI.main(RuntimeDescription(name: "sensors", version: "1.0.0", plugins: { [SensorsPlugin()] }))
/// ```
public struct RuntimeDescription: Sendable {
    /// The command's name in `--help` and messages.
    public var name: String
    /// What `--version` prints after the name.
    public var version: String
    /// The first line of `--help`.
    public var abstract: String
    /// More help text, printed under the abstract.
    public var discussion: String
    /// Makes the plugins (called once per run).
    public var plugins: @Sendable () -> [any BridgePlugin]

    public init(
        name: String = "jsbridge",
        version: String = JSBridgeVersion.string,
        abstract: String = "Run JavaScript with native Swift plugins (JavaScriptCore).",
        discussion: String =
            "Capabilities are denied unless granted with their --allow-… flag or --allow-all. Exit codes: 0 success, "
            + "1 uncaught error, the code given to process.exit(), 2 usage error.",
        plugins: @escaping @Sendable () -> [any BridgePlugin]
    ) {
        self.name = name
        self.version = version
        self.abstract = abstract
        self.discussion = discussion
        self.plugins = plugins
    }
}

/// The `jsbridge` command line as a library: build your own runtime binary with your plugins and the
/// same flags, exit codes and behaviour as `jsbridge`; each plugin contributes its capabilities' flags and
/// its options.
public enum JSBridgeCLI {
    /// Parses the process's arguments, runs the script with `runtime`'s plugins, and exits.
    public static func main(_ runtime: RuntimeDescription) -> Never {
        JSRuntime.tuneProcess()
        JSBridgeCommand.runtime.withLock { $0 = runtime }
        JSBridgeCommand.main()
        exit(0)
    }

    /// ``main(_:)`` for a runtime called `jsbridge` with `plugins`.
    public static func main(plugins: @escaping @Sendable () -> [any BridgePlugin]) -> Never {
        main(RuntimeDescription(plugins: plugins))
    }
}

/// `jsbridge [options] <script.js> [args…]`: the options of the engine itself (ArgumentParser); the
/// plugins' capability flags and options are read by ``PluginArguments``.
struct JSBridgeCommand: ParsableCommand {
    static let runtime = Mutex(RuntimeDescription(plugins: { [] }))

    static var configuration: CommandConfiguration {
        let runtime = runtime.withLock { $0 }
        return CommandConfiguration(
            commandName: runtime.name, abstract: runtime.abstract,
            usage: "\(runtime.name) [options] <script.js> [args…]\n  \(runtime.name) [options] -e <code> [args…]",
            discussion: runtime.discussion, version: "\(runtime.name) \(runtime.version)")
    }

    @Option(
        name: [.short, .customLong("eval")],
        help: ArgumentHelp("Run <code> instead of a script file.", valueName: "code"))
    var eval: String?

    @Option(
        help: ArgumentHelp(
            "Per-plugin configuration: a JSON object keyed by plugin name (and \"allow\": capabilities).",
            valueName: "file.json"))
    var config: String?

    @Flag(help: "Print one stderr line per bridge call and result, with timing.")
    var trace = false

    @Option(help: ArgumentHelp("Stop the script after this many seconds (exit code 1).", valueName: "seconds"))
    var timeout: Double?

    @Option(
        name: .customLong("app-id"),
        help: ArgumentHelp("Storage namespace (default: derived from the script's path).", valueName: "id"))
    var appID: String?

    @Option(
        name: .customLong("storage-dir"),
        help: ArgumentHelp(
            "Where app data lives (default: $XDG_DATA_HOME/jsbridge or ~/.local/share/jsbridge).", valueName: "dir"))
    var storageDir: String?

    @Option(
        help: ArgumentHelp("Print <plugin>'s TypeScript typings (from its declaration) and exit.", valueName: "plugin")
    )
    var typings: String?

    @Argument(parsing: .remaining, help: ArgumentHelp("The script to run, then its arguments.", valueName: "script.js"))
    var scriptAndArguments: [String] = []

    mutating func validate() throws {
        if typings != nil { return }
        if eval == nil, scriptAndArguments.isEmpty {
            throw ValidationError("Missing a script to run (or -e <code>).")
        }
        if let timeout, !(timeout > 0 && timeout <= 1e9) {
            throw ValidationError("--timeout must be a positive number of seconds (at most 1e9).")
        }
        if let appID, !Self.isValidAppID(appID) {
            throw ValidationError("--app-id must be 1–128 letters, digits, '.', '_' or '-', not starting with '.'.")
        }
    }

    func run(plugins: [any BridgePlugin], declared: BridgeHost, pluginArguments: PluginArguments) throws {
        if let typings {
            guard let plugin = declared.plugins.first(where: { $0.name == typings }) else {
                throw ValidationError(
                    "--typings: no plugin named '\(typings)'; this runtime has \(declared.pluginNames.joined(separator: ", ")).")
            }
            print(plugin.typings, terminator: "")
            return
        }
        let script: Script
        var arguments: [String]
        if let eval {
            script = .eval(eval)
            arguments = scriptAndArguments
        } else {
            script = .file(scriptAndArguments[0])
            arguments = Array(scriptAndArguments.dropFirst())
        }

        var configuration = try loadConfiguration()
        var permissions = pluginArguments.permissions
        if let allow = configuration.removeValue(forKey: "allow") {
            try Self.grant(allow, from: declared.capabilities, into: &permissions)
        }
        for (plugin, option, value) in pluginArguments.optionValues {
            var section = configuration[plugin]?.objectValue ?? [:]
            section[option.setting] = .string(value)
            configuration[plugin] = .object(section)
        }
        let environment = ProcessInfo.processInfo.environment
        let storage = StorageLocation(
            appID: appID ?? Self.defaultAppID(for: script),
            directory: storageDir ?? StorageLocation.defaultDirectory(environment: environment))
        let host = BridgeHost(
            options: .init(permissions: permissions, configuration: configuration, storage: storage))
        for plugin in plugins { try host.register(plugin) }
        try pluginArguments.checkOptions(against: host.configurationIssues())

        let options = RuntimeOptions(
            arguments: arguments,
            environment: environment,
            trace: trace,
            timeout: timeout.map { .milliseconds(Int64(($0 * 1000).rounded(.up))) },
            executablePath: Self.executablePath())
        let runtime = JSRuntime(host: host, options: options)
        let code = runtime.run(script)
        // Exit without tearing the engine down: the OS reclaims it faster than a final GC would.
        withExtendedLifetime(runtime) { Foundation.exit(code) }
    }

    private func loadConfiguration() throws -> JSONObject {
        guard let config else { return [:] }
        guard let data = FileManager.default.contents(atPath: config) else {
            throw ValidationError("--config: cannot read '\(config)'.")
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: data)
        } catch {
            throw ValidationError("--config: '\(config)' is not valid JSON: \(error)")
        }
        guard case .object(let object) = value else {
            throw ValidationError("--config: '\(config)' must hold a JSON object keyed by plugin name.")
        }
        return object
    }

    /// Grants what `--config`'s `"allow": {"<capability>": true | ["scope", …]}` lists.
    static func grant(_ allow: JSONValue, from capabilities: [Capability], into permissions: inout Permissions) throws {
        guard case .object(let entries) = allow else {
            throw ValidationError("--config: \"allow\" must be an object: {\"<capability>\": true | [scopes]}.")
        }
        for (name, value) in entries.sorted(by: { $0.key < $1.key }) {
            guard let capability = capabilities.first(where: { $0.name == name }) else {
                let known = capabilities.map(\.name).sorted().joined(separator: ", ")
                throw ValidationError("--config: \"allow\" names an unknown capability '\(name)' (known: \(known)).")
            }
            do {
                switch value {
                case .bool(true): try permissions.grant(capability)
                case .bool(false): break
                case .array(let items):
                    let scopes = try items.map { item -> String in
                        guard case .string(let scope) = item else {
                            throw CapabilityError("each scope must be a string")
                        }
                        return scope
                    }
                    try permissions.grant(capability, scopes: scopes)
                default: throw CapabilityError("expected true, false or an array of scopes")
                }
            } catch let error as CapabilityError {
                throw ValidationError("--config: \"allow\".\(name): \(error.message)")
            }
        }
    }

    static func isValidAppID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 128 && !id.hasPrefix(".")
            && id.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
            }
    }

    /// `<script name>-<hash of its absolute path>`, or `eval` for `-e`.
    static func defaultAppID(for script: Script) -> String {
        guard case .file(let path) = script else { return "eval" }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let name = URL(fileURLWithPath: absolute).deletingPathExtension().lastPathComponent
            .filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        return "\(name.isEmpty ? "script" : name)-\(String(fnv1a(absolute), radix: 16))"
    }

    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Parses the command line with exit code 2 for usage errors.
    static func main() {
        let runtime = runtime.withLock { $0 }
        let plugins = runtime.plugins()
        let declared = BridgeHost()
        do {
            for plugin in plugins { try declared.register(plugin) }
        } catch {
            FileHandle.standardError.write(Data("\(runtime.name): \(error.message)\n".utf8))
            Foundation.exit(70)
        }
        do {
            let split = try PluginArguments.split(Array(CommandLine.arguments.dropFirst()), declared: declared)
            if split.wantsHelp {
                print(helpMessage(columns: 80) + split.pluginHelp(declared: declared))
                Foundation.exit(0)
            }
            let command = try parse(split.engineArguments)
            try command.run(plugins: plugins, declared: declared, pluginArguments: split)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data(("\(runtime.name): " + fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
    }
}
