import Foundation
import Testing

/// The REPL, driven through a pseudo-terminal: `jsbridge` with no script on a terminal.
@Suite struct ReplSessionTests {
    /// A session in a fresh home directory with its history file there; `arguments` are the CLI's flags.
    private func session(
        _ arguments: [String] = [], history: String? = nil, in directory: ReplHome
    ) async throws -> ReplTerminal {
        let terminal = try ReplTerminal(
            binary: try CLIPaths.binary(), arguments: arguments,
            environment: [
                "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm",
                "HOME": directory.path, "SWIFT_BACKTRACE": "enable=no",
                "JSBRIDGE_REPL_HISTORY": history ?? directory.path + "/history",
            ])
        #expect(await terminal.waitFor("\n> "), "no prompt:\n\(terminal.screen)")
        return terminal
    }

    @Test func evaluatesExpressionsFunctionsAwaitAndDeclarations() async throws {
        let directory = try ReplHome()
        let repl = try await session(in: directory)
        #expect(repl.plain.contains("Welcome to jsbridge"))
        var start = repl.mark
        #expect(await repl.enter("1 + 2") == "3\n")
        // A multi-line function: the unfinished lines get the continuation prompt.
        start = repl.mark
        repl.type("function add(a, b) {\r")
        #expect(await repl.waitFor("... ", after: start))
        repl.type("  return a + b;\r")
        #expect(await repl.waitFor("... ", after: repl.mark - 4))
        #expect(await repl.enter("}") == "undefined\n")
        #expect(await repl.enter("add(2, 3)") == "5\n")
        // let persists to the next line, and so does a declaration on a line that awaits.
        #expect(await repl.enter("let x = 40") == "undefined\n")
        #expect(await repl.enter("x + 2") == "42\n")
        #expect(await repl.enter("const y = await Promise.resolve(5)") == "undefined\n")
        #expect(await repl.enter("y * x") == "200\n")
        // Top-level await of a timer: printed once it settles.
        #expect(
            await repl.enter("await new Promise((resolve) => setTimeout(() => resolve('slept'), 50))") == "'slept'\n")
        #expect(await repl.enter("_") == "'slept'\n")
        start = repl.mark
        repl.type("`multi\r")
        #expect(await repl.waitFor("... ", after: start))
        #expect(await repl.enter("${1 + 1}`") == "'multi\\n2'\n")
        #expect(await repl.enter("{ a: 1 }") == "{ a: 1 }\n")
        #expect(await repl.enter("throw new TypeError('nope')") == "Uncaught TypeError: nope\n")
        #expect(await repl.enter("_error.message") == "'nope'\n")
        #expect(await repl.enter("let x = 1")?.contains("SyntaxError") == true)
        // A plugin call, the bridge's promise awaited at the top level.
        #expect(await repl.enter("await bridge.call('Echo', 'echo', { hi: 1 })") == "{ hi: 1 }\n")
        #expect(await repl.enter(".help")?.contains(".exit") == true)
        repl.type(".exit\r")
        #expect(await repl.waitForExit() == .exited(0), "\(repl.screen)")
    }

    @Test func resultsAreColouredOnATerminal() async throws {
        let directory = try ReplHome()
        let repl = try await session(in: directory)
        let start = repl.mark
        repl.type("42\r")
        #expect(await repl.waitFor("\n> ", after: start))
        #expect(repl.screen.contains("\u{1B}[33m42\u{1B}[39m"), "\(repl.screen)")
        repl.type("\u{4}")
        #expect(await repl.waitForExit() == .exited(0))
    }

    @Test func tabCompletesGlobalsPropertiesAndPluginActions() async throws {
        let directory = try ReplHome()
        let repl = try await session(in: directory)
        var start = repl.mark
        repl.type("let uniqueReplName = 1\r")
        #expect(await repl.waitFor("\n> ", after: start))
        // A global: `uniqueRe` + Tab completes to the let declared above.
        start = repl.mark
        repl.type("uniqueRe\t")
        #expect(await repl.waitFor("uniqueReplName", after: start), "\(repl.plain(after: start))")
        repl.type("\u{15}")  // Ctrl-U: clear the line
        // A property.
        start = repl.mark
        repl.type("Math.floo\t")
        #expect(await repl.waitFor("Math.floor", after: start))
        repl.type("\u{15}")
        // A plugin's action, from the plugin registry.
        start = repl.mark
        repl.type("bridge.plugins.Echo.ec\t")
        #expect(await repl.waitFor("bridge.plugins.Echo.echo", after: start))
        repl.type("\u{15}")
        start = repl.mark
        repl.type("bridge.plugins.Echo.\t")
        #expect(await repl.waitFor("ticks", after: start))
        #expect(repl.plain(after: start).contains("ping"))
        repl.type("\u{15}")
        start = repl.mark
        repl.type("bridge.plugins.Ec\t")
        #expect(await repl.waitFor("bridge.plugins.Echo", after: start))
        repl.type("\u{15}\u{3}")
        #expect(await repl.waitFor("(To exit, press Ctrl+C again", after: start))
        repl.type("\u{3}")
        #expect(await repl.waitForExit() == .exited(0))
    }

    @Test func historyIsKeptInTheFileAndRecalledWithUpArrow() async throws {
        let directory = try ReplHome()
        let history = directory.path + "/custom-history"
        do {
            let repl = try await session(history: history, in: directory)
            #expect(await repl.enter("'remember-' + 'me'") == "'remember-me'\n")
            repl.type(".exit\r")
            #expect(await repl.waitForExit() == .exited(0))
        }
        let saved = try String(contentsOfFile: history, encoding: .utf8)
        #expect(saved.contains("'remember-' + 'me'\n"))
        let attributes = try FileManager.default.attributesOfItem(atPath: history)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let repl = try await session(history: history, in: directory)
        let start = repl.mark
        // The newest entry is `.exit`; the one before it is the expression.
        repl.type("\u{1B}[A")
        #expect(await repl.waitFor(".exit", after: start))
        repl.type("\u{1B}[A")
        #expect(await repl.waitFor("'remember-' + 'me'", after: start))
        repl.type("\r")
        #expect(await repl.waitFor("'remember-me'\n", after: start))
        repl.type("\u{4}")
        #expect(await repl.waitForExit() == .exited(0))
    }

    /// A Ctrl-D typed while code runs ends the session once the code is done, as one typed at the prompt does
    /// (the terminal is then in its own mode, whose line discipline must not turn the key into an end of input).
    @Test(arguments: [
        "const t = Date.now(); while (Date.now() - t < 700); 'done'",
        "await new Promise((resolve) => setTimeout(resolve, 700)); 'done'",
    ])
    func aCtrlDTypedWhileCodeRunsEndsTheSessionAfterIt(_ code: String) async throws {
        let directory = try ReplHome()
        let repl = try await session(in: directory)
        let start = repl.mark
        repl.type("console.log('started'); " + code + "\r")
        // `started` is printed once the terminal has left raw mode for the evaluation.
        #expect(await repl.waitFor("started\n", after: start))
        repl.type("\u{4}")
        #expect(await repl.waitFor("'done'\n", after: start))
        #expect(await repl.waitForExit(seconds: 20) == .exited(0), "\(repl.plain(after: start))")
    }

    @Test func ctrlCCancelsTheLineAndTwiceOnAnEmptyLineExits() async throws {
        let directory = try ReplHome()
        let repl = try await session(in: directory)
        var start = repl.mark
        repl.type("function unfinished() {\r")
        #expect(await repl.waitFor("... ", after: start))
        start = repl.mark
        repl.type("\u{3}")  // abandons the multi-line entry
        #expect(await repl.waitFor("^C\n> ", after: start), "\(repl.plain(after: start))")
        #expect(await repl.enter("typeof unfinished") == "'undefined'\n")
        start = repl.mark
        repl.type("\u{3}")
        #expect(await repl.waitFor("(To exit, press Ctrl+C again or Ctrl+D or type .exit)", after: start))
        repl.type("\u{3}")
        #expect(await repl.waitForExit() == .exited(0), "\(repl.screen)")
    }

    @Test func errorsFromCallbacksArePrintedAndTheSessionGoesOn() async throws {
        let directory = try ReplHome()
        let repl = try await session(in: directory)
        var start = repl.mark
        repl.type("setTimeout(() => { throw new Error('late') }, 10); 1\r")
        #expect(await repl.waitFor("Uncaught Error: late\n> ", after: start), "\(repl.plain(after: start))")
        start = repl.mark
        repl.type("Promise.reject(new RangeError('never handled')); 2\r")
        #expect(await repl.waitFor("Uncaught (in promise) RangeError: never handled", after: start))
        #expect(await repl.enter("40 + 2") == "42\n")
        repl.type(".exit\r")
        #expect(await repl.waitForExit() == .exited(0))
    }

    @Test func theCommandLineFlagsApplyToTheSession() async throws {
        let directory = try ReplHome()
        let repl = try await session(["--app-id", "repl-app", "--allow-location"], in: directory)
        #expect(await repl.enter("bridge.execSync('Echo', 'context', []).appId") == "'repl-app'\n")
        #expect(await repl.enter("bridge.execSync('Echo', 'context', []).permissions.location") == "true\n")
        repl.type(".exit\r")
        #expect(await repl.waitForExit() == .exited(0))
    }

    @Test func stdinThatIsNotATerminalIsTheScript() async throws {
        let piped = try await CLI.run([], stdin: Data("console.log(1 + 1)\n".utf8))
        #expect(piped.exitCode == 0, "\(piped.summary)")
        #expect(piped.stdout == "2\n", "\(piped.summary)")
        let dash = try await CLI.run(
            ["-", "an-argument"], stdin: Data("console.log(process.argv.slice(1).join(' '))".utf8))
        #expect(dash.stdout == "an-argument\n", "\(dash.summary)")
        let failing = try await CLI.run([], stdin: Data("throw new Error('from stdin')".utf8))
        #expect(failing.exitCode == 1)
        #expect(failing.stderr.contains("from stdin"))
        let empty = try await CLI.run(["--allow-all"])
        #expect(empty.exitCode == 0, "\(empty.summary)")
    }
}

/// A fresh directory for a session's home and history, removed after the test.
final class ReplHome {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("jsbridge-repl-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
