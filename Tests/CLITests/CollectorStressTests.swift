import Foundation
import Testing

/// Runs with JavaScriptCore collecting every few allocations (`JSC_slowPathAllocsBetweenGCs`): every value the
/// runtime makes from Swift must stay reachable until JavaScript holds it. A value kept only in a Swift array
/// is no root for the collector, so such a run freed it and handed JavaScript a dead cell: start-up failed with
/// "undefined is not an object (evaluating 'internal.startup.lazyFiles')", and Web Crypto's results became
/// other objects ("Receiver must be ArrayBuffer").
@Suite struct CollectorStressTests {
    /// A collection every 7th allocation that takes the slow path.
    static let stress = ["JSC_slowPathAllocsBetweenGCs": "7"]

    @Test func startUpSurvivesACollectionAtEveryTurn() async throws {
        let run = try await CLI.run(
            ["-e", "console.log(typeof fetch, typeof require('node:fs').readFileSync)"],
            environment: Self.stress, timeLimit: 120)
        #expect(run.exitCode == 0, "\(run.summary)")
        #expect(run.stdout == "function function\n")
    }

    /// Natives that answer arrays of new values, and calls into JavaScript with several new arguments: Web
    /// Crypto's outputs, zlib's write outcome, `spawnSync`'s result, node:http's request event (its headers), a
    /// bridge answer with bytes.
    @Test func nativesAnsweringSeveralNewValuesSurviveCollections() async throws {
        let script = """
            const zlib = require("node:zlib"), http = require("node:http");
            const { spawnSync } = require("node:child_process");
            (async () => {
              let bad = 0;
              for (let i = 0; i < 20; i++) {
                const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]);
                const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
                const key = await crypto.subtle.importKey("jwk", jwk, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
                const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key, new Uint8Array(8));
                if (signature.byteLength !== 64) bad++;
              }
              const text = "collect ".repeat(500);
              for (let i = 0; i < 20; i++) if (zlib.gunzipSync(zlib.gzipSync(text)).toString() !== text) bad++;
              const child = spawnSync("/bin/echo", ["a", "b"]);
              console.log("crypto+zlib", bad, "spawnSync", child.status, String(child.stdout).trim());
              const server = http.createServer((req, res) => res.end(req.url + " " + req.headers["x-a"] + " " + req.headers["x-b"]));
              server.listen(0, "127.0.0.1", async () => {
                const base = `http://127.0.0.1:${server.address().port}`;
                let wrong = 0;
                for (let i = 0; i < 20; i++) {
                  const res = await fetch(base + "/p" + i, { headers: { "x-a": "one", "x-b": "two" } });
                  if (await res.text() !== `/p${i} one two`) wrong++;
                }
                const echoed = await bridge.call("Echo", "echo", { bytes: new Uint8Array([1, 2, 3]), n: 7 });
                console.log("http", wrong, "echo", echoed.n);
                server.close();
              });
            })();
            """
        let run = try await CLI.run(
            ["--allow-net=127.0.0.1", "--allow-run", "-e", script], environment: Self.stress, timeLimit: 300)
        #expect(run.exitCode == 0, "\(run.summary)")
        #expect(run.stdout == "crypto+zlib 0 spawnSync 0 a b\nhttp 0 echo 7\n")
    }
}
