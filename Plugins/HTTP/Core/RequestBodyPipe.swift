import JSBridgeBase

/// A request body written in chunks while the request sends it (a script's `ReadableStream` body): the
/// writer's ``write(_:)`` waits while more than ``limit`` bytes wait to be sent, so a writer faster than the
/// network cannot fill memory. Its ``stream`` can be sent once.
public final class RequestBodyPipe: Sendable {
    /// Bytes that may wait to be sent before a write waits.
    public let limit: Int

    private struct State {
        var chunks: [[UInt8]] = []
        /// Where the unsent chunks start in `chunks` (taken from the front without moving the rest).
        var head = 0
        var queued = 0
        var finished = false
        var failure: (any Error)?
        var started = false
        var reader: CheckedContinuation<[UInt8]?, any Error>?
        var writer: CheckedContinuation<Void, any Error>?
    }

    private let state = Locked(State())

    public init(limit: Int = 1 << 20) { self.limit = limit }

    /// The body as the transport sends it: of unknown length (chunked), iterable once.
    public var stream: HTTPRequestBodyStream {
        HTTPRequestBodyStream(length: nil) { [self] in
            let first = state.withLock { state in
                defer { state.started = true }
                return !state.started
            }
            guard first else {
                return {
                    throw HTTPError.network(kind: "other", message: "a stream body cannot be sent twice", url: "")
                }
            }
            return { try await self.next() }
        }
    }

    /// Queues `chunk`; returns once it is sent or at most ``limit`` bytes wait. Throws once the pipe failed or
    /// was closed (the request ended or was cancelled).
    public func write(_ chunk: [UInt8]) async throws {
        guard !chunk.isEmpty else { return }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            enum Step {
                case fail(any Error)
                case hand(CheckedContinuation<[UInt8]?, any Error>)
                case done
                case wait
            }
            let step = state.withLock { state -> Step in
                if let failure = state.failure { return .fail(failure) }
                if state.finished {
                    return .fail(HTTPError.network(kind: "other", message: "the stream body has ended", url: ""))
                }
                if let reader = state.reader {
                    state.reader = nil
                    return .hand(reader)
                }
                state.chunks.append(chunk)
                state.queued += chunk.count
                if state.queued <= limit { return .done }
                state.writer = continuation
                return .wait
            }
            switch step {
            case .fail(let error): continuation.resume(throwing: error)
            case .hand(let reader):
                reader.resume(returning: chunk)
                continuation.resume()
            case .done: continuation.resume()
            case .wait: break
            }
        }
    }

    /// Ends the body after the chunks written so far.
    public func finish() {
        let reader = state.withLock { state -> CheckedContinuation<[UInt8]?, any Error>? in
            guard state.failure == nil else { return nil }
            state.finished = true
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(returning: nil)
    }

    /// Fails the body (the request then fails) and any waiting write with `error`; later calls change nothing.
    public func fail(_ error: any Error) {
        let (reader, writer) = state.withLock {
            state -> (CheckedContinuation<[UInt8]?, any Error>?, CheckedContinuation<Void, any Error>?) in
            guard state.failure == nil else { return (nil, nil) }
            state.failure = error
            state.chunks = []
            state.head = 0
            state.queued = 0
            defer {
                state.reader = nil
                state.writer = nil
            }
            return (state.reader, state.writer)
        }
        reader?.resume(throwing: error)
        writer?.resume(throwing: error)
    }

    /// The next chunk to send, nil at the end; cancelling the calling task fails the pipe.
    func next() async throws -> [UInt8]? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8]?, any Error>) in
                let (outcome, writer) = state.withLock {
                    state -> (Result<[UInt8]?, any Error>?, CheckedContinuation<Void, any Error>?) in
                    if let failure = state.failure { return (.failure(failure), nil) }
                    if state.head < state.chunks.count {
                        let chunk = state.chunks[state.head]
                        state.chunks[state.head] = []
                        state.head += 1
                        if state.head == state.chunks.count {
                            state.chunks.removeAll(keepingCapacity: true)
                            state.head = 0
                        }
                        state.queued -= chunk.count
                        var writer: CheckedContinuation<Void, any Error>?
                        if state.queued <= limit { swap(&writer, &state.writer) }
                        return (.success(chunk), writer)
                    }
                    if state.finished { return (.success(nil), nil) }
                    state.reader = continuation
                    return (nil, nil)
                }
                writer?.resume()
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            fail(CancellationError())
        }
    }
}
