import Dispatch
import Synchronization

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

        public init(
            permissions: Permissions = .none,
            configuration: JSONObject = [:],
            clock: any BridgeClock = SystemClock(),
            storage: StorageLocation = StorageLocation(appID: "default", directory: StorageLocation.defaultDirectory())
        ) {
            self.permissions = permissions
            self.configuration = configuration
            self.clock = clock
            self.storage = storage
        }
    }

    /// The shared environment.
    public let options: Options
    private let registrations = Mutex<[any PluginRegistration]>([])

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
        for plugin in plugins { for capability in plugin.capabilities where !all.contains(capability) { all.append(capability) } }
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
        events: @escaping @Sendable (_ plugin: String, _ event: String, _ payload: JSONValue) -> Void,
        misuse: @escaping @Sendable (String) -> Void = { _ in }
    ) -> PluginRegistry {
        let plugins = self.plugins
        let environment = HostEnvironment(
            permissions: options.permissions, clock: options.clock, storage: options.storage,
            capabilities: capabilities)
        return PluginRegistry(
            plugins: plugins.map {
                $0.instantiate(
                    configuration: options.configuration[$0.name] ?? .null, environment: environment, events: events,
                    misuse: misuse)
            })
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
    /// Its typings (`jsbridge --typings <name>`).
    var typings: String { get }
    /// The problems of `section` as the plugin's configuration (none when it decodes and validates).
    func configurationIssues(_ section: JSONValue) -> [ArgumentIssue]
    /// Makes the plugin's runtime instance (configuration decoded, actions bound, set-up not yet run).
    func instantiate(
        configuration: JSONValue, environment: HostEnvironment,
        events: @escaping @Sendable (String, String, JSONValue) -> Void, misuse: @escaping @Sendable (String) -> Void
    ) -> RegisteredPlugin
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
    var typings: String { PluginTypings(declaration).text }

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
        events sink: @escaping @Sendable (String, String, JSONValue) -> Void, misuse: @escaping @Sendable (String) -> Void
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
        return RegisteredPlugin(
            name: Plugin.name, lifecycle: instance, scripts: declaration.scripts,
            actions: declaration.actions.mapValues { instance.bind($0) })
    }
}

/// A configuration section's problems.
struct ConfigurationIssues: Error {
    var issues: [ArgumentIssue]

    /// `INVALID_ARGUMENT` naming every issue in its message, with the issues in `data.issues`.
    func error(plugin: String) -> BridgeError {
        let list = issues.map { ($0.path.isEmpty ? "" : "at '\($0.path)': ") + $0.message }.joined(separator: "; ")
        return BridgeError.invalidArgument("The configuration of plugin '\(plugin)' is invalid: \(list).", issues: issues)
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

// MARK: - A plugin at run time

/// Set-up and shutdown of one plugin instance, seen without its type.
protocol PluginLifecycle: Sendable {
    /// Runs set-up unless it ran; returns its failure.
    func setUpIfNeeded() async -> BridgeError?
    /// Shuts down, if set-up ran.
    func shutdown() async
    /// Whether set-up has started (or ended).
    var hasStarted: Bool { get }
}

/// Where a plugin's actions find its context once set-up has made its state.
///
/// The fast path is inlinable: the declaration's closures, built in the plugin's own module, read the context
/// with code specialised for the plugin (generic code here would look up type metadata on every call).
public final class ContextCell<Plugin: BridgePlugin>: @unchecked Sendable {
    // Written once, before `isReady` is set (release); read after it was seen set (acquire).
    @usableFromInline var context: PluginContext<Plugin>?
    @usableFromInline let isReady = Atomic<Bool>(false)
    weak var instance: PluginInstance<Plugin>?

    init() {}

    func publish(_ context: PluginContext<Plugin>) {
        self.context = context
        isReady.store(true, ordering: .releasing)
    }

    /// The context for a call on a thread that may block (sync and `start` actions): set-up, when it has not
    /// run yet, is awaited here. Throws `PERMISSION_DENIED` unless `capability` (when given) is granted.
    @inlinable @inline(__always)
    public func now(requiring capability: Capability?) throws(BridgeError) -> PluginContext<Plugin> {
        let context: PluginContext<Plugin>
        if isReady.load(ordering: .acquiring), let ready = self.context {
            context = ready
        } else {
            context = try waitBlocking()
        }
        if let capability { try context.require(capability) }
        return context
    }

    /// The context for a call in a task: set-up, when it has not run yet, is awaited.
    @inlinable @inline(__always)
    public func awaited(requiring capability: Capability?) async throws(BridgeError) -> PluginContext<Plugin> {
        let context: PluginContext<Plugin>
        if isReady.load(ordering: .acquiring), let ready = self.context {
            context = ready
        } else {
            context = try await waitForSetUp()
        }
        if let capability { try context.require(capability) }
        return context
    }

    @usableFromInline
    func waitBlocking() throws(BridgeError) -> PluginContext<Plugin> {
        guard let instance else { throw PluginInstance<Plugin>.gone }
        let failure = JSBridgeCore.waitBlocking { await instance.setUpIfNeeded() }
        if let failure { throw failure }
        return try instance.contextAfterSetUp()
    }

    @usableFromInline
    func waitForSetUp() async throws(BridgeError) -> PluginContext<Plugin> {
        guard let instance else { throw PluginInstance<Plugin>.gone }
        if let failure = await instance.setUpIfNeeded() { throw failure }
        return try instance.contextAfterSetUp()
    }
}

/// A plugin with its configuration and lazily made state.
final class PluginInstance<Plugin: BridgePlugin>: PluginLifecycle, @unchecked Sendable {
    private enum Phase {
        case idle
        case running([CheckedContinuation<Void, Never>])
        case ready(PluginContext<Plugin>)
        case failed(BridgeError)
        case shutDown
    }

    let plugin: Plugin
    /// Decodes the configuration and makes the set-up context (once, when set-up starts).
    private let makeSetUpContext: @Sendable () -> Result<SetUpContext<Plugin>, BridgeError>
    private let phase = Mutex<Phase>(.idle)
    let cell = ContextCell<Plugin>()

    static var gone: BridgeError {
        BridgeError(code: BridgeError.Code.pluginError, message: "Plugin '\(Plugin.name)' is no longer registered.")
    }

    init(plugin: Plugin, setUpContext: @escaping @Sendable () -> Result<SetUpContext<Plugin>, BridgeError>) {
        self.plugin = plugin
        self.makeSetUpContext = setUpContext
        cell.instance = self
    }

    func contextAfterSetUp() throws(BridgeError) -> PluginContext<Plugin> {
        let current = phase.withLock { $0 }
        switch current {
        case .ready(let context): return context
        case .failed(let error): throw error
        case .shutDown:
            throw BridgeError(code: BridgeError.Code.pluginError, message: "Plugin '\(Plugin.name)' was shut down.")
        case .idle, .running:
            throw BridgeError(code: BridgeError.Code.pluginError, message: "Plugin '\(Plugin.name)' is not set up.")
        }
    }

    private enum SetUpStep {
        case run(SetUpContext<Plugin>)
        case wait
        case done(BridgeError?)
    }

    func setUpIfNeeded() async -> BridgeError? {
        let step = phase.withLock { phase -> SetUpStep in
            switch phase {
            case .idle:
                switch makeSetUpContext() {
                case .success(let context):
                    phase = .running([])
                    return .run(context)
                case .failure(let error):
                    phase = .failed(error)
                    return .done(error)
                }
            case .running: return .wait
            case .ready: return .done(nil)
            case .failed(let error): return .done(error)
            case .shutDown: return .done(nil)
            }
        }
        switch step {
        case .done(let failure):
            return failure
        case .wait:
            await withCheckedContinuation { continuation in
                let resumeNow = phase.withLock { phase -> Bool in
                    guard case .running(var waiters) = phase else { return true }
                    waiters.append(continuation)
                    phase = .running(waiters)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
            return phase.withLock { if case .failed(let error) = $0 { error } else { nil } }
        case .run(let context):
            let outcome: Result<PluginContext<Plugin>, BridgeError>
            do {
                outcome = .success(PluginContext(state: try await plugin.setUp(context), setUp: context))
            } catch {
                let cause = BridgeError(from: error)
                outcome = .failure(
                    BridgeError(
                        code: cause.code, message: "Plugin '\(Plugin.name)' failed to set up: \(cause.message)",
                        data: cause.data))
            }
            let waiters = phase.withLock { phase -> [CheckedContinuation<Void, Never>] in
                guard case .running(let waiters) = phase else { return [] }
                switch outcome {
                case .success(let ready):
                    cell.publish(ready)
                    phase = .ready(ready)
                case .failure(let error): phase = .failed(error)
                }
                return waiters
            }
            for waiter in waiters { waiter.resume() }
            if case .failure(let error) = outcome { return error }
            return nil
        }
    }

    var hasStarted: Bool {
        phase.withLock {
            switch $0 {
            case .idle, .failed: false
            case .running, .ready, .shutDown: true
            }
        }
    }

    func shutdown() async {
        let state = phase.withLock { phase -> Plugin.State? in
            defer { phase = .shutDown }
            if case .ready(let context) = phase { return context.state }
            return nil
        }
        if let state { await plugin.shutdown(state) }
    }

    /// The declared action as a plugin-independent ``Action`` bound to this instance's context cell.
    func bind(_ declared: ActionDeclaration<Plugin>) -> Action {
        let cell = self.cell
        let body: Action.Body
        switch declared.body {
        case .sync(let run):
            body = .sync { json in try run(cell, json) }
        case .reply(let run):
            body = .reply { json, reply in await run(cell, json, reply) }
        case .start(let run):
            body = .start { json, reply in run(cell, json, reply) }
        }
        return Action(kind: declared.kind, executor: declared.executor, body: body)
    }
}

/// Runs async work to completion from synchronous code on a thread that may block (the JS thread).
///
/// The work runs on the plugins' own ``ActionExecutor``, not Swift's global pool, so it proceeds even when
/// other code in the process blocks the global pool's few threads.
public func waitBlocking<T: Sendable>(_ operation: @escaping @Sendable () async -> T) -> T {
    let slot = BlockingSlot<T>()
    let done = DispatchSemaphore(value: 0)
    Task(executorPreference: ActionExecutor.shared) {
        let value = await operation()
        slot.value.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return slot.value.withLock { $0! }
}

private final class BlockingSlot<T: Sendable>: Sendable {
    let value = Mutex<T?>(nil)
}
