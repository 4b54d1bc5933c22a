import Synchronization

/// The plugins of one runtime and the environment they share (configuration, permissions, clock, storage).
///
/// Plugins are registered on a host instance — never on a global — before a runtime or test harness
/// starts with it.
public final class BridgeHost: Sendable {
    /// What every plugin of this host sees through its ``PluginContext``.
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
    private let plugins = Mutex<[any BridgePlugin]>([])

    /// Creates a host with no plugins.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Registers a plugin; throws when the name is taken or an action is declared twice.
    public func register(_ plugin: some BridgePlugin) throws(BridgeError) {
        let name = type(of: plugin).name
        var table = ActionTable()
        plugin.actions(&table)
        if let duplicate = table.duplicates.first {
            throw BridgeError(
                code: BridgeError.Code.pluginError,
                message: "Plugin '\(name)' declares action '\(duplicate)' more than once.")
        }
        try plugins.withLock { (list) throws(BridgeError) in
            if list.contains(where: { type(of: $0).name == name }) {
                throw BridgeError(
                    code: BridgeError.Code.pluginError, message: "A plugin named '\(name)' is already registered.")
            }
            list.append(plugin)
        }
    }

    /// The names of the registered plugins, in registration order.
    public var pluginNames: [String] { plugins.withLock { $0.map { type(of: $0).name } } }

    /// Freezes the registered plugins into a registry whose events go to `events(plugin, event, payload)`.
    public func makeRegistry(
        events: @escaping @Sendable (_ plugin: String, _ event: String, _ payload: JSONValue) -> Void
    ) -> PluginRegistry {
        let list = plugins.withLock { $0 }
        return PluginRegistry(
            plugins: list.map { plugin in
                let name = type(of: plugin).name
                let context = PluginContext(
                    pluginName: name,
                    configuration: options.configuration[name] ?? .null,
                    permissions: options.permissions,
                    clock: options.clock,
                    storage: options.storage,
                    eventSink: { event, payload in events(name, event, payload) })
                return RegisteredPlugin(plugin: plugin, context: context)
            })
    }
}

/// A registered plugin with its context, action table and serial queue.
public final class RegisteredPlugin: Sendable {
    public let name: String
    public let context: PluginContext
    let plugin: any BridgePlugin
    let actions: [String: Action]
    let serialQueue = SerialQueue()
    private let setUpFailure = Mutex<BridgeError?>(nil)
    private let failed = Atomic<Bool>(false)

    init(plugin: any BridgePlugin, context: PluginContext) {
        self.name = type(of: plugin).name
        self.plugin = plugin
        self.context = context
        var table = ActionTable()
        plugin.actions(&table)
        self.actions = table.entries
    }

    /// The names of the plugin's actions with their kinds, sorted by name.
    public var actionKinds: [(name: String, kind: Action.Kind)] {
        actions.map { ($0.key, $0.value.kind) }.sorted { $0.name < $1.name }
    }

    func checkAvailable() throws(BridgeError) {
        guard failed.load(ordering: .acquiring) else { return }
        if let failure = setUpFailure.withLock({ $0 }) { throw failure }
    }

    func recordSetUpFailure(_ error: any Error) -> BridgeError {
        let cause = BridgeError(from: error)
        let failure = BridgeError(
            code: cause.code == BridgeError.Code.pluginError ? BridgeError.Code.pluginError : cause.code,
            message: "Plugin '\(name)' failed to set up: \(cause.message)", data: cause.data)
        setUpFailure.withLock { $0 = failure }
        failed.store(true, ordering: .releasing)
        return failure
    }
}

/// An action looked up by plugin and name, ready to invoke.
public struct ResolvedAction: Sendable {
    public let plugin: RegisteredPlugin
    public let name: String
    public let action: Action
}

/// Cancels a call in flight; the call then ends with `CANCELLED` unless it already answered.
public final class CallHandle: Sendable {
    private let state: CallState
    private let task = Mutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))

    init(reply: CallReply) { self.state = reply.state }

    /// Tells the call that the consumer took `count` stream values (stream back-pressure).
    public func acknowledge(_ count: Int = 1) {
        state.unacknowledged.subtract(count, ordering: .relaxed)
    }

    /// Requests cancellation; reaches the Swift task running the action, or the cancel handler of an action
    /// that answers from callbacks.
    public func cancel() {
        state.cancel()
        let running = task.withLock { state -> Task<Void, Never>? in
            state.cancelled = true
            return state.task
        }
        running?.cancel()
    }

    func attach(_ newTask: Task<Void, Never>) {
        let cancelled = task.withLock { state -> Bool in
            state.task = newTask
            return state.cancelled
        }
        if cancelled { newTask.cancel() }
    }

    var isCancelled: Bool { task.withLock { $0.cancelled } }
}

/// The frozen set of plugins of one runtime: lookup, invocation, set-up and shutdown.
public final class PluginRegistry: Sendable {
    /// The plugins, in registration order.
    public let plugins: [RegisteredPlugin]
    private let byName: [String: RegisteredPlugin]

    init(plugins: [RegisteredPlugin]) {
        self.plugins = plugins
        self.byName = Dictionary(plugins.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Finds `plugin`'s `action`, or the `PLUGIN_NOT_FOUND` / `ACTION_NOT_FOUND` error.
    public func resolve(plugin: String, action: String) throws(BridgeError) -> ResolvedAction {
        guard let registered = byName[plugin] else { throw .pluginNotFound(plugin) }
        guard let found = registered.actions[action] else { throw .actionNotFound(plugin, action) }
        return ResolvedAction(plugin: registered, name: action, action: found)
    }

    /// Runs every plugin's `setUp` concurrently; returns the failures (those plugins' calls then fail).
    public func setUp() async -> [BridgeError] {
        await withTaskGroup(of: BridgeError?.self) { group in
            for plugin in plugins {
                group.addTask {
                    do {
                        try await plugin.plugin.setUp(plugin.context)
                        return nil
                    } catch {
                        return plugin.recordSetUpFailure(error)
                    }
                }
            }
            var failures: [BridgeError] = []
            for await failure in group { if let failure { failures.append(failure) } }
            return failures
        }
    }

    /// Runs every plugin's `shutdown` concurrently and waits for all of them.
    public func shutdown() async {
        await withTaskGroup(of: Void.self) { group in
            for plugin in plugins { group.addTask { await plugin.plugin.shutdown() } }
        }
    }

    /// A function that runs `resolved` (a sync action) on the calling thread, or nil for other kinds.
    ///
    /// Hosts resolve it once per action, keeping per-call work to the action itself.
    public func syncInvoker(for resolved: ResolvedAction) -> (@Sendable (JSONValue) throws(BridgeError) -> JSONValue)? {
        guard case .sync(let body) = resolved.action.body else { return nil }
        let plugin = resolved.plugin
        let context = plugin.context
        return { arguments throws(BridgeError) in
            try plugin.checkAvailable()
            do {
                return try body(context, arguments)
            } catch {
                throw BridgeError(from: error)
            }
        }
    }

    /// Runs a sync action on the calling thread.
    public func invokeSync(_ resolved: ResolvedAction, arguments: JSONValue) throws(BridgeError) -> JSONValue {
        guard case .sync(let body) = resolved.action.body else {
            throw .actionNotFound(
                resolved.plugin.name, resolved.name,
                hint: "it is \(resolved.action.kind.article) action; call it with \(resolved.action.kind.jsCall)")
        }
        try resolved.plugin.checkAvailable()
        do {
            return try body(resolved.plugin.context, arguments)
        } catch {
            throw BridgeError(from: error)
        }
    }

    /// Starts an async or stream action on its executor; its outcomes go to `reply`.
    @discardableResult
    public func invoke(_ resolved: ResolvedAction, arguments: JSONValue, reply: CallReply) -> CallHandle {
        let call = PreparedCall(resolved: resolved, arguments: arguments, reply: reply)
        call.start()
        return call.handle
    }
}

/// A call ready to start: its handle exists before it runs, so callers can record and cancel it at once.
///
/// Hosts that issue many calls at a time prepare them on their own thread and start a batch from one
/// task (``startAll(_:)``), which wakes the executor once instead of once per call.
public struct PreparedCall: Sendable {
    let resolved: ResolvedAction
    let arguments: JSONValue
    let reply: CallReply
    /// Cancels the call.
    public let handle: CallHandle

    /// Prepares `resolved` with `arguments`; outcomes go to `reply`.
    public init(resolved: ResolvedAction, arguments: JSONValue, reply: CallReply) {
        self.resolved = resolved
        self.arguments = arguments
        self.reply = reply
        self.handle = CallHandle(reply: reply)
    }

    /// Starts the call on its executor (sync and `start` actions run right here).
    public func start() {
        let context = resolved.plugin.context
        let (arguments, reply, handle) = (self.arguments, self.reply, self.handle)
        do {
            try resolved.plugin.checkAvailable()
        } catch {
            reply.reject(error)
            return
        }
        switch resolved.action.body {
        case .sync(let body):
            do {
                reply.resolve(try body(context, arguments))
            } catch {
                reply.reject(error)
            }
        case .start(let body):
            body(context, arguments, reply)
        case .reply(let body):
            switch resolved.action.executor {
            case .concurrent:
                handle.attach(Task(executorPreference: ActionExecutor.shared) { await body(context, arguments, reply) })
            case .custom(let custom):
                let executor = custom.next()
                handle.attach(
                    Task(executorPreference: executor) {
                        await body(context, arguments, reply)
                        custom.ended(executor)
                    })
            case .serial:
                resolved.plugin.serialQueue.enqueue {
                    if handle.isCancelled {
                        reply.reject(BridgeError.cancelled)
                        return
                    }
                    let task = Task(executorPreference: ActionExecutor.shared) { await body(context, arguments, reply) }
                    handle.attach(task)
                    await task.value
                }
            }
        }
    }

    /// Starts `calls` in order: those bound for the shared pool from one pool task (one wake-up for the
    /// batch), the others right here — actions with executors of their own are enqueued there anyway (a
    /// detour through the pool would cost a thread wake-up more), and `start` actions run where they start.
    public static func startAll(_ calls: [PreparedCall]) {
        var pooled: [PreparedCall] = []
        for call in calls {
            switch (call.resolved.action.body, call.resolved.action.executor) {
            case (.start, _), (.reply, .custom): call.start()
            default: pooled.append(call)
            }
        }
        if pooled.count == 1 {
            pooled[0].start()
        } else if !pooled.isEmpty {
            Task(executorPreference: ActionExecutor.shared) { for call in pooled { call.start() } }
        }
    }
}

extension Action.Kind {
    var article: String { self == .async ? "an async" : "a \(rawValue)" }
    var jsCall: String {
        switch self {
        case .sync: "bridge.execSync or bridge.call"
        case .async: "bridge.call or bridge.exec"
        case .stream: "bridge.subscribe or bridge.exec"
        }
    }
}

/// Runs jobs one at a time in FIFO order (a plugin's serial executor).
final class SerialQueue: Sendable {
    private let state = Mutex<(jobs: [@Sendable () async -> Void], head: Int, running: Bool)>(([], 0, false))

    func enqueue(_ job: @escaping @Sendable () async -> Void) {
        let start = state.withLock { s -> Bool in
            s.jobs.append(job)
            if s.running { return false }
            s.running = true
            return true
        }
        if start { Task(executorPreference: ActionExecutor.shared) { await self.drain() } }
    }

    private func next() -> (@Sendable () async -> Void)? {
        state.withLock { s in
            guard s.head < s.jobs.count else {
                s.jobs.removeAll(keepingCapacity: true)
                s.head = 0
                s.running = false
                return nil
            }
            defer { s.head += 1 }
            return s.jobs[s.head]
        }
    }

    private func drain() async {
        while let job = next() { await job() }
    }
}
