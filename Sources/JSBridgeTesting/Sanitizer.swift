import CSanitizerDefaults

/// The sanitizer this test process was built with (`swift test --sanitize=address|thread`), if any.
///
/// Their instrumentation makes code several times slower, and AddressSanitizer keeps freed memory in
/// quarantine: a test that bounds elapsed time (to catch a hang) stretches the bound with ``scaled(_:)``, and
/// a test that bounds a process's memory skips that bound under AddressSanitizer.
public enum Sanitizer: Sendable {
    case address, thread

    /// The sanitizer of this build, as the C compiler saw it.
    public static let active: Sanitizer? =
        switch jsb_sanitizer_kind() {
        case 1: .address
        case 2: .thread
        default: nil
        }

    /// How many times slower than a plain debug build code may run here: 1 without a sanitizer.
    public static var slowdown: Int {
        switch active {
        case .thread?: 10
        case .address?: 4
        case nil: 1
        }
    }

    /// Whether running JavaScript can not be interrupted here (to stop it for `--timeout`, a test's time limit
    /// or a second SIGINT): under ThreadSanitizer. JavaScriptCore interrupts running JavaScript by sending its
    /// thread a signal and waiting for the handler, and ThreadSanitizer delivers a signal only when the thread
    /// calls a function it intercepts, which JIT-compiled code or a spinning lock never does: the suite hung in
    /// `while (true) {}` with a one-second limit, and in a script that was allocating while the time-limit
    /// watchdog (armed with any limit) asked to interrupt it. ``ScriptRunner`` arms no time limit here.
    public static var stopsNoRunningLoop: Bool { active == .thread }

    /// `bound` stretched by ``slowdown``.
    public static func scaled(_ bound: Duration) -> Duration { bound * slowdown }
}
