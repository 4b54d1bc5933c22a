import Foundation
import Testing

/// A suite or test trait for tests that block their thread — waiting for a process, sleeping, synchronous
/// database calls, starting a PostgreSQL cluster — or hold it for seconds of work: their work runs on threads
/// of its own, never on Swift's cooperative pool.
///
/// That pool has one thread per core and runs every async test of the process (and what their tasks await).
/// On a two-core machine two blocking tests stalled the whole suite: scripts whose plugin answers needed the
/// pool printed nothing for a minute and ended at their time limit. Two synchronous tests converting 200,000
/// values each did the same for over a minute on a loaded machine.
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

/// Records an issue unless the caller runs on a thread that may block: under ``BlockingTrait`` or in
/// ``runBlocking(_:)``.
///
/// Test helpers that block (a socket read with a long timeout, waiting for a process) call it first, so a suite
/// that forgot `.blocking` fails at once with this message instead of stalling unrelated tests under load.
public func expectThreadMayBlock(sourceLocation: SourceLocation = #_sourceLocation) {
    guard Thread.current.threadDictionary[mayBlockKey] == nil else { return }
    let advice = "mark the suite or test `.blocking`, or wrap the call in `runBlocking`"
    Issue.record(
        "This helper blocks its thread, one of Swift's cooperative pool: \(advice).", sourceLocation: sourceLocation)
}

/// Starts `body` on a new thread marked as one that may block: ``ThreadPerJobExecutor``'s and
/// ``runBlocking(_:)``'s.
func startThreadThatMayBlock(_ body: @escaping @Sendable () -> Void) {
    let thread = Thread {
        Thread.current.threadDictionary[mayBlockKey] = true
        body()
    }
    thread.name = "jsbridge-test-blocking"
    thread.start()
}

private let mayBlockKey = "jsbridge.test.mayBlock"

/// Runs every job on a new thread: a job that blocks holds up nothing else.
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        startThreadThatMayBlock { job.runSynchronously(on: executor) }
    }
}
