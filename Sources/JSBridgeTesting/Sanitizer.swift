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

    /// Whether a running JavaScript loop can not be stopped here (by `--timeout`, a test's time limit or a
    /// second SIGINT): under ThreadSanitizer. JavaScriptCore interrupts a running loop by sending its thread a
    /// signal, and ThreadSanitizer delivers a signal only when the thread calls a function it intercepts,
    /// which a JIT-compiled loop never does (the suite hung in `while (true) {}` with a one-second limit).
    public static var stopsNoRunningLoop: Bool { active == .thread }

    /// `bound` stretched by ``slowdown``.
    public static func scaled(_ bound: Duration) -> Duration { bound * slowdown }
}
