import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// `jsbridge --inspect-brk` driven through the Chrome DevTools Protocol, as VS Code's JavaScript debugger (js-debug)
// and Chrome DevTools drive Node (docs/debugging.md, "Chrome DevTools Protocol"): the relay's translation
// (Extensions/Inspector/js/cdp.js) between CDP and JavaScriptCore's WebKit protocol.

@Suite(.serialized, .blocking) struct InspectorCDPTests {
    /// A CDP client's pattern for a file's URL, as js-debug writes it for a breakpoint (`urlRegex`): the URL
    /// escaped, in any case, with an optional query.
    static func urlPattern(_ url: String) -> String {
        var pattern = "^"
        for character in url {
            if character.isLetter, character.lowercased() != character.uppercased() {
                pattern += "[\(character.lowercased())\(character.uppercased())]"
            } else if "/.\\^$*+?()[]{}|-".contains(character) {
                pattern += "\\" + String(character)
            } else {
                pattern.append(character)
            }
        }
        return pattern + "($|\\?)"
    }

    static func params(_ object: Any?) -> [String: Any] { object as? [String: Any] ?? [:] }

    @Test func aCDPClientAttachesSetsABreakpointByURLStepsEvaluatesAndResumes() async throws {
        let run = try await InspectedRun(
            InspectorTests.script.replacingOccurrences(of: "throw new Error(\"boom\")", with: "console.log(\"done\")")
                + "globalThis.keepAlive = setInterval(() => {}, 1000);\n")  // the test clears it
        let session = try InspectorSession(port: run.port, path: run.path)
        let url = run.scriptURL

        // Attaching as js-debug does: Runtime first (the execution context), then Debugger (its id), the
        // settings, a breakpoint by URL pattern before the script is parsed, and then the run may go.
        let enabled = try session.send("Runtime.enable")
        let context = Self.params(try session.waitForEvent("Runtime.executionContextCreated")["context"])
        _ = try session.answer(to: enabled)
        #expect(context["id"] as? Int == 1 && Self.params(context["auxData"])["isDefault"] as? Bool == true)
        let debugger = try session.call("Debugger.enable", ["maxScriptsCacheSize": 10_000_000])
        #expect((debugger["debuggerId"] as? String)?.isEmpty == false)
        try session.call("Debugger.setPauseOnExceptions", ["state": "none"])
        try session.call("Debugger.setAsyncCallStackDepth", ["maxDepth": 32])
        try session.call("Debugger.setBlackboxPatterns", ["patterns": ["/node_modules/|/node_modules$"]])
        try session.call("Profiler.enable")
        let breakpoint = try session.call(
            "Debugger.setBreakpointByUrl",
            ["urlRegex": Self.urlPattern(url), "lineNumber": 5, "columnNumber": 0])
        let breakpointID = try #require(breakpoint["breakpointId"] as? String)
        #expect(breakpoint["locations"] is [Any])
        // A method CDP has and this runtime does not is an error, as V8 answers one, not silence.
        #expect(throws: InspectorClientError.self) { try session.call("Target.setAutoAttach", ["autoAttach": true]) }
        try session.call("Runtime.runIfWaitingForDebugger")

        // The script under its file:// URL with Chrome's fields; the runtime's own under jsbridge:.
        let parsed = try session.waitForEvent("Debugger.scriptParsed") { $0["url"] as? String == url }
        let scriptID = try #require(parsed["scriptId"] as? String)
        #expect((parsed["hash"] as? String)?.count == 40)
        #expect(parsed["executionContextId"] as? Int == 1 && parsed["scriptLanguage"] as? String == "JavaScript")
        #expect(
            session.events.contains {
                (Self.params($0["params"])["url"] as? String)?.hasPrefix("jsbridge:internal/") == true
            })
        #expect(!session.events.contains { (Self.params($0["params"])["url"] as? String)?.hasPrefix("/") == true })

        // --inspect-brk: Node's "Break on start", at the script's first line.
        var paused = try session.waitForEvent("Debugger.paused")
        #expect(paused["reason"] as? String == "Break on start", "\(paused["reason"] ?? "")")
        #expect(InspectorTests.top(paused)["url"] as? String == url)
        #expect(InspectorTests.line(paused) == 0)
        let possible = try session.call(
            "Debugger.getPossibleBreakpoints",
            [
                "start": ["scriptId": scriptID, "lineNumber": 5, "columnNumber": 0],
                "end": ["scriptId": scriptID, "lineNumber": 6, "columnNumber": 0], "restrictToFunction": false,
            ])
        let locations = possible["locations"] as? [[String: Any]] ?? []
        #expect(locations.first?["lineNumber"] as? Int == 5 && locations.first?["scriptId"] as? String == scriptID)

        // The breakpoint: CDP's reason and the breakpoint hit, frames with their URLs.
        try session.call("Debugger.resume")
        paused = try session.waitForEvent("Debugger.paused")
        #expect(paused["reason"] as? String == "other")
        #expect(paused["hitBreakpoints"] as? [String] == [breakpointID])
        #expect(InspectorTests.functionNames(paused).first == "outer" && InspectorTests.line(paused) == 5)
        #expect(InspectorTests.top(paused)["url"] as? String == url)

        // Into `add`: CDP's scope types (its `local` scopes hold the parameters and `sum`), properties as CDP
        // shapes them, an evaluation on the frame, an exception as exceptionDetails.
        try session.call("Debugger.stepInto")
        paused = try session.waitForEvent("Debugger.paused")
        #expect(InspectorTests.functionNames(paused).first == "add")
        let frame = InspectorTests.top(paused)
        let scopes = frame["scopeChain"] as? [[String: Any]] ?? []
        #expect(scopes.map { $0["type"] as? String ?? "" }.suffix(2) == ["script", "global"], "\(scopes)")
        var names: [String: [String]] = [:]
        for scope in scopes where scope["type"] as? String == "local" {
            let objectID = Self.params(scope["object"])["objectId"] as? String ?? ""
            let properties = try session.call(
                "Runtime.getProperties",
                [
                    "objectId": objectID, "ownProperties": false, "accessorPropertiesOnly": false,
                    "generatePreview": true,
                ])
            let result = properties["result"] as? [[String: Any]] ?? []
            #expect(result.allSatisfy { $0["configurable"] is Bool && $0["enumerable"] is Bool })
            names[scope["type"] as? String ?? "", default: []] += result.compactMap { $0["name"] as? String }
        }
        #expect(names["local"]?.sorted() == ["a", "b", "sum"], "\(names)")
        let evaluated = try session.call(
            "Debugger.evaluateOnCallFrame",
            ["callFrameId": frame["callFrameId"] ?? "", "expression": "a * 10 + b", "generatePreview": true])
        #expect(Self.params(evaluated["result"])["value"] as? Int == 12)
        let thrown = try session.call(
            "Debugger.evaluateOnCallFrame",
            ["callFrameId": frame["callFrameId"] ?? "", "expression": "missing.name", "silent": true])
        let exception = Self.params(Self.params(thrown["exceptionDetails"])["exception"])
        #expect((exception["description"] as? String)?.contains("ReferenceError") == true, "\(thrown)")

        // Over, out, over.
        try session.call("Debugger.stepOver")
        paused = try session.waitForEvent("Debugger.paused")
        #expect(InspectorTests.functionNames(paused).first == "add" && InspectorTests.line(paused) == 2)
        try session.call("Debugger.stepOut")
        paused = try session.waitForEvent("Debugger.paused")
        #expect(InspectorTests.functionNames(paused).first == "outer" && InspectorTests.line(paused) == 6)
        try session.call("Debugger.resume")

        // Console calls are Runtime.consoleAPICalled, with CDP's remote objects and the caller's location.
        let logged = try session.waitForEvent("Runtime.consoleAPICalled") {
            ($0["args"] as? [[String: Any]])?.first?["value"] as? String == "result"
        }
        let arguments = logged["args"] as? [[String: Any]] ?? []
        #expect(logged["type"] as? String == "log" && logged["executionContextId"] as? Int == 1)
        #expect(arguments.map { $0["type"] as? String ?? "" } == ["string", "number", "object"])
        #expect(Self.params(arguments.last?["preview"])["properties"] is [Any])
        let caller = (Self.params(logged["stackTrace"])["callFrames"] as? [[String: Any]])?.first
        #expect(caller?["url"] as? String == url && caller?["lineNumber"] as? Int == 10, "\(logged)")

        // Evaluations while it runs: a promise awaited and returned by value, a call on the global object.
        let awaited = try session.call(
            "Runtime.evaluate",
            [
                "expression": "new Promise((resolve) => setTimeout(() => resolve({ answer: 42 }), 10))",
                "awaitPromise": true, "returnByValue": true, "contextId": 1,
            ])
        #expect(Self.params(Self.params(awaited["result"])["value"])["answer"] as? Int == 42, "\(awaited)")
        let called = try session.call(
            "Runtime.callFunctionOn",
            [
                "functionDeclaration": "function (n) { return typeof this.setTimeout + n; }", "executionContextId": 1,
                "arguments": [["value": 1]], "returnByValue": true,
            ])
        #expect(Self.params(called["result"])["value"] as? String == "function1")

        // The sampling profiler as CDP's profile.
        try session.call("Profiler.start")
        try session.call(
            "Runtime.evaluate",
            [
                "expression":
                    "(function spin() { const end = Date.now() + 200; let n = 0; while (Date.now() < end) n++; })()"
            ])
        let profile = Self.params(try session.call("Profiler.stop")["profile"])
        let nodes = profile["nodes"] as? [[String: Any]] ?? []
        #expect(nodes.contains { Self.params($0["callFrame"])["functionName"] as? String == "spin" }, "\(profile)")
        #expect((profile["samples"] as? [Int])?.count == (profile["timeDeltas"] as? [Int])?.count)

        // The script runs until the test is done with it, however slow the machine. The evaluation that ends it
        // is not awaited: the process may exit before its answer is sent.
        _ = try session.send("Runtime.evaluate", ["expression": "clearInterval(keepAlive)"])
        session.sendClose()
        #expect(await run.process.waitForStatus() == .exited(0), "\(run.summary)")
        #expect(run.process.stdout.contains("result 6 { k: 1 }\n"), "\(run.summary)")
    }

    /// Messages between the engine and the debugger leave nothing behind: 1,500 answers of 40 KB each (60 MB in
    /// all) move the process's resident memory by far less than that.
    @Test func manyLargeAnswersDoNotAccumulate() async throws {
        let run = try await InspectedRun("globalThis.keepAlive = setInterval(() => {}, 1000);\n", flag: "--inspect")
        defer { kill(run.process.pid, SIGKILL) }
        let session = try InspectorSession(port: run.port, path: run.path)
        try session.call("Runtime.enable")
        func evaluate(_ times: Int) throws {
            for _ in 0..<times {
                let answer = try session.call(
                    "Runtime.evaluate", ["expression": "'x'.repeat(40000)", "returnByValue": true])
                #expect((Self.params(answer["result"])["value"] as? String)?.count == 40000)
            }
        }
        try evaluate(200)  // the first answers grow the allocator's pools
        let before = try #require(residentMegabytes(run.process.pid))
        try evaluate(1500)
        let growth = try #require(residentMegabytes(run.process.pid)) - before
        #expect(growth < 25, "resident memory grew by \(growth) MB over 60 MB of answers")
        session.sendClose()
    }

    /// A script busy in a loop that never returns to the event loop still pauses when asked: the engine's
    /// watchdog hands it the debugger's request.
    @Test func aBusyScriptPausesWhenAsked() async throws {
        let run = try await InspectedRun(
            "let turns = 0;\nconsole.log('spinning');\nwhile (true) {\n  turns++;\n}\n", flag: "--inspect-wait")
        defer {
            kill(run.process.pid, SIGKILL)
        }
        let session = try InspectorSession(port: run.port, path: run.path)
        try session.call("Runtime.enable")
        try session.call("Debugger.enable")
        try session.call("Runtime.runIfWaitingForDebugger")
        _ = try session.waitForEvent("Runtime.consoleAPICalled")
        try await Task.sleep(for: .milliseconds(300))
        try session.call("Debugger.pause")
        let paused = try session.waitForEvent("Debugger.paused")
        #expect([2, 3].contains(InspectorTests.line(paused)), "\(paused)")
        let frame = InspectorTests.top(paused)
        let turns = try session.call(
            "Debugger.evaluateOnCallFrame", ["callFrameId": frame["callFrameId"] ?? "", "expression": "turns > 0"])
        #expect(Self.params(turns["result"])["value"] as? Bool == true)
        // Resumed, it spins again, and pauses again when asked.
        try session.call("Debugger.resume")
        try await Task.sleep(for: .milliseconds(200))
        try session.call("Debugger.pause")
        _ = try session.waitForEvent("Debugger.paused")
        session.sendClose()
    }

    /// ES modules and TypeScript under their file URLs, a `//# sourceMappingURL` passed on for the frontend to
    /// load, and TypeScript's types stripped in place: a breakpoint by the .ts file's line stops on that line.
    @Test func modulesAndTypeScriptKeepTheirURLsLinesAndSourceMaps() async throws {
        let run = try await InspectedRun(
            """
            interface Point { x: number; y: number }
            import { helper } from "./lib.mjs";
            function length(point: Point): number {
              const squared: number = point.x * point.x + point.y * point.y;
              return Math.sqrt(squared);
            }
            console.log(length({ x: 3, y: 4 } as Point), helper());

            """,
            file: "main.ts",
            files: [
                "lib.mjs": "export function helper() {\n  return 'h';\n}\n//# sourceMappingURL=lib.mjs.map\n",
                "lib.mjs.map": #"{"version":3,"sources":["lib.ts"],"names":[],"mappings":"AAAA"}"#,
            ])
        let session = try InspectorSession(port: run.port, path: run.path)
        try session.call("Runtime.enable")
        try session.call("Debugger.enable")
        let breakpoint = try session.call("Debugger.setBreakpointByUrl", ["url": run.scriptURL, "lineNumber": 4])
        try session.call("Runtime.runIfWaitingForDebugger")
        _ = try session.waitForEvent("Debugger.paused")  // break on start
        try session.call("Debugger.resume")
        let library = try session.waitForEvent("Debugger.scriptParsed") {
            $0["url"] as? String == "file://\(run.directory)/lib.mjs"
        }
        #expect(library["sourceMapURL"] as? String == "lib.mjs.map")
        let paused = try session.waitForEvent("Debugger.paused")
        #expect(paused["hitBreakpoints"] as? [String] == [breakpoint["breakpointId"] as? String ?? ""])
        #expect(InspectorTests.top(paused)["url"] as? String == run.scriptURL)
        #expect(InspectorTests.functionNames(paused).first == "length" && InspectorTests.line(paused) == 4)
        let squared = try session.call(
            "Debugger.evaluateOnCallFrame",
            ["callFrameId": InspectorTests.top(paused)["callFrameId"] ?? "", "expression": "squared"])
        #expect(Self.params(squared["result"])["value"] as? Int == 25)
        try session.call("Debugger.resume")
        session.sendClose()
        #expect(await run.process.waitForStatus() == .exited(0), "\(run.summary)")
        #expect(run.process.stdout == "5 h\n", "\(run.summary)")
    }

    /// Without --inspect, nothing of the debugger happens: no inspector symbol is looked up and GLib's main
    /// context is never touched (checked by a preloaded library that records both); with it, both happen.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/cc")))
    func withoutTheFlagNoInspectorSymbolIsLookedUpNorGLibContextRun() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shim-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.recorder.write(toFile: directory + "/recorder.c", atomically: true, encoding: .utf8)
        let compile = try SpawnedProcess(
            binary: "/usr/bin/cc",
            arguments: ["-shared", "-fPIC", "-o", directory + "/recorder.so", directory + "/recorder.c", "-ldl"],
            environment: ["PATH": "/usr/bin:/bin"])
        try #require(await compile.waitForStatus(seconds: 60) == .exited(0), "\(compile.stderr)")
        func recorded(_ flags: [String]) async throws -> [String] {
            let log = directory + "/log-\(flags.count)"
            let process = try SpawnedProcess(
                binary: try CLIPaths.binary(),
                arguments: flags + ["-e", "setTimeout(() => console.log('up'), 20)"],
                environment: [
                    "PATH": "/usr/bin:/bin", "SWIFT_BACKTRACE": "enable=no",
                    "LD_PRELOAD": directory + "/recorder.so", "JSB_RECORDER_LOG": log,
                ])
            #expect(await process.waitForStatus() == .exited(0), "\(process.stderr)")
            return ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        let inspectorWork = { (line: String) in
            line.contains("Inspector") || line.contains("initializeMainThread") || line.hasPrefix("g_main_context")
        }
        let plain = try await recorded([])
        #expect(!plain.contains(where: inspectorWork), "\(plain)")
        let inspected = try await recorded(["--inspect=127.0.0.1:0"])
        #expect(inspected.contains("dlsym JSRemoteInspectorStart"), "\(inspected)")
        #expect(inspected.contains("g_main_context_iteration"), "\(inspected)")
    }

    /// Records each `dlsym` (its name) and each call of GLib's default main context (JSB_RECORDER_LOG).
    static let recorder = #"""
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdio.h>
        #include <stdlib.h>
        static void note(const char *prefix, const char *name) {
            const char *path = getenv("JSB_RECORDER_LOG");
            FILE *file = path ? fopen(path, "a") : NULL;
            if (file) { fprintf(file, "%s%s\n", prefix, name); fclose(file); }
        }
        typedef void *(*lookup)(void *, const char *);
        static lookup real_dlsym(void) {
            static lookup real;
            if (!real) real = (lookup)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
            if (!real) real = (lookup)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
            return real;
        }
        void *dlsym(void *handle, const char *name) {
            note("dlsym ", name);
            return real_dlsym()(handle, name);
        }
        void *g_main_context_default(void) {
            note("", "g_main_context_default");
            return ((void *(*)(void))real_dlsym()(RTLD_NEXT, "g_main_context_default"))();
        }
        int g_main_context_iteration(void *context, int may_block) {
            note("", "g_main_context_iteration");
            return ((int (*)(void *, int))real_dlsym()(RTLD_NEXT, "g_main_context_iteration"))(context, may_block);
        }
        """#
}
