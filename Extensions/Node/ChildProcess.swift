import CProcess
import CSpawn
import FileAccess
import Foundation
import JSBridge
import JSBridgeBase
import JSBridgeCore
import Synchronization

/// What node-child-process.js asks to run: its normalised spawn options, as JSON.
struct SpawnRequest {
    enum Stdio: Equatable {
        case pipe, inherit, ignore
        /// One of the runtime's own descriptors, given to the child.
        case descriptor(Int32)
    }

    /// The program as the script named it (`/bin/sh` with `shell`).
    var file: String
    /// The child's argv, argv[0] first.
    var arguments: [String]
    /// `NAME=value` entries.
    var environment: [String]
    var directory: String?
    var stdio: [Stdio]
    var detached: Bool

    init(_ json: JSONValue) throws(NativeError) {
        guard let file = json["file"]?.stringValue, let arguments = json["args"]?.arrayValue,
            let environment = json["envPairs"]?.arrayValue, let stdio = json["stdio"]?.arrayValue
        else { throw .type("Malformed spawn request") }
        self.file = file
        self.arguments = arguments.compactMap(\.stringValue)
        self.environment = environment.compactMap(\.stringValue)
        directory = json["cwd"]?.stringValue
        detached = json["detached"]?.boolValue ?? false
        self.stdio = try stdio.prefix(3).map { (entry) throws(NativeError) -> Stdio in
            switch entry {
            case .string("pipe"): return .pipe
            case .string("inherit"): return .inherit
            case .string("ignore"): return .ignore
            case .number(let fd) where fd >= 0 && fd < 1_048_576 && fd == fd.rounded(): return .descriptor(Int32(fd))
            default: throw .type("Unsupported stdio entry \(entry)")
            }
        }
        while self.stdio.count < 3 { self.stdio.append(.pipe) }
    }

    /// The `PATH` the child's `execvp` would search.
    var searchPath: String {
        for entry in environment where entry.hasPrefix("PATH=") { return String(entry.dropFirst(5)) }
        return ProgramLookup.defaultPath
    }

    /// The working directory relative names resolve against.
    var workingDirectory: String {
        guard let directory else { return ResolvedPath.workingDirectory() }
        return directory.hasPrefix("/") ? directory : ResolvedPath.workingDirectory() + "/" + directory
    }

    /// The file to run: checked against `--allow-run` (PERMISSION_DENIED names what to grant), then found.
    /// Answers the path to spawn, or the errno name the spawn fails with (`ENOENT`, `EACCES`).
    func resolve(_ permissions: Permissions, syscall: String) throws(NativeError) -> Result<String, SpawnFailure> {
        let found = ProgramLookup.find(file, path: searchPath, in: workingDirectory)
        let requested: String
        switch found {
        case .found(let path), .notExecutable(let path): requested = ResolvedPath(path).path
        case .missing: requested = file.contains("/") ? ResolvedPath(file, relativeTo: workingDirectory).path : file
        }
        do throws(BridgeError) {
            try permissions.check(.run, scope: requested)
        } catch {
            throw .bridge(error, plugin: "node:child_process", action: syscall)
        }
        switch found {
        case .found(let path): return .success(path)
        case .notExecutable: return .failure(SpawnFailure(errno: EACCES))
        case .missing: return .failure(SpawnFailure(errno: ENOENT))
        }
    }
}

/// Why a spawn failed: its errno, as Node names and numbers it (`ENOENT`, -2).
struct SpawnFailure: Error {
    var errno: Int32
    var name: String { Self.names[errno] ?? "E\(errno)" }

    static let names: [Int32: String] = [
        ENOENT: "ENOENT", EACCES: "EACCES", EPERM: "EPERM", ENOTDIR: "ENOTDIR", ENOEXEC: "ENOEXEC", EMFILE: "EMFILE",
        ENFILE: "ENFILE", EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", E2BIG: "E2BIG", ELOOP: "ELOOP", EPIPE: "EPIPE",
        ENAMETOOLONG: "ENAMETOOLONG", ETXTBSY: "ETXTBSY", ESRCH: "ESRCH", EINVAL: "EINVAL", EISDIR: "EISDIR",
        ETIMEDOUT: "ETIMEDOUT", ENOBUFS: "ENOBUFS",
    ]
}

/// A started child: its id, a pidfd when the kernel has them, and the parent's ends of its pipes (-1 where the
/// stdio entry was not a pipe).
struct SpawnedChild {
    var pid: pid_t
    var pidfd: Int32
    /// The write end of its stdin, the read ends of its stdout and stderr.
    var pipes: [Int32]
}

enum Spawner {
    /// Starts `request`'s program at `path` with posix_spawn: pipes (close-on-exec, the parent's ends
    /// non-blocking), the stdio entries, the working directory, every signal at its default action and none
    /// blocked (the runtime ignores SIGPIPE and handles SIGINT itself; the child must not inherit that), a
    /// session of its own when detached, and no other descriptor.
    static func spawn(_ request: SpawnRequest, path: String) -> Result<SpawnedChild, SpawnFailure> {
        var pipes: [Int32] = [-1, -1, -1]
        var childEnds: [Int32] = []
        defer { for fd in childEnds { close(fd) } }
        func fail(_ code: Int32) -> Result<SpawnedChild, SpawnFailure> {
            for fd in pipes where fd >= 0 { close(fd) }
            return .failure(SpawnFailure(errno: code))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (index, entry) in request.stdio.enumerated() {
            let target = Int32(index)
            switch entry {
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard jsb_pipe_cloexec(&ends) == 0 else { return fail(errno) }
                let (parent, child) = index == 0 ? (ends[1], ends[0]) : (ends[0], ends[1])
                pipes[index] = parent
                childEnds.append(child)
                _ = fcntl(parent, F_SETFL, fcntl(parent, F_GETFL) | O_NONBLOCK)
                posix_spawn_file_actions_adddup2(&actions, child, target)
            case .inherit:
                break
            case .ignore:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", index == 0 ? O_RDONLY : O_WRONLY, 0)
            case .descriptor(let fd):
                guard fd != target else { continue }
                // A copy of the runtime's descriptor: an earlier entry may have replaced that number in the
                // child (`[pipe, pipe, 1]` gives the child's stderr the runtime's stdout, not the child's pipe).
                let copy = fcntl(fd, F_DUPFD_CLOEXEC, 3)
                guard copy >= 0 else { return fail(errno) }
                childEnds.append(copy)
                posix_spawn_file_actions_adddup2(&actions, copy, target)
            }
        }
        if let directory = request.directory { jsb_spawn_chdir(&actions, directory) }
        jsb_spawn_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var flags = Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if request.detached { flags |= jsb_spawn_setsid_flag() }
        posix_spawnattr_setflags(&attributes, flags)
        // Output the runtime buffered goes first: a child that inherits stdout writes after it.
        jsb_flush_all()
        var pid: pid_t = 0
        let status = withCStrings(request.arguments) { argv in
            withCStrings(request.environment) { envp in posix_spawn(&pid, path, &actions, &attributes, argv, envp) }
        }
        guard status == 0 else { return fail(status) }
        return .success(SpawnedChild(pid: pid, pidfd: jsb_pidfd_open(pid), pipes: pipes))
    }

    /// `body` with a NULL-terminated array of C strings.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }

    /// The wait status as Node reports it: the exit code, or the signal that ended it.
    static func outcome(_ status: Int32) -> (code: Int32?, signal: Int32?) {
        let low = status & 0x7f
        if low == 0 { return ((status >> 8) & 0xff, nil) }
        return (nil, low)
    }
}

/// A child that runs while the script goes on: one thread per child polls its pipes and its pidfd, reads a
/// chunk of stdout or stderr each time JavaScript asks for one (so a paused stream stops the reading, and a
/// child writing faster than the script reads blocks on its full pipe), writes what JavaScript gives to its
/// stdin, reaps it when it exits, and posts each of these to JavaScript as the native event "child":
/// `{id, fd, data}` and `{id, fd, end}` for output, `{id, written}` or `{id, writeError}` for stdin, and
/// `{id, exit: code}` or `{id, signal: number}` once, when it exited.
final class ChildProcess: @unchecked Sendable {
    let id: Int
    let pid: pid_t
    let detached: Bool
    private let pidfd: Int32
    /// The pipe through which the JS thread wakes the polling thread (read end, write end).
    private let wake: (read: Int32, write: Int32)
    private let events: NativeEvents
    private let control = Mutex(Control())

    /// What the JS thread asks of the polling thread (and what the thread reports back).
    private struct Control {
        /// The parent's ends: stdin's write end, stdout's and stderr's read ends (-1: none or closed).
        var fds: [Int32] = [-1, -1, -1]
        /// Whether JavaScript wants the next chunk of fd 1 / 2.
        var wants: [Bool] = [false, false, false]
        /// Bytes for stdin not written yet.
        var pending: [UInt8] = []
        var pendingOffset = 0
        var writing = false
        var endStdin = false
        var closeRequested: [Bool] = [false, false, false]
        var exited = false
    }

    /// The most one read takes (one chunk of the stream).
    static let chunkSize = 64 << 10

    init(id: Int, spawned: SpawnedChild, detached: Bool, events: NativeEvents) {
        self.id = id
        pid = spawned.pid
        pidfd = spawned.pidfd
        self.detached = detached
        self.events = events
        var ends: [Int32] = [-1, -1]
        if jsb_pipe_cloexec(&ends) == 0 {
            for fd in ends { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        }
        wake = (ends[0], ends[1])
        control.withLock { $0.fds = spawned.pipes }
    }

    // The pidfd and the wake pipe live as long as the object: the JS thread may still signal either after the
    // polling thread ended, and a closed number could by then name another file.
    deinit {
        if pidfd >= 0 { close(pidfd) }
        close(wake.read)
        close(wake.write)
    }

    /// Starts the polling thread.
    func start() {
        let thread = Thread { [self] in poll() }
        thread.name = "jsbridge-child-\(pid)"
        thread.start()
    }

    private func signal() {
        var one: UInt8 = 1
        _ = Glibc.write(wake.write, &one, 1)
    }

    /// JavaScript wants the next chunk of stdout (1) or stderr (2).
    func want(_ fd: Int) {
        guard (1...2).contains(fd) else { return }
        control.withLock { $0.wants[fd] = true }
        signal()
    }

    /// Queues `bytes` for stdin; the event `{written}` follows once they are in the pipe. Answers an errno name
    /// when stdin is closed.
    func write(_ bytes: [UInt8]) -> String? {
        let open = control.withLock { state in
            guard state.fds[0] >= 0, !state.endStdin else { return false }
            state.pending = bytes
            state.pendingOffset = 0
            state.writing = true
            return true
        }
        guard open else { return "EPIPE" }
        signal()
        return nil
    }

    /// Closes stdin once what is queued is written.
    func endStdin() {
        control.withLock { $0.endStdin = true }
        signal()
    }

    /// Closes stdin (0), or stops reading stdout or stderr and closes it (1, 2): the stream was destroyed.
    func closeOutput(_ fd: Int) {
        guard (0...2).contains(fd) else { return }
        control.withLock { $0.closeRequested[fd] = true }
        signal()
    }

    /// Sends `signo` (0 checks that it lives); 0 or an errno. JavaScript asks only until it saw the exit, and
    /// until then the child is, as in Node, still there: one that exited and was reaped since (this thread
    /// reaps at once, where Node's loop reaps on its next turn) answers as a zombie does, with success.
    func kill(_ signo: Int32) -> Int32 {
        if pidfd >= 0 {
            guard jsb_pidfd_send_signal(pidfd, signo) != 0 else { return 0 }
            return errno == ESRCH ? 0 : errno
        }
        // Without pidfds: only while not reaped, so the id cannot be another process's.
        let exited = control.withLock { $0.exited }
        if exited { return 0 }
        guard Glibc.kill(pid, signo) != 0 else { return 0 }
        return errno == ESRCH ? 0 : errno
    }

    var hasExited: Bool { control.withLock { $0.exited } }

    private func post(_ payload: JSONObject, bytes: [ByteAttachment] = []) {
        var object = payload
        object["id"] = .number(Double(id))
        events.post("child", BridgeValue(.object(object), bytes: bytes))
    }

    /// The polling thread: until the child was reaped and its outputs ended.
    private func poll() {
        var reaped = false
        while true {
            var state = control.withLock { $0 }
            // Requests to close a stream first (stdin's pending bytes are dropped).
            for fd in 0...2 where state.closeRequested[fd] && state.fds[fd] >= 0 {
                close(state.fds[fd])
                state.fds[fd] = -1
                state.writing = fd == 0 ? false : state.writing
                control.withLock { control in
                    control.fds[fd] = -1
                    if fd == 0 {
                        control.pending = []
                        control.writing = false
                    }
                }
            }
            if state.fds[0] >= 0, state.endStdin, !state.writing {
                close(state.fds[0])
                control.withLock { $0.fds[0] = -1 }
                state.fds[0] = -1
            }
            if reaped, state.fds[1] < 0, state.fds[2] < 0 { break }
            var fds: [pollfd] = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            if !reaped, pidfd >= 0 { fds.append(pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)) }
            for fd in 1...2 where state.fds[fd] >= 0 && state.wants[fd] {
                fds.append(pollfd(fd: state.fds[fd], events: Int16(POLLIN), revents: 0))
            }
            if state.fds[0] >= 0, state.writing {
                fds.append(pollfd(fd: state.fds[0], events: Int16(POLLOUT), revents: 0))
            }
            // Without a pidfd the exit is noticed by polling waitpid every 50 ms.
            let ready = Glibc.poll(&fds, nfds_t(fds.count), reaped || pidfd >= 0 ? -1 : 50)
            if ready < 0, errno != EINTR { break }
            var drained = [UInt8](repeating: 0, count: 64)
            while read(wake.read, &drained, drained.count) > 0 {}
            if !reaped {
                var status: Int32 = 0
                let result = waitpid(pid, &status, WNOHANG)
                if result == pid || (result < 0 && errno == ECHILD) {
                    reaped = true
                    control.withLock { $0.exited = true }
                    let (code, signal) = result == pid ? Spawner.outcome(status) : (nil, nil)
                    if let signal {
                        post(["signal": .number(Double(signal))])
                    } else {
                        post(["exit": .number(Double(code ?? 0))])
                    }
                }
            }
            for entry in fds.dropFirst() where entry.revents != 0 {
                if let fd = (1...2).first(where: { state.fds[$0] == entry.fd }) {
                    var count = 0
                    let bytes = Bytes(capacity: Self.chunkSize) { raw in
                        count = read(entry.fd, raw.baseAddress, raw.count)
                        return max(0, count)
                    }
                    if count > 0 {
                        control.withLock { $0.wants[fd] = false }
                        post(
                            ["fd": .number(Double(fd)), "data": [:]],
                            bytes: [ByteAttachment(path: [.key("data")], bytes: bytes)])
                    } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                        close(entry.fd)
                        control.withLock { $0.fds[fd] = -1 }
                        post(["fd": .number(Double(fd)), "end": true])
                    }
                } else if entry.fd == state.fds[0] {
                    writeStdin(entry.fd)
                }
            }
        }
        let stdin = control.withLock { state in
            defer { state.fds[0] = -1 }
            return state.fds[0]
        }
        if stdin >= 0 { close(stdin) }
    }

    /// Writes what is pending to stdin; posts `{written}` when all of it is in, `{writeError}` when the pipe
    /// broke (the child closed its end or exited).
    private func writeStdin(_ fd: Int32) {
        let (bytes, offset) = control.withLock { ($0.pending, $0.pendingOffset) }
        let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if count >= 0 {
            let done = control.withLock { state in
                state.pendingOffset += count
                guard state.pendingOffset >= state.pending.count else { return false }
                state.pending = []
                state.pendingOffset = 0
                state.writing = false
                return true
            }
            if done { post(["written": true]) }
            return
        }
        if errno == EAGAIN || errno == EINTR { return }
        let failure = SpawnFailure(errno: errno)
        close(fd)
        control.withLock { state in
            state.fds[0] = -1
            state.pending = []
            state.writing = false
        }
        post(["writeError": .string(failure.name), "errno": .number(Double(-failure.errno))])
    }
}

/// A child the JS thread waits for (`spawnSync`): its input written, its outputs read to their ends (past
/// `maxBuffer` bytes in one of them the child is killed, ENOBUFS), and killed with `killSignal` past `timeout`
/// (ETIMEDOUT) or the run's `--timeout` deadline.
struct SyncChild {
    var spawned: SpawnedChild
    var input: [UInt8]
    var timeoutMs: Double
    var maxBuffer: Double
    var killSignal: Int32
    var deadline: UInt64?

    struct Outcome {
        var status: Int32?
        var signal: Int32?
        var outputs: [[UInt8]?] = [nil, nil, nil]
        var error: SpawnFailure?
        /// Killed at the run's `--timeout` deadline (rather than at its own `timeout`).
        var reachedDeadline = false
    }

    func run() -> Outcome {
        var outcome = Outcome()
        var fds = spawned.pipes
        for index in 1...2 where fds[index] >= 0 { outcome.outputs[index] = [] }
        var offset = 0
        if fds[0] >= 0, input.isEmpty {
            close(fds[0])
            fds[0] = -1
        }
        let start = jsb_monotonic_ns()
        var stopAt: UInt64? = timeoutMs > 0 ? start + UInt64(min(timeoutMs, 1e12) * 1e6) : nil
        var stopIsDeadline = false
        if let deadline, deadline < stopAt ?? .max {
            stopAt = deadline
            stopIsDeadline = true
        }
        var killed = false
        var reaped = false
        var buffer = [UInt8](repeating: 0, count: ChildProcess.chunkSize)
        // Killed, the child is only waited for: its pipes close at once (as Node's), since a process it started
        // may hold them open long after it.
        func kill(_ failure: Int32) {
            guard !killed else { return }
            killed = true
            if outcome.error == nil { outcome.error = SpawnFailure(errno: failure) }
            if spawned.pidfd >= 0 {
                _ = jsb_pidfd_send_signal(spawned.pidfd, killSignal)
            } else {
                _ = Glibc.kill(spawned.pid, killSignal)
            }
            for index in fds.indices where fds[index] >= 0 {
                close(fds[index])
                fds[index] = -1
            }
        }
        while !reaped || fds[1] >= 0 || fds[2] >= 0 {
            var polled: [pollfd] = []
            if !reaped, spawned.pidfd >= 0 {
                polled.append(pollfd(fd: spawned.pidfd, events: Int16(POLLIN), revents: 0))
            }
            for index in 1...2 where fds[index] >= 0 {
                polled.append(pollfd(fd: fds[index], events: Int16(POLLIN), revents: 0))
            }
            if fds[0] >= 0 { polled.append(pollfd(fd: fds[0], events: Int16(POLLOUT), revents: 0)) }
            var wait: Int32 = spawned.pidfd >= 0 || reaped ? -1 : 20
            if let stopAt, !killed {
                let now = jsb_monotonic_ns()
                if now >= stopAt {
                    kill(ETIMEDOUT)
                    outcome.reachedDeadline = stopIsDeadline
                    continue
                }
                let left = Int32(min((stopAt - now) / 1_000_000 + 1, 60_000))
                wait = wait < 0 ? left : min(wait, left)
            }
            let ready = Glibc.poll(&polled, nfds_t(polled.count), wait)
            if ready < 0, errno != EINTR { break }
            if !reaped {
                var status: Int32 = 0
                let result = waitpid(spawned.pid, &status, WNOHANG)
                if result == spawned.pid {
                    reaped = true
                    (outcome.status, outcome.signal) = Spawner.outcome(status)
                } else if result < 0, errno == ECHILD {
                    reaped = true
                }
            }
            for entry in polled where entry.revents != 0 {
                if let index = (1...2).first(where: { fds[$0] == entry.fd }) {
                    let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                    if count > 0 {
                        outcome.outputs[index]!.append(contentsOf: buffer[0..<count])
                        // Past maxBuffer the child is killed; what was read stays, whole chunks (as Node's).
                        if Double(outcome.outputs[index]!.count) > maxBuffer { kill(ENOBUFS) }
                    } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                        close(entry.fd)
                        fds[index] = -1
                    }
                } else if entry.fd == fds[0] {
                    let count = input.withUnsafeBytes { write(entry.fd, $0.baseAddress! + offset, $0.count - offset) }
                    if count > 0 { offset += count }
                    if offset >= input.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                        close(entry.fd)
                        fds[0] = -1
                    }
                }
            }
        }
        for fd in fds where fd >= 0 { close(fd) }
        if spawned.pidfd >= 0 { close(spawned.pidfd) }
        if !reaped {
            var status: Int32 = 0
            if waitpid(spawned.pid, &status, 0) == spawned.pid {
                (outcome.status, outcome.signal) = Spawner.outcome(status)
            }
        }
        return outcome
    }
}
