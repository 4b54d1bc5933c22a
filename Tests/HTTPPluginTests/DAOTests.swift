import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridgeCore
import JSBridgeTesting
import ModelPlugin
import Synchronization
import Testing

/// `HTTP.dao` from JavaScript against a real server on loopback.
@Suite struct DAOTests {
    /// Starts a server with an echo route, runs `script` (with `base` defined) and stops the server.
    func run(
        _ script: String, configuration: JSONObject = [:], permissions: Permissions = Permissions(allowing: .net),
        routes: (TestHTTPServer) -> Void = { _ in }
    ) async throws -> (ScriptResult, TestHTTPServer) {
        let server = try await TestHTTPServer.start()
        let echo: TestHTTPServer.Handler = { request in
            let headers = Dictionary(
                request.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
            let object: [String: Any] = [
                "method": request.method, "uri": request.uri, "body": request.text, "headers": headers,
            ]
            let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            return .json(String(decoding: data, as: UTF8.self))
        }
        server.route("/echo", echo)
        server.route("/echo/a%20b", echo)
        routes(server)
        let options = BridgeHost.Options.testing(configuration: configuration, permissions: permissions)
        let result = await ScriptRunner.run(
            "const base = \"\(server.baseURL)\";\n" + script, plugins: [HTTPPlugin(), ModelPlugin()],
            options: options, timeout: .seconds(30))
        try await server.stop()
        return (result, server)
    }

    @Test func parametersMapToPathQueryHeadersAndBody() async throws {
        let (result, _) = try await run(
            """
            const Api = HTTP.dao({ name: "Api", baseURL: base, headers: { "X-Client": "jsbridge" } });
            const Search = Api.extend({
              name: "Search", path: "/echo/{id}",
              params: {
                id: { in: "path" }, userName: "user_name", token: { in: "header", mapTo: "X-Token" },
                page: { default: 1 }, local: { ignore: true }, q: { required: true },
              },
            });
            const Create = Api.extend({ name: "Create", path: "/echo", method: "POST", params: { title: "t", tag: { in: "query" } } });
            const Form = Create.extend({ name: "Form", encoding: "form" });
            (async () => {
              const a = await Search.send({ id: "a b", userName: "ann", token: "s3", local: 1, q: "x", extra: [1, 2] });
              console.log(a.method, a.uri, a.headers["x-token"], a.headers["x-client"], a.body === "");
              const b = await Create.send({ title: "Hi", tag: "t1", n: 2 });
              console.log(b.method, b.uri, b.headers["content-type"], b.body);
              const c = await Form.send({ title: "a&b", n: [1, 2] });
              console.log(c.uri, c.headers["content-type"], c.body);
              try { await Search.send({ userName: "x" }); } catch (e) {
                console.log(e instanceof HTTP.DAOError, e instanceof BridgeError, e.name, e.domain, e.code,
                  e.data.issues.map((i) => i.path).join(","));
              }
            })();
            """)
        #expect(
            result.lines == [
                "GET /echo/a%20b?user_name=ann&page=1&q=x&extra=1&extra=2 s3 jsbridge true",
                "POST /echo?tag=t1 application/json {\"t\":\"Hi\",\"n\":2}",
                "/echo application/x-www-form-urlencoded;charset=UTF-8 t=a%26b&n=1&n=2",
                "true true DAOError request INVALID_ARGUMENT params.q,params.id",
            ])
        #expect(result.stderr == "")
    }

    @Test func hooksRunInOrderAndMaySignAndBeAsync() async throws {
        let (result, server) = try await run(
            """
            const order = [];
            const Base = HTTP.dao({
              name: "Base", baseURL: base,
              setUpHeaders(headers) { order.push("base.setUpHeaders"); headers.set("x-app", "1"); },
            });
            const Signed = Base.extend({
              name: "Signed", path: "/echo", params: { b: "b", a: "a" },
              hooks: {
                async setUpHeaders(headers, ctx) { await null; order.push("setUpHeaders"); headers.set("x-attempt", String(ctx.attempt)); },
                setUpParams(params) { order.push("setUpParams"); return { ...params, ts: 42 }; },
                didSetUpParams(params) {
                  order.push("didSetUpParams");
                  const text = Object.keys(params).sort().map((k) => k + "=" + params[k]).join("&") + "secret";
                  let sum = 0; for (const c of text) sum = (sum * 31 + c.charCodeAt(0)) >>> 0;
                  params.sign = sum.toString(16);
                },
                willSend(request) { order.push("willSend"); request.headers.set("x-final", request.method); },
                didReceive(response) { order.push("didReceive:" + response.status); },
                outputEntity(json) { order.push("outputEntity"); return json.uri; },
                async deliver(uri) { order.push("deliver"); return { uri }; },
              },
            });
            (async () => {
              const out = await Signed.send({ a: 1, b: 2 });
              console.log(order.join(" "));
              console.log(out.uri);
            })();
            """)
        #expect(
            result.lines.first
                == "base.setUpHeaders setUpHeaders setUpParams didSetUpParams willSend didReceive:200 outputEntity deliver"
        )
        let uri = try #require(result.lines.last)
        #expect(uri.hasPrefix("/echo?b=2&a=1&ts=42&sign="))
        let request = try #require(server.requests.first)
        #expect(request.header("x-app") == "1")
        #expect(request.header("x-attempt") == "1")
        #expect(request.header("x-final") == "GET")
        #expect(result.stderr == "")
    }

    /// A DAO without hooks, cache or mock takes a shorter way (`runPlain`); it shares its headers and, without
    /// parameters, its request between calls: a call with a body gets the content type on a copy, and a bad
    /// mock mode still rejects rather than throws.
    @Test func plainCallsShareNothingTheyChange() async throws {
        let (result, _) = try await run(
            """
            const Get = HTTP.dao({ name: "Get", baseURL: base, path: "/echo", encoding: "json", headers: { "X-App": "1" } });
            const Failing = HTTP.dao({ name: "Failing", baseURL: base, path: "/fail" });
            const Mocked = HTTP.dao({ name: "Mocked", baseURL: base, path: "/echo", mock: { mode: "sometimes" } });
            (async () => {
              for (const params of [{ a: 1 }, {}, { b: 2 }, {}]) {
                const echo = await Get.send(params);
                console.log(echo.uri, echo.body || "-", echo.headers["content-type"] ?? "-", echo.headers["x-app"]);
              }
              const full = await Get.request();
              console.log(full.status, full.headers.get("content-type"), full.url === base + "/echo");
              try { await Failing.send(); } catch (e) { console.log(e.code, e.status, e.data.body); }
              const pending = Mocked.send();
              console.log(pending instanceof Promise);
              try { await pending; } catch (e) { console.log(e.name, e.message); }
            })();
            """,
            routes: { server in server.route("/fail") { _ in .text("down", status: 503) } })
        #expect(
            result.lines == [
                #"/echo {"a":1} application/json 1"#,
                "/echo - - 1",
                #"/echo {"b":2} application/json 1"#,
                "/echo - - 1",
                "200 application/json true",
                "HTTP_STATUS 503 down",
                "true",
                #"TypeError mock.mode must be "fixture", "auto" or "off"; got 'sometimes'."#,
            ])
        #expect(result.stderr == "")
    }

    @Test func responsesConvertIntoModelsAtAKeyPath() async throws {
        let (result, _) = try await run(
            """
            Model.define("User", { id: "int", name: "string", joined: "date?" });
            const Api = HTTP.dao({ name: "Api", baseURL: base });
            const One = Api.extend({ name: "One", path: "/user", response: { keyPath: "resp.data", model: "User" } });
            const Many = Api.extend({ name: "Many", path: "/users", response: { keyPath: "resp.data", model: ["User"] } });
            const Bad = Api.extend({ name: "Bad", path: "/bad-users", response: { keyPath: "resp.data", model: ["User"] } });
            const Broken = Api.extend({ name: "Broken", path: "/broken" });
            const Missing = Api.extend({ name: "Missing", path: "/user", response: { keyPath: "resp.nothing", model: "User" } });
            (async () => {
              const user = await One.send();
              console.log(user.id, user.name, user.joined);
              const users = await Many.request();
              console.log(users.data.map((u) => u.id).join(","), users.status, users.source);
              // request() resolves with the headers and URL: its answers are complete.
              console.log(users.headers.get("content-type"), users.url === base + "/users");
              for (const dao of [Bad, Broken, Missing]) {
                try { await dao.send(); } catch (e) {
                  console.log(dao.name, e.domain, e.code, e.status, e.data.issues.map((i) => i.path + ":" + i.code).join(","));
                  // send() asks for brief answers: the requested URL, no headers.
                  if (dao === Bad) console.log(e.response.body, e.response.url === base + "/bad-users", JSON.stringify(e.response.headers));
                }
              }
              // A hook that sees the response gets its text (the body is then not parsed natively).
              const Seen = One.extend({ name: "Seen", hooks: { didReceive(response) { console.log(response.text); } } });
              console.log((await Seen.send()).name);
            })();
            """,
            routes: { server in
                server.route("/user") { _ in .json(#"{"resp": {"data": {"id": "7", "name": "Ann", "joined": 0}}}"#) }
                server.route("/users") { _ in .json(#"{"resp":{"data":[{"id":1,"name":"A"},{"id":2.0,"name":"B"}]}}"#) }
                server.route("/bad-users") { _ in
                    .json(#"{"resp": {"data": [{"id": 1, "name": "A"}, {"id": "x"}, {"id": 3, "name": "C"}]}}"#)
                }
                server.route("/broken") { _ in .json(#"{"resp": [1, 2"#) }
            })
        #expect(
            result.lines == [
                "7 Ann 1970-01-01T00:00:00Z",
                "1,2 200 network",
                "application/json true",
                "Bad dataFormat DATA_FORMAT 200 resp.data[1].id:TYPE,resp.data[1].name:REQUIRED",
                // Read natively, the body of the error is the JSON of the value at the key path.
                #"[{"id":1,"name":"A"},{"id":"x"},{"id":3,"name":"C"}] true {}"#,
                "Broken dataFormat DATA_FORMAT 200 :INVALID_JSON",
                "Missing dataFormat DATA_FORMAT 200 resp.nothing:REQUIRED",
                #"{"resp": {"data": {"id": "7", "name": "Ann", "joined": 0}}}"#,
                "Ann",
            ])
        #expect(result.stderr == "")
    }

    @Test func errorDomainsKeepStatusBodyAndCause() async throws {
        let (result, _) = try await run(
            """
            const Api = HTTP.dao({
              name: "Api", baseURL: base,
              outputEntity(json) {
                if (json && json.status === false) throw HTTP.serverError(json.msg, { code: json.code });
              },
            });
            const cases = {
              http: Api.extend({ name: "Http", path: "/fail" }),
              server: Api.extend({ name: "Server", path: "/business" }),
              network: Api.extend({ name: "Network", baseURL: "http://127.0.0.1:1" }),
              empty: Api.extend({ name: "Empty", path: "/empty", method: "DELETE" }),
              head: Api.extend({ name: "Head", path: "/business", method: "HEAD" }),
            };
            (async () => {
              for (const [label, dao] of Object.entries(cases)) {
                try {
                  const r = await dao.request();
                  console.log(label, "ok", r.status, JSON.stringify(r.data));
                } catch (e) {
                  console.log(label, e.domain, e.code, e.status, e.serverCode, e.response?.body, e.cause?.code ?? e.data?.kind);
                }
              }
            })();
            """,
            routes: { server in
                server.route("/fail") { _ in .text("boom", status: 503) }
                server.route("/business") { _ in .json(#"{"status":false,"code":"E42","msg":"no such item"}"#) }
                server.route("/empty") { _ in TestHTTPServer.Response(status: 204) }
            })
        #expect(
            result.lines == [
                "http http HTTP_STATUS 503 undefined boom undefined",
                "server server SERVER_ERROR undefined E42 undefined undefined",
                "network network NETWORK_ERROR undefined undefined undefined NETWORK_ERROR",
                "empty ok 204 null",
                "head ok 200 null",
            ])
        #expect(result.stderr == "")
    }

    @Test func retriesStatusesWithBackoffAndHookOutcomes() async throws {
        let hits = Locked(0)
        let (result, server) = try await run(
            """
            const Flaky = HTTP.dao({ name: "Flaky", baseURL: base, path: "/flaky", retry: { count: 3, delayMs: 20 } });
            const NoRetryPost = Flaky.extend({ name: "Post", method: "POST" });
            let polls = 0;
            const Poll = HTTP.dao({
              name: "Poll", baseURL: base, path: "/echo", retry: { count: 2 },
              outputEntity() { polls++; if (polls < 3) return HTTP.retry({ afterMs: 5 }); return "done after " + polls; },
            });
            (async () => {
              const r = await Flaky.request();
              console.log(r.status, r.attempts, JSON.stringify(r.data));
              try { await NoRetryPost.send(); } catch (e) { console.log(e.code, e.status); }
              console.log(await Poll.send());
            })();
            """,
            routes: { server in
                server.route("/flaky") { _ in
                    let n = hits.withLock { value in
                        value += 1
                        return value
                    }
                    return n <= 2 || n == 4 ? .text("busy", status: 503) : .json(#"{"ok":true}"#)
                }
            })
        #expect(result.lines == ["200 3 {\"ok\":true}", "HTTP_STATUS 503", "done after 3"])
        #expect(server.requests.filter { $0.path == "/flaky" }.count == 4)
        #expect(result.stderr == "")
    }

    @Test func cancelAndSignalsEndCallsWithCancelled() async throws {
        let (result, _) = try await run(
            """
            const Slow = HTTP.dao({ name: "Slow", baseURL: base, path: "/{which}" });
            (async () => {
              const calls = [Slow.send({ which: "slow" }), Slow.send({ which: "slow" })];
              await new Promise((r) => setTimeout(r, 50));
              console.log("pending", Slow.pending, bridge.pendingCalls > 0);
              console.log("cancelled", Slow.cancel());
              for (const call of calls) {
                try { await call; } catch (e) { console.log(e.domain, e.code, e.cause.name); }
              }
              console.log("then", await Slow.send({ which: "fast" }));  // cancel() ended only the calls before it
              const controller = new AbortController();
              const call = Slow.send({ which: "slow" }, { signal: controller.signal });
              setTimeout(() => controller.abort(), 20);
              try { await call; } catch (e) { console.log(e.domain, e.code); }
              await new Promise((r) => setTimeout(r, 20));
              console.log("after", Slow.pending, bridge.pendingCalls);
            })();
            """,
            routes: { server in
                server.route("/slow") { _ in .text("late", delay: .seconds(3600)) }  // only a cancel ends it
                server.route("/fast") { _ in .json("7") }
            })
        #expect(
            result.lines == [
                "pending 2 true", "cancelled 2", "cancelled CANCELLED AbortError", "cancelled CANCELLED AbortError",
                "then 7", "cancelled CANCELLED", "after 0 0",
            ])
        #expect(result.stderr == "")
    }

    @Test func totalTimeoutEndsWithTimeout() async throws {
        let (result, _) = try await run(
            """
            const Slow = HTTP.dao({ name: "Slow", baseURL: base, path: "/slow-body", timeout: { totalMs: 200, connectMs: 1000 } });
            Slow.send().catch((e) => console.log(e.domain, e.code));
            """,
            routes: { server in
                // The body's end never comes within the test: only the total timeout can end the request.
                server.route("/slow-body") { _ in
                    TestHTTPServer.Response(
                        body: .chunked([(.zero, Array("a".utf8)), (.seconds(3600), Array("b".utf8))]))
                }
            })
        #expect(result.lines == ["timeout TIMEOUT"])
        #expect(result.stderr == "")
    }

    @Test func mocksFromFixturesAndSamplesGoThroughValidation() async throws {
        let directory = TemporaryDirectory.make(prefix: "dao-mocks")
        try #"{"resp":{"data":{"id":"5","name":"Fixture"}}}"#.write(
            toFile: directory + "/GetUser.json", atomically: true, encoding: .utf8)
        try #"{"$status": 500, "$text": "down", "$delayMs": 30}"#.write(
            toFile: directory + "/GetUser.down.json", atomically: true, encoding: .utf8)
        try #"{"$error": "network"}"#.write(
            toFile: directory + "/GetUser.offline.json", atomically: true, encoding: .utf8)
        try #"{"resp":{"data":{"id":"x"}}}"#.write(
            toFile: directory + "/GetUser.bad.json", atomically: true, encoding: .utf8)
        try "{ nope".write(toFile: directory + "/Broken.json", atomically: true, encoding: .utf8)
        let (result, server) = try await run(
            """
            Model.define("User", { id: "int", name: "string", avatarURL: "url?", publicRepos: { type: "int?", key: "public_repos" } });
            const GetUser = HTTP.dao({
              name: "GetUser", baseURL: base, path: "/user", response: { keyPath: "resp.data", model: "User" },
              mock: "fixture",
            });
            (async () => {
              const r = await GetUser.request();
              console.log(r.source, r.data.id, r.data.name);
              for (const variant of ["down", "offline", "bad", "missing"]) {
                const dao = GetUser.extend({ name: "GetUser", mock: { mode: "fixture", variant } });
                try { await dao.send(); } catch (e) { console.log(variant, e.domain, e.code); }
              }
              const auto = await GetUser.extend({ name: "Auto", mock: "auto" }).send();
              console.log(typeof auto.id, typeof auto.name, auto.name.length > 0, typeof auto.publicRepos);
              try { await HTTP.dao({ name: "Broken", baseURL: base, mock: true }).send(); } catch (e) { console.log("Broken", e.code); }
            })();
            """,
            configuration: ["HTTP": ["mock": ["dir": .string(directory)]]], permissions: .none)
        #expect(
            result.lines == [
                "mock 5 Fixture", "down http HTTP_STATUS", "offline network NETWORK_ERROR",
                "bad dataFormat DATA_FORMAT",
                "missing request MOCK_NOT_FOUND", "number string true number", "Broken MOCK_INVALID",
            ])
        #expect(server.requests.isEmpty)
        #expect(result.stderr == "")
    }

    @Test func anEnvelopesHeadersReachTheHooksOfSentCalls() async throws {
        let directory = TemporaryDirectory.make(prefix: "dao-mock-headers")
        try #"{"$status": 201, "$headers": {"X-Trace": "abc"}, "$body": {"a": 1}}"#.write(
            toFile: directory + "/Feed.json", atomically: true, encoding: .utf8)
        let (result, _) = try await run(
            """
            const seen = (hook) => (value, ctx) => {
              const r = ctx?.response ?? value;
              console.log(hook, r.status, r.headers.get("x-trace"), r.headers.get("content-type"));
              return value;
            };
            (async () => {
              for (const hook of ["didReceive", "outputEntity", "deliver"]) {
                const data = await HTTP.dao({ name: "Feed", baseURL: base, mock: true, [hook]: seen(hook) }).send();
                console.log(JSON.stringify(data));
              }
            })();
            """,
            configuration: ["HTTP": ["mock": ["dir": .string(directory)]]], permissions: .none)
        #expect(
            result.lines == [
                "didReceive 201 abc application/json", #"{"a":1}"#, "outputEntity 201 abc application/json",
                #"{"a":1}"#, "deliver 201 abc application/json", #"{"a":1}"#,
            ], "\(result.stderr)")
    }

    /// A fixture directory the script names is read under its `--allow-read`, file by file: a fixture that is
    /// a link out of it is refused like any other read.
    @Test func aFixtureLinkedOutOfAScriptNamedDirectoryIsDenied() async throws {
        let root = TemporaryDirectory.make(prefix: "dao-mock-link")
        try FileManager.default.createDirectory(atPath: root + "/d", withIntermediateDirectories: true)
        try #"{"secret": "hunter2"}"#.write(toFile: root + "/secret.json", atomically: true, encoding: .utf8)
        try #"{"a": 1}"#.write(toFile: root + "/d/Plain.json", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/d/Feed.json", withDestinationPath: "../secret.json")
        let (result, _) = try await run(
            """
            (async () => {
              for (const name of ["Plain", "Feed"]) {
                const dao = HTTP.dao({ name, baseURL: base, mock: { mode: "fixture", dir: "\(root)/d" } });
                try { console.log(name, JSON.stringify(await dao.send())); } catch (e) { console.log(name, e.code); }
              }
            })();
            """, permissions: try Permissions.none.granting(.read, scopes: [root + "/d"]))
        #expect(result.lines == [#"Plain {"a":1}"#, "Feed PERMISSION_DENIED"], "\(result.stderr)")
    }

    @Test func withoutAllowNetCallsFailBeforeConnecting() async throws {
        let (result, server) = try await run(
            """
            HTTP.dao({ name: "X", baseURL: base, path: "/echo" }).send()
              .catch((e) => console.log(e.domain, e.code));
            """, permissions: .none)
        #expect(result.lines == ["request PERMISSION_DENIED"])
        #expect(server.requests.isEmpty)
    }

    /// `cancel()` ends the calls still waiting in the DAO's queue too (HAccess cancels waiting tasks).
    @Test func cancelEndsCallsWaitingInTheQueue() async throws {
        let (result, server) = try await run(
            """
            HTTP.queue("one", { maxConcurrent: 1 });
            const Slow = HTTP.dao({ name: "Slow", baseURL: base, path: "/slow", queue: "one" });
            (async () => {
              const calls = [Slow.send(), Slow.send(), Slow.send()];
              // Until the server holds the first call (an event, not a guess at how long that takes).
              while (await (await fetch(base + "/arrived")).text() !== "1") await new Promise((r) => setTimeout(r, 5));
              console.log("pending", Slow.pending, "waiting", HTTP.queue("one").waiting);
              console.log("cancelled", Slow.cancel());
              const outcomes = await Promise.allSettled(calls);
              console.log(outcomes.map((o) => o.reason?.code).join(","), Slow.pending, HTTP.queue("one").waiting);
            })();
            """,
            routes: { server in
                server.route("/slow") { _ in .text("late", delay: .seconds(3600)) }  // only the cancel ends it
                server.route("/arrived") { [unowned server] _ in
                    .text("\(server.requests.filter { $0.uri == "/slow" }.count)")
                }
            })
        #expect(result.lines == ["pending 3 waiting 2", "cancelled 3", "CANCELLED,CANCELLED,CANCELLED 0 0"])
        #expect(server.requests.filter { $0.uri == "/slow" }.count == 1)
        #expect(result.stderr == "")
    }

    /// Mode `both`: a stored answer that fails the DAO's checks is skipped; the network's answer decides.
    @Test func bothSkipsAStoredAnswerThatNoLongerConverts() async throws {
        let hits = Atomic<Int>(0)
        let (result, _) = try await run(
            """
            Model.define("Doc", { v: "int" });
            const Raw = HTTP.dao({ name: "Raw", baseURL: base, path: "/doc", cache: "onlyWrite" });
            const Typed = Raw.extend({ name: "Typed", cache: "both", response: { model: "Doc" } });
            (async () => {
              console.log(JSON.stringify(await Raw.send()));
              const seen = [];
              const r = await Typed.request({}, { onCache: (data) => seen.push(data) });
              console.log(seen.length, r.source, r.data.v);
            })();
            """,
            routes: { server in
                server.route("/doc") { _ in
                    hits.wrappingAdd(1, ordering: .relaxed).newValue == 1 ? .json(#"{"v":"x"}"#) : .json(#"{"v":2}"#)
                }
            })
        #expect(result.lines == [#"{"v":"x"}"#, "0 network 2"])
        #expect(result.stderr == "")
    }

    /// A response cached in an earlier run is not served to a run without `--allow-net`.
    @Test func storedResponsesNeedTheNetworkPermissionToo() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/fresh") { _ in .json("{\"v\":1}", headers: [.init("Cache-Control", "max-age=600")]) }
        let configuration: JSONObject = [
            "HTTP": ["cache": ["dir": .string(TemporaryDirectory.make(prefix: "dao-cache"))]]
        ]
        let script = """
            HTTP.dao({ name: "Fresh", baseURL: "\(server.baseURL)", path: "/fresh", cache: "http" }).request()
              .then((r) => console.log(r.source, r.data.v), (e) => console.log(e.domain, e.code));
            """
        var lines: [[String]] = []
        for permissions in [Permissions(allowing: .net), Permissions.none] {
            let result = await ScriptRunner.run(
                script, plugins: [HTTPPlugin()],
                options: .testing(configuration: configuration, permissions: permissions))
            lines.append(result.lines)
        }
        #expect(lines == [["network 1"], ["request PERMISSION_DENIED"]])
        #expect(server.requests.count == 1)
        try await server.stop()
    }

    @Test func definitionsAreChecked() async throws {
        let (result, _) = try await run(
            """
            const attempts = [
              () => HTTP.dao({ baseURL: base }),
              () => HTTP.dao({ name: "A", encoding: "xml" }),
              () => HTTP.dao({ name: "A", params: { a: { in: "cookie" } } }),
              () => HTTP.dao({ name: "A", hooks: { beforeAll() {} } }),
              () => HTTP.dao({ name: "A", basURL: base }),
              () => HTTP.dao({ name: "A", willSend: 5 }),
              () => HTTP.dao({ name: "A", response: { type: "xml" } }),
            ];
            for (const attempt of attempts) {
              try { attempt(); console.log("accepted"); } catch (e) { console.log(e.name, e.message.split(":")[1].trim().split(" ")[0]); }
            }
            """)
        #expect(
            result.lines == [
                "TypeError a", "TypeError encoding", "TypeError params.a.in", "TypeError unknown", "TypeError unknown",
                "TypeError hook", "TypeError response.type",
            ])
    }

    @Test func twoHundredCallsThroughAQueueOfEight() async throws {
        let (result, server) = try await run(
            """
            Model.define("Item", { i: "int" });
            const Item = HTTP.dao({ name: "Item", baseURL: base, path: "/item", params: { i: "i" }, queue: "eight",
                                    response: { model: "Item" } });
            HTTP.queue("eight", { maxConcurrent: 8 });
            (async () => {
              let peak = 0;
              const calls = Array.from({ length: 200 }, (_, i) => Item.send({ i }).then((item) => {
                peak = Math.max(peak, HTTP.queue("eight").running);
                return item.i === i;
              }));
              peak = Math.max(peak, HTTP.queue("eight").running);
              console.log("waiting", HTTP.queue("eight").waiting);
              const oks = await Promise.all(calls);
              console.log(oks.filter((x) => x).length, "peak", peak, bridge.pendingCalls);
            })();
            """,
            routes: { server in
                server.route("/item") { request in
                    .text("{\"i\":\"\(request.query?.dropFirst(2) ?? "")\"}", delay: .milliseconds(10))
                }
            })
        #expect(result.lines == ["waiting 192", "200 peak 8 0"])
        #expect(server.requests.count == 200)
        #expect(result.stderr == "")
    }

    @Test func resetsMidBodyAreNetworkErrorsAndRedirectsAreFollowed() async throws {
        let (result, _) = try await run(
            """
            const Api = HTTP.dao({ name: "Api", baseURL: base });
            (async () => {
              try { await Api.extend({ name: "Reset", path: "/reset", retry: { count: 1, delayMs: 1 } }).send(); }
              catch (e) { console.log(e.domain, e.code, e.data.kind); }
              const moved = await Api.extend({ name: "Moved", path: "/moved" }).request();
              console.log(moved.url.endsWith("/echo"), moved.data.method);
            })();
            """,
            routes: { server in
                server.route("/reset") { _ in .reset(contentLength: 1000, sending: "{\"partial\":") }
                server.route("/moved") { _ in .redirect(to: "/echo", status: 301) }
            })
        #expect(result.lines == ["network NETWORK_ERROR reset", "true GET"])
        #expect(result.stderr == "")
    }

    @Test func discriminatedUnionsConvertThroughTheModelEngine() async throws {
        let (result, _) = try await run(
            """
            Model.define("Circle", { kind: "string", r: "double" });
            Model.define("Square", { kind: "string", side: "double" });
            Model.define("Shape", { kind: "string" }, { discriminator: { key: "kind", mapping: { circle: "Circle", square: "Square" } } });
            const Shapes = HTTP.dao({ name: "Shapes", baseURL: base, path: "/shapes", response: { keyPath: "shapes", model: ["Shape"] } });
            const Odd = Shapes.extend({ name: "Odd", path: "/odd-shapes" });
            (async () => {
              const shapes = await Shapes.send();
              console.log(shapes.map((s) => s.kind + ":" + (s.r ?? s.side)).join(" "));
              try { await Odd.send(); } catch (e) { console.log(e.code, e.data.issues.map((i) => i.path + ":" + i.code).join(",")); }
            })();
            """,
            routes: { server in
                server.route("/shapes") { _ in
                    .json(#"{"shapes":[{"kind":"circle","r":"1.5"},{"kind":"square","side":2}]}"#)
                }
                server.route("/odd-shapes") { _ in .json(#"{"shapes":[{"kind":"circle","r":1},{"kind":"hexagon"}]}"#) }
            })
        #expect(result.lines == ["circle:1.5 square:2", "DATA_FORMAT shapes[1].kind:UNKNOWN_DISCRIMINATOR"])
        #expect(result.stderr == "")
    }

    @Test func cachesStoreOnlyValidatedResponsesAndServeThemPerMode() async throws {
        let version = Locked(0)
        let (result, server) = try await run(
            """
            Model.define("Doc", { v: "int" });
            const Api = HTTP.dao({ name: "Api", baseURL: base, response: { model: "Doc" } });
            const Fresh = Api.extend({ name: "Fresh", path: "/fresh", cache: "http" });
            const Alt = Api.extend({ name: "Alt", path: "/plain", cache: { mode: "alternative", intervalMs: 60000 } });
            const Bad = Api.extend({ name: "Bad", path: "/bad", cache: "http" });
            const Both = Api.extend({ name: "Both", path: "/plain", cache: "both" });
            const Post = Api.extend({ name: "Post", path: "/fresh", method: "POST" });
            const Write = Api.extend({ name: "Write", path: "/other", cache: "onlyWrite" });
            const AltOther = Write.extend({ name: "AltOther", cache: { mode: "alternative" } });
            (async () => {
              const a = await Fresh.request(); const b = await Fresh.request();
              console.log("http", a.source, a.data.v, b.source, b.data.v);
              const c = await Alt.request(); const d = await Alt.request();
              console.log("alternative", c.source, d.source, c.data.v === d.data.v);
              for (let i = 0; i < 2; i++) { try { await Bad.send(); } catch (e) { console.log("bad", e.code); } }
              const seen = [];
              const e = await Both.request({}, { onCache: (data, info) => seen.push(info.source + ":" + (data.v > 0)) });
              console.log("both", seen.join(","), e.source);
              await Post.send();
              const f = await Fresh.request();
              console.log("after post", f.source, f.data.v > a.data.v);
              const g = await Write.request(); const h = await Write.request(); const i = await AltOther.request();
              console.log("onlyWrite", g.source, h.source, i.source, i.data.v === h.data.v);
              await HTTP.clearCache();
              console.log("cleared", (await Fresh.request()).source);
            })();
            """,
            routes: { server in
                let next: @Sendable () -> Int = {
                    version.withLock { value in
                        value += 1
                        return value
                    }
                }
                server.route("/fresh") { request in
                    request.method == "POST"
                        ? .json("{\"v\":0}")
                        : .json("{\"v\":\(next())}", headers: [.init("Cache-Control", "max-age=60")])
                }
                server.route("/plain") { _ in .json("{\"v\":\(next())}") }
                server.route("/other") { _ in .json("{\"v\":\(next())}") }
                server.route("/bad") { _ in .json("{\"v\":\"x\"}", headers: [.init("Cache-Control", "max-age=60")]) }
            })
        #expect(
            result.lines == [
                "http network 1 cache 1", "alternative network cache true", "bad DATA_FORMAT", "bad DATA_FORMAT",
                "both cache:true network", "after post network true", "onlyWrite network network cache true",
                "cleared network",
            ])
        #expect(server.requests.filter { $0.path == "/bad" }.count == 2)
        #expect(server.requests.filter { $0.path == "/fresh" }.count == 4)
        #expect(result.stderr == "")
    }

    @Test func multipartDAOsSendFieldsAndFilesAndDAOsDownload() async throws {
        let directory = TemporaryDirectory.make(prefix: "dao-multipart")
        try "file body".write(toFile: directory + "/note.txt", atomically: true, encoding: .utf8)
        let (result, server) = try await run(
            """
            const Upload = HTTP.dao({
              name: "Upload", baseURL: base, path: "/echo", method: "POST", encoding: "multipart",
              params: { title: "t", doc: "document" },
              willSend(request) { request.multipart.fields.push(["signed", "yes"]); },
            });
            const Report = HTTP.dao({ name: "Report", baseURL: base, path: "/report", params: { id: "id" } });
            (async () => {
              let progress = 0;
              const echo = await Upload.send(
                { title: "Hi", doc: { path: "\(directory)/note.txt", contentType: "text/plain" }, raw: { data: "xyz", filename: "r.bin" } },
                { onProgress: ({ loaded }) => { progress = loaded; } });
              console.log(echo.method, echo.headers["content-type"].split(";")[0], progress > 0);
              for (const part of ['name="t"', "Hi", 'name="document"; filename="note.txt"', "file body",
                                  'name="raw"; filename="r.bin"', "xyz", 'name="signed"']) {
                if (!echo.body.includes(part)) console.log("missing", part);
              }
              const file = await Report.download({ id: 7 }, { filename: "report.txt" });
              console.log(file.suggestedFilename, file.length, file.filePath.endsWith("/report.txt"));
              try { await Report.download({ id: 404 }); } catch (e) { console.log(e.domain, e.code, e.status); }
            })();
            """,
            permissions: Permissions(allowing: .net, .read),
            routes: { server in
                server.route("/report") { request in
                    request.query == "id=404" ? .text("missing", status: 404) : .text("report \(request.query ?? "")")
                }
            })
        #expect(result.lines == ["POST multipart/form-data true", "report 11 true", "http HTTP_STATUS 404"])
        #expect(server.requests.first?.header("content-length") != nil)
        #expect(result.stderr == "")
    }

    /// Multipart DAOs get the DAO's retry and total timeout natively too: each attempt streams the form (files
    /// included) anew.
    @Test func multipartDAOsRetryAndTimeOut() async throws {
        let directory = TemporaryDirectory.make(prefix: "dao-multipart-retry")
        try "file body".write(toFile: directory + "/note.txt", atomically: true, encoding: .utf8)
        let attempts = Atomic<Int>(0)
        let (result, server) = try await run(
            """
            const Put = HTTP.dao({
              name: "Put", baseURL: base, path: "/flaky", method: "PUT", encoding: "multipart",
              retry: { count: 3, delayMs: 10, statuses: [503] }, response: { type: "text" },
            });
            const Slow = HTTP.dao({
              name: "Slow", baseURL: base, path: "/slow", method: "POST", encoding: "multipart", timeout: { totalMs: 300 },
            });
            (async () => {
              const answer = await Put.request({ doc: { path: "\(directory)/note.txt" } });
              console.log(answer.status, answer.attempts, answer.data.includes("file body"));
              try { await Slow.send({ doc: { data: "x" } }); } catch (e) { console.log(e.domain, e.code); }
            })();
            """,
            permissions: Permissions(allowing: .net, .read),
            routes: { server in
                server.route("/flaky") { request in
                    let attempt = attempts.wrappingAdd(1, ordering: .relaxed).newValue
                    return attempt < 3 ? .text("busy", status: 503) : .text(request.text)
                }
                server.route("/slow") { _ in .text("late", delay: .seconds(3600)) }  // only the timeout ends it
            })
        #expect(result.lines == ["200 3 true", "timeout TIMEOUT"], "\(result.stderr)")
        let bodies = server.requests.filter { $0.path == "/flaky" }.map(\.text)
        #expect(bodies.count == 3)
        #expect(bodies.allSatisfy { $0.contains("file body") })
    }
}
