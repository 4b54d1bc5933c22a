import Foundation
import JSBridgeBase
import JSBridgeTesting
import QueueCore
import QueuePostgres
import StoragePluginTesting
import StoragePostgres
import Testing

/// The PostgreSQL server killed (SIGKILL) and restarted about 2 s later under a working queue and a
/// broadcasting process (a cluster of its own).
@Suite(.serialized, .blocking) struct QueuePostgresRestartTests {
    @Test func aWorkerFinishesEveryJobAcrossAServerRestart() async throws {
        let cluster = try TestPostgresCluster.start()
        defer { try? cluster.stop() }
        let url = try PostgresURL(try cluster.createDatabase("restart"))
        let store = try PostgresJobStore(url: url, appID: "r", unavailableWait: .seconds(60))
        let total = 300
        let now = epochMilliseconds(Date())
        for i in 0..<total { _ = try store.enqueue("q", payload: "\(i)", options: EnqueueOptions(), now: now) }
        let runs = Locked<[String: Int]>([:])
        let worker = QueueWorker(
            store: store, queue: "q", concurrency: 4, leaseMs: 1000, pollInterval: .milliseconds(20))
        let task = Task {
            await worker.run { job in
                try? await Task.sleep(for: .milliseconds(10))
                runs.withLock { $0[job.payload, default: 0] += 1 }
                return .completed
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        try await runBlocking { try cluster.kill9() }
        try await Task.sleep(for: .seconds(2))
        try await runBlocking { try cluster.restart() }
        let deadline = ContinuousClock.now + .seconds(120)
        while (try? store.stats("q", now: epochMilliseconds(Date())).done) != total, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        task.cancel()
        await task.value
        #expect(try store.stats("q", now: epochMilliseconds(Date())) == QueueStats(done: total))
        // At least once: every job ran; a job runs again only when its claim's or completion's answer was lost.
        #expect(Set(runs.withLock { $0.keys }) == Set((0..<total).map(String.init)))
        #expect(runs.withLock { $0.values.filter { $0 > 1 }.count } <= 8)
    }

    @Test func broadcastMessagesCrossAServerRestartOnceInOrder() async throws {
        let cluster = try TestPostgresCluster.start()
        defer { try? cluster.stop() }
        let url = try cluster.createDatabase("broadcast")
        let directory = TemporaryDirectory.make(prefix: "broadcast-restart")
        let total = 300
        let listener = try QueueProcess.start(
            """
            const ch = new BroadcastChannel("c");
            let next = 0, bad = 0;
            const timer = setTimeout(() => { ack("timeout at " + next); process.exit(3); }, 120000);
            ch.onmessage = ({ data }) => {
              if (data === "ready?") { ch.postMessage("ready"); return; }
              if (data.i !== next) bad++;
              next = data.i + 1;
              if (data.i === \(total - 1)) { ack(JSON.stringify({ next, bad })); clearTimeout(timer); ch.close(); }
            };
            ch.postMessage("ready");
            """, appID: "b", directory: directory, url: url)
        let poster = try QueueProcess.start(
            """
            const ch = new BroadcastChannel("c");
            let started = false;
            ch.onmessage = ({ data }) => {
              if (data !== "ready" || started) return;
              started = true;
              ack("posting");
              let i = 0;
              const timer = setInterval(() => {
                ch.postMessage({ i });
                if (++i === \(total)) { clearInterval(timer); ch.close(); }
              }, 10);
            };
            ch.postMessage("ready?");
            """, appID: "b", directory: directory, url: url)
        // The server goes down once the two have met and messages flow (a slow start must not meet it).
        let posterOutput = OutputReader(poster.1)
        #expect(try await posterOutput.wait(for: "posting"))
        try await runBlocking { try cluster.kill9() }
        try await Task.sleep(for: .seconds(2))
        try await runBlocking { try cluster.restart() }
        let posted = try await posterOutput.finish()
        try await runBlocking { poster.0.waitUntilExit() }
        #expect(poster.0.terminationStatus == 0, "\(posted)")
        let (output, status) = try await QueueProcess.finish(listener.0, listener.1)
        #expect(status == 0)
        #expect(output == "{\"next\":\(total),\"bad\":0}\n")
    }
}
