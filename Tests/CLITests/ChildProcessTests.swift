import Foundation
import Testing

// node:child_process where a spec file cannot look: what is left running once jsbridge has exited. The module's
// behaviour against Node's is in Specs/node-child-process*.js.

/// Whether process `pid` is gone: no such process, or a zombie waiting for its new parent to reap it. Waits up
/// to `seconds` for it to go.
private func isGone(_ pid: Int32, within seconds: Double = 3) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        // The state follows the parenthesised command name: `pid (comm) S …`.
        if let close = stat.lastIndex(of: ")"),
            stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces)
                .hasPrefix("Z")
        {
            return true
        }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return false
}

/// The process ids a run printed, one per line.
private func pids(_ output: String) -> [Int32] {
    output.split(separator: "\n").compactMap { Int32($0.trimmingCharacters(in: .whitespaces)) }
}

@Suite("node:child_process processes", .blocking) struct ChildProcessTests {
    /// The time limit leaves room for a slow start (a debug or sanitizer build on a loaded machine took over 3 s
    /// to start both children): they must have been started, and printed, before it ends the run.
    @Test func aRunStoppedByItsTimeoutKillsItsChildren() async throws {
        let result = try await CLI.run([
            "--allow-run", "--timeout", "10", "-e",
            """
            const { spawn } = require("node:child_process");
            const child = spawn("sleep", ["100"]);
            const quiet = spawn("sleep", ["100"], { stdio: "ignore" });
            quiet.unref();
            console.log(child.pid);
            console.log(quiet.pid);
            """,
        ])
        #expect(result.exitCode == 1, "\(result.summary)")
        #expect(result.stderr.contains("--timeout of 10s"), "\(result.summary)")
        let started = pids(result.stdout)
        #expect(started.count == 2, "\(result.summary)")
        for pid in started { #expect(await isGone(pid), "child \(pid) outlived the run") }
    }

    @Test func aSyncChildStopsAtTheRunsDeadline() async throws {
        let result = try await CLI.run([
            "--allow-run", "--timeout", "1", "-e",
            "require('node:child_process').execSync('sleep 100'); console.log('after')",
        ])
        #expect(result.exitCode == 1, "\(result.summary)")
        #expect(result.elapsed < .seconds(10), "\(result.summary)")
        #expect(result.stdout.isEmpty, "\(result.summary)")
        // Stopped as --timeout stops a script: its message, no uncaught error from the killed child.
        #expect(result.stderr.contains("--timeout of 1s") && !result.stderr.contains("Uncaught"), "\(result.summary)")
    }

    @Test func anUncaughtErrorKillsTheChildrenButADetachedOneLivesOn() async throws {
        let result = try await CLI.run([
            "--allow-run", "-e",
            """
            const { spawn } = require("node:child_process");
            console.log(spawn("sleep", ["100"]).pid);
            const free = spawn("sleep", ["100"], { detached: true, stdio: "ignore" });
            free.unref();
            console.log(free.pid);
            setTimeout(() => { throw new Error("late"); }, 100);
            """,
        ])
        #expect(result.exitCode == 1, "\(result.summary)")
        let started = pids(result.stdout)
        try #require(started.count == 2, "\(result.summary)")
        #expect(await isGone(started[0]), "the child outlived the run")
        #expect(!(await isGone(started[1], within: 0.3)), "the detached child was killed")
        kill(started[1], SIGKILL)
    }

    @Test func anUnrefdChildLetsTheScriptEnd() async throws {
        let result = try await CLI.run([
            "--allow-run", "-e",
            """
            const child = require("node:child_process").spawn("sleep", ["100"], { stdio: "ignore" });
            child.unref();
            console.log("end");
            """,
        ])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stdout == "end\n", "\(result.summary)")
        #expect(result.elapsed < .seconds(10), "\(result.summary)")
    }
}
