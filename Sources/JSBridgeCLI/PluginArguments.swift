import ArgumentParser
import JSBridgeCore

/// The command line split in two: the engine's own options (parsed by ArgumentParser) and what the plugins
/// declare — capability flags (`--allow-<name>[=scopes]`, `--allow-all`) and plugin options.
///
/// Options end at the script: it and everything after it are the script's, passed on after a `--`.
struct PluginArguments {
    /// The engine's options, the script and its arguments, for ArgumentParser.
    var engineArguments: [String] = []
    /// What the capability flags grant.
    var permissions = Permissions.none
    /// Plugin options given: which plugin's, which option, the value.
    var optionValues: [(plugin: String, option: CommandLineOption, value: String)] = []
    /// `-h` / `--help` was given.
    var wantsHelp = false

    static let engineValueOptions: Set<String> = [
        "-e", "--eval", "--config", "--timeout", "--app-id", "--storage-dir", "--typings",
    ]
    static let engineFlags: Set<String> = ["--trace", "--version"]

    static func split(_ arguments: [String], declared: BridgeHost) throws -> PluginArguments {
        var result = PluginArguments()
        let capabilities = declared.capabilities
        var pluginOptions: [String: (plugin: String, option: CommandLineOption)] = [:]
        for plugin in declared.plugins {
            for option in plugin.options { pluginOptions["--" + option.name] = (plugin.name, option) }
        }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                index += 1
                break
            }
            if !argument.hasPrefix("-") || argument == "-" { break }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let inlineValue = parts.count > 1 ? String(parts[1]) : nil
            index += 1
            if name == "-h" || name == "--help" {
                result.wantsHelp = true
            } else if engineValueOptions.contains(name) {
                result.engineArguments.append(argument)
                if inlineValue == nil, index < arguments.count {
                    result.engineArguments.append(arguments[index])
                    index += 1
                }
            } else if engineFlags.contains(name) {
                result.engineArguments.append(argument)
            } else if name == "--allow-all" {
                guard inlineValue == nil else { throw ValidationError("--allow-all takes no value.") }
                result.permissions = .all
            } else if name.hasPrefix("--allow-"), let capability = capabilities.first(where: { $0.flag == name }) {
                try result.grant(capability, inlineValue)
            } else if let (plugin, option) = pluginOptions[name] {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                } else {
                    throw ValidationError("Missing value for '--\(option.name) <\(option.valueName)>'.")
                }
                result.optionValues.append((plugin, option, value))
            } else {
                throw ValidationError("Unknown option '\(argument)'.")
            }
        }
        let rest = arguments[index...]
        if !rest.isEmpty { result.engineArguments += ["--"] + rest }
        return result
    }

    /// Adds a capability flag's grant: everything, or the comma-separated scopes after `=`.
    private mutating func grant(_ capability: Capability, _ value: String?) throws {
        guard !permissions.allowsAll else { return }
        do {
            guard let value else { return try permissions.grant(capability) }
            guard capability.scope != nil else { throw CapabilityError("takes no value") }
            guard !value.isEmpty else {
                throw CapabilityError(
                    "needs scopes after '=' (or use \(capability.flag) alone for every \(capability.scope!.valueName))")
            }
            let scopes = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            try permissions.grant(capability, scopes: scopes)
        } catch let error as CapabilityError {
            throw ValidationError("\(capability.flag): \(error.message)")
        }
    }

    /// Turns a configuration problem caused by a plugin option into a usage error naming the flag.
    func checkOptions(against issues: [String: [ArgumentIssue]]) throws {
        for (plugin, option, _) in optionValues {
            if let issue = issues[plugin]?.first(where: { $0.path == option.setting }) {
                throw ValidationError("--\(option.name): \(issue.message)")
            }
        }
    }

    /// The help of what the plugins contribute: capability flags and options.
    func pluginHelp(declared: BridgeHost) -> String {
        var rows: [(String, String)] = [("--allow-all", "Grant every capability.")]
        for plugin in declared.plugins {
            for capability in plugin.capabilities where !rows.contains(where: { $0.0.hasPrefix(capability.flag) }) {
                let flag = capability.scope.map { "\(capability.flag)[=<\($0.valueName)>]" } ?? capability.flag
                rows.append((flag, "Grant \(capability.guards) (\(plugin.name))."))
            }
        }
        var text = "\nCAPABILITIES (denied unless granted; --config can grant them: \"allow\": {\"<name>\": true | [scopes]}):\n"
        text += Self.table(rows)
        let options = declared.plugins.flatMap { plugin in
            plugin.options.map { ("--\($0.name) <\($0.valueName)>", "\($0.help) (\(plugin.name))") }
        }
        if !options.isEmpty { text += "\nPLUGIN OPTIONS:\n" + Self.table(options) }
        return text
    }

    /// Rows as ArgumentParser prints them: names in a 24-column gutter, help wrapped at 80 columns.
    static func table(_ rows: [(String, String)]) -> String {
        var out = ""
        for (name, help) in rows {
            var line = "  " + name
            line += line.count < 26 ? String(repeating: " ", count: 26 - line.count) : "\n" + String(repeating: " ", count: 26)
            var width = line.split(separator: "\n").last.map(\.count) ?? 0
            for word in help.split(separator: " ") {
                if width + word.count + 1 > 80, width > 26 {
                    line += "\n" + String(repeating: " ", count: 26)
                    width = 26
                } else if width > 26 {
                    line += " "
                    width += 1
                }
                line += word
                width += word.count
            }
            out += line + "\n"
        }
        return out
    }
}
