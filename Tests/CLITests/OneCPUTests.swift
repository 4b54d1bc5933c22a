import Foundation
import Testing

/// util-linux's `taskset`, which runs a command on the CPUs it is given.
private let tasksetPath = "/usr/bin/taskset"

/// A run allowed one CPU (`taskset -c 0`, as in a one-CPU container): neither the JS thread nor the action
/// executor's workers spin there (docs/architecture.md, "Spinning"), and calls answer as they do with every CPU.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: tasksetPath)))
struct OneCPUTests {

    /// Calls one at a time, many in flight, a plugin's error, a call of an unknown action and a sync call.
    static let script = """
        (async () => {
          const out = [];
          let same = true;
          for (let i = 0; i < 300; i++) {
            const r = await bridge.call('Echo', 'echo', { i, s: 'v' + i });
            same = same && r.i === i && r.s === 'v' + i;
          }
          out.push(same);
          const many = await Promise.all(
            Array.from({ length: 500 }, (_, i) => bridge.call('Echo', 'echo', [i, { n: i }])));
          out.push(many.every((r, i) => r[0] === i && r[1].n === i));
          for (const call of [() => bridge.call('Echo', 'fail', { code: 'E_ONE', message: 'one' }),
                              () => bridge.call('Echo', 'nope', {})]) {
            try { await call(); out.push('resolved'); }
            catch (e) { out.push([e.name, e.code, e.message, e.plugin, e.action]); }
          }
          out.push(bridge.execSync('Echo', 'ping', [41]));
          console.log(JSON.stringify(out));
        })().catch((e) => { console.error(e); process.exit(1); });
        """

    @Test func callsAnswerOnOneCPUAsOnEvery() async throws {
        let binary = try CLIPaths.binary()
        let pinned = try await CLI.run(
            ["-c", "0", binary, "-e", Self.script], timeLimit: 120, binary: tasksetPath)
        let free = try await CLI.run(["-e", Self.script], timeLimit: 120)
        #expect(pinned.exitCode == 0, "\(pinned.summary)")
        #expect(free.exitCode == 0, "\(free.summary)")
        #expect(pinned.stdout == free.stdout)
        let expected = """
            [true,true,["BridgeError","E_ONE","one","Echo","fail"],\
            ["BridgeError","ACTION_NOT_FOUND","\(try notFoundMessage(free.stdout))","Echo","nope"],42]
            """
        #expect(pinned.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == expected)
    }

    /// The ACTION_NOT_FOUND message the registry words (checked for its code above; its text is the registry's).
    private func notFoundMessage(_ stdout: String) throws -> String {
        let data = Data(stdout.utf8)
        let parsed = try #require(try JSONSerialization.jsonObject(with: data) as? [Any])
        let failure = try #require(parsed[3] as? [Any])
        return try #require(failure[2] as? String)
    }
}
