import Foundation
import JSBridgeBase
import JSBridgeTesting
import QueueCore
import QueuePostgres
import StoragePluginTesting
import StoragePostgres
import Testing

// Several built `jsbridge` processes working one queue (one SQLite file, or one PostgreSQL database as on
// several hosts), one of them killed with SIGKILL while it holds jobs: every job ends done, exactly once in
// the store, and only the killed worker's jobs ran twice.

enum QueueProcess {
    /// A worker process on `appID` (SQLite under `directory`, or PostgreSQL at `url`), stdout to a pipe.
    static func start(_ script: String, appID: String, directory: String, url: String?) throws -> (Process, Pipe) {
        var arguments = ["--app-id", appID, "--storage-dir", directory]
        if let url { arguments += ["--storage-url", url] }
        return try AckingProcess.start(script, arguments: arguments)
    }

    static func finish(_ process: Process, _ pipe: Pipe) async throws -> (output: String, status: Int32) {
        try await AckingProcess.finish(process, pipe)
    }

    /// A worker script: runs jobs of "jobs" (`handler` is the body of an async function of `job`), and exits
    /// once the queue has `total` done jobs.
    static func script(total: Int, concurrency: Int, handler: String) -> String {
        """
        Queue.work("jobs", async (job) => { \(handler) }, { concurrency: \(concurrency), leaseMs: 1500 });
        setInterval(async () => {
          const stats = await Queue.stats("jobs");
          if (stats.done === \(total)) process.exit(0);
        }, 100);
        """
    }
}

@Suite(.serialized, .blocking) struct QueueProcessTests {
    /// A `kind` store for `appID` holding `jobs` jobs on queue "jobs" (`{"n": i}`), and its URL on PostgreSQL.
    static func store(_ kind: StoreKind, directory: String, appID: String, jobs: Int, attempts: Int) throws -> (
        any JobStore, String?
    ) {
        let url: String? = kind == .postgres ? try SharedQueuePostgres.url : nil
        let store: any JobStore =
            if let url {
                try PostgresJobStore(url: try PostgresURL(url), appID: appID)
            } else {
                try SQLiteJobStore(path: SQLiteJobStore.databasePath(directory: directory, appID: appID))
            }
        let now = epochMilliseconds(Date())
        for i in 0..<jobs {
            _ = try store.enqueue(
                "jobs", payload: "{\"n\":\(i)}", options: EnqueueOptions(attempts: attempts), now: now)
        }
        return (store, url)
    }

    @Test(arguments: StoreKind.allCases) func workersSurviveAKilledWorker(kind: StoreKind) async throws {
        let total = 300
        let directory = TemporaryDirectory.make(prefix: "queue-procs")
        let appID = "procs-\(UUID().uuidString.prefix(8))"
        let (store, url) = try Self.store(kind, directory: directory, appID: appID, jobs: total, attempts: 5)
        // The victim takes two jobs and never finishes them.
        let victim = try QueueProcess.start(
            QueueProcess.script(
                total: total, concurrency: 2,
                handler: #"ack("start " + job.payload.n); await new Promise(() => {});"#),
            appID: appID, directory: directory, url: url)
        let victimOutput = Locked("")
        let reader = Task {
            try await runBlocking {
                let handle = victim.1.fileHandleForReading
                while true {
                    let data = handle.availableData
                    if data.isEmpty { return }
                    victimOutput.withLock { $0 += String(decoding: data, as: UTF8.self) }
                }
            }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while victimOutput.withLock({ $0.split(separator: "\n").count }) < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        var workers: [(Process, Pipe)] = []
        for _ in 0..<3 {
            workers.append(
                try QueueProcess.start(
                    QueueProcess.script(
                        total: total, concurrency: 4,
                        handler: #"ack("start " + job.payload.n); await new Promise((r) => setTimeout(r, 2));"#),
                    appID: appID, directory: directory, url: url))
        }
        try await Task.sleep(for: .milliseconds(300))
        kill(victim.0.processIdentifier, SIGKILL)
        try await reader.value
        victim.0.waitUntilExit()
        var outputs: [String] = []
        for (process, pipe) in workers {
            let (output, status) = try await QueueProcess.finish(process, pipe)
            #expect(status == 0)
            outputs.append(output)
        }
        let stats = try store.stats("jobs", now: epochMilliseconds(Date()))
        #expect(stats == QueueStats(done: total))
        func starts(_ output: String) -> [Int] {
            output.split(separator: "\n").compactMap { $0.hasPrefix("start ") ? Int($0.dropFirst(6)) : nil }
        }
        let victimJobs = Set(starts(victimOutput.withLock { $0 }))
        #expect(victimJobs.count == 2)
        var runs: [Int: Int] = [:]
        for output in outputs { for n in starts(output) { runs[n, default: 0] += 1 } }
        // Every job ran in a surviving worker, once each: the killed worker's two after their leases ended.
        #expect(Set(runs.keys) == Set(0..<total))
        #expect(runs.values.allSatisfy { $0 == 1 })
        #expect(victimJobs.isSubset(of: Set(runs.keys)))
    }

    /// Six workers, one of them killed with SIGKILL every second and started again, until every job is done:
    /// none lost, each completed once (the store counts), and only jobs held by a killed worker ran twice.
    @Test(arguments: StoreKind.allCases) func workersKilledEverySecondLoseNothing(kind: StoreKind) async throws {
        let total = 2000
        let directory = TemporaryDirectory.make(prefix: "queue-chaos")
        let appID = "chaos-\(UUID().uuidString.prefix(8))"
        let (store, url) = try Self.store(kind, directory: directory, appID: appID, jobs: total, attempts: 10)
        let script = QueueProcess.script(
            total: total, concurrency: 4,
            handler: #"ack("start " + job.payload.n); await new Promise((r) => setTimeout(r, 40));"#)
        var workers: [(Process, Pipe)] = []
        for _ in 0..<6 {
            workers.append(try QueueProcess.start(script, appID: appID, directory: directory, url: url))
        }
        var outputs: [String] = []
        var kills = 0
        let deadline = ContinuousClock.now + .seconds(180)
        while (try? store.stats("jobs", now: epochMilliseconds(Date())).done) != total, ContinuousClock.now < deadline {
            try await Task.sleep(for: .seconds(1))
            let index = kills % workers.count
            let (process, pipe) = workers[index]
            guard process.isRunning else { continue }
            kill(process.processIdentifier, SIGKILL)
            outputs.append(try await QueueProcess.finish(process, pipe).output)
            kills += 1
            workers[index] = try QueueProcess.start(script, appID: appID, directory: directory, url: url)
        }
        for (process, pipe) in workers {
            let (output, status) = try await QueueProcess.finish(process, pipe)
            #expect(status == 0 || status == 9)
            outputs.append(output)
        }
        #expect(kills >= 2)
        #expect(try store.stats("jobs", now: epochMilliseconds(Date())) == QueueStats(done: total))
        var runs: [Int: Int] = [:]
        for output in outputs {
            for line in output.split(separator: "\n") where line.hasPrefix("start ") {
                if let n = Int(line.dropFirst(6)) { runs[n, default: 0] += 1 }
            }
        }
        #expect(Set(runs.keys) == Set(0..<total))
        // A killed worker held at most 4 jobs (and a claim whose answer it never read).
        #expect(runs.values.filter { $0 > 1 }.count <= kills * 8)
    }
}
