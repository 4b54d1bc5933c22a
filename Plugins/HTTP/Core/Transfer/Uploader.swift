import Foundation
import JSBridgeBase

/// What to upload: a multipart form sent with `method` to `url`.
public struct UploadRequest: Sendable, Hashable {
    /// An absolute http(s) URL.
    public var url: String
    public var method: String
    /// Extra header fields; `Content-Type`, `Content-Length` and `Transfer-Encoding` are set from the form.
    public var headers: [HTTPField]
    public var form: MultipartFormData
    /// How long to wait for the connection (nil: the transport's default).
    public var connectTimeout: Duration?

    public init(
        url: String, method: String = "POST", headers: [HTTPField] = [], form: MultipartFormData,
        connectTimeout: Duration? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.form = form
        self.connectTimeout = connectTimeout
    }
}

/// Sends multipart forms with the body streamed from disk (`Content-Length` computed up front) and reports
/// the bytes sent.
///
/// The target is checked with the ``Fetcher``'s `authorize` before connecting. Redirects are not followed:
/// a 3xx answer is returned as the response (a streamed body is not re-sent elsewhere). The response body is
/// read whole, up to the fetcher's `maxBodyBytes`; any status is a response (the caller decides).
public struct Uploader: Sendable {
    public var fetcher: Fetcher
    /// The shortest time between two progress reports.
    public var progressInterval: Duration
    /// The size of the chunks read from files.
    public var chunkSize: Int

    public init(fetcher: Fetcher, progressInterval: Duration = .milliseconds(100), chunkSize: Int = 64 << 10) {
        self.fetcher = fetcher
        self.progressInterval = progressInterval
        self.chunkSize = chunkSize
    }

    /// Sends `request`; `progress` gets the bytes handed to the connection (throttled, always including the
    /// final update at the body's length). Cancelling the calling task cancels the request.
    public func upload(_ request: UploadRequest, progress: TransferProgressHandler? = nil) async throws
        -> FetchResponse
    {
        let target = try HTTPTarget(request.url)
        try fetcher.authorize(target.host, target.port)
        try Task.checkCancellation()
        let stream = try request.form.bodyStream(chunkSize: chunkSize)
        let total = stream.length
        let state = UploadState(throttle: ProgressThrottle(interval: progressInterval))
        // Count the bytes as the transport pulls them; remember a local failure (a file error) so that it is
        // reported as itself rather than as the transport's wrapping of it.
        let counted = HTTPRequestBodyStream(length: total) {
            let iterator = stream.makeAsyncIterator()
            return {
                let chunk: [UInt8]?
                do {
                    chunk = try await iterator.next()
                } catch {
                    state.withLock { $0.failure = $0.failure ?? error }
                    throw error
                }
                let report = state.withLock { state -> Int64? in
                    guard !state.isDone else { return nil }
                    state.sent += Int64(chunk?.count ?? 0)
                    let isFinal = chunk == nil || state.sent == total
                    return state.throttle.shouldReport(state.sent, isFinal: isFinal) ? state.sent : nil
                }
                if let progress, let report { try await progress(TransferProgress(bytes: report, total: total)) }
                return chunk
            }
        }
        var headers = request.headers.filter {
            let name = $0.name.lowercased()
            return name != "content-type" && name != "content-length" && name != "transfer-encoding"
        }
        headers.append(HTTPField("Content-Type", request.form.contentType))
        let outgoing = HTTPTransportRequest(
            method: request.method, url: request.url, headers: headers, bodyStream: counted,
            connectTimeout: request.connectTimeout)
        do {
            let head = try await fetcher.transport.send(outgoing, timeout: fetcher.timeout)
            state.withLock { $0.isDone = true }
            let body = try await head.body.collect(upTo: fetcher.maxBodyBytes, url: request.url)
            return FetchResponse(
                status: head.status, statusText: head.reason, headers: head.headers, url: request.url,
                redirected: false, body: body)
        } catch {
            let failure = state.withLock { state in
                state.isDone = true
                return state.failure
            }
            if let failure, !(error is CancellationError) { throw failure }
            throw error
        }
    }
}

/// What the counting body and the upload share.
private final class UploadState: Sendable {
    struct Values {
        var throttle: ProgressThrottle
        var sent: Int64 = 0
        var isDone = false
        var failure: (any Error)?
    }

    private let values: Locked<Values>

    init(throttle: ProgressThrottle) { values = Locked(Values(throttle: throttle)) }

    func withLock<R: Sendable>(_ body: (inout Values) -> R) -> R { values.withLock { body(&$0) } }
}
