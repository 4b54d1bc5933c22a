import CJavaScriptCore
import Foundation
import JSBridgeBase
import Synchronization

/// Process signals, delivered on the JS thread's event loop (when ``RuntimeOptions/handlesSignals`` is set).
///
/// A C handler writes each signal's number to a pipe (async-signal-safe); the JS thread reads the pipe at the
/// top of every loop turn, and a small thread started with the event loop wakes the loop when a signal comes
/// while it sleeps. SIGINT/SIGTERM go to the script's `process.on(...)` listeners when it has any; otherwise
/// the run ends: output is flushed, the `exit` listeners run, plugins shut down (storage closed), and the
/// process dies of the signal. A second one while that happens kills at once (in the C handler). SIGTSTP fires
/// Cordova's `pause` and stops the process; SIGCONT fires `resume`. Listeners do not keep the process alive.
extension JSRuntime {
    /// Installs the handlers (once per process); false if the pipe could not be made.
    func installSignalHandlers() -> Bool {
        guard options.handlesSignals else { return false }
        return jsb_signals_install() >= 0
    }

    /// Moves the signals waiting in the pipe to ``queuedSignals``; true if there were any.
    @discardableResult
    func readSignals() -> Bool {
        guard signalsInstalled, jsb_signals_arrived() else { return false }
        var any = false
        while case let signo = jsb_signals_take(), signo != 0 {
            queuedSignals.append(signo)
            any = true
        }
        return any
    }

    /// Handles the queued signals, in order, until one ends the run.
    func handleQueuedSignals() {
        while !queuedSignals.isEmpty, !stopping {
            handleSignal(queuedSignals.removeFirst())
        }
    }

    /// Starts the thread that wakes the JS thread's loop for a signal (the loop otherwise sleeps in epoll).
    func startSignalWaker() {
        guard signalsInstalled else { return }
        SignalWaker.shared.watch(inbox)
    }

    private func handleSignal(_ signo: Int32) {
        switch signo {
        case SIGINT, SIGTERM:
            if emitSignal(signo == SIGINT ? "SIGINT" : "SIGTERM") { return }
            let code = 128 + signo
            terminatingSignal = signo
            output.flush()
            if let runExit = lazyHook(\.runExit, "runExit", "process.js") {
                callJS(runExit, [JSValueMakeNumber(context, Double(code))])
            }
            stop(exitCode: code)
        case SIGTSTP:
            fireLifecycle("pause")
            // A listener that threw ended the run (exit code 1): nothing to stop for.
            if emitSignal("SIGTSTP") || stopping { return }
            output.flush()
            jsb_signals_stop_self()
        case SIGCONT:
            fireLifecycle("resume")
            _ = emitSignal("SIGCONT")
        default:
            break
        }
    }

    /// Emits `name` to the script's `process` listeners; false if it has none.
    private func emitSignal(_ name: String) -> Bool {
        guard let emit = lazyHook(\.emitSignal, "emitSignal", "process.js"),
            let result = callJS(emit, [makeString(name)])
        else { return false }
        return JSValueToBoolean(context, result)
    }

    /// Fires Cordova's document event `type` (`pause`, `resume`) if the script uses Cordova.
    private func fireLifecycle(_ type: String) {
        guard let fire = lazyHook(\.cordovaLifecycle, "cordovaLifecycle", "cordova.js") else { return }
        callJS(fire, [makeString(type)])
    }

    /// Tells the C handler whether the script listens to `signo`.
    static func setSignalListened(_ signo: Int32, _ listened: Bool) {
        jsb_signals_set_listened(signo, listened)
    }

    /// After the run: dies of the signal that ended it, if one did (the exit status says so, as in Node).
    func reraiseTerminatingSignal() {
        guard let signo = terminatingSignal else { return }
        output.flush()
        jsb_flush_all()
        jsb_signals_reraise(signo)
    }
}

/// The thread that waits for the signal pipe and posts each signal to the running runtime's inbox.
final class SignalWaker: Sendable {
    static let shared = SignalWaker()
    private let inbox = Locked<Inbox?>(nil)
    private let started = Atomic<Bool>(false)

    /// Posts signals to `inbox` from now on; starts the thread on first use.
    func watch(_ inbox: Inbox) {
        self.inbox.withLock { $0 = inbox }
        guard started.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        let thread = Thread { [self] in
            while true {
                jsb_signals_wait()
                while case let signo = jsb_signals_take(), signo != 0 {
                    let target = self.inbox.withLock { $0 }
                    target?.post(InboxMessage(callID: UInt64(signo), kind: .signal, text: ""))
                }
            }
        }
        thread.name = "jsbridge signals"
        thread.start()
    }
}
