import JSBridgeREPL
import Testing

/// The REPL's line editor without a terminal: key bytes in, buffer, cursor, output and events out.
@Suite struct ReplLineEditorTests {
    private static let left = "\u{1B}[D", right = "\u{1B}[C", up = "\u{1B}[A", down = "\u{1B}[B"

    private func editor(_ history: [String] = [], limit: Int = 1000) -> LineEditor {
        var editor = LineEditor(history: history, historyLimit: limit)
        _ = editor.start(prompt: "> ")
        return editor
    }

    @Test func typingAtTheEndEchoesTheCharacters() {
        var editor = LineEditor()
        let started = editor.start(prompt: "> ")
        #expect(started.output == "> ")
        let step = editor.feed(Array("1 + 1".utf8))
        #expect(step.output == "1 + 1")
        #expect(step.events.isEmpty)
        #expect(editor.line == "1 + 1")
        #expect(editor.cursor == 5)
        let enter = editor.feed([0x0D])
        #expect(enter.events == [.line("1 + 1")])
        #expect(enter.output == "\r\n")
        #expect(!editor.isReading)
        #expect(editor.history == ["1 + 1"])
    }

    @Test func leftRightHomeEndMoveTheCursorAndInsertionRedraws() {
        var editor = editor()
        _ = editor.feed(Array("ac".utf8))
        var step = editor.feed(Array(Self.left.utf8))
        #expect(editor.cursor == 1)
        #expect(step.output == "\u{1B}[1D")
        step = editor.feed(Array("b".utf8))
        #expect(editor.line == "abc")
        #expect(editor.cursor == 2)
        // Inserting in the middle rewrites the line and moves the cursor back over what follows it.
        #expect(step.output == "\r> abc\u{1B}[K\u{1B}[1D")
        _ = editor.feed([0x01])  // Ctrl-A
        #expect(editor.cursor == 0)
        _ = editor.feed(Array(Self.right.utf8))
        #expect(editor.cursor == 1)
        _ = editor.feed([0x05])  // Ctrl-E
        #expect(editor.cursor == 3)
        _ = editor.feed(Array("\u{1B}[H".utf8))  // Home
        #expect(editor.cursor == 0)
        _ = editor.feed(Array("\u{1B}[F".utf8))  // End
        #expect(editor.cursor == 3)
        _ = editor.feed(Array(Self.right.utf8))  // already at the end: nothing
        #expect(editor.cursor == 3)
    }

    @Test func deletingKeys() {
        var editor = editor()
        _ = editor.feed(Array("let value = 42".utf8))
        _ = editor.feed([0x7F])  // Backspace
        #expect(editor.line == "let value = 4")
        _ = editor.feed([0x17])  // Ctrl-W: the word before the cursor
        #expect(editor.line == "let value = ")
        _ = editor.feed([0x17])  // spaces, then the word
        #expect(editor.line == "let value ")
        _ = editor.feed([0x01] + Array(Self.right.utf8) + Array(Self.right.utf8))
        _ = editor.feed([0x0B])  // Ctrl-K: to the end
        #expect(editor.line == "le")
        _ = editor.feed([0x15])  // Ctrl-U: to the start
        #expect(editor.line == "")
        #expect(editor.cursor == 0)
        _ = editor.feed(Array("ab".utf8) + [0x01] + Array("\u{1B}[3~".utf8))  // Delete under the cursor
        #expect(editor.line == "b")
        _ = editor.feed([0x04])  // Ctrl-D on a non-empty line deletes too
        #expect(editor.line == "")
        #expect(editor.isReading)
    }

    @Test func multiByteCharactersAndSplitSequences() {
        var editor = editor()
        let bytes = Array("é€😀".utf8)
        // Each byte on its own, as a slow terminal might deliver them.
        for byte in bytes { _ = editor.feed([byte]) }
        #expect(editor.line == "é€😀")
        #expect(editor.cursor == 3)
        _ = editor.feed([0x1B])
        _ = editor.feed([UInt8(ascii: "[")])
        #expect(editor.cursor == 3)  // an incomplete escape waits
        _ = editor.feed([UInt8(ascii: "D")])
        #expect(editor.cursor == 2)
        _ = editor.feed([0x7F])
        #expect(editor.line == "é😀")
    }

    @Test func ctrlCAndCtrlDEndTheLine() {
        var editor = editor()
        _ = editor.feed(Array("half".utf8))
        let interrupted = editor.feed([0x03])
        #expect(interrupted.events == [.interrupt(wasEmpty: false)])
        #expect(interrupted.output == "^C\r\n")
        #expect(editor.history.isEmpty)
        _ = editor.start(prompt: "> ")
        #expect(editor.feed([0x03]).events == [.interrupt(wasEmpty: true)])
        _ = editor.start(prompt: "> ")
        #expect(editor.feed([0x04]).events == [.endOfInput])
        #expect(!editor.isReading)
    }

    @Test func keysTypedAheadWaitForTheNextPrompt() {
        var editor = editor()
        let step = editor.feed(Array("first\rsecond\r".utf8))
        #expect(step.events == [.line("first")])
        #expect(!editor.isReading)
        let next = editor.start(prompt: "... ")
        #expect(next.events == [.line("second")])
        #expect(next.output == "... second\r\n")
        #expect(editor.history == ["first", "second"])
    }

    @Test func historyWalksUpAndDownAndKeepsTheDraft() {
        var editor = editor(["one", "two"])
        _ = editor.feed(Array("dra".utf8))
        let step = editor.feed(Array(Self.up.utf8))
        #expect(editor.line == "two")
        #expect(step.output == "\r> two\u{1B}[K")
        _ = editor.feed(Array(Self.up.utf8))
        #expect(editor.line == "one")
        _ = editor.feed(Array(Self.up.utf8))  // the oldest: stays
        #expect(editor.line == "one")
        _ = editor.feed(Array(Self.down.utf8) + Array(Self.down.utf8))
        #expect(editor.line == "dra")
        #expect(editor.cursor == 3)
    }

    @Test func historySkipsBlanksAndRepeatsAndIsBounded() {
        var editor = LineEditor(history: ["a", "b", "c"], historyLimit: 3)
        for line in ["c", "   ", "d", "e"] {
            _ = editor.start(prompt: "> ")
            _ = editor.feed(Array((line + "\r").utf8))
        }
        #expect(editor.history == ["c", "d", "e"])
        #expect(LineEditor(history: ["1", "2", "3"], historyLimit: 2).history == ["2", "3"])
    }

    @Test func textPrintedWhileReadingIsFollowedByThePromptAndLineAgain() {
        var editor = editor()
        _ = editor.feed(Array("ab".utf8) + Array(Self.left.utf8))
        #expect(editor.interject("late\r\n") == "\r\u{1B}[Klate\r\n\r> ab\u{1B}[K\u{1B}[1D")
        _ = editor.feed([0x0D])
        #expect(editor.interject("idle\r\n") == "idle\r\n")
    }

    @Test func tabAsksForCompletionsAndWaitsForThem() {
        var editor = editor()
        let step = editor.feed(Array("Math.fl\tX".utf8))
        #expect(step.events == [.complete(before: "Math.fl")])
        #expect(editor.awaitingCompletion)
        #expect(editor.line == "Math.fl")  // the X waits for the answer
        let answered = editor.complete(token: "fl", candidates: ["floor"])
        #expect(editor.line == "Math.floorX")
        #expect(answered.output == "oorX")
    }

    @Test func severalCompletionsInsertTheirCommonPrefixOrAreListed() {
        var editor = editor()
        _ = editor.feed(Array("con\t".utf8))
        _ = editor.complete(token: "con", candidates: ["constructor", "const", "continue"])
        #expect(editor.line == "con")
        _ = editor.feed(Array("s\t".utf8))
        _ = editor.complete(token: "cons", candidates: ["constructor", "const"])
        #expect(editor.line == "const")
        _ = editor.feed([0x09])
        let listed = editor.complete(token: "const", candidates: ["constructor", "const"])
        #expect(listed.output.contains("const  "))
        #expect(listed.output.contains("constructor"))
        #expect(listed.output.hasSuffix("\r> const\u{1B}[K"))
        #expect(editor.line == "const")
        _ = editor.feed([0x09])
        _ = editor.complete(token: "const", candidates: [])
        #expect(editor.line == "const")
        #expect(!editor.awaitingCompletion)
    }
}
