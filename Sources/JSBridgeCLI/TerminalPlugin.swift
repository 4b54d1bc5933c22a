import CJavaScriptCore
import Foundation
import JSBridgeCore
import Synchronization

/// The REPL's terminal: the CLI registers it only for an interactive session, and `js/repl.js` drives it.
///
/// Its actions are synchronous (they run on the JS thread, between the engine's reads of stdin): the bytes
/// the engine read go through the ``LineEditor``, whose output and events come back to the script, which
/// prints the output, evaluates lines and answers Tab with completions. The terminal is in raw mode only
/// while a line is read, so Ctrl-C during an evaluation is SIGINT as usual. History is kept in a file.
///
/// | action | arguments | result |
/// |---|---|---|
/// | `prompt` | `{prompt}` | `{output, events}`: raw mode on, the prompt shown, keys typed ahead handled |
/// | `feed` | `{data}` (base64 bytes from stdin) | `{output, events}` |
/// | `complete` | `{token, candidates}` | `{output, events}` |
/// | `interject` | `{text}` | `text` to print over the line being read, followed by the prompt and line again |
/// | `evaluating` | none | while code runs: the terminal's own settings, but Ctrl-D stays a key for the editor |
/// | `restore` | none | the terminal's own settings back, at exit |
///
/// Events: `{type: "line", text}`, `{type: "interrupt", empty}`, `{type: "eof"}`, `{type: "complete", before}`.
public struct TerminalPlugin: BridgePlugin {
    public static let name = "Terminal"
    public typealias State = TerminalSession

    let session: TerminalSession

    /// A terminal on stdin whose history lives at `historyPath` (nil: no history file), at most
    /// `historySize` lines.
    public init(historyPath: String?, historySize: Int = 1000) {
        session = TerminalSession(historyPath: historyPath, historySize: historySize)
    }

    public func setUp(_ context: SetUpContext<Self>) async throws -> TerminalSession { session }

    public func shutdown(_ state: TerminalSession) async { state.restore() }

    public static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.sync("prompt", args: PromptArguments.self) { context, args in
            context.state.prompt(args.prompt)
        }
        plugin.sync("feed", args: FeedArguments.self) { context, args in
            guard let bytes = Data(base64Encoded: args.data) else {
                throw BridgeError(code: "INVALID_ARGUMENT", message: "feed: data must be base64.")
            }
            return context.state.feed(bytes)
        }
        plugin.sync("complete", args: CompleteArguments.self) { context, args in
            context.state.complete(token: args.token, candidates: args.candidates)
        }
        plugin.sync("interject", args: InterjectArguments.self) { context, args in
            context.state.interject(args.text)
        }
        plugin.sync("evaluating") { context in
            context.state.evaluating()
            return JSONValue.null
        }
        plugin.sync("restore") { context in
            context.state.restore()
            return JSONValue.null
        }
    }

    struct PromptArguments: Decodable, Sendable { var prompt: String }
    struct FeedArguments: Decodable, Sendable { var data: String }
    struct InterjectArguments: Decodable, Sendable { var text: String }
    struct CompleteArguments: Decodable, Sendable {
        var token: String
        var candidates: [String]
    }
}

/// The editor, the terminal's mode and the history file of one REPL session.
public final class TerminalSession: Sendable {
    private let editor: Locked<LineEditor>
    private let historyPath: String?
    private let raw = Atomic<Bool>(false)

    init(historyPath: String?, historySize: Int) {
        self.historyPath = historyPath
        let saved = historyPath.map { TerminalHistory.load(from: $0, limit: historySize) } ?? []
        editor = Locked(LineEditor(history: saved, historyLimit: historySize))
    }

    func prompt(_ prompt: String) -> JSONValue {
        if !raw.exchange(true, ordering: .relaxed) {
            jsb_tty_restore_at_exit()
            _ = jsb_tty_raw(0)
        }
        return run { editor in
            let columns = Int(jsb_tty_columns(1))
            if columns > 0 { editor.columns = columns }
            return editor.start(prompt: prompt)
        }
    }

    func feed(_ bytes: Data) -> JSONValue { run { $0.feed(bytes) } }

    func complete(token: String, candidates: [String]) -> JSONValue {
        run { $0.complete(token: token, candidates: candidates) }
    }

    /// `text` to print while a line may be being read, with the prompt and line shown again after it.
    func interject(_ text: String) -> String {
        editor.withLock { $0.interject(text) }
    }

    /// The terminal's own settings while code runs (Ctrl-C is SIGINT), except that a Ctrl-D typed meanwhile
    /// stays a key, which the editor reads once the next prompt is shown (it then ends the session).
    func evaluating() {
        if raw.exchange(false, ordering: .relaxed) { jsb_tty_evaluating() }
    }

    /// Gives the terminal its own settings back.
    func restore() {
        raw.store(false, ordering: .relaxed)
        jsb_tty_restore()
    }

    /// Runs one editor step; saves the history when a line was added to it.
    private func run(_ body: (inout LineEditor) -> LineEditor.Step) -> JSONValue {
        let (step, history) = editor.withLock { editor -> (LineEditor.Step, [String]?) in
            let before = editor.history
            let step = body(&editor)
            return (step, editor.history == before ? nil : editor.history)
        }
        if let history, let historyPath { TerminalHistory.save(history, to: historyPath) }
        return .object(["output": .string(step.output), "events": .array(step.events.map(Self.describe))])
    }

    private static func describe(_ event: LineEditor.Event) -> JSONValue {
        switch event {
        case .line(let text): ["type": "line", "text": .string(text)]
        case .interrupt(let wasEmpty): ["type": "interrupt", "empty": .bool(wasEmpty)]
        case .endOfInput: ["type": "eof"]
        case .complete(let before): ["type": "complete", "before": .string(before)]
        }
    }
}

/// The REPL's history file: one entry per line, oldest first, private to the user (mode 0600).
public enum TerminalHistory {
    /// The most a history file may hold that is read back: a bound on a file that is not ours.
    static let maxFileBytes = 4 << 20

    /// The file to use: `$JSBRIDGE_REPL_HISTORY` (empty: none, as with Node's `NODE_REPL_HISTORY`), else
    /// `~/.jsbridge_repl_history`.
    public static func path(environment: [String: String]) -> String? {
        if let path = environment["JSBRIDGE_REPL_HISTORY"] { return path.isEmpty ? nil : path }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.jsbridge_repl_history"
    }

    /// `$JSBRIDGE_REPL_HISTORY_SIZE` when it is a whole number in 0…100,000, else 1000 (Node's default).
    public static func size(environment: [String: String]) -> Int {
        guard let text = environment["JSBRIDGE_REPL_HISTORY_SIZE"], let size = Int(text), (0...100_000).contains(size)
        else { return 1000 }
        return size
    }

    /// The last `limit` entries of the file at `path` (none when it is missing, unreadable or too large).
    public static func load(from path: String, limit: Int) -> [String] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maxFileBytes + 1), data.count <= maxFileBytes else { return [] }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        return lines.suffix(limit).map(String.init)
    }

    /// Writes `entries` to `path` (a failure loses history, never the session: it is not reported).
    public static func save(_ entries: [String], to path: String) {
        let text = entries.map { $0.replacingOccurrences(of: "\n", with: " ") }.joined(separator: "\n") + "\n"
        let temporary = path + ".tmp-\(getpid())"
        guard
            FileManager.default.createFile(
                atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        else { return }
        if rename(temporary, path) != 0 { unlink(temporary) }
    }
}
