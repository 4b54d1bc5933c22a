import CJavaScriptCore

/// A debugger on the runtime's engine (`--inspect`: `JSBridgeInspector`'s `Inspector`, docs/debugging.md).
/// The runtime calls it on the JS thread: once its context exists, before the main script, and at the top of
/// every loop turn. A runtime without one pays nothing.
public protocol EngineDebugger: AnyObject {
    /// The engine's context exists: make it debuggable.
    func attach(_ context: JSGlobalContextRef)
    /// Before the main script runs: waits for a debugger when the run was asked to (`--inspect-wait`,
    /// `--inspect-brk`).
    func waitBeforeMain()
    /// Hands the debugger's messages to the engine (never waits).
    func pump()
    /// JavaScript has run for a while without returning to the loop (called from the engine's watchdog, on the
    /// JS thread, every 50 ms of it): hands the engine a pause the debugger asked for, so that a busy script
    /// pauses (`Debugger.pause`).
    func interrupt()
    /// A function that wakes the JS thread's loop for a turn (which pumps), or nil when the loop ends.
    func setWaker(_ wake: (@Sendable () -> Void)?)
}

/// What `--inspect`, `--inspect-wait` and `--inspect-brk` ask for.
public struct InspectRequest: Sendable, Equatable {
    /// When the main script runs.
    public enum Start: Int32, Sendable {
        /// At once (`--inspect`).
        case run = 0
        /// Once a debugger attached and said it is ready (`--inspect-wait`).
        case waitForDebugger = 1
        /// As `waitForDebugger`, paused before the first statement of the main script (`--inspect-brk`).
        case breakBeforeStart = 2
    }

    public var host: String
    public var port: Int
    public var start: Start

    public init(host: String = "127.0.0.1", port: Int = 9229, start: Start = .run) {
        self.host = host
        self.port = port
        self.start = start
    }
}
