import CSpawn
import CTerminal
import Foundation
import JSBridgeBase
import JSBridgeTesting
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A `jsbridge` process on a pseudo-terminal, driven as a user at a terminal would: keys in, screen out.
///
/// The process starts a session of its own (POSIX_SPAWN_SETSID) and opens the terminal device as stdin,
/// stdout and stderr, so the terminal is its controlling terminal (Ctrl-C in the terminal's own mode is SIGINT).
final class ReplTerminal: Sendable {
    let pid: pid_t
    private let controller: Int32
    private let output = SpawnedProcess.Buffer()

    /// Starts `binary arguments…` with `environment` on a new 24×100 pseudo-terminal (in the test's working
    /// directory: give absolute paths).
    init(binary: String, arguments: [String], environment: [String: String]) throws {
        var controller: Int32 = -1
        var name = [CChar](repeating: 0, count: 256)
        guard jsb_pty_open(&controller, &name, name.count, 24, 100) == 0 else {
            throw HarnessError(description: "could not open a pseudo-terminal: errno \(errno)")
        }
        self.controller = controller
        do {
            pid = try SpawnedProcess.spawn(
                binary: binary, arguments: arguments, environment: environment, flags: Int32(jsb_spawn_setsid_flag())
            ) { actions in
                posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
                posix_spawn_file_actions_adddup2(&actions, 0, 1)
                posix_spawn_file_actions_adddup2(&actions, 0, 2)
            }
        } catch {
            close(controller)
            throw error
        }
        let buffer = output
        let fd = controller
        Thread.detachNewThread {
            var bytes = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(fd, &bytes, bytes.count)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }  // EIO once the process has closed the terminal
                buffer.data.withLock { $0.append(contentsOf: bytes[0..<count]) }
                buffer.changed.fire()
            }
        }
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, WNOHANG)
        close(controller)
    }

    /// Everything the terminal showed so far, as text.
    var screen: String { output.data.withLock { String(decoding: $0, as: UTF8.self) } }

    /// ``screen`` without colours and cursor movements.
    var plain: String { Self.stripped(screen) }

    /// A position in the output: ``waitFor(_:after:seconds:)`` looks only at what came after it.
    var mark: Int { output.data.withLock { $0.count } }

    /// Output after `mark`, without escape sequences and carriage returns.
    func plain(after mark: Int) -> String {
        Self.stripped(output.data.withLock { String(decoding: $0.suffix(from: $0.startIndex + mark), as: UTF8.self) })
    }

    /// `text` without escape sequences and carriage returns (the terminal turns "\n" into "\r\n").
    static func stripped(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\r", with: "")
    }

    /// Types `text` (bytes as they are: "\r" is Enter, "\t" Tab, "\u{3}" Ctrl-C).
    func type(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeMutableBytes { write(controller, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
        bytes.removeAll()
    }

    /// Waits until the output after `mark` (without escape sequences) contains `text`; false after `seconds`.
    func waitFor(_ text: String, after mark: Int = 0, seconds: Double = 30) async -> Bool {
        await output.changed.wait(until: { self.plain(after: mark).contains(text) }, timeout: .seconds(seconds))
    }

    /// Types `line` and Enter, and waits for the next prompt; the output in between (without the echo of
    /// the line), or nil when no prompt came.
    func enter(_ line: String, prompt: String = "\n> ") async -> String? {
        let start = mark
        type(line + "\r")
        guard await waitFor(prompt, after: start) else { return nil }
        var text = plain(after: start)
        if let echo = text.range(of: line + "\n") { text = String(text[echo.upperBound...]) }
        // Up to the prompt, keeping the line break before it.
        if let end = text.range(of: prompt, options: .backwards) {
            text = String(text[..<end.lowerBound]) + (prompt.hasPrefix("\n") ? "\n" : "")
        }
        return text
    }

    /// How the process ended; nil after `seconds` (it is then killed).
    func waitForExit(seconds: Double = 60) async -> SpawnedProcess.Status? {
        let pid = self.pid
        let killed = Locked(false)
        let guardTask = Task {
            guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return }
            killed.withLock { $0 = true }
            kill(pid, SIGKILL)
        }
        let status =
            (try? await runBlocking { () -> Int32 in
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1, errno == EINTR {}
                return status
            }) ?? 0
        guardTask.cancel()
        if killed.withLock({ $0 }) { return nil }
        return status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
    }
}
