import CJavaScriptCore
import CTerminal
import Foundation
import JSBridge
import JSBridgeBase
import JSBridgeModules
import JSBridgeNode
import Synchronization

/// The `repl` engine extension: the interactive session `jsbridge` starts on a terminal with no script —
/// entries evaluated at global scope (top-level await included), results printed with the inspector, Tab
/// completion, history in a file (docs/running-scripts.md, "The REPL").
///
/// Its terminal is its own natives: the bytes stdin's reader delivers go through the ``LineEditor``, whose
/// output and events come back to `repl.js`, which prints the output, evaluates lines and answers Tab with
/// completions. The terminal is in raw mode only while a line is read, so Ctrl-C during an evaluation is SIGINT
/// as usual.
public enum REPLExtension {
    static let declaration = EngineExtension("repl", requires: [.node, .modules], state: TerminalSession.init) {
        ext in
        ext.script(.lazy("repl.js", PackageResources.repl_js, internals: ["startRepl"]))
        // Each step answers `{output, events}`; events are `{type: "line", text}`, `{type: "interrupt", empty}`,
        // `{type: "eof"}`, `{type: "complete", before}`.
        let step = "{ output: string; events: { type: string; text?: string; empty?: boolean; before?: string }[] }"
        ext.native("terminalPrompt", "(prompt: string): \(step)") { call, session throws(NativeError) in
            // Raw mode on, the prompt shown, keys typed ahead handled.
            call.engine.makeValue(session.prompt(call.string(0)))
        }
        ext.native("terminalFeed", "(buffer: ArrayBuffer, offset: number, length: number): \(step)") {
            call, session throws(NativeError) in
            guard let bytes = call.arrayBuffer(0) else { throw .type("terminalFeed needs an ArrayBuffer.") }
            return call.engine.makeValue(session.feed(UnsafeBufferPointer(bytes)))
        }
        ext.native("terminalComplete", "(token: string, candidatesJSON: string): \(step)") {
            call, session throws(NativeError) in
            let candidates = ((try? call.json(1))?.arrayValue ?? []).compactMap(\.stringValue)
            return call.engine.makeValue(session.complete(token: call.string(0), candidates: candidates))
        }
        ext.native("terminalInterject", "(text: string): string") { call, session throws(NativeError) in
            // `text` to print over the line being read, followed by the prompt and line again.
            call.engine.makeString(session.interject(call.string(0)))
        }
        ext.native("terminalEvaluating", "(): void") { _, session throws(NativeError) in
            session.evaluating()
            return nil
        }
        ext.native("terminalRestore", "(): void") { _, session throws(NativeError) in
            session.restore()
            return nil
        }
        // evaluateScript(source, url[, checkOnly]) → the completion value of `source` run as a classic script at
        // global scope (its let/const/class declarations persist in the global lexical scope, as the REPL needs);
        // with checkOnly, only parses it and returns its SyntaxError, or undefined.
        ext.native("evaluateScript", "(source: string, url: string, checkOnly?: boolean): any") {
            call, _ throws(NativeError) in
            var exception: JSValueRef?
            let checkOnly = call.count > 2 && call.bool(2)
            let value = withJSString(call.string(0)) { source in
                withJSString(call.string(1)) { url -> JSValueRef? in
                    if checkOnly {
                        _ = JSCheckScriptSyntax(call.context, source, url, 1, &exception)
                        return nil
                    }
                    return JSEvaluateScript(call.context, source, nil, url, 1, &exception)
                }
            }
            if let exception {
                if checkOnly { return exception }
                throw .exception(ThrownValue(value: exception))
            }
            return value
        }
    }
}

extension EngineExtension {
    /// The interactive session (``REPLExtension``).
    public static var repl: EngineExtension { REPLExtension.declaration }
}

/// The editor, the terminal's mode and the history file of one REPL session.
final class TerminalSession: Sendable {
    private let editor: Locked<LineEditor>
    private let historyPath: String?
    private let raw = Atomic<Bool>(false)

    /// A session whose history file and size come from the run's environment (``TerminalHistory``); the
    /// terminal gets its own settings back when the run ends.
    convenience init(host: ExtensionHost) {
        let environment = host.options.environment
        self.init(
            historyPath: TerminalHistory.path(environment: environment),
            historySize: TerminalHistory.size(environment: environment))
        host.onRunEnd { [self] _ in
            restore()
            return nil
        }
    }

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

    func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue { run { $0.feed(Data(buffer: bytes)) } }

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
