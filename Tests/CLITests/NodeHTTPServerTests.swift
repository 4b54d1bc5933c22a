import Foundation
import JSBridgeTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// node:http's server where a spec file cannot look: the bytes on the wire (keep-alive, pipelined requests,
// HTTP/1.0, chunked framing) from a raw TCP client, and a server keeping the run alive until it is closed. The
// module's behaviour against Node's is in Specs/node-http-*.js.

/// A blocking loopback TCP connection to `port` (call it from a `.blocking` suite).
private final class RawConnection {
    let fd: Int32

    init(port: Int) throws {
        expectThreadMayBlock()
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // A reply that never comes fails the test instead of hanging it.
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }
            sent += count
        }
    }

    /// Reads until `done` holds for what arrived, or the peer closes (or 20 s pass); answers what arrived and
    /// whether the peer closed.
    func read(until done: (String) -> Bool) -> (text: String, closed: Bool) {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !done(String(decoding: data, as: UTF8.self)) {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (String(decoding: data, as: UTF8.self), true) }
            data += buffer[..<count]
        }
        return (String(decoding: data, as: UTF8.self), false)
    }
}

private func occurrences(_ text: String, _ part: String) -> Int { text.components(separatedBy: part).count - 1 }

@Suite("node:http server on the wire", .blocking) struct NodeHTTPServerTests {
    static let server = """
        const http = require("node:http");
        let connections = 0;
        const server = http.createServer((req, res) => {
          if (req.url === "/stream") {
            res.write("first,");
            setTimeout(() => res.end("second"), 5);
            return;
          }
          if (req.url === "/teapot") {
            res.statusMessage = "Short and stout";
            res.writeHead(418, { "X-A": ["1", "2"] });
            return res.end();
          }
          if (req.url === "/close") {
            res.end("bye");
            server.close(() => console.log("closed"));
            return;
          }
          let body = "";
          req.setEncoding("utf8");
          req.on("data", (chunk) => body += chunk);
          req.on("end", () => res.end(`${req.method} ${req.url} ${req.httpVersion} [${body}] #${connections}`));
        });
        server.on("connection", () => connections++);
        server.listen(0, "127.0.0.1", () => console.log(`port ${server.address().port}`));
        """

    /// Starts the server script; answers the process and its port.
    private func start() async throws -> (SpawnedProcess, Int) {
        let process = try SpawnedProcess(
            binary: CLIPaths.binary(), arguments: ["--allow-net=127.0.0.1", "-e", Self.server],
            environment: ProcessInfo.processInfo.environment)
        #expect(await process.waitForOutput("\n"), "no port: \(process.stderr)")
        let line = process.stdout.split(separator: "\n").first { $0.hasPrefix("port ") }
        let port = try #require(line.flatMap { Int($0.dropFirst(5)) }, "\(process.stdout)")
        return (process, port)
    }

    @Test func keepAlivePipeliningAndChunkedFraming() async throws {
        let (process, port) = try await start()
        defer { process.send(SIGKILL) }
        let connection = try RawConnection(port: port)
        // Two requests in one write, the second with a body: answered in order on the same connection.
        connection.send(
            "GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")
        let pipelined = connection.read { occurrences($0, "#1") == 2 }
        #expect(!pipelined.closed, "\(pipelined.text)")
        let first = try #require(pipelined.text.range(of: "GET /a 1.1 [] #1"), "\(pipelined.text)")
        let second = try #require(pipelined.text.range(of: "POST /b 1.1 [hello] #1"), "\(pipelined.text)")
        #expect(first.lowerBound < second.lowerBound)
        #expect(occurrences(pipelined.text, "Connection: keep-alive") == 2, "\(pipelined.text)")
        #expect(pipelined.text.contains("Content-Length: 16"), "\(pipelined.text)")
        // A response written in pieces is chunked, on the same connection still.
        connection.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        let streamed = connection.read { $0.hasSuffix("0\r\n\r\n") }
        #expect(streamed.text.lowercased().contains("transfer-encoding: chunked"), "\(streamed.text)")
        #expect(streamed.text.contains("6\r\nfirst,\r\n6\r\nsecond\r\n0\r\n\r\n"), "\(streamed.text)")
        // A reason phrase of the script's own, a header given twice.
        connection.send("GET /teapot HTTP/1.1\r\nHost: x\r\n\r\n")
        let teapot = connection.read { $0.contains("\r\n\r\n") }
        #expect(teapot.text.hasPrefix("HTTP/1.1 418 Short and stout\r\n"), "\(teapot.text)")
        #expect(teapot.text.contains("X-A: 1\r\nX-A: 2\r\n"), "\(teapot.text)")
        // HTTP/1.0 without keep-alive: the server closes after the response.
        let old = try RawConnection(port: port)
        old.send("GET /c HTTP/1.0\r\n\r\n")
        let closing = old.read { _ in false }
        #expect(closing.closed)
        #expect(closing.text.contains("GET /c 1.0 [] #2"), "\(closing.text)")
        #expect(closing.text.contains("Connection: close"), "\(closing.text)")
    }

    @Test func theServerKeepsTheRunAliveUntilClosed() async throws {
        let (process, port) = try await start()
        let connection = try RawConnection(port: port)
        connection.send("GET /close HTTP/1.1\r\nHost: x\r\n\r\n")
        let reply = connection.read { $0.hasSuffix("bye") }
        #expect(reply.text.hasPrefix("HTTP/1.1 200 OK"), "\(reply.text)")
        // close() ends the idle keep-alive connection too, and then the run.
        #expect(connection.read { _ in false }.closed)
        #expect(await process.waitForStatus() == .exited(0), "\(process.stderr)")
        #expect(process.stdout.contains("closed"), "\(process.stdout)")
    }

    @Test func aMalformedRequestGetsA400AndTheServerGoesOn() async throws {
        let (process, port) = try await start()
        defer { process.send(SIGKILL) }
        let bad = try RawConnection(port: port)
        bad.send("NOT HTTP\r\n\r\n")
        let reply = bad.read { _ in false }
        #expect(reply.text.hasPrefix("HTTP/1.1 400"), "\(reply.text)")
        let good = try RawConnection(port: port)
        good.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        let after = good.read { $0.contains("GET /after 1.1 [] #") }
        #expect(after.text.contains("GET /after 1.1 []"), "\(after.text)")
    }
}
