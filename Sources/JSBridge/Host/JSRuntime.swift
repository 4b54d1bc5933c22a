import CJavaScriptCore
import CJavaScriptCoreExtras
import CProcess
import Foundation
import JSBridgeBase
import JSBridgeCore
import NIOCore
import NIOPosix

/// The host: a JavaScriptCore engine with its event loop, inbox, calls and timers, running the engine
/// extensions it is given and the plugins of a ``BridgeHost``.
///
/// One runtime runs one script on the thread that created it (the JS thread): JS values never leave that
/// thread. Plugin work runs on executors and comes back through the ``Inbox``. Everything a script sees
/// beyond the bridge, the console and timers comes from an ``EngineExtension``.
///
/// ```swift
/// let host = BridgeHost()
/// try host.register(MyPlugin())   // any BridgePlugin
/// let code = JSRuntime(host: host, extensions: [.web], options: RuntimeOptions()).run(.file("tour.js"))
/// ```
public final class JSRuntime {
    let options: RuntimeOptions
    let registry: PluginRegistry
    /// What the script was granted (the module files it may read: ``SourceFiles``).
    let permissions: Permissions
    /// Which script and module files the run reads (set when the run starts).
    var sourceFiles: SourceFiles
    let output: any OutputSink
    let engine: JSEngine
    let inbox = Inbox(spins: Spinning.pays)
    var timers = TimerQueue()
    /// The plugins' actions and the calls in flight (Calls.swift).
    var calls: CallTable
    /// The engine extensions, host first, each after those it requires (Bootstrap.swift).
    let extensions: [EngineExtension]
    /// Where the extensions join the loop (``ExtensionHost``).
    var joined = ExtensionJoins()
    /// The runtime's own JavaScript files that ran: the eager ones, and each lazy one once something used it.
    public internal(set) var loadedFiles: Set<String> = []
    /// The extensions whose natives are on `internal` (each before its first file runs).
    var installedExtensions: Set<String> = []
    /// The JS functions the host calls.
    var hooks = Hooks()
    var stopping = false
    /// Whether the run has ended (its exit handlers ran, its plugins are shutting down).
    var ended = false
    var exitCode: Int32 = 0
    /// The JS thread's event loop while ``run(_:)`` runs, and its timer for the next deadline (RunLoop.swift).
    var loop = LoopState()
    /// The run's event loop as extensions see it, and whether a turn is queued on it after a socket's callback
    /// ran JavaScript (``requestTurn()``). Kept out of `loop`, which a turn holds while it delivers messages.
    var extensionLoop: (any EventLoop)?
    var turnRequested = false
    /// The uncaught exceptions and unhandled rejections reported (at most one: the first ends the run).
    public internal(set) var uncaughtErrors: [String] = []
    let termination: TerminationState
    let startTime = jsb_monotonic_ns()
    /// Signals received and not handled yet, and the one that ended the run (Signals.swift).
    var signals = SignalState()
    /// The thread that ends the process if JavaScript does not stop (TimeLimit.swift).
    var watchdog: OpaquePointer?

    /// JS functions the host calls, from the host's own JavaScript (`bridge.js`, `timers.js`, `errors.js`) and
    /// from the extensions (`runMain`, `startRepl`, `runExit`, …).
    struct Hooks {
        var dispatch: JSObjectRef?
        var fireTimer: JSObjectRef?
        var reportUncaught: JSObjectRef?
        var exitSentinel: JSValueRef?
        /// Hooks of the extensions' lazy files, by name (``ExtensionHost/hook(_:definedBy:)``).
        var named: [String: JSObjectRef] = [:]
    }

    /// Creates the engine and the host's plugin instances (call `run` on this thread). Plugins are set up
    /// lazily: each before its first call, or all of them when a script awaits `bridge.ready`.
    ///
    /// `extensions` must include every extension one of them requires (``EngineExtension/requires``); a
    /// missing one stops the run with a message naming it.
    public init(host: BridgeHost, extensions: [EngineExtension], options: RuntimeOptions) {
        self.options = options
        self.output = options.output
        permissions = host.options.permissions
        sourceFiles = SourceFiles(.repl, permissions: host.options.permissions)
        let inbox = self.inbox
        self.registry = host.makeRegistry(
            events: { plugin, event, payload in
                inbox.post(InboxMessage(plugin: plugin, event: event, payload: payload))
            },
            misuse: { message in inbox.post(InboxMessage(callID: 0, kind: .diagnostic, text: message)) })
        calls = CallTable(registry: registry)
        self.extensions = [.host] + Self.ordered(extensions)
        Self.engineOptions
        engine = JSEngine(name: options.runtime.name)
        termination = TerminationState(group: engine.group)
        termination.debugger = options.debugger
    }

    /// Process-wide settings for a binary that runs one runtime (call once, first thing in `main`, before any
    /// thread starts): malloc tuned for allocations handed between threads, which keeps RSS flat under a
    /// steady stream of calls, and JavaScriptCore's signalled traps (`jsb_prefer_signalled_traps`). The
    /// other engine options are set by the first runtime itself (``engineOptions``).
    public static func tuneProcess() {
        jsb_tune_malloc()
        jsb_prefer_signalled_traps()
    }

    /// JavaScriptCore's options (`jsb_tune_javascriptcore`), set once per process before the first engine
    /// starts, in every process that runs one: the CLI, the test kit, a host app. JavaScriptCore reads them at
    /// its first API call of any kind (a `JSStringCreateWithUTF8CString` too), so code that calls it before the
    /// first runtime must evaluate this first (JSStringsTests does). Not a load-time constructor: its `setenv`
    /// moved `environ`, from which the statically linked Swift runtime finds `argv`, and the release binary
    /// lost its arguments.
    static let engineOptions: Void = jsb_tune_javascriptcore()

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
        if let problem = Self.checkScript(script) ?? missingExtension() {
            output.write("\(options.runtime.name): \(problem)\n", to: .stderr)
            return 1
        }
        signals.installed = installSignalHandlers()
        if let debugger = options.debugger {
            debugger.attach(engine.context)
            // The engine's own console, which the debugger hears: console.js passes its messages on to it.
            if let console = engine.property(JSContextGetGlobalObject(engine.context), "console") {
                engine.setProperty(engine.internalObject, "engineConsole", console)
            }
        }
        // The event loop's descriptors, kept free while the script runs: a script that opens files up to
        // `ulimit -n` gets EMFILE, and the loop still starts (SwiftNIO would end the process).
        let loopDescriptors = FileDescriptors.Reserve(FileDescriptors.perEventLoop)
        guard start(script) else {
            end(ranScript: false)
            return exitCode
        }
        // Creating the event loop is ~5% of a short script's start-up: skipped when nothing waits for it.
        guard stopping || isAlive || !calls.submissions.isEmpty || !inbox.isEmpty || readSignals() else {
            end(ranScript: true)
            return exitCode
        }
        loopDescriptors.release()
        guard FileDescriptors.available(FileDescriptors.perEventLoop) else {
            fatal("\(options.runtime.name): too many open files (EMFILE): the event loop cannot start\n")
            end(ranScript: true)
            return exitCode
        }
        MultiThreadedEventLoopGroup.withCurrentThreadAsEventLoop { loop in
            self.loop.eventLoop = loop
            self.extensionLoop = loop
            let runtime = NIOLoopBound(self, eventLoop: loop)
            self.inbox.setWaker { loop.execute { runtime.value.turn() } }
            self.options.debugger?.setWaker { loop.execute { runtime.value.turn() } }
            self.startSignalWaker()
            self.turn()
        }
        reraiseTerminatingSignal()
        return exitCode
    }

    /// Whether anything keeps the process alive: a referenced timer, a call in flight (a background watch only
    /// until its first value), an extension's source.
    var isAlive: Bool {
        timers.referencedCount > 0 || calls.holdRun || joined.keepAlive.contains { $0() }
    }

    /// Loads the runtime and runs the script; false if the runtime did not load.
    private func start(_ script: Script) -> Bool {
        sourceFiles = SourceFiles(script, permissions: permissions)
        armTimeLimit()
        // A debugger's pause reaches JavaScript that does not return to the loop through the watchdog.
        if options.debugger != nil, options.timeout == nil { termination.arm() }
        guard bootstrap() else { return false }
        options.debugger?.waitBeforeMain()
        runMain(script)
        return true
    }

    /// After the loop: exit handlers, the exit code, then the plugins' shutdown and the loop's.
    func end(ranScript: Bool) {
        guard !ended else { return }
        ended = true
        inbox.setWaker(nil)
        options.debugger?.setWaker(nil)
        loop.cancelWakeTimer()
        if ranScript {
            if !stopping {
                // Natural end: the extensions' exit handlers run (`process.on('exit')`) and may set the code.
                for handler in joined.runEnd where !stopping {
                    if let code = handler(nil) { exitCode = code }
                }
            } else if !uncaughtErrors.isEmpty {
                // As in Node, 'exit' listeners still run (with code 1) after an uncaught error.
                stopping = false
                termination.terminate.store(false, ordering: .relaxed)
                for handler in joined.runEnd { _ = handler(1) }
                stopping = true
                exitCode = 1
            }
        }
        for handler in joined.shutdown { handler() }
        finishWatchdog()
        if termination.timedOut.load(ordering: .relaxed) {
            output.write(timeoutMessage, to: .stderr)
            exitCode = 1
        }
        calls.cancelAll()
        output.flush()
        // The loop keeps running until the plugins are down: their connections may live on it.
        let registry = self.registry
        guard let eventLoop = loop.eventLoop else {
            if registry.anySetUp { waitBlocking { await registry.shutdown() } }
            return
        }
        guard registry.anySetUp else { return eventLoop.shutdownGracefully { _ in } }
        Task(executorPreference: ActionExecutor.shared) {
            await registry.shutdown()
            eventLoop.shutdownGracefully { _ in }
        }
    }

    // MARK: - Calling into JS

    /// Calls a JS function; an exception is reported as uncaught (exit code 1). Returns nil on exception.
    @discardableResult
    func callJS(_ function: JSObjectRef, _ arguments: [JSValueRef?]) -> JSValueRef? {
        guard !stopping else { return nil }
        do throws(NativeError) {
            return try engine.call(function, arguments)
        } catch {
            if case .exception(let thrown) = error { reportUncaught(thrown.value, kind: "exception") }
            return nil
        }
    }

    /// Prints an uncaught exception or unhandled rejection (once) and stops with exit code 1.
    func reportUncaught(_ error: JSValueRef, kind: String) {
        if stopping { return }
        if termination.timedOut.load(ordering: .relaxed) {
            stopping = true
            return
        }
        if let sentinel = hooks.exitSentinel, JSValueIsStrictEqual(engine.context, error, sentinel) { return }
        if let report = hooks.reportUncaught,
            let handled = try? engine.call(report, [error, engine.makeString(kind)])
        {
            // `true`: reported without ending the run (the REPL prints it and goes on, as Node's does).
            if stopping || JSValueToBoolean(engine.context, handled) { return }
        }
        fatal("Uncaught \(engine.describe(error))\n")
    }

    /// Prints an uncaught error's text and stops with exit code 1.
    func fatal(_ text: String) {
        guard !stopping else { return }
        uncaughtErrors.append(text)
        output.write(text, to: .stderr)
        stop(exitCode: 1)
    }

    /// Stops the loop with `exitCode`; no more JS runs after the current call returns.
    func stop(exitCode code: Int32) {
        guard !stopping else { return }
        stopping = true
        exitCode = code
        // JS still running after `process.exit()` is terminated (TimeLimit.swift).
        terminateRunningJS()
    }

    /// Throws the exit sentinel once the runtime is stopping, so no more work starts.
    func ensureRunning() throws(NativeError) {
        guard stopping else { return }
        throw .exception(ThrownValue(value: hooks.exitSentinel ?? JSValueMakeUndefined(engine.context)))
    }

    // MARK: - Helpers

    /// A JS number as a process exit code: like the OS, only the low 8 bits count; non-numbers are 1.
    package static func exitCode(fromJS number: Double) -> Int32 {
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
