import Foundation

/// Hosts for tests that cross a network: network namespaces made with `ip netns`, each with its own address
/// on a bridge in the test's namespace (the "router", where the test's servers listen), so processes started
/// in them are different hosts to the servers and to each other. Needs root (or CAP_NET_ADMIN) and iproute2;
/// ``available`` says whether they can be made here.
///
/// ```swift
/// let hosts = try TestHosts.make(count: 4)
/// defer { hosts.remove() }
/// let cluster = try TestPostgresCluster.start(network: (hosts.routerAddress, hosts.subnet))
/// let process = Process(); process.executableURL = URL(fileURLWithPath: TestHosts.ip)
/// process.arguments = hosts.exec(0, ["/path/to/jsbridge", "script.js"])
/// try hosts.setLink(1, up: false)   // host 1 drops off the network
/// ```
public final class TestHosts: Sendable {
    /// iproute2's `ip`.
    public static let ip = "/usr/sbin/ip"

    /// The namespaces' names, one per host.
    public let names: [String]
    /// Each host's address.
    public let addresses: [String]
    /// The bridge's address in the test's own namespace: where the hosts reach the test's servers.
    public let routerAddress: String
    /// The hosts' subnet (CIDR).
    public let subnet: String
    private let bridge: String

    /// Whether namespaces can be made here (root, `ip` present, and a probe namespace was made and removed).
    public static let available: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: ip) else { return false }
        let probe = "jsbprobe\(getpid())"
        guard (try? run([ip, "netns", "add", probe])) != nil else { return false }
        _ = try? run([ip, "netns", "del", probe])
        return true
    }()

    /// Makes `count` hosts (at most 200) on a new bridge with a subnet of its own.
    public static func make(count: Int) throws -> TestHosts {
        precondition((1...200).contains(count))
        // Names and a subnet unlikely to meet another test process's at the same time.
        let tag = String(UInt32.random(in: 0..<UInt32.max), radix: 36)
        let (a, b) = (Int.random(in: 200...250), Int.random(in: 0...255))
        let prefix = "10.\(a).\(b)"
        let hosts = TestHosts(
            names: (0..<count).map { "jsbh\(tag)n\($0)" }, addresses: (0..<count).map { "\(prefix).\($0 + 10)" },
            routerAddress: "\(prefix).1", subnet: "\(prefix).0/24", bridge: "jsbb\(tag)")
        do {
            try run([ip, "link", "add", hosts.bridge, "type", "bridge"])
            try run([ip, "addr", "add", "\(hosts.routerAddress)/24", "dev", hosts.bridge])
            try run([ip, "link", "set", hosts.bridge, "up"])
            for (index, name) in hosts.names.enumerated() {
                let outside = "jsbv\(tag)\(index)"
                try run([ip, "netns", "add", name])
                try run([ip, "link", "add", outside, "type", "veth", "peer", "name", "eth0", "netns", name])
                try run([ip, "link", "set", outside, "master", hosts.bridge])
                try run([ip, "link", "set", outside, "up"])
                try run([ip, "-n", name, "addr", "add", "\(hosts.addresses[index])/24", "dev", "eth0"])
                try run([ip, "-n", name, "link", "set", "eth0", "up"])
                try run([ip, "-n", name, "link", "set", "lo", "up"])
            }
        } catch {
            hosts.remove()
            throw error
        }
        return hosts
    }

    private init(names: [String], addresses: [String], routerAddress: String, subnet: String, bridge: String) {
        self.names = names
        self.addresses = addresses
        self.routerAddress = routerAddress
        self.subnet = subnet
        self.bridge = bridge
    }

    /// The arguments of ``ip`` that run `command` (an absolute path, then its arguments) on host `index`.
    public func exec(_ index: Int, _ command: [String]) -> [String] {
        ["netns", "exec", names[index]] + command
    }

    /// Takes host `index`'s link down (its packets are dropped, its connections stall) or up again.
    public func setLink(_ index: Int, up: Bool) throws {
        try Self.run([Self.ip, "-n", names[index], "link", "set", "eth0", up ? "up" : "down"])
    }

    /// Removes the namespaces (and their links) and the bridge.
    public func remove() {
        for name in names { _ = try? Self.run([Self.ip, "netns", "del", name]) }
        _ = try? Self.run([Self.ip, "link", "del", bridge])
    }

    @discardableResult
    private static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ClusterError(message: "\(arguments.joined(separator: " ")) failed: \(output)")
        }
        return output
    }
}
