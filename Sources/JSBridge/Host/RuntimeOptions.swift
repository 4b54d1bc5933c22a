import CProcess
import JSBridgeCore

/// Which standard stream a line of output goes to.
public enum StandardStream: Sendable {
    case stdout, stderr
}

/// Where console output and runtime diagnostics go (JS thread only).
public protocol OutputSink: AnyObject {
    /// Writes `text` (no newline added).
    func write(_ text: String, to stream: StandardStream)
    /// Pushes buffered output out.
    func flush()
}

/// The process's standard output and error; stdout is buffered and flushed before stderr writes,
/// whenever the loop waits, and at exit.
public final class StandardOutput: OutputSink {
    public init() {}

    public func write(_ text: String, to stream: StandardStream) {
        var text = text
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                jsb_write_out(stream == .stderr ? 2 : 1, $0.baseAddress, $0.count)
            }
        }
    }

    public func flush() { jsb_flush_all() }
}

/// What to run: a script file or a string of code (`-e`).
public enum Script: Sendable, Hashable {
    /// A script file (relative paths resolve against the working directory).
    case file(String)
    /// Code given on the command line; it runs as `[eval]` in the working directory.
    case eval(String)
    /// An interactive session on the terminal: needs an extension that runs one (`JSBridgeREPL`'s `repl`).
    case repl
}

/// How a runtime behaves: arguments, environment, tracing, time limit and output.
public struct RuntimeOptions {
    /// Arguments after the script, visible as `process.argv.slice(2)` (or `slice(1)` with `-e`).
    public var arguments: [String]
    /// `process.env`.
    public var environment: [String: String]
    /// Print one stderr line per bridge call and result (`--trace`).
    public var trace: Bool
    /// Stop the script after this long (`--timeout`), exit code 1.
    public var timeout: Duration?
    /// Where console output goes.
    public var output: any OutputSink
    /// `process.argv[0]`.
    public var executablePath: String
    /// Handle SIGINT, SIGTERM, SIGTSTP and SIGCONT as docs/running-scripts.md ("Signals") describes: the
    /// `jsbridge` command does; off by default, so an embedding app keeps its own signal handling. Such a
    /// runtime owns its process: when JavaScript does not stop (a microtask loop), the `--timeout`,
    /// `process.exit()` and an unanswered SIGINT/SIGTERM end the process itself (docs/architecture.md,
    /// "Errors and limits").
    public var handlesSignals: Bool
    /// The base of relative URLs in `fetch`, `Request` and `Response.redirect` (`--base-url`); nil: relative
    /// URLs are a TypeError.
    public var baseURL: String?
    /// The values of the engine extensions' switches, by name (`["cordova": true]` for `--cordova`).
    public var extensionSettings: [String: JSONValue]
    /// The runtime's name (in its messages and `--trace` lines) and version (`cordova.version`, the REPL's
    /// banner): a custom runtime's own, else jsbridge's.
    public var runtime: RuntimeIdentity
    /// A debugger on the engine (`--inspect`), or nil: none, at no cost.
    public var debugger: (any EngineDebugger)?

    public init(
        arguments: [String] = [],
        environment: [String: String] = [:],
        trace: Bool = false,
        timeout: Duration? = nil,
        output: any OutputSink = StandardOutput(),
        executablePath: String = "jsbridge",
        handlesSignals: Bool = false,
        baseURL: String? = nil,
        extensionSettings: [String: JSONValue] = [:],
        runtime: RuntimeIdentity = .jsbridge,
        debugger: (any EngineDebugger)? = nil
    ) {
        self.arguments = arguments
        self.environment = environment
        self.trace = trace
        self.timeout = timeout
        self.output = output
        self.executablePath = executablePath
        self.handlesSignals = handlesSignals
        self.baseURL = baseURL
        self.extensionSettings = extensionSettings
        self.runtime = runtime
        self.debugger = debugger
    }
}

extension RuntimeOptions {
    /// The process's environment variables, read from `environ` directly (Foundation's `ProcessInfo` builds a
    /// dictionary through several layers; this is what start-up needs of it).
    public static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        guard var entry = jsb_environ() else { return environment }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return environment
    }
}
