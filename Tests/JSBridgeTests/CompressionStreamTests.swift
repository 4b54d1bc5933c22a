import Foundation
import JSBridgeTesting
import Testing

/// CompressionStream / DecompressionStream (js/compression.js over zlib), against data Node's zlib produced.
@Suite(.blocking) struct CompressionStreamTests {
    /// The text Node compressed for the fixtures below.
    static let source = #""Streams in jsbridge: " + "hello world ".repeat(20) + "\u00e9\u{1F600}""#
    /// `zlib.gzipSync`, `zlib.deflateSync` and `zlib.deflateRawSync` of `source` in Node 20.
    static let fixtures = [
        "gzip": "H4sIAAAAAAAAAwsuKUpNzC1WyMxTyCpOKspMSU+1UshIzcnJVyjPL8pJGRHswys/zJ/RAAAeJe5RCwEAAA==",
        "deflate": "eJwLLilKTcwtVsjMU8gqTirKTElPtVLISM3JyVcozy/KSRkR7MMrP8yf0QAAJJ9lXg==",
        "deflate-raw": "Cy4pSk3MLVbIzFPIKk4qykxJT7VSyEjNyclXKM8vykkZEezDKz/Mn9EAAA==",
    ]

    private func run(_ body: String) async -> ScriptResult {
        let prelude = """
            const source = \(Self.source);
            const fixtures = \(String(decoding: try! JSONEncoder().encode(Self.fixtures), as: UTF8.self));
            const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            async function collect(readable) {
              const parts = [];
              let length = 0;
              for await (const part of readable) parts.push(part), (length += part.length);
              const all = new Uint8Array(length);
              let offset = 0;
              for (const part of parts) all.set(part, offset), (offset += part.length);
              return all;
            }
            async function through(stream, chunks) {
              const writer = stream.writable.getWriter();
              const done = collect(stream.readable);
              for (const chunk of chunks) writer.write(chunk).catch(() => {});
              writer.close().catch(() => {});
              return done;
            }

            """
        return await ScriptRunner.run(prelude + body, timeout: .seconds(60))
    }

    @Test func decompressesWhatNodesZlibProducedInAnyChunking() async {
        let result = await run(
            #"""
            for (const format of ["gzip", "deflate", "deflate-raw"]) {
              const data = bytes(fixtures[format]);
              const whole = await through(new DecompressionStream(format), [data]);
              const split = await through(new DecompressionStream(format), Array.from(data, (b) => new Uint8Array([b])));
              const text = new TextDecoder().decode(whole);
              console.log(format, text === source, new TextDecoder().decode(split) === source);
            }
            """#)
        #expect(result.lines == ["gzip true true", "deflate true true", "deflate-raw true true"])
    }

    @Test func roundTripsLargeInputAndCompressesIt() async {
        let result = await run(
            #"""
            const big = new TextEncoder().encode(source.repeat(4000));
            for (const format of ["gzip", "deflate", "deflate-raw"]) {
              const packed = await through(new CompressionStream(format), [big.subarray(0, 100000), big.buffer.slice(100000)]);
              const unpacked = await through(new DecompressionStream(format), [packed]);
              const same = unpacked.length === big.length && unpacked.every((b, i) => b === big[i]);
              console.log(format, same, packed.length < big.length / 10);
            }
            const gz = await through(new CompressionStream("gzip"), [new TextEncoder().encode("x")]);
            console.log(gz[0], gz[1], gz[2]);
            """#)
        #expect(result.lines == ["gzip true true", "deflate true true", "deflate-raw true true", "31 139 8"])
    }

    @Test func corruptTruncatedAndTrailingInputErrorTheStreamWithTypeError() async {
        let result = await run(
            #"""
            const gzip = bytes(fixtures.gzip);
            const outcome = (p) => p.then(() => "ok", (e) => e.constructor.name);
            const corrupt = gzip.slice(); corrupt[12] ^= 0xff;
            console.log("corrupt", await outcome(through(new DecompressionStream("gzip"), [corrupt])));
            console.log("truncated", await outcome(through(new DecompressionStream("gzip"), [gzip.subarray(0, gzip.length - 4)])));
            const trailing = new Uint8Array([...gzip, 0x00]);
            console.log("trailing", await outcome(through(new DecompressionStream("gzip"), [trailing])));
            console.log("wrong format", await outcome(through(new DecompressionStream("deflate"), [gzip])));
            console.log("not bytes", await outcome(through(new CompressionStream("gzip"), ["text"])));
            try { new CompressionStream("zip"); } catch (e) { console.log("format", e.constructor.name); }
            try { new DecompressionStream(); } catch (e) { console.log("missing", e.constructor.name); }
            """#)
        #expect(
            result.lines == [
                "corrupt TypeError", "truncated TypeError", "trailing TypeError", "wrong format TypeError",
                "not bytes TypeError", "format TypeError", "missing TypeError",
            ])
    }

    /// 64 MiB of zeros compress to ~64 KiB: decompressed, it comes out in chunks of at most 64 KiB, and only as the
    /// reader pulls (back-pressure): with one chunk read, the stream has produced a few chunks, not 64 MiB.
    @Test func decompressionEmitsBoundedChunksAsTheReaderPulls() async {
        let result = await run(
            #"""
            const packed = await through(new CompressionStream("gzip"), [new Uint8Array(64 << 20)]);
            const stream = new DecompressionStream("gzip");
            const writer = stream.writable.getWriter();
            const written = writer.write(packed).then(() => "written");
            const reader = stream.readable.getReader();
            const first = await reader.read();
            for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 0));
            // The write is still waiting on the reader: the transform stopped at the readable side's high-water mark.
            console.log(packed.length < 100000, first.value.length, await Promise.race([written, Promise.resolve("waiting")]));
            let total = first.value.length, max = first.value.length, chunks = 1;
            writer.close().catch(() => {});
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              total += value.length, (max = Math.max(max, value.length)), chunks++;
            }
            console.log(total, max, chunks, await written);
            """#)
        #expect(result.lines == ["true 65536 waiting", "67108864 65536 1024 written"], "\(result.stderr)")
    }

    @Test func gzipOutputIsReadByTheGzipTool() async throws {
        let result = await run(
            #"""
            const packed = await through(new CompressionStream("gzip"), [new TextEncoder().encode(source)]);
            console.log(btoa(String.fromCharCode(...packed)));
            """#)
        let encoded = try #require(result.lines.first)
        let data = try #require(Data(base64Encoded: encoded))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-dc"]
        let input = Pipe()
        let output = Pipe()
        gzip.standardInput = input
        gzip.standardOutput = output
        try gzip.run()
        input.fileHandleForWriting.write(data)
        try input.fileHandleForWriting.close()
        let decoded = output.fileHandleForReading.readDataToEndOfFile()
        gzip.waitUntilExit()
        #expect(gzip.terminationStatus == 0)
        let expected = "Streams in jsbridge: " + String(repeating: "hello world ", count: 20) + "\u{e9}\u{1F600}"
        #expect(String(decoding: decoded, as: UTF8.self) == expected)
    }
}
