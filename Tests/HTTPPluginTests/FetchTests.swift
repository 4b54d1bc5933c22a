import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridgeCore
import JSBridgeTesting
import Testing

/// `fetch()` and friends from JavaScript, against a real server on loopback.
@Suite struct FetchTests {
    static let allowAll = BridgeHost.Options.testing(permissions: Permissions(allowing: .net))

    /// Starts a server with the common routes, runs `script` (with `base` defined) and stops the server.
    func run(
        _ script: String, options: BridgeHost.Options = allowAll, plugin: HTTPPlugin = HTTPPlugin(),
        routes: (TestHTTPServer) -> Void = { _ in }
    ) async throws -> (ScriptResult, TestHTTPServer) {
        let server = try await TestHTTPServer.start()
        server.route("/text") { _ in .text("héllo wörld", headers: [.init("X-Custom", "a"), .init("x-custom", "b")]) }
        server.route("/echo") { request in
            let object: [String: Any] = [
                "method": request.method, "uri": request.uri, "body": request.text,
                "contentType": request.header("content-type") ?? NSNull(),
                "token": request.header("x-token") ?? NSNull(),
            ]
            let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            return .json(String(decoding: data, as: UTF8.self))
        }
        server.route("/raw") { request in .bytes(request.body) }
        server.route("/status") { request in
            let code = Int(request.query?.replacingOccurrences(of: "code=", with: "") ?? "") ?? 500
            return .text("status \(code)", status: code)
        }
        routes(server)
        let result = await ScriptRunner.run(
            "const base = \"\(server.baseURL)\";\n" + script, plugins: [plugin], options: options, timeout: .seconds(30)
        )
        try await server.stop()
        return (result, server)
    }

    /// The HTTP plugin's JavaScript takes its built-ins from the primordials: with `JSON.parse`,
    /// `Promise.prototype.then`, `Array.prototype.push`, `Map.prototype.get` and the rest replaced, `fetch`, its
    /// bodies and headers, and a DAO still work.
    @Test func aScriptThatReplacesBuiltInsDoesNotBreakFetchOrDAOs() async throws {
        let (result, _) = try await run(
            ScriptRunner.replacingBuiltIns + """
                const results = [];
                (async () => {
                  const r = await fetch(base + "/text");
                  results[results.length] = r.status + " " + r.headers.get("x-custom") + " " + (await r.text());
                  const init = { method: "POST", body: '{"a":1}', headers: { "Content-Type": "application/json" } };
                  const e = await (await fetch(base + "/echo?q=1", init)).json();
                  results[results.length] = e.method + " " + e.uri + " " + e.body;
                  const Api = HTTP.dao({ name: "Api", baseURL: base, path: "/echo", params: { q: "query_q" } });
                  results[results.length] = (await Api.send({ q: "x" })).uri;
                  restoreBuiltIns();
                  console.log(results.join(" | "));
                })();
                """)
        #expect(
            result.lines == [#"200 a, b héllo wörld | POST /echo?q=1 {"a":1} | /echo?query_q=x"#], "\(result.stderr)")
    }

    @Test func getText() async throws {
        let (result, _) = try await run(
            """
            (async () => {
              const r = await fetch(base + "/text");
              console.log(r.status, r.statusText, r.ok, r.url === base + "/text", r.redirected, r.type);
              console.log(r.headers.get("X-CUSTOM"), r.headers.get("content-type"), r.headers.has("x-custom"));
              console.log(r.bodyUsed, await r.text(), r.bodyUsed);
              console.log(r instanceof Response, typeof HTTP.fetch, HTTP.Headers === Headers);
            })();
            """)
        #expect(
            result.lines == [
                "200 OK true true false basic", "a, b text/plain; charset=utf-8 true", "false héllo wörld true",
                "true function true",
            ])
        #expect(result.stderr == "")
        #expect(result.exitCode == 0)
    }

    @Test func requestBodies() async throws {
        let (result, server) = try await run(
            """
            (async () => {
              const show = async (init) => console.log(JSON.stringify(await (await fetch(base + "/echo", init)).json()));
              await show({ method: "post", body: JSON.stringify({ a: 1 }), headers: { "Content-Type": "application/json", "X-Token": "t1" } });
              await show({ method: "PUT", body: new URLSearchParams({ q: "a b", n: "1" }) });
              await show({ method: "PATCH", body: "plain" });
              const bytes = new Uint8Array(256).map((_, i) => i);
              for (const body of [bytes, bytes.buffer, new DataView(bytes.buffer, 250), new Uint16Array([0x4241])]) {
                const r = await fetch(base + "/raw", { method: "POST", body });
                console.log(Array.from(new Uint8Array(await r.arrayBuffer())).join(",").slice(0, 24), r.headers.get("content-length"));
              }
            })();
            """)
        #expect(
            result.lines == [
                #"{"body":"{\"a\":1}","contentType":"application/json","method":"POST","token":"t1","uri":"/echo"}"#,
                #"{"body":"q=a+b&n=1","contentType":"application/x-www-form-urlencoded;charset=UTF-8","method":"PUT","token":null,"uri":"/echo"}"#,
                #"{"body":"plain","contentType":"text/plain;charset=UTF-8","method":"PATCH","token":null,"uri":"/echo"}"#,
                "0,1,2,3,4,5,6,7,8,9,10,1 256", "0,1,2,3,4,5,6,7,8,9,10,1 256", "250,251,252,253,254,255 6", "65,66 2",
            ])
        #expect(result.stderr == "")
        #expect(server.requests.filter { $0.path == "/raw" }.map(\.body.count) == [256, 256, 6, 2])
    }

    @Test func binaryAndTextResponses() async throws {
        let (result, _) = try await run(
            """
            (async () => {
              const r = await fetch(base + "/bin");
              const c = r.clone();
              const bytes = new Uint8Array(await r.arrayBuffer());
              console.log(bytes.length, bytes[0], bytes[1], bytes[299]);
              console.log((await c.bytes()).length, c.bodyUsed);
              const t = await fetch(base + "/text");
              console.log(Array.from(new Uint8Array(await t.arrayBuffer())).length);
            })();
            """,
            routes: { server in server.route("/bin") { _ in .bytes((0..<300).map { UInt8(($0 * 7 + 0xff) % 256) }) } })
        #expect(result.lines == ["300 255 6 44", "300 true", "13"])
        #expect(result.stderr == "")
    }

    @Test func statusErrorsResolve() async throws {
        let (result, _) = try await run(
            """
            (async () => {
              for (const code of [404, 500, 503]) {
                const r = await fetch(base + "/status?code=" + code);
                console.log(r.status, r.ok, r.statusText, await r.text());
              }
              const missing = await fetch(base + "/nowhere");
              console.log(missing.status);
            })();
            """)
        #expect(
            result.lines == [
                "404 false Not Found status 404", "500 false Internal Server Error status 500",
                "503 false Service Unavailable status 503", "404",
            ])
    }

    @Test func jsonAndBodyRules() async throws {
        let (result, _) = try await run(
            """
            (async () => {
              const good = await fetch(base + "/good");
              console.log(JSON.stringify(await good.json()));
              try { await good.text(); } catch (e) { console.log(e.constructor.name, e.message); }
              try { good.clone(); } catch (e) { console.log(e.constructor.name); }
              const bad = await fetch(base + "/bad");
              try { await bad.json(); } catch (e) { console.log(e.constructor.name, e instanceof SyntaxError); }
              const local = Response.json({ x: [1, 2] }, { status: 201, headers: { "X-A": "1" } });
              console.log(local.status, local.headers.get("content-type"), await local.text());
              const made = new Response(new Uint8Array([104, 105]), { status: 418, statusText: "Teapot" });
              console.log(made.status, made.statusText, made.ok, await made.clone().text(), await made.text());
              try { new Response("x", { status: 204 }); } catch (e) { console.log(e.constructor.name); }
              try { new Response(null, { status: 99 }); } catch (e) { console.log(e.constructor.name); }
              console.log(Response.error().type, Response.error().status, Response.redirect(base + "/a", 301).headers.get("location") === base + "/a");
              console.log(await new Response().text() === "", (await new Response(null).arrayBuffer()).byteLength);
            })();
            """,
            routes: { server in
                server.route("/good") { _ in .json(#"{"a":[1,true,null]}"#) }
                server.route("/bad") { _ in .json(#"{"a": [1, "#) }
            })
        #expect(
            result.lines == [
                #"{"a":[1,true,null]}"#, "TypeError Body is unusable: Body has already been read", "TypeError",
                "SyntaxError true", #"201 application/json {"x":[1,2]}"#, "418 Teapot false hi hi", "TypeError",
                "RangeError", "error 0 true", "true 0",
            ])
        #expect(result.stderr == "")
    }

    @Test func headersBehaveLikeWHATWG() async throws {
        let (result, _) = try await run(
            """
            const h = new Headers({ "Content-Type": "text/plain", "X-B": "2" });
            h.append("x-a", " 1 ");
            h.append("X-A", "3");
            h.append("Set-Cookie", "a=1");
            h.append("set-cookie", "b=2");
            console.log(h.get("x-a"), h.get("CONTENT-TYPE"), h.has("x-b"), h.has("nope"), h.get("nope"));
            console.log(JSON.stringify([...h]));
            console.log(JSON.stringify(h.getSetCookie()), [...h.keys()].join("|"), [...h.values()].length);
            h.set("X-A", "only"); h.delete("x-b");
            const seen = []; h.forEach((v, k, self) => seen.push(k + "=" + v + (self === h)));
            console.log(seen.join(" "));
            const copy = new Headers(h); copy.set("x-a", "changed");
            console.log(h.get("x-a"), new Headers([["k", "v"]]).get("K"), Object.prototype.toString.call(h));
            const notHeaders = [() => Headers.prototype.get.call({}, "a"), () => Object.create(Headers.prototype).has("a"), () => Headers.prototype.append.call(null, "a", "b")];
            for (const bad of [() => h.append("bad name", "x"), () => h.set("x", "a\\nb"), () => new Headers([["one"]]), () => new Headers(5), ...notHeaders]) {
              try { bad(); } catch (e) { console.log(e.constructor.name); }
            }
            fetch(base + "/text").then((r) => { try { r.headers.set("x", "y"); } catch (e) { console.log("immutable", e.constructor.name); } });
            """)
        #expect(
            result.lines == [
                "1, 3 text/plain true false null",
                #"[["content-type","text/plain"],["set-cookie","a=1"],["set-cookie","b=2"],["x-a","1, 3"],["x-b","2"]]"#,
                #"["a=1","b=2"] content-type|set-cookie|set-cookie|x-a|x-b 5"#,
                "content-type=text/plaintrue set-cookie=a=1true set-cookie=b=2true x-a=onlytrue",
                "only v [object Headers]", "TypeError", "TypeError", "TypeError", "TypeError", "TypeError", "TypeError",
                "TypeError", "immutable TypeError",
            ])
        #expect(result.stderr == "")
    }

    @Test func requestObjects() async throws {
        let (result, server) = try await run(
            """
            (async () => {
              const req = new Request(base + "/echo?x=1", { method: "delete", headers: [["X-Token", "r"]] });
              console.log(req.method, req.url === base + "/echo?x=1", req.redirect, req.headers.get("x-token"), req.signal.aborted);
              console.log((await (await fetch(req)).json()).method);
              const post = new Request(base + "/echo", { method: "POST", body: "payload" });
              const copy = post.clone();
              console.log(await copy.text(), post.bodyUsed);
              const viaInit = await fetch(post, { headers: { "X-Token": "override" } });
              console.log(JSON.stringify(await viaInit.json()));
              for (const bad of [() => new Request(base, { method: "GET", body: "x" }), () => new Request("relative/path"),
                                 () => new Request(base, { redirect: "sometimes" }), () => new Request(base, { method: "TRACE" })]) {
                try { bad(); } catch (e) { console.log(e.constructor.name); }
              }
              await fetch("not a url").catch((e) => console.log("rejects", e.constructor.name));
            })();
            """)
        #expect(
            result.lines == [
                "DELETE true follow r false", "DELETE", "payload false",
                #"{"body":"payload","contentType":null,"method":"POST","token":"override","uri":"/echo"}"#,
                "TypeError", "TypeError", "TypeError", "TypeError", "rejects TypeError",
            ])
        #expect(result.stderr == "")
        #expect(server.requests.map(\.uri) == ["/echo?x=1", "/echo"])
    }

    @Test func permissionDeniedWithoutAllowNet() async throws {
        let (result, server) = try await run(
            """
            fetch(base + "/text").catch((e) => console.log(e.constructor.name, e.code, e.message));
            """,
            options: .testing())
        #expect(result.lines.count == 1)
        #expect(result.lines.first?.hasPrefix("BridgeError PERMISSION_DENIED Network access to 127.0.0.1:") == true)
        #expect(server.requests.isEmpty)
    }

    @Test func hostAllowList() async throws {
        // The allow-list names the server's host and port (found after start: routed through a script argument).
        let server = try await TestHTTPServer.start()
        server.route("/ok") { _ in .text("ok") }
        let options = BridgeHost.Options.testing(
            permissions: Permissions(["net": .scopes(["127.0.0.1:\(server.port)", "localhost:1"])]))
        let result = await ScriptRunner.run(
            """
            (async () => {
              console.log(await (await fetch("\(server.url("/ok"))")).text());
              await fetch("http://127.0.0.1:1/").catch((e) => console.log(e.code));
              await fetch("http://localhost:\(server.port)/ok").catch((e) => console.log(e.code));
            })();
            """, plugins: [HTTPPlugin()], options: options)
        try await server.stop()
        #expect(result.lines == ["ok", "PERMISSION_DENIED", "PERMISSION_DENIED"])
        #expect(server.requests.count == 1)
    }

    @Test func redirects() async throws {
        let (result, server) = try await run(
            """
            (async () => {
              const r = await fetch(base + "/r1");
              console.log(r.status, r.redirected, r.url === base + "/text", await r.text());
              const posted = await fetch(base + "/see-other", { method: "POST", body: "x" });
              console.log(JSON.stringify(await posted.json()));
              const manual = await fetch(base + "/r1", { redirect: "manual" });
              console.log(manual.status, manual.redirected, manual.headers.get("location"));
              await fetch(base + "/r1", { redirect: "error" }).catch((e) => console.log(e.constructor.name, e.cause.code, e.cause.data.kind));
              await fetch(base + "/loop").catch((e) => console.log(e.constructor.name, e.code));
              await fetch(base + "/elsewhere").catch((e) => console.log(e.code));
            })();
            """,
            options: .testing(permissions: Permissions(["net": .scopes(["127.0.0.1"])])),
            routes: { server in
                server.route("/r1") { _ in .redirect(to: "/r2", status: 301) }
                server.route("/r2") { _ in .redirect(to: "/text", status: 307) }
                server.route("/see-other") { _ in .redirect(to: "/echo", status: 303) }
                server.route("/loop") { _ in .redirect(to: "/loop") }
                server.route("/elsewhere") { _ in .redirect(to: "http://example.invalid/x") }
            })
        #expect(
            result.lines == [
                "200 true true héllo wörld",
                #"{"body":"","contentType":null,"method":"GET","token":null,"uri":"/echo"}"#,
                "301 false /r2", "TypeError NETWORK_ERROR redirect", "TypeError NETWORK_ERROR", "PERMISSION_DENIED",
            ])
        #expect(result.stderr == "")
        #expect(server.requests.filter { $0.path == "/loop" }.count == 21)
    }

    @Test func abortsAndTimeouts() async throws {
        let (result, server) = try await run(
            """
            (async () => {
              const controller = new AbortController();
              setTimeout(() => controller.abort(), 300);
              await fetch(base + "/slow", { signal: controller.signal })
                .catch((e) => console.log(e.name, e instanceof DOMException));
              await fetch(base + "/slow", { signal: AbortSignal.timeout(300) }).catch((e) => console.log(e.name));
              const reason = new Error("mine");
              const c2 = new AbortController();
              setTimeout(() => c2.abort(reason), 300);
              await fetch(base + "/slow", { signal: AbortSignal.any([c2.signal]) }).catch((e) => console.log(e === reason));
              await fetch(base + "/text", { signal: AbortSignal.abort() }).catch((e) => console.log("pre", e.name));
              const c3 = new AbortController();
              await fetch(base + "/trickle", { signal: c3.signal })
                .then((r) => { setTimeout(() => c3.abort(), 200); return r.text(); })
                .catch((e) => console.log("mid-body", e.name));
              console.log("pending", bridge.pendingCalls);
            })();
            """,
            routes: { server in
                // Neither answers within the test, so only an abort can end those fetches.
                server.route("/slow") { _ in .text("late", delay: .seconds(3600)) }
                server.route("/trickle") { _ in
                    TestHTTPServer.Response(
                        body: .chunked([(.zero, Array("x".utf8)), (.seconds(3600), Array("y".utf8))]))
                }
            })
        #expect(
            result.lines == [
                "AbortError true", "TimeoutError", "true", "pre AbortError", "mid-body AbortError", "pending 0",
            ])
        #expect(result.stderr == "")
        // An aborted request may or may not have reached the server (that races the abort); a pre-aborted one never does.
        #expect(!server.requests.contains { $0.path == "/text" })
        #expect(server.requests.filter { $0.path == "/trickle" }.count == 1)
    }

    @Test func abortCancelsTheNativeRequest() async throws {
        let cancelled = Locked(false)
        let transport = RecordingHTTPTransport { _ in
            do {
                try await Task.sleep(for: .seconds(3600))  // only the abort can end the request
            } catch {
                cancelled.withLock { $0 = true }
                throw error
            }
            return HTTPTransportResponse(status: 200)
        }
        let result = await ScriptRunner.run(
            """
            const c = new AbortController();
            setTimeout(() => c.abort(), 1000);
            fetch("http://a.test/", { signal: c.signal }).catch((e) => console.log(e.name));
            """, plugins: [HTTPPlugin(transport: transport)], options: Self.allowAll, timeout: .seconds(10))
        #expect(result.lines == ["AbortError"])
        #expect(result.exitCode == 0)
        // Normally the request reached the transport before the abort; then the abort cancelled it there.
        // (On a starved machine the abort can win the race, and nothing reaches the transport at all.)
        #expect(transport.requests.count <= 1)
        if transport.requests.count == 1 {
            #expect(await eventually { cancelled.withLock { $0 } })
        }
    }

    @Test func networkFailuresRejectWithTypeError() async throws {
        let (result, _) = try await run(
            """
            (async () => {
              // The head arrives before the reset: the body's reader gets the error.
              await fetch(base + "/reset").then((r) => r.text()).catch((e) => console.log(e.constructor.name, e.cause instanceof BridgeError, e.cause.code, e.cause.data.kind));
              await fetch("http://127.0.0.1:1/").catch((e) => console.log(e.constructor.name, e.code, e.cause.data.kind));
            })();
            """,
            routes: { server in server.route("/reset") { _ in .reset(contentLength: 100_000, sending: "only this") } })
        #expect(result.lines == ["TypeError true NETWORK_ERROR reset", "TypeError NETWORK_ERROR connect"])
        #expect(result.stderr == "")
    }

    /// Response heads are bounded (docs/limits.md): one field or all fields over 80 KiB, or too many fields,
    /// end the request with a network error of kind "protocol"; a head just under the bound is read.
    @Test func oversizedResponseHeadersAreRefused() async throws {
        let (result, _) = try await run(
            """
            (async () => {
              for (const path of ["/field", "/total", "/fits"]) {
                await fetch(base + path).then(
                  (r) => console.log(path, r.status, r.headers.get("x-a").length),
                  (e) => console.log(path, e.constructor.name, e.cause.code, e.cause.data.kind, /too large/.test(e.cause.message)));
              }
            })();
            """,
            routes: { server in
                let big = String(repeating: "v", count: 90 * 1024)
                let part = String(repeating: "v", count: 30 * 1024)
                server.route("/field") { _ in .text("x", headers: [.init("X-A", big)]) }
                server.route("/total") { _ in
                    .text("x", headers: [.init("X-A", part), .init("X-B", part), .init("X-C", part)])
                }
                server.route("/fits") { _ in
                    .text("x", headers: [.init("X-A", String(repeating: "v", count: 70 * 1024))])
                }
            })
        #expect(
            result.lines == [
                "/field TypeError NETWORK_ERROR protocol true", "/total TypeError NETWORK_ERROR protocol true",
                "/fits 200 \(70 * 1024)",
            ], "\(result.stderr)")
    }

    @Test func globalsNeedThePlugin() async throws {
        let result = await ScriptRunner.run("console.log(typeof fetch, typeof Headers, typeof HTTP)")
        #expect(result.lines == ["undefined undefined undefined"])
    }
}
