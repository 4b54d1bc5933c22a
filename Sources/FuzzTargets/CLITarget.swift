import JSBridgeCLI
import JSBridgeCore

extension FuzzTargets {
    /// The command-line parser (``CommandLineArguments``), on an argument vector: the input split at NUL, each
    /// part decoded as UTF-8 (as the process's arguments are). The parser knows the capabilities and an option
    /// of the kinds the built-in plugins declare (``CLIFuzzPlugin``).
    ///
    /// - It returns arguments or throws a usage error; it never traps, and gives the same answer twice.
    /// - What it returns holds: no empty value (except `-e`'s code); a base URL is an absolute `http`/`https`
    ///   URL with a host; a timeout is finite, above 0 and at most 1e9 s; an app id is valid.
    /// - `--allow-all` hides no mistake: the vector with `--allow-all` in front is refused exactly when the
    ///   vector alone is.
    public static func cli(_ bytes: [UInt8]) {
        let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        let parsed = parse(arguments)
        precondition((parse(arguments) == nil) == (parsed == nil), "the parser is not deterministic")
        precondition(
            (parse(["--allow-all"] + arguments) == nil) == (parsed == nil),
            "--allow-all changes whether the command line is accepted")
        guard let parsed else { return }
        for value in [parsed.storageDir, parsed.config, parsed.typings, parsed.appID] {
            precondition(value.map { !$0.isEmpty } ?? true, "an option was accepted with an empty value")
        }
        precondition(parsed.optionValues.allSatisfy { !$0.value.isEmpty }, "a plugin option's value is empty")
        if let timeout = parsed.timeout {
            precondition(timeout.isFinite && timeout > 0 && timeout <= 1e9, "timeout \(timeout) out of range")
        }
        if let id = parsed.appID {
            precondition(id.utf8.count <= 128 && !id.hasPrefix("."), "app id '\(id)' accepted")
        }
        if let base = parsed.baseURL { precondition(hasHTTPHost(base), "base URL '\(base)' accepted") }
    }

    /// The arguments `arguments` parse to, nil for a usage error.
    private static func parse(_ arguments: [String]) -> CommandLineArguments? {
        let capabilities = CLIFuzzPlugin.registration.capabilities
        return try? CommandLineArguments(
            arguments, plugins: [CLIFuzzPlugin.registration], capabilities: capabilities, extensions: [])
    }

    /// Whether `url` starts `http://` or `https://` (any case) and a non-empty host follows: checked apart from
    /// the parser's own rule.
    private static func hasHTTPHost(_ url: String) -> Bool {
        let lower = url.lowercased()
        guard let rest = ["http://", "https://"].first(where: lower.hasPrefix).map({ lower.dropFirst($0.count) })
        else { return false }
        let host = rest.prefix { !"/?#:".contains($0) }
        return !host.isEmpty && !host.contains("@") && !host.contains(" ")
    }
}

/// A plugin declaring what the built-in ones bring to the command line: scoped (hosts, paths) and unscoped
/// capabilities and a value option.
struct CLIFuzzPlugin: BridgePlugin {
    static let name = "Fuzz"

    static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.capability(.net)
        plugin.capability(.read)
        plugin.capability(.write)
        plugin.capability(Capability("location", guards: "location access"))
        plugin.option("storage-url", value: "url", setting: "url", help: "A value option.")
    }

    /// The plugin as the parser sees it (registered once).
    static let registration: any PluginRegistration = {
        let host = BridgeHost()
        try! host.register(CLIFuzzPlugin())
        return host.plugins[0]
    }()
}
