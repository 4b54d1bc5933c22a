import Dispatch
import JSBridgeBase
import Synchronization

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
///
/// An invalid configuration fails every call. A set-up that throws fails the calls that awaited it, and the
/// next call runs it again (as Node's `require` after a module threw): a cause that passes — no file
/// descriptor left, a database server restarting — does not disable the plugin for the rest of the run.
final class PluginInstance<Plugin: BridgePlugin>: PluginLifecycle, @unchecked Sendable {
    private enum Phase {
        case idle
        /// Set-up is under way; the calls that wait for it hear how it ended (`.some(nil)`: it succeeded).
        case running([CheckedContinuation<BridgeError??, Never>])
        case ready(PluginContext<Plugin>)
        /// The configuration is invalid: no set-up is ever tried.
        case failed(BridgeError)
        case shutDown
    }

    let plugin: Plugin
    /// Decodes the configuration and makes the set-up context (once, when set-up starts).
    private let makeSetUpContext: @Sendable () -> Result<SetUpContext<Plugin>, BridgeError>
    private let phase = Locked<Phase>(.idle)
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
            let ended: BridgeError?? = await withCheckedContinuation { continuation in
                let resumeNow = phase.withLock { phase -> Bool in
                    guard case .running(var waiters) = phase else { return true }
                    waiters.append(continuation)
                    phase = .running(waiters)
                    return false
                }
                if resumeNow { continuation.resume(returning: nil) }
            }
            // nil: set-up ended between the two looks; look again.
            guard let ended else { return await setUpIfNeeded() }
            return ended
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
            let waiters = phase.withLock { phase -> [CheckedContinuation<BridgeError??, Never>] in
                guard case .running(let waiters) = phase else { return [] }
                switch outcome {
                case .success(let ready):
                    cell.publish(ready)
                    phase = .ready(ready)
                case .failure: phase = .idle
                }
                return waiters
            }
            let failure: BridgeError? = if case .failure(let error) = outcome { error } else { nil }
            for waiter in waiters { waiter.resume(returning: .some(failure)) }
            return failure
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
        return Action(
            kind: declared.kind, executor: declared.executor, isPrivate: declared.isPrivate,
            isBackground: declared.isBackground, body: body)
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
    let value = Locked<T?>(nil)
}
