import Foundation

/// Runs blocking work — waiting for a process, reading a pipe to its end, polling with `usleep` — on a thread
/// of its own.
///
/// Async tests share Swift's cooperative pool, which has one thread per core: a test that blocks one of them
/// stalls every other test (and any `Task` they start) on a small machine. Wrap such calls:
/// `let output = try await runBlocking { pipe.fileHandleForReading.readDataToEndOfFile() }`.
public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        startThreadThatMayBlock { continuation.resume(with: Result { try body() }) }
    }
}
