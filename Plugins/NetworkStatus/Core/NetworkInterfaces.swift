import Foundation
import JSBridgeBase

#if canImport(Glibc)
    import Glibc
#endif

/// One network interface, as the connection type is worked out from it.
public struct NetworkInterface: Sendable, Hashable {
    /// What the interface is.
    public enum Kind: String, Sendable, Hashable {
        case loopback, ethernet, wifi, cellular, other
    }

    /// The interface's name (`eth0`, `wlp2s0`).
    public var name: String
    public var kind: Kind
    /// Up (`IFF_UP`) with a carrier (`IFF_RUNNING`).
    public var isRunning: Bool
    /// Has an address other machines can reach: IPv4 outside 127/8, 169.254/16 and 0/8; IPv6 other than `::1`
    /// and link-local `fe80::/10`.
    public var hasRoutableAddress: Bool

    public init(name: String, kind: Kind, isRunning: Bool, hasRoutableAddress: Bool) {
        self.name = name
        self.kind = kind
        self.isRunning = isRunning
        self.hasRoutableAddress = hasRoutableAddress
    }
}

/// Lists the machine's network interfaces; injected so tests give a fake list (``SystemNetworkInterfaces`` reads
/// the real one).
public protocol NetworkInterfaceSource: Sendable {
    func interfaces() -> [NetworkInterface]
}

/// cordova-plugin-network-information's connection types (its `Connection` constants) that a Linux machine can
/// tell apart: the cellular generations (`2g`, `3g`, `4g`) cannot be read from an interface, so a modem is
/// `cellular`.
public enum ConnectionType: String, Sendable, Hashable, Codable {
    case unknown, ethernet, wifi, cellular, none

    /// The connection of a machine with `interfaces`: the best kind among the interfaces that are running and
    /// have a routable address (ethernet, then wifi, then cellular; any other kind, a VPN's tunnel say, is
    /// `unknown`); `none` when there is no such interface.
    public static func of(_ interfaces: [NetworkInterface]) -> ConnectionType {
        let connected = interfaces.filter { $0.kind != .loopback && $0.isRunning && $0.hasRoutableAddress }
        for (kind, type) in [(NetworkInterface.Kind.ethernet, ethernet), (.wifi, wifi), (.cellular, cellular)]
        where connected.contains(where: { $0.kind == kind }) {
            return type
        }
        return connected.isEmpty ? .none : .unknown
    }
}

/// The machine's interfaces: names, flags and addresses from `getifaddrs` (the process's network namespace),
/// the link type from its `AF_PACKET` entry, and wifi or a modem told from sysfs (`/sys/class/net/<name>`:
/// `wireless`, `phy80211`, `DEVTYPE=wlan`/`wwan` in `uevent`) when sysfs shows the same interface (its `ifindex`
/// matches: a process in a network namespace of its own may see another namespace's sysfs).
public struct SystemNetworkInterfaces: NetworkInterfaceSource {
    /// Where the interfaces' sysfs folders are.
    public let sysfs: String

    public init(sysfs: String = "/sys/class/net") { self.sysfs = sysfs }

    public func interfaces() -> [NetworkInterface] {
        var head: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&head) == 0, let first = head else { return [] }
        defer { freeifaddrs(head) }
        var order: [String] = []
        var found: [String: (flags: UInt32, linkType: UInt16?, routable: Bool)] = [:]
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let name = String(cString: entry.pointee.ifa_name)
            if found[name] == nil {
                order.append(name)
                found[name] = (entry.pointee.ifa_flags, nil, false)
            }
            found[name]!.flags |= entry.pointee.ifa_flags
            guard let address = entry.pointee.ifa_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_PACKET:
                // struct sockaddr_ll: family, protocol (2 bytes each), ifindex (4), then sll_hatype (2).
                found[name]!.linkType = UnsafeRawPointer(address).loadUnaligned(fromByteOffset: 8, as: UInt16.self)
            case AF_INET:
                let ip = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    UInt32(bigEndian: $0.pointee.sin_addr.s_addr)
                }
                if Self.isRoutable(ipv4: ip) { found[name]!.routable = true }
            case AF_INET6:
                let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
                }
                if Self.isRoutable(ipv6: bytes) { found[name]!.routable = true }
            default:
                break
            }
        }
        return order.map { name in
            let info = found[name]!
            return NetworkInterface(
                name: name, kind: kind(name, flags: info.flags, linkType: info.linkType),
                isRunning: info.flags & UInt32(IFF_UP) != 0 && info.flags & UInt32(IFF_RUNNING) != 0,
                hasRoutableAddress: info.routable)
        }
    }

    /// IPv4 outside 0/8, 127/8 and 169.254/16.
    public static func isRoutable(ipv4 ip: UInt32) -> Bool {
        let first = ip >> 24
        return first != 0 && first != 127 && ip >> 16 != 0xA9FE
    }

    /// IPv6 other than `::`, `::1` and `fe80::/10`.
    public static func isRoutable(ipv6 bytes: [UInt8]) -> Bool {
        guard bytes.count == 16 else { return false }
        if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return false }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && (bytes[15] == 0 || bytes[15] == 1) { return false }
        return true
    }

    private func kind(_ name: String, flags: UInt32, linkType: UInt16?) -> NetworkInterface.Kind {
        // ARPHRD_LOOPBACK 772, ARPHRD_ETHER 1.
        if flags & UInt32(IFF_LOOPBACK) != 0 || linkType == 772 { return .loopback }
        let folder = sysfs + "/" + name
        if sysfsShows(name, folder) {
            let manager = FileManager.default
            if manager.fileExists(atPath: folder + "/wireless") || manager.fileExists(atPath: folder + "/phy80211") {
                return .wifi
            }
            let uevent = (try? String(contentsOfFile: folder + "/uevent", encoding: .utf8)) ?? ""
            if uevent.split(separator: "\n").contains("DEVTYPE=wlan") { return .wifi }
            if uevent.split(separator: "\n").contains("DEVTYPE=wwan") { return .cellular }
        }
        if name.hasPrefix("wwan") { return .cellular }
        return linkType == 1 ? .ethernet : .other
    }

    /// Whether `folder` is this namespace's interface `name` (its `ifindex` is the one `if_nametoindex` gives).
    private func sysfsShows(_ name: String, _ folder: String) -> Bool {
        let index = if_nametoindex(name)
        guard index != 0, let text = try? String(contentsOfFile: folder + "/ifindex", encoding: .utf8) else {
            return false
        }
        return UInt32(text.trimmingCharacters(in: .whitespacesAndNewlines)) == index
    }
}

/// Watches the connection type: the type now, then each change, read from `source` every `interval` on `clock`
/// (both injected: tests give a fake list and a manual clock).
public struct ConnectionWatch: Sendable {
    public let source: any NetworkInterfaceSource
    public let clock: any BridgeClock
    public let interval: Duration

    public init(source: any NetworkInterfaceSource, clock: any BridgeClock, interval: Duration = .seconds(1)) {
        self.source = source
        self.clock = clock
        self.interval = interval
    }

    /// The connection type now.
    public func current() -> ConnectionType { ConnectionType.of(source.interfaces()) }

    /// Calls `yield` with the type now, then with each new type, until cancelled (the clock's sleep throws).
    public func run(_ yield: (ConnectionType) async throws -> Void) async throws {
        var last = current()
        try await yield(last)
        while true {
            try await clock.sleep(for: interval)
            let now = current()
            if now != last {
                last = now
                try await yield(now)
            }
        }
    }
}
