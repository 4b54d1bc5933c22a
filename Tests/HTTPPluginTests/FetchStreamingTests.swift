import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridgeCore
import JSBridgeTesting
import Testing

/// Streamed bodies in `fetch` (docs/http.md, "Streaming bodies"): a response body read as it arrives, with
/// back-pressure, cancellation and errors; a `ReadableStream` request body sent chunked. Against a real server
/// on loopback. (The memory bounds of large bodies are measured on the binary: CLITests'
/// FetchStreamingMemoryTests.)
@Suite struct FetchStreamingTests {
    static let allowAll = BridgeHost.Options.testing(permissions: Permissions(allowing: .net))

    /// Runs `script` (with `base` and `pattern(offset)`, the generated bodies' byte, defined) against a server
    /// with `routes`; returns the result and the stopped server.
    func run(
        _ script: String, options: BridgeHost.Options = allowAll, routes: (TestHTTPServer) -> Void
    ) async throws -> (ScriptResult, TestHTTPServer) {
        let server = try await TestHTTPServer.start()
        // How many connections are open: 1 (this request's own) once every earlier one was closed; a request
        // that ended normally would have left its connection open for reuse.
        server.route("/open-connections") { [unowned server] _ in
            .text("\(server.connectionsAccepted - server.connectionsClosed)")
        }
        routes(server)
        let result = await ScriptRunner.run(
            "const base = \"\(server.baseURL)\";\nconst pattern = (offset) => offset % 251;\n" + script,
            plugins: [HTTPPlugin()],
            options: options,
            timeout: .seconds(60))
        try await server.stop()
        return (result, server)
    }

    /// `fetch` resolves with the head, and the reader gets the first chunk while the server still holds the
    /// rest; `text()` of a body arriving in pieces reads it whole.
    @Test func chunksArriveBeforeTheBodyEnds() async throws {
        let (result, _) = try await run(
            """
            (async () => {
              const r = await fetch(base + "/held");
              const reader = r.body.getReader();
              const first = await reader.read();
              console.log(new TextDecoder().decode(first.value), first.done, r.bodyUsed);
              await reader.cancel();
              const whole = await fetch(base + "/pieces");
              console.log(await whole.text(), whole.bodyUsed, bridge.pendingCalls);
            })();
            """,
            routes: { server in
                server.route("/held") { _ in
                    TestHTTPServer.Response(
                        body: .chunked([
                            // The second chunk never comes within the test: the first must arrive without it.
                            (.zero, Array("first".utf8)), (.seconds(3600), Array("second".utf8)),
                        ]))
                }
                server.route("/pieces") { _ in .chunked(["a", "b", "c"], interval: .milliseconds(50)) }
            })
        #expect(result.lines == ["first false true", "abc true 0"], "\(result.stderr)")
        #expect(result.exitCode == 0)
    }

    /// Back-pressure: a reader that stops reading stops the network reads (the server can send only what the
    /// buffers hold); cancelling the reader, or the body, cancels the request (the server sees its connection
    /// closed) and no call stays pending.
    @Test func cancellingTheReaderCancelsTheRequest() async throws {
        let (result, server) = try await run(
            """
            (async () => {
              const r = await fetch(base + "/big");
              const reader = r.body.getReader();
              const first = await reader.read();
              await new Promise((resolve) => setTimeout(resolve, 500));
              await reader.cancel();
              console.log(first.value.length > 0, r.bodyUsed, bridge.pendingCalls);
              const again = await fetch(base + "/big");
              await again.body.cancel();
              console.log(again.bodyUsed, bridge.pendingCalls);
              // The server sees the cancelled connections close when it sees them: asked until only this one is open.
              let open;
              while ((open = await (await fetch(base + "/open-connections")).text()) !== "1") {
                await new Promise((resolve) => setTimeout(resolve, 20));
              }
              console.log(open);
            })();
            """,
            routes: { server in server.route("/big") { _ in .generated(length: 1 << 30) } })
        #expect(result.lines == ["true true 0", "true 0", "1"], "\(result.stderr)")
        // Far less than the 2 GiB asked for: what the buffers between the two ends hold.
        #expect(server.generatedBytesSent < 64 << 20, "sent \(server.generatedBytesSent)")
    }

    /// Aborting the fetch's signal mid-body errors a pending read, and a pending `text()`, with the AbortError,
    /// and cancels the request.
    @Test func abortingMidBodyErrorsTheReader() async throws {
        let (result, _) = try await run(
            """
            (async () => {
              const controller = new AbortController();
              const r = await fetch(base + "/held", { signal: controller.signal });
              const reader = r.body.getReader();
              await reader.read();
              const pending = reader.read();
              setTimeout(() => controller.abort(), 50);
              await pending.catch((e) => console.log(e.name, e instanceof DOMException));
              await reader.read().catch((e) => console.log(e.name));
              const other = new AbortController();
              const whole = await fetch(base + "/held", { signal: other.signal });
              setTimeout(() => other.abort(), 50);
              await whole.text().catch((e) => console.log(e.name, bridge.pendingCalls));
              // Both requests were aborted mid-body, so their connections close. The server sees that when it
              // sees it: asked until only this request's connection is open.
              let open;
              while ((open = await (await fetch(base + "/open-connections")).text()) !== "1") {
                await new Promise((resolve) => setTimeout(resolve, 20));
              }
              console.log(open);
              // The timeout may come before the head or during the body: a TimeoutError either way.
              await fetch(base + "/held", { signal: AbortSignal.timeout(300) })
                .then((timed) => timed.arrayBuffer())
                .catch((e) => console.log(e.name));
            })();
            """,
            routes: { server in
                server.route("/held") { _ in
                    // The rest never comes within the test: only the aborts end these bodies.
                    TestHTTPServer.Response(
                        body: .chunked([(.zero, Array("first".utf8)), (.seconds(3600), Array("second".utf8))]))
                }
            })
        #expect(
            result.lines == ["AbortError true", "AbortError", "AbortError 0", "1", "TimeoutError"], "\(result.stderr)"
        )
        #expect(result.exitCode == 0)
    }

    /// A connection reset mid-body errors the stream (and `text()`) with fetch's TypeError, its cause the
    /// NETWORK_ERROR of kind `reset`; the bytes before the reset are read first.
    @Test func aResetMidBodyErrorsTheStream() async throws {
        let (result, _) = try await run(
            """
            (async () => {
              const r = await fetch(base + "/reset");
              const reader = r.body.getReader();
              const first = await reader.read();
              console.log(new TextDecoder().decode(first.value));
              await reader.read().catch((e) => console.log(e.constructor.name, e.cause.code, e.cause.data.kind, e.code));
              const again = await fetch(base + "/reset");
              await again.text().catch((e) => console.log(e.constructor.name, e.cause.code, e.cause.data.kind));
            })();
            """,
            routes: { server in server.route("/reset") { _ in .reset(contentLength: 100_000, sending: "only this") } })
        #expect(
            result.lines == [
                "only this", "TypeError NETWORK_ERROR reset NETWORK_ERROR", "TypeError NETWORK_ERROR reset",
            ],
            "\(result.stderr)")
        #expect(result.exitCode == 0)
    }

    /// `maxBodyBytes` bounds a body read whole (`text()` rejects with BODY_TOO_LARGE), not one read through
    /// its stream, even when all of it came with the head.
    @Test func theBodyLimitAppliesToBodiesReadWhole() async throws {
        let (result, _) = try await run(
            """
            (async () => {
              const whole = await fetch(base + "/big");
              await whole.text().catch((e) => console.log(e.constructor.name, e.cause.code, e.cause.data.url === base + "/big"));
              for (const path of ["/big", "/fixed"]) {
                let total = 0;
                for await (const chunk of (await fetch(base + path)).body) total += chunk.length;
                console.log(total);
              }
              await (await fetch(base + "/fixed")).text().catch((e) => console.log(e.constructor.name, e.cause.code));
            })();
            """,
            options: .testing(
                configuration: ["HTTP": ["maxBodyBytes": 100_000]], permissions: Permissions(allowing: .net)),
            routes: { server in
                server.route("/fixed") { _ in .bytes(Array(repeating: 120, count: 200_000)) }
                server.route("/big") { _ in .chunked(Array(repeating: String(repeating: "x", count: 50_000), count: 4))
                }
            })
        #expect(
            result.lines == ["TypeError BODY_TOO_LARGE true", "200000", "200000", "TypeError BODY_TOO_LARGE"],
            "\(result.stderr)")
        #expect(result.exitCode == 0)
    }

    /// A transport whose response body gives "ab", then waits; cancelled, its body ends quietly (as a
    /// transport may end a stream whose request it dropped), which must not read as the body's end.
    /// `pulls` fires as each read of the body begins.
    static func quietlyEndingTransport(pulls: TestSignal? = nil) -> RecordingHTTPTransport {
        RecordingHTTPTransport { _ in
            let body = HTTPResponseBody {
                let sent = Locked(false)
                return {
                    pulls?.fire()
                    let first = sent.withLock { sent in
                        defer { sent = true }
                        return !sent
                    }
                    if first { return Array("ab".utf8) }
                    try? await Task.sleep(for: .seconds(30))
                    return nil
                }
            }
            return HTTPTransportResponse(status: 200, body: body)
        }
    }

    /// An abort while `text()` reads the rest of the body rejects with the abort, never with what had arrived.
    @Test func anAbortDuringAWholeReadRejectsIt() async {
        let result = await ScriptRunner.run(
            """
            const c = new AbortController();
            fetch("http://a.test/", { signal: c.signal })
              .then((r) => { setTimeout(() => c.abort(), 100); return r.text(); })
              .then((t) => console.log("resolved", JSON.stringify(t)), (e) => console.log("rejected", e.name));
            """, plugins: [HTTPPlugin(transport: Self.quietlyEndingTransport())], options: Self.allowAll)
        #expect(result.lines == ["rejected AbortError"], "\(result.stderr)")
    }

    /// `bodyCancel` during a `bodyRead` (of the next chunk, or `all` of the rest) makes that read `CANCELLED`,
    /// not the end of the body.
    @Test(arguments: [false, true])
    func aCancelledBodyReadIsCancelledNotDone(all: Bool) async throws {
        let pulls = TestSignal()
        let tester = try await PluginTester(
            HTTPPlugin(transport: Self.quietlyEndingTransport(pulls: pulls)), options: Self.allowAll)
        let head = try await tester.call("request", ["url": "http://a.test/", "stream": true])
        let id = try #require(head["bodyId"])
        if !all {
            #expect(try await tester.call("bodyRead", ["id": id])["done"] == false)  // "ab"; the next read waits
        }
        let read = Task { try await tester.call("bodyRead", ["id": id, "all": .bool(all)]) }
        await pulls.wait(count: 2)  // the read is waiting for the bytes after "ab" (bodies are never read ahead)
        _ = try tester.callSync("bodyCancel", ["id": id])
        let error = await #expect(throws: BridgeError.self) { try await read.value }
        #expect(error?.code == "CANCELLED")
        await tester.shutdown()
    }

    /// A ReadableStream body goes out chunked (no Content-Length) with every byte; a Request made with one can
    /// be fetched; without `duplex: "half"` it is a TypeError, and so is a chunk that is not a Uint8Array.
    @Test func aStreamBodyIsSentChunked() async throws {
        let blockLength = 251 * 256
        let count = 128
        let (result, _) = try await run(
            """
            const block = new Uint8Array(\(blockLength));
            for (let i = 0; i < block.length; i++) block[i] = pattern(i);
            const source = (chunks) => {
              let sent = 0;
              return new ReadableStream({
                pull(controller) {
                  if (sent === chunks.length) return controller.close();
                  controller.enqueue(chunks[sent++]);
                },
              });
            };
            (async () => {
              const blocks = Array.from({ length: \(count) }, () => block);
              const r = await fetch(base + "/upload", { method: "POST", body: source(blocks), duplex: "half" });
              console.log(r.status, await r.text());
              const request = new Request(base + "/upload", { method: "PUT", body: source([new TextEncoder().encode("hi")]), duplex: "half" });
              console.log(await (await fetch(request)).text());
              try { new Request(base + "/upload", { method: "POST", body: source([]) }); } catch (e) { console.log(e.constructor.name); }
              await fetch(base + "/upload", { method: "POST", body: source([]) }).catch((e) => console.log(e.constructor.name));
              await fetch(base + "/upload", { method: "POST", body: source(["text"]), duplex: "half" })
                .catch((e) => console.log(e.constructor.name, bridge.pendingCalls));
              const init = () => ({ method: "POST", body: source([block]), duplex: "half" });
              await fetch(base + "/again?code=307", init()).catch((e) => console.log(e.constructor.name, e.cause.data.kind));
              const seeOther = await fetch(base + "/again?code=303", init());
              console.log(seeOther.status, seeOther.redirected, (await seeOther.json()).length);
            })();
            """,
            routes: { server in
                server.route("/again") { request in
                    .redirect(to: "/upload", status: Int(request.query?.dropFirst("code=".count) ?? "") ?? 307)
                }
                server.route("/upload") { request in
                    .json(
                        "{\"te\":\"\(request.header("transfer-encoding") ?? "")\","
                            + "\"cl\":\(request.header("content-length") ?? "null"),\"length\":\(request.bodyLength),"
                            + "\"hash\":\"\(String(request.bodyHash, radix: 16))\"}")
                }
            })
        var block: [UInt8] = (0..<blockLength).map { UInt8($0 % 251) }
        var hash = TestHTTPServer.fnv1a([])
        for _ in 0..<count { hash = TestHTTPServer.fnv1a(block, continuing: hash) }
        block = Array("hi".utf8)
        let expected = [
            "200 {\"te\":\"chunked\",\"cl\":null,\"length\":\(blockLength * count),\"hash\":\"\(String(hash, radix: 16))\"}",
            "{\"te\":\"chunked\",\"cl\":null,\"length\":2,\"hash\":\"\(String(TestHTTPServer.fnv1a(block), radix: 16))\"}",
            "TypeError", "TypeError", "TypeError 0", "TypeError redirect", "200 true 0",
        ]
        #expect(result.lines == expected, "\(result.stderr)")
        #expect(result.exitCode == 0)
    }
}
