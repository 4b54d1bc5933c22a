import ArgumentParser
import Foundation
import JSBridge
import JSBridgeCore
import Synchronization

/// The `jsbridge` command line as a library: build your own runtime binary with your plugins and the
/// same flags, exit codes and behaviour as `jsbridge`.
///
/// ```swift
/// // Sources/my-runtime/main.swift
/// import JSBridgeCLI
/// JSBridgeCLI.main(plugins: { [EchoPlugin(), CounterPlugin()] })
/// ```
public enum JSBridgeCLI {
    /// Parses the process's arguments, runs the script with the plugins `makePlugins` returns, and exits.
    public static func main(plugins makePlugins: @escaping @Sendable () -> [any BridgePlugin]) -> Never {
        JSRuntime.tuneProcess()
        JSBridgeCommand.pluginFactory.withLock { $0 = makePlugins }
        JSBridgeCommand.main()
        exit(0)
    }
}

/// `jsbridge [options] <script.js> [args…]`.
struct JSBridgeCommand: ParsableCommand {
    static let pluginFactory = Mutex<@Sendable () -> [any BridgePlugin]>({ [] })

    static let configuration = CommandConfiguration(
        commandName: "jsbridge",
        abstract: "Run JavaScript with native Swift plugins (JavaScriptCore).",
        discussion: """
            Network and location access are denied unless granted with --allow-net, --allow-location or \
            --allow-all. Exit codes: 0 success, 1 uncaught error, the code given to process.exit(), \
            2 usage error.
            """,
        version: "jsbridge \(JSBridgeVersion.string)")

    @Option(
        name: [.short, .customLong("eval")],
        help: ArgumentHelp("Run <code> instead of a script file.", valueName: "code"))
    var eval: String?

    @Option(help: ArgumentHelp("Per-plugin configuration: a JSON object keyed by plugin name.", valueName: "file.json"))
    var config: String?

    @Option(
        help: ArgumentHelp(
            "Location source: gpsd://host:port, fixed:lat,lon[,alt] or nmea:<file>.", valueName: "source"))
    var location: String?

    @Flag(help: "Print one stderr line per bridge call and result, with timing.")
    var trace = false

    @Option(help: ArgumentHelp("Stop the script after this many seconds (exit code 1).", valueName: "seconds"))
    var timeout: Double?

    @Option(
        name: .customLong("allow-net"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp("Allow network access, to every host or to host[:port],… only.", valueName: "hosts"))
    var allowNet: [String] = []

    @Flag(name: .customLong("allow-location"), help: "Allow location access.")
    var allowLocation = false

    @Flag(name: .customLong("allow-all"), help: "Allow every capability.")
    var allowAll = false

    @Option(
        name: .customLong("app-id"),
        help: ArgumentHelp("Storage namespace (default: derived from the script's path).", valueName: "id"))
    var appID: String?

    @Option(
        name: .customLong("storage-dir"),
        help: ArgumentHelp(
            "Where app data lives (default: $XDG_DATA_HOME/jsbridge or ~/.local/share/jsbridge).", valueName: "dir"))
    var storageDir: String?

    @Argument(parsing: .remaining, help: ArgumentHelp("The script to run, then its arguments.", valueName: "script.js"))
    var scriptAndArguments: [String] = []

    mutating func validate() throws {
        if eval == nil, scriptAndArguments.isEmpty {
            throw ValidationError("Missing a script to run (or -e <code>).")
        }
        if let timeout, !(timeout > 0 && timeout <= 1e9) {
            throw ValidationError("--timeout must be a positive number of seconds (at most 1e9).")
        }
        if let appID, !Self.isValidAppID(appID) {
            throw ValidationError("--app-id must be 1–128 letters, digits, '.', '_' or '-', not starting with '.'.")
        }
        if let location { _ = try LocationSource(parsing: location) }
        _ = try permissions()
    }

    func permissions() throws -> Permissions {
        if allowAll { return .all }
        var net = Permissions.Net.denied
        if allowNet.contains("*") {
            net = .all
        } else if !allowNet.isEmpty {
            let entries = allowNet.flatMap {
                $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
            net = .hosts(
                try entries.map { entry in
                    guard let pattern = Permissions.HostPattern(parsing: entry) else {
                        throw ValidationError("--allow-net: '\(entry)' is not a host or host:port.")
                    }
                    return pattern
                })
        }
        return Permissions(net: net, location: allowLocation)
    }

    func run() throws {
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
        if let location {
            var section = configuration["Location"]?.objectValue ?? [:]
            section["source"] = .string(location)
            configuration["Location"] = .object(section)
        }
        let environment = ProcessInfo.processInfo.environment
        let storage = StorageLocation(
            appID: appID ?? Self.defaultAppID(for: script),
            directory: storageDir ?? StorageLocation.defaultDirectory(environment: environment))
        let host = BridgeHost(
            options: .init(
                permissions: try permissions(), configuration: configuration, storage: storage))
        for plugin in Self.pluginFactory.withLock({ $0 })() { try host.register(plugin) }

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
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in absolute.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let name = URL(fileURLWithPath: absolute).deletingPathExtension().lastPathComponent
            .filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        return "\(name.isEmpty ? "script" : name)-\(String(hash, radix: 16))"
    }

    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Parses the command line with exit code 2 for usage errors (and a bare `--allow-net` meaning "all").
    static func main() {
        do {
            var command = try parseAsRoot(try Self.normalize(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data(("jsbridge: " + fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
    }

    /// Splits the command line at the script: options before it are parsed (a bare `--allow-net` means
    /// "every host"); the script and everything after it are passed through untouched, after a `--`.
    static func normalize(_ arguments: [String]) throws -> [String] {
        let takesValue: Set<String> = [
            "-e", "--eval", "--config", "--location", "--timeout", "--app-id", "--storage-dir",
        ]
        let flags: Set<String> = [
            "--trace", "--allow-net", "--allow-location", "--allow-all", "-h", "--help", "--version",
        ]
        var options: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                index += 1
                break
            }
            if !argument.hasPrefix("-") || argument == "-" { break }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            guard takesValue.contains(name) || flags.contains(name) else {
                throw ValidationError("Unknown option '\(argument)'.")
            }
            if argument == "--allow-net=" {
                throw ValidationError("--allow-net= needs hosts after '=' (or use --allow-net alone for every host).")
            }
            options.append(argument == "--allow-net" ? "--allow-net=*" : argument)
            if takesValue.contains(argument), index + 1 < arguments.count {
                options.append(arguments[index + 1])
                index += 1
            }
            index += 1
        }
        let rest = arguments[index...]
        return rest.isEmpty ? options : options + ["--"] + rest
    }
}

/// A parsed `--location` value.
struct LocationSource {
    init(parsing text: String) throws {
        if text.hasPrefix("gpsd://") {
            let rest = text.dropFirst("gpsd://".count)
            guard let pattern = Permissions.HostPattern(parsing: String(rest)), pattern.port != nil else {
                throw ValidationError("--location: expected gpsd://host:port, got '\(text)'.")
            }
        } else if text.hasPrefix("fixed:") {
            let numbers = text.dropFirst("fixed:".count).split(separator: ",").map { Double($0) }
            guard (2...3).contains(numbers.count), numbers.allSatisfy({ $0?.isFinite == true }),
                let lat = numbers[0], let lon = numbers[1], abs(lat) <= 90, abs(lon) <= 180
            else {
                throw ValidationError(
                    "--location: expected fixed:lat,lon[,alt] with -90…90 and -180…180, got '\(text)'.")
            }
        } else if text.hasPrefix("nmea:") {
            guard text.count > "nmea:".count else { throw ValidationError("--location: expected nmea:<file>.") }
        } else {
            throw ValidationError(
                "--location: unknown source '\(text)'; use gpsd://host:port, fixed:lat,lon[,alt] or nmea:<file>.")
        }
    }
}
