import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridgeCore
import JSBridgeTesting
import Testing

/// WPT's fetch/api/response/response-stream-disturbed-* (a body read through its stream, or read whole, is used,
/// and its stream is then disturbed and locked) and url/urlencoded-parser (`formData()` of
/// `application/x-www-form-urlencoded` parses bytes as the URL Standard does, a leading BOM kept), on bodies made
/// in the script and fetched from a real server on loopback.
@Suite struct BodyDisturbedTests {
    func run(_ script: String) async throws -> ScriptResult {
        let server = try await TestHTTPServer.start()
        server.route("/data") { _ in .text("{\"key\": \"value\"}") }
        server.route("/form") { _ in
            .bytes(
                [0xEF, 0xBB, 0xBF] + Array("a=%EF%BB%BFb&c+d=e+f".utf8),
                contentType: "application/x-www-form-urlencoded")
        }
        let result = await ScriptRunner.run(
            "const base = \"\(server.baseURL)\";\n" + script, plugins: [HTTPPlugin()],
            options: .testing(permissions: Permissions(allowing: .net)), timeout: .seconds(60))
        try await server.stop()
        return result
    }

    @Test func aBodyReadThroughItsStreamOrWholeIsUsed() async throws {
        let result = try await run(
            """
            (async () => {
              const makers = { fetched: () => fetch(base + "/data"), made: async () => new Response("{}") };
              for (const [kind, make] of Object.entries(makers)) {
                const read = await make();
                const reader = read.body.getReader();
                const pending = reader.read();
                const usedAtOnce = read.bodyUsed;
                await pending;
                const outcome = await read.blob().then(() => "resolved", (e) => e.constructor.name);
                console.log(kind, "read()", usedAtOnce, read.bodyUsed, outcome);
                for (const method of ["blob", "text", "json", "arrayBuffer", "formData"]) {
                  const response = await make();
                  response[method]().catch(() => {});
                  let getReader;
                  try { response.body.getReader(); getReader = "no error"; } catch (e) { getReader = e.constructor.name; }
                  console.log(kind, method, response.bodyUsed, response.body !== null, getReader, response.body.locked);
                }
              }
              const closed = new Response(new ReadableStream({ start(c) { c.close(); } }));
              closed.body.getReader().read();
              const errored = new Response(new ReadableStream({ start(c) { c.error(new Error("x")); } }));
              errored.body.getReader().read().catch(() => {});
              const piped = new Response(new ReadableStream());
              piped.body.pipeTo(new WritableStream({}, { highWaterMark: 0 }));
              const cancelled = new Response(new ReadableStream());
              cancelled.body.cancel();
              console.log(closed.bodyUsed, errored.bodyUsed, piped.bodyUsed, cancelled.bodyUsed, new Response("x").bodyUsed);
            })();
            """)
        #expect(
            result.lines == [
                "fetched read() true true TypeError",
                "fetched blob true true TypeError true", "fetched text true true TypeError true",
                "fetched json true true TypeError true", "fetched arrayBuffer true true TypeError true",
                "fetched formData true true TypeError true",
                "made read() true true TypeError",
                "made blob true true TypeError true", "made text true true TypeError true",
                "made json true true TypeError true", "made arrayBuffer true true TypeError true",
                "made formData true true TypeError true",
                "true true true true false",
            ], "\(result.stderr)")
        #expect(result.exitCode == 0)
    }

    /// WPT url/urlencoded-parser.any.js cases, through `Request#formData()` and `Response#formData()`.
    @Test func urlencodedFormDataKeepsALeadingBOM() async throws {
        let result = try await run(
            #"""
            (async () => {
              const cases = [
                ["test", [["test", ""]]],
                ["\uFEFFtest=\uFEFF", [["\uFEFFtest", "\uFEFF"]]],
                ["%EF%BB%BFtest=%EF%BB%BF", [["\uFEFFtest", "\uFEFF"]]],
                ["%EF%BF%BF=%EF%BF%BF", [["\uFFFF", "\uFFFF"]]],
                ["%FE%FF", [["\uFFFD\uFFFD", ""]]],
                ["%FF%FE", [["\uFFFD\uFFFD", ""]]],
                ["†&†=x", [["†", ""], ["†", "x"]]],
                ["%C2", [["\uFFFD", ""]]],
                ["%C2x", [["\uFFFDx", ""]]],
                ["_charset_=windows-1252&test=%C2x", [["_charset_", "windows-1252"], ["test", "\uFFFDx"]]],
                ["", []],
                ["a", [["a", ""]]],
                ["a=b", [["a", "b"]]],
                ["a=", [["a", ""]]],
                ["=b", [["", "b"]]],
                ["&", []],
                ["&a", [["a", ""]]],
                ["a&", [["a", ""]]],
                ["a&a", [["a", ""], ["a", ""]]],
                ["a&b&c", [["a", ""], ["b", ""], ["c", ""]]],
                ["a=b&c=d", [["a", "b"], ["c", "d"]]],
                ["a=b&c=d&", [["a", "b"], ["c", "d"]]],
                ["&&&a=b&&&&c=d&", [["a", "b"], ["c", "d"]]],
                ["a=a&a=b&a=c", [["a", "a"], ["a", "b"], ["a", "c"]]],
                ["a==a", [["a", "=a"]]],
                ["a=a+b+c+d", [["a", "a b c d"]]],
                ["%=a", [["%", "a"]]],
                ["%a=a", [["%a", "a"]]],
                ["%a_=a", [["%a_", "a"]]],
                ["%61=a", [["a", "a"]]],
                ["%61+%4d%4D=", [["a MM", ""]]],
                ["id=0&value=%", [["id", "0"], ["value", "%"]]],
                ["b=%2sf%2a", [["b", "%2sf*"]]],
                ["b=%2%2af%2a", [["b", "%2*f*"]]],
                ["b=%%2a", [["b", "%*"]]],
              ];
              const type = { "content-type": "application/x-www-form-urlencoded" };
              let passed = 0;
              for (const [input, expected] of cases) {
                for (const body of [
                  await new Request("http://example.test/", { method: "POST", body: input, headers: type }).formData(),
                  await new Response(input, { headers: type }).formData(),
                ]) {
                  const got = JSON.stringify([...body]);
                  if (got === JSON.stringify(expected)) passed++;
                  else console.log("mismatch", JSON.stringify(input), got);
                }
              }
              console.log(passed, cases.length * 2);
              const fetched = await (await fetch(base + "/form")).formData();
              console.log(JSON.stringify([...fetched]));
            })();
            """#)
        #expect(result.lines == ["70 70", #"[["﻿a","﻿b"],["c d","e f"]]"#], "\(result.stderr)")
        #expect(result.exitCode == 0)
    }
}
