import CJavaScriptCore
import CSignals
import JSBridgeCore
import NIOCore

/// What the host offers an engine extension's state: the engine, the run's options, and the
/// points where an extension joins the host's loop — what keeps the loop alive, what a signal does, what the
/// end of the run does (JS thread only, for the runtime's life).
package struct ExtensionHost {
    unowned(unsafe) let runtime: JSRuntime

    /// The runtime's JavaScriptCore context and conversions.
    package var engine: JSEngine { runtime.engine }

    /// The run's options (arguments, environment, time limit, trace, …).
    package var options: RuntimeOptions { runtime.options }

    /// Posts native events to the runtime's JavaScript from any thread (`internal.onNativeEvent("", name, …)`).
    package var events: NativeEvents { NativeEvents(inbox: runtime.inbox) }

    /// The bytes of a script or module file, read under the run's rule for sources (``SourceFiles``): Node's
    /// error codes, or `PERMISSION_DENIED` naming `--allow-read`.
    package func readSource(_ path: String) throws(NativeError) -> [UInt8] {
        try runtime.sourceFiles.read(path)
    }

    /// The runtime's plugins (to tell them of lifecycle events: ``PluginRegistry/broadcast(_:)``).
    package var registry: PluginRegistry { runtime.registry }

    /// What the script was granted (the capabilities extensions declare are checked against these).
    package var permissions: Permissions { runtime.permissions }

    /// The `--timeout` deadline (``jsb_monotonic_ns`` time), if any: work that blocks the JS thread (a
    /// synchronous child process) stops there.
    package var deadline: UInt64? { runtime.termination.deadline }

    /// Work that blocked the JS thread reached ``deadline``: the run stops as `--timeout` stops it (its message,
    /// exit code 1), and the JavaScript running now is terminated at its next check, its exceptions unreported.
    package func reachedDeadline() {
        runtime.termination.timedOut.store(true, ordering: .relaxed)
        runtime.terminateRunningJS()
    }

    /// Whether the run is ending: no more JavaScript runs once the current call returns.
    package var isStopping: Bool { runtime.stopping }

    /// Keeps the loop alive while `condition` holds (checked each time the loop would wait).
    package func keepAlive(while condition: @escaping () -> Bool) {
        runtime.joined.keepAlive.append(condition)
    }

    /// Calls `handler` for each SIGINT, SIGTERM, SIGTSTP and SIGCONT the runtime receives (when it handles
    /// signals: ``RuntimeOptions/handlesSignals``); a handler that answers true took the signal instead of
    /// its default action (ending the run, stopping the process).
    package func onSignal(_ handler: @escaping (Int32) -> Bool) {
        runtime.joined.signal.append(handler)
    }

    /// Tells the C signal handler whether the script listens to `signo`: a second SIGINT/SIGTERM while the
    /// run ends kills the process at once only when nobody listens.
    package func setSignalListened(_ signo: Int32, _ listened: Bool) {
        jsb_signals_set_listened(signo, listened)
    }

    /// Calls `handler` when the run ends, before the plugins shut down: with nil at its natural end (the
    /// handler may answer the exit code, as `process.exitCode` does), or with the exit code an uncaught error
    /// or a signal ended it with.
    package func onRunEnd(_ handler: @escaping (Int32?) -> Int32?) {
        runtime.joined.runEnd.append(handler)
    }

    /// Calls `handler` once the run has ended, however it ended (a natural end, `process.exit()`, an uncaught
    /// error, a signal, `--timeout`), after the run-end handlers and before the plugins shut down: for
    /// resources that must not outlive the run (the node extension's child processes).
    package func onShutdown(_ handler: @escaping () -> Void) {
        runtime.joined.shutdown.append(handler)
    }

    /// The function `internal[name]` that file `file` defines, or nil while that file has not run.
    package func hook(_ name: String, definedBy file: String) -> JSObjectRef? {
        runtime.hook(name, definedBy: file)
    }

    /// Calls `function`; an exception is reported as uncaught (exit code 1). Nil on exception or when stopping.
    @discardableResult
    package func callJS(_ function: JSObjectRef, _ arguments: [JSValueRef?]) -> JSValueRef? {
        runtime.callJS(function, arguments)
    }

    /// Calls `function` from a SwiftNIO callback on the JS thread's own event loop (a socket the extension
    /// serves there), then queues a turn of the run's loop for what the call left: timers, calls, the end of
    /// the run. The loop starts only once the script's first run is over (`eventLoop` is nil before).
    @discardableResult
    package func callJSFromLoop(_ function: JSObjectRef, _ arguments: [JSValueRef?]) -> JSValueRef? {
        let result = runtime.callJS(function, arguments)
        runtime.requestTurn()
        return result
    }

    /// The JS thread's SwiftNIO event loop, once the run's loop has started (nil during the script's first run).
    package var eventLoop: (any EventLoop)? { runtime.extensionLoop }
}

/// Where a runtime's extensions joined its loop (JS thread only).
struct ExtensionJoins {
    /// Conditions that keep the loop alive (``ExtensionHost/keepAlive(while:)``).
    var keepAlive: [() -> Bool] = []
    /// Signal handlers, in the order the extensions registered them (``ExtensionHost/onSignal(_:)``).
    var signal: [(Int32) -> Bool] = []
    /// Run-end handlers (``ExtensionHost/onRunEnd(_:)``).
    var runEnd: [(Int32?) -> Int32?] = []
    /// Shutdown handlers (``ExtensionHost/onShutdown(_:)``).
    var shutdown: [() -> Void] = []
}

/// Posts events to a runtime's JavaScript from any thread: `internal.onNativeEvent("", name, listener)` hears
/// them on the JS thread (`process.stdin`'s chunks, for one).
package struct NativeEvents: Sendable {
    let inbox: Inbox

    /// Posts event `name` with `payload`, whose bytes reach JavaScript as `Uint8Array`s at their paths.
    package func post(_ name: String, _ payload: BridgeValue) {
        inbox.post(InboxMessage(plugin: "", event: name, payload: payload))
    }
}
