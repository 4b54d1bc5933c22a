/// The REPL's line editor: key bytes in, what to write to the terminal and what happened out.
///
/// It is a plain value with no terminal behind it, so tests feed it bytes and check its buffer, cursor and
/// output. It reads while ``isReading``: ``start(prompt:)`` shows a prompt and begins a line; Enter,
/// Ctrl-C and Ctrl-D on an empty line end it. Bytes that arrive while it is not reading (typed ahead, or a
/// paste of several lines) wait for the next prompt. Tab asks for completions (``Event/complete(before:)``)
/// and pauses until ``complete(token:candidates:)`` answers.
///
/// Keys: left/right, Home/End (and Ctrl-A/Ctrl-E), Backspace, Delete, Ctrl-U (delete to the start), Ctrl-K
/// (to the end), Ctrl-W (the word before the cursor), up/down (history), Ctrl-L (clear the screen).
public struct LineEditor {
    /// What a key did that the REPL must act on.
    public enum Event: Equatable, Sendable {
        /// Enter: the line as typed.
        case line(String)
        /// Ctrl-C: the line was abandoned; `wasEmpty` when nothing had been typed.
        case interrupt(wasEmpty: Bool)
        /// Ctrl-D on an empty line.
        case endOfInput
        /// Tab: the text before the cursor, to complete.
        case complete(before: String)
    }

    /// What one step produced: terminal output (ANSI sequences included) and events.
    public struct Step: Equatable, Sendable {
        public var output = ""
        public var events: [Event] = []
    }

    /// The line being edited.
    public private(set) var buffer: [Character] = []
    /// The cursor's position in ``buffer`` (0…count).
    public private(set) var cursor = 0
    /// The prompt shown before the line.
    public private(set) var prompt = ""
    /// Whether a line is being read (between ``start(prompt:)`` and the key that ends it).
    public private(set) var isReading = false
    /// Whether a Tab is waiting for ``complete(token:candidates:)``.
    public private(set) var awaitingCompletion = false
    /// Earlier lines, oldest first, at most ``historyLimit``.
    public private(set) var history: [String]
    /// How many lines ``history`` keeps.
    public let historyLimit: Int
    /// The terminal's width, for listing completions.
    public var columns = 80

    /// Where up/down is in ``history`` (`history.count`: the line being typed).
    private var historyIndex: Int
    /// The line being typed, kept while up/down shows history.
    private var draft: [Character] = []
    /// Bytes not handled yet: an incomplete key, or keys typed while not reading.
    private var pending: [UInt8] = []

    /// An editor that recalls `history` (oldest first) and keeps at most `historyLimit` lines.
    public init(history: [String] = [], historyLimit: Int = 1000) {
        self.historyLimit = max(0, historyLimit)
        self.history = Array(history.suffix(self.historyLimit))
        historyIndex = self.history.count
    }

    /// The line as a string.
    public var line: String { String(buffer) }

    /// Shows `prompt` and starts reading a line; keys already received are handled at once.
    public mutating func start(prompt: String) -> Step {
        self.prompt = prompt
        buffer = []
        cursor = 0
        draft = []
        historyIndex = history.count
        isReading = true
        awaitingCompletion = false
        var step = Step(output: prompt)
        process(into: &step)
        return step
    }

    /// Handles `bytes` from the terminal.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> Step {
        pending.append(contentsOf: bytes)
        var step = Step()
        process(into: &step)
        return step
    }

    /// Answers a Tab: `candidates` are full words that complete `token` (the end of the text before the
    /// cursor). One is inserted; several insert their common prefix, or are listed when it adds nothing.
    public mutating func complete(token: String, candidates: [String]) -> Step {
        var step = Step()
        guard awaitingCompletion else { return step }
        awaitingCompletion = false
        var seen = Set<String>()
        let matches = candidates.filter { $0.hasPrefix(token) && seen.insert($0).inserted }.sorted()
        if matches.count == 1 {
            insert(Array(matches[0].dropFirst(token.count)), into: &step)
        } else if matches.count > 1 {
            let common = matches.dropFirst().reduce(matches[0]) { prefix, word in
                String(zip(prefix, word).prefix { $0 == $1 }.map(\.0))
            }
            if common.count > token.count {
                insert(Array(common.dropFirst(token.count)), into: &step)
            } else {
                step.output += "\r\n" + Self.columnsText(matches, width: columns) + redrawText()
            }
        }
        process(into: &step)
        return step
    }

    /// Output printed while a line is being read (a timer's error) went over the prompt: this clears the
    /// terminal's line for `text`, then shows the prompt and the line again below it.
    public func interject(_ text: String) -> String {
        guard isReading else { return text }
        return "\r\u{1B}[K" + text + redrawText()
    }

    // MARK: - Keys

    /// Handles pending keys while reading, up to one that ends the line or waits for completions.
    private mutating func process(into step: inout Step) {
        var index = 0
        while isReading, !awaitingCompletion, index < pending.count {
            guard let length = keyLength(at: index) else { break }  // incomplete: wait for more bytes
            handle(Array(pending[index..<index + length]), into: &step)
            index += length
        }
        pending.removeFirst(index)
    }

    /// The length of the key starting at `index`, or nil when its bytes have not all arrived.
    private func keyLength(at index: Int) -> Int? {
        let byte = pending[index]
        let available = pending.count - index
        if byte == 0x1B {
            guard available >= 2 else { return nil }
            let next = pending[index + 1]
            if next == UInt8(ascii: "[") || next == UInt8(ascii: "O") {
                // CSI/SS3: parameters, then a final byte in 0x40…0x7E.
                var end = index + 2
                while end < pending.count {
                    if (0x40...0x7E).contains(pending[end]) { return end - index + 1 }
                    end += 1
                }
                return nil
            }
            return 2  // Alt+key: ignored
        }
        let length =
            switch byte {
            case 0xC0...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF7: 4
            default: 1
            }
        return available >= length ? length : nil
    }

    private mutating func handle(_ key: [UInt8], into step: inout Step) {
        switch key[0] {
        case 0x0D, 0x0A:
            let text = line
            step.output += "\r\n"
            remember(text)
            endLine(.line(text), into: &step)
        case 0x03:
            step.output += "^C\r\n"
            endLine(.interrupt(wasEmpty: buffer.isEmpty), into: &step)
        case 0x04:
            if buffer.isEmpty {
                step.output += "\r\n"
                endLine(.endOfInput, into: &step)
            } else if cursor < buffer.count {
                buffer.remove(at: cursor)
                step.output += redrawText()
            }
        case 0x09:
            awaitingCompletion = true
            step.events.append(.complete(before: String(buffer[..<cursor])))
        case 0x7F, 0x08:
            guard cursor > 0 else { return }
            cursor -= 1
            buffer.remove(at: cursor)
            step.output += redrawText()
        case 0x01: move(to: 0, into: &step)
        case 0x05: move(to: buffer.count, into: &step)
        case 0x02: move(to: cursor - 1, into: &step)
        case 0x06: move(to: cursor + 1, into: &step)
        case 0x15:
            buffer.removeFirst(cursor)
            cursor = 0
            step.output += redrawText()
        case 0x0B:
            buffer.removeLast(buffer.count - cursor)
            step.output += redrawText()
        case 0x17:
            var start = cursor
            while start > 0, buffer[start - 1] == " " { start -= 1 }
            while start > 0, buffer[start - 1] != " " { start -= 1 }
            buffer.removeSubrange(start..<cursor)
            cursor = start
            step.output += redrawText()
        case 0x0C: step.output += "\u{1B}[H\u{1B}[2J" + redrawText()
        case 0x10: recall(-1, into: &step)
        case 0x0E: recall(1, into: &step)
        case 0x1B: escape(key, into: &step)
        case 0x00..<0x20: break
        default:
            insert(Array(String(decoding: key, as: UTF8.self)), into: &step)
        }
    }

    private mutating func escape(_ key: [UInt8], into step: inout Step) {
        guard key.count >= 3 else { return }
        let sequence = String(decoding: key[2...], as: UTF8.self)
        switch sequence {
        case "A": recall(-1, into: &step)
        case "B": recall(1, into: &step)
        case "C": move(to: cursor + 1, into: &step)
        case "D": move(to: cursor - 1, into: &step)
        case "H", "1~", "7~": move(to: 0, into: &step)
        case "F", "4~", "8~": move(to: buffer.count, into: &step)
        case "3~":
            guard cursor < buffer.count else { return }
            buffer.remove(at: cursor)
            step.output += redrawText()
        default: break
        }
    }

    private mutating func endLine(_ event: Event, into step: inout Step) {
        step.events.append(event)
        isReading = false
        buffer = []
        cursor = 0
    }

    private mutating func insert(_ characters: [Character], into step: inout Step) {
        guard !characters.isEmpty else { return }
        let atEnd = cursor == buffer.count
        buffer.insert(contentsOf: characters, at: cursor)
        cursor += characters.count
        // Typing at the end (the usual case) writes just the characters.
        step.output += atEnd ? String(characters) : redrawText()
    }

    private mutating func move(to position: Int, into step: inout Step) {
        let target = min(max(position, 0), buffer.count)
        guard target != cursor else { return }
        let distance = target - cursor
        cursor = target
        step.output += distance > 0 ? "\u{1B}[\(distance)C" : "\u{1B}[\(-distance)D"
    }

    /// Up (-1) or down (+1) through the history; the line being typed comes back below the newest entry.
    private mutating func recall(_ direction: Int, into step: inout Step) {
        let target = historyIndex + direction
        guard target >= 0, target <= history.count, target != historyIndex else { return }
        if historyIndex == history.count { draft = buffer }
        historyIndex = target
        buffer = target == history.count ? draft : Array(history[target])
        cursor = buffer.count
        step.output += redrawText()
    }

    /// Adds a line to the history: not blank, not a repeat of the newest entry.
    private mutating func remember(_ text: String) {
        guard historyLimit > 0, !text.allSatisfy(\.isWhitespace), history.last != text else { return }
        history.append(text)
        if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
    }

    /// Rewrites the prompt and line, clears what is left of the old one, and puts the cursor back.
    private func redrawText() -> String {
        var text = "\r" + prompt + String(buffer) + "\u{1B}[K"
        if cursor < buffer.count { text += "\u{1B}[\(buffer.count - cursor)D" }
        return text
    }

    /// Words in columns that fit `width`, each line ending with CR LF.
    static func columnsText(_ words: [String], width: Int) -> String {
        let cell = (words.map(\.count).max() ?? 0) + 2
        let perLine = max(1, width / cell)
        var text = ""
        for (index, word) in words.enumerated() {
            let last = index % perLine == perLine - 1 || index == words.count - 1
            text += last ? word + "\r\n" : word + String(repeating: " ", count: cell - word.count)
        }
        return text
    }
}
