import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridge
import JSBridgeCore
import JSBridgeExtensions
import JSBridgeTesting
import ModelPlugin
import Testing

/// Binary bodies cross the bridge as bytes beside the JSON, both ways, never as base64 text
/// (docs/http.md, "How a request crosses the bridge"): fetch, DAOs and uploads against a real server on
/// loopback, byte for byte, with what crossed the bridge recorded; and the actions headless, on the bytes lane.
@Suite struct BodyBytesTests {
    static let allowAll = BridgeHost.Options.testing(permissions: Permissions(allowing: .net))

    /// Every byte value once: not UTF-8, so it can never cross as a string.
    static let allBytes = (0...255).map { UInt8($0) }

    /// Records what crosses the bridge (`globalThis.bridgeCrossings`): each async call's arguments (JSON text,
    /// paths and sizes of the bytes beside it), each sync call's arguments, and each batch of answers (text and
    /// the sizes of the bytes beside it).
    static let spy = EngineExtension("bridge-spy") { ext in
        ext.script(
            .eager(
                "bridge-spy.js",
                Array(
                    """
                    const crossings = [];
                    globalThis.bridgeCrossings = crossings;
                    const sizes = (values) => values === undefined ? [] : Array.from(values, (v) => v.byteLength);
                    const callAsync = internal.callAsync;
                    internal.callAsync = function (index, id, json, paths, bytes) {
                      crossings.push({ way: "call", text: json, paths: paths ?? "[]", sizes: sizes(bytes) });
                      return Reflect.apply(callAsync, this, arguments);
                    };
                    const serializeNative = internal.serializeNative;
                    internal.serializeNative = function (value, basePath) {
                      const out = serializeNative(value, basePath);
                      const [text, paths, bytes] = typeof out === "string" ? [out, "[]", undefined] : out;
                      crossings.push({ way: "sync", text, paths, sizes: sizes(bytes) });
                      return out;
                    };
                    const dispatch = internal.dispatch;
                    internal.dispatch = function (text, bytes) {
                      crossings.push({ way: "answer", text, paths: "", sizes: sizes(bytes) });
                      return Reflect.apply(dispatch, this, arguments);
                    };
                    """.utf8)))
    }

    /// JavaScript that checks `bridgeCrossings` after a run: no text names base64 or holds the base64 of
    /// `all` (at any alignment), and how many bytes crossed beside the JSON each way.
    static let checkCrossings = """
        const crossingsReport = () => {
          const encodings = [all, new Uint8Array([0, ...all]), new Uint8Array([0, 0, ...all])].map((bytes) => {
            let latin1 = "";
            for (const b of bytes) latin1 += String.fromCharCode(b);
            return btoa(latin1).slice(8, 48);
          });
          const texts = bridgeCrossings.map((c) => c.text);
          const named = texts.filter((t) => /base64/i.test(t)).length;
          const encoded = texts.filter((t) => encodings.some((e) => t.includes(e))).length;
          const sum = (way) => bridgeCrossings.filter((c) => c.way === way).reduce((n, c) => n + c.sizes.reduce((a, b) => a + b, 0), 0);
          const paths = new Set(bridgeCrossings.flatMap((c) => c.paths ? JSON.parse(c.paths).map((p) => JSON.stringify(p)) : []));
          return [named, encoded, sum("call") + sum("sync") > 0, sum("answer") > 0, [...paths].sort().join(" ")];
        };
        """

    /// Runs `script` (with `base`, `all` — every byte value — and `hex` defined) against a server with
    /// `/echo` (answers the request's body and content type) and `/all` (every byte value), recording what
    /// crosses the bridge.
    func run(_ script: String) async throws -> (ScriptResult, TestHTTPServer) {
        let server = try await TestHTTPServer.start()
        server.route("/echo") { request in
            .bytes(request.body, contentType: request.header("content-type") ?? "application/octet-stream")
        }
        server.route("/all") { _ in .bytes(Self.allBytes) }
        let prelude = """
            const base = "\(server.baseURL)";
            const all = Uint8Array.from({ length: 256 }, (_, i) => i);
            const hex = (bytes) => Array.from(new Uint8Array(bytes instanceof ArrayBuffer ? bytes : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)), (b) => b.toString(16).padStart(2, "0")).join("");
            const same = (bytes) => bytes !== undefined && bytes !== null && hex(bytes) === hex(all);
            const contains = (bytes) => hex(bytes).includes(hex(all));

            """
        let result = await ScriptRunner.run(
            prelude + Self.checkCrossings + script, plugins: [HTTPPlugin(), ModelPlugin()],
            extensions: .jsbridge + [Self.spy], options: Self.allowAll, timeout: .seconds(60))
        try await server.stop()
        return (result, server)
    }

    /// `fetch` request bodies from an ArrayBuffer, a Uint8Array view at an offset, a DataView, a Blob and a
    /// FormData reach the server byte for byte, and the echoes (not UTF-8) come back the same; so does a body
    /// above the size the bridge lends instead of copying (3 MiB).
    @Test func fetchBodiesCrossAsBytesBothWays() async throws {
        let (result, server) = try await run(
            """
            (async () => {
              const padded = new Uint8Array(300);
              padded.set(all, 20);
              const bodies = {
                arrayBuffer: all.buffer.slice(0), view: padded.subarray(20, 276), dataView: new DataView(padded.buffer, 20, 256),
                blob: new Blob([all.subarray(0, 100), new Blob([all.subarray(100)])]),
              };
              for (const [name, body] of Object.entries(bodies)) {
                const response = await fetch(base + "/echo", { method: "POST", body });
                console.log(name, response.status, same(await response.arrayBuffer()));
              }
              const form = new FormData();
              form.append("file", new Blob([all], { type: "application/x-all" }), "all.bin");
              form.append("note", "text");
              const echoed = await (await fetch(base + "/echo", { method: "PUT", body: form })).formData();
              console.log("formData", same(await echoed.get("file").bytes()), echoed.get("file").name, echoed.get("note"));
              const response = await fetch(base + "/all");
              console.log("response", response.headers.get("content-type"), same(await response.clone().bytes()), (await response.text()).length);
              const large = Uint8Array.from({ length: 3 << 20 }, (_, i) => i % 251);
              const back = new Uint8Array(await (await fetch(base + "/echo", { method: "POST", body: large })).arrayBuffer());
              console.log("large", back.length, back.every((b, i) => b === i % 251));
              const [named, encoded, sent, received, paths] = crossingsReport();
              console.log("crossings", named, encoded, sent, received);
              console.log("paths", paths);
            })();
            """)
        #expect(
            result.lines == [
                "arrayBuffer 200 true", "view 200 true", "dataView 200 true", "blob 200 true",
                "formData true all.bin text", "response application/octet-stream true 256", "large 3145728 true",
                "crossings 0 0 true true", #"paths ["bodyBytes"]"#,
            ])
        #expect(result.stderr == "")
        let requests = server.requests
        try #require(requests.count == 7)
        for request in requests.prefix(4) { #expect(request.body == Self.allBytes) }
        #expect(requests[4].body.firstRange(of: Self.allBytes) != nil)
        #expect(requests[6].bodyLength == 3 << 20)
        #expect(requests[6].bodyHash == TestHTTPServer.fnv1a((0..<(3 << 20)).map { UInt8($0 % 251) }))
    }

    /// DAOs: a `bytes` response's data (plain and with `request()`), a request body of bytes set by
    /// `willSend` with the raw response a `didReceive` hook reads (and hands back to the engine), and a
    /// multipart DAO's file given as bytes.
    @Test func daoBytesCrossAsBytesBothWays() async throws {
        let (result, server) = try await run(
            """
            const Bin = HTTP.dao({ name: "Bin", baseURL: base, path: "/all", response: { type: "bytes" } });
            const Up = HTTP.dao({
              name: "Up", baseURL: base, path: "/echo", method: "POST", response: { type: "bytes" },
              willSend(request) { request.body = all; request.headers.set("content-type", "application/x-all"); return request; },
              didReceive(response) { console.log("didReceive", response.text === undefined, same(response.bytes)); },
            });
            const Multi = HTTP.dao({
              name: "Multi", baseURL: base, path: "/echo", method: "POST", encoding: "multipart", response: { type: "bytes" },
              params: { file: true, note: true },
            });
            (async () => {
              const data = await Bin.send();
              console.log("send", data instanceof Uint8Array, same(data));
              const full = await Bin.request();
              console.log("request", full.status, same(full.data));
              console.log("willSend", same(await Up.send()));
              const echoed = await Multi.send({ file: { data: new Blob([all]), filename: "all.bin" }, note: "n" });
              const again = await Multi.send({ file: { data: all }, note: "m" });
              console.log("multipart", echoed instanceof Uint8Array, contains(echoed), contains(again));
              const [named, encoded, sent, received, paths] = crossingsReport();
              console.log("crossings", named, encoded, sent, received);
              console.log("paths", paths);
            })();
            """)
        #expect(
            result.lines == [
                "send true true", "request 200 true", "didReceive true true", "willSend true",
                "multipart true true true", "crossings 0 0 true true",
                #"paths ["answer","bodyBytes"] ["multipart","pieces",2,"bytes"] ["request","bodyBytes"]"#,
            ])
        #expect(result.stderr == "")
        let requests = server.requests
        try #require(requests.map(\.path) == ["/all", "/all", "/echo", "/echo", "/echo"])
        #expect(requests[2].body == Self.allBytes)
        #expect(requests[2].header("content-type") == "application/x-all")
        #expect(requests[3].body.firstRange(of: Self.allBytes) != nil)
        #expect(requests[3].text.contains(#"filename="all.bin""#))
        #expect(requests[4].body.firstRange(of: Self.allBytes) != nil)
    }

    /// `HTTP.upload` with files from a Blob, an ArrayBuffer and a typed array: each part's bytes reach the
    /// server as they were, and the response (the echo, not UTF-8) comes back whole.
    @Test func uploadBytesCrossAsBytesBothWays() async throws {
        let (result, server) = try await run(
            """
            (async () => {
              const response = await HTTP.upload(base + "/echo", {
                fields: { kind: "all" },
                files: [
                  { name: "blob", data: new Blob([all], { type: "application/x-all" }), filename: "blob.bin" },
                  { name: "buffer", data: all.buffer.slice(0), filename: "buffer.bin" },
                  { name: "view", data: new Uint8Array([7, ...all, 7]).subarray(1, 257), filename: "view.bin" },
                ],
              });
              const form = await response.formData();
              console.log(response.status, form.get("kind"), form.get("blob").type);
              for (const name of ["blob", "buffer", "view"]) console.log(name, same(await form.get(name).bytes()));
              const [named, encoded, sent, received, paths] = crossingsReport();
              console.log("crossings", named, encoded, sent, received);
              console.log("paths", paths);
            })();
            """)
        #expect(
            result.lines == [
                "200 all application/x-all", "blob true", "buffer true", "view true", "crossings 0 0 true true",
                #"paths ["multipart","pieces",2,"bytes"] ["multipart","pieces",5,"bytes"] ["multipart","pieces",8,"bytes"]"#,
            ])
        #expect(result.stderr == "")
        let body = try #require(server.requests.first?.body)
        var parts = 0
        var rest = body[...]
        while let range = rest.firstRange(of: Self.allBytes) {
            parts += 1
            rest = rest[range.upperBound...]
        }
        #expect(parts == 3)
    }

    // MARK: - Headless: the actions on the bytes lane

    /// Whether `value` names base64 anywhere (a key or a string).
    static func namesBase64(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let object):
            return object.keys.contains { $0.lowercased().contains("base64") }
                || object.values.contains(where: namesBase64)
        case .array(let items): return items.contains(where: namesBase64)
        default: return false
        }
    }

    /// `request` takes `bodyBytes` beside the JSON and answers a body that is not UTF-8 as `bodyBytes` beside
    /// it (the JSON holds `null` there); a text body stays text. In plain JSON (no bridge) the same bytes are
    /// base64 text, as every `Bytes` is there.
    @Test(arguments: HTTPActionTests.bothPaths) func requestBytesLane(completions: Bool) async throws {
        let binary: [UInt8] = [0, 0xff, 0xfe, 0x80, 65]
        let transport = RecordingHTTPTransport { request in
            request.url.hasSuffix("/text")
                ? HTTPTransportResponse(status: 200, body: .text("héllo"))
                : HTTPTransportResponse(status: 200, body: .bytes(binary))
        }
        let tester = try await PluginTester(
            HTTPPlugin(transport: completions ? CompletionTransport(base: transport) : transport),
            options: Self.allowAll)
        for stream in [false, true] {
            let answer = try await tester.call(
                "request",
                BridgeValue(
                    ["url": "https://example.com/", "method": "PUT", "bodyBytes": [:], "stream": .bool(stream)],
                    bytes: [ByteAttachment(path: [.key("bodyBytes")], bytes: Bytes(binary))]))
            #expect(answer.bytes == [ByteAttachment(path: [.key("bodyBytes")], bytes: Bytes(binary))])
            #expect(answer.json["bodyBytes"] == .null)
            #expect(answer.json["body"] == nil)
            #expect(!Self.namesBase64(answer.json))
            let text = try await tester.call(
                "request", BridgeValue(["url": "https://example.com/text", "stream": .bool(stream)]))
            #expect(text.bytes.isEmpty)
            #expect(text.json["body"] == "héllo")
        }
        #expect(transport.requests.map(\.body) == [binary, nil, binary, nil])

        // The plain lane (PluginTester's JSON calls): the same bytes as base64 text.
        let plain = try await tester.call(
            "request", ["url": "https://example.com/", "bodyBytes": .string(Data(binary).base64EncodedString())])
        #expect(plain["bodyBytes"] == .string(Data(binary).base64EncodedString()))
        #expect(transport.requests.last?.body == binary)

        let both = await #expect(throws: BridgeError.self) {
            try await tester.call("request", ["url": "https://example.com/", "body": "a", "bodyBytes": "AA=="])
        }
        #expect(both?.data?["issues"]?[0]?["path"] == "bodyBytes")
        let wrong = await #expect(throws: BridgeError.self) {
            try await tester.call("request", ["url": "https://example.com/", "bodyBytes": 5])
        }
        #expect(wrong?.code == "INVALID_ARGUMENT")
        #expect(wrong?.data?["issues"]?[0]?["path"] == "bodyBytes")
        await tester.shutdown()
    }

    /// The DAO engine: a `bytes` response's data and a raw response's body cross beside the JSON, a hooks'
    /// request body of bytes is taken from beside it, and `daoRead` takes a raw body of bytes back.
    @Test(arguments: HTTPActionTests.bothPaths) func daoBytesLane(completions: Bool) async throws {
        let binary: [UInt8] = [0xc3, 0x28, 0, 0xff]
        let transport = RecordingHTTPTransport { request in
            HTTPTransportResponse(status: 200, body: .bytes(request.body ?? binary))
        }
        let tester = try await PluginTester(
            HTTPPlugin(transport: completions ? CompletionTransport(base: transport) : transport),
            options: Self.allowAll)
        let dao = JSONValue.string(#"{"name":"Bin","baseURL":"http://a.test","path":"/b","response":{"type":"bytes"}}"#)
        let expected = [ByteAttachment(path: [.key("data")], bytes: Bytes(binary))]
        for brief in [false, true] {
            let answer = try await tester.call(
                "daoSend", BridgeValue(["dao": dao, "read": "data", "brief": .bool(brief)]))
            #expect(answer.bytes == expected)
            #expect(answer.json["data"] == .null)
            #expect(!Self.namesBase64(answer.json))
        }
        let raw = try await tester.call("daoSend", BridgeValue(["dao": dao, "read": "response"]))
        #expect(raw.bytes == [ByteAttachment(path: [.key("bodyBytes")], bytes: Bytes(binary))])
        #expect(!Self.namesBase64(raw.json))

        let sent: [UInt8] = [1, 0x80, 2]
        let hooked = try await tester.call(
            "daoSend",
            BridgeValue(
                [
                    "dao": dao, "read": "data", "wire": [:],
                    "request": ["url": "http://a.test/b", "method": "POST", "bodyBytes": [:]],
                ],
                bytes: [ByteAttachment(path: [.key("request"), .key("bodyBytes")], bytes: Bytes(sent))]))
        #expect(hooked.bytes == [ByteAttachment(path: [.key("data")], bytes: Bytes(sent))])
        #expect(transport.requests.last?.body == sent)

        let read = try tester.callSync(
            "daoRead",
            BridgeValue(
                [
                    "dao": dao, "method": "GET", "read": "data",
                    "answer": ["status": 200, "url": "http://a.test/b", "bodyBytes": [:]],
                ],
                bytes: [ByteAttachment(path: [.key("answer"), .key("bodyBytes")], bytes: Bytes(binary))]))
        #expect(read.bytes == expected)
        #expect(!Self.namesBase64(read.json))
        await tester.shutdown()
    }

    /// `upload` takes a framed body's pieces of bytes from beside the JSON and answers a body that is not
    /// UTF-8 beside its result.
    @Test func uploadBytesLane() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/echo") { request in .bytes(request.body) }
        let tester = try await PluginTester(HTTPPlugin(), options: Self.allowAll)
        let piece = Self.allBytes
        let values = try tester.stream(
            "upload",
            BridgeValue(
                [
                    "url": .string(server.url("/echo")),
                    "multipart": [
                        "boundary": "b",
                        "pieces": [["text": "--b\r\n\r\n"], ["bytes": [:]], ["text": "\r\n--b--\r\n"]],
                    ],
                ],
                bytes: [
                    ByteAttachment(
                        path: [.key("multipart"), .key("pieces"), .index(1), .key("bytes")], bytes: Bytes(piece))
                ]))
        let results = try await values.collectWithBytes()
        let result = try #require(results.last)
        let expected = Array("--b\r\n\r\n".utf8) + piece + Array("\r\n--b--\r\n".utf8)
        #expect(result.json["type"] == "result")
        #expect(result.bytes == [ByteAttachment(path: [.key("bodyBytes")], bytes: Bytes(expected))])
        #expect(!Self.namesBase64(result.json))
        #expect(server.requests.first?.body == expected)
        await tester.shutdown()
        try await server.stop()
    }

    /// The plugin's JavaScript has no base64 of its own: bodies never become text on the bridge (data: URLs
    /// decode with the web extension's forgiving-base64).
    @Test func pluginScriptsHaveNoBase64Plumbing() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Plugins/HTTP/Plugin").standardized
        for file in ["http.js", "http-dao.js", "http-transfer.js"] {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for word in ["bodyBase64", "dataBase64", "base64Encode", "base64Decode", "{ base64 }", "ALPHABET"] {
                #expect(!text.contains(word), "\(file) has \(word)")
            }
        }
    }
}
