import CJavaScriptCore
import CJavaScriptCoreExtras
import CProcess
import Synchronization

/// The `--timeout` deadline and `process.exit()` of running JavaScript: JavaScriptCore's watchdog asks
/// ``TerminationState`` every 50 ms of uninterrupted JavaScript whether to terminate it.
extension JSRuntime {
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
