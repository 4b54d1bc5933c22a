import Foundation
import JSBridgeBase
import JSBridgeTesting
import QueueCore
import QueuePostgres
import StoragePluginTesting
import StoragePostgres
import Testing

/// The test process's PostgreSQL cluster and its `queue` database, made once.
enum SharedQueuePostgres {
    static var url: String {
        get throws { try TestPostgresCluster.sharedDatabase("queue") }
    }
}

/// The stores the same tests run on.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }

    /// A fresh, empty store (a new file, or a new app id on the shared database).
    func make() throws -> any JobStore {
        switch self {
        case .sqlite:
            let directory = TemporaryDirectory.make(prefix: "queue-store")
            return try SQLiteJobStore(path: SQLiteJobStore.databasePath(directory: directory, appID: "app"))
        case .postgres:
            return try PostgresJobStore(url: try PostgresURL(try SharedQueuePostgres.url), appID: UUID().uuidString)
        }
    }
}

@Suite(.blocking) struct JobStoreTests {
    let clock = ManualClock()
    var now: Int64 { epochMilliseconds(clock.now()) }

    @Test(arguments: StoreKind.allCases) func enqueueClaimComplete(kind: StoreKind) throws {
        let store = try kind.make()
        let first = try store.enqueue("mail", payload: #"{"to":"a"}"#, options: EnqueueOptions(), now: now)
        let second = try store.enqueue("mail", payload: #"{"to":"b"}"#, options: EnqueueOptions(), now: now)
        _ = try store.enqueue("other", payload: "1", options: EnqueueOptions(), now: now)
        #expect(first.created && second.created && first.id != second.id)
        #expect(try store.stats("mail", now: now) == QueueStats(ready: 2))
        let jobs = try store.claim("mail", worker: "w1", limit: 10, leaseMs: 30_000, now: now)
        #expect(jobs.map(\.id) == [first.id, second.id])
        #expect(jobs.map(\.payload) == [#"{"to":"a"}"#, #"{"to":"b"}"#])
        #expect(jobs.allSatisfy { $0.attempt == 1 && $0.maxAttempts == 3 })
        #expect(try store.claim("mail", worker: "w2", limit: 10, leaseMs: 30_000, now: now).isEmpty)
        #expect(try store.stats("mail", now: now) == QueueStats(leased: 2))
        #expect(try store.complete(first.id, worker: "w1", attempt: 1, now: now))
        // Completing twice, or by another worker, changes nothing.
        #expect(try !store.complete(first.id, worker: "w1", attempt: 1, now: now))
        #expect(try !store.complete(second.id, worker: "w2", attempt: 1, now: now))
        #expect(try store.stats("mail", now: now) == QueueStats(leased: 1, done: 1))
        #expect(try store.stats("other", now: now) == QueueStats(ready: 1))
    }

    /// A worker's cycle in one call: the completions it still holds are marked done (a stale attempt's or
    /// another worker's change nothing), and the free slots are claimed from the other due jobs, never from
    /// the ones just completed, even when their leases had expired.
    @Test(arguments: StoreKind.allCases) func completeAndClaimMarksDoneThenLeasesOthers(kind: StoreKind) throws {
        let store = try kind.make()
        let ids = try (0..<5).map { try store.enqueue("q", payload: "\($0)", options: EnqueueOptions(), now: now).id }
        let first = try store.claim("q", worker: "w", limit: 2, leaseMs: 1000, now: now)
        #expect(first.map(\.id) == Array(ids[0..<2]))
        // Past the leases: the two could be claimed again, but this worker completes them in the same call.
        clock.advance(by: .seconds(2))
        let cycle = try store.completeAndClaim(
            "q", completions: first.map { Completion(id: $0.id, attempt: $0.attempt) }, worker: "w", limit: 2,
            leaseMs: 1000, now: now)
        #expect(cycle.completed == Array(ids[0..<2]))
        #expect(cycle.claimed.map(\.id) == Array(ids[2..<4]))
        #expect(try store.stats("q", now: now) == QueueStats(ready: 1, leased: 2, done: 2))
        // Completions under another attempt or by another worker, and an empty claim, change nothing.
        let stale = try store.completeAndClaim(
            "q", completions: [Completion(id: ids[2], attempt: 2), Completion(id: ids[3], attempt: 1)],
            worker: "other", limit: 0, leaseMs: 1000, now: now)
        #expect(stale.completed.isEmpty && stale.claimed.isEmpty)
        let last = try store.completeAndClaim(
            "q", completions: cycle.claimed.map { Completion(id: $0.id, attempt: $0.attempt) }, worker: "w",
            limit: 8, leaseMs: 1000, now: now)
        #expect(last.completed == Array(ids[2..<4]) && last.claimed.map(\.id) == [ids[4]])
        #expect(try store.stats("q", now: now) == QueueStats(leased: 1, done: 4))
    }

    @Test(arguments: StoreKind.allCases) func aKeyMakesEnqueueIdempotent(kind: StoreKind) throws {
        let store = try kind.make()
        let options = EnqueueOptions(key: "order-42")
        let first = try store.enqueue("q", payload: "1", options: options, now: now)
        let again = try store.enqueue("q", payload: "2", options: options, now: now)
        #expect(first.created && !again.created && again.id == first.id)
        // The same key in another queue is another job; it stays taken after the job is done.
        #expect(try store.enqueue("q2", payload: "3", options: options, now: now).created)
        let job = try #require(try store.claim("q", worker: "w", limit: 1, leaseMs: 1000, now: now).first)
        #expect(job.payload == "1")
        #expect(try store.complete(job.id, worker: "w", attempt: 1, now: now))
        #expect(
            try store.enqueue("q", payload: "4", options: options, now: now)
                == EnqueueResult(id: first.id, created: false))
        #expect(try store.stats("q", now: now) == QueueStats(done: 1))
    }

    @Test(arguments: StoreKind.allCases) func aDelayedJobWaitsForItsTime(kind: StoreKind) throws {
        let store = try kind.make()
        let job = try store.enqueue("q", payload: "1", options: EnqueueOptions(delayMs: 5000), now: now)
        #expect(try store.stats("q", now: now) == QueueStats(delayed: 1))
        #expect(try store.nextDue("q") == now + 5000)
        clock.advance(by: .milliseconds(4999))
        #expect(try store.claim("q", worker: "w", limit: 1, leaseMs: 1000, now: now).isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(try store.stats("q", now: now) == QueueStats(ready: 1))
        #expect(try store.claim("q", worker: "w", limit: 1, leaseMs: 1000, now: now).map(\.id) == [job.id])
    }

    @Test(arguments: StoreKind.allCases) func failuresRetryWithBackoffThenDie(kind: StoreKind) throws {
        let store = try kind.make()
        let options = EnqueueOptions(attempts: 3, backoff: Backoff(kind: .exponential, delayMs: 1000, maxDelayMs: 1500))
        let id = try store.enqueue("q", payload: #""p""#, options: options, now: now).id
        var job = try #require(try store.claim("q", worker: "w", limit: 1, leaseMs: 10_000, now: now).first)
        #expect(
            try store.fail(id, worker: "w", attempt: job.attempt, error: "boom 1", now: now)
                == .retry(runAt: now + 1000))
        #expect(try store.stats("q", now: now) == QueueStats(delayed: 1))
        clock.advance(by: .milliseconds(999))
        #expect(try store.claim("q", worker: "w", limit: 1, leaseMs: 10_000, now: now).isEmpty)
        clock.advance(by: .milliseconds(1))
        job = try #require(try store.claim("q", worker: "w", limit: 1, leaseMs: 10_000, now: now).first)
        #expect(job.attempt == 2)
        // 2000 ms doubled, capped at 1500.
        #expect(try store.fail(id, worker: "w", attempt: 2, error: "boom 2", now: now) == .retry(runAt: now + 1500))
        // A failure for an attempt the worker no longer holds changes nothing.
        #expect(try store.fail(id, worker: "w", attempt: 2, error: "late", now: now) == .notHeld)
        clock.advance(by: .milliseconds(1500))
        job = try #require(try store.claim("q", worker: "w", limit: 1, leaseMs: 10_000, now: now).first)
        #expect(job.attempt == 3)
        let diedAt = now
        #expect(try store.fail(id, worker: "w", attempt: 3, error: "boom 3", now: now) == .dead)
        #expect(try store.stats("q", now: now) == QueueStats(dead: 1))
        #expect(
            try store.dead("q", limit: 10) == [
                DeadJob(id: id, payload: #""p""#, attempts: 3, error: "boom 3", failedAt: diedAt)
            ])
        clock.advance(by: .seconds(3600))
        #expect(try store.claim("q", worker: "w", limit: 1, leaseMs: 10_000, now: now).isEmpty)
    }

    @Test(arguments: StoreKind.allCases) func anExpiredLeaseIsHandedOutAgain(kind: StoreKind) throws {
        let store = try kind.make()
        let id = try store.enqueue("q", payload: "1", options: EnqueueOptions(attempts: 2), now: now).id
        #expect(try store.claim("q", worker: "dead-worker", limit: 1, leaseMs: 1000, now: now).count == 1)
        clock.advance(by: .milliseconds(999))
        #expect(try store.claim("q", worker: "w2", limit: 1, leaseMs: 1000, now: now).isEmpty)
        clock.advance(by: .milliseconds(1))
        let again = try #require(try store.claim("q", worker: "w2", limit: 1, leaseMs: 1000, now: now).first)
        #expect(again.id == id && again.attempt == 2)
        // The first worker woke up late: its completion does not count.
        #expect(try !store.complete(id, worker: "dead-worker", attempt: 1, now: now))
        #expect(try store.heartbeat([id], worker: "dead-worker", leaseMs: 1000, now: now) == [])
        // The second worker dies too, on the last attempt: the job goes to the dead-letter list.
        clock.advance(by: .milliseconds(1000))
        #expect(try store.claim("q", worker: "w3", limit: 1, leaseMs: 1000, now: now).isEmpty)
        #expect(try store.stats("q", now: now) == QueueStats(dead: 1))
        #expect(try store.dead("q", limit: 10).first?.error?.contains("lease expired") == true)
    }

    @Test(arguments: StoreKind.allCases) func heartbeatsKeepALease(kind: StoreKind) throws {
        let store = try kind.make()
        let id = try store.enqueue("q", payload: "1", options: EnqueueOptions(), now: now).id
        #expect(try store.claim("q", worker: "w1", limit: 1, leaseMs: 1000, now: now).count == 1)
        for _ in 0..<5 {
            clock.advance(by: .milliseconds(600))
            #expect(try store.heartbeat([id, 999_999], worker: "w1", leaseMs: 1000, now: now) == [id])
            #expect(try store.claim("q", worker: "w2", limit: 1, leaseMs: 1000, now: now).isEmpty)
        }
        #expect(try store.complete(id, worker: "w1", attempt: 1, now: now))
    }

    @Test(arguments: StoreKind.allCases) func releaseGivesAJobBackWithoutCountingTheAttempt(kind: StoreKind) throws {
        let store = try kind.make()
        let id = try store.enqueue("q", payload: "1", options: EnqueueOptions(attempts: 1), now: now).id
        _ = try store.claim("q", worker: "w1", limit: 1, leaseMs: 1000, now: now)
        try store.release([id], worker: "w1", now: now)
        let job = try #require(try store.claim("q", worker: "w2", limit: 1, leaseMs: 1000, now: now).first)
        #expect(job.attempt == 1)
    }

    @Test(arguments: StoreKind.allCases) func badOptionsAreRefused(kind: StoreKind) throws {
        let store = try kind.make()
        #expect(throws: QueueError.invalid(path: "attempts", message: "must be between 1 and 1000, got 0")) {
            try store.enqueue("q", payload: "1", options: EnqueueOptions(attempts: 0), now: now)
        }
        #expect(throws: QueueError.self) { try store.enqueue("", payload: "1", options: EnqueueOptions(), now: now) }
        #expect(throws: QueueError.self) {
            try store.enqueue("q", payload: "1", options: EnqueueOptions(delayMs: -1), now: now)
        }
        #expect(try store.stats("q", now: now) == QueueStats())
    }

    @Test(arguments: StoreKind.allCases) func purgeDeletesOldFinishedJobs(kind: StoreKind) throws {
        let store = try kind.make()
        let keyed = try store.enqueue("q", payload: "1", options: EnqueueOptions(key: "k"), now: now).id
        let dies = try store.enqueue("q", payload: "2", options: EnqueueOptions(attempts: 1), now: now).id
        _ = try store.enqueue("q", payload: "3", options: EnqueueOptions(), now: now)
        let jobs = try store.claim("q", worker: "w", limit: 2, leaseMs: 1000, now: now)
        #expect(jobs.map(\.id) == [keyed, dies])
        #expect(try store.complete(keyed, worker: "w", attempt: 1, now: now))
        #expect(try store.fail(dies, worker: "w", attempt: 1, error: "x", now: now) == .dead)
        clock.advance(by: .seconds(10))
        #expect(try store.purge("q", before: now - 20_000, includeDead: true) == 0)
        #expect(try store.purge("q", before: now, includeDead: false) == 1)
        #expect(try store.stats("q", now: now) == QueueStats(ready: 1, dead: 1))
        #expect(try store.purge("q", before: now, includeDead: true) == 1)
        #expect(try store.stats("q", now: now) == QueueStats(ready: 1))
        // The key is free again.
        #expect(try store.enqueue("q", payload: "4", options: EnqueueOptions(key: "k"), now: now).created)
    }

    @Test func theSQLiteSchemaHasAVersionAndReopens() throws {
        let directory = TemporaryDirectory.make(prefix: "queue-schema")
        let path = SQLiteJobStore.databasePath(directory: directory, appID: "app")
        #expect(path.hasSuffix("/app.sqlite"))
        let store = try SQLiteJobStore(path: path)
        _ = try store.enqueue("q", payload: "1", options: EnqueueOptions(), now: now)
        #expect(try store.schemaVersion() == 3)
        store.close()
        let reopened = try SQLiteJobStore(path: path)
        #expect(try reopened.schemaVersion() == 3)
        #expect(try reopened.stats("q", now: now) == QueueStats(ready: 1))
    }

    /// The queue's former file (`<app>.queue.sqlite`, before it moved into Storage's) gives its jobs and
    /// messages to the new one when that opens, once, and is renamed `.moved`; a key already in the new
    /// file keeps its job there.
    @Test func theFormerQueueFileIsMovedIn() throws {
        let directory = TemporaryDirectory.make(prefix: "queue-legacy")
        let legacy = directory + "/app.queue.sqlite"
        let old = try SQLiteJobStore(path: legacy)
        _ = try old.enqueue("q", payload: "1", options: EnqueueOptions(key: "k"), now: now)
        _ = try old.enqueue("q", payload: "2", options: EnqueueOptions(), now: now)
        _ = try old.enqueue("other", payload: "3", options: EnqueueOptions(delayMs: 60_000), now: now)
        _ = try old.post(channel: "c", sender: "s", data: "hello", now: now)
        old.close()
        let path = SQLiteJobStore.databasePath(directory: directory, appID: "app")
        let store = try SQLiteJobStore(path: path)
        #expect(try store.stats("q", now: now) == QueueStats(ready: 2))
        #expect(try store.stats("other", now: now) == QueueStats(delayed: 1))
        #expect(try store.read(channel: "c", after: 0, excluding: "x", limit: 10).messages.map(\.data) == ["hello"])
        #expect(!FileManager.default.fileExists(atPath: legacy))
        #expect(FileManager.default.fileExists(atPath: legacy + ".moved"))
        #expect(try !store.enqueue("q", payload: "4", options: EnqueueOptions(key: "k"), now: now).created)
        store.close()
        // Once only: opening again adds nothing.
        #expect(try SQLiteJobStore(path: path).stats("q", now: now) == QueueStats(ready: 2))
    }

    /// A file made by the first schema (jobs only) gains the broadcast log when opened; a file from a newer
    /// jsbridge is refused rather than written to.
    @Test func anOlderSQLiteFileIsMigratedAndANewerOneRefused() throws {
        let directory = TemporaryDirectory.make(prefix: "queue-migrate")
        let path = SQLiteJobStore.databasePath(directory: directory, appID: "app")
        let store = try SQLiteJobStore(path: path)
        _ = try store.enqueue("q", payload: "1", options: EnqueueOptions(), now: now)
        store.close()
        func sqlite(_ sql: String) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = [path, sql]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        try sqlite("DROP INDEX jobs_pending; DROP TABLE messages; DELETE FROM queue_schema WHERE version >= 2;")
        let migrated = try SQLiteJobStore(path: path)
        #expect(try migrated.schemaVersion() == 3)
        #expect(try migrated.stats("q", now: now) == QueueStats(ready: 1))
        #expect(try migrated.post(channel: "c", sender: "s", data: "d", now: now) == 1)
        migrated.close()
        try sqlite("INSERT INTO queue_schema(version) VALUES (4);")
        #expect {
            try SQLiteJobStore(path: path)
        } throws: { error in
            "\(error)".contains("newer than this jsbridge knows (3)")
        }
    }

    @Test func thePostgresSchemaHasAVersion() throws {
        let url = try PostgresURL(try SharedQueuePostgres.url)
        let store = try PostgresJobStore(url: url, appID: "a")
        #expect(try store.schemaVersion() == 4)
        // A second store (another process's) finds the schema made.
        #expect(try PostgresJobStore(url: url, appID: "b").schemaVersion() == 4)
    }

    @Test(arguments: [1, 3]) func thePostgresPoolServesConcurrentCalls(connections: Int) async throws {
        let store = try PostgresJobStore(
            url: try PostgresURL(try SharedQueuePostgres.url), appID: UUID().uuidString, connections: connections)
        #expect(store.connections == connections)
        let lane = BlockingLane()
        let now = self.now
        let ids = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for task in 0..<8 {
                group.addTask {
                    var ids: [Int64] = []
                    for i in 0..<25 {
                        ids.append(
                            try await lane.run { () throws(QueueError) in
                                try store.enqueue("q", payload: "\(task)-\(i)", options: EnqueueOptions(), now: now).id
                            })
                    }
                    return ids
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(Set(ids).count == 200)
        #expect(try store.stats("q", now: now) == QueueStats(ready: 200))
        store.close()
        #expect(throws: QueueError.self) { try store.stats("q", now: now) }
    }

    @Test func backoffDelays() {
        let exponential = Backoff(kind: .exponential, delayMs: 100, maxDelayMs: 1000)
        #expect((1...6).map(exponential.delay(afterAttempt:)) == [100, 200, 400, 800, 1000, 1000])
        #expect(Backoff(kind: .fixed, delayMs: 250, maxDelayMs: 250).delay(afterAttempt: 9) == 250)
        #expect(Backoff(kind: .exponential, delayMs: 1 << 40, maxDelayMs: .max).delay(afterAttempt: 60) == .max)
    }
}

/// The workers run on the action executor, as the Queue plugin runs them, not on Swift's global pool, where
/// the rest of a full run's tests could keep them waiting past the tests' time limits.
@Suite(.blocking) struct QueueWorkerTests {
    @Test(arguments: StoreKind.allCases) func aWorkerRunsEveryJobOnceWithConcurrency(kind: StoreKind) async throws {
        let store = try kind.make()
        let now = epochMilliseconds(Date())
        for i in 0..<40 { _ = try store.enqueue("q", payload: "\(i)", options: EnqueueOptions(), now: now) }
        let seen = Locked<[String]>([])
        let active = Locked((now: 0, most: 0))
        let worker = QueueWorker(store: store, queue: "q", concurrency: 4, pollInterval: .milliseconds(20))
        let task = Task(executorPreference: ActionExecutor.shared) {
            await worker.run { job in
                active.withLock {
                    $0.now += 1
                    $0.most = max($0.most, $0.now)
                }
                try? await Task.sleep(for: .milliseconds(5))
                active.withLock { $0.now -= 1 }
                seen.withLock { $0.append(job.payload) }
                return Int(job.payload)! % 10 == 3 && job.attempt == 1 ? .failed("first try") : .completed
            }
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while try store.stats("q", now: epochMilliseconds(Date())).done < 40, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            // The retries wait out a 1 s backoff.
        }
        task.cancel()
        await task.value
        #expect(try store.stats("q", now: epochMilliseconds(Date())) == QueueStats(done: 40))
        #expect(seen.withLock { $0.count } == 44)
        #expect(Set(seen.withLock { $0 }) == Set((0..<40).map(String.init)))
        #expect(active.withLock { $0.most } <= 4)
    }

    @Test func aStoppedWorkerGivesUnfinishedJobsBack() async throws {
        let store = try StoreKind.sqlite.make()
        let now = epochMilliseconds(Date())
        let id = try store.enqueue("q", payload: "1", options: EnqueueOptions(attempts: 1), now: now).id
        let started = TestSignal()
        let worker = QueueWorker(store: store, queue: "q", pollInterval: .milliseconds(10))
        let task = Task(executorPreference: ActionExecutor.shared) {
            await worker.run { _ in
                started.fire()
                try? await Task.sleep(for: .seconds(600))
                return nil
            }
        }
        _ = await started.wait(until: { worker.running == [id] }, timeout: .seconds(30))
        task.cancel()
        await task.value
        let again = try #require(
            try store.claim("q", worker: "other", limit: 1, leaseMs: 1000, now: epochMilliseconds(Date())).first)
        #expect(again.attempt == 1)
    }

    @Test func heartbeatsKeepARunningJobLeasedOnTheManualClock() async throws {
        let clock = ManualClock(start: Date())
        let store = try StoreKind.sqlite.make()
        let now = { epochMilliseconds(clock.now()) }
        let id = try store.enqueue("q", payload: "1", options: EnqueueOptions(), now: now()).id
        let release = TestSignal()
        let finish = Locked(false)
        let worker = QueueWorker(store: store, queue: "q", leaseMs: 3000, pollInterval: .seconds(1), clock: clock)
        let task = Task(executorPreference: ActionExecutor.shared) {
            await worker.run { _ in
                _ = await release.wait(until: { finish.withLock { $0 } }, timeout: .seconds(60))
                return .completed
            }
        }
        // The worker's loop and its heartbeat sleep on the clock; move time by less than a lease each step.
        for _ in 0..<10 {
            try await clock.waitForSleepers(2)
            #expect(worker.running == [id])
            clock.advance(by: .milliseconds(1000))
            try await Task.sleep(for: .milliseconds(20))
            #expect(try store.claim("q", worker: "thief", limit: 1, leaseMs: 1000, now: now()).isEmpty)
        }
        finish.withLock { $0 = true }
        release.fire()
        let deadline = ContinuousClock.now + .seconds(30)
        while try store.stats("q", now: now()).done < 1, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try store.stats("q", now: now()) == QueueStats(done: 1))
        task.cancel()
        await task.value
    }
}
