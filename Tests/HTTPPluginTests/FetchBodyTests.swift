import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridgeCore
import JSBridgeTesting
import Testing

/// Blob, File and FormData bodies, `data:` URLs and the Fetch standard's Headers/Request/Response details,
/// against a real server on loopback (docs/http.md).
@Suite struct FetchBodyTests {
    static let allowAll = BridgeHost.Options.testing(permissions: Permissions(allowing: .net))

    /// Runs `script` (with `base` defined) against a server that echoes what it received.
    func run(_ script: String) async throws -> (ScriptResult, TestHTTPServer) {
        let server = try await TestHTTPServer.start()
        server.route("/raw") { request in
            .bytes(request.body, headers: [.init("Content-Type", request.header("content-type") ?? "none")])
        }
        server.route("/form") { _ in
            .text(
                "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\none\r\n"
                    + "--XyZ\r\nContent-Disposition: form-data; name=\"f\"; filename=\"n.txt\"\r\n"
                    + "Content-Type: text/x-note\r\n\r\nfile body\r\n--XyZ--\r\n",
                headers: [.init("Content-Type", "multipart/form-data; boundary=XyZ")])
        }
        let result = await ScriptRunner.run(
            "const base = \"\(server.baseURL)\";\n" + script, plugins: [HTTPPlugin()],
            options: Self.allowAll,
            timeout: .seconds(30))
        try await server.stop()
        return (result, server)
    }

    @Test func blobAndFile() async throws {
        let (result, _) = try await run(
            """
            (async () => {
              const b = new Blob(["ab", new Uint8Array([99]), new Blob(["d"])], { type: "Text/Plain" });
              console.log(b.size, b.type, await b.text(), await b.slice(-2).text(), b.slice(1, 3, "X/Y").type);
              console.log(JSON.stringify(b.slice(0, 1, "\\u00e9").type), b.slice(3, 1).size, b.slice(-100, 100).size);
              console.log(Array.from(await b.bytes()).join(","), (await b.arrayBuffer()).byteLength);
              const f = new File(["x"], "a.txt", { lastModified: 42, type: "A/B" });
              console.log(f.name, f.lastModified, f.type, f instanceof Blob, Object.prototype.toString.call(f));
              for (const bad of [() => new Blob(null), () => new Blob([], { endings: "bad" }), () => new Blob(5), () => new File([])]) {
                try { bad(); console.log("no error"); } catch (e) { console.log(e.constructor.name); }
              }
              console.log(JSON.stringify(await new Blob(["a\\r\\nb\\rc"], { endings: "native" }).text()));
              console.log(await new Blob(["\\ud800"]).text() === "\\ufffd", new Blob(["\\u00e9"]).size);
            })();
            """)
        #expect(
            result.lines == [
                "4 text/plain abcd cd x/y", "\"\" 0 4", "97,98,99,100 4", "a.txt 42 a/b true [object File]",
                "TypeError", "TypeError", "TypeError", "TypeError", "\"a\\nb\\nc\"", "true 2",
            ])
        #expect(result.exitCode == 0)
    }

    @Test func formDataEntries() async throws {
        let (result, _) = try await run(
            """
            const fd = new FormData();
            fd.append("a", "1");
            fd.append("b", new Blob(["zz"], { type: "text/x" }));
            fd.append("c", new Blob(["q"]), "q.bin");
            fd.append("a", "3");
            fd.set("a", "2");
            console.log([...fd.keys()].join(","), fd.get("b").name, fd.get("c").name, fd.getAll("a").join(","));
            console.log(fd.get("b") instanceof File, fd.has("c"), fd.get("zz"), Object.prototype.toString.call(fd.entries()));
            const seen = [];
            for (const [name] of fd) { seen.push(name); if (name === "a") fd.append("d", "later"); }
            console.log(seen.join(","));
            fd.delete("d");
            fd.forEach((value, name) => console.log(name, typeof value));
            for (const bad of [() => fd.append("x", "y", "name"), () => fd.append("x"), () => new FormData({})]) {
              try { bad(); console.log("no error"); } catch (e) { console.log(e.constructor.name); }
            }
            console.log(FormData.prototype.append.length, FormData.prototype.set.length, File.length, Blob.length, Request.length, Response.length);
            """)
        #expect(
            result.lines == [
                "a,b,c blob q.bin 2", "true true null [object FormData Iterator]", "a,b,c,d", "a string",
                "b object", "c object", "TypeError", "TypeError", "TypeError", "2 2 2 0 1 0",
            ])
        #expect(result.exitCode == 0)
    }

    /// `formData()` of multipart bodies: what the parser accepts (transport padding, an epilogue, a missing or
    /// empty Content-Type) and what it rejects as malformed (a preamble, data after the close delimiter, a
    /// header name that is not a token, a bare CR or LF in a header line, an empty boundary).
    @Test func multipartParsingAcceptsAndRejects() async throws {
        let (result, _) = try await run(
            #"""
            const part = 'Content-Disposition: form-data; name="a"';
            const body = (...lines) => lines.join("\r\n");
            const parse = (text, type = "multipart/form-data; boundary=b") =>
              new Response(text, { headers: { "Content-Type": type } }).formData()
                .then((fd) => [...fd].map(([k, v]) => typeof v === "string" ? `${k}=${v}` : `${k}:${v.name}:${JSON.stringify(v.type)}`).join(","))
                .catch((e) => e.constructor.name);
            const cases = [
              body("--b \t", part, "", "v", "--b-- \t", "epilogue", "more"),
              body("--b", 'Content-Disposition: form-data; name="f"; filename="x"', "", "v", "--b--  "),
              body("--b", 'Content-Disposition: form-data; name="f"; filename="x"', "Content-Type:", "", "v", "--b--", ""),
              body("preamble", "--b", part, "", "v", "--b--", ""),
              body("--b", part, "", "v", "--b--junk", ""),
              body("--b", part, "Cont ent-Type: text/plain", "", "v", "--b--", ""),
              body("--b", 'Content-Disposition: form-data; name="a\nb"', "", "v", "--b--", ""),
              body("--b", 'Content-Disposition: form-data; name="a\rb"', "", "v", "--b--", ""),
              // HTML's encoding leaves a backslash as it is, so it is not an escape (found by scripts/fuzz-multipart.js).
              body("--b", 'Content-Disposition: form-data; name="a\\"; filename="\\x"', "", "v", "--b--", ""),
            ];
            (async () => {
              for (const text of cases) console.log(await parse(text));
              console.log(await parse(body("--", part, "", "v", "----", ""), "multipart/form-data; boundary="));
              // A part's Content-Type is read as Fetch extracts a MIME type; a parsed file has lastModified 0.
              const types = [];
              for (const type of ["text/html, text/plain", "text", 'TEXT/HTML;;x="y"', '*/*, a/b;q=",", */*']) {
                const fd = await new Response(body("--b", 'Content-Disposition: form-data; name="f"; filename="x"', "Content-Type: " + type, "", "v", "--b--", ""),
                  { headers: { "Content-Type": "multipart/form-data; boundary=b" } }).formData();
                types.push(JSON.stringify(fd.get("f").type), fd.get("f").lastModified);
              }
              console.log(types.join(" "));
            })();
            """#)
        #expect(
            result.lines == [
                "a=v", #"f:x:"text/plain""#, #"f:x:"""#, "TypeError", "TypeError", "TypeError", "TypeError",
                "TypeError", #"a\:\x:"text/plain""#, "TypeError",
                #""text/plain" 0 "" 0 "text/html;x=y" 0 "a/b;q=\",\"" 0"#,
            ])
        #expect(result.exitCode == 0)
    }

    /// A FormData body goes out as multipart/form-data (names escaped, newlines normalised) and comes back
    /// through `formData()` unchanged.
    @Test func formDataRoundTripOverHTTP() async throws {
        let (result, server) = try await run(
            """
            (async () => {
              const fd = new FormData();
              fd.append("line\\nname\\"q", "x\\ny\\rz");
              fd.append("file", new File(["bytes\\n"], "a\\"b.txt", { type: "text/plain" }));
              const r = await fetch(base + "/raw", { method: "POST", body: fd });
              console.log(r.headers.get("content-type").startsWith("multipart/form-data; boundary="));
              const back = await r.formData();
              for (const [name, value] of back) {
                console.log(JSON.stringify(name), typeof value === "string" ? JSON.stringify(value) : [value.name, value.type, await value.text()].join("|"));
              }
              const parsed = await (await fetch(base + "/form")).formData();
              console.log(parsed.get("a"), parsed.get("f").name, parsed.get("f").type, await parsed.get("f").text());
              const url = await new Response("a=1&b=%20x&a=2", { headers: { "content-type": "application/x-www-form-urlencoded" } }).formData();
              console.log(JSON.stringify([...url]));
              for (const type of [null, "text/plain", "multipart/form-data"]) {
                try { await new Response("x", type === null ? {} : { headers: { "content-type": type } }).formData(); console.log("no error"); }
                catch (e) { console.log(e.constructor.name); }
              }
            })();
            """)
        #expect(
            result.lines
                == [
                    "true", "\"line%0D%0Aname%22q\" \"x\\r\\ny\\r\\nz\"", "\"file\" a%22b.txt|text/plain|bytes\n",
                    "one n.txt text/x-note file body", "[[\"a\",\"1\"],[\"b\",\" x\"],[\"a\",\"2\"]]", "TypeError",
                    "TypeError", "TypeError",
                ].joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        let sent = try #require(server.requests.first).text
        #expect(sent.contains("Content-Disposition: form-data; name=\"line%0D%0Aname%22q\"\r\n\r\nx\r\ny\r\nz\r\n"))
        #expect(sent.contains("name=\"file\"; filename=\"a%22b.txt\"\r\nContent-Type: text/plain\r\n\r\nbytes\n\r\n"))
        #expect(result.exitCode == 0)
    }

    @Test func blobBodiesAndReaders() async throws {
        let (result, server) = try await run(
            """
            (async () => {
              const r = await fetch(base + "/raw", { method: "POST", body: new Blob(["blob body"], { type: "Text/X-Blob" }) });
              console.log(r.headers.get("content-type"), await r.text());
              const bytes = await fetch(base + "/raw", { method: "POST", body: new Uint8Array([0, 255, 1]) });
              const blob = await bytes.blob();
              console.log(blob.size, blob.type, Array.from(await blob.bytes()).join(","), bytes.bodyUsed);
              try { await bytes.text(); } catch (e) { console.log(e.constructor.name); }
              const res = new Response("abc");
              console.log(Array.from(await res.clone().bytes()).join(","), await res.text());
              try { res.clone(); } catch (e) { console.log(e.constructor.name); }
            })();
            """)
        #expect(
            result.lines == ["text/x-blob blob body", "3 none 0,255,1 true", "TypeError", "97,98,99 abc", "TypeError"])
        #expect(server.requests.first?.header("content-type") == "text/x-blob")
        #expect(result.exitCode == 0)
    }

    /// The Fetch standard's data: URL processor: base64, percent-decoding, MIME types, failures.
    @Test func dataURLs() async throws {
        let (result, _) = try await run(
            """
            (async () => {
              for (const url of ["data:text/plain;base64,SGVs bG8=#frag", "data:,a%20b", "data:;charset=utf-8,%C3%A9",
                                 "data:Text/HTML;Charset=\\"x\\",<p>", "data:image/png;base64,AAEC"]) {
                const r = await fetch(url);
                console.log(r.status, r.statusText, r.url, r.headers.get("content-type"), JSON.stringify(await r.text()));
              }
              for (const url of ["data:text/plain", "data:;base64,A", "data:;base64,AB=C"]) {
                try { await fetch(url); console.log("no error"); } catch (e) { console.log(e.constructor.name); }
              }
            })();
            """)
        #expect(
            result.lines == [
                "200 OK data:text/plain;base64,SGVs bG8= text/plain \"Hello\"",
                "200 OK data:,a%20b text/plain;charset=US-ASCII \"a b\"",
                "200 OK data:;charset=utf-8,%C3%A9 text/plain;charset=utf-8 \"é\"",
                "200 OK data:Text/HTML;Charset=\"x\",<p> text/html;charset=x \"<p>\"",
                "200 OK data:image/png;base64,AAEC image/png \"\\u0000\\u0001\\u0002\"",
                "TypeError", "TypeError", "TypeError",
            ])
        #expect(result.exitCode == 0)
    }

    @Test func headersDetails() async throws {
        let (result, _) = try await run(
            """
            const show = (f) => { try { console.log(f()); } catch (e) { console.log(e.constructor.name); } };
            show(() => new Headers(null));
            show(() => [...new Headers(undefined)].length);
            show(() => new Headers({ a: "\\u0100" }));
            show(() => new Headers([["a"]]));
            show(() => new Headers(["ab"]));
            show(() => new Headers({ [Symbol("s")]: "x" }));
            show(() => new Headers({ a: " \\t v \\n" }).get("A"));
            show(() => new Headers().get("bad name"));
            const h = new Headers([["d", "4"], ["a", "1"], ["b", "2"], ["c", "3"]]);
            const seen = [];
            for (const [name] of h) { seen.push(name); if (name === "b") h.delete("a"); }
            console.log(seen.join(""));
            const cookies = new Headers([["Set-Cookie", "a=1"], ["x", "1"], ["set-cookie", "b=2"], ["X", "2"]]);
            console.log(JSON.stringify([...cookies]), cookies.getSetCookie().join("|"), cookies.get("set-cookie"));
            console.log(Object.prototype.toString.call(cookies.keys()), typeof cookies.keys().next);
            show(() => Response.error().headers.set("a", "b"));
            const custom = new Headers([["a", "1"]]);
            custom[Symbol.iterator] = function* () { yield ["test", "test"]; };
            console.log(JSON.stringify([...new Headers(custom)]), JSON.stringify([...new Headers(h)]));
            """)
        #expect(
            result.lines == [
                "TypeError", "0", "TypeError", "TypeError", "TypeError", "TypeError", "v", "TypeError", "abd",
                "[[\"set-cookie\",\"a=1\"],[\"set-cookie\",\"b=2\"],[\"x\",\"1, 2\"]] a=1|b=2 a=1, b=2",
                "[object Headers Iterator] function", "TypeError",
                #"[["test","test"]] [["b","2"],["c","3"],["d","4"]]"#,
            ])
        #expect(result.exitCode == 0)
    }

    @Test func requestDetails() async throws {
        let (result, _) = try await run(
            """
            const show = (f) => { try { console.log(f()); } catch (e) { console.log(e.constructor.name); } };
            const r = new Request("https://e.com/a#f", { method: "post", body: "hi", mode: "same-origin", cache: "no-store", referrer: "" });
            console.log(r.method, r.url, r.mode, r.credentials, r.cache, JSON.stringify(r.referrer), r.integrity, r.keepalive, r.redirect);
            const d = new Request("https://e.com/");
            console.log(d.mode, d.credentials, d.cache, d.referrer, d.referrerPolicy === "", d.destination === "", d.duplex);
            console.log(new Request("https://e.com", { method: "patch" }).method, new Request("https://e.com", { method: "dElEtE" }).method);
            show(() => new Request("https://e.com", { mode: "navigate" }));
            show(() => new Request("https://e.com", { cache: "only-if-cached" }));
            show(() => new Request("https://e.com", { cache: "only-if-cached", mode: "same-origin" }).cache);
            show(() => new Request("https://u:p@e.com"));
            show(() => new Request("/relative"));
            show(() => new Request("https://e.com", { method: "CONNECT" }));
            show(() => new Request("https://e.com", { mode: "no-cors", method: "PUT" }));
            show(() => new Request("https://e.com", { credentials: "bad" }));
            show(() => new Request("https://e.com", { body: "x" }));
            show(() => new Request("https://e.com", { window: {} }));
            show(() => new Request("https://e.com", { referrer: "https://other.example/p" }).referrer);
            const controller = new AbortController();
            const withSignal = new Request("https://e.com", { signal: controller.signal });
            const copy = withSignal.clone();
            controller.abort("why");
            console.log(withSignal.signal !== controller.signal, withSignal.signal.aborted, withSignal.signal.reason, copy.signal.aborted);
            const used = new Request("https://e.com", { method: "POST", body: "b" });
            const next = new Request(used);
            console.log(used.bodyUsed, next.bodyUsed);
            show(() => new Request(used));
            (async () => {
              // A body read from and released is disturbed: unusable as another Request's body, for clone() and reads.
              const read = new Request("https://e.com", { method: "POST", body: "b" });
              const reader = read.body.getReader();
              await reader.read();
              reader.releaseLock();
              show(() => new Request(read));
              show(() => read.clone());
              await read.text().catch((e) => console.log("text", e.constructor.name));
            })();
            """)
        #expect(
            result.lines == [
                "POST https://e.com/a#f same-origin same-origin no-store \"\"  false follow",
                "cors same-origin default about:client true true half", "patch DELETE", "TypeError", "TypeError",
                "only-if-cached", "TypeError", "TypeError", "TypeError", "TypeError", "TypeError", "TypeError",
                "TypeError", "https://other.example/p", "true true why true", "true false", "TypeError",
                "TypeError", "TypeError", "text TypeError",
            ])
        #expect(result.exitCode == 0)
    }

    @Test func responseDetails() async throws {
        let (result, _) = try await run(
            """
            (async () => {
              const show = (f) => { try { console.log(f()); } catch (e) { console.log(e.constructor.name); } };
              const r = await fetch(base + "/raw?x#fragment", { method: "POST", body: "x" });
              console.log(r.url === base + "/raw?x", r.type);
              const j = Response.json({ a: 1 }, { status: 201, headers: { "x-a": "b" } });
              console.log(j.status, j.headers.get("content-type"), j.headers.get("x-a"), await j.text());
              const e = Response.error();
              console.log(e.type, e.status, e.ok, JSON.stringify(e.statusText), e.body);
              const redirect = Response.redirect("https://e.com/x", 301);
              console.log(redirect.status, redirect.headers.get("location"));
              show(() => Response.redirect("https://e.com/x", 200));
              show(() => Response.redirect("not a url"));
              show(() => new Response("", { status: 700 }));
              show(() => new Response("", { status: 204 }));
              show(() => new Response(null, { status: 204 }).status);
              show(() => new Response("", { statusText: "bad\\n" }));
              show(() => Response.json(undefined));
              show(() => new Response(null, { status: 65736 }).status);
              console.log(new Response().body, new Response(null).bodyUsed, await new Response().text() === "");
            })();
            """)
        #expect(
            result.lines == [
                "true basic", "201 application/json b {\"a\":1}", "error 0 false \"\" null", "301 https://e.com/x",
                "RangeError", "TypeError", "RangeError", "TypeError", "204", "TypeError", "TypeError", "200",
                "null false true",
            ])
        #expect(result.exitCode == 0)
    }

    /// HTTP.upload frames its form with the same serialiser as a FormData body (escaping, CRLF
    /// normalisation), takes Blob and File data, and the server receives exactly that framing.
    @Test func uploadUsesTheFormDataSerialiser() async throws {
        let (result, server) = try await run(
            """
            (async () => {
              const r = await HTTP.upload(base + "/raw", {
                fields: [["a\\nb", "x\\ry"]],
                files: [
                  { name: "f", data: new File(["file text"], "q\\".txt", { type: "text/x-q" }) },
                  { name: "g", data: new Blob([new Uint8Array([1, 2])]) },
                ],
              });
              const back = await r.formData();
              for (const [name, value] of back) {
                console.log(JSON.stringify(name), typeof value === "string" ? JSON.stringify(value) : [value.name, value.type, value.size].join("|"));
              }
            })();
            """)
        #expect(
            result.lines == [
                "\"a%0D%0Ab\" \"x\\r\\ny\"", "\"f\" q%22.txt|text/x-q|9", "\"g\" blob|application/octet-stream|2",
            ])
        let sent = try #require(server.requests.first).text
        #expect(sent.contains("Content-Disposition: form-data; name=\"a%0D%0Ab\"\r\n\r\nx\r\ny\r\n"))
        #expect(sent.contains("name=\"f\"; filename=\"q%22.txt\"\r\nContent-Type: text/x-q\r\n\r\nfile text\r\n"))
        #expect(result.exitCode == 0)
    }

    /// `body` is a ReadableStream; reading it marks the body used; `text()` read directly (never touched as a
    /// stream) and through `body.getReader()` give the same result; a stream request body needs duplex.
    @Test func bodiesAsStreams() async throws {
        let (result, _) = try await run(
            """
            (async () => {
              const url = base + "/raw";
              const init = { method: "POST", body: "stréam ✓ body".repeat(1000) };
              const direct = await (await fetch(url, init)).text();
              const response = await fetch(url, init);
              console.log(response.body instanceof ReadableStream, response.bodyUsed);
              const reader = response.body.getReader();
              const chunks = [];
              for (;;) { const { value, done } = await reader.read(); if (done) break; chunks.push(...value); }
              const streamed = new TextDecoder().decode(new Uint8Array(chunks));
              console.log(streamed === direct, direct.length, response.bodyUsed);
              try { await response.text(); } catch (e) { console.log(e.constructor.name); }
              const stream = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("from ")); c.enqueue(new TextEncoder().encode("a stream")); c.close(); } });
              try { new Request(url, { method: "POST", body: stream }); } catch (e) { console.log(e.constructor.name); }
              const sent = await fetch(url, { method: "POST", body: stream, duplex: "half" });
              console.log(await sent.text());
              const original = new Response("tee me");
              const copy = original.clone();
              console.log(await original.text(), await copy.text(), new Response(null).body);
              const blob = new Blob(["blob stream"]);
              console.log(await new Response(blob.stream()).text());
            })();
            """)
        #expect(
            result.lines == [
                "true false", "true 13000 true", "TypeError", "TypeError", "from a stream", "tee me tee me null",
                "blob stream",
            ])
        #expect(result.exitCode == 0)
    }
}
