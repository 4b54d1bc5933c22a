/// A capability a plugin asks for before it acts (DESIGN §5): denied unless the user granted it.
public enum Permission: Sendable, Hashable, CustomStringConvertible {
    /// Network access to `host` (and `port`, when known).
    case net(host: String, port: Int?)
    /// Access to the device's location.
    case location

    public var description: String {
        switch self {
        case .net(let host, let port?): "network access to \(host):\(port)"
        case .net(let host, nil): "network access to \(host)"
        case .location: "location access"
        }
    }

    /// The command-line flag that grants this permission.
    public var flagHint: String {
        switch self {
        case .net(let host, let port?): "--allow-net=\(host):\(port) (or --allow-net)"
        case .net(let host, nil): "--allow-net=\(host) (or --allow-net)"
        case .location: "--allow-location"
        }
    }
}

/// The capabilities granted to a script (`--allow-net`, `--allow-location`, `--allow-all`).
public struct Permissions: Sendable, Hashable {
    /// Which network destinations are allowed.
    public enum Net: Sendable, Hashable {
        case denied
        case all
        /// Only these `host[:port]` entries (a missing port allows every port of that host).
        case hosts([HostPattern])
    }

    /// One `--allow-net` entry.
    public struct HostPattern: Sendable, Hashable, CustomStringConvertible {
        public var host: String
        public var port: Int?

        public init(host: String, port: Int? = nil) {
            self.host = host.lowercased()
            self.port = port
        }

        /// Parses `host`, `host:port`, `[v6]` or `[v6]:port`; nil when malformed.
        public init?(parsing text: String) {
            var hostPart = Substring(text)
            var port: Int?
            if hostPart.hasPrefix("[") {
                guard let close = hostPart.firstIndex(of: "]") else { return nil }
                let rest = hostPart[hostPart.index(after: close)...]
                hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
                if !rest.isEmpty {
                    guard rest.hasPrefix(":"), let p = Int(rest.dropFirst()), (0...65535).contains(p) else {
                        return nil
                    }
                    port = p
                }
            } else if let colon = hostPart.lastIndex(of: ":") {
                guard let p = Int(hostPart[hostPart.index(after: colon)...]), (0...65535).contains(p) else {
                    return nil
                }
                port = p
                hostPart = hostPart[..<colon]
            }
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:*")
            guard !hostPart.isEmpty, !hostPart.hasPrefix("-"), hostPart.allSatisfy(allowed.contains) else { return nil }
            self.init(host: String(hostPart), port: port)
        }

        public var description: String {
            let h = host.contains(":") ? "[\(host)]" : host
            return port.map { "\(h):\($0)" } ?? h
        }

        func matches(host: String, port: Int?) -> Bool {
            guard self.host == host.lowercased() else { return false }
            guard let own = self.port else { return true }
            return own == port
        }
    }

    public var net: Net
    public var location: Bool

    /// Creates a permission set; the default denies everything.
    public init(net: Net = .denied, location: Bool = false) {
        self.net = net
        self.location = location
    }

    /// Nothing granted (the default for scripts).
    public static let none = Permissions()
    /// Everything granted (`--allow-all`).
    public static let all = Permissions(net: .all, location: true)

    /// Whether `permission` is granted.
    public func allows(_ permission: Permission) -> Bool {
        switch permission {
        case .location:
            return location
        case .net(let host, let port):
            switch net {
            case .denied: return false
            case .all: return true
            case .hosts(let patterns): return patterns.contains { $0.matches(host: host, port: port) }
            }
        }
    }

    /// Throws `PERMISSION_DENIED` with the flag to use when `permission` is not granted.
    public func check(_ permission: Permission) throws(BridgeError) {
        guard allows(permission) else {
            throw BridgeError(
                code: BridgeError.Code.permissionDenied,
                message: "\(permission.description.prefix(1).uppercased())\(permission.description.dropFirst()) "
                    + "was not granted; run with \(permission.flagHint).",
                data: .object(["permission": .string(permission.description)]))
        }
    }
}
