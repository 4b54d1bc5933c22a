import Foundation
import JSBridgeRuntime
import JSBridgeTesting
import Testing

// CLI tests that need more logic than a spec file: flags, usage errors, exit codes, time limits, the
// default app id, and running the binary from elsewhere.

private let hello = "$SPECS/fixtures/hello.js"

/// A scratch directory removed when the test ends.
private func withScratchDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "jsbridge-cli-scratch-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

@Suite("CLI flags and exit codes") struct CLICommandTests {
    @Test func binaryIsFound() throws {
        let binary = try CLIPaths.binary()
        #expect(FileManager.default.isExecutableFile(atPath: binary))
    }

    @Test func versionPrintsTheVersionAndExitsZero() async throws {
        let result = try await CLI.run(["--version"])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stdout.wholeMatch(of: /jsbridge \d+\.\d+\.\d+\S*\n/) != nil, "\(result.summary)")
        #expect(result.stderr.isEmpty, "\(result.summary)")
    }

    @Test(arguments: ["--help", "-h"])
    func helpDescribesTheOptionsAndExitsZero(_ flag: String) async throws {
        let result = try await CLI.run([flag])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stderr.isEmpty, "\(result.summary)")
        for word in [
            "USAGE", "<script.js>", "--eval", "--config", "--location", "--trace", "--timeout",
            "--allow-net", "--allow-location", "--allow-run[=<programs>]", "--allow-all", "--app-id", "--storage-dir",
            "--version",
        ] {
            #expect(result.stdout.contains(word), "--help does not mention \(word)\n\(result.summary)")
        }
    }

    /// A command line that must fail with exit code 2 and a message naming the problem.
    struct UsageError: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let usageErrors: [UsageError] = [
        .init(arguments: ["--bogus", hello], message: "Unknown option '--bogus'"),
        .init(arguments: ["-x", hello], message: "Unknown option '-x'"),
        .init(arguments: ["-e"], message: "Missing value for '-e"),
        .init(arguments: ["--timeout", "abc", hello], message: "--timeout"),
        .init(arguments: ["--timeout", "0", hello], message: "--timeout must be a positive number of seconds"),
        .init(arguments: ["--timeout=-1", hello], message: "--timeout must be a positive number of seconds"),
        .init(arguments: ["--timeout", "nan", hello], message: "--timeout must be a positive number of seconds"),
        .init(arguments: ["--timeout"], message: "Missing value for '--timeout"),
        .init(
            arguments: ["--allow-net=http://example.com", hello],
            message: "--allow-net: 'http://example.com' is not a host or host:port"),
        .init(arguments: ["--allow-net=example.com:99999", hello], message: "'example.com:99999'"),
        .init(arguments: ["--allow-net=example.com:http", hello], message: "'example.com:http'"),
        .init(arguments: ["--allow-net=a.com,:80", hello], message: "':80'"),
        .init(arguments: ["--allow-net=[::1", hello], message: "'[::1'"),
        .init(arguments: ["--location", "somewhere", hello], message: "--location: unknown source 'somewhere'"),
        .init(arguments: ["--location", "fixed:100,0", hello], message: "--location: expected fixed:lat,lon"),
        .init(arguments: ["--location", "fixed:1", hello], message: "--location: expected fixed:lat,lon"),
        .init(arguments: ["--location", "fixed:a,b", hello], message: "--location: expected fixed:lat,lon"),
        .init(arguments: ["--location", "gpsd://", hello], message: "--location: expected gpsd://host[:port]"),
        .init(arguments: ["--location", "gpsd://a:0", hello], message: "--location: expected gpsd://host[:port]"),
        .init(arguments: ["--location", "gpsd://::1", hello], message: "--location: expected gpsd://host[:port]"),
        .init(arguments: ["--location", "nmea:", hello], message: "--location: expected nmea:<file>"),
        .init(arguments: ["--location"], message: "Missing value for '--location <source>'"),
        .init(arguments: ["--allow-location=x", hello], message: "--allow-location: takes no value"),
        .init(arguments: ["--allow-net=::1", hello], message: "'::1' is not a host or host:port"),
        .init(arguments: ["--allow-sensors", hello], message: "Unknown option '--allow-sensors'"),
        .init(arguments: ["--allow-run=", hello], message: "--allow-run: needs programs after '='"),
        .init(
            arguments: ["--allow-run=echo,", hello], message: "--allow-run: an empty program name cannot be granted."),
        .init(arguments: ["--allow-rn", hello], message: "Did you mean '--allow-run'?"),
        .init(
            arguments: ["--config", "$TMP/missing.json", hello], message: "--config: cannot read '$TMP/missing.json'"),
        .init(arguments: ["--config", "$TMP", hello], message: "--config: cannot read"),
        .init(arguments: ["--config", "$SPECS/fixtures/invalid-config.json", hello], message: "is not valid JSON"),
        .init(arguments: ["--config", "$SPECS/fixtures/array-config.json", hello], message: "must hold a JSON object"),
        // An endless source is read only up to the bound; an empty one is not JSON.
        .init(arguments: ["--config", "/dev/zero", hello], message: "--config: '/dev/zero' is larger than 16 MiB"),
        .init(arguments: ["--config", "/dev/null", hello], message: "--config: '/dev/null' is not valid JSON"),
    ]

    @Test(arguments: usageErrors)
    func usageErrorsExitTwoWithAMessage(_ usage: UsageError) async throws {
        let result = try await CLI.run(usage.arguments)
        #expect(result.exitCode == 2, "\(result.summary)")
        #expect(
            result.stderr.contains(usage.message),
            "stderr should mention \(usage.message.debugDescription)\n\(result.summary)")
        #expect(result.stderr.contains("jsbridge"), "\(result.summary)")
        #expect(result.stdout.isEmpty, "nothing runs after a usage error\n\(result.summary)")
    }

    @Test func missingScriptFileExitsOneWithAClearMessage() async throws {
        let result = try await CLI.run(["no-such-script.js", "arg"])
        #expect(result.exitCode == 1, "\(result.summary)")
        #expect(result.stderr.contains("cannot find script 'no-such-script.js'"), "\(result.summary)")
        #expect(result.stdout.isEmpty)
    }

    @Test func directoryAsScriptExitsOneWithAClearMessage() async throws {
        let result = try await CLI.run(["$SPECS"])
        #expect(result.exitCode == 1, "\(result.summary)")
        #expect(result.stderr.contains("'$SPECS'"), "\(result.summary)")
        #expect(result.stderr.contains("directory"), "\(result.summary)")
        #expect(result.stdout.isEmpty)
    }

    @Test(
        .disabled(
            if: Sanitizer.stopsNoRunningLoop,
            "a running loop can not be stopped under ThreadSanitizer (Sanitizer.stopsNoRunningLoop)"))
    func timeoutStopsAnInfiniteLoopWithinSeconds() async throws {
        let result = try await CLI.run(["--timeout", "1", "-e", "console.log('spinning'); while (true) {}"])
        #expect(result.exitCode == 1, "\(result.summary)")
        #expect(!result.timedOut)
        #expect(result.stdout == "spinning\n", "\(result.summary)")
        #expect(result.stderr.contains("--timeout"), "\(result.summary)")
        #expect(result.elapsed >= .milliseconds(900), "stopped too early: \(result.elapsed)")
    }

    /// A loop in a microtask (a promise reaction, after an `await`, `queueMicrotask`) ends like one in the
    /// script: the output already written is kept, exit code 1, no crash.
    @Test(
        .disabled(
            if: Sanitizer.stopsNoRunningLoop,
            "a running loop can not be stopped under ThreadSanitizer (Sanitizer.stopsNoRunningLoop)"),
        arguments: [
            "Promise.resolve().then(() => { while (true) {} })", "(async () => { await null; while (true) {} })()",
            "queueMicrotask(() => { while (true) {} })",
        ])
    func timeoutStopsALoopInAMicrotask(_ loop: String) async throws {
        let result = try await CLI.run(["--timeout", "1", "-e", "console.log('x'); " + loop])
        #expect(result.exitCode == 1, "\(result.summary)")
        #expect(result.stdout == "x\n", "\(result.summary)")
        #expect(result.stderr.contains("--timeout"), "\(result.summary)")
    }

    /// A thrown or rejected value that cannot be printed (its Proxy traps throw, or it is revoked) is still
    /// reported, and the run fails.
    @Test(arguments: [
        "Promise.reject(new Proxy({}, { get() { throw 1 } }))",
        "const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); Promise.reject(proxy)",
        "throw new Proxy({}, { get() { throw 1 } })",
    ])
    func unprintableFailuresAreStillReported(_ script: String) async throws {
        let result = try await CLI.run(["-e", script])
        #expect(result.exitCode == 1, "\(result.summary)")
        #expect(result.stderr.contains("Uncaught") && result.stderr.contains("cannot be printed"), "\(result.summary)")
    }

    @Test func timeoutStopsAScriptThatNeverEnds() async throws {
        let result = try await CLI.run(["--timeout", "0.5", "-e", "setInterval(() => {}, 10)"])
        #expect(result.exitCode == 1, "\(result.summary)")
        #expect(result.stderr.contains("--timeout"), "\(result.summary)")
        #expect(!result.timedOut, "took \(result.elapsed)")
    }

    @Test func aScriptThatEndsBeforeItsTimeoutExitsAtOnce() async throws {
        let result = try await CLI.run(["--timeout", "60", "-e", "setTimeout(() => console.log('quick'), 10)"])
        #expect(result.exitCode == 0, "\(result.summary)")
        #expect(result.stdout == "quick\n")
        #expect(result.stderr.isEmpty)
        #expect(!result.timedOut, "took \(result.elapsed)")
    }

    @Test func defaultAppIDIsDerivedFromTheScriptPath() async throws {
        try await withScratchDirectory { scratch in
            let fm = FileManager.default
            let source = #"console.log(bridge.execSync("Echo", "context").appId)"#
            for directory in ["one", "two"] {
                try fm.createDirectory(atPath: "\(scratch)/\(directory)", withIntermediateDirectories: true)
                try source.write(toFile: "\(scratch)/\(directory)/app.js", atomically: true, encoding: .utf8)
            }
            func appID(_ script: String, from directory: String? = nil) async throws -> String {
                let result = try await CLI.run([script], workingDirectory: directory)
                #expect(result.exitCode == 0, "\(result.summary)")
                return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let absolute = try await appID("\(scratch)/one/app.js")
            let again = try await appID("\(scratch)/one/app.js")
            let relative = try await appID("one/app.js", from: scratch)
            let dotted = try await appID("./two/../one/./app.js", from: scratch)
            let other = try await appID("\(scratch)/two/app.js")
            #expect(absolute.hasPrefix("app-"), "app id \(absolute) should start with the script's name")
            #expect(absolute.count > "app-".count)
            #expect(absolute == again, "same script, same id")
            #expect(absolute == relative, "a relative path to the same script gives the same id")
            #expect(absolute == dotted, "a non-normalised path to the same script gives the same id")
            #expect(other.hasPrefix("app-"))
            #expect(other != absolute, "the same file name in another directory gives another id")

            let eval = try await CLI.run(["-e", #"console.log(bridge.execSync("Echo", "context").appId)"#])
            #expect(eval.stdout == "eval\n", "\(eval.summary)")
            let explicit = try await CLI.run(["--app-id", "chosen", "\(scratch)/one/app.js"])
            #expect(explicit.stdout == "chosen\n", "\(explicit.summary)")
        }
    }

    @Test func scriptsRunFromAnyWorkingDirectory() async throws {
        // An absolute script path from `/`, and a relative one from the Specs directory's parent:
        // relative requires resolve against the script, not the working directory.
        let fromRoot = try await CLI.run(["$SPECS/require.js"], workingDirectory: "/")
        #expect(fromRoot.exitCode == 0, "\(fromRoot.summary)")
        #expect(fromRoot.stdout.contains("cached: true evaluations: 1"), "\(fromRoot.summary)")
        #expect(fromRoot.stdout.contains("main: $SPECS/require.js $SPECS . true"), "\(fromRoot.summary)")

        let parent = URL(fileURLWithPath: CLIPaths.specs).deletingLastPathComponent().path
        let relative = try await CLI.run(["Specs/require.js"], workingDirectory: parent)
        #expect(relative.exitCode == 0, "\(relative.summary)")
        #expect(relative.stdout == fromRoot.stdout, "\(relative.summary)")
    }

    @Test func aCopyOfTheBinaryRunsOnItsOwn() async throws {
        // The JS runtime is embedded: a copy of the binary in an empty directory, started from another
        // empty directory, still has its globals and plugins.
        try await withScratchDirectory { scratch in
            let copy = "\(scratch)/bin/jsbridge"
            try FileManager.default.createDirectory(atPath: "\(scratch)/bin", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: "\(scratch)/cwd", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: try CLIPaths.binary(), toPath: copy)
            let code = """
                console.log(typeof bridge, typeof cordova, typeof setTimeout, typeof require, typeof URL, \
                typeof TextEncoder, bridge.execSync("Echo", "ping", [1]));
                bridge.call("Echo", "echo", "async ok").then(console.log);
                """
            let result = try await CLI.run(["-e", code], workingDirectory: "\(scratch)/cwd", binary: copy)
            #expect(result.exitCode == 0, "\(result.summary)")
            #expect(
                result.stdout == "object object function function function function 2\nasync ok\n", "\(result.summary)")
            #expect(result.stderr.isEmpty, "\(result.summary)")
        }
    }

    @Test func stdoutIsCompleteWhenTheProcessExits() async throws {
        // Buffered stdout is flushed on every kind of exit: natural end, process.exit, uncaught error.
        let lines = "for (let i = 0; i < 20000; i++) console.log('line ' + i);"
        for (suffix, code) in [("", Int32(0)), ("process.exit(5);", 5), ("throw new Error('end');", 1)] {
            let result = try await CLI.run(["-e", lines + suffix])
            #expect(result.exitCode == code, "\(result.summary.prefix(2000))")
            let printed = result.stdout.split(separator: "\n")
            #expect(printed.count == 20000, "\(suffix): \(printed.count) lines")
            #expect(printed.last == "line 19999", "\(suffix)")
        }
    }

    // MARK: - Regressions: bugs these tests found, now fixed

    @Test
    func exitListenersRunAfterAnUncaughtError() async throws {
        let thrown = try await CLI.run([
            "-e", "process.on('exit', (code) => console.log('exit listener', code)); throw new Error('x')",
        ])
        #expect(thrown.exitCode == 1)
        #expect(thrown.stdout == "exit listener 1\n", "\(thrown.summary)")
        let rejected = try await CLI.run([
            "-e", "process.on('exit', (code) => console.log('exit listener', code)); Promise.reject(new Error('x'))",
        ])
        #expect(rejected.exitCode == 1)
        #expect(rejected.stdout == "exit listener 1\n", "\(rejected.summary)")
    }

    @Test
    func unknownOptionWithoutAScriptNamesTheOption() async throws {
        let result = try await CLI.run(["--bogus"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("Unknown option '--bogus'"), "\(result.summary)")
    }

    @Test(arguments: ["inf", "1e300"])
    func hugeTimeoutsAreAUsageErrorNotACrash(_ value: String) async throws {
        let result = try await CLI.run(["--timeout", value, hello])
        #expect(result.exitCode == 2, "\(result.summary)")
        #expect(result.stderr.contains("--timeout"), "\(result.summary)")
    }

    @Test
    func emptyAllowNetIsAUsageError() async throws {
        let result = try await CLI.run(["--allow-net=", "$SPECS/fixtures/context.js"])
        #expect(result.exitCode == 2, "\(result.summary)")
        #expect(result.stderr.contains("--allow-net"), "\(result.summary)")
    }
}

/// The built-in plugins' typings in js/typings/ are what `jsbridge --typings` writes from their declarations
/// (scripts/typings.sh rewrites them).
@Suite("Typings") struct TypingsTests {
    @Test(arguments: BuiltInPlugins.make().map { type(of: $0).name })
    func builtInTypingsMatchTheirDeclarations(_ plugin: String) async throws {
        let result = try await CLI.run(["--typings", plugin])
        #expect(result.exitCode == 0, "\(result.summary)")
        var committed = try String(contentsOfFile: CLIPaths.packageRoot + "/js/typings/\(plugin).d.ts", encoding: .utf8)
        // The plugin's own declarations, which end the output, are referenced (at the top), not copied.
        if let match = committed.firstMatch(of: #//// <reference path="\.\./\.\./([^"]+)" />\n/#) {
            let api = try String(contentsOfFile: CLIPaths.packageRoot + "/" + match.1, encoding: .utf8)
            committed.removeSubrange(match.range)
            committed += api
        }
        #expect(result.stdout == committed, "js/typings/\(plugin).d.ts is out of date: run scripts/typings.sh")
    }

    @Test func unknownPluginIsAUsageError() async throws {
        let result = try await CLI.run(["--typings", "Nope"])
        #expect(result.exitCode == 2, "\(result.summary)")
        #expect(result.stderr.contains("no plugin named 'Nope'"), "\(result.summary)")
    }
}
