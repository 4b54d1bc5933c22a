import JSBridgeBase

/// The plugins of one runtime and the environment they share (configuration, permissions, clock, storage).
///
/// Plugins are registered on a host instance — never on a global — before a runtime or test harness
/// starts with it.
public final class BridgeHost: Sendable {
    /// What every plugin of this host sees.
    public struct Options: Sendable {
        /// Capabilities granted to the script.
        public var permissions: Permissions
        /// Per-plugin configuration: the `--config` object, keyed by plugin name.
        public var configuration: JSONObject
        /// The clock injected into plugins.
        public var clock: any BridgeClock
        /// Where this script's data lives.
        public var storage: StorageLocation
        /// The runtime the plugins run in (what the Device plugin reports, for one).
        public var runtime: RuntimeIdentity

        public init(
            permissions: Permissions = .none,
            configuration: JSONObject = [:],
            clock: any BridgeClock = SystemClock(),
            storage: StorageLocation = StorageLocation(appID: "default", directory: StorageLocation.defaultDirectory()),
            runtime: RuntimeIdentity = .jsbridge
        ) {
            self.permissions = permissions
            self.configuration = configuration
            self.clock = clock
            self.storage = storage
            self.runtime = runtime
        }
    }

    /// The shared environment.
    public let options: Options
    private let registrations = Locked<[any PluginRegistration]>([])

    /// Creates a host with no plugins.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Registers a plugin; throws when the name is taken or its declaration has a mistake (an action declared
    /// twice, a capability name that cannot be a flag).
    public func register<Plugin: BridgePlugin>(_ plugin: Plugin) throws(BridgeError) {
        let registration = try Registration(plugin)
        try registrations.withLock { (list) throws(BridgeError) in
            if list.contains(where: { $0.name == registration.name }) {
                throw BridgeError(
                    code: BridgeError.Code.pluginError,
                    message: "A plugin named '\(registration.name)' is already registered.")
            }
            list.append(registration)
        }
    }

    /// A host with the same plugins, registered once (declarations are read at registration), and `options`.
    public func with(options: Options) -> BridgeHost {
        let host = BridgeHost(options: options)
        let plugins = self.plugins
        host.registrations.withLock { $0 = plugins }
        return host
    }

    /// The registered plugins' declarations, in registration order.
    public var plugins: [any PluginRegistration] { registrations.withLock { $0 } }

    /// The names of the registered plugins, in registration order.
    public var pluginNames: [String] { plugins.map(\.name) }

    /// Every capability the registered plugins declare (the first declaration of a name wins).
    public var capabilities: [Capability] {
        var all: [Capability] = []
        for plugin in plugins {
            for capability in plugin.capabilities where !all.contains(capability) { all.append(capability) }
        }
        return all
    }

    /// Each plugin's configuration problems (its section does not decode or validate), by plugin name.
    public func configurationIssues() -> [String: [ArgumentIssue]] {
        var found: [String: [ArgumentIssue]] = [:]
        for plugin in plugins {
            let issues = plugin.configurationIssues(options.configuration[plugin.name] ?? .null)
            if !issues.isEmpty { found[plugin.name] = issues }
        }
        return found
    }

    /// Freezes the registered plugins into a registry whose events go to `events(plugin, event, payload)`
    /// and whose misuse reports (an undeclared event, an answer given twice) to `misuse`.
    public func makeRegistry(
        events: @escaping @Sendable (_ plugin: String, _ event: String, _ payload: BridgeValue) -> Void,
        misuse: @escaping @Sendable (String) -> Void = { _ in }
    ) -> PluginRegistry {
        let plugins = self.plugins
        let environment = HostEnvironment(
            runtime: options.runtime, permissions: options.permissions, clock: options.clock, storage: options.storage,
            capabilities: capabilities)
        let registry = PluginRegistry(
            plugins: plugins.map {
                $0.instantiate(
                    configuration: options.configuration[$0.name] ?? .null, environment: environment, events: events,
                    misuse: misuse)
            })
        environment.peers.attach(registry)
        return registry
    }
}

/// A registered plugin's declaration, seen without its type: what runtimes, command lines and typings read.
public protocol PluginRegistration: Sendable {
    /// The plugin's name.
    var name: String { get }
    /// The capabilities it declares.
    var capabilities: [Capability] { get }
    /// Its command-line options.
    var options: [CommandLineOption] { get }
    /// Its JavaScript API files.
    var scripts: [PluginScript] { get }
    /// Its typings as runtime `runtime` writes them (`<runtime> --typings <name>`).
    func typings(runtime: String) -> String
    /// The problems of `section` as the plugin's configuration (none when it decodes and validates).
    func configurationIssues(_ section: JSONValue) -> [ArgumentIssue]
    /// Makes the plugin's runtime instance: actions bound; configuration decoded and state made at set-up.
    func instantiate(
        configuration: JSONValue, environment: HostEnvironment,
        events: @escaping @Sendable (String, String, BridgeValue) -> Void, misuse: @escaping @Sendable (String) -> Void
    ) -> RegisteredPlugin
}

extension PluginRegistration {
    /// Its typings as `jsbridge` writes them (`jsbridge --typings <name>`).
    public var typings: String { typings(runtime: "jsbridge") }
}

struct Registration<Plugin: BridgePlugin>: PluginRegistration {
    let plugin: Plugin
    let declaration: PluginDeclaration<Plugin>

    init(_ plugin: Plugin) throws(BridgeError) {
        self.plugin = plugin
        declaration = PluginDeclaration.of(Plugin.self)
        if let problem = declaration.problems.first {
            throw BridgeError(code: BridgeError.Code.pluginError, message: "Plugin '\(Plugin.name)': \(problem).")
        }
    }

    var name: String { Plugin.name }
    var capabilities: [Capability] { declaration.capabilities }
    var options: [CommandLineOption] { declaration.options }
    var scripts: [PluginScript] { declaration.scripts }
    func typings(runtime: String) -> String { PluginTypings(declaration, runtime: runtime).text }

    func configurationIssues(_ section: JSONValue) -> [ArgumentIssue] {
        switch Self.decodeConfiguration(section) {
        case .success: []
        case .failure(let problem): problem.issues
        }
    }

    static func decodeConfiguration(_ section: JSONValue) -> Result<Plugin.Configuration, ConfigurationIssues> {
        // A missing section decodes from `{}`, except as raw JSON (which keeps `null`: nothing was given).
        let source: JSONValue = section == .null && Plugin.Configuration.self != JSONValue.self ? .object([:]) : section
        let configuration: Plugin.Configuration
        do {
            configuration = try JSONValueDecoder().decode(Plugin.Configuration.self, from: source)
        } catch let error as DecodingError {
            return .failure(ConfigurationIssues(issues: error.issues))
        } catch let error as BridgeError {
            return .failure(ConfigurationIssues(issues: error.issues))
        } catch {
            return .failure(ConfigurationIssues(issues: [ArgumentIssue(path: "", message: "\(error)")]))
        }
        let issues = configuration.validate()
        return issues.isEmpty ? .success(configuration) : .failure(ConfigurationIssues(issues: issues))
    }

    func instantiate(
        configuration section: JSONValue, environment: HostEnvironment,
        events sink: @escaping @Sendable (String, String, BridgeValue) -> Void,
        misuse: @escaping @Sendable (String) -> Void
    ) -> RegisteredPlugin {
        let events = PluginEvents(plugin: Plugin.name, declared: declaration.events, sink: sink, misuse: misuse)
        // The section is decoded when the plugin is set up: a plugin never called costs nothing more.
        let instance = PluginInstance(plugin: plugin) { () -> Result<SetUpContext<Plugin>, BridgeError> in
            switch Self.decodeConfiguration(section) {
            case .success(let configuration):
                .success(SetUpContext(configuration: configuration, environment: environment, events: events))
            case .failure(let problem): .failure(problem.error(plugin: Plugin.name))
            }
        }
        var hearLifecycle: (@Sendable (LifecycleEvent, Bool) async -> Void)?
        if let handler = declaration.lifecycle {
            let cell = instance.cell
            hearLifecycle = { event, setUp in
                guard setUp || cell.isReady.load(ordering: .acquiring),
                    let context = try? await cell.awaited(requiring: nil)
                else { return }
                await handler(context, event)
            }
        }
        return RegisteredPlugin(
            name: Plugin.name, lifecycle: instance, scripts: declaration.scripts, constants: declaration.constants,
            actions: declaration.actions.mapValues { instance.bind($0) }, hearLifecycle: hearLifecycle)
    }
}

/// A configuration section's problems.
struct ConfigurationIssues: Error {
    var issues: [ArgumentIssue]

    /// `INVALID_ARGUMENT` naming every issue in its message, with the issues in `data.issues`.
    func error(plugin: String) -> BridgeError {
        let list = issues.map { ($0.path.isEmpty ? "" : "at '\($0.path)': ") + $0.message }.joined(separator: "; ")
        return BridgeError.invalidArgument(
            "The configuration of plugin '\(plugin)' is invalid: \(list).", issues: issues)
    }
}

extension BridgeError {
    /// The `{path, message}` issues in `data.issues` (for `INVALID_ARGUMENT`), or the message as one issue.
    var issues: [ArgumentIssue] {
        guard case .array(let list)? = data?["issues"] else { return [ArgumentIssue(path: "", message: message)] }
        return list.map {
            ArgumentIssue(path: $0["path"]?.stringValue ?? "", message: $0["message"]?.stringValue ?? "")
        }
    }
}
