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
        let finishedAt = Locked<[ContinuousClock.Instant]>([])
        let worker = QueueWorker(
            store: store, queue: "q", concurrency: 4, leaseMs: 1000, pollInterval: .milliseconds(20))
        let task = Task {
            await worker.run { job in
                try? await Task.sleep(for: .milliseconds(10))
                runs.withLock { $0[job.payload, default: 0] += 1 }
                finishedAt.withLock { $0.append(.now) }
                return .completed
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        let killedAt = ContinuousClock.now
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
        // At least once: every job ran; a job runs again only when its claim's or completion's answer was lost
        // (at most the 4 in flight and their batch), or its completion was among the asynchronous commits the
        // server had not flushed when it was killed (its WAL writer flushes within 3 × 200 ms): those of the
        // last second before the kill at most.
        #expect(Set(runs.withLock { $0.keys }) == Set((0..<total).map(String.init)))
        let recent = finishedAt.withLock { $0.filter { $0 <= killedAt && killedAt - $0 < .seconds(1) }.count }
        #expect(runs.withLock { $0.values.filter { $0 > 1 }.count } <= 8 + recent)
    }

    /// A worker's claims and completions commit without waiting for the WAL flush (the server's WAL writer set
    /// to flush every 10 s here, so one that was not flushed is lost with a `kill -9`); an enqueue waits for
    /// it, which also makes every commit before it durable. Whatever is lost, every job ends done once: the
    /// test's trigger logs each transition to done, in the transaction that makes it.
    @Test func aLostAsynchronousCompletionRunsTheJobAgainAndNeverCountsTwice() async throws {
        let cluster = try TestPostgresCluster.start()
        defer { try? cluster.stop() }
        let url = try PostgresURL(try cluster.createDatabase("async"))
        let store = try PostgresJobStore(url: url, appID: "a", unavailableWait: .seconds(60))
        defer { store.close() }
        try cluster.psql(
            "async",
            """
            CREATE TABLE done_log (id bigint NOT NULL);
            CREATE FUNCTION log_done() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN INSERT INTO done_log VALUES (NEW.id); RETURN NEW; END $$;
            CREATE TRIGGER log_done AFTER UPDATE ON jsbridge_queue_jobs FOR EACH ROW
                WHEN (NEW.state = 'done' AND OLD.state IS DISTINCT FROM 'done') EXECUTE FUNCTION log_done();
            """)
        try cluster.psql("async", "ALTER SYSTEM SET wal_writer_delay = '10s'")
        try cluster.psql("async", "SELECT pg_reload_conf()")
        func restart() throws {
            try cluster.kill9()
            try cluster.restart()
        }
        let lease: Int64 = 1000
        var now = epochMilliseconds(Date())
        let a = try store.enqueue("q", payload: "a", options: EnqueueOptions(attempts: 5), now: now)
        let b = try store.enqueue("q", payload: "b", options: EnqueueOptions(attempts: 5), now: now)

        // A completed asynchronously, then C enqueued (durable): both survive the kill.
        let first = try store.claim("q", worker: "w1", limit: 1, leaseMs: lease, now: now)
        #expect(first.map(\.id) == [a.id])
        #expect(try store.complete(a.id, worker: "w1", attempt: 1, now: now))
        let c = try store.enqueue("q", payload: "c", options: EnqueueOptions(attempts: 5), now: now)
        try restart()
        now = epochMilliseconds(Date())
        #expect(try store.stats("q", now: now) == QueueStats(ready: 2, done: 1))

        // B claimed and completed asynchronously, then the server killed at once: B's completion is lost
        // (with its claim when that was not flushed either), and B runs again.
        let second = try store.claim("q", worker: "w2", limit: 1, leaseMs: lease, now: now)
        #expect(second.map(\.id) == [b.id])
        #expect(try store.complete(b.id, worker: "w2", attempt: 1, now: now))
        try restart()
        now = epochMilliseconds(Date())
        let afterKill = try store.stats("q", now: now)
        #expect(afterKill.done == 1, "B's completion was flushed before the kill: \(afterKill)")
        // Replaying w2's completion now is what a lost answer's retry does: it commits once at most.
        _ = try store.complete(b.id, worker: "w2", attempt: 1, now: now)
        // Past B's lease, another worker gets what is left and completes it.
        now += lease + 1
        let rest = try store.claim("q", worker: "w3", limit: 10, leaseMs: lease, now: now)
        for job in rest { _ = try store.complete(job.id, worker: "w3", attempt: job.attempt, now: now) }
        #expect(Set(rest.map(\.id)).isSuperset(of: [c.id]))
        #expect(try store.stats("q", now: now) == QueueStats(done: 3))
        let log = try cluster.psql("async", "SELECT count(*), count(DISTINCT id) FROM done_log")
        #expect(log.trimmingCharacters(in: .whitespacesAndNewlines) == "3|3")
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
