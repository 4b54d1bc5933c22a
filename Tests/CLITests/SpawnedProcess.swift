import CSpawn
import Foundation
import JSBridgeBase
import JSBridgeTesting

#if canImport(Glibc)
    import Glibc
#endif

/// A `jsbridge` process the test talks to while it runs (signals, stop/continue), in its own process group
/// so the shell's job control rules apply to it as to a job (a stop signal is not discarded).
final class SpawnedProcess: Sendable {
    /// How the process ended or paused, as `waitpid` reports it.
    enum Status: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)
        case stopped(Int32)

        var description: String {
            switch self {
            case .exited(let code): "exited with \(code)"
            case .signaled(let signo): "killed by signal \(signo)"
            case .stopped(let signo): "stopped by signal \(signo)"
            }
        }
    }

    /// Bytes read from one of the process's outputs, and whether it has reached its end.
    final class Buffer: Sendable {
        let data = Locked(Data())
        let ended = Locked(false)
        /// Fired after each read and at the end.
        let changed = TestSignal()
    }

    let pid: pid_t
    private let out = Buffer()
    private let err = Buffer()

    /// Starts `binary arguments…` with `environment` (in the test's working directory: give absolute paths).
    init(binary: String, arguments: [String], environment: [String: String]) throws {
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw HarnessError(description: "pipe failed") }
        defer {
            close(outPipe[1])
            close(errPipe[1])
        }
        pid = try Self.spawn(
            binary: binary, arguments: arguments, environment: environment, flags: POSIX_SPAWN_SETPGROUP
        ) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        }
        Self.drain(outPipe[0], into: out)
        Self.drain(errPipe[0], into: err)
    }

    /// Starts `binary arguments…` with signals at their defaults and unblocked, standard descriptors set up by
    /// `redirect`, and no other descriptor of the test process: a concurrent test's Foundation `Process`
    /// learns of its child's exit when the child's end of a socket pair closes, and a file another test is
    /// writing would stay open (running it would fail with ETXTBSY). `flags` adds e.g. a new process group.
    static func spawn(
        binary: String, arguments: [String], environment: [String: String], flags: Int32,
        redirect: (inout posix_spawn_file_actions_t) -> Void
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        redirect(&actions)
        jsb_spawn_close_from(&actions, 3)  // after the redirections, which may read descriptors above 2
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(flags | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, binary, &actions, &attributes, argv, envp)
        guard result == 0 else { throw HarnessError(description: "posix_spawn failed: \(result)") }
        return pid
    }

    private static func drain(_ fd: Int32, into buffer: Buffer) {
        Thread.detachNewThread {
            var bytes = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(fd, &bytes, bytes.count)
                if count <= 0 { break }
                buffer.data.withLock { $0.append(contentsOf: bytes[0..<count]) }
                buffer.changed.fire()
            }
            close(fd)
            buffer.ended.withLock { $0 = true }
            buffer.changed.fire()
        }
    }

    var stdout: String { out.data.withLock { String(decoding: $0, as: UTF8.self) } }
    var stderr: String { err.data.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Waits until stdout contains `text`; false after `seconds` (stretched by `Sanitizer.slowdown`).
    func waitForOutput(_ text: String, seconds: Double = 20) async -> Bool {
        await out.changed.wait(until: { self.stdout.contains(text) }, timeout: Self.guardTime(seconds))
    }

    /// Waits until stderr contains `text`; false after `seconds` (stretched by `Sanitizer.slowdown`).
    func waitForError(_ text: String, seconds: Double = 20) async -> Bool {
        await err.changed.wait(until: { self.stderr.contains(text) }, timeout: Self.guardTime(seconds))
    }

    /// `seconds`, stretched by `Sanitizer.slowdown`: a guard that ends a wait for what never comes (the process
    /// runs slower under a sanitizer). A passing wait returns as soon as its event happens.
    private static func guardTime(_ seconds: Double) -> Duration {
        .milliseconds(Int(seconds * 1000)) * Sanitizer.slowdown
    }

    func send(_ signo: Int32) { kill(pid, signo) }

    /// Waits until the kernel delivered `signo` sent with ``send(_:)`` (it is no longer pending for the
    /// process in `/proc/<pid>/status`: a handler has taken it); false after `seconds`.
    func waitUntilDelivered(_ signo: Int32, seconds: Double = 20) async -> Bool {
        // The kernel tells no one when a handler takes a signal: its pending set is sampled.
        await eventually(timeout: Self.guardTime(seconds), polling: .milliseconds(5)) {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return true }
            for line in status.split(separator: "\n") where line.hasPrefix("ShdPnd:") || line.hasPrefix("SigPnd:") {
                guard let mask = UInt64(line.split(separator: "\t").last ?? "", radix: 16) else { continue }
                if mask & (1 << UInt64(signo - 1)) != 0 { return false }
            }
            return true
        }
    }

    /// The next change of state (exit, death, stop); nil after `seconds`, stretched by `Sanitizer.slowdown`
    /// (the process is then killed).
    func waitForStatus(seconds: Double = 20) async -> Status? {
        let pid = self.pid
        let killed = Locked(false)
        let guardTask = Task {
            guard (try? await Task.sleep(for: Self.guardTime(seconds))) != nil else { return }
            killed.withLock { $0 = true }
            kill(pid, SIGKILL)
        }
        let status =
            (try? await runBlocking { () -> Int32 in
                var status: Int32 = 0
                while waitpid(pid, &status, WUNTRACED) == -1, errno == EINTR {}
                return status
            }) ?? 0
        guardTask.cancel()
        if killed.withLock({ $0 }) { return nil }
        if status & 0xFF == 0x7F { return .stopped((status >> 8) & 0xFF) }
        // Ended: its outputs are read to their ends first, so `stdout` and `stderr` are whole.
        for buffer in [out, err] {
            _ = await buffer.changed.wait(until: { buffer.ended.withLock { $0 } }, timeout: Self.guardTime(5))
        }
        let low = status & 0x7F
        return low == 0 ? .exited((status >> 8) & 0xFF) : .signaled(low)
    }
}
