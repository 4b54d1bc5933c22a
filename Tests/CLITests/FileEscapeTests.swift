import Foundation
import Synchronization
import Testing

/// A hostile script against `--allow-read` / `--allow-write`: each test is an escape that once worked (a long
/// symlink chain, a directory swapped for a link between the check and the open, a separator hidden before a
/// combining mark, names equal only under Unicode equivalence), run on the built binary.
@Suite("File capabilities under attack", .blocking) struct FileEscapeTests {
    /// A fresh directory with no symlink on its path.
    static func scratch() throws -> String {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("jsbridge-escape-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        return made.resolvingSymlinksInPath().path
    }

    /// The file's content, or nil when it does not exist.
    static func content(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func aChainOfMoreLinksThanTheKernelFollowsIsELOOPNotTheLastTarget() async throws {
        let root = try Self.scratch()
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/d", withIntermediateDirectories: true)
        try "outside".write(toFile: root + "/secret", atomically: true, encoding: .utf8)
        // d/l1 -> l2 -> … -> l41 -> root: 41 links, one more than a resolution may follow.
        for index in 1...41 {
            try fm.createSymbolicLink(
                atPath: root + "/d/l\(index)", withDestinationPath: index == 41 ? root : "l\(index + 1)")
        }
        let result = try await CLI.run(
            [
                "--allow-read=d", "-e",
                """
                const fs = require("node:fs");
                try { console.log(fs.readFileSync("d/l1/secret", "utf8")); } catch (e) { console.log(e.code); }
                """,
            ], workingDirectory: root)
        #expect(result.rawStdout == "ELOOP\n", "\(result.summary)")
    }

    @Test func aDirectorySwappedForALinkDuringReadsNeverYieldsTheOutsideFile() async throws {
        let root = try Self.scratch()
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/data/d", withIntermediateDirectories: true)
        try "inside".write(toFile: root + "/data/d/x", atomically: true, encoding: .utf8)
        try "outside".write(toFile: root + "/x", atomically: true, encoding: .utf8)
        // While the script reads data/d/x, this process swaps data/d for a link to `..` (where x is the outside
        // file) and back, as fast as it can: a check and an open that resolve the path separately see different
        // trees in some of the reads.
        let swapper = Swapper(root: root)
        swapper.start()
        let result = try await CLI.run(
            [
                "--allow-read=data", "-e",
                """
                const fs = require("node:fs");
                const counts = {};
                (async () => {
                  for (let round = 0; round < 20000; round++) {
                    let got;
                    try {
                      got = round % 2 ? fs.readFileSync("data/d/x", "utf8") : await fs.promises.readFile("data/d/x", "utf8");
                    } catch (e) { got = e.code; }
                    counts[got] = (counts[got] ?? 0) + 1;
                  }
                  console.log(JSON.stringify(counts));
                })();
                """,
            ], workingDirectory: root, timeLimit: 120)
        let swaps = swapper.stop()
        #expect(result.exitCode == 0, "\(result.summary)")
        let counts = try JSONDecoder().decode([String: Int].self, from: Data(result.rawStdout.utf8))
        #expect(counts["outside"] == nil, "\(counts)")
        #expect(swaps > 100 && counts.values.reduce(0, +) == 20000, "\(swaps) swaps, \(counts)")
    }

    /// Swaps `data/d` for a link to `..` and back on its own thread until stopped.
    final class Swapper: Sendable {
        let root: String
        let state = Mutex((stop: false, swaps: 0))
        let done = DispatchSemaphore(value: 0)

        init(root: String) { self.root = root }

        func start() {
            Thread.detachNewThread { [self] in
                let directory = root + "/data/d", moved = root + "/data/real"
                var swaps = 0
                while !state.withLock({ $0.stop }) {
                    rename(directory, moved)
                    symlink("..", directory)
                    unlink(directory)
                    rename(moved, directory)
                    swaps += 1
                }
                state.withLock { $0.swaps = swaps }
                done.signal()
            }
        }

        /// Stops the thread; the number of swaps it made.
        func stop() -> Int {
            state.withLock { $0.stop = true }
            done.wait()
            return state.withLock { $0.swaps }
        }
    }

    @Test func onlyTheSlashByteSeparatesNamesSoACombiningMarkAfterItHidesNoDotDot() async throws {
        let root = try Self.scratch()
        try FileManager.default.createDirectory(atPath: root + "/d", withIntermediateDirectories: true)
        let result = try await CLI.run(
            [
                "--allow-write=d", "-e",
                """
                const fs = require("node:fs");
                for (const name of ["d/../\\u0301x", "d/../\\u200dx"]) {
                  try { fs.writeFileSync(name, "planted"); console.log("written"); } catch (e) { console.log(e.code); }
                }
                """,
            ], workingDirectory: root)
        #expect(result.rawStdout == "PERMISSION_DENIED\nPERMISSION_DENIED\n", "\(result.summary)")
        #expect(Self.content(root + "/\u{301}x") == nil && Self.content(root + "/\u{200D}x") == nil)
    }

    /// Modules load from the entry script's tree and the `node_modules` of it and its ancestors; any other file
    /// needs `--allow-read`, and a refused one is never read, so its text cannot leak through an error.
    @Test func modulesOutsideTheScriptsTreeNeedAllowReadAndErrorsQuoteNothing() async throws {
        let root = try Self.scratch()
        let fm = FileManager.default
        for directory in ["app/node_modules/near", "node_modules/up", "app/sub"] {
            try fm.createDirectory(atPath: root + "/" + directory, withIntermediateDirectories: true)
        }
        try "hunter2".write(toFile: root + "/password.txt", atomically: true, encoding: .utf8)
        try #"export default "outside";"#.write(toFile: root + "/out.mjs", atomically: true, encoding: .utf8)
        try #"module.exports = "near";"#.write(
            toFile: root + "/app/node_modules/near/index.js", atomically: true, encoding: .utf8)
        try #"module.exports = "up";"#.write(
            toFile: root + "/node_modules/up/index.js", atomically: true, encoding: .utf8)
        try #"module.exports = "sub";"#.write(toFile: root + "/app/sub/lib.js", atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: root + "/app/sub/link.js", withDestinationPath: root + "/out.mjs")
        try """
        console.log(require("./sub/lib"), require("near"), require("up"));
        for (const spec of ["../password.txt", "./sub/link.js"]) {
          try { require(spec); console.log(spec, "loaded"); } catch (e) { console.log(spec, e.code, e.message); }
        }
        import("../out.mjs").then((m) => console.log("import", m.default), (e) => console.log("import", e.code));
        """.write(toFile: root + "/app/main.js", atomically: true, encoding: .utf8)
        let denied = try await CLI.run(["app/main.js"], workingDirectory: root)
        #expect(denied.exitCode == 0, "\(denied.summary)")
        #expect(!denied.rawStdout.contains("hunter2") && !denied.rawStderr.contains("hunter2"))
        // Each line's first two words: what was loaded, or the module and its error code.
        let lines = denied.rawStdout.split(separator: "\n").map {
            $0.split(separator: " ").prefix(2).joined(separator: " ")
        }
        #expect(
            lines == [
                "sub near", "../password.txt PERMISSION_DENIED", "./sub/link.js PERMISSION_DENIED",
                "import PERMISSION_DENIED",
            ], "\(denied.summary)")
        #expect(denied.rawStdout.hasPrefix("sub near up\n"))
        #expect(denied.rawStdout.contains("--allow-read=\(root)/password.txt"))
        let granted = try await CLI.run(["--allow-read=\(root)/out.mjs", "app/main.js"], workingDirectory: root)
        #expect(granted.rawStdout.contains("./sub/link.js loaded\nimport outside\n"), "\(granted.summary)")
    }

    @Test func grantsCompareNamesByBytesAsLinuxDoes() async throws {
        let root = try Self.scratch()
        let precomposed = "caf\u{E9}.txt", decomposed = "cafe\u{301}.txt"
        try "granted".write(toFile: root + "/" + precomposed, atomically: true, encoding: .utf8)
        try "decomposed-secret".write(toFile: root + "/" + decomposed, atomically: true, encoding: .utf8)
        let result = try await CLI.run(
            [
                "--allow-read=\(precomposed)", "-e",
                """
                const fs = require("node:fs");
                for (const name of ["caf\\u00e9.txt", "cafe\\u0301.txt"]) {
                  try { console.log(fs.readFileSync(name, "utf8")); } catch (e) { console.log(e.code); }
                }
                """,
            ], workingDirectory: root)
        #expect(result.rawStdout == "granted\nPERMISSION_DENIED\n", "\(result.summary)")
    }
}
