import JSBridgeBase

/// One action of a registered plugin, bound to the plugin's instance (its state and configuration).
public struct Action: Sendable {
    /// How an action is called.
    public enum Kind: String, Sendable {
        case sync, async, stream
    }

    enum Body: Sendable {
        case sync(@Sendable (BridgeValue) throws -> BridgeValue)
        case reply(@Sendable (BridgeValue, CallReply) async -> Void)
        /// Runs where the call starts; answers through the reply later.
        case start(@Sendable (BridgeValue, CallReply) -> Void)
    }

    public let kind: Kind
    public let executor: ActionExecutorChoice
    /// Whether only the plugin's own JavaScript may call it (``PluginDeclaration/keepPrivate(_:)``).
    public let isPrivate: Bool
    /// Whether a call stops holding the run after its first value (``PluginDeclaration/background(_:)``).
    public let isBackground: Bool
    let body: Body

    init(kind: Kind, executor: ActionExecutorChoice, isPrivate: Bool, isBackground: Bool = false, body: Body) {
        self.kind = kind
        self.executor = executor
        self.isPrivate = isPrivate
        self.isBackground = isBackground
        self.body = body
    }
}

/// A registered plugin of a runtime: its bound actions, scripts and serial queue.
public final class RegisteredPlugin: Sendable {
    public let name: String
    let actions: [String: Action]
    /// The plugin's JavaScript API files.
    public let scripts: [PluginScript]
    /// The values its JavaScript files read as `plugin.constants`.
    public let constants: JSONObject
    let lifecycle: any PluginLifecycle
    /// The plugin's ``PluginDeclaration/onLifecycle(_:)`` handler, bound to its instance (`setUp`: whether it
    /// may set the plugin up first).
    let hearLifecycle: (@Sendable (LifecycleEvent, _ setUp: Bool) async -> Void)?
    let serialQueue = SerialQueue()

    init(
        name: String, lifecycle: any PluginLifecycle, scripts: [PluginScript], constants: JSONObject = [:],
        actions: [String: Action], hearLifecycle: (@Sendable (LifecycleEvent, Bool) async -> Void)? = nil
    ) {
        self.hearLifecycle = hearLifecycle
        self.constants = constants
        self.name = name
        self.lifecycle = lifecycle
        self.scripts = scripts
        self.actions = actions
    }

    /// The names of the plugin's actions with their kinds, sorted by name.
    public var actionKinds: [(name: String, kind: Action.Kind)] {
        actions.map { ($0.key, $0.value.kind) }.sorted { $0.name < $1.name }
    }

    /// The plugin's actions, sorted by name.
    public var sortedActions: [(name: String, action: Action)] {
        actions.map { ($0.key, $0.value) }.sorted { $0.name < $1.name }
    }
}

/// The run's lifecycle events a plugin hears (``PluginDeclaration/onLifecycle(_:)``).
public enum LifecycleEvent: String, Sendable, Hashable, CaseIterable {
    /// The process is about to stop (SIGTSTP; Cordova's `pause`).
    case pause
    /// The process continued (SIGCONT; Cordova's `resume`).
    case resume
    /// Cordova's start-up is done and `deviceready` is next: it waits until every plugin's handler returns.
    case beforeDeviceReady
    /// `deviceready` has fired.
    case afterDeviceReady
}

/// An action looked up by plugin and name, ready to invoke.
///
/// A class: a call in flight refers to its action, and one reference is cheaper to pass along than the fields.
public final class ResolvedAction: Sendable {
    public let plugin: RegisteredPlugin
    public let name: String
    public let action: Action

    init(plugin: RegisteredPlugin, name: String, action: Action) {
        self.plugin = plugin
        self.name = name
        self.action = action
    }
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

    /// Finds `plugin`'s `action`, or the `PLUGIN_NOT_FOUND` / `ACTION_NOT_FOUND` error (with a suggestion).
    public func resolve(plugin: String, action: String) throws(BridgeError) -> ResolvedAction {
        guard let registered = byName[plugin], let found = registered.actions[action] else {
            throw notFound(plugin: plugin, action: action)
        }
        return ResolvedAction(plugin: registered, name: action, action: found)
    }

    /// The error for a call of `plugin`'s `action` that does not exist: `PLUGIN_NOT_FOUND` or
    /// `ACTION_NOT_FOUND`, suggesting the closest name ("did you mean 'ping'?").
    public func notFound(plugin: String, action: String) -> BridgeError {
        guard let registered = byName[plugin] else {
            var error = BridgeError.pluginNotFound(plugin)
            if let suggestion = closestName(to: plugin, among: plugins.map(\.name)) {
                error.message = "No plugin named '\(plugin)' is registered; did you mean '\(suggestion)'?"
            }
            return error
        }
        let suggestion = closestName(
            to: action, among: registered.actions.filter { !$0.value.isPrivate }.map(\.key))
        return .actionNotFound(plugin, action, hint: suggestion.map { "did you mean '\($0)'?" })
    }

    /// Runs the set-up of every plugin that has not been set up, concurrently; returns the failures.
    public func setUpAll() async -> [BridgeError] {
        await withTaskGroup(of: BridgeError?.self) { group in
            for plugin in plugins { group.addTask { await plugin.lifecycle.setUpIfNeeded() } }
            var failures: [BridgeError] = []
            for await failure in group { if let failure { failures.append(failure) } }
            return failures
        }
    }

    /// Runs the set-up of `plugin` (by name) unless it ran; returns its failure.
    public func setUp(_ plugin: String) async -> BridgeError? {
        guard let registered = byName[plugin] else { return .pluginNotFound(plugin) }
        return await registered.lifecycle.setUpIfNeeded()
    }

    /// Whether any plugin hears lifecycle events (``PluginDeclaration/onLifecycle(_:)``).
    public var anyHearsLifecycle: Bool { plugins.contains { $0.hearLifecycle != nil } }

    /// Tells the plugins that declared ``PluginDeclaration/onLifecycle(_:)`` of `event`, concurrently, and waits
    /// for all of them. `beforeDeviceReady` and `afterDeviceReady` set such a plugin up first; `pause` and
    /// `resume` reach only the plugins already set up.
    public func broadcast(_ event: LifecycleEvent) async {
        let setUp = event == .beforeDeviceReady || event == .afterDeviceReady
        await withTaskGroup(of: Void.self) { group in
            for plugin in plugins {
                guard let hear = plugin.hearLifecycle, setUp || plugin.lifecycle.hasStarted else { continue }
                group.addTask { await hear(event, setUp) }
            }
        }
    }

    /// Whether any plugin's set-up has started (so that there may be something to shut down).
    public var anySetUp: Bool { plugins.contains { $0.lifecycle.hasStarted } }

    /// Shuts every plugin that was set up down, concurrently, and waits for all of them.
    public func shutdown() async {
        await withTaskGroup(of: Void.self) { group in
            for plugin in plugins { group.addTask { await plugin.lifecycle.shutdown() } }
        }
    }

    /// A function that runs `resolved` (a sync action) on the calling thread, or nil for other kinds.
    ///
    /// Hosts resolve it once per action, keeping per-call work to the action itself.
    public func syncInvoker(for resolved: ResolvedAction)
        -> (@Sendable (BridgeValue) throws(BridgeError) -> BridgeValue)?
    {
        guard case .sync(let body) = resolved.action.body else { return nil }
        return { arguments throws(BridgeError) in
            do {
                return try body(arguments)
            } catch {
                throw BridgeError(from: error)
            }
        }
    }

    /// Runs a sync action on the calling thread; bytes in its result are written into the JSON as base64.
    public func invokeSync(_ resolved: ResolvedAction, arguments: JSONValue) throws(BridgeError) -> JSONValue {
        try invokeSync(resolved, arguments: BridgeValue(arguments)).plainJSON
    }

    /// Runs a sync action on the calling thread, with bytes beside the arguments' and the result's JSON.
    public func invokeSync(_ resolved: ResolvedAction, arguments: BridgeValue) throws(BridgeError) -> BridgeValue {
        guard let invoke = syncInvoker(for: resolved) else {
            throw .actionNotFound(
                resolved.plugin.name, resolved.name,
                hint: "it is \(resolved.action.kind.article) action; call it with \(resolved.action.kind.jsCall)")
        }
        return try invoke(arguments)
    }

    /// Starts an async or stream action on its executor; its outcomes go to `reply`.
    @discardableResult
    public func invoke(_ resolved: ResolvedAction, arguments: JSONValue, reply: CallReply) -> CallHandle {
        invoke(resolved, arguments: BridgeValue(arguments), reply: reply)
    }

    /// Starts an async or stream action with bytes beside its arguments' JSON; its outcomes go to `reply`.
    @discardableResult
    public func invoke(_ resolved: ResolvedAction, arguments: BridgeValue, reply: CallReply) -> CallHandle {
        let call = PreparedCall(resolved: resolved, arguments: arguments, reply: reply)
        call.start()
        return call.handle
    }
}

/// The candidate closest to `name` (edit distance at most a third of its length, or a case-insensitive
/// match), for "did you mean" hints.
package func closestName(to name: String, among candidates: [String]) -> String? {
    let target = Array(name.lowercased().utf8)
    var best: (name: String, distance: Int)?
    for candidate in candidates.sorted() {
        let distance = editDistance(target, Array(candidate.lowercased().utf8))
        if distance <= max(1, target.count / 3), distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    return best?.name
}

private func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

/// Cancels a call in flight; the call then ends with `CANCELLED` unless it already answered.
public final class CallHandle: Sendable {
    private let state: CallState

    init(reply: CallReply) { self.state = reply.state }

    /// A handle for work a host runs itself on behalf of a call (not a plugin action): cancelling it cancels
    /// `task`.
    public static func running(_ task: Task<Void, Never>, reply: CallReply) -> CallHandle {
        let handle = CallHandle(reply: reply)
        handle.attach(task)
        return handle
    }

    /// Tells the call that the consumer took `count` stream values (stream back-pressure).
    public func acknowledge(_ count: Int = 1) {
        state.unacknowledged.subtract(count, ordering: .relaxed)
    }

    /// Requests cancellation; reaches the Swift task running the action, or the cancel handler of an action
    /// that answers from callbacks.
    public func cancel() { state.cancel() }

    func attach(_ task: Task<Void, Never>) { state.attach(task) }

    var isCancelled: Bool { state.isCancelled }

    /// Stream values sent and not yet acknowledged by the consumer.
    package var unacknowledged: Int { state.unacknowledged.load(ordering: .relaxed) }
}

/// A call ready to start: its handle exists before it runs, so callers can record and cancel it at once.
///
/// Hosts that issue many calls at a time prepare them on their own thread and start a batch from one
/// task (``startAll(_:)``), which wakes the executor once instead of once per call.
public final class PreparedCall: Sendable {
    let resolved: ResolvedAction
    let arguments: BridgeValue
    let reply: CallReply
    /// Cancels the call.
    public let handle: CallHandle

    /// Prepares `resolved` with `arguments`; outcomes go to `reply`.
    public convenience init(resolved: ResolvedAction, arguments: JSONValue, reply: CallReply) {
        self.init(resolved: resolved, arguments: BridgeValue(arguments), reply: reply)
    }

    /// Prepares `resolved` with `arguments`, which may carry bytes beside their JSON; outcomes go to `reply`.
    public init(resolved: ResolvedAction, arguments: BridgeValue, reply: CallReply) {
        self.resolved = resolved
        self.arguments = arguments
        self.reply = reply
        self.handle = CallHandle(reply: reply)
    }

    /// Starts the call on its executor (sync and `start` actions run right here).
    public func start() {
        let (arguments, reply, handle) = (self.arguments, self.reply, self.handle)
        switch resolved.action.body {
        case .sync(let body):
            do {
                reply.resolve(try body(arguments))
            } catch {
                reply.reject(error)
            }
        case .start(let body):
            body(arguments, reply)
        case .reply(let body):
            switch resolved.action.executor {
            case .concurrent, .start:
                handle.attach(Task(executorPreference: ActionExecutor.shared) { await body(arguments, reply) })
            case .custom(let custom):
                let executor = custom.next()
                handle.attach(
                    Task(executorPreference: executor) {
                        await body(arguments, reply)
                        custom.ended(executor)
                    })
            case .serial:
                resolved.plugin.serialQueue.enqueue {
                    if handle.isCancelled {
                        reply.reject(BridgeError.cancelled)
                        return
                    }
                    let task = Task(executorPreference: ActionExecutor.shared) { await body(arguments, reply) }
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
    private let state = Locked<(jobs: [@Sendable () async -> Void], head: Int, running: Bool)>(([], 0, false))

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

/// Where a stream action writes its values.
public struct StreamWriter<Element: Encodable & Sendable>: Sendable {
    @usableFromInline let reply: CallReply

    @usableFromInline
    init(reply: CallReply) { self.reply = reply }

    /// Sends one value to JavaScript; throws `CancellationError` once the stream was cancelled.
    ///
    /// When the script is ``CallState/window`` values behind, this waits for it to catch up, so a fast
    /// producer cannot fill memory.
    public func yield(_ value: Element) async throws {
        while reply.state.isBehind {
            if reply.isCancelled { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(1))
        }
        if reply.isCancelled || Task.isCancelled { throw CancellationError() }
        let encoded = try encodeBridgeResult(value)
        reply.yield(encoded)
    }

    /// Whether JavaScript cancelled the stream.
    public var isCancelled: Bool { reply.isCancelled || Task.isCancelled }
}
