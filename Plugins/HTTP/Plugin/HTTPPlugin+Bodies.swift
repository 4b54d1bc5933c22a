import Foundation
import JSBridgeCore

/// The HTTP plugin's body actions, for bodies that cross the bridge in pieces (http.js; docs/http.md,
/// "Streaming bodies"):
///
/// - `request` with `stream: true` answers once the response head is in; a body not complete by then stays
///   here, answered as `bodyId` instead of `body`/`bodyBytes`.
/// - start `bodyRead` — `{id, all?}`: the body's next bytes, `{bytes, done: false}`, or `{done: true}` at its
///   end; with `all`, the rest of the body at once (at most `maxBodyBytes`), `{bytes, done: true}`. Reads are
///   pulled one at a time: the network is read only as fast as the script reads.
/// - sync `bodyCancel` — `{id}`: cancels the response body's request (and a read under way).
/// - sync `bodyOpen`: a new request body pipe's id, for `request`'s `bodyStream`; async `bodyWrite` —
///   `{id, chunk?, end?, error?}` — writes a chunk (answering once at most ``RequestBodyPipe/limit`` bytes
///   wait to be sent), ends the body, or fails the request.
extension HTTPPlugin {
    static func bodyActions(_ plugin: inout PluginDeclaration<Self>) {
        plugin.start("bodyRead", args: BodyReadArguments.self, answers: BodyChunk.self) { context, args, reply in
            let state = context.state
            let executor = state.executors?.next() ?? ActionExecutor.shared
            let limit = state.fetcher.maxBodyBytes
            let task = Task(executorPreference: executor) {
                defer { state.executors?.ended() }
                do {
                    let chunk = try encodeBridgeResult(
                        try await state.bodies.read(args.id, all: args.all ?? false, limit: limit))
                    reply.resolve(chunk)
                } catch {
                    reply.reject(error)
                }
            }
            state.bodies.reading(args.id, task)
            reply.onCancel { task.cancel() }
        }
        plugin.sync("bodyCancel", args: BodyIDArguments.self) { context, args -> Bool in
            context.state.bodies.cancel(args.id)
            return true
        }
        plugin.sync("bodyOpen") { context -> Int in context.state.bodies.openRequestBody() }
        plugin.async("bodyWrite", args: BodyWriteArguments.self) { context, args -> Bool in
            let pipe = try context.state.bodies.requestBody(args.id)
            if let chunk = args.chunk {
                try await pipe.write(chunk.withUnsafeBytes { Array($0) })
            }
            if let message = args.error {
                pipe.fail(HTTPError.network(kind: "other", message: message, url: ""))
            } else if args.end == true {
                pipe.finish()
            }
            return true
        }
    }

    /// An answer of `request` with `stream: true`: the head, and the body whole when it came with the head, else
    /// the id of the body left here to be read.
    /// A body with a `Content-Encoding` to decode (``ContentDecoding``) is always left here, decoded as it is
    /// read (off the transport's threads).
    static func encode(opened: OpenedResponse, bodies: OpenBodies, method: String) -> WireAnswer {
        var object = head(
            status: opened.head.status, statusText: opened.head.reason, headers: opened.head.headers, url: opened.url,
            redirected: opened.redirected, attempts: nil)
        var body = opened.head.body
        if ContentDecoding.applies(method: method, status: opened.head.status) {
            body = ContentDecoding.decode(body, headers: opened.head.headers, url: opened.url)
        }
        if let body = body.buffered { return WireAnswer(object, body: body) }
        object["bodyId"] = .number(Double(bodies.add(body, url: opened.url)))
        return WireAnswer(EncodedJSON(.object(object)))
    }
}

/// What `bodyRead` answers.
struct BodyChunk: Encodable, Sendable, TypeScriptDescribable {
    var bytes: Bytes?
    var done: Bool

    static let typeScript = TypeScriptType.raw("{ bytes?: Uint8Array; done: boolean }")
}

struct BodyReadArguments: Decodable, Sendable {
    var id: Int
    var all: Bool?
}

struct BodyIDArguments: Decodable, Sendable {
    var id: Int
}

struct BodyWriteArguments: Decodable, Sendable {
    var id: Int
    var chunk: Bytes?
    var end: Bool?
    var error: String?
}

/// The bodies that cross the bridge in pieces, by id: response bodies being read, request bodies being written.
/// Shutting the plugin down cancels them all.
final class OpenBodies: Sendable {
    /// A response body and the read under way, if any (reads come one at a time: a stream pulls again only once
    /// its last pull has answered).
    private final class ResponseBody: @unchecked Sendable {
        private var iterator: HTTPResponseBody.AsyncIterator
        let url: String
        init(_ body: HTTPResponseBody, url: String) {
            iterator = body.makeAsyncIterator()
            self.url = url
        }
        func next() async throws -> [UInt8]? { try await iterator.next() }
    }

    /// A body by id: a response being read (with the read under way, if any) or a request's pipe.
    private enum Body: Sendable {
        case response(ResponseBody, read: Task<Void, Never>?)
        case request(RequestBodyPipe)
    }

    private let bodies = HandleTable<Body>()

    /// Keeps `body` (of the response from `url`) to be read; returns its id.
    func add(_ body: HTTPResponseBody, url: String) -> Int {
        bodies.insert(.response(ResponseBody(body, url: url), read: nil))
    }

    /// Records the task reading body `id` (cancelled by ``cancel(_:)``).
    func reading(_ id: Int, _ task: Task<Void, Never>?) {
        bodies.update(id) { entry in
            if case .response(let body, _) = entry { entry = .response(body, read: task) }
        }
    }

    /// The next bytes of body `id` (with `all`, the rest of it, at most `limit` bytes); the body is forgotten at
    /// its end or on an error.
    func read(_ id: Int, all: Bool, limit: Int) async throws -> BodyChunk {
        guard case .response(let body, _)? = bodies[id] else {
            throw BridgeError(code: BridgeError.Code.cancelled, message: "The response body was cancelled or read.")
        }
        do {
            if all {
                var bytes: [UInt8] = []
                while let chunk = try await body.next() {
                    if bytes.count + chunk.count > limit { throw HTTPError.bodyTooLarge(limit: limit, url: body.url) }
                    if bytes.isEmpty { bytes = chunk } else { bytes += chunk }
                }
                try Self.checkNotCancelled()
                forget(id)
                return BodyChunk(bytes: Bytes(bytes), done: true)
            }
            guard let chunk = try await body.next() else {
                try Self.checkNotCancelled()
                forget(id)
                return BodyChunk(bytes: nil, done: true)
            }
            reading(id, nil)
            return BodyChunk(bytes: Bytes(chunk), done: false)
        } catch {
            forget(id)
            throw error
        }
    }

    /// A body whose request was cancelled ends early: its read reports `CANCELLED`, not the end of the body.
    private static func checkNotCancelled() throws(BridgeError) {
        if Task.isCancelled {
            throw BridgeError(code: BridgeError.Code.cancelled, message: "The response body was cancelled.")
        }
    }

    private func forget(_ id: Int) {
        // Dropped after the table's lock: dropping a body may cancel its request.
        withExtendedLifetime(bodies.remove(id)) {}
    }

    /// Cancels response body `id`: its read under way ends with `CANCELLED`, and dropping the body cancels its
    /// request.
    func cancel(_ id: Int) {
        guard case .response(let body, let read)? = bodies[id] else { return }
        bodies.remove(id)
        read?.cancel()
        withExtendedLifetime(body) {}
    }

    /// A new request body pipe's id.
    func openRequestBody() -> Int {
        bodies.insert(.request(RequestBodyPipe()))
    }

    /// Request body pipe `id`; `INVALID_ARGUMENT` when there is none (its request has ended).
    func requestBody(_ id: Int) throws(BridgeError) -> RequestBodyPipe {
        guard case .request(let pipe)? = bodies[id] else {
            throw BridgeError(code: BridgeError.Code.cancelled, message: "The request of this body has ended.")
        }
        return pipe
    }

    /// Forgets request body pipe `id` once its request has ended: a write still waiting fails.
    func closeRequestBody(_ id: Int) {
        guard case .request(let pipe)? = bodies[id] else { return }
        bodies.remove(id)
        pipe.fail(CancellationError())
    }

    /// Cancels every body (the plugin's shutdown).
    func cancelAll() {
        let all = bodies.removeAll()
        for body in all {
            switch body {
            case .response(_, let read): read?.cancel()
            case .request(let pipe): pipe.fail(CancellationError())
            }
        }
        withExtendedLifetime(all) {}
    }
}
