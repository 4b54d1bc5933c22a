import Foundation
import JSBridgeTesting
import LocationPlugin
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A small NMEA TCP server gpsd reads from (`tcp://127.0.0.1:<port>`): every `interval` it sends one
/// GGA + RMC pair with the time advancing one second per cycle. `silent` accepts but sends nothing.
final class NMEAFeeder: Sendable {
    let port: Int
    private let listener: Int32
    private let stopped = Atomic<Bool>(false)
    let silent: Bool
    let interval: Duration

    init(silent: Bool = false, interval: Duration = .milliseconds(100)) throws {
        self.silent = silent
        self.interval = interval
        (listener, port) = try listenOnLoopback(backlog: 8, reuseAddress: true)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .acquiring) {
            var pfd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            if client < 0 { continue }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
        close(listener)
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var second = 0
        while !stopped.load(ordering: .acquiring) {
            if !silent {
                let t = String(format: "12%02d%02d.00", (second / 60) % 60, second % 60)
                let text =
                    NMEA.sentence("GPGGA,\(t),3954.2520,N,11624.4440,E,1,08,0.9,50.0,M,-8.0,M,,") + "\r\n"
                    + NMEA.sentence("GPRMC,\(t),A,3954.2520,N,11624.4440,E,1.5,45.0,211126,,,A") + "\r\n"
                let sent = Array(text.utf8).withUnsafeBytes {
                    send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if sent < 0 { return }
                second += 1
            }
            Thread.sleep(
                forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
        }
    }

    func stop() { stopped.store(true, ordering: .releasing) }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A real gpsd on a private port reading from a feeder; `stop()` kills it, waits, and removes the
/// System V shared-memory segments it created.
final class GPSD: @unchecked Sendable {
    let port: Int
    let feederPort: Int
    private let process = Process()

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }
    static let executable: String =
        ["/usr/sbin/gpsd", "/usr/bin/gpsd", "/usr/local/sbin/gpsd"]
        .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/gpsd"

    init(port: Int? = nil, feederPort: Int) throws {
        self.port = try port ?? freePort()
        self.feederPort = feederPort
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-N", "-n", "-S", String(self.port), "tcp://127.0.0.1:\(feederPort)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // gpsd says nothing when it is ready: its port is tried until it accepts (or gpsd has exited).
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if canConnect(port: self.port) { return }
            if !process.isRunning { break }
            usleep(20_000)
        }
        stop()
        throw HarnessError("gpsd did not start listening on port \(self.port)")
    }

    /// Returns once gpsd reports a cycle in one TPV (position, altitude and course together).
    ///
    /// In the first cycles gpsd does not know yet which sentence ends a cycle, and reports each sentence
    /// alone; how far apart those reports come then depends on how busy the machine is. Waiting for a whole
    /// cycle makes what a test sees not depend on it.
    func waitForAWholeCycle() throws {
        guard let fd = connectToLoopback(port: port) else {
            throw HarnessError("cannot connect to gpsd on port \(port)")
        }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)  // a guard: gpsd reports every second
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let watch = Array(#"?WATCH={"enable":true,"json":true}"#.utf8) + [10]
        _ = watch.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var pending = ""
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw HarnessError("gpsd reported no whole cycle") }
            pending += String(decoding: chunk[0..<n], as: UTF8.self)
            // gpsd ends its lines with "\r\n", one Character in Swift.
            while let end = pending.firstIndex(where: { $0 == "\r\n" || $0 == "\n" }) {
                let line = pending[..<end]
                if line.contains(#""class":"TPV""#), line.contains(#""track":"#), line.contains(#""altHAE":"#) {
                    return
                }
                pending = String(pending[pending.index(after: end)...])
            }
        }
    }

    func stop() {
        guard process.processIdentifier > 0 else { return }
        let pid = process.processIdentifier
        if process.isRunning {
            process.terminate()
            let deadline = ContinuousClock.now + .seconds(3)
            while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
            if process.isRunning { kill(pid, SIGKILL) }
            process.waitUntilExit()
        }
        Self.removeSharedMemory(createdBy: pid)
    }

    /// gpsd leaves its SHM export and NTP segments behind; remove the ones this gpsd created.
    static func removeSharedMemory(createdBy pid: Int32) {
        let ipcs = Process()
        ipcs.executableURL = URL(fileURLWithPath: "/usr/bin/ipcs")
        ipcs.arguments = ["-m", "-p"]
        let pipe = Pipe()
        ipcs.standardOutput = pipe
        ipcs.standardError = FileHandle.nullDevice
        guard (try? ipcs.run()) != nil else { return }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ipcs.waitUntilExit()
        for line in output.split(separator: "\n") {
            let columns = line.split(separator: " ")
            guard columns.count >= 3, let id = Int32(columns[0]), Int32(columns[2]) == pid else { continue }
            _ = shmctl(id, IPC_RMID, nil)
        }
    }
}

/// A TCP socket listening on 127.0.0.1 at a port the system picked: `(descriptor, port)`.
func listenOnLoopback(backlog: Int32, reuseAddress: Bool = false) throws -> (fd: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    if reuseAddress {
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0, listen(fd, backlog) == 0 else {
        let reason = String(cString: strerror(errno))
        close(fd)
        throw HarnessError("cannot listen on 127.0.0.1: \(reason)")
    }
    withUnsafeMutablePointer(to: &address) {
        _ = $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}

/// A port nothing listens on (it was free a moment ago).
func freePort() throws -> Int {
    let (fd, port) = try listenOnLoopback(backlog: 1)
    close(fd)
    return port
}

func canConnect(port: Int) -> Bool {
    guard let fd = connectToLoopback(port: port) else { return false }
    close(fd)
    return true
}

/// A socket connected to 127.0.0.1:`port`, or nil.
func connectToLoopback(port: Int) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        close(fd)
        return nil
    }
    return fd
}

/// Runs `body` with a feeder and a gpsd reading it; both are stopped afterwards, whatever happens.
func withGPSD<R>(silent: Bool = false, _ body: (GPSD, NMEAFeeder) async throws -> R) async throws -> R {
    let feeder = try NMEAFeeder(silent: silent)
    defer { feeder.stop() }
    // Starting and stopping gpsd wait on the process: off the cooperative pool.
    let gpsd = try await runBlocking { try GPSD(feederPort: feeder.port) }
    do {
        if !silent { try await runBlocking { try gpsd.waitForAWholeCycle() } }
        let result = try await body(gpsd, feeder)
        try await runBlocking { gpsd.stop() }
        return result
    } catch {
        _ = try? await runBlocking { gpsd.stop() }
        throw error
    }
}
