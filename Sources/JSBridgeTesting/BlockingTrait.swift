import Foundation
import Testing

/// A suite or test trait for tests that block their thread — waiting for a process, sleeping, synchronous
/// database calls, starting a PostgreSQL cluster: their work runs on threads of its own, never on Swift's
/// cooperative pool.
///
/// That pool has one thread per core and runs every async test of the process (and what their tasks await).
/// On a two-core machine two blocking tests stalled the whole suite: scripts whose plugin answers needed the
/// pool printed nothing for a minute and ended at their time limit.
///
///     @Suite(.blocking) struct PostgresStoreTests { … }
public struct BlockingTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil || !test.isSuite else { return try await function() }
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == BlockingTrait {
    /// The test blocks its thread: run it on threads of its own (``BlockingTrait``).
    public static var blocking: Self { BlockingTrait() }
}

/// Runs every job on a new thread: a job that blocks holds up nothing else.
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        thread.name = "jsbridge-test-blocking"
        thread.start()
    }
}
