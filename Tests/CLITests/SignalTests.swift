import Foundation
import JSBridgeTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Signals sent to a running `jsbridge`: SIGINT/SIGTERM end the run (output flushed, exit listeners, storage
// closed) and the process dies of the signal, unless the script listens; a second one kills at once; SIGTSTP
// fires Cordova's `pause` and stops the process, SIGCONT fires `resume`.

/// A sandbox directory with a script, and `jsbridge` started on it.
private struct SignalRun {
    let directory: String
    let process: SpawnedProcess

    init(_ script: String, options: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("signals-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/home", withIntermediateDirectories: true)
        try script.write(toFile: directory + "/script.js", atomically: true, encoding: .utf8)
        process = try SpawnedProcess(
            binary: try CLIPaths.binary(),
            arguments: ["--app-id", "signals", "--storage-dir", directory + "/storage"] + options
                + [directory + "/script.js"],
            environment: [
                "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": directory + "/home",
                "SWIFT_BACKTRACE": "enable=no",
            ])
    }

    var summary: String { "--- stdout\n\(process.stdout)--- stderr\n\(process.stderr)" }
}

@Suite(.serialized) struct SignalTests {
    @Test(arguments: [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")])
    func aSignalNobodyListensToEndsTheRunAndKillsTheProcess(signo: Int32, name: String) async throws {
        let run = try SignalRun(
            """
            process.on("exit", (code) => console.log("exit listener", code));
            localStorage.setItem("written", "before the signal");
            for (let i = 0; i < 100; i++) localStorage.setItem("key" + i, "value" + i);
            console.log("ready");
            setInterval(() => {}, 1000);
            """)
        #expect(await run.process.waitForOutput("ready\n"), "\(run.summary)")
        run.process.send(signo)
        let status = await run.process.waitForStatus()
        #expect(status == .signaled(signo), "\(name): \(run.summary)")
        #expect(run.process.stdout == "ready\nexit listener \(128 + signo)\n", "\(run.summary)")

        // What the script stored before the signal is all there (a second run on the same storage).
        let reader = try SpawnedProcess(
            binary: try CLIPaths.binary(),
            arguments: [
                "--app-id", "signals", "--storage-dir", run.directory + "/storage", "-e",
                """
                let ok = localStorage.getItem("written") === "before the signal";
                for (let i = 0; i < 100; i++) ok = ok && localStorage.getItem("key" + i) === "value" + i;
                console.log(ok, localStorage.length);
                """,
            ],
            environment: ["PATH": "/usr/bin:/bin", "HOME": run.directory + "/home"])
        #expect(await reader.waitForStatus() == .exited(0))
        #expect(reader.stdout == "true 101\n", "\(reader.stderr)")
    }

    @Test func listenersReceiveTheSignalInstead() async throws {
        let run = try SignalRun(
            """
            let count = 0;
            const timer = setInterval(() => {}, 1000);
            process.on("SIGINT", function (name, number) {
              count++;
              console.log("listener", name, number, count, this === process);
              if (count === 2) clearInterval(timer);
            });
            process.once("SIGTERM", (name) => console.log("once", name, process.listenerCount("SIGTERM")));
            process.on("exit", (code) => console.log("exit", code));
            console.log("ready");
            """)
        #expect(await run.process.waitForOutput("ready\n"), "\(run.summary)")
        run.process.send(SIGINT)
        #expect(await run.process.waitForOutput("listener SIGINT 2 1 true\n"), "\(run.summary)")
        run.process.send(SIGTERM)
        #expect(await run.process.waitForOutput("once SIGTERM 0\n"), "\(run.summary)")
        run.process.send(SIGINT)
        #expect(await run.process.waitForStatus() == .exited(0), "\(run.summary)")
        #expect(
            run.process.stdout == "ready\nlistener SIGINT 2 1 true\nonce SIGTERM 0\nlistener SIGINT 2 2 true\nexit 0\n",
            "\(run.summary)")
    }

    @Test func aSignalListenerDoesNotKeepTheProcessAlive() async throws {
        let result = try await CLI.run(
            ["-e", "process.on('SIGINT', () => {}); process.on('SIGTERM', () => {}); console.log('done')"],
            timeLimit: 10)
        #expect(result.exitCode == 0)
        #expect(result.stdout == "done\n")
        #expect(!result.timedOut)
    }

    @Test func aSecondSIGINTWhileEndingKillsAtOnce() async throws {
        let run = try SignalRun(
            """
            process.on("exit", () => {
              console.error("exit listener started");
              const end = Date.now() + 10000;
              while (Date.now() < end) {}
              console.error("exit listener finished");
            });
            setInterval(() => {}, 1000);
            console.log("ready");
            """)
        #expect(await run.process.waitForOutput("ready\n"), "\(run.summary)")
        run.process.send(SIGINT)
        #expect(await run.process.waitForError("exit listener started"), "\(run.summary)")
        let start = Date()
        run.process.send(SIGINT)
        #expect(await run.process.waitForStatus() == .signaled(SIGINT), "\(run.summary)")
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(!run.process.stderr.contains("exit listener finished"))
    }

    @Test func aSignalDuringTheScriptsFirstRunIsHandledWhenItReturns() async throws {
        // Nothing is pending after the script's synchronous code: the signal alone brings the loop up.
        let run = try SignalRun(
            """
            process.on("exit", (code) => console.log("exit", code));
            console.error("busy");
            const end = Date.now() + 1500;
            while (Date.now() < end) {}
            console.log("first run done");
            """)
        #expect(await run.process.waitForError("busy"), "\(run.summary)")
        run.process.send(SIGTERM)
        #expect(await run.process.waitForStatus() == .signaled(SIGTERM), "\(run.summary)")
        #expect(run.process.stdout == "first run done\nexit 143\n", "\(run.summary)")
    }

    /// One SIGTERM (what `timeout`, `kill` and service managers send) ends a script that never returns to the
    /// event loop: the JS thread cannot take it, so the C handler's alarm kills the process 5 s later.
    @Test(
        .disabled(
            if: Sanitizer.stopsNoRunningLoop,
            "a running loop can not be stopped under ThreadSanitizer (Sanitizer.stopsNoRunningLoop)"),
        arguments: [
            "(async () => { for (;;) await null; })();", "function again() { process.nextTick(again); } again();",
            "while (true) {}",
        ])
    func oneSIGTERMEndsAScriptStuckInALoop(_ loop: String) async throws {
        let run = try SignalRun("console.error('busy');\n" + loop)
        #expect(await run.process.waitForError("busy"), "\(run.summary)")
        run.process.send(SIGTERM)
        #expect(await run.process.waitForStatus(seconds: 30) == .signaled(SIGTERM), "\(run.summary)")
    }

    @Test(
        .disabled(
            if: Sanitizer.stopsNoRunningLoop,
            "a running loop can not be stopped under ThreadSanitizer (Sanitizer.stopsNoRunningLoop)"))
    func aBusyScriptIsKilledByASecondSIGINT() async throws {
        let run = try SignalRun(
            """
            console.error("busy");
            while (true) {}
            """)
        #expect(await run.process.waitForError("busy"), "\(run.summary)")
        run.process.send(SIGINT)
        // The second must come after the first was taken (two pending SIGINTs are one).
        #expect(await run.process.waitUntilDelivered(SIGINT), "\(run.summary)")
        run.process.send(SIGINT)
        #expect(await run.process.waitForStatus(seconds: 10) == .signaled(SIGINT), "\(run.summary)")
    }

    @Test func sigtstpFiresPauseAndStopsThenSigcontFiresResume() async throws {
        let run = try SignalRun(
            """
            const timer = setInterval(() => {}, 1000);
            document.addEventListener("pause", () => console.log("pause"));
            document.addEventListener("resume", () => { console.log("resume"); clearInterval(timer); });
            process.on("exit", (code) => console.log("exit", code));
            console.log("ready");
            """, options: ["--cordova"])
        #expect(await run.process.waitForOutput("ready\n"), "\(run.summary)")
        run.process.send(SIGTSTP)
        #expect(await run.process.waitForStatus() == .stopped(SIGTSTP), "\(run.summary)")
        // Written before the process stopped; the pipe is read on another thread, which may not have read it yet.
        #expect(await run.process.waitForOutput("ready\npause\n"), "\(run.summary)")
        #expect(run.process.stdout == "ready\npause\n", "\(run.summary)")
        run.process.send(SIGCONT)
        #expect(await run.process.waitForStatus() == .exited(0), "\(run.summary)")
        #expect(run.process.stdout == "ready\npause\nresume\nexit 0\n", "\(run.summary)")
    }
}
