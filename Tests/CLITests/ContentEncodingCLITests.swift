import Foundation
import HTTPPluginTesting
import Testing

/// `fetch` decodes `Content-Encoding` and `DecompressionStream` emits bounded chunks, on the `jsbridge` binary
/// itself (debug, and the release binary through `JSBRIDGE_BIN`), against a real server on loopback.
@Suite struct ContentEncodingCLITests {
    /// "gzip body: héllo" as Python's `gzip.compress(…, mtime=0)` wrote it.
    static let gzip: [UInt8] = [
        31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 75, 175, 202, 44, 80, 72, 202, 79, 169, 180, 82, 200, 56, 188, 50, 39, 39,
        31, 0, 160, 109, 16, 171, 17, 0, 0, 0,
    ]
    /// "deflate body" with the zlib wrapper, and "raw deflate body" without it (Python's zlib).
    static let deflate: [UInt8] = [120, 156, 75, 73, 77, 203, 73, 44, 73, 85, 72, 202, 79, 169, 4, 0, 30, 35, 4, 164]
    static let rawDeflate: [UInt8] = [43, 74, 44, 87, 72, 73, 77, 203, 73, 44, 73, 85, 72, 202, 79, 169, 4, 0]
    /// "brotli " × 500 (libbrotli, quality 11).
    static let brotli: [UInt8] = [
        27, 171, 13, 248, 141, 84, 181, 191, 6, 17, 147, 163, 147, 105, 108, 111, 113, 91, 36, 240, 171, 0, 192, 62, 0,
    ]

    @Test func fetchDecodesContentEncodingAndDecompressionIsChunked() async throws {
        let server = try await TestHTTPServer.start()
        for (path, coding, body) in [
            ("/gzip", "gzip", Self.gzip), ("/deflate", "deflate", Self.deflate),
            ("/raw", "deflate", Self.rawDeflate), ("/br", "br", Self.brotli),
        ] {
            server.route(path) { _ in .bytes(body, headers: [.init("Content-Encoding", coding)]) }
        }
        let result = try await CLI.run(
            [
                "--allow-net", "-e",
                """
                const base = "\(server.baseURL)";
                (async () => {
                  for (const path of ["/gzip", "/deflate", "/raw"]) {
                    const response = await fetch(base + path);
                    console.log(path, await response.text(), response.headers.get("content-encoding"));
                  }
                  console.log("/br", (await (await fetch(base + "/br")).text()) === "brotli ".repeat(500));
                  const packed = await new Response(new Blob([new Uint8Array(64 << 20)]).stream()
                    .pipeThrough(new CompressionStream("gzip"))).bytes();
                  let max = 0, total = 0;
                  for await (const chunk of new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"))) {
                    total += chunk.length, (max = Math.max(max, chunk.length));
                  }
                  console.log(total, max);
                })();
                """,
            ], timeLimit: 60)
        try await server.stop()
        #expect(
            result.stdout.split(separator: "\n") == [
                "/gzip gzip body: héllo gzip", "/deflate deflate body deflate", "/raw raw deflate body deflate",
                "/br true", "67108864 65536",
            ], "\(result.stderr)")
        #expect(result.exitCode == 0)
    }
}
