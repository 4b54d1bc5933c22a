import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridgeCore
import JSBridgeTesting
import Testing

/// `HTTP.queue(name)` — named request queues, against a real server on loopback.
@Suite struct QueueTests {
    static let allowAll = BridgeHost.Options.testing(permissions: Permissions(allowing: .net))

    /// Starts a server with `routes`, runs `script` (with `base` defined) and stops the server.
    func run(_ script: String, routes: (TestHTTPServer) -> Void = { _ in }) async throws -> (
        ScriptResult, TestHTTPServer
    ) {
        let server = try await TestHTTPServer.start()
        routes(server)
        let result = await ScriptRunner.run(
            "const base = \"\(server.baseURL)\";\n" + script, plugins: [HTTPPlugin()], options: Self.allowAll,
            timeout: .seconds(120))
        try await server.stop()
        return (result, server)
    }

    /// The largest number of `[arrival, arrival + delay)` intervals that overlap. The server answers no earlier
    /// than `arrival + delay` and the queue starts the next request only after an answer arrived, so each interval
    /// lies inside the time its request held a queue slot: the result never exceeds the queue's real concurrency.
    static func maxOverlap(_ arrivals: [ContinuousClock.Instant], delay: Duration) -> Int {
        let starts: [(ContinuousClock.Instant, Int)] = arrivals.map { ($0, 1) }
        let ends: [(ContinuousClock.Instant, Int)] = arrivals.map { ($0 + delay, -1) }
        // Ends before starts at equal instants: the intervals are half-open.
        let events = (starts + ends).sorted { a, b in a.0 == b.0 ? a.1 < b.1 : a.0 < b.0 }
        var current = 0
        var peak = 0
        for (_, step) in events {
            current += step
            peak = max(peak, current)
        }
        return peak
    }

    /// A route that answers its `i` query after `delay` and records when each request arrived.
    static func workRoute(_ server: TestHTTPServer, delay: Duration, arrivals: Arrivals) {
        server.route("/work") { request in
            arrivals.record()
            return .text(request.query ?? "", delay: delay)
        }
    }

    @Test func twoHundredRequestsThroughAQueueOfEight() async throws {
        let arrivals = Arrivals()
        let delay = Duration.milliseconds(40)
        let (result, server) = try await run(
            """
            (async () => {
              const q = HTTP.queue("api", { maxConcurrent: 8 });
              let peak = 0;
              const all = [];
              for (let i = 0; i < 200; i++) {
                all.push(q.fetch(base + "/work?i=" + i).then(async (r) => {
                  peak = Math.max(peak, q.running);
                  return r.ok && (await r.text()) === "i=" + i;
                }));
                peak = Math.max(peak, q.running);
              }
              console.log("queued", q.running, q.waiting, q.maxConcurrent);
              const oks = await Promise.all(all);
              console.log("ok", oks.filter((x) => x).length, "peak", peak);
              console.log("after", q.running, q.waiting, q.isIdle, bridge.pendingCalls);
            })();
            """,
            routes: { Self.workRoute($0, delay: delay, arrivals: arrivals) })
        #expect(result.lines == ["queued 8 192 8", "ok 200 peak 8", "after 0 0 true 0"])
        #expect(result.stderr == "")
        #expect(server.requests.filter { $0.path == "/work" }.count == 200)
        let times = arrivals.times
        #expect(times.count == 200)
        #expect(Self.maxOverlap(times, delay: delay) <= 8)
    }

    /// AsyncHTTPClient itself keeps at most 8 connections per host, so a smaller queue shows the limit is the queue's.
    @Test func aQueueOfThreeLimitsTheServersLoad() async throws {
        let arrivals = Arrivals()
        let delay = Duration.milliseconds(60)
        let (result, _) = try await run(
            """
            (async () => {
              const q = HTTP.queue("three", { maxConcurrent: 3 });
              const texts = await Promise.all(Array.from({ length: 30 }, (_, i) => q.fetch(base + "/work?i=" + i).then((r) => r.text())));
              console.log(texts.length, texts[0], texts[29]);
            })();
            """,
            routes: { Self.workRoute($0, delay: delay, arrivals: arrivals) })
        #expect(result.lines == ["30 i=0 i=29"])
        let times = arrivals.times
        #expect(times.count == 30)
        #expect(Self.maxOverlap(times, delay: delay) <= 3)
    }

    @Test func fifoStartOrder() async throws {
        let (result, server) = try await run(
            """
            (async () => {
              const one = HTTP.queue("one", { maxConcurrent: 1 });
              await Promise.all(Array.from({ length: 12 }, (_, i) => one.fetch(base + "/work?i=" + i)));
              const started = [];
              const two = HTTP.queue("two", { maxConcurrent: 2 });
              const tasks = Array.from({ length: 10 }, (_, i) =>
                two.add(() => { started.push(i); return new Promise((r) => setTimeout(r, (7 * i) % 5)); }));
              await Promise.all(tasks);
              console.log(started.join(","));
            })();
            """,
            routes: { server in server.route("/work") { request in .text(request.query ?? "") } })
        #expect(result.lines == ["0,1,2,3,4,5,6,7,8,9"])
        #expect(result.stderr == "")
        #expect(server.requests.map(\.uri) == (0..<12).map { "/work?i=\($0)" })
    }

    @Test func resizingUpAndDown() async throws {
        let (result, _) = try await run(
            """
            (async () => {
              const q = HTTP.queue("r", { maxConcurrent: 1 });
              console.log(HTTP.queue("r") === q, q.name, q.maxConcurrent, HTTP.queue("other").maxConcurrent);
              const gates = [];
              const started = [];
              const tick = () => new Promise((r) => setTimeout(r, 0));
              const all = Array.from({ length: 7 }, (_, i) => q.add(() => {
                started.push(i);
                return new Promise((resolve) => { gates[i] = resolve; });
              }).then((v) => v));
              console.log("start", q.running, q.waiting, started.join(","));
              q.maxConcurrent = 3;                                   // grows: two more start at once
              console.log("grown", q.running, q.waiting, started.join(","));
              HTTP.queue("r", { maxConcurrent: 4 });                 // options resize the same queue
              console.log("grown again", q.maxConcurrent, q.running, q.waiting);
              q.resize(1);                                           // shrinks: running tasks go on
              console.log("shrunk", q.maxConcurrent, q.running, q.waiting);
              gates[0](); gates[1](); await tick();
              console.log("two done", q.running, q.waiting, started.join(","));
              gates[2](); await tick();
              console.log("below the limit", q.running, q.waiting, started.join(","));
              q.resize(Infinity);
              console.log("unlimited", q.running, q.waiting, started.join(","));
              for (let i = 3; i < 7; i++) gates[i](i);
              console.log("results", (await Promise.all(all)).slice(3).join(","), q.isIdle);
              for (const bad of [0, -1, 1.5, NaN, "x"]) {
                try { q.resize(bad); } catch (e) { console.log(e.constructor.name); }
              }
            })();
            """)
        #expect(
            result.lines == [
                "true r 1 1", "start 1 6 0", "grown 3 4 0,1,2", "grown again 4 4 3", "shrunk 1 4 3",
                "two done 2 3 0,1,2,3", "below the limit 1 3 0,1,2,3", "unlimited 4 0 0,1,2,3,4,5,6",
                "results 3,4,5,6 true", "RangeError", "RangeError", "RangeError", "RangeError", "RangeError",
            ])
        #expect(result.stderr == "")
    }

    @Test func onIdleAndIdle() async throws {
        let (result, _) = try await run(
            """
            (async () => {
              const q = HTTP.queue("idle", { maxConcurrent: 2 });
              const order = [];
              await q.idle();
              console.log("idle at once", q.isIdle);
              let drains = 0;
              const handle = q.onIdle((queue) => { drains++; order.push("onIdle " + (queue === q)); });
              const a = q.fetch(base + "/work?i=a").then((r) => r.text()).then((t) => order.push(t));
              const b = q.fetch(base + "/work?i=b").then((r) => r.text()).then((t) => order.push(t));
              const c = q.add(() => Promise.reject(new Error("boom"))).catch((e) => order.push(e.message));
              await q.idle();
              // The tasks' own promises are settled before idle() resolves (chains hanging off them may still run).
              console.log(drains, q.running, q.waiting, order.filter((x) => x.startsWith("onIdle")).join(","));
              await Promise.all([a, b, c]);
              await q.fetch(base + "/work?i=c");
              await q.idle();
              console.log("drains", drains);
              handle.remove();
              await q.add(async () => 1);
              await q.idle();
              console.log("after remove", drains);
            })();
            """,
            routes: { server in
                server.route("/work") { request in .text(request.query ?? "", delay: .milliseconds(20)) }
            })
        #expect(result.lines == ["idle at once true", "1 0 0 onIdle true", "drains 2", "after remove 2"])
        #expect(result.stderr == "")
    }

    @Test func cancelAll() async throws {
        let (result, server) = try await run(
            """
            (async () => {
              const q = HTTP.queue("c", { maxConcurrent: 2 });
              const outcomes = Array.from({ length: 6 }, (_, i) =>
                q.fetch(base + "/slow?i=" + i).then(() => "resolved " + i, (e) => e.name + " " + (e instanceof DOMException)));
              let sawSignal = null;
              const custom = q.add(({ signal }) => new Promise((_, reject) => {
                signal.addEventListener("abort", () => { sawSignal = signal.reason; reject(signal.reason); });
              })).catch((e) => "add " + e.name);
              console.log("before", q.running, q.waiting);
              await new Promise((r) => setTimeout(r, 200));
              const hit = q.cancelAll();
              // Aborted fetches hold their slots until they have settled (a moment later).
              console.log("after", hit, q.running, q.waiting);
              console.log((await Promise.all(outcomes)).join("; "));
              console.log(await custom, sawSignal === null);
              await q.idle();
              console.log("pending", bridge.pendingCalls, q.running, q.waiting);

              // A custom reason; a queue-level cancel leaves the queue usable.
              const reason = new Error("shutting down");
              const q2 = HTTP.queue("c2", { maxConcurrent: 1 });
              const r1 = q2.fetch(base + "/slow").catch((e) => e === reason);
              const r2 = q2.add(async () => "never").catch((e) => e === reason);
              q2.cancelAll(reason);
              console.log("reason", await r1, await r2, bridge.pendingCalls);
              console.log("reusable", (await (await q2.fetch(base + "/fast")).text()));

              // A waiting fetch whose own signal aborts leaves the queue (others keep their places).
              const q3 = HTTP.queue("c3", { maxConcurrent: 1 });
              const ctl = new AbortController();
              const blocker = q3.fetch(base + "/fast");
              const mine = q3.fetch(base + "/fast", { signal: ctl.signal }).catch((e) => "mine " + e.name);
              const last = q3.fetch(base + "/fast").then((r) => "last " + r.status);
              ctl.abort();
              console.log("waiting", q3.waiting, await mine, await last, (await blocker).status);
            })();
            """,
            routes: { server in
                server.route("/slow") { _ in .text("late", delay: .seconds(3600)) }  // only a cancel ends it
                server.route("/fast") { _ in .text("fast") }
            })
        #expect(
            result.lines == [
                "before 2 5", "after 7 2 0",
                "AbortError true; AbortError true; AbortError true; AbortError true; AbortError true; AbortError true",
                "add AbortError true", "pending 0 0 0", "reason true true 0", "reusable fast",
                "waiting 1 mine AbortError last 200 200",
            ])
        #expect(result.stderr == "")
        #expect(result.exitCode == 0)
        // Only the two running fetches can have reached the server (the waiting ones never started).
        #expect(server.requests.filter { $0.path == "/slow" }.count <= 3)
    }
}

/// When requests reached the server.
final class Arrivals: Sendable {
    private let storage = Locked<[ContinuousClock.Instant]>([])
    func record() { storage.withLock { $0.append(ContinuousClock.now) } }
    var times: [ContinuousClock.Instant] { storage.withLock { $0 } }
}
