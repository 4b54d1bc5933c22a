import Foundation
import JSBridge
import JSBridgeCore

/// A command line read against the engine's own options and what the extensions and plugins declare: the
/// extensions' switches (`--cordova`), capability flags (`--allow-<name>[=scopes]`, `--allow-all`) and plugin
/// options.
///
/// Options end at the script (or after `--`): it and everything after it are the script's. One table of the
/// engine's options (``engineOptions``) serves parsing and `--help` alike. Every option is checked wherever it
/// appears, even when another one makes it redundant (`--allow-all --allow-net=::1` is still a bad scope), and
/// no value may be empty except `-e`'s code. (`package` where the `cli` fuzz target reads it.)
package struct CommandLineArguments {
    var eval: String?
    package var config: String?
    var trace = false
    package var timeout: Double?
    package var appID: String?
    package var storageDir: String?
    package var typings: String?
    package var baseURL: String?
    var wantsHelp = false
    var wantsVersion = false
    /// The script and its arguments (or, with `-e`, the arguments alone).
    var rest: [String] = []
    /// What the capability flags grant.
    var permissions = Permissions.none
    /// Plugin options given: which plugin's, which option, the value.
    package var optionValues: [(plugin: String, option: CommandLineOption, value: String)] = []
    /// The engine extensions' switches given (`["cordova": true]`).
    var extensionSettings: [String: JSONValue] = [:]
    /// `--inspect`, `--inspect-wait` or `--inspect-brk` (docs/debugging.md).
    package var inspect: InspectRequest?

    /// One option of the engine itself.
    struct EngineOption: Sendable {
        let names: [String]
        let valueName: String?
        let help: String
        /// Whether the value may be empty: only code may (`-e ''` runs nothing).
        var mayBeEmpty = false
        /// Whether the value is optional (`--inspect[=host:port]`): attached with `=` only, "" without.
        var valueIsOptional = false
        let apply: @Sendable (inout CommandLineArguments, String) throws(UsageError) -> Void
    }

    static let engineOptions: [EngineOption] = [
        EngineOption(
            names: ["-e", "--eval"], valueName: "code", help: "Run <code> instead of a script file.", mayBeEmpty: true
        ) {
            $0.eval = $1
        },
        EngineOption(
            names: ["--config"], valueName: "file.json",
            help: "Per-plugin configuration: a JSON object keyed by plugin name (and \"allow\": capabilities)."
        ) { $0.config = $1 },
        EngineOption(
            names: ["--trace"], valueName: nil, help: "Print one stderr line per bridge call and result, with timing."
        ) {
            arguments, _ in arguments.trace = true
        },
        EngineOption(
            names: ["--timeout"], valueName: "seconds", help: "Stop the script after this many seconds (exit code 1)."
        ) { (arguments, value) throws(UsageError) in
            guard let seconds = Double(value), seconds > 0, seconds <= 1e9 else {
                throw UsageError("--timeout must be a positive number of seconds (at most 1e9), got '\(value)'.")
            }
            arguments.timeout = seconds
        },
        EngineOption(
            names: ["--app-id"], valueName: "id",
            help: "The namespace of the script's data (default: derived from the script's path)."
        ) { (arguments, value) throws(UsageError) in
            guard isValidAppID(value) else {
                throw UsageError("--app-id must be 1–128 letters, digits, '.', '_' or '-', not starting with '.'.")
            }
            arguments.appID = value
        },
        EngineOption(
            names: ["--storage-dir"], valueName: "dir",
            help: "Where app data lives (default: $XDG_DATA_HOME/jsbridge or ~/.local/share/jsbridge)."
        ) { $0.storageDir = $1 },
        EngineOption(
            names: ["--base-url"], valueName: "url",
            help: "The base of relative URLs in fetch, Request and Response.redirect (a browser's location)."
        ) { (arguments, value) throws(UsageError) in
            if let problem = baseURLProblem(value) {
                throw UsageError(
                    "--base-url must be an absolute http or https URL such as https://example.com/app/, got '\(value)': "
                        + "\(problem).")
            }
            arguments.baseURL = value
        },
        EngineOption(
            names: ["--typings"], valueName: "plugin",
            help: "Print <plugin>'s TypeScript typings (written from its declaration) and exit."
        ) { $0.typings = $1 },
        inspectOption(
            "--inspect", .run, help: "Serve a debugger (WebKit Inspector Protocol) on [host:]port (127.0.0.1:9229)."),
        inspectOption(
            "--inspect-wait", .waitForDebugger, help: "As --inspect, and wait for a debugger before running."),
        inspectOption(
            "--inspect-brk", .breakBeforeStart, help: "As --inspect-wait, paused before the script's first statement."),
        EngineOption(names: ["--version"], valueName: nil, help: "Show the version.") { arguments, _ in
            arguments.wantsVersion = true
        },
        EngineOption(names: ["-h", "--help"], valueName: nil, help: "Show help information.") { arguments, _ in
            arguments.wantsHelp = true
        },
    ]

    /// Reads `arguments` (without the program's name).
    package init(
        _ arguments: [String], plugins: [any PluginRegistration], capabilities: [Capability],
        extensions: [EngineExtension]
    ) throws(UsageError) {
        let switches = extensions.flatMap(\.options)
        // An option several plugins declare under one name (`--storage-url`: Storage and Queue) sets each.
        var pluginOptions: [String: [(plugin: String, option: CommandLineOption)]] = [:]
        for plugin in plugins {
            for option in plugin.options {
                pluginOptions["--" + option.name, default: []].append((plugin.name, option))
            }
        }
        var index = 0
        /// The value of option `name`: attached with `=`, else the next argument; empty only if `mayBeEmpty`.
        func value(for name: String, _ inline: String?, _ valueName: String, mayBeEmpty: Bool = false)
            throws(UsageError) -> String
        {
            let value: String
            if let inline {
                value = inline
            } else {
                guard index < arguments.count else { throw UsageError("Missing value for '\(name) <\(valueName)>'.") }
                value = arguments[index]
                index += 1
            }
            // `--storage-dir=` would otherwise mean the current directory or `/`, wherever the empty path lands.
            guard mayBeEmpty || !value.isEmpty else { throw UsageError("\(name) needs a non-empty <\(valueName)>.") }
            return value
        }
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                index += 1
                break
            }
            if !argument.hasPrefix("-") || argument == "-" { break }
            index += 1
            let equals = argument.firstIndex(of: "=")
            let name = equals.map { String(argument[..<$0]) } ?? argument
            let inline = equals.map { String(argument[argument.index(after: $0)...]) }
            if let option = Self.engineOptions.first(where: { $0.names.contains(name) }) {
                if option.valueIsOptional {
                    try option.apply(&self, inline ?? "")
                } else if let valueName = option.valueName {
                    try option.apply(&self, try value(for: name, inline, valueName, mayBeEmpty: option.mayBeEmpty))
                } else {
                    guard inline == nil else { throw UsageError("\(name) takes no value.") }
                    try option.apply(&self, "")
                }
            } else if name == "--allow-all" {
                guard inline == nil else { throw UsageError("--allow-all takes no value.") }
                permissions = .all
            } else if name.hasPrefix("--allow-"), let capability = capabilities.first(where: { $0.flag == name }) {
                try grant(capability, inline)
            } else if let owners = pluginOptions[name], let first = owners.first {
                let given = try value(for: name, inline, first.option.valueName)
                for (plugin, option) in owners { optionValues.append((plugin, option, given)) }
            } else if let option = switches.first(where: { "--" + $0.name == name }) {
                guard inline == nil else { throw UsageError("\(name) takes no value.") }
                extensionSettings[option.name] = true
            } else {
                let known =
                    Self.engineOptions.flatMap(\.names) + ["--allow-all"] + capabilities.map(\.flag)
                    + pluginOptions.keys + switches.map { "--" + $0.name }
                let hint = closestName(to: name, among: known).map { " Did you mean '\($0)'?" } ?? ""
                throw UsageError("Unknown option '\(argument)'.\(hint)")
            }
        }
        // No script: a REPL on a terminal, else stdin is the script (JSBridgeCommand decides).
        rest = Array(arguments[index...])
    }

    /// `--inspect[=[host:]port]` and its kin: the address (Node's forms: `9230`, `0.0.0.0:9229`, `[::1]:9229`,
    /// `localhost`).
    static func inspectOption(_ name: String, _ start: InspectRequest.Start, help: String) -> EngineOption {
        EngineOption(names: [name], valueName: "[host:]port", help: help, valueIsOptional: true) {
            (arguments, value) throws(UsageError) in
            guard arguments.inspect == nil else {
                throw UsageError("only one of --inspect, --inspect-wait, --inspect-brk.")
            }
            guard var request = inspectAddress(value) else {
                throw UsageError("\(name) takes [host:]port (a port from 0 to 65535), got '\(value)'.")
            }
            request.start = start
            arguments.inspect = request
        }
    }

    static func inspectAddress(_ text: String) -> InspectRequest? {
        var request = InspectRequest()
        if text.isEmpty { return request }
        func port(_ digits: Substring) -> Int? {
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let port = Int(digits), port <= 65535 else {
                return nil
            }
            return port
        }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            request.host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return request }
            guard rest.hasPrefix(":"), let number = port(rest.dropFirst()) else { return nil }
            request.port = number
        } else if let colon = text.lastIndex(of: ":") {
            request.host = String(text[..<colon])
            guard !request.host.isEmpty, !request.host.contains(":"),
                let number = port(text[text.index(after: colon)...])
            else { return nil }
            request.port = number
        } else if text.allSatisfy(\.isNumber) {
            guard let number = port(Substring(text)) else { return nil }
            request.port = number
        } else {
            request.host = text
        }
        return request
    }

    /// Adds a capability flag's grant: everything, or the comma-separated scopes after `=`. The scopes are
    /// checked even under `--allow-all`, which makes them redundant but not right.
    private mutating func grant(_ capability: Capability, _ value: String?) throws(UsageError) {
        do throws(CapabilityError) {
            guard let value else { return try permissions.grant(capability) }
            guard let scope = capability.scope else { throw CapabilityError("takes no value") }
            guard !value.isEmpty else {
                throw CapabilityError(
                    "needs \(scope.valueName) after '=' (or use \(capability.flag) alone for every one)")
            }
            try permissions.grant(
                capability, scopes: value.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
        } catch {
            throw UsageError("\(capability.flag): \(error.message)")
        }
    }

    /// Turns a configuration problem caused by a plugin option into a usage error naming the flag.
    func checkOptions(against issues: [String: [ArgumentIssue]]) throws(UsageError) {
        for (plugin, option, _) in optionValues {
            if let issue = issues[plugin]?.first(where: { $0.path == option.setting }) {
                throw UsageError("--\(option.name): \(issue.message)")
            }
        }
    }

    static func isValidAppID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 128 && !id.hasPrefix(".")
            && id.utf8.allSatisfy {
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".")
                    || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
            }
    }

    // MARK: - Help

    /// `--help`: the runtime's description, usage, the engine's options and what the plugins contribute.
    static func help(_ runtime: RuntimeDescription, plugins: [any PluginRegistration]) -> String {
        let hasREPL = runtime.hasREPL
        var text = "OVERVIEW: \(runtime.abstract)\n\n"
        if !runtime.discussion.isEmpty { text += wrap(runtime.discussion, indent: 0) + "\n\n" }
        text += usage(runtime.name) + "\n\nARGUMENTS:\n"
        text += table([
            ("<script.js>", "The script to run, then its arguments."),
            ("-", "Read the script from stdin (also what no script does when stdin is not a terminal)."),
        ])
        if hasREPL {
            text +=
                "\n"
                + wrap(
                    "With no script and stdin a terminal, \(runtime.name) starts a REPL (read-eval-print loop): "
                        + "top-level await, multi-line input, Tab completion, history in $JSBRIDGE_REPL_HISTORY "
                        + "(default ~/.jsbridge_repl_history); type .help in it. The options below apply to it too.",
                    indent: 0)
                + "\n"
        }
        text += "\nOPTIONS:\n"
        text += table(
            engineOptions.map { option in
                (
                    option.names.joined(separator: ", ")
                        + (option.valueIsOptional
                            ? "[=\(option.valueName ?? "")]" : option.valueName.map { " <\($0)>" } ?? ""),
                    option.help
                )
            })
        // A capability several plugins use (read: files and uploads) is one row naming each of them; an engine
        // extension's is named after it (`node`).
        var capabilities: [(flag: String, guards: String, users: [String])] = []
        let declared =
            plugins.map { ($0.name, $0.capabilities) } + runtime.extensions.map { ($0.name, $0.capabilities) }
        for (user, owned) in declared {
            for capability in owned {
                let flag = capability.scope.map { "\(capability.flag)[=<\($0.valueName)>]" } ?? capability.flag
                if let row = capabilities.firstIndex(where: { $0.flag == flag }) {
                    if !capabilities[row].users.contains(user) { capabilities[row].users.append(user) }
                } else {
                    capabilities.append((flag, capability.guards, [user]))
                }
            }
        }
        text +=
            "\nCAPABILITIES (denied unless granted; --config grants them too: \"allow\": {\"<name>\": true | [scopes]}):\n"
        text += table(
            [("--allow-all", "Grant every capability.")]
                + capabilities.map { ($0.flag, "Grant \($0.guards) (\($0.users.joined(separator: ", "))).") })
        // An option several plugins share is listed once, with its first plugin's help and every owner.
        var options: [(String, String)] = []
        var owners: [String: (index: Int, help: String, plugins: [String])] = [:]
        for plugin in plugins {
            for option in plugin.options {
                let flag = "--\(option.name) <\(option.valueName)>"
                if var shared = owners[flag] {
                    shared.plugins.append(plugin.name)
                    owners[flag] = shared
                    options[shared.index].1 = "\(shared.help) (\(shared.plugins.joined(separator: ", ")))"
                } else {
                    owners[flag] = (options.count, option.help, [plugin.name])
                    options.append((flag, "\(option.help) (\(plugin.name))"))
                }
            }
        }
        if !options.isEmpty { text += "\nPLUGIN OPTIONS:\n" + table(options) }
        text += "\nENGINE EXTENSIONS: " + runtime.extensions.map(\.name).joined(separator: ", ") + "\n"
        let switches = runtime.extensions.flatMap { ext in
            ext.options.map { ("--\($0.name)", "\($0.help) (\(ext.name); or \"\($0.name)\": true in --config)") }
        }
        if !switches.isEmpty { text += table(switches) }
        return text
    }

    static func usage(_ name: String) -> String {
        "USAGE: \(name) [options] <script.js> [args…]\n       \(name) [options] -e <code> [args…]\n"
            + "       \(name) [options]                      (a REPL; or stdin as the script)"
    }

    /// Rows with names in a 24-column gutter and help wrapped at 80 columns.
    static func table(_ rows: [(String, String)]) -> String {
        var out = ""
        for (name, help) in rows {
            let head = "  " + name
            out +=
                head.count < 26
                ? head + String(repeating: " ", count: 26 - head.count)
                : head + "\n" + String(repeating: " ", count: 26)
            out += wrap(help, indent: 26).dropFirst(26) + "\n"
        }
        return out
    }

    /// `text` wrapped at 80 columns, every line indented by `indent` spaces.
    static func wrap(_ text: String, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = pad
        for word in text.split(separator: " ") {
            if line.count > indent, line.count + 1 + word.count > 80 {
                lines.append(line)
                line = pad
            }
            line += (line.count > indent ? " " : "") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}

/// A command-line mistake: printed with the usage, exit code 2.
package struct UsageError: Error {
    package var message: String
    package init(_ message: String) { self.message = message }
}

/// Why `text` cannot be the base of relative URLs, or nil when it can: an `http` or `https` URL (`//` after the
/// scheme) whose host is a name of ASCII letters, digits, `-`, `.` and `_` (an international name in its
/// `xn--` form), an IPv4 address (four numbers 0–255) or an IPv6 address in brackets, with an optional port
/// 1–65535, no credentials (`fetch` refuses URLs with them), and no space or control character anywhere.
///
/// A subset of what the URL Standard accepts, exact enough that the runtime's URL parser accepts every base
/// this does (its forms such as `http://127.1/` or `http:host` are refused here).
func baseURLProblem(_ text: String) -> String? {
    if let bad = text.unicodeScalars.first(where: { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) }) {
        return bad == " " ? "it contains a space" : "it contains a control character"
    }
    guard let colon = text.firstIndex(of: ":"),
        ["http", "https"].contains(text[..<colon].lowercased())
    else { return "the scheme must be http or https" }
    let afterScheme = text[text.index(after: colon)...]
    guard afterScheme.hasPrefix("//") else { return "expected '//' after '\(text[..<colon]):'" }
    let authority = afterScheme.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard !authority.contains("@") else { return "a base URL must not hold credentials (user@)" }
    let port: Substring
    if authority.hasPrefix("[") {
        guard let close = authority.firstIndex(of: "]") else { return "an IPv6 address needs its closing ']'" }
        let address = authority[authority.index(after: authority.startIndex)..<close]
        guard isIPv6Address(address) else { return "'[\(address)]' is not an IPv6 address" }
        port = authority[authority.index(after: close)...]
    } else {
        let end = authority.firstIndex(of: ":") ?? authority.endIndex
        let host = authority[..<end]
        port = authority[end...]
        guard !host.isEmpty else { return "it has no host" }
        guard host.utf8.allSatisfy(isHostNameByte) else {
            return "the host '\(host)' may hold only ASCII letters, digits, '-', '.' and '_' (an IPv6 address goes "
                + "in brackets, an international name in its xn-- form)"
        }
        if endsInNumber(host), !isIPv4Address(host) {
            return "the host '\(host)' ends in a number but is not an IPv4 address (four numbers 0–255)"
        }
    }
    if !port.isEmpty {
        let digits = port.dropFirst()
        guard port.first == ":", !digits.isEmpty, digits.utf8.count <= 5,
            digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let number = Int(digits), (1...65535).contains(number)
        else { return "the port must be a number 1–65535, got '\(port.dropFirst())'" }
    }
    return nil
}

/// Letters, digits, `-`, `.` and `_`.
private func isHostNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
        true
    default: false
    }
}

/// The URL Standard's "ends in a number": the last label (a final empty one aside) is digits, or `0x` and hex
/// digits; such a host is parsed as an IPv4 address.
private func endsInNumber(_ host: Substring) -> Bool {
    var labels = host.split(separator: ".", omittingEmptySubsequences: false)
    if labels.count > 1, labels.last?.isEmpty == true { labels.removeLast() }
    guard let last = labels.last, !last.isEmpty else { return false }
    if last.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) { return true }
    let lower = last.lowercased()
    return lower.hasPrefix("0x") && lower.dropFirst(2).allSatisfy(\.isHexDigit)
}

/// Four decimal numbers 0–255 without leading zeros (which the URL Standard reads as octal), dot-separated,
/// with an optional final dot.
private func isIPv4Address(_ host: Substring) -> Bool {
    var labels = host.split(separator: ".", omittingEmptySubsequences: false)
    if labels.last?.isEmpty == true { labels.removeLast() }
    return labels.count == 4
        && labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 3 && (label == "0" || !label.hasPrefix("0"))
                && label.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                && Int(label).map { $0 <= 255 } == true
        }
}

/// Whether `text` is an IPv6 address (`inet_pton`'s rule: no zone, an IPv4 tail allowed).
private func isIPv6Address(_ text: Substring) -> Bool {
    var address = in6_addr()
    return !text.isEmpty && String(text).withCString { inet_pton(AF_INET6, $0, &address) } == 1
}
