import CJavaScriptCore
import CProcess
import CSignals
import Foundation
import JSBridgeBase
import Synchronization

/// The signals of a run (JS thread only).
struct SignalState {
    /// Whether this runtime handles process signals.
    var installed = false
    /// Signals received and not handled yet, in order.
    var queued: [Int32] = []
    /// The signal that ended the run (SIGINT/SIGTERM nobody took): the process dies of it after the run.
    var terminating: Int32?
}

/// Process signals, delivered on the JS thread's event loop (when ``RuntimeOptions/handlesSignals`` is set).
///
/// A C handler (CSignals) writes each signal's number to a pipe (async-signal-safe); the JS thread reads the
/// pipe at the top of every loop turn, and a small thread started with the event loop wakes the loop when a
/// signal comes while it sleeps. Each signal goes to the extensions' handlers (``ExtensionHost/onSignal(_:)``:
/// the node extension's `process.on(...)` listeners, the cordova extension's `pause`/`resume`); when none
/// takes it, SIGINT/SIGTERM end the run — output is flushed, the run-end handlers run (`exit` listeners),
/// plugins shut down (storage closed), and the process dies of the signal — and SIGTSTP stops the process.
/// A second SIGINT/SIGTERM while the run ends kills at once (in the C handler), and so does the first one 5 s
/// after it came if the JS thread has not taken it by then (it is stuck in an endless or a microtask loop).
/// Handlers do not keep the process alive.
extension JSRuntime {
    /// Installs the handlers (once per process); false if the pipe could not be made.
    func installSignalHandlers() -> Bool {
        guard options.handlesSignals else { return false }
        return jsb_signals_install() >= 0
    }

    /// Moves the signals waiting in the pipe to the queue; true if there were any.
    @discardableResult
    func readSignals() -> Bool {
        guard signals.installed, jsb_signals_arrived() else { return false }
        var any = false
        while case let signo = jsb_signals_take(), signo != 0 {
            signals.queued.append(signo)
            any = true
        }
        return any
    }

    /// Handles the queued signals, in order, until one ends the run.
    func handleQueuedSignals() {
        while !signals.queued.isEmpty, !stopping {
            handleSignal(signals.queued.removeFirst())
        }
    }

    /// Starts the thread that wakes the JS thread's loop for a signal (the loop otherwise sleeps in epoll).
    func startSignalWaker() {
        guard signals.installed else { return }
        SignalWaker.shared.watch(inbox)
    }

    private func handleSignal(_ signo: Int32) {
        jsb_signals_taken(signo)
        var taken = false
        for handler in joined.signal where !stopping {
            if handler(signo) { taken = true }
        }
        // A handler that threw ended the run (exit code 1): nothing more to do.
        if taken || stopping { return }
        switch signo {
        case SIGINT, SIGTERM:
            let code = 128 + signo
            signals.terminating = signo
            output.flush()
            for handler in joined.runEnd where !stopping { _ = handler(code) }
            stop(exitCode: code)
        case SIGTSTP:
            output.flush()
            jsb_signals_stop_self()
        default:
            break
        }
    }

    /// After the run: dies of the signal that ended it, if one did (the exit status says so, as in Node).
    func reraiseTerminatingSignal() {
        guard let signo = signals.terminating else { return }
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
