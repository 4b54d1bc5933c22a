import CJavaScriptCore
import Foundation
import JSBridge
import JSBridgeBase
import JSBridgeCore
import NIOCore
import NIOHTTP1
import NIOPosix

/// The natives behind `node:http`'s servers (node-http.js), behind the `net` capability scoped by `host:port`
/// (the rule `fetch` is checked by). SwiftNIO serves them on the JS thread's own event loop, so a request
/// reaches JavaScript as one direct call (no hop through the inbox): `internal.httpEvent(2, server, connection,
/// method, url, minor version, raw headers, keep-alive, complete)`, where `complete` says the request had no
/// body. Body chunks follow only for requests that have one, and a paused request stops reading its socket.
extension NodeExtension {
    static func declareHTTPServerNatives(_ ext: inout ExtensionDeclaration<NodeState>) {
        ext.capability(.net)
        // httpListen(server, host, port, backlog): checks the grant for host:port now (a refusal throws
        // PERMISSION_DENIED); the bind itself answers later with httpEvent 0 (listening) or 1 (an error).
        ext.native("httpListen", "(server: number, host: string, port: number, backlog: number): void") {
            call, state throws(NativeError) in
            let host = call.string(1)
            let port = Int(call.number(2))
            do throws(BridgeError) {
                try state.host.permissions.check(.net, scope: HostPattern(host: host, port: port).description)
            } catch {
                throw .bridge(error, plugin: "node:http", action: "listen")
            }
            guard let loop = state.host.eventLoop else { throw .plain("The event loop has not started", code: nil) }
            state.http.native {
                state.http.listen(
                    id: Int(call.number(0)), host: host, port: port, backlog: Int32(max(1, call.number(3))), on: loop)
            }
            return nil
        }
        // httpRespond(connection, status, reason, headers, body, offset, length, end, keepAlive): writes the
        // response head (headers as "name\nvalue\n..."), then the body bytes if any, then the end of the
        // response when `end`; answers whether the socket takes more without waiting ('drain' follows).
        ext.native(
            "httpRespond",
            "(connection: number, status: number, reason: string, headers: string, body: ArrayBuffer | undefined, offset: number, length: number, end: boolean, keepAlive: boolean): boolean"
        ) { call, state throws(NativeError) in
            guard let connection = state.http.connections[Int(call.number(0))] else {
                return JSValueMakeBoolean(call.context, false)
            }
            var headers = HTTPHeaders()
            let lines = call.string(3).split(separator: "\n", omittingEmptySubsequences: false)
            var index = 0
            while index + 1 < lines.count {
                headers.add(name: String(lines[index]), value: String(lines[index + 1]))
                index += 2
            }
            // `.custom`: SwiftNIO's named statuses would replace a reason phrase of the script's own.
            let status = HTTPResponseStatus.custom(code: UInt(max(0, call.number(1))), reasonPhrase: call.string(2))
            let writable = state.http.native {
                connection.respond(
                    status: status, headers: headers, body: call.arrayBuffer(4), end: call.bool(7),
                    keepAlive: call.bool(8))
            }
            return JSValueMakeBoolean(call.context, writable)
        }
        // httpWrite(connection, body, offset, length, end, keepAlive): more of the body, and the end when `end`.
        ext.native(
            "httpWrite",
            "(connection: number, body: ArrayBuffer | undefined, offset: number, length: number, end: boolean, keepAlive: boolean): boolean"
        ) { call, state throws(NativeError) in
            guard let connection = state.http.connections[Int(call.number(0))] else {
                return JSValueMakeBoolean(call.context, false)
            }
            let writable = state.http.native {
                connection.write(body: call.arrayBuffer(1), end: call.bool(4), keepAlive: call.bool(5))
            }
            return JSValueMakeBoolean(call.context, writable)
        }
        // httpConnection(connection, op): 0 pauses reading, 1 resumes it, 2 destroys the connection.
        ext.native("httpConnection", "(connection: number, op: number): void") { call, state throws(NativeError) in
            guard let connection = state.http.connections[Int(call.number(0))] else { return nil }
            let op = Int(call.number(1))
            state.http.native {
                switch op {
                case 0: connection.setReading(false)
                case 1: connection.setReading(true)
                default: connection.destroy()
                }
            }
            return nil
        }
        // httpServer(server, op): 0 closes it (and its idle connections), 1 refs it, 2 unrefs it.
        ext.native("httpServer", "(server: number, op: number): void") { call, state throws(NativeError) in
            let id = Int(call.number(0))
            let op = Int(call.number(1))
            state.http.native {
                switch op {
                case 0: state.http.close(server: id)
                case 1: state.http.servers[id]?.referenced = true
                default: state.http.servers[id]?.referenced = false
                }
            }
            return nil
        }
    }
}

/// The HTTP servers a run listens with and their connections (JS thread only: their channels live on the JS
/// thread's event loop). A listening server keeps the run alive until it is closed or unref()'d; a connection
/// keeps it alive while a request waits for its response.
final class HTTPServers {
    /// One listening socket.
    final class Server {
        let id: Int
        var channel: (any Channel)?
        var referenced = true
        /// Whether the bind has not answered yet (the run waits for 'listening', unref()'d or not, as Node's).
        var binding = true
        /// Whether `close()` was asked for before the bind answered.
        var closing = false

        init(id: Int) { self.id = id }
    }

    private let host: ExtensionHost
    var servers: [Int: Server] = [:]
    var connections: [Int: HTTPServerConnection] = [:]
    private var nextConnection = 1
    /// Natives running now: events that a native's own work causes (a close) wait for the loop.
    var nativeDepth = 0
    /// Events waiting for the native that caused them to return (they keep the run alive until delivered).
    private var deferred = 0
    /// Whether the run has ended: sockets closing now tell JavaScript nothing.
    private var shutDown = false

    init(host: ExtensionHost) { self.host = host }

    /// Runs a native's work: the events it causes at once (a close) reach JavaScript after it, from the loop.
    func native<T>(_ body: () -> T) -> T {
        nativeDepth += 1
        defer { nativeDepth -= 1 }
        return body()
    }

    var keepsAlive: Bool {
        deferred > 0 || servers.values.contains { $0.referenced || $0.binding || $0.closing }
            || connections.values.contains { $0.awaitingResponse }
    }

    /// Binds `host:port` on the JS thread's loop; answers httpEvent 0 or 1 when done.
    func listen(id: Int, host address: String, port: Int, backlog: Int32, on loop: any EventLoop) {
        let server = Server(id: id)
        servers[id] = server
        let hub = NIOLoopBound(self, eventLoop: loop)
        let bootstrap = ServerBootstrap(group: loop)
            .serverChannelOption(.backlog, value: backlog)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                do {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withPipeliningAssistance: true)
                    let connection = hub.value.accept(channel: channel, server: id)
                    try channel.pipeline.syncOperations.addHandler(connection)
                    return channel.eventLoop.makeSucceededVoidFuture()
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
        bootstrap.bind(host: address, port: port).whenComplete { result in
            hub.value.bound(id, result)
        }
    }

    private func bound(_ id: Int, _ result: Result<any Channel, any Error>) {
        guard let server = servers[id] else { return }
        server.binding = false
        switch result {
        case .success(let channel):
            server.channel = channel
            let hub = NIOLoopBound(self, eventLoop: channel.eventLoop)
            channel.closeFuture.whenComplete { _ in hub.value.serverClosed(id) }
            if server.closing {
                channel.close(promise: nil)
                return
            }
            let local = channel.localAddress
            let family = local?.protocol == .inet6 ? "IPv6" : "IPv4"
            deliver(
                0, Double(id), .number(Double(local?.port ?? 0)), .string(local?.ipAddress ?? ""), .string(family))
        case .failure(let error):
            servers[id] = nil
            let (code, errno) = Self.errnoName(error)
            deliver(1, Double(id), .string(code), .number(Double(errno)), .string(String(describing: error)))
        }
    }

    private func serverClosed(_ id: Int) {
        servers[id] = nil
        deliver(7, Double(id))
    }

    func close(server id: Int) {
        guard let server = servers[id] else { return }
        server.closing = true
        server.referenced = false
        server.channel?.close(promise: nil)
        // As Node's server.close() (18.19+): idle keep-alive connections end now, busy ones after their response.
        // A snapshot: a connection destroyed now leaves `connections` at once.
        for connection in Array(connections.values) where connection.server == id {
            connection.serverClosing = true
            if !connection.awaitingResponse { connection.destroy() }
        }
    }

    func accept(channel: any Channel, server: Int) -> HTTPServerConnection {
        let id = nextConnection
        nextConnection += 1
        let connection = HTTPServerConnection(id: id, server: server, hub: self)
        connections[id] = connection
        return connection
    }

    func closed(_ connection: HTTPServerConnection) {
        connections[connection.id] = nil
        deliver(6, Double(connection.id))
    }

    /// A value for an event's argument list.
    enum Argument {
        case number(Double)
        case string(String)
        case bool(Bool)
        case bytes(ByteBuffer)
        case headers(HTTPHeaders)
    }

    func deliver(_ kind: Int, _ first: Double, _ rest: Argument...) {
        deliver(kind, [.number(first)] + rest)
    }

    /// Calls `internal.httpEvent(kind, ...)`; while a native runs, after it (on the loop).
    func deliver(_ kind: Int, _ arguments: [Argument]) {
        guard !shutDown, !host.isStopping, let hook = host.hook("httpEvent", definedBy: "node-http.js") else { return }
        if nativeDepth > 0, let loop = host.eventLoop {
            let hub = NIOLoopBound(self, eventLoop: loop)
            let later = NIOLoopBound(arguments, eventLoop: loop)
            deferred += 1
            loop.execute {
                hub.value.deferred -= 1
                hub.value.deliver(kind, later.value)
            }
            return
        }
        Self.call(hook, kind, arguments, host: host)
    }

    /// Calls `hook` with an event's JavaScript arguments: `kind`, then `arguments` (shared with node:net's
    /// events). The values are made one by one into a JS array (``JSEngine/withNewValues(count:_:_:)``).
    static func call(_ hook: JSObjectRef, _ kind: Int, _ arguments: [Argument], host: ExtensionHost) {
        let engine = host.engine
        let context = engine.context
        engine.withNewValues(count: arguments.count + 1) { index -> JSValueRef? in
            guard index > 0 else { return JSValueMakeNumber(context, Double(kind)) }
            switch arguments[index - 1] {
            case .number(let number): return JSValueMakeNumber(context, number)
            case .string(let text): return engine.makeString(text)
            case .bool(let flag): return JSValueMakeBoolean(context, flag)
            case .bytes(let buffer):
                let count = buffer.readableBytes
                let pointer = malloc(max(1, count))!
                buffer.withUnsafeReadableBytes { pointer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                return engine.makeArrayBuffer(pointer, count: count)
            case .headers(let headers):
                let pairs = Array(headers)
                return engine.makeArray(count: pairs.count * 2) { item in
                    let (name, value) = pairs[item / 2]
                    return engine.makeString(item % 2 == 0 ? name : value)
                }
            }
        } _: { values in
            _ = host.callJSFromLoop(hook, values)
        }
    }

    /// Closes every socket when the run ends.
    func closeAll() {
        shutDown = true
        for server in Array(servers.values) { server.channel?.close(promise: nil) }
        for connection in Array(connections.values) { connection.destroy() }
        servers = [:]
        connections = [:]
    }

    /// Node's name and negative number of the errno behind a bind failure (`EADDRINUSE`, -98).
    static func errnoName(_ error: any Error) -> (String, Int32) { NetSockets.errnoName(error) }
}

/// One connection of a server: a SwiftNIO handler on the JS thread's loop that hands requests to JavaScript
/// and writes its responses.
final class HTTPServerConnection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let id: Int
    let server: Int
    unowned let hub: HTTPServers
    private var context: ChannelHandlerContext?
    /// A request head not yet handed over: it goes with its end when the request has no body (one call).
    private var pendingHead: HTTPRequestHead?
    /// Whether a request is waiting for its response (it keeps the run alive).
    var awaitingResponse = false
    var serverClosing = false
    private var reading = true
    private var closed = false

    init(id: Int, server: Int, hub: HTTPServers) {
        self.id = id
        self.server = server
        self.hub = hub
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func channelActive(context: ChannelHandlerContext) {
        let remote = context.channel.remoteAddress
        hub.deliver(
            8, Double(server), .number(Double(id)), .string(remote?.ipAddress ?? ""), .number(Double(remote?.port ?? 0))
        )
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            flushHead(complete: false)
            pendingHead = head
            awaitingResponse = true
        case .body(let buffer):
            flushHead(complete: false)
            hub.deliver(3, Double(id), .bytes(buffer))
        case .end:
            if pendingHead != nil {
                flushHead(complete: true)
            } else {
                hub.deliver(4, Double(id))
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flushHead(complete: false)
        context.fireChannelReadComplete()
    }

    private func flushHead(complete: Bool) {
        guard let head = pendingHead else { return }
        pendingHead = nil
        hub.deliver(
            2, Double(server),
            .number(Double(id)), .string(head.method.rawValue), .string(head.uri), .number(Double(head.version.minor)),
            .headers(head.headers), .bool(head.isKeepAlive), .bool(complete))
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { hub.deliver(5, Double(id)) }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        hub.closed(self)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset by the peer or a malformed request (the pipeline's error handler answered 400): the
        // connection ends, and JavaScript hears its close.
        context.close(promise: nil)
    }

    func respond(
        status: HTTPResponseStatus, headers: HTTPHeaders, body: UnsafeMutableBufferPointer<UInt8>?, end: Bool,
        keepAlive: Bool
    ) -> Bool {
        guard let context, !closed else { return false }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
            promise: nil)
        return write(body: body, end: end, keepAlive: keepAlive)
    }

    func write(body: UnsafeMutableBufferPointer<UInt8>?, end: Bool, keepAlive: Bool) -> Bool {
        guard let context, !closed else { return false }
        if let body, body.count > 0 {
            var buffer = context.channel.allocator.buffer(capacity: body.count)
            buffer.writeBytes(UnsafeRawBufferPointer(body))
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        if end {
            awaitingResponse = false
            if keepAlive && !serverClosing {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            } else {
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
            }
        } else {
            context.flush()
        }
        return context.channel.isWritable
    }

    func setReading(_ on: Bool) {
        guard let context, on != reading else { return }
        reading = on
        try? context.channel.syncOptions?.setOption(.autoRead, value: on)
        if on { context.read() }
    }

    func destroy() {
        guard let context, !closed else { return }
        context.close(promise: nil)
    }
}
