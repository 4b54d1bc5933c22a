import Foundation
import HTTPPluginTesting
import JSBridgeTesting
import Testing

// Running out of file descriptors is an error to the script, never a crash (issue 32): a script that opens
// files until `EMFILE` (under `ulimit -n 256`) and then fetches gets a rejected `fetch` (`NETWORK_ERROR`,
// `data.kind: "descriptors"`), and once it closes them, fetches again. SwiftNIO ended the process (SIGILL,
// exit 132) when the event loop of the JS thread, or the shared loops of the HTTP client, could not get their
// descriptors.

@Suite struct FileDescriptorExhaustionTests {
    /// Runs `script` with `base` and `exhaust()` defined, under `ulimit -n 256`.
    func run(_ script: String, extraArguments: [String] = []) async throws -> RunResult {
        let server = try await TestHTTPServer.start()
        server.route("/") { _ in .text("ok") }
        let prelude = """
            const base = "\(server.baseURL)/";
            const fs = require("fs");
            fs.writeFileSync("file.txt", "x");
            const fds = [];
            function exhaust() {
              try { for (;;) fds.push(fs.openSync("file.txt", "r")); }
              catch (e) { console.log("open", e.code, fds.length > 100); }
            }
            function release() { while (fds.length) fs.closeSync(fds.pop()); console.log("closed"); }
            function report(outcome) {
              if (outcome.status === "fulfilled") return console.log("fetch", outcome.value.status);
              const e = outcome.reason;
              console.log("fetch", e.name, e.code, e.cause?.data?.kind, /EMFILE/.test(e.message));
            }

            """
        let result = try await CLI.run(
            [
                "-c", "ulimit -n 256 && exec \"$0\" \"$@\"", try CLIPaths.binary(), "--allow-net", "--allow-read",
                "--allow-write",
            ] + extraArguments + ["-e", prelude + script], timeLimit: 60, binary: "/bin/sh")
        try await server.stop()
        return result
    }

    /// The files are opened by the script's first run, before the event loop exists.
    @Test func aFetchAfterTheScriptOpenedEveryDescriptorRejects() async throws {
        let result = try await run(
            """
            exhaust();
            Promise.allSettled([fetch(base)]).then(([outcome]) => {
              report(outcome);
              release();
              return fetch(base);
            }).then((response) => console.log("fetch", response.status));
            """)
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == "open EMFILE true\nfetch TypeError NETWORK_ERROR descriptors true\nclosed\nfetch 200\n",
            "\(result.summary)")
    }

    /// Two fetches at once (the second goes to the HTTP client's shared loops, created on first use).
    @Test func concurrentFetchesWithNoDescriptorLeftReject() async throws {
        let result = try await run(
            """
            setTimeout(async () => {
              exhaust();
              (await Promise.allSettled([fetch(base), fetch(base)])).forEach(report);
              release();
              (await Promise.allSettled([fetch(base), fetch(base)])).forEach(report);
            }, 1);
            """)
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == """
                open EMFILE true
                fetch TypeError NETWORK_ERROR descriptors true
                fetch TypeError NETWORK_ERROR descriptors true
                closed
                fetch 200
                fetch 200

                """, "\(result.summary)")
    }

    /// Storage first used with no descriptor left fails that call; once the script closed its files, its
    /// set-up runs again and `localStorage` works (a failed set-up is not kept for the rest of the run).
    @Test func storageSetUpWithNoDescriptorLeftFailsThenWorks() async throws {
        let storage = TemporaryDirectory.make(prefix: "fd-storage")
        let result = try await run(
            """
            exhaust();
            try { localStorage.setItem("k", "v"); console.log("stored"); }
            catch (e) { console.log("storage", e.code, /failed to set up/.test(e.message)); }
            release();
            localStorage.setItem("k", "v");
            console.log("then", localStorage.getItem("k"));
            """, extraArguments: ["--storage-dir", storage])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stdout.hasPrefix("open EMFILE true\nstorage "), "\(result.summary)")
        #expect(result.stdout.hasSuffix("true\nclosed\nthen v\n"), "\(result.summary)")
    }
}
