import CJavaScriptCore
import Dispatch
import Foundation
import JSBridgeCore
import JSBridgeScripts
import NIOCore
import NIOPosix
import Synchronization

/// A JavaScriptCore engine with its event loop, globals and command queue to the host's plugins.
///
/// One runtime runs one script on the thread that created it (the JS thread): JS values never leave
/// that thread. Plugin work runs on executors and comes back through the ``Inbox``.
///
/// ```swift
/// let host = BridgeHost()
/// try host.register(MyPlugin())   // any BridgePlugin
/// let code = JSRuntime(host: host, options: RuntimeOptions()).run(.file("tour.js"))
/// ```
public final class JSRuntime {
    let options: RuntimeOptions
    let registry: PluginRegistry
    let output: any OutputSink
    let group: JSContextGroupRef
    let context: JSGlobalContextRef
    let inbox = Inbox()
    /// Script buffers lent to actions (BytesLane.swift).
    let lent = LentBuffers()
    var timers = TimerQueue()
    /// Actions by the index JavaScript uses (the manifest order).
    var actions: [ResolvedAction] = []
    /// For sync actions, their resolved invoker (same indices as `actions`).
    var syncInvokers: [(@Sendable (BridgeValue) throws(BridgeError) -> BridgeValue)?] = []
    /// Calls in flight, by id; they keep the process alive.
    var inFlight: [UInt64: InFlightCall] = [:]
    /// Calls made by JS during the current turn, started together when the turn ends.
    var submissions: [PreparedCall] = []
    /// The hidden `internal` object shared by the runtime's JS files.
    var internalObject: JSObjectRef!
    var hooks = Hooks()
    var stopping = false
    /// `process.stdin`'s reader (NodeNatives.swift).
    var stdin = StdinState()
    /// Whether the script's run has ended (its exit handlers ran, its plugins are shutting down).
    private var ended = false
    var exitCode: Int32 = 0
    /// The JS thread's event loop while ``run(_:)`` runs.
    private var eventLoop: (any EventLoop)?
    /// The loop's timer that wakes the JS thread for the next JS timer (or the `--timeout` deadline).
    private var wakeTimer: (deadline: UInt64, task: Scheduled<Void>, generation: UInt64)?
    /// Numbers the wake timers. A timer cancelled during the loop tick that runs it still runs; it must then
    /// do nothing rather than take the place of its successor (which would stay scheduled, untracked).
    private var wakeGeneration: UInt64 = 0
    /// The inbox's messages being delivered (kept to reuse its storage).
    private var batch: [InboxMessage] = []
    /// The uncaught exceptions and unhandled rejections reported (at most one: the first ends the run).
    public internal(set) var uncaughtErrors: [String] = []
    let termination: TerminationState
    /// The runtime files that ran (lazy ones run on first use).
    private var loadedRuntimeFiles: Set<String> = []
    /// The plugins' JavaScript files, by `<plugin>/<file>`.
    let pluginScripts: [String: PluginScript]
    private let startTime = jsb_monotonic_ns()
    /// Whether this runtime handles process signals (Signals.swift).
    var signalsInstalled = false
    /// Signals received and not handled yet, in order.
    var queuedSignals: [Int32] = []
    /// The signal that ended the run (SIGINT/SIGTERM nobody listened to): the process dies of it after the run.
    var terminatingSignal: Int32?

    /// JS functions the runtime calls, protected from GC.
    struct Hooks {
        var dispatch: JSObjectRef?
        var fireTimer: JSObjectRef?
        var reportUncaught: JSObjectRef?
        var makeError: JSObjectRef?
        var serialize: JSObjectRef?
        var runMain: JSObjectRef?
        var runExit: JSObjectRef?
        var emitSignal: JSObjectRef?
        var cordovaLifecycle: JSObjectRef?
        var exitSentinel: JSValueRef?
    }

    /// A call in flight.
    struct InFlightCall {
        let handle: CallHandle
        let action: Int
        let start: UInt64
    }

    /// Creates the engine and the host's plugin instances (call `run` on this thread). Plugins are set up
    /// lazily: each before its first call, or all of them when a script awaits `bridge.ready`.
    public init(host: BridgeHost, options: RuntimeOptions) {
        self.options = options
        self.output = options.output
        let inbox = self.inbox
        self.registry = host.makeRegistry(
            events: { plugin, event, payload in inbox.post(InboxMessage(plugin: plugin, event: event, payload: payload))
            },
            misuse: { message in inbox.post(InboxMessage(callID: 0, kind: .diagnostic, text: message)) })
        var scripts: [String: PluginScript] = [:]
        for plugin in registry.plugins {
            for script in plugin.scripts { scripts[plugin.name + "/" + script.name] = script }
        }
        pluginScripts = scripts
        Self.engineOptions
        group = JSContextGroupCreate()
        context = JSGlobalContextCreateInGroup(group, nil)
        termination = TerminationState(group: group)
        withJSString("jsbridge") { JSGlobalContextSetName(context, $0) }
    }

    deinit {
        for hook in [
            hooks.dispatch, hooks.fireTimer, hooks.reportUncaught, hooks.makeError, hooks.serialize,
            hooks.runMain, hooks.runExit, hooks.emitSignal, hooks.cordovaLifecycle,
        ] {
            if let hook { JSValueUnprotect(context, hook) }
        }
        if let sentinel = hooks.exitSentinel { JSValueUnprotect(context, sentinel) }
        if let internalObject { JSValueUnprotect(context, internalObject) }
        lent.drain(context)
        // A plugin still holding a script's lent buffer keeps the engine's memory: it must stay valid.
        guard lent.outstanding.load(ordering: .relaxed) == 0 else { return }
        JSGlobalContextRelease(context)
        JSContextGroupRelease(group)
    }

    /// Process-wide settings for a binary that runs one runtime (call once, first thing in `main`, before any
    /// thread starts): malloc tuned for allocations handed between threads, which keeps RSS flat under a
    /// steady stream of calls, and JavaScriptCore's signalled traps (`jsb_prefer_signalled_traps`). The
    /// other engine options are set by the first runtime itself (``engineOptions``).
    public static func tuneProcess() {
        jsb_tune_malloc()
        jsb_prefer_signalled_traps()
    }

    /// JavaScriptCore's options (`jsb_tune_jsc`), set once per process before the first engine starts (it
    /// reads them once), in every process that runs one: the CLI, the test kit, a host app.
    private static let engineOptions: Void = jsb_tune_jsc()

    /// Runs `script` and the event loop until nothing keeps the process alive; returns the exit code.
    ///
    /// After the script's first run, when anything is pending (a timer, a call), the calling thread becomes a
    /// SwiftNIO event loop for the rest of the run (a plugin's custom executor chooser, called on this thread,
    /// finds it as `MultiThreadedEventLoopGroup.currentEventLoop`); a script that leaves nothing pending ends
    /// without one. Plugins are shut down (awaited, while the loop still runs) before this returns. Call it on
    /// a thread of your own (the main thread, a `Thread`): not on an event loop already, nor from Swift
    /// concurrency's shared pool, which it would block for the whole run.
    public func run(_ script: Script) -> Int32 {
        defer { output.flush() }
        if let problem = Self.checkScript(script) {
            output.write("jsbridge: \(problem)\n", to: .stderr)
            return 1
        }
        signalsInstalled = installSignalHandlers()
        guard start(script) else {
            end(ranScript: false)
            return exitCode
        }
        // Creating the event loop is ~5% of a short script's start-up: skipped when nothing waits for it.
        guard
            stopping || timers.referencedCount > 0 || !inFlight.isEmpty || !submissions.isEmpty || !inbox.isEmpty
                || stdin.referenced || readSignals()
        else {
            end(ranScript: true)
            return exitCode
        }
        MultiThreadedEventLoopGroup.withCurrentThreadAsEventLoop { loop in
            self.eventLoop = loop
            let runtime = NIOLoopBound(self, eventLoop: loop)
            self.inbox.setWaker { loop.execute { runtime.value.turn() } }
            self.startSignalWaker()
            self.turn()
        }
        reraiseTerminatingSignal()
        return exitCode
    }

    /// Loads the runtime and runs the script's main module; false if the runtime did not load.
    private func start(_ script: Script) -> Bool {
        armTimeLimit()
        guard bootstrap() else { return false }
        if let runMain = hooks.runMain {
            let (kind, text): (String, String) =
                switch script {
                case .file(let path): ("file", Self.absolutePath(path))
                case .eval(let code): ("eval", code)
                case .repl(let terminal): ("repl", terminal)
                }
            callJS(runMain, [makeString(kind), makeString(text)])
        }
        return true
    }

    /// After the loop: exit handlers, the exit code, then the plugins' shutdown and the loop's.
    private func end(ranScript: Bool) {
        guard !ended else { return }
        ended = true
        inbox.setWaker(nil)
        wakeTimer?.task.cancel()
        wakeTimer = nil
        if ranScript {
            if !stopping, let runExit = lazyHook(\.runExit, "runExit", "process.js") {
                // Natural end: `process.on('exit')` handlers run, `process.exitCode` decides.
                if let code = callJS(runExit, []), !stopping {
                    exitCode = Self.exitCode(fromJS: JSValueToNumber(context, code, nil))
                }
            } else if !uncaughtErrors.isEmpty, let runExit = lazyHook(\.runExit, "runExit", "process.js") {
                // As in Node, 'exit' listeners still run (with code 1) after an uncaught error.
                stopping = false
                termination.terminate.store(false, ordering: .relaxed)
                callJS(runExit, [JSValueMakeNumber(context, 1)])
                stopping = true
                exitCode = 1
            }
        }
        if termination.timedOut.load(ordering: .relaxed) {
            output.write("jsbridge: the script was stopped after the --timeout of \(timeoutText)\n", to: .stderr)
            exitCode = 1
        }
        submissions.removeAll()
        for call in inFlight.values { call.handle.cancel() }
        inFlight.removeAll()
        output.flush()
        // The loop keeps running until the plugins are down: their connections may live on it.
        let registry = self.registry
        guard let loop = eventLoop else {
            if registry.anySetUp { waitBlocking { await registry.shutdown() } }
            return
        }
        guard registry.anySetUp else { return loop.shutdownGracefully { _ in } }
        Task(executorPreference: ActionExecutor.shared) {
            await registry.shutdown()
            loop.shutdownGracefully { _ in }
        }
    }

    // MARK: - Start-up

    /// Loads the embedded runtime JS; false if it failed (a bug, reported on stderr).
    private func bootstrap() -> Bool {
        internalObject = JSObjectMake(context, nil, nil)
        JSValueProtect(context, internalObject)
        installNatives()
        for file in JSBridgeScripts.files where !file.isLazy {
            if let exception = evaluateRuntimeFile(file) {
                output.write("jsbridge: internal error loading \(file.name): \(describe(exception))\n", to: .stderr)
                exitCode = 70
                return false
            }
        }
        hooks.dispatch = hook("dispatch")
        hooks.reportUncaught = hook("reportUncaught")
        hooks.makeError = hook("makeError")
        hooks.serialize = hook("serializeNative")
        hooks.runMain = hook("runMain")
        if let sentinel = property(internalObject, "exitSentinel") {
            JSValueProtect(context, sentinel)
            hooks.exitSentinel = sentinel
        }
        if let onRejection = hook("onUnhandledRejection") {
            _ = jsb_set_unhandled_rejection_callback(context, onRejection)
        }
        return true
    }

    /// Runs one embedded runtime file with `internal`; returns its exception, if any.
    func evaluateRuntimeFile(_ file: JSBridgeScripts.File) -> JSValueRef? {
        loadedRuntimeFiles.insert(file.name)
        let body = String(decoding: file.source, as: UTF8.self)
        var exception: JSValueRef?
        do {
            let function = try compileFunction(
                body: body, parameters: ["internal"], sourceURL: "jsbridge:internal/\(file.name)")
            JSObjectCallAsFunction(context, function, nil, 1, [internalObject], &exception)
        } catch {
            if case .exception(let thrown) = error { exception = thrown.value }
        }
        return exception
    }

    /// A hook defined by a lazy runtime file, once that file ran (asking for it before would load the file:
    /// timers fire only after `timers.js` started them, `process.js`'s exit handlers exist only if it ran).
    func lazyHook(_ slot: WritableKeyPath<Hooks, JSObjectRef?>, _ name: String, _ file: String) -> JSObjectRef? {
        if let hook = hooks[keyPath: slot] { return hook }
        guard loadedRuntimeFiles.contains(file) else { return nil }
        hooks[keyPath: slot] = hook(name)
        return hooks[keyPath: slot]
    }

    private func hook(_ name: String) -> JSObjectRef? {
        guard let value = property(internalObject, name), JSValueIsObject(context, value) else { return nil }
        let object = JSValueToObject(context, value, nil)
        JSValueProtect(context, object)
        return object
    }

    /// The data the runtime's JS reads at start-up: manifest, argv, env, set-up failures.
    func startupData() -> JSONValue {
        var manifest = JSONObject()
        actions = []
        syncInvokers = []
        for plugin in registry.plugins {
            var table = JSONObject()
            for (name, kind) in plugin.actionKinds {
                let resolved = try! registry.resolve(plugin: plugin.name, action: name)
                table[name] = .array([.number(Double(actions.count)), .number(kind.wireCode)])
                actions.append(resolved)
                syncInvokers.append(registry.syncInvoker(for: resolved))
            }
            manifest[plugin.name] = .object(table)
        }
        var env = JSONObject()
        for key in options.environment.keys.sorted() { env[key] = .string(options.environment[key]!) }
        var pluginFiles: [JSONValue] = []
        for plugin in registry.plugins {
            for script in plugin.scripts {
                pluginFiles.append([
                    "plugin": .string(plugin.name), "file": .string(script.name),
                    "globals": .array(script.globals.map(JSONValue.string)),
                    "shares": .array(script.shares.map(JSONValue.string)),
                    "module": script.module.map(JSONValue.string) ?? .null,
                ])
            }
        }
        return .object([
            "manifest": .object(manifest),
            "arguments": .array(options.arguments.map(JSONValue.string)),
            "execPath": .string(options.executablePath),
            "env": .object(env),
            "version": .string(JSBridgeVersion.string),
            "pid": .number(Double(getpid())),
            "lazyFiles": .array(
                // Files loaded by name only (`onDemand`) need no accessor, so they are not listed.
                JSBridgeScripts.files.filter { $0.isLazy && !$0.onDemand }.map { file in
                    [
                        "file": .string(file.name),
                        "globals": .array(file.globals.map(JSONValue.string)),
                        "internals": .array(file.internals.map(JSONValue.string)),
                    ]
                }),
            "pluginFiles": .array(pluginFiles),
            "baseURL": options.baseURL.map(JSONValue.string) ?? .null,
        ])
    }

    // MARK: - The event loop

    /// Runs the loop until it must wait: due timers, the calls the script made, the inbox's messages. Then
    /// it returns to the event loop, having armed the inbox's waker and a timer for the next deadline; when
    /// nothing keeps the process alive any more, it ends the run.
    private func turn() {
        guard !ended else { return }
        while !stopping {
            readSignals()
            handleQueuedSignals()
            if stopping { break }
            // Timers due now, in deadline order; microtasks drain after each callback.
            let now = jsb_monotonic_ns()
            while !stopping, let id = timers.popDue(now: now),
                let fire = lazyHook(\.fireTimer, "fireTimer", "timers.js")
            {
                callJS(fire, [JSValueMakeNumber(context, Double(id))])
            }
            flushSubmissions()
            inbox.takeAll(into: &batch)
            lent.drain(context)
            if !batch.isEmpty {
                deliver(&batch)
                handleQueuedSignals()
                flushSubmissions()
                continue
            }
            if stopping || termination.timedOut.load(ordering: .relaxed) { break }
            guard timers.referencedCount > 0 || !inFlight.isEmpty || stdin.referenced else { break }
            output.flush()
            var deadline = timers.nextDeadline() ?? 0
            if let limit = termination.deadline {
                if jsb_monotonic_ns() >= limit {
                    termination.timedOut.store(true, ordering: .relaxed)
                    break
                }
                deadline = deadline == 0 ? limit : min(deadline, limit)
            }
            if !inFlight.isEmpty, inbox.spin() { continue }
            guard inbox.sleep(withCallsInFlight: !inFlight.isEmpty) else { continue }
            wake(at: deadline)
            return
        }
        end(ranScript: true)
    }

    /// Keeps one loop timer for the monotonic `deadline` (ns; 0 = none), replacing one for another deadline.
    private func wake(at deadline: UInt64) {
        if let current = wakeTimer {
            if current.deadline == deadline { return }
            current.task.cancel()
            wakeTimer = nil
        }
        guard deadline != 0, let loop = eventLoop else { return }
        let runtime = NIOLoopBound(self, eventLoop: loop)
        wakeGeneration &+= 1
        let generation = wakeGeneration
        let task = loop.scheduleTask(deadline: .uptimeNanoseconds(deadline)) {
            guard runtime.value.wakeTimer?.generation == generation else { return }
            runtime.value.wakeTimer = nil
            runtime.value.turn()
        }
        wakeTimer = (deadline, task, generation)
    }

    // MARK: - Calling into JS

    /// Calls a JS function; an exception is reported as uncaught (exit code 1). Returns nil on exception.
    @discardableResult
    func callJS(_ function: JSObjectRef, _ arguments: [JSValueRef?]) -> JSValueRef? {
        guard !stopping else { return nil }
        var exception: JSValueRef?
        let result = arguments.withUnsafeBufferPointer {
            JSObjectCallAsFunction(context, function, nil, $0.count, $0.baseAddress, &exception)
        }
        if let exception {
            reportUncaught(exception, kind: "exception")
            return nil
        }
        return result
    }

    /// Prints an uncaught exception or unhandled rejection (once) and stops with exit code 1.
    func reportUncaught(_ error: JSValueRef, kind: String) {
        if stopping { return }
        if termination.timedOut.load(ordering: .relaxed) {
            stopping = true
            return
        }
        if let sentinel = hooks.exitSentinel, JSValueIsStrictEqual(context, error, sentinel) { return }
        if let report = hooks.reportUncaught {
            var exception: JSValueRef?
            let args: [JSValueRef?] = [error, makeString(kind)]
            let handled = JSObjectCallAsFunction(context, report, nil, 2, args, &exception)
            // `true`: reported without ending the run (the REPL prints it and goes on, as Node's does).
            if exception == nil, stopping || JSValueToBoolean(context, handled) { return }
        }
        let text = "Uncaught \(describe(error))\n"
        uncaughtErrors.append(text)
        output.write(text, to: .stderr)
        stop(exitCode: 1)
    }

    /// Stops the loop with `exitCode`; no more JS runs after the current call returns.
    func stop(exitCode code: Int32) {
        guard !stopping else { return }
        stopping = true
        exitCode = code
        // With a watchdog armed (--timeout), JS still running after `process.exit()` is terminated.
        termination.terminate.store(true, ordering: .relaxed)
    }

    // MARK: - Time limit (--timeout)

    private var timeoutText: String {
        guard let timeout = options.timeout else { return "" }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
    }

    private func armTimeLimit() {
        guard let timeout = options.timeout else { return }
        let ns =
            UInt64(timeout.components.seconds) * 1_000_000_000 + UInt64(timeout.components.attoseconds / 1_000_000_000)
        termination.deadline = startTime + ns
        termination.arm()
    }

    // MARK: - Helpers

    /// Compiles `body` as a function of `parameters`; line numbers in errors and stacks match the body's
    /// own (the wrapper shares its first line, so only columns on line 1 are shifted).
    func compileFunction(body: String, parameters: [String], sourceURL: String) throws(NativeError) -> JSObjectRef {
        let source = makeJSString("(function (\(parameters.joined(separator: ", "))) {" + body + "\n})")
        defer { JSStringRelease(source) }
        return try evaluateFunction(source, sourceURL: sourceURL)
    }

    /// The function that `source`, a parenthesised function expression, evaluates to.
    func evaluateFunction(_ source: JSStringRef, sourceURL: String) throws(NativeError) -> JSObjectRef {
        var exception: JSValueRef?
        let value = withJSString(sourceURL) { url in JSEvaluateScript(context, source, nil, url, 1, &exception) }
        if let exception { throw .exception(ThrownValue(value: exception)) }
        guard let value, let function = JSValueToObject(context, value, nil) else {
            throw .type("Could not compile \(sourceURL).")
        }
        return function
    }

    /// A JS number as a process exit code: like the OS, only the low 8 bits count; non-numbers are 1.
    static func exitCode(fromJS number: Double) -> Int32 {
        guard number.isFinite else { return 1 }
        return Int32(truncatingIfNeeded: Int64(number.truncatingRemainder(dividingBy: 256)) & 0xFF)
    }

    static func absolutePath(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }

    static func checkScript(_ script: Script) -> String? {
        guard case .file(let path) = script else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolutePath(path), isDirectory: &isDirectory) else {
            return "cannot find script '\(path)': no such file"
        }
        if isDirectory.boolValue { return "cannot run '\(path)': it is a directory, not a script file" }
        guard FileManager.default.isReadableFile(atPath: absolutePath(path)) else {
            return "cannot read script '\(path)': permission denied"
        }
        return nil
    }
}

/// State the JavaScriptCore watchdog reads from its callback (any thread).
final class TerminationState: Sendable {
    /// How often the watchdog asks while one JS call runs.
    static let period = 0.05
    private let groupAddress: UInt
    let terminate = Atomic<Bool>(false)
    let timedOut = Atomic<Bool>(false)
    private let deadlineStorage = Atomic<UInt64>(0)

    init(group: JSContextGroupRef) {
        groupAddress = UInt(bitPattern: UnsafeRawPointer(group))
    }

    /// (Re-)arms JavaScriptCore's watchdog; it fires once per arming, so the callback re-arms it.
    func arm() {
        guard let group = JSContextGroupRef(bitPattern: groupAddress) else { return }
        _ = jsb_set_execution_time_limit(
            group, Self.period, terminateCallback, Unmanaged.passUnretained(self).toOpaque())
    }

    var deadline: UInt64? {
        get { let d = deadlineStorage.load(ordering: .relaxed); return d == 0 ? nil : d }
        set { deadlineStorage.store(newValue ?? 0, ordering: .relaxed) }
    }
}

/// The watchdog's question: terminate the running JS now?
private let terminateCallback: @convention(c) (JSContextRef?, UnsafeMutableRawPointer?) -> Bool = { _, raw in
    guard let raw else { return false }
    let state = Unmanaged<TerminationState>.fromOpaque(raw).takeUnretainedValue()
    if state.terminate.load(ordering: .relaxed) { return true }
    if let deadline = state.deadline, jsb_monotonic_ns() >= deadline {
        state.timedOut.store(true, ordering: .relaxed)
        return true
    }
    state.arm()
    return false
}

extension Action.Kind {
    /// The kind's code in the JS manifest.
    var wireCode: Double {
        switch self {
        case .sync: 0
        case .async: 1
        case .stream: 2
        }
    }
}
