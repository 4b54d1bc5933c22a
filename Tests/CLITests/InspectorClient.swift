import Foundation
import JSBridgeBase
import JSBridgeTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP and WebSocket client of `jsbridge --inspect` for the tests (blocking sockets with a receive
/// timeout, so a test that waits for what never comes fails instead of hanging).
struct InspectorClientError: Error, CustomStringConvertible {
    let description: String
}

/// A TCP connection to 127.0.0.1:`port`.
private func connectLoopback(port: Int, timeoutSeconds: Int = 20) throws -> Int32 {
    expectThreadMayBlock()
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw InspectorClientError(description: "socket failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        close(fd)
        throw InspectorClientError(description: "cannot connect to 127.0.0.1:\(port): errno \(errno)")
    }
    var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    return fd
}

/// `recv`, tried again when a signal to the test process interrupts it (EINTR).
private func recvRetryingOnEINTR(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    while true {
        let got = recv(fd, buffer, count, 0)
        if got >= 0 || errno != EINTR { return got }
    }
}

private func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
        let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if sent < 0, errno == EINTR { continue }
        guard sent > 0 else { throw InspectorClientError(description: "send failed: errno \(errno)") }
        offset += sent
    }
}

/// One HTTP GET of `path` with `host` as its Host header: the status line and the body.
func inspectorHTTPGet(port: Int, path: String, host: String) throws -> (status: String, body: String) {
    let fd = try connectLoopback(port: port)
    defer { close(fd) }
    try sendAll(fd, Array("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8))
    var response: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = recvRetryingOnEINTR(fd, &chunk, chunk.count)
        if count <= 0 { break }
        response += chunk[0..<count]
    }
    let text = String(decoding: response, as: UTF8.self)
    guard let headerEnd = text.range(of: "\r\n\r\n") else {
        throw InspectorClientError(description: "no HTTP response: \(text)")
    }
    let status = String(text[..<headerEnd.lowerBound].prefix { $0 != "\r" })
    return (status, String(text[headerEnd.upperBound...]))
}

/// A WebSocket session speaking the WebKit Inspector Protocol: commands with ids, and the events read on the
/// way kept in order.
final class InspectorSession {
    private let fd: Int32
    private var input: [UInt8] = []
    private var nextID = 0
    /// Events received and not yet taken by ``waitForEvent(_:where:)``.
    private(set) var events: [[String: Any]] = []
    /// Every event received, in order.
    private(set) var log: [String] = []

    /// Opens `ws://127.0.0.1:port/path`; `origin` adds an Origin header. Throws with the status when refused.
    init(port: Int, path: String, origin: String? = nil) throws {
        fd = try connectLoopback(port: port)
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        var request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { request += "Origin: \(origin)\r\n" }
        try sendAll(fd, Array((request + "\r\n").utf8))
        var header: [UInt8] = []
        var byte: UInt8 = 0
        while !header.ends(with: Array("\r\n\r\n".utf8)) {
            guard recvRetryingOnEINTR(fd, &byte, 1) == 1 else { break }
            header.append(byte)
        }
        let status = String(decoding: header, as: UTF8.self).prefix { $0 != "\r" }
        guard status.contains(" 101 ") else {
            close(fd)
            throw InspectorClientError(description: "upgrade refused: \(status)")
        }
    }

    deinit { close(fd) }

    func sendClose() {
        // A close frame, masked as a client's must be.
        try? sendAll(fd, [0x88, 0x80, 1, 2, 3, 4])
    }

    /// Sends a command; its id.
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:]) throws -> Int {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method]
        if !params.isEmpty { message["params"] = params }
        let payload = [UInt8](try JSONSerialization.data(withJSONObject: message))
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65536 {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        let mask: [UInt8] = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try sendAll(fd, frame)
        return nextID
    }

    /// Sends a command and returns its answer (events on the way are kept); throws on an error answer.
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
        let id = try send(method, params)
        return try answer(to: id, method)
    }

    /// The answer to command `id` (events on the way are kept).
    func answer(to id: Int, _ method: String = "") throws -> [String: Any] {
        while true {
            let message = try receive()
            if message["id"] as? Int == id {
                if let error = message["error"] { throw InspectorClientError(description: "\(method): \(error)") }
                return message["result"] as? [String: Any] ?? [:]
            }
            events.append(message)
        }
    }

    /// The next event named `method` (that `predicate` accepts), kept or read; its params.
    func waitForEvent(_ method: String, where predicate: ([String: Any]) -> Bool = { _ in true }) throws -> [String:
        Any]
    {
        if let index = events.firstIndex(where: {
            $0["method"] as? String == method && predicate($0["params"] as? [String: Any] ?? [:])
        }) {
            return events.remove(at: index)["params"] as? [String: Any] ?? [:]
        }
        while true {
            let message = try receive()
            if message["method"] as? String == method, predicate(message["params"] as? [String: Any] ?? [:]) {
                return message["params"] as? [String: Any] ?? [:]
            }
            events.append(message)
        }
    }

    /// Reads one text message.
    private func receive() throws -> [String: Any] {
        while true {
            if let (payload, used) = Self.frame(in: input) {
                input.removeFirst(used)
                guard let object = try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] else {
                    throw InspectorClientError(description: "not a JSON object")
                }
                if let method = object["method"] as? String { log.append(method) }
                return object
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recvRetryingOnEINTR(fd, &chunk, chunk.count)
            guard count > 0 else {
                throw InspectorClientError(
                    description: "connection ended or timed out (errno \(errno)); events so far: \(log)")
            }
            input += chunk[0..<count]
        }
    }

    /// A whole unmasked frame at the start of `bytes`: its payload and its length.
    private static func frame(in bytes: [UInt8]) -> ([UInt8], Int)? {
        guard bytes.count >= 2 else { return nil }
        var length = Int(bytes[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            offset = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        guard bytes.count >= offset + length else { return nil }
        return (Array(bytes[offset..<offset + length]), offset + length)
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

/// The scheduler state of one thread of process `pid` (`R` runnable, `S` sleeping, ...), from /proc.
func threadState(_ pid: pid_t, thread: pid_t) -> Character? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return nil }
    return stat[stat.index(after: close)...].first { $0 != " " }
}

/// The resident memory of process `pid` in megabytes (VmRSS in /proc/<pid>/status).
func residentMegabytes(_ pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kilobytes / 1024
}

/// The CPU time (user + system, seconds) process `pid` used so far, from /proc/<pid>/stat.
func processCPUSeconds(_ pid: pid_t) -> Double? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After the name: state is field 3, utime 14 and stime 15 (1-based), so indexes 11 and 12 here.
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}
