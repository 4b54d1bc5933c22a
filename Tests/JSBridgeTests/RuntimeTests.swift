import Foundation
import JSBridge
import JSBridgeTesting
import Testing

@Suite struct TimerAndLoopTests {
    /// Microtasks, then ticks, run before any timer; timers fire in deadline order with Node's arguments. Whether
    /// the immediate runs before the 1 ms timers depends on how long the first turn took (as in Node), so only
    /// their set is checked.
    @Test func timersFireInDeadlineOrderWithNodeArguments() async {
        let result = await ScriptRunner.run(
            #"""
            const order = [];
            setTimeout((a, b) => order.push(`t200:${a}${b}`), 200, "x", "y");
            setTimeout(() => order.push("t0"), 0);
            setTimeout(() => order.push("tNaN"), NaN);
            setImmediate(() => order.push("immediate"));
            queueMicrotask(() => order.push("micro"));
            Promise.resolve().then(() => order.push("promise"));
            process.nextTick(() => order.push("tick"));
            setTimeout(() => console.log(order.join(" ")), 400);
            """#)
        let order = result.lines.first?.split(separator: " ").map(String.init) ?? []
        #expect(order.count == 7, "\(result.lines) \(result.stderr)")
        #expect(Array(order.prefix(3)) == ["micro", "promise", "tick"])
        #expect(Set(order.dropFirst(3).prefix(3)) == ["immediate", "t0", "tNaN"])
        #expect((order.firstIndex(of: "t0") ?? 9) < (order.firstIndex(of: "tNaN") ?? 0))
        #expect(order.last == "t200:xy")
    }

    @Test func intervalsRepeatUntilCleared() async {
        let result = await ScriptRunner.run(
            #"""
            let n = 0;
            const id = setInterval(() => { if (++n === 3) { clearInterval(id); console.log("cleared", n); } }, 1);
            """#)
        #expect(result.lines == ["cleared 3"])
        #expect(result.exitCode == 0)
    }

    @Test func clearTimeoutAcceptsTheTimeoutAndItsNumber() async {
        let result = await ScriptRunner.run(
            #"""
            const a = setTimeout(() => console.log("a fired"), 5);
            const b = setTimeout(() => console.log("b fired"), 5);
            clearTimeout(a);
            clearTimeout(+b);
            setTimeout(() => console.log("end", typeof +a), 20);
            """#)
        #expect(result.lines == ["end number"])
    }

    @Test func unrefTimersDoNotKeepTheProcessAlive() async {
        // Were the timer kept, the run would end only at ScriptRunner's time limit, with exit code 1.
        let result = await ScriptRunner.run(
            #"setTimeout(() => console.log("late"), 3_600_000).unref(); console.log("done")"#)
        #expect(result.lines == ["done"])
        #expect(result.exitCode == 0)
    }

    @Test func timerWithoutAFunctionThrowsNodesError() async {
        let result = await ScriptRunner.run(#"try { setTimeout("code", 1) } catch (e) { console.log(e.name, e.code) }"#)
        #expect(result.lines == ["TypeError ERR_INVALID_ARG_TYPE"])
    }

    @Test(
        .disabled(
            if: Sanitizer.stopsNoRunningLoop,
            "a running loop can not be stopped under ThreadSanitizer (Sanitizer.stopsNoRunningLoop)"))
    func timeLimitStopsAnInfiniteLoop() async {
        let result = await ScriptRunner.run("while (true) {}", timeout: .seconds(1))
        #expect(result.exitCode == 1)
        // ScriptRunner stretches the limit under a sanitizer.
        #expect(result.stderr.contains("stopped after the --timeout of \(Sanitizer.slowdown)s"))
    }

    /// Traps are polled, not signalled: JavaScriptCore's signalled traps suspend and resume the JS thread from
    /// one thread per process, which stalled every engine of a process running many. The engine reads the
    /// option once, so the runtime sets it before its first engine; a user's own setting would win.
    @Test(
        .disabled(
            if: Sanitizer.stopsNoRunningLoop,
            "a running loop can not be stopped under ThreadSanitizer (Sanitizer.stopsNoRunningLoop)"))
    func trapsArePolledAndStillStopAnAllocatingLoop() async {
        let result = await ScriptRunner.run(
            "let a = []; while (true) { a.push({ n: a.length }); if (a.length > 1000) a = []; }",
            timeout: .milliseconds(300))
        #expect(result.stderr.contains("stopped after the --timeout"))
        #expect(getenv("JSC_usePollingTraps").map { String(cString: $0) } == "1")
    }
}

@Suite struct ProcessTests {
    @Test func argvEnvAndExitCode() async {
        let result = await ScriptRunner.run(
            #"console.log(process.argv.slice(1).join(","), process.env.GREETING, process.platform); process.exitCode = 7"#,
            arguments: ["a", "--flag"], environment: ["GREETING": "hi"])
        #expect(result.lines == ["a,--flag hi linux"])
        #expect(result.exitCode == 7)
    }

    @Test func exitInsideACallbackStopsAtOnceAndRunsExitHandlers() async {
        let result = await ScriptRunner.run(
            #"""
            process.on("exit", (code) => console.log("exit handler", code));
            setTimeout(() => { process.exit(3); console.log("not printed"); }, 1);
            setTimeout(() => console.log("not printed either"), 30);
            """#)
        #expect(result.lines == ["exit handler 3"])
        #expect(result.exitCode == 3)
        #expect(result.uncaughtErrors.isEmpty)
    }
}

@Suite struct ErrorReportingTests {
    @Test func uncaughtExceptionPrintsLocationAndStackOnce() async throws {
        let file = try ScriptFile(
            "\n\nfunction inner() { throw new RangeError(\"deep\"); }\nfunction outer() { inner(); }\nouter();\n")
        let result = await ScriptRunner.run(.file(file.path))
        #expect(result.exitCode == 1)
        #expect(result.stderr.hasPrefix("\(file.path):3:"))
        #expect(result.stderr.contains("Uncaught RangeError: deep"))
        #expect(result.stderr.contains("at inner (\(file.path):3:"))
        #expect(result.stderr.contains("at outer (\(file.path):4:"))
        #expect(result.stderr.components(separatedBy: "deep").count == 2)
        #expect(result.uncaughtErrors.count == 1)
    }

    @Test func unhandledRejectionExitsOne() async {
        let result = await ScriptRunner.run(
            #"Promise.reject(new TypeError("nobody listens")); setTimeout(() => console.log("never"), 50)"#)
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("Uncaught (in promise) TypeError: nobody listens"))
        #expect(result.stdout.isEmpty)
    }

    @Test func handledRejectionsAreFine() async {
        let result = await ScriptRunner.run(#"Promise.reject(new Error("x")).catch(() => console.log("caught"))"#)
        #expect(result.lines == ["caught"])
        #expect(result.exitCode == 0)
    }

    @Test func syntaxErrorNamesFileAndLine() async throws {
        let file = try ScriptFile("const ok = 1;\nlet broken = ;\n")
        let result = await ScriptRunner.run(.file(file.path))
        #expect(result.exitCode == 1)
        #expect(result.stderr.hasPrefix("\(file.path):2\nlet broken = ;\n\nSyntaxError:"))
    }

    @Test func missingScriptAndDirectory() async {
        let missing = await ScriptRunner.run(.file("/nonexistent/script.js"))
        #expect(missing.exitCode == 1)
        #expect(missing.stderr == "jsbridge: cannot find script '/nonexistent/script.js': no such file\n")
        let directory = await ScriptRunner.run(.file(NSTemporaryDirectory()))
        #expect(directory.exitCode == 1)
        #expect(directory.stderr.contains("it is a directory"))
    }
}

@Suite struct ModuleTests {
    @Test func requireLoadsRelativeFilesWithCachingCyclesAndJSON() async throws {
        let dir = TemporaryDirectory.make(prefix: "modules")
        try "exports.name = 'a'; const b = require('./b'); exports.seenB = b.name; exports.bSawA = b.sawA;"
            .write(toFile: dir + "/a.js", atomically: true, encoding: .utf8)
        try
            "exports.name = 'b'; exports.sawA = require('./a.js').name; exports.count = (globalThis.loads = (globalThis.loads || 0) + 1);"
            .write(toFile: dir + "/b.js", atomically: true, encoding: .utf8)
        try #"{"answer": 42}"#.write(toFile: dir + "/data.json", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir + "/lib", withIntermediateDirectories: true)
        try "module.exports = { dir: __dirname, file: __filename };".write(
            toFile: dir + "/lib/index.js", atomically: true, encoding: .utf8)
        try """
        const a = require('./a');
        require('./b');
        const lib = require('./lib');
        console.log(a.seenB, a.bSawA, globalThis.loads, require('./data.json').answer);
        console.log(lib.dir.endsWith('/lib'), lib.file.endsWith('/lib/index.js'), require.resolve('./data') === __dirname + '/data.json');
        try { require('./missing') } catch (e) { console.log(e.code) }
        try { require('left-pad') } catch (e) { console.log(e.code) }
        """.write(toFile: dir + "/main.js", atomically: true, encoding: .utf8)
        let result = await ScriptRunner.run(.file(dir + "/main.js"))
        #expect(result.lines == ["b a 1 42", "true true true", "MODULE_NOT_FOUND", "MODULE_NOT_FOUND"])
    }
}

@Suite struct GlobalsTests {
    @Test func consoleFormatsLikeNode() async {
        let result = await ScriptRunner.run(
            #"""
            console.log({ a: 1, nested: { deep: { deeper: { deepest: 1 } } }, list: [1, "two", null] });
            console.log(new Map([["k", 1]]), new Set([1, 2]));
            const cycle = { name: "c" }; cycle.self = cycle; console.log(cycle);
            console.log("%s is %d years and %j", "Ann", 42.9, { x: 1 }, "extra");
            console.error("to stderr");
            """#)
        // Exactly what Node 20 prints for the same statements.
        #expect(
            result.lines == [
                "{",
                "  a: 1,",
                "  nested: { deep: { deeper: [Object] } },",
                "  list: [ 1, 'two', null ]",
                "}",
                "Map(1) { 'k' => 1 } Set(2) { 1, 2 }",
                "<ref *1> { name: 'c', self: [Circular *1] }",
                #"Ann is 42.9 years and {"x":1} extra"#,
            ])
        #expect(result.stderr == "to stderr\n")
    }

    @Test func encodingURLAndStructuredClone() async {
        let result = await ScriptRunner.run(
            #"""
            const bytes = new TextEncoder().encode("héllo €");
            console.log(bytes.length, new TextDecoder().decode(bytes));
            const url = new URL("../x?a=1&b=two words#frag", "https://Example.com:443/dir/sub/page");
            console.log(url.href, url.searchParams.get("b"));
            const copy = structuredClone({ d: new Date(0), m: new Map([[1, 2]]) });
            console.log(copy.d instanceof Date, copy.m.get(1));
            """#)
        #expect(
            result.lines == [
                "10 héllo €",
                "https://example.com/dir/x?a=1&b=two%20words#frag two words",
                "true 2",
            ])
    }
}

/// A script written to a temporary file.
struct ScriptFile {
    let path: String
    init(_ source: String) throws {
        path = TemporaryDirectory.make(prefix: "script") + "/script.js"
        try source.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
