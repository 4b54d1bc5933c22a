import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

// The loopback server of the HTTP benchmark: SwiftNIO, HTTP/1.1 with keep-alive, one event-loop thread.
//   GET /user   the benchmark's document (a ~300-byte user object, application/json)
//   GET /stats  {"requests": N, "cpuMs": user+system CPU of this process so far}
// Prints {"port": N} once listening on 127.0.0.1 (ephemeral port unless --port), then serves until it is
// sent SIGTERM/SIGINT or --max-seconds (default 3600) pass, whichever comes first.
#if canImport(Glibc)
    import Glibc
#endif

let userJSON =
    #"{"id":1296269,"login":"octocat","name":"The Octocat","email":"octocat@example.com","company":"GitHub","location":"San Francisco","bio":"A mysterious cat who lives in the octoverse and ships code.","public_repos":8,"followers":3938,"site_admin":false,"score":97.25,"created_at":"2011-01-25T18:44:36Z"}"#

let requestCount = Atomic<Int>(0)

func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
    return ms(usage.ru_utime) + ms(usage.ru_stime)
}

/// Writes a string straight to a file descriptor (no stdio buffering: the port line must arrive at once).
func writeAll(_ fd: Int32, _ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n <= 0 { return }
        bytes = bytes.dropFirst(n)
    }
}

final class UserHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let user: ByteBuffer
    private var keepAlive = true
    private var uri = ""

    init(user: ByteBuffer) { self.user = user }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            keepAlive = head.isKeepAlive
            uri = head.uri
        case .body:
            break
        case .end:
            let count = requestCount.wrappingAdd(1, ordering: .relaxed).newValue
            var status = HTTPResponseStatus.ok
            let body: ByteBuffer
            switch uri {
            case "/user": body = user
            case "/stats":
                body = ByteBuffer(string: #"{"requests":\#(count - 1),"cpuMs":\#(cpuMilliseconds())}"#)
            default:
                status = .notFound
                body = ByteBuffer(string: #"{"error":"not found"}"#)
            }
            var headers = HTTPHeaders()
            headers.add(name: "content-type", value: "application/json")
            headers.add(name: "content-length", value: String(body.readableBytes))
            if !keepAlive { headers.add(name: "connection", value: "close") }
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            if keepAlive {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            } else {
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
            }
        }
    }
}

var port = 0
var maxSeconds = 3600
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--port": port = Int(arguments.next() ?? "") ?? 0
    case "--max-seconds": maxSeconds = Int(arguments.next() ?? "") ?? maxSeconds
    default:
        writeAll(2, "http-server: unknown argument \(argument)\n")
        exit(2)
    }
}

let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let user = ByteBuffer(string: userJSON)
let bootstrap = ServerBootstrap(group: group)
    .serverChannelOption(.backlog, value: 1024)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
            try channel.pipeline.syncOperations.addHandler(UserHandler(user: user))
        }
    }
let server = try bootstrap.bind(host: "127.0.0.1", port: port).wait()
writeAll(1, #"{"port":\#(server.localAddress?.port ?? 0),"bodyBytes":\#(user.readableBytes)}"# + "\n")
signal(SIGTERM) { _ in _exit(0) }
signal(SIGINT) { _ in _exit(0) }
group.next().scheduleTask(in: .seconds(Int64(maxSeconds))) { _exit(0) }
try server.closeFuture.wait()
