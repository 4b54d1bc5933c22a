import Foundation
import JSBridgeBase
import JSBridgeCore
import JSBridgeTesting
import QueueCore
import QueuePostgres
import StorageCore
import StoragePlugin
import StoragePluginTesting
import StoragePostgres
import Testing

@testable import QueuePlugin

/// A write of another plugin that fails after the others ran: the whole batch must roll back.
struct FailingWrite: SQLiteTransactionWrite, PostgresTransactionWrite {
    func write(sqlite db: OpaquePointer, path: String) throws(StorageError) {
        throw .failure(path: path, message: "refused by the test")
    }

    func prepare(postgres connection: PGConnection, url: PostgresURL) throws(PGFailure) {}

    func write(postgres connection: PGConnection, appID: String) throws(PGFailure) {
        try connection.execute("SELECT 1 / 0")
    }
}

/// `enqueue` inside `Storage.transaction`: the job commits with the storage writes, or neither does — on
/// SQLite (one file holds both) and PostgreSQL (one transaction on Storage's connection).
@Suite(.serialized, .blocking) struct TransactionEnqueueTests {
    /// A storage store and a job store on one location: the same SQLite file, or one app id in the shared
    /// database.
    static func stores(_ kind: StoreKind, quotaBytes: Int? = 10 << 20) throws -> (any KeyValueStore, any JobStore) {
        switch kind {
        case .sqlite:
            let directory = TemporaryDirectory.make(prefix: "queue-tx")
            let storage = try SQLiteKeyValueStore(directory: directory, appID: "app", quotaBytes: quotaBytes)
            let jobs = try SQLiteJobStore(path: SQLiteJobStore.databasePath(directory: directory, appID: "app"))
            return (storage, jobs)
        case .postgres:
            let url = try PostgresURL(try SharedQueuePostgres.url)
            let app = UUID().uuidString
            return (
                try PostgresKeyValueStore(url: url, appID: app, quotaBytes: quotaBytes),
                try PostgresJobStore(url: url, appID: app)
            )
        }
    }

    static func job(_ payload: String, key: String? = nil) throws -> TransactionEnqueue {
        try TransactionEnqueue(
            queue: "mail", payload: payload, options: EnqueueOptions(key: key), now: epochMilliseconds(Date()))
    }

    var now: Int64 { epochMilliseconds(Date()) }

    @Test(arguments: StoreKind.allCases) func aJobCommitsWithTheStorageWrites(kind: StoreKind) throws {
        let (storage, jobs) = try Self.stores(kind)
        try storage.apply([.set(group: "g", key: "order", value: "1")], with: [try Self.job(#"{"n":1}"#, key: "k1")])
        #expect(try storage.get("order", in: "g") == "1")
        #expect(try jobs.stats("mail", now: now) == QueueStats(ready: 1))
        // A job enqueued by a transaction is a job like any other: claimed, and its key taken.
        let claimed = try jobs.claim("mail", worker: "w", limit: 5, leaseMs: 60_000, now: now)
        #expect(claimed.map(\.payload) == [#"{"n":1}"#])
        #expect(try !jobs.enqueue("mail", payload: "2", options: EnqueueOptions(key: "k1"), now: now).created)
        // The same key in a later transaction adds no job; a batch of jobs alone commits too.
        try storage.apply([.set(group: "g", key: "again", value: "2")], with: [try Self.job("2", key: "k1")])
        try storage.apply([], with: [try Self.job("3")])
        #expect(try jobs.stats("mail", now: now) == QueueStats(ready: 1, leased: 1))
        #expect(try storage.get("again", in: "g") == "2")
    }

    @Test(arguments: StoreKind.allCases) func aWriteThatFailsRollsEverythingBack(kind: StoreKind) throws {
        let (storage, jobs) = try Self.stores(kind)
        #expect(throws: StorageError.self) {
            try storage.apply(
                [.set(group: "g", key: "order", value: "1")], with: [try Self.job("1"), FailingWrite()])
        }
        #expect(try storage.get("order", in: "g") == nil)
        #expect(try jobs.stats("mail", now: now) == QueueStats())
        // The store goes on working: the next batch commits.
        try storage.apply([.set(group: "g", key: "order", value: "2")], with: [try Self.job("2")])
        #expect(try storage.get("order", in: "g") == "2")
        #expect(try jobs.stats("mail", now: now) == QueueStats(ready: 1))
    }

    @Test(arguments: StoreKind.allCases) func aBatchOverTheQuotaEnqueuesNothing(kind: StoreKind) throws {
        let (storage, jobs) = try Self.stores(kind, quotaBytes: 100)
        #expect(throws: StorageError.self) {
            try storage.apply(
                [.set(group: "g", key: "big", value: String(repeating: "x", count: 200))], with: [try Self.job("1")])
        }
        #expect(try storage.get("big", in: "g") == nil)
        #expect(try jobs.stats("mail", now: now) == QueueStats())
    }

    static func run(_ kind: StoreKind, _ code: String) async throws -> ScriptResult {
        var options = BridgeHost.Options.testing()
        if kind == .postgres {
            let url = JSONValue.string(try SharedQueuePostgres.url)
            options.configuration["Queue"] = .object(["url": url])
            options.configuration["Storage"] = .object(["url": url])
            options.storage = StorageLocation(appID: UUID().uuidString, directory: options.storage.directory)
        }
        return await ScriptRunner.run(
            code, plugins: [QueuePlugin(), StoragePlugin()], options: options, timeout: .seconds(60))
    }

    @Test(arguments: StoreKind.allCases) func scriptsEnqueueInsideStorageTransaction(kind: StoreKind) async throws {
        let result = try await Self.run(
            kind,
            """
            (async () => {
              const ready = async () => (await Queue.stats("mail")).ready;
              await Storage.transaction(async (tx) => {
                tx.set("order", { n: 1 });
                await null;
                tx.enqueue("mail", { to: "a" }, { key: "m1" });
              });
              console.log(JSON.stringify(await Storage.get("order")), await ready());
              try {
                await Storage.transaction((tx) => {
                  tx.set("order2", 2);
                  tx.enqueue("mail", 2);
                  throw new Error("no");
                });
              } catch (e) {
                console.log("threw", e.message);
              }
              console.log(await Storage.get("order2"), await ready());
              await Storage.transaction([
                { op: "set", key: "x", value: 1 },
                { op: "enqueue", queue: "mail", payload: 3, backoff: { type: "fixed", delayMs: 5 } },
              ]);
              console.log(await Storage.get("x"), await ready());
              try {
                await Storage.transaction([{ op: "set", key: "y", value: 1 }, { op: "enqueue", queue: "mail", attempts: 0 }]);
              } catch (e) {
                console.log(e.code, e.data.issues[0].path);
              }
              console.log(await Storage.get("y"), await ready());
              const seen = [];
              const worker = Queue.work("mail", async (job) => { seen.push(JSON.stringify(job.payload)); });
              while ((await Queue.stats("mail")).done < 2) await new Promise((r) => setTimeout(r, 10));
              await worker.stop();
              console.log(seen.join(" "));
            })();
            """)
        #expect(
            result.lines == [
                #"{"n":1} 1"#, "threw no", "undefined 1", "1 2", "INVALID_ARGUMENT ops[1].attempts", "undefined 2",
                #"{"to":"a"} 3"#,
            ], "\(result.stderr)")
    }

    /// A process committing transactions of 20 keys and a job each is killed (SIGKILL) at some moment, three
    /// times: afterwards every transaction is there whole (its 20 keys and its job) or not at all.
    @Test(arguments: StoreKind.allCases) func aKilledProcessLeavesWholeTransactionsOnly(kind: StoreKind) async throws {
        let directory = TemporaryDirectory.make(prefix: "queue-tx-kill")
        let appID = "txkill-\(UUID().uuidString.prefix(8))"
        let url: String? = kind == .postgres ? try SharedQueuePostgres.url : nil
        var arguments = ["--app-id", appID, "--storage-dir", directory]
        if let url { arguments += ["--storage-url", url] }
        var lastAcked: [Int] = []
        for round in 0..<3 {
            let script = """
                (async () => {
                  const value = "x".repeat(1000);
                  for (let i = \(round * 100_000); ; i++) {
                    await Storage.transaction((tx) => {
                      for (let j = 0; j < 20; j++) tx.set(`k${i}-${j}`, value);
                      tx.enqueue("jobs", { i });
                    });
                    ack(i);
                  }
                })();
                """
            let (process, pipe) = try AckingProcess.start(script, arguments: arguments)
            let output = Locked("")
            let reader = Task {
                try await runBlocking {
                    let handle = pipe.fileHandleForReading
                    while true {
                        let data = handle.availableData
                        if data.isEmpty { return }
                        output.withLock { $0 += String(decoding: data, as: UTF8.self) }
                    }
                }
            }
            // Killed after a varying number of commits, mid-way through one (the loop never pauses).
            let target = 10 + round * 7
            let deadline = ContinuousClock.now + .seconds(60)
            while output.withLock({ $0.split(separator: "\n").count }) < target, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            kill(process.processIdentifier, SIGKILL)
            try await reader.value
            process.waitUntilExit()
            lastAcked.append(output.withLock { $0.split(separator: "\n").compactMap { Int($0) }.max() ?? -1 })
        }
        let (storage, jobs): (any KeyValueStore, any JobStore) =
            if let url {
                (
                    try PostgresKeyValueStore(url: try PostgresURL(url), appID: appID),
                    try PostgresJobStore(url: try PostgresURL(url), appID: appID)
                )
            } else {
                (
                    try SQLiteKeyValueStore(directory: directory, appID: appID),
                    try SQLiteJobStore(path: SQLiteJobStore.databasePath(directory: directory, appID: appID))
                )
            }
        var keysPerTransaction: [Int: Int] = [:]
        for key in try storage.keys(in: "default") {
            let i = Int(key.dropFirst().split(separator: "-")[0])!
            keysPerTransaction[i, default: 0] += 1
        }
        let claimed = try jobs.claim("jobs", worker: "check", limit: 100_000, leaseMs: 60_000, now: now)
        let jobTransactions = claimed.map { job -> Int in
            let object = try? JSONSerialization.jsonObject(with: Data(job.payload.utf8)) as? [String: Int]
            return object?["i"] ?? -1
        }
        #expect(Set(jobTransactions).count == jobTransactions.count, "a transaction enqueued twice")
        #expect(keysPerTransaction.values.allSatisfy { $0 == 20 }, "a transaction's keys committed in part")
        #expect(Set(keysPerTransaction.keys) == Set(jobTransactions), "keys without their job, or a job alone")
        // Every acknowledged transaction is there.
        for (round, acked) in lastAcked.enumerated() where acked >= 0 {
            #expect(Set(round * 100_000...acked).isSubset(of: Set(jobTransactions)))
        }
        #expect(jobTransactions.count >= 10 + 17 + 24)
    }
}
