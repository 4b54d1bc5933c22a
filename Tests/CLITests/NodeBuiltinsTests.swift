import Foundation
import JSBridgeTesting
import Testing

// The Node built-in modules that need more than a spec file: `os` against the kernel's own answers,
// `process.stdin` fed through files and pipes, and real pure-JS packages from Debian (node-typescript …)
// loaded from a node_modules folder on disk. The modules' behaviour is in Specs/node-*.js.

/// A scratch directory removed when the test ends.
private func withScratchDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "jsbridge-node-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// Copies the Debian package's folder `/usr/share/nodejs/<name>` to `<root>/node_modules/<name>`.
private func installDebianPackage(_ name: String, into root: String) throws -> String {
    let source = "/usr/share/nodejs/\(name)"
    guard FileManager.default.fileExists(atPath: source + "/package.json") else {
        throw HarnessError(description: "\(source) is missing: install node-\(name) (scripts/setup.sh).")
    }
    let destination = root + "/node_modules/" + name
    try FileManager.default.createDirectory(
        atPath: root + "/node_modules", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: source, toPath: destination)
    return destination
}

@Suite("Node built-in modules", .blocking) struct NodeBuiltinsTests {
    @Test func osReportsTheKernelsAnswers() async throws {
        let script = """
            const os = require("node:os");
            console.log(JSON.stringify({
              hostname: os.hostname(), type: os.type(), release: os.release(), arch: os.arch(), platform: os.platform(),
              homedir: os.homedir(), tmpdir: os.tmpdir(), endianness: os.endianness(), eol: os.EOL,
              user: os.userInfo(), cpus: os.cpus().length, cpu: os.cpus()[0], totalmem: os.totalmem(),
              freemem: os.freemem(), uptime: os.uptime(), loadavg: os.loadavg(), processArch: process.arch,
              uid: process.getuid(),
            }));
            """
        func kernelUptime() throws -> Double {
            try #require(Double(try String(contentsOfFile: "/proc/uptime", encoding: .utf8).split(separator: " ")[0]))
        }
        let uptimeBefore = try kernelUptime()
        let result = try await CLI.run(["-e", script], environment: ["TMPDIR": "/var/tmp/"])
        let uptimeAfter = try kernelUptime()
        #expect(result.exitCode == 0, "\(result.summary)")
        let data = Data(result.rawStdout.utf8)
        let info = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(result.summary)")

        var names = utsname()
        uname(&names)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        }
        #expect(info["hostname"] as? String == text(names.nodename))
        #expect(info["type"] as? String == text(names.sysname))
        #expect(info["release"] as? String == text(names.release))
        let arch =
            text(names.machine) == "x86_64" ? "x64" : text(names.machine) == "aarch64" ? "arm64" : text(names.machine)
        #expect(info["arch"] as? String == arch)
        #expect(info["processArch"] as? String == arch)
        #expect(info["platform"] as? String == "linux")
        #expect(info["tmpdir"] as? String == "/var/tmp")
        #expect(info["endianness"] as? String == "LE")
        #expect(info["eol"] as? String == "\n")
        #expect(info["uid"] as? Int == Int(getuid()))
        let user = try #require(info["user"] as? [String: Any])
        #expect(user["uid"] as? Int == Int(getuid()))
        #expect(user["username"] as? String == String(cString: getpwuid(getuid())!.pointee.pw_name))
        let cpuCount = (try String(contentsOfFile: "/proc/stat", encoding: .utf8)).split(separator: "\n")
            .filter { $0.hasPrefix("cpu") && !$0.hasPrefix("cpu ") }.count
        #expect(info["cpus"] as? Int == cpuCount)
        let cpu = try #require(info["cpu"] as? [String: Any])
        let times = try #require(cpu["times"] as? [String: Double])
        #expect(Set(times.keys) == ["user", "nice", "sys", "idle", "irq"])
        #expect((times["idle"] ?? 0) > 0)
        let meminfo = try String(contentsOfFile: "/proc/meminfo", encoding: .utf8)
        let totalKB = try #require(
            meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }?.split(separator: " ").dropFirst().first
                .flatMap { Double($0) })
        let total = try #require(info["totalmem"] as? Double)
        #expect(abs(total - totalKB * 1024) < 1024)
        let free = try #require(info["freemem"] as? Double)
        #expect(free > 0 && free <= total)
        let uptime = try #require(info["uptime"] as? Double)
        // Read while the script ran: between the kernel's answers before and after (to its 0.01 s resolution).
        #expect(uptime >= uptimeBefore - 1 && uptime <= uptimeAfter + 1, "\(uptimeBefore) ≤ \(uptime) ≤ \(uptimeAfter)")
        #expect((info["loadavg"] as? [Double])?.count == 3)
    }

    /// Nothing of the modules runs at start-up: `Buffer` and `crypto` stay accessors until a script reads them.
    @Test func theGlobalsAreLazy() async throws {
        let script = """
            const kind = (name) => ("get" in Object.getOwnPropertyDescriptor(globalThis, name) ? "lazy" : "loaded");
            const before = [kind("Buffer"), kind("crypto")];
            const loaded = [typeof Buffer.from, typeof crypto.randomUUID];
            console.log(before.join(" "), loaded.join(" "), kind("Buffer"), kind("crypto"));
            """
        let result = try await CLI.run(["-e", script])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stdout == "lazy lazy function function loaded loaded\n", "\(result.summary)")
    }

    @Test func osHomedirFollowsHOME() async throws {
        let result = try await CLI.run(["-e", "console.log(require('os').homedir())"])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stdout == "$TMP/home\n", "\(result.summary)")
    }

    // MARK: - process.stdin

    @Test func stdinDeliversDataThenEnd() async throws {
        let script = """
            let text = "", chunks = 0;
            process.stdin.setEncoding("utf8");
            process.stdin.on("data", (chunk) => { text += chunk; chunks++; });
            process.stdin.on("end", () => console.log("end", typeof text, text.length, JSON.stringify(text.slice(0, 12)), text.endsWith("€\\n")));
            """
        // 200 KB crosses the reader's 64 KB chunks; a 3-byte character straddles chunk boundaries.
        let input = String(repeating: "héllo wörld €\n", count: 12_000)
        let result = try await CLI.run(["-e", script], stdin: Data(input.utf8))
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stdout == "end string \(input.utf16.count) \"héllo wörld \" true\n", "\(result.summary)")
    }

    @Test func stdinAsyncIterationGivesBuffers() async throws {
        let script = """
            (async () => {
              const parts = [];
              for await (const chunk of process.stdin) parts.push(chunk);
              const all = Buffer.concat(parts);
              console.log(Buffer.isBuffer(parts[0]), all.length, all.toString("hex"));
            })();
            """
        let result = try await CLI.run(["-e", script], stdin: Data([0, 1, 2, 0xFF, 0xFE]))
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stdout == "true 5 000102fffe\n", "\(result.summary)")
    }

    @Test func emptyStdinEndsAtOnce() async throws {
        let script = """
            process.stdin.on("data", () => console.log("data"));
            process.stdin.on("end", () => console.log("end"));
            """
        let result = try await CLI.run(["-e", script])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stdout == "end\n", "\(result.summary)")
    }

    @Test func asyncLocalStorageIsCarriedIntoBridgeCallbacks() async throws {
        let script = """
            const { AsyncLocalStorage } = require("node:async_hooks");
            const als = new AsyncLocalStorage();
            const seen = [];
            const all = [];
            als.run("request-1", () => {
              all.push(bridge.call("Echo", "echo", { v: 1 }).then(() => seen.push(`call ${als.getStore()}`)));
              const subscription = bridge.subscribe("Echo", "ticks", { count: 2 }, (value) => seen.push(`tick ${value} ${als.getStore()}`));
              all.push(subscription.done.then(() => seen.push(`done ${als.getStore()}`)));
              all.push(new Promise((resolve) => cordova.exec(() => resolve(seen.push(`exec ${als.getStore()}`)), null, "Echo", "echo", [{ v: 2 }])));
            });
            als.run("request-2", () => all.push(new Promise((resolve) => setTimeout(() => resolve(seen.push(`timer ${als.getStore()}`)), 5))));
            seen.push(`outside ${als.getStore()}`);
            Promise.all(all).then(() => console.log(seen.sort().join("\\n")));
            """
        let result = try await CLI.run(["-e", script])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(
            result.stdout == """
                call request-1
                done request-1
                exec request-1
                outside undefined
                tick 0 request-1
                tick 1 request-1
                timer request-2

                """, "\(result.summary)")
    }

    @Test func readlineReadsStdinLineByLine() async throws {
        let script = """
            const readline = require("node:readline");
            const rl = readline.createInterface({ input: process.stdin });
            const lines = [];
            rl.on("line", (line) => lines.push(line));
            rl.on("close", () => console.log(lines.length, JSON.stringify(lines.slice(0, 2)), lines[lines.length - 1]));
            """
        // 3,000 lines cross the reader's 64 KB chunks; \r\n and a last line without an ending.
        let input = (1...3000).map { "line \($0) é" }.joined(separator: "\r\n") + "\r\nlast"
        let result = try await CLI.run(["-e", script], stdin: Data(input.utf8))
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stdout == "3001 [\"line 1 é\",\"line 2 é\"] last\n", "\(result.summary)")
    }

    @Test func readlinePromisesQuestionAnswersFromStdin() async throws {
        let script = """
            const readline = require("node:readline/promises");
            (async () => {
              const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
              const name = await rl.question("Name? ");
              console.log(`\\nHello, ${name}`);
              rl.close();
            })();
            """
        // The input stays open: closing the interface pauses stdin, which lets the process end.
        let (status, output) = try await runWithOpenPipe(script, input: "Ada\n")
        #expect(status == 0)
        #expect(output == "Name? \nHello, Ada\n")
    }

    @Test func stdinPipesThroughATransform() async throws {
        let script = """
            const { Transform, Writable, pipeline } = require("node:stream");
            const upper = new Transform({ transform(chunk, encoding, callback) { callback(null, chunk.toString().toUpperCase()); } });
            let bytes = 0, chunks = 0, last = "";
            const sink = new Writable({
              highWaterMark: 1024,
              write(chunk, encoding, callback) { bytes += chunk.length; chunks++; last = chunk.toString().slice(-4, -1); setTimeout(callback, 0); },
            });
            pipeline(process.stdin, upper, sink, (error) => console.log(error ?? "ok", bytes, chunks > 1, last));
            """
        let input = String(repeating: "abcdefghij", count: 30_000) + "end\n"
        let result = try await CLI.run(["-e", script], stdin: Data(input.utf8))
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stdout == "ok \(input.utf8.count) true END\n", "\(result.summary)")
    }

    /// Runs `script` with stdin a pipe whose write end the test holds open; writes `input` first. Exit status
    /// 0 means the process ended by itself: a guard kills it with SIGKILL after a minute.
    private func runWithOpenPipe(_ script: String, input: String) async throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try CLIPaths.binary())
        process.arguments = ["-e", script]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        let watchdog = Task.detached {
            try? await Task.sleep(for: .seconds(60))
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        try? stdin.fileHandleForWriting.close()
        return (
            process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus,
            String(decoding: output, as: UTF8.self)
        )
    }

    @Test func aScriptThatDoesNotReadStdinEndsWhileTheInputStaysOpen() async throws {
        let (status, output) = try await runWithOpenPipe(
            "console.log(typeof process.stdin.on, process.stdin.fd)", input: "ignored\n")
        #expect(status == 0)
        #expect(output == "function 0\n")
    }

    @Test func pausingStdinLetsTheProcessEnd() async throws {
        let script = """
            process.stdin.once("data", (chunk) => {
              console.log("got", String(chunk).trim());
              process.stdin.pause();
            });
            """
        let (status, output) = try await runWithOpenPipe(script, input: "first\n")
        #expect(status == 0)
        #expect(output == "got first\n")
    }

    // MARK: - Real packages

    @Test func typescriptLoadsAndTranspiles() async throws {
        try await withScratchDirectory { root in
            _ = try installDebianPackage("typescript", into: root)
            let result = try await CLI.run(
                ["--allow-read=\(root)", "$SPECS/fixtures/typescript-transpile.js", root], timeLimit: 120)
            #expect(result.exitCode == 0, "\(result.summary)")
            let expected = try String(
                contentsOfFile: CLIPaths.specs + "/fixtures/typescript-transpile.expected", encoding: .utf8)
            #expect(result.stdout == expected, "\(result.summary)")
        }
    }

    @Test func pureJSPackagesFromDebianWork() async throws {
        try await withScratchDirectory { root in
            for name in ["minimist", "lodash", "ms", "uuid"] { _ = try installDebianPackage(name, into: root) }
            let result = try await CLI.run(
                ["--allow-read=\(root)", "$SPECS/fixtures/debian-packages.js", root], timeLimit: 60)
            #expect(result.exitCode == 0, "\(result.summary)")
            let expected = try String(
                contentsOfFile: CLIPaths.specs + "/fixtures/debian-packages.expected", encoding: .utf8)
            #expect(result.stdout == expected, "\(result.summary)")
        }
    }

    /// commander (Debian's node-commander) requires `node:child_process` as it loads: options, subcommands,
    /// help text and usage errors; the expected output is Node 20's for the same script.
    @Test func commanderParsesACommandLine() async throws {
        try await withScratchDirectory { root in
            _ = try installDebianPackage("commander", into: root)
            let result = try await CLI.run(
                ["--allow-read=\(root)", "$SPECS/fixtures/commander-cli.js", root], timeLimit: 60)
            #expect(result.exitCode == 0, "\(result.summary)")
            let expected = try String(
                contentsOfFile: CLIPaths.specs + "/fixtures/commander-cli.expected", encoding: .utf8)
            #expect(result.stdout == expected, "\(result.summary)")
        }
    }

    /// A JOSE library that runs on Web Crypto alone (panva/jose's browser build, Debian's node-jose) signs,
    /// verifies, exports and encrypts; the expected output is Node 20's for the same script.
    @Test func joseRunsOnWebCrypto() async throws {
        try await withScratchDirectory { root in
            _ = try installDebianPackage("jose", into: root)
            let result = try await CLI.run(
                ["--allow-read=\(root)", "$SPECS/fixtures/jose-webcrypto.mjs", root], timeLimit: 120)
            #expect(result.exitCode == 0, "\(result.summary)")
            let expected = try String(
                contentsOfFile: CLIPaths.specs + "/fixtures/jose-webcrypto.expected", encoding: .utf8)
            #expect(result.stdout == expected, "\(result.summary)")
        }
    }
}
