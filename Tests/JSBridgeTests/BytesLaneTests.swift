import Foundation
import JSBridge
import JSBridgeCore
import JSBridgeTesting
import Testing

/// A plugin whose actions take and answer ``Bytes``, of every kind: the bytes lane's test subject.
struct BytesProbePlugin: BridgePlugin {
    static let name = "BytesProbe"

    struct Blob: Codable, Sendable {
        var label: String
        var data: Bytes
        var extra: Bytes?
    }

    struct Answer: Codable, Sendable {
        var label: String
        var count: Int
        var reversed: Bytes
        var parts: [Bytes]
        var meta: JSONValue?
    }

    struct Chunking: Codable, Sendable {
        var data: Bytes
        var size: Int
    }

    struct WithRaw: Codable, Sendable {
        var data: Bytes
        var raw: JSONValue
    }

    static func answer(_ blob: Blob) -> Answer {
        Answer(
            label: blob.label, count: blob.data.count, reversed: Bytes(blob.data.reversed()),
            parts: [blob.extra ?? Bytes(), blob.data])
    }

    static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.sync("transformSync", args: Blob.self) { _, blob in answer(blob) }
        plugin.async("transform", args: Blob.self) { _, blob in answer(blob) }
        plugin.async("echo", args: Bytes.self) { _, bytes in bytes }
        plugin.sync("echoSync", args: Bytes.self) { _, bytes in bytes }
        // A reader of raw JSON sees bytes as base64 text, in either lane.
        plugin.async("raw", args: WithRaw.self) { _, args in args.raw }
        plugin.event("blob", of: Blob.self)
        plugin.async("announce", args: Blob.self) { context, blob in
            try context.emit("blob", blob)
            return true
        }
        plugin.stream("chunks", args: Chunking.self, of: Bytes.self) { _, args, out in
            var start = 0
            repeat {
                let end = min(start + max(args.size, 1), args.data.count)
                try await out.yield(Bytes(args.data[start..<end]))
                start = end
            } while start < args.data.count
        }
    }
}

/// Deterministic pseudo-random bytes (a linear congruential generator), so failures reproduce.
func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return (0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 56)
    }
}

@Suite struct BytesLaneTests {
    static let sizes = [0, 1, 2, 3, 4, 255, 4096, (1 << 20) + 7]

    /// The same action answers the same bytes through the bytes lane (bytes beside the JSON, as scripts send
    /// them) and through plain JSON (bytes as base64 text): sync, async and stream, for random inputs.
    @Test func bytesLaneAnswersWhatPlainJSONAnswers() async throws {
        let tester = try await PluginTester(BytesProbePlugin())
        for (i, size) in Self.sizes.enumerated() {
            let data = Bytes(randomBytes(size, seed: UInt64(i)))
            let extra = Bytes(randomBytes(size / 2 + 1, seed: UInt64(100 + i)))
            let plainArguments: JSONValue = [
                "label": .string("L\(i)"), "data": .string(data.base64EncodedString()),
                "extra": .string(extra.base64EncodedString()),
            ]
            let laneArguments = BridgeValue(
                ["label": .string("L\(i)"), "data": [:], "extra": [:]],
                bytes: [
                    ByteAttachment(path: [.key("data")], bytes: data),
                    ByteAttachment(path: [.key("extra")], bytes: extra),
                ])

            let plain = try await tester.call("transform", plainArguments)
            let lane = try await tester.call("transform", laneArguments)
            #expect(lane.plainJSON == plain, "size \(size)")
            // Through the lane the bytes travel beside the JSON, not inside it.
            #expect(
                lane.bytes.map(\.path) == [
                    [.key("reversed")], [.key("parts"), .index(0)], [.key("parts"), .index(1)],
                ])
            #expect(lane.bytes[0].bytes == Bytes(data.reversed()))
            #expect(lane.bytes[2].bytes == data)
            if case .object(let object) = lane.json { #expect(object["reversed"] == .null) }

            #expect(try tester.callSync("transformSync", laneArguments).plainJSON == plain)
            #expect(try tester.callSync("transformSync", plainArguments) == plain)

            let echoed = try await tester.call("echo", BridgeValue(bytes: data))
            #expect(echoed.bytes.first?.bytes == data && echoed.bytes.first?.path == [])
            #expect(
                try await tester.call("echo", .string(data.base64EncodedString()))
                    == .string(data.base64EncodedString()))

            let chunking = BridgeValue(
                ["data": [:], "size": 1000], bytes: [ByteAttachment(path: [.key("data")], bytes: data)])
            let laneChunks = try await tester.stream("chunks", chunking).collectWithBytes()
            let plainChunks = try await tester.stream(
                "chunks", ["data": .string(data.base64EncodedString()), "size": 1000]
            )
            .collect()
            #expect(laneChunks.map(\.plainJSON) == plainChunks)
            #expect(Bytes(laneChunks.flatMap { $0.bytes.first?.bytes ?? Bytes() }) == data)
        }
    }

    /// Readers of raw JSON get a lane's bytes as base64 text; bad bytes are `INVALID_ARGUMENT` with a path.
    @Test func rawReadersSeeBase64AndBadBytesHaveAPath() async throws {
        let tester = try await PluginTester(BytesProbePlugin())
        let data = Bytes(randomBytes(300, seed: 7))
        let raw = try await tester.call(
            "raw",
            BridgeValue(
                ["data": [:], "raw": ["inner": [:], "n": 1]],
                bytes: [
                    ByteAttachment(path: [.key("data")], bytes: data),
                    ByteAttachment(path: [.key("raw"), .key("inner")], bytes: data),
                ]))
        #expect(raw.json == ["inner": .string(data.base64EncodedString()), "n": 1])

        for (value, message) in [
            (JSONValue.number(5), "got a number (5)"), (.string("not base64!"), "got a string"), (.null, "got null"),
        ] {
            do {
                _ = try await tester.call("transform", ["label": "x", "data": value])
                Issue.record("\(value) was accepted as bytes")
            } catch {
                #expect(error.code == "INVALID_ARGUMENT")
                #expect(error.message.contains("at 'data'") && error.message.contains(message), "\(error.message)")
            }
        }
    }

    /// From a script: every kind of binary value crosses as bytes (views at an offset, `DataView`, `Buffer`,
    /// `ArrayBuffer`), answers are `Uint8Array`s, and the lane agrees with base64 text, for sync, async and
    /// stream actions and sizes from 0 to 1 MiB.
    @Test func scriptsSendAndReceiveBytesBothLanesAlike() async {
        let result = await ScriptRunner.run(
            #"""
            const random = (n, seed) => {
              const bytes = new Uint8Array(n);
              let x = seed >>> 0;
              for (let i = 0; i < n; i++) { x = (Math.imul(x, 1103515245) + 12345) >>> 0; bytes[i] = x >>> 24; }
              return bytes;
            };
            const same = (a, b) => a instanceof Uint8Array && a.length === b.length && a.every((v, i) => v === b[i]);
            const base64 = (bytes) => Buffer.from(bytes).toString("base64");
            const P = "BytesProbe";
            (async () => {
              for (const n of [0, 1, 3, 4, 255, 4096, (1 << 20) + 7]) {
                const big = random(n + 16, n + 1);
                const data = big.subarray(8, 8 + n); // a view at an offset: only its own bytes cross
                const reversed = Uint8Array.from(data).reverse();
                const viaBytes = await bridge.call(P, "transform", { label: "L", data, extra: new DataView(big.buffer, 8, n) });
                const viaText = await bridge.call(P, "transform", { label: "L", data: base64(data), extra: base64(data) });
                const sync = bridge.execSync(P, "transformSync", { label: "L", data: Buffer.from(data), extra: data.slice().buffer });
                const ok = [viaBytes, viaText, sync].every((r) =>
                  r.label === "L" && r.count === n && same(r.reversed, reversed) && same(r.parts[0], data) && same(r.parts[1], data));
                const echo = await bridge.call(P, "echo", data);
                const echoSync = bridge.execSync(P, "echoSync", [data]);
                const raw = await bridge.call(P, "raw", { data, raw: { inner: data } });
                const chunks = [];
                await bridge.subscribe(P, "chunks", { data, size: 100000 }, (chunk) => chunks.push(chunk)).done;
                const joined = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
                let at = 0;
                for (const c of chunks) { joined.set(c, at); at += c.length; }
                console.log(n, ok, same(echo, data), same(echoSync, data), raw.inner === base64(data),
                  chunks.every((c) => c instanceof Uint8Array), same(joined, data));
              }
              // The lane's memory belongs to the script: writing to an answer changes only that answer.
              const one = await bridge.call(P, "echo", Uint8Array.of(1, 2, 3));
              one[0] = 9;
              console.log(Array.from(one).join(","), Array.from(await bridge.call(P, "echo", Uint8Array.of(1, 2, 3))).join(","));
              await bridge.call(P, "transform", { label: "x", data: 5 }).catch((e) => console.log(e.code, e.data.issues[0].path));
              // Large buffers are lent, not copied; a resizable one is copied first, so shrinking it is harmless.
              const resizable = new ArrayBuffer(2 << 20, { maxByteLength: 4 << 20 });
              new Uint8Array(resizable).fill(7);
              const pending = bridge.call(P, "echo", resizable);
              resizable.resize(16);
              const lent = await pending;
              console.log(lent.length, lent[(2 << 20) - 1], resizable.byteLength);
            })();
            """#, plugins: [BytesProbePlugin()])
        let sizes = [0, 1, 3, 4, 255, 4096, (1 << 20) + 7]
        #expect(
            result.lines == sizes.map { "\($0) true true true true true true" } + [
                "9,2,3 1,2,3", "INVALID_ARGUMENT data", "\(2 << 20) 7 16",
            ],
            "\(result.stderr)")
        #expect(result.exitCode == 0)
    }
    /// A plugin's event payload takes the lane too: its bytes reach the listener as `Uint8Array`s; the test kit
    /// (plain JSON) sees them as base64.
    @Test func eventPayloadsCarryBytes() async throws {
        let result = await ScriptRunner.run(
            """
            bridge.on("BytesProbe", "blob", (blob) => {
              console.log(blob.label, blob.data instanceof Uint8Array, Array.from(blob.data).join(","), blob.extra);
            });
            bridge.call("BytesProbe", "announce", { label: "x", data: Uint8Array.of(0, 255, 7) });
            """, plugins: [BytesProbePlugin()])
        #expect(result.lines == ["x true 0,255,7 undefined"], "\(result.stderr)")
        let tester = try await PluginTester(BytesProbePlugin())
        _ = try await tester.call("announce", ["label": "y", "data": .string(Data([1, 2]).base64EncodedString())])
        let event = try #require(await tester.events.first { _ in true })
        #expect(event.payload["data"] == .string("AQI="))
    }
}
