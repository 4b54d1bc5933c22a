import CJavaScriptCore
import CJavaScriptCoreExtras
import CProcess
import Synchronization

/// The `--timeout` deadline and `process.exit()` of running JavaScript: JavaScriptCore's watchdog asks
/// ``TerminationState`` every 50 ms of uninterrupted JavaScript whether to terminate it, and once the run
/// must stop, at its next check. A microtask loop is many short calls, none of which the 50 ms watchdog
/// sees: in a runtime that owns its process (``RuntimeOptions/handlesSignals``), a watchdog thread ends the
/// process when the JS thread has not ended the run soon after the deadline or `process.exit()`
/// (docs/architecture.md, "Interrupting JavaScript").
extension JSRuntime {
    /// How long after the `--timeout` deadline the watchdog thread ends the process, if the run has not
    /// ended by then: the JS thread's own stop (its loop timer, JavaScriptCore's 50 ms watchdog) comes first.
    static let timeoutGrace: UInt64 = 250_000_000
    /// How long after `process.exit()` the watchdog thread ends the process with its code, if JavaScript
    /// still runs (JavaScriptCore terminates it at its next check, within milliseconds).
    static let exitGrace: UInt64 = 1_000_000_000

    var timeoutText: String {
        guard let timeout = options.timeout else { return "" }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
    }

    func armTimeLimit() {
        guard let timeout = options.timeout else { return }
        let ns =
            UInt64(timeout.components.seconds) * 1_000_000_000 + UInt64(timeout.components.attoseconds / 1_000_000_000)
        termination.deadline = startTime + ns
        termination.arm()
        if options.handlesSignals, let watchdog = startWatchdog() {
            jsb_watchdog_set(watchdog, startTime + ns + Self.timeoutGrace, 1, timeoutMessage)
        }
    }

    var timeoutMessage: String {
        "\(options.runtime.name): the script was stopped after the --timeout of \(timeoutText)\n"
    }

    /// Makes JavaScriptCore terminate the running JavaScript at its next check, once the run stops (JS thread):
    /// where a time limit may be armed, i.e. with `--timeout` or in a runtime that owns its process (a test
    /// process under ThreadSanitizer arms none: ``JSBridgeTesting/Sanitizer/stopsNoRunningLoop``).
    func terminateRunningJS() {
        termination.terminate.store(true, ordering: .relaxed)
        if options.timeout != nil || options.handlesSignals { termination.terminateSoon() }
    }

    /// After `process.exit(code)`: in a runtime that owns its process, the process ends with `code` even if
    /// JavaScript keeps running (a microtask loop JavaScriptCore did not stop).
    func guardExit() {
        guard options.handlesSignals, let watchdog = startWatchdog() else { return }
        jsb_watchdog_set(watchdog, jsb_monotonic_ns() + Self.exitGrace, exitCode, nil)
    }

    private func startWatchdog() -> OpaquePointer? {
        if watchdog == nil, !ended { watchdog = jsb_watchdog_start() }
        return watchdog
    }

    /// The run has ended: the watchdog thread ends without ending the process.
    func finishWatchdog() {
        guard let watchdog else { return }
        self.watchdog = nil
        jsb_watchdog_finish(watchdog)
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
    /// The runtime's debugger, if any: the watchdog's callback lets it hand the engine a pause request while
    /// JavaScript runs (``EngineDebugger/interrupt()``). Set once, before any JavaScript runs; read on the JS
    /// thread only.
    nonisolated(unsafe) var debugger: (any EngineDebugger)?

    init(group: JSContextGroupRef) {
        groupAddress = UInt(bitPattern: UnsafeRawPointer(group))
    }

    /// (Re-)arms JavaScriptCore's watchdog; it fires once per arming, so the callback re-arms it.
    func arm() {
        guard let group = JSContextGroupRef(bitPattern: groupAddress) else { return }
        _ = jsb_set_execution_time_limit(
            group, Self.period, terminateCallback, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Asks JavaScriptCore to terminate at its next check (JS thread only): a time limit of zero.
    func terminateSoon() {
        guard let group = JSContextGroupRef(bitPattern: groupAddress) else { return }
        _ = jsb_set_execution_time_limit(group, 0, terminateCallback, Unmanaged.passUnretained(self).toOpaque())
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
    state.debugger?.interrupt()
    state.arm()
    return false
}
