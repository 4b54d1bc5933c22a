import CCompression
import JSBridgeBase

/// Fetch's content codings (Fetch §4.6 "HTTP-network fetch", "handle content codings"): a response body is
/// decoded per its `Content-Encoding` — `gzip` (and `x-gzip`), `deflate` (the zlib wrapper, or raw deflate as
/// browsers accept) and `br` — codings listed in order of application, so decoded last to first. The header stays
/// as it was. A list with a coding not supported here leaves the body as it came (as Fetch says); corrupt or
/// truncated data is a network error (`NETWORK_ERROR`, kind `decode`); the decoded body is limited like any body.
public enum ContentDecoding {
    /// The codings of `headers` to decode, in the order to decode them; empty when the body is left as it is.
    public static func codings(_ headers: [HTTPField]) -> [Int32] {
        var formats: [Int32] = []
        for field in headers where field.name.lowercased() == "content-encoding" {
            for token in field.value.split(separator: ",") {
                switch token.trimmingSpaces.lowercased() {
                case "", "identity": continue
                case "gzip", "x-gzip": formats.append(Int32(JSB_Z_GZIP))
                case "deflate": formats.append(Int32(JSB_Z_HTTP_DEFLATE))
                case "br": formats.append(Int32(JSB_Z_BROTLI))
                default: return []
                }
            }
        }
        return formats.reversed()
    }

    /// Whether a response to `method` with `status` has a body to decode (not HEAD, not a null body status).
    public static func applies(method: String, status: Int) -> Bool {
        method.uppercased() != "HEAD" && ![101, 103, 204, 205, 304].contains(status)
    }

    /// `body` decoded per `headers` (itself when there is nothing to decode): a body that decodes as it is
    /// read, in chunks of at most ``chunkSize`` bytes (its reader applies the body limit, as to any body).
    public static func decode(_ body: HTTPResponseBody, headers: [HTTPField], url: String) -> HTTPResponseBody {
        let formats = codings(headers)
        guard !formats.isEmpty else { return body }
        return HTTPResponseBody {
            let source = Source(body.makeAsyncIterator())
            // Each stage pulls from the one before it; the first from the network.
            var pull: () async throws -> [UInt8]? = { try await source.next() }
            for format in formats {
                let stage = DecodingStage(format: format, url: url)
                let upstream = pull
                pull = { try await stage.next(upstream) }
            }
            return pull
        }
    }

    /// `response` (to a request with `method`) with its body decoded whole, at most `limit` bytes.
    public static func decode(_ response: FetchResponse, method: String, limit: Int) throws(HTTPError) -> FetchResponse
    {
        guard applies(method: method, status: response.status) else { return response }
        let formats = codings(response.headers)
        guard !formats.isEmpty else { return response }
        var decoded = response
        for format in formats {
            let stage = DecodingStage(format: format, url: response.url)
            stage.feed(decoded.body, finish: true)
            var output: [UInt8] = []
            while let chunk = try stage.step() {
                if output.count + chunk.count > limit { throw .bodyTooLarge(limit: limit, url: response.url) }
                output += chunk
            }
            decoded.body = output
        }
        return decoded
    }

    /// The most bytes one read of a decoding body answers.
    public static let chunkSize = 256 << 10
}

/// The encoded body's iterator, pulled by the first stage.
private final class Source: @unchecked Sendable {
    private var iterator: HTTPResponseBody.AsyncIterator
    init(_ iterator: HTTPResponseBody.AsyncIterator) { self.iterator = iterator }
    func next() async throws -> [UInt8]? { try await iterator.next() }
}

/// One coding's decoder over the chunks of the stage before it.
private final class DecodingStage: @unchecked Sendable {
    private let stream: OpaquePointer?
    private let url: String
    private var input: [UInt8] = []
    private var offset = 0
    private var finishing = false
    private var done = false

    init(format: Int32, url: String) {
        stream = jsb_zstream_create(format, 1)
        self.url = url
    }

    deinit { if let stream { jsb_zstream_free(stream) } }

    /// Gives the stage its next input (`finish`: the last).
    func feed(_ chunk: [UInt8], finish: Bool) {
        input = chunk
        offset = 0
        if finish { finishing = true }
    }

    /// Whether the stage has consumed its input and waits for more.
    var needsInput: Bool { !done && !finishing && offset == input.count }

    /// The next decoded chunk of the input fed (at most ``ContentDecoding/chunkSize`` bytes), or nil when it is
    /// all consumed (``needsInput``) or the stream has ended.
    func step() throws(HTTPError) -> [UInt8]? {
        guard let stream else { throw failure("the decoder could not start") }
        guard !done, !needsInput else { return nil }
        var output = [UInt8](repeating: 0, count: ContentDecoding.chunkSize)
        var consumed = 0
        var produced = 0
        let status = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                jsb_zstream_fill(
                    stream, source.baseAddress.map { $0 + offset }, input.count - offset, finishing ? 1 : 0,
                    target.baseAddress!, target.count, &consumed, &produced)
            }
        }
        offset += consumed
        switch Int(status) {
        case Int(JSB_Z_OK): break
        case Int(JSB_Z_TRAILING): throw failure("unexpected data after the end of the compressed body")
        case Int(JSB_Z_TRUNCATED): throw failure("the compressed body ended before its end")
        case Int(JSB_Z_NOMEM): throw failure("out of memory while decoding the body")
        default: throw failure("the compressed body is corrupt")
        }
        if finishing && offset == input.count && produced < output.count { done = true }
        guard produced > 0 else { return nil }
        output.removeSubrange(produced...)
        return output
    }

    /// The next decoded chunk, pulling input from `upstream` as needed; nil at the end.
    func next(_ upstream: () async throws -> [UInt8]?) async throws -> [UInt8]? {
        while !done {
            if needsInput {
                if let chunk = try await upstream() { feed(chunk, finish: false) } else { feed([], finish: true) }
            }
            if let chunk = try step() { return chunk }
        }
        return nil
    }

    private func failure(_ message: String) -> HTTPError {
        .network(kind: "decode", message: "cannot decode the Content-Encoding: \(message)", url: url)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
