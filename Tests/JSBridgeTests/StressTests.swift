import EchoPlugin
import JSBridgeTesting
import Testing

/// Random interleavings of calls, cancellations, timeouts, failing actions, streams under back-pressure and
/// exits, from a seeded script. Every call settles exactly once and the run ends cleanly. Under
/// ThreadSanitizer (`swift test --sanitize=thread`) this is the suite's stress test of the bridge's threads
/// (docs/fuzzing.md, "Sanitizers").
@Suite struct StressTests {
    /// Rounds of 200 random operations; prints whether every call settled, the calls still pending and the
    /// outcomes seen.
    static func script(seed: Int, exitAfterRounds: Int? = nil) -> String {
        let exit = exitAfterRounds.map { "if (r === \($0)) process.exit(7);" } ?? ""
        return #"""
            let state = \#(seed);
            const rand = (n) => { state = (state * 1103515245 + 12345) % 2147483648; return state % n; };
            let issued = 0, settled = 0;
            const outcomes = new Set();
            const settle = (kind) => { settled++; outcomes.add(kind); };
            const failed = (e) => settle(e.code);
            function operation(i, batch) {
              issued++;
              switch (rand(6)) {
                case 0:
                  batch.push(bridge.call("Echo", "echo", { i }).then((v) => settle(v.i === i ? "ok" : "wrong"), failed));
                  break;
                case 1: {
                  const controller = new AbortController();
                  batch.push(bridge.call("Echo", "echo", { i }, { signal: controller.signal }).then(() => settle("ok"), failed));
                  if (rand(2) === 0) controller.abort(); else setTimeout(() => controller.abort(), rand(3));
                  break;
                }
                case 2:
                  batch.push(bridge.call("Echo", "echo", { i }, { timeout: rand(2) }).then(() => settle("ok"), failed));
                  break;
                case 3:
                  batch.push(bridge.call("Echo", "fail", { code: "E_STRESS" }).then(() => settle("wrong"), failed));
                  break;
                case 4:
                  batch.push(new Promise((resolve) => {
                    let n = 0;
                    const stop = rand(2) === 0;
                    const sub = bridge.subscribe("Echo", "ticks", { count: 1500, intervalMs: 0 }, () => {
                      if (++n === 50 && stop) sub.cancel();
                    });
                    sub.done.then(() => { settle(stop || n === 1500 ? "stream" : "short"); resolve(); }, (e) => { failed(e); resolve(); });
                  }));
                  break;
                default:
                  settle(bridge.execSync("Echo", "ping", i) === i + 1 ? "sync" : "wrong");
              }
            }
            (async () => {
              for (let r = 0; r < 8; r++) {
                const batch = [];
                for (let i = 0; i < 200; i++) operation(i, batch);
                \#(exit)
                await Promise.all(batch);
              }
              console.log(issued === settled, bridge.pendingCalls, [...outcomes].sort().join(","));
            })();
            """#
    }

    @Test(arguments: [1, 2, 3, 4])
    func everyCallSettlesOnceUnderRandomInterleavings(seed: Int) async {
        let result = await ScriptRunner.run(Self.script(seed: seed), plugins: [EchoPlugin()], timeout: .seconds(120))
        #expect(result.exitCode == 0, "\(result.stderr)")
        let fields = result.lines.first?.split(separator: " ").map(String.init) ?? []
        #expect(fields.count == 3 && fields[0] == "true" && fields[1] == "0", "\(result.lines) \(result.stderr)")
        let outcomes = Set((fields.last ?? "").split(separator: ",").map(String.init))
        #expect(outcomes.isSubset(of: ["ok", "CANCELLED", "TIMEOUT", "E_STRESS", "stream", "sync"]), "\(outcomes)")
        #expect(outcomes.isSuperset(of: ["ok", "CANCELLED", "E_STRESS", "stream", "sync"]), "\(outcomes)")
    }

    /// `process.exit` while hundreds of calls and streams are in flight ends the run with that code, at once.
    @Test func exitingWithCallsInFlightEndsCleanly() async {
        let result = await ScriptRunner.run(
            Self.script(seed: 5, exitAfterRounds: 3), plugins: [EchoPlugin()], timeout: .seconds(120))
        #expect(result.exitCode == 7, "\(result.stderr)")
        #expect(result.lines.isEmpty)
    }
}
