import Foundation
import JSBridgeBase

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal a dialog talks to: text out, lines in.
public protocol DialogTerminal: AnyObject {
    /// Shows `text`.
    func write(_ text: String) throws(BridgeError)
    /// The next line typed, without its line break; nil at the end of input (Ctrl-D, or the terminal went away).
    func readLine() throws(BridgeError) -> String?
    /// Lets the terminal go.
    func close()
}

/// Opens the terminal for one dialog; injected so tests give a scripted one (``ControllingTerminal`` opens the
/// process's own).
public protocol TerminalOpener: Sendable {
    func open() throws(BridgeError) -> any DialogTerminal
}

extension BridgeError.Code {
    /// A dialog was asked for in a process that has no terminal to show it on.
    public static let noTerminal = "NO_TERMINAL"
}

/// The process's controlling terminal, `/dev/tty`: the terminal the script was started from, even when its
/// standard streams are redirected. A process without one (a service, CI, a pipe from another program) gets
/// `NO_TERMINAL` at once: a dialog never waits for an answer nobody can give.
public struct ControllingTerminal: TerminalOpener {
    /// The device (a pseudo-terminal's in tests of the opener itself).
    public let path: String

    public init(path: String = "/dev/tty") { self.path = path }

    public func open() throws(BridgeError) -> any DialogTerminal {
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw BridgeError(
                code: BridgeError.Code.noTerminal,
                message: "There is no terminal to show the dialog on (\(path): \(reason)). Dialogs (alert, confirm, "
                    + "prompt, beep) talk to the terminal the script runs in; this process has none.")
        }
        guard isatty(fd) == 1 else {
            Glibc.close(fd)
            throw BridgeError(
                code: BridgeError.Code.noTerminal,
                message: "\(path) is not a terminal: there is none to show the dialog on.")
        }
        return DeviceTerminal(fd: fd, path: path)
    }
}

/// A terminal device open for one dialog.
final class DeviceTerminal: DialogTerminal {
    private var fd: Int32
    private let path: String
    private var pending: [UInt8] = []

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close() }

    func write(_ text: String) throws(BridgeError) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw failure("write") }
            offset += written
        }
        bytes.removeAll()
    }

    func readLine() throws(BridgeError) -> String? {
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(fd, &byte, 1)
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EIO { return nil }  // the terminal went away
            if count < 0 { throw failure("read") }
            if count == 0 {
                // Ctrl-D: the end of input (what was typed before it on the line is the answer).
                guard !pending.isEmpty else { return nil }
                break
            }
            if byte == UInt8(ascii: "\n") { break }
            pending.append(byte)
        }
        defer { pending.removeAll() }
        if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
        return String(decoding: pending, as: UTF8.self)
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    private func failure(_ call: String) -> BridgeError {
        BridgeError(
            code: BridgeError.Code.noTerminal,
            message: "The terminal could not be used (\(call) \(path): \(String(cString: strerror(errno)))).")
    }
}

/// What a prompt answers: the button chosen (1-based; 0 when the dialog was dismissed) and the text typed.
public struct PromptAnswer: Sendable, Hashable, Codable {
    public var buttonIndex: Int
    public var input1: String

    public init(buttonIndex: Int, input1: String) {
        self.buttonIndex = buttonIndex
        self.input1 = input1
    }
}

/// cordova-plugin-dialogs' dialogs on a terminal: each shows its title and message and reads the answer as a
/// line. Buttons are numbered (`1) OK  2) Cancel`); the answer is a button's number or its label (any case), an
/// empty line picks the first, and the end of input (Ctrl-D) dismisses the dialog (button 0, as a dialog closed
/// without a choice). Each call blocks until answered: run it off the JS thread (``onOwnThread(_:)``).
public struct Dialogs: Sendable {
    public let terminal: any TerminalOpener
    /// The pause between beeps.
    public let beepInterval: Duration

    public init(terminal: any TerminalOpener = ControllingTerminal(), beepInterval: Duration = .milliseconds(300)) {
        self.terminal = terminal
        self.beepInterval = beepInterval
    }

    /// Shows `message` under `title` until Enter; 1 (the one button), or 0 when dismissed.
    public func alert(message: String, title: String, button: String) throws(BridgeError) -> Int {
        try withTerminal { (tty) throws(BridgeError) in
            try tty.write(heading(title, message) + "[\(button)] ")
            return try tty.readLine() == nil ? 0 : 1
        }
    }

    /// Shows `message` under `title` with `buttons`; the button chosen, 1-based (0 when dismissed).
    public func confirm(message: String, title: String, buttons: [String]) throws(BridgeError) -> Int {
        try withTerminal { (tty) throws(BridgeError) in
            try tty.write(heading(title, message))
            return try choose(buttons, on: tty)
        }
    }

    /// Shows `message` under `title`, reads a line of text (`defaultText` when the line is empty), then the
    /// button when there is more than one.
    public func prompt(message: String, title: String, buttons: [String], defaultText: String) throws(BridgeError)
        -> PromptAnswer
    {
        try withTerminal { (tty) throws(BridgeError) in
            try tty.write(heading(title, message) + (defaultText.isEmpty ? "> " : "[\(defaultText)] > "))
            guard let line = try tty.readLine() else { return PromptAnswer(buttonIndex: 0, input1: "") }
            let text = line.isEmpty ? defaultText : line
            guard buttons.count > 1 else { return PromptAnswer(buttonIndex: 1, input1: text) }
            return PromptAnswer(buttonIndex: try choose(buttons, on: tty), input1: text)
        }
    }

    /// Rings the terminal's bell `count` times (at most 20), ``beepInterval`` apart.
    public func beep(count: Int) throws(BridgeError) {
        let times = min(max(count, 1), 20)
        try withTerminal { (tty) throws(BridgeError) in
            for time in 0..<times {
                if time > 0 { usleep(UInt32(max(0, beepInterval / .microseconds(1)))) }
                try tty.write("\u{7}")
            }
        }
    }

    /// The dialog's first lines.
    private func heading(_ title: String, _ message: String) -> String {
        (title.isEmpty ? "" : "\(title)\n") + (message.isEmpty ? "" : "\(message)\n")
    }

    /// Lists `buttons` and reads the choice until it is one (0 at the end of input).
    private func choose(_ buttons: [String], on tty: any DialogTerminal) throws(BridgeError) -> Int {
        guard !buttons.isEmpty else { return try tty.readLine() == nil ? 0 : 1 }
        let list = buttons.enumerated().map { "\($0.offset + 1)) \($0.element)" }.joined(separator: "  ")
        try tty.write(list + "\n")
        while true {
            try tty.write("Choose 1-\(buttons.count): ")
            guard let line = try tty.readLine() else { return 0 }
            if let index = Self.choice(line, among: buttons) { return index }
        }
    }

    /// The button `line` names: its number, or its label in any case; the first for an empty line.
    static func choice(_ line: String, among buttons: [String]) -> Int? {
        let answer = line.trimmingCharacters(in: .whitespaces)
        if answer.isEmpty { return 1 }
        if let number = Int(answer), (1...buttons.count).contains(number) { return number }
        if let index = buttons.firstIndex(where: { $0.lowercased() == answer.lowercased() }) { return index + 1 }
        return nil
    }

    private func withTerminal<T>(_ body: (any DialogTerminal) throws(BridgeError) -> T) throws(BridgeError) -> T {
        let tty = try terminal.open()
        defer { tty.close() }
        try tty.write("\n")
        return try body(tty)
    }
}

/// Runs `body`, which blocks (a dialog waits for the person at the terminal), on a thread of its own, so that
/// it holds none of the shared pool's few threads.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws(BridgeError) -> T) async throws(BridgeError)
    -> T
{
    let result: Result<T, BridgeError> = await withCheckedContinuation { continuation in
        let thread = Thread {
            do throws(BridgeError) {
                continuation.resume(returning: .success(try body()))
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        thread.name = "jsbridge-dialog"
        thread.start()
    }
    return try result.get()
}
