import CCompression
import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridgeCore
import JSBridgeTesting
import Testing

/// `fetch` decodes `Content-Encoding` (gzip, deflate with and without the zlib wrapper, br, and lists of them) as
/// browsers do, keeping the header; the decoded body is limited like any body. Against a real server on loopback.
@Suite struct ContentEncodingTests {
    /// `bytes` compressed by zlib in `format` (``JSB_Z_DEFLATE``, ``JSB_Z_DEFLATE_RAW`` or ``JSB_Z_GZIP``).
    static func compress(_ bytes: [UInt8], _ format: Int32) -> [UInt8] {
        let stream = jsb_zstream_create(format, 0)!
        defer { jsb_zstream_free(stream) }
        var output: [UInt8] = []
        var offset = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            var consumed = 0
            var produced = 0
            let status = bytes.withUnsafeBufferPointer { input in
                jsb_zstream_step(
                    stream, input.baseAddress.map { $0 + offset }, bytes.count - offset, 1, &buffer, buffer.count,
                    &consumed, &produced)
            }
            precondition(status == Int32(JSB_Z_OK))
            offset += consumed
            output += buffer[..<produced]
            if offset == bytes.count && produced < buffer.count { return output }
        }
    }

    /// "brotli " × 500, compressed by libbrotli (quality 11).
    static let brotli: [UInt8] = [
        27, 171, 13, 248, 141, 84, 181, 191, 6, 17, 147, 163, 147, 105, 108, 111, 113, 91, 36, 240, 171, 0, 192, 62, 0,
    ]

    func run(_ script: String, maxBodyBytes: Int? = nil) async throws -> ScriptResult {
        let server = try await TestHTTPServer.start()
        func route(_ path: String, _ encoding: String, _ body: [UInt8]) {
            server.route(path) { _ in
                .bytes(body, contentType: "text/plain; charset=utf-8", headers: [.init("Content-Encoding", encoding)])
            }
        }
        let text = Array("héllo, decoded ".utf8)
        route("/gzip", "gzip", Self.compress(text, Int32(JSB_Z_GZIP)))
        route("/x-gzip", "x-gzip", Self.compress(text, Int32(JSB_Z_GZIP)))
        route("/deflate", "deflate", Self.compress(text, Int32(JSB_Z_DEFLATE)))
        route("/deflate-raw", "deflate", Self.compress(text, Int32(JSB_Z_DEFLATE_RAW)))
        route("/br", "br", Self.brotli)
        // Codings in the order they were applied: deflate first, then gzip.
        route("/two", "deflate, GZIP", Self.compress(Self.compress(text, Int32(JSB_Z_DEFLATE)), Int32(JSB_Z_GZIP)))
        route("/unknown", "compress", text)
        route("/identity", "identity", text)
        var corrupt = Self.compress(text, Int32(JSB_Z_GZIP))
        corrupt[12] ^= 0xFF
        route("/corrupt", "gzip", corrupt)
        route("/truncated", "gzip", Array(Self.compress(text, Int32(JSB_Z_GZIP)).dropLast(6)))
        route("/not-br", "br", text)
        // 1 MiB of zeros in about 1 KiB.
        route("/bomb", "gzip", Self.compress([UInt8](repeating: 0, count: 1 << 20), Int32(JSB_Z_GZIP)))
        // A gzip body that arrives in pieces (the streamed path), 3 bytes at a time.
        let pieces = Self.compress(Array(String(repeating: "chunk ", count: 2000).utf8), Int32(JSB_Z_GZIP))
        server.route("/chunked") { _ in
            TestHTTPServer.Response(
                headers: [.init("Content-Encoding", "gzip")],
                body: .chunked(
                    stride(from: 0, to: pieces.count, by: 3).map {
                        (.zero, Array(pieces[$0..<min($0 + 3, pieces.count)]))
                    }))
        }
        var configuration: JSONObject = [:]
        if let maxBodyBytes { configuration["HTTP"] = ["maxBodyBytes": .number(Double(maxBodyBytes))] }
        let result = await ScriptRunner.run(
            "const base = \"\(server.baseURL)\";\n" + script, plugins: [HTTPPlugin()],
            options: .testing(configuration: configuration, permissions: Permissions(allowing: .net)),
            timeout: .seconds(60))
        try await server.stop()
        return result
    }

    @Test func decodesGzipDeflateAndBrotliKeepingTheHeader() async throws {
        let result = try await run(
            """
            (async () => {
              for (const path of ["/gzip", "/x-gzip", "/deflate", "/deflate-raw", "/two", "/unknown", "/identity"]) {
                const response = await fetch(base + path);
                console.log(path, JSON.stringify(await response.text()), response.headers.get("content-encoding"));
              }
              const br = await fetch(base + "/br");
              const text = await br.text();
              console.log("/br", text === "brotli ".repeat(500), br.headers.get("content-encoding"));
              const streamed = await fetch(base + "/chunked");
              let length = 0;
              for await (const chunk of streamed.body) length += chunk.length;
              console.log("/chunked", length, await (await fetch(base + "/chunked")).text() === "chunk ".repeat(2000));
              const head = await fetch(base + "/gzip", { method: "HEAD" });
              console.log("HEAD", (await head.arrayBuffer()).byteLength);
            })();
            """)
        #expect(
            result.lines == [
                "/gzip \"héllo, decoded \" gzip", "/x-gzip \"héllo, decoded \" x-gzip",
                "/deflate \"héllo, decoded \" deflate", "/deflate-raw \"héllo, decoded \" deflate",
                "/two \"héllo, decoded \" deflate, GZIP", "/unknown \"héllo, decoded \" compress",
                "/identity \"héllo, decoded \" identity", "/br true br", "/chunked 12000 true", "HEAD 0",
            ], "\(result.stderr)")
        #expect(result.exitCode == 0)
    }

    @Test func corruptBodiesAreNetworkErrorsAndTheDecodedSizeIsLimited() async throws {
        let result = try await run(
            """
            (async () => {
              for (const path of ["/corrupt", "/truncated", "/not-br"]) {
                const response = await fetch(base + path);
                await response.text().then(
                  () => console.log(path, "no error"),
                  (e) => console.log(path, e.constructor.name, e.cause.code, e.cause.data.kind));
              }
              await (await fetch(base + "/bomb")).arrayBuffer().then(
                () => console.log("no error"), (e) => console.log("/bomb", e.constructor.name, e.cause.code));
              // Read as a stream, the decoded body comes in bounded chunks, as any body does.
              let total = 0, max = 0;
              for await (const chunk of (await fetch(base + "/bomb")).body) total += chunk.length, (max = Math.max(max, chunk.length));
              console.log("streamed", total, max <= 262144);
            })();
            """, maxBodyBytes: 100_000)
        #expect(
            result.lines == [
                "/corrupt TypeError NETWORK_ERROR decode", "/truncated TypeError NETWORK_ERROR decode",
                "/not-br TypeError NETWORK_ERROR decode", "/bomb TypeError BODY_TOO_LARGE", "streamed 1048576 true",
            ], "\(result.stderr)")
        #expect(result.exitCode == 0)
    }

    /// The decoder takes the encoded body in any chunking — one byte at a time included, where deflate must see
    /// two bytes before it can tell the zlib wrapper from raw deflate — and gives chunks of at most 256 KiB.
    @Test func decodingDoesNotDependOnHowTheBodyIsChunked() async throws {
        let text = Array(String(repeating: "chunked body ", count: 100_000).utf8)
        let cases: [(String, [UInt8], [UInt8])] = [
            ("gzip", Self.compress(text, Int32(JSB_Z_GZIP)), text),
            ("deflate", Self.compress(text, Int32(JSB_Z_DEFLATE)), text),
            ("deflate", Self.compress(text, Int32(JSB_Z_DEFLATE_RAW)), text),
            ("br", Self.brotli, Array(String(repeating: "brotli ", count: 500).utf8)),
        ]
        for (coding, encoded, expected) in cases {
            for size in [1, 2, 3, 4096, encoded.count] {
                let chunks = stride(from: 0, to: encoded.count, by: size).map {
                    Array(encoded[$0..<min($0 + size, encoded.count)])
                }
                let body = ContentDecoding.decode(
                    .chunks(chunks), headers: [HTTPField("Content-Encoding", coding)], url: "http://test/")
                var decoded: [UInt8] = []
                var largest = 0
                for try await chunk in body {
                    decoded += chunk
                    largest = max(largest, chunk.count)
                }
                #expect(decoded == expected, "\(coding) in chunks of \(size)")
                #expect(largest <= ContentDecoding.chunkSize)
            }
            // A body that ends early is an error, however it is chunked.
            let truncated = ContentDecoding.decode(
                .chunks([Array(encoded.dropLast(2))]), headers: [HTTPField("Content-Encoding", coding)],
                url: "http://test/")
            await #expect(throws: HTTPError.self) { for try await _ in truncated {} }
        }
    }

    /// fetch sends the `Accept-Encoding` a browser sends when the script set none: the codings it decodes, or
    /// `identity` for a `Range` request; the script's own value is sent as it is.
    @Test func fetchAsksForTheCodingsItDecodes() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/echo") { request in .text(request.header("accept-encoding") ?? "none") }
        let result = await ScriptRunner.run(
            """
            const base = "\(server.baseURL)";
            (async () => {
              const request = new Request(base + "/echo");
              console.log(await (await fetch(request)).text(), [...request.headers].length);
              console.log(await (await fetch(base + "/echo", { headers: { "Accept-Encoding": "br" } })).text());
              console.log(await (await fetch(base + "/echo", { headers: { range: "bytes=0-1" } })).text());
            })();
            """, plugins: [HTTPPlugin()], options: .testing(permissions: Permissions(allowing: .net)),
            timeout: .seconds(60))
        try await server.stop()
        #expect(result.lines == ["gzip, deflate, br 0", "br", "identity"], "\(result.stderr)")
    }
}
