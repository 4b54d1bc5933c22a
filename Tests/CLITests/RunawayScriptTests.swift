import Foundation
import JSBridgeTesting
import Testing

// `--timeout` and `process.exit()` end the process whatever the script's microtask or `nextTick` loop does
// (issue 32): each of these loops never returns to the event loop, and none runs longer than a microtask, so
// JavaScriptCore's 50 ms watchdog alone never sees it. The harness kills a run after its time limit: a run
// that hangs fails as `timedOut`, not by a clock bound.

/// Microtask loops that never give the event loop a turn.
let runawayLoops: [String] = [
    "(async () => { for (;;) await null; })();",
    "function again() { queueMicrotask(again); } again();",
    "function again() { process.nextTick(again); } again();",
    "function again() { Promise.resolve().then(again); } again();",
    // Two loops at once, and one that swallows every exception it can catch.
    "(async () => { for (;;) await null; })(); (async () => { for (;;) await 0; })();",
    "(async () => { for (;;) { try { await null; } catch {} } })();",
]

@Suite struct RunawayScriptTests {
    @Test(arguments: runawayLoops)
    func theTimeoutEndsAMicrotaskLoop(_ loop: String) async throws {
        let result = try await CLI.run(
            ["--timeout", "1", "-e", "console.log('started'); " + loop], timeLimit: 30)
        #expect(!result.timedOut, "\(result.summary)")
        #expect(result.exitCode == 1, "\(result.summary)")
        #expect(result.stdout == "started\n", "stdout is flushed: \(result.summary)")
        #expect(
            result.stderr == "jsbridge: the script was stopped after the --timeout of 1s\n", "\(result.summary)")
    }

    /// `process.exit(3)` from inside a loop that re-queues itself first: the code is the process's.
    @Test(arguments: [
        "function again() { queueMicrotask(again); process.exit(3); } again();",
        "function again() { process.nextTick(again); process.exit(3); } again();",
        "function again() { Promise.resolve().then(again); process.exit(3); } again();",
        "(async () => { for (;;) { await null; try { process.exit(3); } catch {} } })();",
        "let n = 0; (async () => { for (;;) { await null; if (++n === 1000) process.exit(3); } })();",
    ])
    func processExitEndsAMicrotaskLoop(_ loop: String) async throws {
        let result = try await CLI.run(["-e", "console.log('started'); " + loop], timeLimit: 30)
        #expect(!result.timedOut, "\(result.summary)")
        #expect(result.exitCode == 3, "\(result.summary)")
        #expect(result.stdout == "started\n", "\(result.summary)")
        #expect(result.stderr.isEmpty, "\(result.summary)")
    }

    /// With a timeout that never expires, `process.exit` in a loop still ends the run with its code, and the
    /// exit listeners run once.
    @Test func processExitWithATimeoutKeepsItsCode() async throws {
        let result = try await CLI.run(
            [
                "--timeout", "60", "-e",
                """
                process.on('exit', (code) => console.log('exit listener', code));
                function again() { queueMicrotask(again); process.exit(4); } again();
                """,
            ], timeLimit: 30)
        #expect(!result.timedOut, "\(result.summary)")
        #expect(result.exitCode == 4, "\(result.summary)")
        #expect(result.stdout == "exit listener 4\n", "\(result.summary)")
    }
}
