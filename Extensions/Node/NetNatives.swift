import CJavaScriptCore
import Foundation
import JSBridge
import JSBridgeBase
import JSBridgeCore
import NIOCore
import NIOPosix

/// The natives behind `node:net` (node-net.js): TCP servers and sockets, behind the `net` capability scoped by
/// `host:port` (the rule `fetch` and node:http's `listen` are checked by). SwiftNIO runs them on the JS thread's
/// own event loop, so a socket's bytes reach JavaScript as one direct call: `internal.netEvent(kind, id, ...)`.
/// A socket's input may close before its output (remote half-closure is always allowed here; node-net.js ends
/// the output itself unless the script asked for `allowHalfOpen`, as Node does).
extension NodeExtension {
    static func declareNetNatives(_ ext: inout ExtensionDeclaration<NodeState>) {
        // netListen(server, host, port, backlog): checks the grant for host:port now (a refusal throws
        // PERMISSION_DENIED); the bind answers later with netEvent 0 (listening) or 1 (an error).
        ext.native("netListen", "(server: number, host: string, port: number, backlog: number): void") {
            call, state throws(NativeError) in
            let host = call.string(1)
            let port = Int(call.number(2))
            let loop = try netLoop(state, host: host, port: port, action: "listen")
            state.net.native {
                state.net.listen(
                    id: Int(call.number(0)), host: host, port: port, backlog: Int32(max(1, call.number(3))), on: loop)
            }
            return nil
        }
        // netConnect(socket, host, port, allowHalfOpen): checks the grant for host:port now; the connection
        // answers later with netEvent 9 (connected) or 10 (an error with Node's code: ECONNREFUSED, ENOTFOUND...).
        ext.native("netConnect", "(socket: number, host: string, port: number): void") {
            call, state throws(NativeError) in
            let host = call.string(1)
            let port = Int(call.number(2))
            let loop = try netLoop(state, host: host, port: port, action: "connect")
            state.net.native { state.net.connect(id: Int(call.number(0)), host: host, port: port, on: loop) }
            return nil
        }
        // netWrite(socket, bytes, offset, length): queues the bytes; answers whether the socket takes more without
        // waiting (netEvent 5, drain, follows when it did not).
        ext.native("netWrite", "(socket: number, data: ArrayBuffer, offset: number, length: number): boolean") {
            call, state throws(NativeError) in
            guard let socket = state.net.sockets[Int(call.number(0))], let bytes = call.arrayBuffer(1) else {
                return JSValueMakeBoolean(call.context, false)
            }
            let writable = state.net.native { socket.write(bytes) }
            return JSValueMakeBoolean(call.context, writable)
        }
        // netSocket(socket, op, value): 0 pauses reading, 1 resumes it, 2 ends the output once the writes are
        // out, 3 destroys the socket, 4 sets TCP_NODELAY to `value`, 5 SO_KEEPALIVE, 6 refs it, 7 unrefs it.
        ext.native("netSocket", "(socket: number, op: number, value: boolean): void") {
            call, state throws(NativeError) in
            guard let socket = state.net.sockets[Int(call.number(0))] else { return nil }
            let op = Int(call.number(1))
            let value = call.bool(2)
            state.net.native {
                switch op {
                case 0: socket.setReading(false)
                case 1: socket.setReading(true)
                case 2: socket.endOutput()
                case 3: socket.destroy()
                case 4: socket.setOption(.socketOption(.tcp_nodelay), value)
                case 5: socket.setOption(.socketOption(.so_keepalive), value)
                case 6: socket.referenced = true
                default: socket.referenced = false
                }
            }
            return nil
        }
        // netServer(server, op): 0 closes it (its connections stay open, as Node's), 1 refs it, 2 unrefs it.
        ext.native("netServer", "(server: number, op: number): void") { call, state throws(NativeError) in
            let id = Int(call.number(0))
            let op = Int(call.number(1))
            state.net.native {
                switch op {
                case 0: state.net.close(server: id)
                case 1: state.net.servers[id]?.referenced = true
                default: state.net.servers[id]?.referenced = false
                }
            }
            return nil
        }
    }

    /// The JS thread's loop, once the grant for `host:port` is checked (PERMISSION_DENIED otherwise).
    private static func netLoop(_ state: NodeState, host: String, port: Int, action: String) throws(NativeError)
        -> any EventLoop
    {
        do throws(BridgeError) {
            try state.host.permissions.check(.net, scope: HostPattern(host: host, port: port).description)
        } catch {
            throw .bridge(error, plugin: "node:net", action: action)
        }
        guard let loop = state.host.eventLoop else { throw .plain("The event loop has not started", code: nil) }
        return loop
    }
}

/// The TCP servers and sockets of a run (JS thread only: their channels live on the JS thread's event loop). A
/// listening server keeps the run alive until it is closed or unref()'d; so does an open socket and a connect
/// not yet answered.
final class NetSockets {
    /// One listening socket.
    final class Server {
        var channel: (any Channel)?
        var referenced = true
        /// Whether the bind has not answered yet (the run waits for 'listening').
        var binding = true
        /// Whether `close()` was asked for before the bind answered.
        var closing = false
    }

    private let host: ExtensionHost
    var servers: [Int: Server] = [:]
    var sockets: [Int: NetConnection] = [:]
    /// Connects not answered yet.
    private var connecting = 0
    /// Ids of accepted sockets, counting down (JavaScript numbers its own sockets up from 1).
    private var nextAccepted = -1
    private var nativeDepth = 0
    private var deferred = 0
    private var shutDown = false

    init(host: ExtensionHost) { self.host = host }

    /// Runs a native's work: the events it causes at once (a close) reach JavaScript after it, from the loop.
    func native<T>(_ body: () -> T) -> T {
        nativeDepth += 1
        defer { nativeDepth -= 1 }
        return body()
    }

    var keepsAlive: Bool {
        deferred > 0 || connecting > 0 || servers.values.contains { $0.referenced || $0.binding || $0.closing }
            || sockets.values.contains { $0.referenced }
    }

    /// Binds `host:port` on the JS thread's loop; answers netEvent 0 or 1 when done.
    func listen(id: Int, host address: String, port: Int, backlog: Int32, on loop: any EventLoop) {
        let server = Server()
        servers[id] = server
        let hub = NIOLoopBound(self, eventLoop: loop)
        let bootstrap = ServerBootstrap(group: loop)
            .serverChannelOption(.backlog, value: backlog)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                do {
                    let socket = hub.value.accept(channel: channel, server: id)
                    try channel.pipeline.syncOperations.addHandler(socket)
                    return channel.eventLoop.makeSucceededVoidFuture()
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            }
        bootstrap.bind(host: address, port: port).whenComplete { result in hub.value.bound(id, result) }
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
            deliver(0, Double(id), .number(Double(local?.port ?? 0)), .string(local?.ipAddress ?? ""))
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
    }

    private func accept(channel: any Channel, server: Int) -> NetConnection {
        let id = nextAccepted
        nextAccepted -= 1
        let socket = NetConnection(id: id, server: server, hub: self)
        sockets[id] = socket
        return socket
    }

    /// Connects to `host:port` (a name is resolved by SwiftNIO off the JS thread, its addresses tried as Happy
    /// Eyeballs tries them); answers netEvent 9 or 10.
    func connect(id: Int, host address: String, port: Int, on loop: any EventLoop) {
        let hub = NIOLoopBound(self, eventLoop: loop)
        let bootstrap = ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelOption(.allowRemoteHalfClosure, value: true)
        connecting += 1
        let future: EventLoopFuture<any Channel>
        if let literal = try? SocketAddress(ipAddress: address, port: port) {
            future = bootstrap.connect(to: literal)
        } else {
            future = bootstrap.connect(host: address, port: port)
        }
        future.whenComplete { result in hub.value.connected(id, result) }
    }

    private func connected(_ id: Int, _ result: Result<any Channel, any Error>) {
        connecting -= 1
        switch result {
        case .success(let channel):
            let socket = NetConnection(id: id, server: nil, hub: self)
            if shutDown {
                channel.close(promise: nil)
                return
            }
            sockets[id] = socket
            do {
                try channel.pipeline.syncOperations.addHandler(socket)
            } catch {
                sockets[id] = nil
                channel.close(promise: nil)
                let (code, errno) = Self.errnoName(error)
                deliver(10, Double(id), .string(code), .number(Double(errno)), .string(String(describing: error)))
                return
            }
            let local = channel.localAddress
            let remote = channel.remoteAddress
            deliver(
                9, Double(id), .string(local?.ipAddress ?? ""), .number(Double(local?.port ?? 0)),
                .string(remote?.ipAddress ?? ""), .number(Double(remote?.port ?? 0)))
        case .failure(let error):
            let (code, errno) = Self.errnoName(error)
            deliver(10, Double(id), .string(code), .number(Double(errno)), .string(String(describing: error)))
        }
    }

    func closed(_ socket: NetConnection) {
        sockets[socket.id] = nil
        deliver(6, Double(socket.id))
    }

    func deliver(_ kind: Int, _ first: Double, _ rest: HTTPServers.Argument...) {
        deliver(kind, [.number(first)] + rest)
    }

    /// Calls `internal.netEvent(kind, ...)`; while a native runs, after it (on the loop).
    func deliver(_ kind: Int, _ arguments: [HTTPServers.Argument]) {
        guard !shutDown, !host.isStopping, let hook = host.hook("netEvent", definedBy: "node-net.js") else { return }
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
        HTTPServers.call(hook, kind, arguments, host: host)
    }

    /// Closes every socket when the run ends.
    func closeAll() {
        shutDown = true
        for server in Array(servers.values) { server.channel?.close(promise: nil) }
        for socket in Array(sockets.values) { socket.destroy() }
        servers = [:]
        sockets = [:]
    }

    /// Node's name and negative number of the errno behind a failed bind, connect or socket (`ECONNREFUSED`,
    /// -111); a name that does not resolve is `ENOTFOUND`, a connect that never answered `ETIMEDOUT`.
    static func errnoName(_ error: any Error) -> (String, Int32) {
        if let failure = error as? NIOConnectionError {
            if let first = failure.connectionErrors.first { return errnoName(first.error) }
            return ("ENOTFOUND", -3008)
        }
        if let channel = error as? ChannelError {
            switch channel {
            case .connectTimeout: return ("ETIMEDOUT", -ETIMEDOUT)
            case .ioOnClosedChannel, .outputClosed, .alreadyClosed: return ("EPIPE", -EPIPE)
            default: return ("EINVAL", -EINVAL)
            }
        }
        guard let io = error as? IOError else { return ("EINVAL", -EINVAL) }
        let names: [Int32: String] = [
            EADDRINUSE: "EADDRINUSE", EACCES: "EACCES", EADDRNOTAVAIL: "EADDRNOTAVAIL", EINVAL: "EINVAL",
            EAFNOSUPPORT: "EAFNOSUPPORT", ECONNREFUSED: "ECONNREFUSED", ECONNRESET: "ECONNRESET", EPIPE: "EPIPE",
            ETIMEDOUT: "ETIMEDOUT", EHOSTUNREACH: "EHOSTUNREACH", ENETUNREACH: "ENETUNREACH",
            ECONNABORTED: "ECONNABORTED",
        ]
        return (names[io.errnoCode] ?? "E\(io.errnoCode)", -io.errnoCode)
    }
}

/// One TCP connection, accepted by a server or connected by the script: a SwiftNIO handler on the JS thread's
/// loop that hands its bytes to JavaScript and writes the script's.
final class NetConnection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let id: Int
    /// The server that accepted it, nil for a connection the script made.
    let server: Int?
    unowned let hub: NetSockets
    var referenced = true
    private var context: ChannelHandlerContext?
    private var reading = true
    private var closed = false
    /// The last write's completion: the output ends after it.
    private var lastWrite: EventLoopFuture<Void>?

    init(id: Int, server: Int?, hub: NetSockets) {
        self.id = id
        self.server = server
        self.hub = hub
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func channelActive(context: ChannelHandlerContext) {
        if let server {
            let remote = context.channel.remoteAddress
            let local = context.channel.localAddress
            hub.deliver(
                8, Double(server), .number(Double(id)), .string(remote?.ipAddress ?? ""),
                .number(Double(remote?.port ?? 0)), .string(local?.ipAddress ?? ""), .number(Double(local?.port ?? 0)))
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        hub.deliver(2, Double(id), .bytes(unwrapInboundIn(data)))
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { hub.deliver(3, Double(id)) }
        context.fireUserInboundEventTriggered(event)
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
        guard !closed else { return }
        let (code, errno) = NetSockets.errnoName(error)
        hub.deliver(11, Double(id), .string(code), .number(Double(errno)), .string(String(describing: error)))
        context.close(promise: nil)
    }

    func write(_ bytes: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        guard let context, !closed else { return false }
        var buffer = context.channel.allocator.buffer(capacity: bytes.count)
        buffer.writeBytes(UnsafeRawBufferPointer(bytes))
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(buffer), promise: promise)
        lastWrite = promise.futureResult
        return context.channel.isWritable
    }

    /// Ends the output once the queued writes are out (the whole socket when its input had already ended).
    func endOutput() {
        guard let context, !closed else { return }
        // An output closed after the input closes the whole socket (SwiftNIO's rule, and Node's).
        let channel = context.channel
        let end: @Sendable (Result<Void, any Error>) -> Void = { _ in channel.close(mode: .output, promise: nil) }
        if let lastWrite { lastWrite.whenComplete(end) } else { end(.success(())) }
    }

    func setReading(_ on: Bool) {
        guard let context, on != reading else { return }
        reading = on
        try? context.channel.syncOptions?.setOption(.autoRead, value: on)
        if on { context.read() }
    }

    func setOption(_ option: ChannelOptions.Types.SocketOption, _ on: Bool) {
        guard let context, !closed else { return }
        try? context.channel.syncOptions?.setOption(option, value: on ? 1 : 0)
    }

    func destroy() {
        guard let context, !closed else { return }
        context.close(promise: nil)
    }
}
