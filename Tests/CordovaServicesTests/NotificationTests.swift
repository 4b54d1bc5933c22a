import CTerminal
import Foundation
import JSBridgeTesting
import NotificationCore
import NotificationPlugin
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A terminal that answers with scripted lines and records what the dialog showed.
final class ScriptedTerminal: DialogTerminal, @unchecked Sendable {
    var answers: [String?]
    var shown = ""

    init(_ answers: [String?]) { self.answers = answers }

    func write(_ text: String) throws(BridgeError) { shown += text }
    func readLine() throws(BridgeError) -> String? { answers.isEmpty ? nil : answers.removeFirst() }
    func close() {}
}

struct ScriptedOpener: TerminalOpener {
    let terminal: ScriptedTerminal
    func open() throws(BridgeError) -> any DialogTerminal { terminal }
}

struct NoTerminal: TerminalOpener {
    func open() throws(BridgeError) -> any DialogTerminal {
        throw BridgeError(code: BridgeError.Code.noTerminal, message: "no terminal in this test")
    }
}

@Suite struct DialogsTests {
    func dialogs(_ answers: [String?]) -> (Dialogs, ScriptedTerminal) {
        let terminal = ScriptedTerminal(answers)
        return (Dialogs(terminal: ScriptedOpener(terminal: terminal), beepInterval: .zero), terminal)
    }

    @Test func alertWaitsForEnter() throws {
        let (dialogs, terminal) = dialogs([""])
        #expect(try dialogs.alert(message: "Saved.", title: "Notes", button: "Fine") == 1)
        #expect(terminal.shown == "\nNotes\nSaved.\n[Fine] ")
        let (dismissed, _) = self.dialogs([nil])
        #expect(try dismissed.alert(message: "m", title: "t", button: "OK") == 0)
    }

    @Test func confirmTakesANumberOrALabelAndAsksAgain() throws {
        let (byNumber, terminal) = dialogs(["2"])
        #expect(try byNumber.confirm(message: "Delete it?", title: "Confirm", buttons: ["OK", "Cancel"]) == 2)
        #expect(terminal.shown == "\nConfirm\nDelete it?\n1) OK  2) Cancel\nChoose 1-2: ")
        let (byLabel, _) = dialogs(["cancel"])
        #expect(try byLabel.confirm(message: "m", title: "t", buttons: ["OK", "Cancel"]) == 2)
        let (again, asked) = dialogs(["7", "maybe", "1"])
        #expect(try again.confirm(message: "m", title: "t", buttons: ["Yes", "No"]) == 1)
        #expect(asked.shown.components(separatedBy: "Choose 1-2: ").count == 4)
        let (empty, _) = dialogs([""])
        #expect(try empty.confirm(message: "m", title: "t", buttons: ["Yes", "No"]) == 1)
        let (dismissed, _) = dialogs([nil])
        #expect(try dismissed.confirm(message: "m", title: "t", buttons: ["Yes", "No"]) == 0)
    }

    @Test func promptReadsTextThenTheButton() throws {
        let (dialogs, terminal) = dialogs(["Ada", "1"])
        #expect(
            try dialogs.prompt(message: "Your name?", title: "Hello", buttons: ["OK", "Cancel"], defaultText: "you")
                == PromptAnswer(buttonIndex: 1, input1: "Ada"))
        #expect(terminal.shown == "\nHello\nYour name?\n[you] > 1) OK  2) Cancel\nChoose 1-2: ")
        let (defaulted, _) = self.dialogs(["", "2"])
        #expect(
            try defaulted.prompt(message: "m", title: "t", buttons: ["OK", "Cancel"], defaultText: "you")
                == PromptAnswer(buttonIndex: 2, input1: "you"))
        let (one, _) = self.dialogs(["x"])
        #expect(
            try one.prompt(message: "m", title: "t", buttons: ["OK"], defaultText: "")
                == PromptAnswer(buttonIndex: 1, input1: "x"))
        let (dismissed, _) = self.dialogs([nil])
        #expect(
            try dismissed.prompt(message: "m", title: "t", buttons: ["OK"], defaultText: "d")
                == PromptAnswer(buttonIndex: 0, input1: ""))
    }

    @Test func beepRingsTheBell() throws {
        let (dialogs, terminal) = dialogs([])
        try dialogs.beep(count: 3)
        #expect(terminal.shown == "\n\u{7}\u{7}\u{7}")
    }

    @Test func withoutATerminalEveryDialogFailsAtOnce() async throws {
        let tester = try await PluginTester(NotificationPlugin(dialogs: Dialogs(terminal: NoTerminal())))
        for (action, args) in [
            ("alert", ["m", "t", "OK"]), ("confirm", ["m", "t", "OK,Cancel"]), ("prompt", ["m", "t", "OK", ""]),
        ] as [(String, JSONValue)] {
            await #expect(throws: BridgeError.self) { try await tester.call(action, args) }
            do {
                _ = try await tester.call(action, args)
            } catch {
                #expect(error.code == "NO_TERMINAL")
            }
        }
        await #expect(throws: BridgeError.self) { try await tester.call("beep", 2) }
        await tester.shutdown()
    }

    @Test func theRealOpenerWithoutAControllingTerminal() {
        // A path that is no terminal: the opener says so at once.
        #expect(throws: BridgeError.self) { try ControllingTerminal(path: "/dev/null").open() }
        #expect(throws: BridgeError.self) { try ControllingTerminal(path: "/nonexistent/tty").open() }
    }

    /// The device side of a real pseudo-terminal: the dialog's text reaches the controller, the typed line
    /// comes back through the terminal's line discipline.
    @Test func aDialogOnAPseudoTerminal() async throws {
        var controller: Int32 = -1
        var name = [CChar](repeating: 0, count: 256)
        #expect(jsb_pty_open(&controller, &name, name.count, 24, 80) == 0)
        defer { close(controller) }
        let device = String(cString: name)
        // The device held open here too: the controller reads EIO while no one has the device open.
        let held = open(device, O_RDWR | O_NOCTTY)
        #expect(held >= 0)
        defer { close(held) }
        let tester = try await PluginTester(
            NotificationPlugin(dialogs: Dialogs(terminal: ControllingTerminal(path: device))))
        async let answer = tester.call("confirm", ["Overwrite notes.txt?", "Save", ["Keep", "Overwrite"]])
        let shown = try await readUntil(controller, "Choose 1-2: ")
        #expect(shown.contains("Save\r\nOverwrite notes.txt?\r\n1) Keep  2) Overwrite\r\n"), "\(shown)")
        _ = "2\n".withCString { write(controller, $0, 2) }
        #expect(try await answer == 2)
        await tester.shutdown()
    }
}

/// Reads the controller side until `marker` shows (60 s at most: the dialog waits for a thread of the shared pool).
func readUntil(_ fd: Int32, _ marker: String) async throws -> String {
    try await runBlocking {
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 1024)
        let deadline = Date().addingTimeInterval(60)
        while !text.contains(marker), Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        return text
    }
}
