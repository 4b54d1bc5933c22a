import Foundation
import JSBridgeBase
import JSBridgeTesting
import QueueCore
import QueuePostgres
import StoragePluginTesting
import StoragePostgres
import Testing

// Queue workers and BroadcastChannel on several hosts: network namespaces made by the test (TestHosts), each
// with its own address, running built `jsbridge` processes against a PostgreSQL cluster of the test's own
// that listens on the namespaces' bridge.

/// A PostgreSQL cluster reachable from `hosts`, and the URL of a fresh database on it as the hosts see it.
struct HostsCluster {
    let hosts: TestHosts
    let cluster: TestPostgresCluster
    let database: String
    /// The URL for processes on the hosts (the bridge address).
    var hostURL: String { cluster.url(database: database, host: hosts.routerAddress) }
    /// The URL for the test itself (loopback).
    var localURL: String { cluster.url(database: database) }

    init(hosts count: Int, database: String) throws {
        hosts = try TestHosts.make(count: count)
        do {
            cluster = try TestPostgresCluster.start(fsync: false, network: (hosts.routerAddress, hosts.subnet))
        } catch {
            hosts.remove()
            throw error
        }
        self.database = database
        _ = try cluster.createDatabase(database)
    }

    func remove() {
        try? cluster.stop()
        hosts.remove()
    }

    /// Starts `jsbridge` running `script` on host `index` (an `ack(text)` prints `text`), on app `appID`.
    func start(_ script: String, on index: Int, appID: String) throws -> (Process, Pipe) {
        try AckingProcess.start(
            script,
            arguments: [
                "--app-id", appID, "--storage-dir", TemporaryDirectory.make(prefix: "hosts"), "--storage-url",
                hostURL,
            ],
            launcher: [TestHosts.ip] + hosts.exec(index, []))
    }
}

/// What a process printed so far, read off the cooperative pool as it comes.
final class OutputReader: Sendable {
    private let state = Locked((text: "", ended: false))
    private let reader: Task<Void, any Error>

    init(_ pipe: Pipe) {
        let state = state
        reader = Task {
            try await runBlocking {
                let handle = pipe.fileHandleForReading
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    state.withLock { $0.text += String(decoding: data, as: UTF8.self) }
                }
                state.withLock { $0.ended = true }
            }
        }
    }

    /// Waits until the output contains `marker`; false when the process closed its output without it.
    func wait(for marker: String) async throws -> Bool {
        while true {
            let (text, ended) = state.withLock { ($0.text, $0.ended) }
            if text.contains(marker) { return true }
            if ended { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits for the end of the output (the process closed its stdout) and returns all of it.
    func finish() async throws -> String {
        try await reader.value
        return state.withLock { $0.text }
    }
}

@Suite(
    .serialized, .blocking,
    .enabled(if: TestHosts.available, "needs root and iproute2 to make network namespaces (hosts)"))
struct HostsTests {
    /// Jobs of the many-hosts queue test: `JSBRIDGE_HOSTS_JOBS` (the figure is 100,000; the default
    /// keeps the debug suite's time down).
    static var jobs: Int {
        ProcessInfo.processInfo.environment["JSBRIDGE_HOSTS_JOBS"].flatMap(Int.init) ?? 4000
    }

    /// 8 worker processes on 4 hosts complete every job while the test `kill -9`s a worker every second and
    /// starts it again (and, the second time, also kills and restarts the PostgreSQL server once): every job
    /// ends done, and none is marked done twice (a trigger of the test logs each transition to done).
    @Test(arguments: [false, true]) func workersOnFourHostsLoseNothingAndCompleteNothingTwice(restartServer: Bool)
        async throws
    {
        let setup = try HostsCluster(hosts: 4, database: "jobs")
        defer { setup.remove() }
        let total = Self.jobs
        let appID = "hosts-\(UUID().uuidString.prefix(8))"
        let store = try PostgresJobStore(url: try PostgresURL(setup.localURL), appID: appID)
        defer { store.close() }
        try setup.cluster.psql(
            setup.database,
            """
            CREATE TABLE done_log (id bigint NOT NULL);
            CREATE FUNCTION log_done() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN INSERT INTO done_log VALUES (NEW.id); RETURN NEW; END $$;
            CREATE TRIGGER log_done AFTER UPDATE ON jsbridge_queue_jobs FOR EACH ROW
                WHEN (NEW.state = 'done' AND OLD.state IS DISTINCT FROM 'done') EXECUTE FUNCTION log_done();
            """)
        let now = epochMilliseconds(Date())
        // In batches of 1000 rows per statement: the test's own enqueueing is not what is measured.
        for base in stride(from: 0, to: total, by: 1000) {
            try setup.cluster.psql(
                setup.database,
                """
                INSERT INTO jsbridge_queue_jobs(app, queue, payload, state, run_at, max_attempts, backoff_kind,
                    backoff_ms, backoff_max_ms, created_at)
                SELECT '\(appID)', 'jobs', '{"n":' || n || '}', 'ready', \(now), 1000, 'fixed', 10, 10, \(now)
                FROM generate_series(\(base), \(min(total, base + 1000) - 1)) AS n
                """)
        }
        #expect(try store.stats("jobs", now: now) == QueueStats(ready: total))
        let script = """
            Queue.work("jobs", async () => { await new Promise((r) => setTimeout(r, 1)); },
              { concurrency: 8, leaseMs: 1500 });
            setInterval(async () => {
              try { if ((await Queue.stats("jobs")).done === \(total)) process.exit(0); } catch {}
            }, 200);
            """
        var workers: [(Process, Pipe)] = []
        for index in 0..<8 { workers.append(try setup.start(script, on: index % 4, appID: appID)) }
        var kills = 0
        var restarted = false
        let deadline = ContinuousClock.now + .seconds(600)
        func done() -> Int { (try? store.stats("jobs", now: epochMilliseconds(Date())).done) ?? -1 }
        while done() != total, ContinuousClock.now < deadline {
            try await Task.sleep(for: .seconds(1))
            let index = kills % workers.count
            let (process, pipe) = workers[index]
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                _ = try await AckingProcess.finish(process, pipe)
                kills += 1
                workers[index] = try setup.start(script, on: index % 4, appID: appID)
            }
            if restartServer, !restarted, done() >= total / 3 {
                restarted = true
                try setup.cluster.kill9()
                try setup.cluster.restart()
            }
        }
        for (process, pipe) in workers {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            _ = try await AckingProcess.finish(process, pipe)
        }
        #expect(kills >= 2)
        #expect(restarted == restartServer)
        #expect(try store.stats("jobs", now: epochMilliseconds(Date())) == QueueStats(done: total))
        let log = try setup.cluster.psql(setup.database, "SELECT count(*), count(DISTINCT id) FROM done_log")
        #expect(log.trimmingCharacters(in: .whitespacesAndNewlines) == "\(total)|\(total)")
    }

    /// 4 hosts post 1000 messages each on one channel; host 1's link goes down for 2 s while they post: every
    /// host gets every other host's 1000 messages once each, in each sender's order.
    @Test func broadcastOnFourHostsDeliversEveryMessageOnceInOrderAcrossALinkDrop() async throws {
        let setup = try HostsCluster(hosts: 4, database: "broadcast")
        defer { setup.remove() }
        let (hosts, count) = (4, 1000)
        let appID = "hosts-bc-\(UUID().uuidString.prefix(8))"
        var processes: [(Process, OutputReader)] = []
        for index in 0..<hosts {
            let script = broadcastParticipant(
                me: index, peers: hosts, count: count, channel: "hosts", timeoutMs: 180000)
            let (process, pipe) = try setup.start(script, on: index, appID: appID)
            processes.append((process, OutputReader(pipe)))
        }
        // While they post: host 1 drops off the network for 2 s (its connections stall, then carry on).
        #expect(try await processes[1].1.wait(for: "posting"))
        try setup.hosts.setLink(1, up: false)
        try await Task.sleep(for: .seconds(2))
        try setup.hosts.setLink(1, up: true)
        for (index, (process, reader)) in processes.enumerated() {
            let output = try await reader.finish()
            try await runBlocking { process.waitUntilExit() }
            #expect(process.terminationStatus == 0, "\(output)")
            let others = (0..<hosts).filter { $0 != index }.map { "[\($0),\(count)]" }.joined(separator: ",")
            #expect(output == "posting\n{\"me\":\(index),\"bad\":0,\"from\":[\(others)]}\n")
        }
    }
}
