import Foundation
import Synchronization
import Testing

@testable import JSBridgeCore

/// ``ActionExecutor``: jobs that block their worker do not hold back the others.
@Suite struct ActionExecutorTests {
    /// Every core worker blocked in a job (as a synchronous database client waits for a restarting server):
    /// a job queued behind them still runs, on a worker the pool adds, and that worker ends once idle.
    @Test func jobsQueuedBehindBlockedWorkersStillRun() async throws {
        let pool = ActionExecutor(threads: 2, spins: false, extraWorkerIdle: .milliseconds(100))
        let release = DispatchSemaphore(value: 0)
        let (entered, enteredSink) = AsyncStream.makeStream(of: Void.self)
        for _ in 0..<2 {
            Task(executorPreference: pool) {
                enteredSink.yield()
                release.wait()
            }
        }
        var blocked = 0
        for await _ in entered {
            blocked += 1
            if blocked == 2 { break }
        }
        // The job reports the pool's size while it runs (the extra worker may end soon after).
        let queued = Task(executorPreference: pool) { pool.workerCount }
        let answer = await withTaskGroup(of: Int?.self) { group in
            group.addTask { await queued.value }
            group.addTask {
                try? await Task.sleep(for: .seconds(20))
                // Let the blocked jobs go so that the queued one can finish and the test end.
                release.signal()
                release.signal()
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        #expect(answer.map { $0 > 2 } == true)
        release.signal()
        release.signal()
        // The extra worker ends once idle (polled: the pool has no event for it).
        let deadline = ContinuousClock.now + .seconds(20)
        while pool.workerCount > 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(pool.workerCount == 2)
    }
}
