import Foundation
import JSBridgeBase
import JSBridgeTesting
import Synchronization
import Testing

// The harness of the CLI spec tests: finds the built `jsbridge` binary, runs it in a sandbox (a fresh
// temporary working directory with its own HOME and XDG_DATA_HOME, stdin from /dev/null, a kill-timeout)
// and normalises the output (`$SPECS`, `$TMP`, `$BIN` stand for the paths that depend on the machine).
// The spec file format is documented in CLISpecTests.swift.

/// Why the harness cannot run.
struct HarnessError: Error, CustomStringConvertible {
    var description: String
}

/// Paths the tests depend on.
enum CLIPaths {
    /// `Tests/CLITests/Specs`, found from this file's path.
    static let specs: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Specs").standardizedFileURL.path

    /// The package root (three levels above this file).
    static let packageRoot: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.path

    /// The `jsbridge` binary under test (``BuiltBinary``: `$JSBRIDGE_BIN` or the one beside the tests).
    static func binary() throws -> String { try BuiltBinary.path() }
}

/// What one run of the binary produced.
struct RunResult: Sendable {
    /// The exit status, or 128 + the signal number when the process was killed by a signal.
    var exitCode: Int32
    /// True when the harness killed the process after the run's time limit.
    var timedOut: Bool
    /// Output with machine-dependent paths replaced by `$TMP`, `$SPECS` and `$BIN`.
    var stdout: String
    var stderr: String
    var rawStdout: String
    var rawStderr: String
    var elapsed: Duration
    /// The command line, for failure messages.
    var commandLine: String

    /// A summary for failure messages.
    var summary: String {
        """
        $ \(commandLine)
        exit code: \(exitCode)\(timedOut ? " (killed by the harness after its time limit)" : "")
        --- stdout
        \(stdout.isEmpty ? "(empty)" : stdout)
        --- stderr
        \(stderr.isEmpty ? "(empty)" : stderr)
        """
    }
}

/// Limits how many binaries run at once (the machine has two cores; timing-sensitive scripts must not starve).
actor RunSlots {
    static let shared = RunSlots(count: max(2, min(4, ProcessInfo.processInfo.activeProcessorCount * 2)))

    private var available: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { available = count }

    func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty {
            available += 1
        } else {
            waiters.removeFirst().resume()
        }
    }
}

/// State shared between a run and its watchdog.
private final class RunState: Sendable {
    let finished = Atomic<Bool>(false)
    let timedOut = Atomic<Bool>(false)
    let watchdog = Locked<Task<Void, Never>?>(nil)
    private let continuation = Locked<CheckedContinuation<(Int32, Process.TerminationReason), any Error>?>(nil)

    func await(_ start: (RunState) -> Void) async throws -> (Int32, Process.TerminationReason) {
        try await withCheckedThrowingContinuation { continuation in
            self.continuation.withLock { $0 = continuation }
            start(self)
        }
    }

    /// Ends the wait once; later calls do nothing (the exit and the watchdog may both report).
    func resume(with result: Result<(Int32, Process.TerminationReason), any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}

enum CLI {
    /// Runs `jsbridge arguments…` in a fresh sandbox directory and returns its output.
    ///
    /// - `environment`: overrides of the controlled environment (nil removes a variable). The default
    ///   environment is `PATH`, `LANG=C.UTF-8`, `HOME=$TMP/home`, `XDG_DATA_HOME=$TMP/xdg`,
    ///   `SWIFT_BACKTRACE=enable=no`, and the test process's own `JSC_*` variables.
    /// - `workingDirectory`: default `$TMP` (the sandbox itself).
    /// - `$TMP`, `$SPECS` in arguments, environment values and the working directory are expanded.
    /// - `timeLimit`: the process is killed (and `timedOut` set) after this many seconds (stretched by
    ///   `Sanitizer.slowdown` under a sanitizer).
    /// - `binary`: another binary to run instead of the built `jsbridge`.
    /// - `stdin`: the bytes the process reads on its standard input (default: none, `/dev/null`).
    static func run(
        _ arguments: [String],
        environment overrides: [String: String?] = [:],
        workingDirectory: String? = nil,
        timeLimit: Double = 20,
        binary: String? = nil,
        stdin: Data? = nil
    ) async throws -> RunResult {
        let binary = try binary ?? CLIPaths.binary()
        let fm = FileManager.default
        let base = fm.temporaryDirectory.appendingPathComponent("jsbridge-cli-\(UUID().uuidString)").path
        let sandbox = base + "/sandbox"
        try fm.createDirectory(atPath: sandbox + "/home", withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: base) }

        func expand(_ text: String) -> String {
            text.replacingOccurrences(of: "$SPECS", with: CLIPaths.specs)
                .replacingOccurrences(of: "$TMP", with: sandbox)
        }
        let arguments = arguments.map(expand)
        var environment: [String: String] = [
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "HOME": sandbox + "/home",
            "XDG_DATA_HOME": sandbox + "/xdg",
            "SWIFT_BACKTRACE": "enable=no",
        ]
        // JavaScriptCore's options given to the test run reach every process it starts: e.g.
        // `JSC_slowPathAllocsBetweenGCs=13 swift test --filter CLITests` runs the CLI suite under collection stress.
        for (key, value) in ProcessInfo.processInfo.environment where key.hasPrefix("JSC_") { environment[key] = value }
        for (key, value) in overrides { environment[key] = value.map(expand) }
        let directory = workingDirectory.map(expand) ?? sandbox

        let stdoutPath = base + "/stdout", stderrPath = base + "/stderr"
        _ = fm.createFile(atPath: stdoutPath, contents: nil)
        _ = fm.createFile(atPath: stderrPath, contents: nil)
        let stdoutHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        let stderrHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        if let stdin {
            let stdinPath = base + "/stdin"
            _ = fm.createFile(atPath: stdinPath, contents: stdin)
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: stdinPath))
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        process.standardOutput = stdoutHandle
        process.standardError = stderrHandle

        await RunSlots.shared.acquire()
        let state = RunState()
        let started = ContinuousClock.now
        let status: (Int32, Process.TerminationReason)
        do {
            status = try await state.await { state in
                process.terminationHandler = { finished in
                    state.resume(with: .success((finished.terminationStatus, finished.terminationReason)))
                }
                do {
                    try process.run()
                } catch {
                    process.terminationHandler = nil
                    state.resume(with: .failure(HarnessError(description: "Could not start \(binary): \(error)")))
                    return
                }
                let pid = process.processIdentifier
                let watchdog = Task.detached {
                    guard (try? await Task.sleep(for: Sanitizer.scaled(.seconds(timeLimit)))) != nil else { return }
                    if !state.finished.load(ordering: .acquiring) {
                        state.timedOut.store(true, ordering: .releasing)
                        kill(pid, SIGKILL)
                    }
                    // Foundation learns of the exit through a socket the child holds: if another process
                    // inherited it, the termination handler never runs. Fail the test rather than hang the run.
                    guard (try? await Task.sleep(for: .seconds(10))) != nil else { return }
                    state.resume(with: .success((SIGKILL, .uncaughtSignal)))
                }
                state.watchdog.withLock { $0 = watchdog }
            }
        } catch {
            await RunSlots.shared.release()
            throw error
        }
        state.finished.store(true, ordering: .releasing)
        // Both hold `state` (and the watchdog is held by it): dropped here, or every run leaks them.
        process.terminationHandler = nil
        state.watchdog.withLock {
            $0?.cancel()
            $0 = nil
        }
        let elapsed = ContinuousClock.now - started
        await RunSlots.shared.release()
        try? stdoutHandle.close()
        try? stderrHandle.close()

        let envPrefix =
            overrides.isEmpty
            ? ""
            : "env "
                + overrides.keys.sorted().map { key in
                    environment[key].map { shellQuote("\(key)=\($0)") } ?? "-u \(key)"
                }.joined(separator: " ") + " "
        let rawStdout = String(decoding: fm.contents(atPath: stdoutPath) ?? Data(), as: UTF8.self)
        let rawStderr = String(decoding: fm.contents(atPath: stderrPath) ?? Data(), as: UTF8.self)
        let substitutions = Self.substitutions(sandbox: sandbox, binary: binary)
        return RunResult(
            exitCode: status.1 == .exit ? status.0 : 128 + status.0,
            timedOut: state.timedOut.load(ordering: .acquiring),
            stdout: normalize(rawStdout, substitutions),
            stderr: normalize(rawStderr, substitutions),
            rawStdout: rawStdout,
            rawStderr: rawStderr,
            elapsed: elapsed,
            commandLine: "cd \(shellQuote(directory)) && " + envPrefix
                + ([binary] + arguments).map(shellQuote).joined(separator: " "))
    }

    /// (path, placeholder) pairs, longest path first; real paths too, in case a directory is a symlink.
    private static func substitutions(sandbox: String, binary: String) -> [(String, String)] {
        var pairs: [(String, String)] = []
        func add(_ path: String, _ placeholder: String) {
            pairs.append((path, placeholder))
            if let resolved = realpath(path, nil) {
                let real = String(cString: resolved)
                free(resolved)
                if real != path { pairs.append((real, placeholder)) }
            }
        }
        add(binary, "$BIN")
        add(sandbox, "$TMP")
        add(CLIPaths.specs, "$SPECS")
        return pairs.sorted { $0.0.count > $1.0.count }
    }

    private static func normalize(_ text: String, _ substitutions: [(String, String)]) -> String {
        var text = text
        for (path, placeholder) in substitutions { text = text.replacingOccurrences(of: path, with: placeholder) }
        return text
    }

    static func shellQuote(_ word: String) -> String {
        if !word.isEmpty, word.allSatisfy({ $0.isLetter || $0.isNumber || "-_./=:,@%+$".contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
