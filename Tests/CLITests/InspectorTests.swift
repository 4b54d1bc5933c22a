import Foundation
import JSBridgeTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// `jsbridge --inspect-brk` driven through the WebKit Inspector Protocol over its WebSocket, as a debugger would
// (docs/debugging.md).

/// A sandbox directory with a script, and `jsbridge <flag>=127.0.0.1:0` started on it; the WebSocket URL it
/// printed (the Chrome DevTools Protocol's; `webKitPath` is the WebKit protocol's).
struct InspectedRun {
    let directory: String
    let script: String
    let process: SpawnedProcess
    let port: Int
    let path: String
    var webKitPath: String { path + "/webkit" }
    /// The script's URL in the Chrome DevTools Protocol.
    var scriptURL: String { "file://" + script }

    /// `files`: more files beside the script, by name.
    init(
        _ source: String, flag: String = "--inspect-brk", file: String = "script.js", files: [String: String] = [:]
    ) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/home", withIntermediateDirectories: true)
        script = directory + "/" + file
        try source.write(toFile: script, atomically: true, encoding: .utf8)
        for (name, text) in files { try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
        process = try SpawnedProcess(
            binary: try CLIPaths.binary(),
            arguments: ["\(flag)=127.0.0.1:0", script],
            environment: [
                "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": directory + "/home",
                "SWIFT_BACKTRACE": "enable=no",
            ])
        guard await process.waitForError("For help"),
            let line = process.stderr.split(separator: "\n").first(where: { $0.hasPrefix("Debugger listening on ") }),
            let url = URL(string: String(line.dropFirst("Debugger listening on ".count))), let port = url.port
        else { throw InspectorClientError(description: "no WebSocket URL: \(process.stderr)") }
        self.port = port
        path = url.path
    }

    var summary: String { "--- stdout\n\(process.stdout)--- stderr\n\(process.stderr)" }
}

@Suite(.serialized, .blocking) struct InspectorTests {
    static let script = """
        function add(a, b) {
          const sum = a + b;
          return sum;
        }
        function outer() {
          const x = add(1, 2);
          return x * 2;
        }
        let fired = 0;
        setTimeout(() => { fired++; console.log("timer fired", fired); }, 50);
        setTimeout(() => { const result = outer(); console.log("result", result, { k: 1 }); }, 20);
        bridge.subscribe("Echo", "ticks", { count: 3, intervalMs: 200 }, (v) => { console.log("tick", v); if (v === 2) setTimeout(() => { throw new Error("boom"); }, 10); });

        """

    @Test func aDebuggerStepsThroughAScriptOverTheWebKitProtocol() async throws {
        let run = try await InspectedRun(Self.script)
        let session = try InspectorSession(port: run.port, path: run.webKitPath)
        // Scripts are known by their absolute paths (as in their stack traces).
        let url = run.script
        try session.call("Runtime.enable")
        try session.call("Console.enable")
        try session.call("Debugger.enable")
        let breakpoint = try session.call("Debugger.setBreakpointByUrl", ["url": url, "lineNumber": 5])
        #expect(breakpoint["breakpointId"] != nil)
        try session.call("Debugger.setPauseOnExceptions", ["state": "uncaught"])
        try session.call("Inspector.initialized")

        // --inspect-brk: paused before the script's first statement, in the script itself.
        let scriptID = try session.waitForEvent("Debugger.scriptParsed") { $0["url"] as? String == url }["scriptId"]
        var paused = try session.waitForEvent("Debugger.paused")
        #expect(
            Self.top(paused)["location"].flatMap { ($0 as? [String: Any])?["scriptId"] as? String } == scriptID
                as? String)
        #expect(run.process.stdout.isEmpty, "\(run.summary)")

        // Resumed: the breakpoint by URL and line, in `outer`.
        try session.call("Debugger.resume")
        paused = try session.waitForEvent("Debugger.paused")
        #expect(
            Self.functionNames(paused).prefix(2) == ["outer", "global code"]
                || Self.functionNames(paused).first == "outer")
        #expect(Self.line(paused) == 5)

        // While paused for 2 s the JS thread (the main thread) waits instead of spinning: sampled every 100 ms,
        // it is runnable in at most half the samples (a busy wait would be runnable in every sample, however
        // loaded the machine, where its CPU time would not show; a waiting thread woken by the debugger's
        // messages queues for a CPU on a loaded machine: 5 of 20 samples at load 50). And the timer due
        // meanwhile has not fired.
        let before = processCPUSeconds(run.process.pid) ?? 0
        var runnable = 0
        for _ in 0..<20 {
            try await Task.sleep(for: .milliseconds(100))
            if threadState(run.process.pid, thread: run.process.pid) == "R" { runnable += 1 }
        }
        let spent = (processCPUSeconds(run.process.pid) ?? 0) - before
        #expect(runnable <= 10, "runnable in \(runnable) of 20 samples while paused; CPU \(spent) s")
        #expect(!run.process.stdout.contains("timer fired"), "\(run.summary)")
        #expect(!run.process.stdout.contains("tick 1"), "a plugin's stream values wait too: \(run.summary)")

        // Step into `add`: its scope's variables, and an evaluation on its frame.
        try session.call("Debugger.stepInto")
        paused = try session.waitForEvent("Debugger.paused")
        #expect(Self.functionNames(paused).first == "add")
        #expect(Self.line(paused) == 1)
        let frame = Self.top(paused)
        // The block scope holds `sum`, the function's own scope `a` and `b`.
        var names: [String] = []
        for scope in frame["scopeChain"] as? [[String: Any]] ?? [] where scope["type"] as? String == "closure" {
            let objectID = (scope["object"] as? [String: Any])?["objectId"] as? String ?? ""
            let properties = try session.call("Runtime.getProperties", ["objectId": objectID, "ownProperties": true])
            names += (properties["properties"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        #expect(names.contains("a") && names.contains("b") && names.contains("sum"), "scopes: \(names)")
        let evaluated = try session.call(
            "Debugger.evaluateOnCallFrame", ["callFrameId": frame["callFrameId"] ?? "", "expression": "a * 10 + b"])
        #expect((evaluated["result"] as? [String: Any])?["value"] as? Int == 12)

        // Step over, then out (back in `outer`, at its next statement), then over again.
        try session.call("Debugger.stepOver")
        paused = try session.waitForEvent("Debugger.paused")
        #expect(Self.functionNames(paused).first == "add" && Self.line(paused) == 2)
        try session.call("Debugger.stepOut")
        paused = try session.waitForEvent("Debugger.paused")
        #expect(Self.functionNames(paused).first == "outer" && Self.line(paused) == 6, "\(Self.functionNames(paused))")
        try session.call("Debugger.stepOver")
        paused = try session.waitForEvent("Debugger.paused")
        #expect(Self.functionNames(paused).first == "outer" && Self.line(paused) == 7)

        // Resumed: console messages with their arguments, the timer once, then the uncaught exception pauses.
        try session.call("Debugger.resume")
        let message =
            try session.waitForEvent("Console.messageAdded") {
                (($0["message"] as? [String: Any])?["text"] as? String) == "result"
            }["message"] as? [String: Any] ?? [:]
        let parameters = message["parameters"] as? [[String: Any]] ?? []
        #expect(parameters.map { $0["type"] as? String ?? "" } == ["string", "number", "object"])
        #expect(parameters.count == 3 && parameters[1]["value"] as? Int == 6)
        _ = try session.waitForEvent("Console.messageAdded") {
            (($0["message"] as? [String: Any])?["text"] as? String) == "timer fired"
        }
        paused = try session.waitForEvent("Debugger.paused")
        #expect(paused["reason"] as? String == "exception", "\(paused["reason"] ?? "")")
        try session.call("Debugger.resume")
        let status = await run.process.waitForStatus()
        #expect(status == .exited(1), "\(run.summary)")
        // Each once, after the resume: the timer that fell due and the stream values that came while paused, in
        // order.
        let lines = run.process.stdout.split(separator: "\n")
        #expect(
            lines.sorted() == ["result 6 { k: 1 }", "tick 0", "tick 1", "tick 2", "timer fired 1"], "\(run.summary)")
        #expect(lines.filter { $0.hasPrefix("tick") } == ["tick 0", "tick 1", "tick 2"], "\(run.summary)")
        #expect(run.process.stderr.contains("boom"), "\(run.summary)")
    }

    @Test func anESModuleStopsAtItsFirstLine() async throws {
        let run = try await InspectedRun("const a = 1;\nconsole.log('module', a);\nexport {};\n", file: "main.mjs")
        let session = try InspectorSession(port: run.port, path: run.webKitPath)
        try session.call("Debugger.enable")
        try session.call("Inspector.initialized")
        let scriptID = try session.waitForEvent("Debugger.scriptParsed") { $0["url"] as? String == run.script }[
            "scriptId"]
        let paused = try session.waitForEvent("Debugger.paused")
        let location = Self.top(paused)["location"] as? [String: Any]
        #expect(location?["scriptId"] as? String == scriptID as? String && location?["lineNumber"] as? Int == 0)
        #expect(run.process.stdout.isEmpty)
        try session.call("Debugger.resume")
        #expect(await run.process.waitForStatus() == .exited(0), "\(run.summary)")
        #expect(run.process.stdout == "module 1\n", "\(run.summary)")
    }

    /// Node's own debugger client, a Chrome DevTools Protocol client nobody here wrote, on a pseudo-terminal
    /// (through the relay's CDP translation, js/cdp.js).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/node")))
    func nodeInspectSetsABreakpointPrintsABacktraceEvaluatesAndSteps() async throws {
        let run = try await InspectedRun(
            Self.script.replacingOccurrences(of: "throw new Error(\"boom\")", with: "console.log(\"done\")"))
        let node = try ReplTerminal(
            binary: "/usr/bin/node", arguments: ["inspect", "127.0.0.1:\(run.port)"],
            environment: ["PATH": "/usr/bin:/bin", "HOME": run.directory + "/home", "TERM": "dumb"])
        func enter(_ command: String, expecting text: String) async -> Bool {
            let mark = node.mark
            node.type(command + "\r")
            let seen = await node.waitFor(text, after: mark, seconds: 20)
            if !seen {
                Issue.record("after '\(command)', no '\(text)' in:\n\(node.plain(after: mark))\n\(run.summary)")
            }
            return seen
        }
        #expect(await node.waitFor("debug> ", seconds: 20), "\(node.plain)\n\(run.summary)")
        #expect(await node.waitFor("script.js:1"), "paused before the first line: \(node.plain)")
        guard await enter("sb(6)", expecting: "> 6"),
            await enter("c", expecting: "script.js:6"),
            await enter("bt", expecting: "#0 outer "),
            await enter("n", expecting: "script.js:7"),
            await enter("exec x * 7", expecting: "21")
        else { return }
        node.type("c\r")
        #expect(await run.process.waitForStatus() == .exited(0), "\(run.summary)")
        #expect(run.process.stdout.contains("result 6 { k: 1 }\n"), "\(run.summary)")
    }

    @Test func theListNamesTheTargetAndAForeignHostIsRefused() async throws {
        let run = try await InspectedRun("console.log('ran');\n", flag: "--inspect-wait")
        let list = try inspectorHTTPGet(port: run.port, path: "/json/list", host: "127.0.0.1:\(run.port)")
        #expect(list.status.contains(" 200 "), "\(list)")
        let targets = try JSONSerialization.jsonObject(with: Data(list.body.utf8)) as? [[String: Any]] ?? []
        #expect(targets.count == 1)
        #expect(targets.first?["webSocketDebuggerUrl"] as? String == "ws://127.0.0.1:\(run.port)\(run.path)")
        #expect(
            (targets.first?["devtoolsFrontendUrl"] as? String)?.contains("ws=127.0.0.1:\(run.port)\(run.path)") == true)
        #expect(targets.first?["url"] as? String == "file://" + run.script)
        let version = try inspectorHTTPGet(port: run.port, path: "/json/version", host: "localhost:\(run.port)")
        #expect(version.status.contains(" 200 ") && version.body.contains("\"Protocol-Version\""), "\(version)")

        // DNS rebinding: a name that is not localhost nor an IP address is refused, and so is a foreign Origin.
        let foreign = try inspectorHTTPGet(port: run.port, path: "/json/list", host: "attacker.example:\(run.port)")
        #expect(foreign.status.contains(" 403 "), "\(foreign)")
        #expect(throws: InspectorClientError.self) {
            try InspectorSession(port: run.port, path: run.path, origin: "https://attacker.example")
        }
        #expect(throws: InspectorClientError.self) { try InspectorSession(port: run.port, path: "/not-the-uuid") }
        #expect(!run.process.stdout.contains("ran"), "--inspect-wait runs nothing before a debugger")

        // A debugger that says it is ready lets the run go.
        let session = try InspectorSession(port: run.port, path: run.webKitPath)
        try session.call("Inspector.initialized")
        let status = await run.process.waitForStatus()
        #expect(status == .exited(0), "\(run.summary)")
        #expect(run.process.stdout == "ran\n", "\(run.summary)")
    }

    @Test func aBreakpointInAnEvaluationTheDebuggerAskedForDoesNotHangIt() async throws {
        let run = try await InspectedRun(
            "globalThis.g = function () { const local = 7; debugger; return local; };\nsetInterval(() => {}, 1000);\n",
            flag: "--inspect-wait")
        let session = try InspectorSession(port: run.port, path: run.webKitPath)
        try session.call("Debugger.enable")
        try session.call("Inspector.initialized")
        _ = try session.waitForEvent("Debugger.scriptParsed") { $0["url"] as? String == run.script }
        let result = try session.call("Runtime.evaluate", ["expression": "g()"])
        #expect((result["result"] as? [String: Any])?["value"] as? Int == 7)
        session.sendClose()
        kill(run.process.pid, SIGKILL)
        _ = await run.process.waitForStatus()
    }

    @Test func withoutTheFlagNoInspectorThreadStarts() async throws {
        func threads(_ flags: [String]) async throws -> [String] {
            let process = try SpawnedProcess(
                binary: try CLIPaths.binary(),
                arguments: flags + ["-e", "console.log('up'); setTimeout(() => {}, 1500)"],
                environment: ["PATH": "/usr/bin:/bin", "SWIFT_BACKTRACE": "enable=no"])
            #expect(await process.waitForOutput("up\n"))
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/task")) ?? []
            let names = tasks.compactMap {
                try? String(contentsOfFile: "/proc/\(process.pid)/task/\($0)/comm", encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            #expect(await process.waitForStatus() == .exited(0))
            return names
        }
        #expect(try await !threads([]).contains("jsb-inspector"))
        #expect(try await threads(["--inspect=127.0.0.1:0"]).contains("jsb-inspector"))
    }

    static func top(_ paused: [String: Any]) -> [String: Any] {
        (paused["callFrames"] as? [[String: Any]])?.first ?? [:]
    }

    static func functionNames(_ paused: [String: Any]) -> [String] {
        (paused["callFrames"] as? [[String: Any]] ?? []).map { $0["functionName"] as? String ?? "" }
    }

    static func line(_ paused: [String: Any]) -> Int? {
        (top(paused)["location"] as? [String: Any])?["lineNumber"] as? Int
    }
}
