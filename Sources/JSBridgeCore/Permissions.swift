#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A capability that scripts are denied unless the user grants it (Deno style), declared by the plugins
/// that use it.
///
/// The flag is `--allow-<name>`, optionally with scopes (`--allow-net=a.com:443,b.org`) when the capability
/// has a ``Scope``; `--allow-all` grants every capability, and `--config` can grant them too:
/// `{"allow": {"<name>": true | ["scope", …]}}`.
///
/// ```swift
/// extension Capability {
///     static let sensors = Capability("sensors", guards: "reading the machine's sensors")
/// }
/// ```
public struct Capability: Sendable, Hashable, CustomStringConvertible {
    /// The name in `--allow-<name>` and in `--config`'s `allow` object: lowercase letters, digits and `-`.
    public let name: String
    /// What the capability guards, as a phrase that completes "… was not granted" ("network access").
    public let guards: String
    /// How grants are narrowed to scopes (hosts, paths); nil when the capability is all or nothing.
    public let scope: Scope?

    /// Creates a capability; `name` must be lowercase letters, digits and `-` (checked at registration).
    public init(_ name: String, guards: String, scope: Scope? = nil) {
        self.name = name
        self.guards = guards
        self.scope = scope
    }

    /// The flag that grants the capability.
    public var flag: String { "--allow-\(name)" }

    public var description: String { flag }

    /// Capabilities are identified by name.
    public static func == (lhs: Capability, rhs: Capability) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// How a scoped capability reads the scopes the user grants and matches them against a request.
    public struct Scope: Sendable {
        /// The placeholder in `--help`: `--allow-net[=<hosts>]`.
        public let valueName: String
        /// Checks and normalises one granted scope as the user wrote it; throws a message when malformed.
        public let parse: @Sendable (String) throws(CapabilityError) -> String
        /// Whether a granted (normalised) scope covers the scope a plugin asks for.
        public let covers: @Sendable (_ granted: String, _ requested: String) -> Bool

        public init(
            valueName: String,
            parse: @escaping @Sendable (String) throws(CapabilityError) -> String,
            covers: @escaping @Sendable (_ granted: String, _ requested: String) -> Bool
        ) {
            self.valueName = valueName
            self.parse = parse
            self.covers = covers
        }
    }

    /// Whether `name` is a valid capability name.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.first != UInt8(ascii: "-")
            && name.utf8.allSatisfy {
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "-")
            }
    }
}

/// A scope the user wrote that a capability cannot read.
public struct CapabilityError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The capabilities granted to a script: per capability name, everything or a list of scopes.
public struct Permissions: Sendable, Hashable {
    /// What is granted of one capability.
    public enum Grant: Sendable, Hashable {
        /// Every use (`--allow-net`).
        case all
        /// Only these normalised scopes (`--allow-net=a.com:443`).
        case scopes([String])
    }

    /// Grants by capability name.
    public private(set) var grants: [String: Grant]
    /// Whether every capability is granted, declared or not (`--allow-all`).
    public private(set) var allowsAll: Bool

    /// Creates a permission set; the default denies everything.
    public init(_ grants: [String: Grant] = [:], allowsAll: Bool = false) {
        self.grants = grants
        self.allowsAll = allowsAll
    }

    /// Grants each of `capabilities` whole (`Permissions(allowing: .net, .location)`).
    public init(allowing first: Capability, _ more: Capability...) {
        self.init(Dictionary(([first] + more).map { ($0.name, Grant.all) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Nothing granted (the default for scripts).
    public static let none = Permissions()
    /// Everything granted (`--allow-all`).
    public static let all = Permissions(allowsAll: true)

    /// These permissions plus `capability` (all of it, or only `scopes`, which are parsed by its scope rule).
    public func granting(_ capability: Capability, scopes: [String]? = nil) throws(CapabilityError) -> Permissions {
        var copy = self
        try copy.grant(capability, scopes: scopes)
        return copy
    }

    /// Adds `capability` (all of it, or `scopes`); an earlier grant of everything stays.
    public mutating func grant(_ capability: Capability, scopes: [String]? = nil) throws(CapabilityError) {
        guard let scopes else {
            grants[capability.name] = .all
            return
        }
        guard let rule = capability.scope else {
            throw CapabilityError("\(capability.flag) takes no value.")
        }
        var parsed: [String] = []
        for scope in scopes { parsed.append(try rule.parse(scope)) }
        switch grants[capability.name] {
        case .all?: return
        case .scopes(let existing)?:
            // Scopes are compared as bytes (paths are, on Linux), not as Unicode-equivalent strings.
            let new = parsed.filter { scope in !existing.contains { $0.utf8.elementsEqual(scope.utf8) } }
            grants[capability.name] = .scopes(existing + new)
        case nil: grants[capability.name] = .scopes(parsed)
        }
    }

    /// What is granted of `capability`: nil when nothing.
    public func grant(of capability: Capability) -> Grant? {
        allowsAll ? .all : grants[capability.name]
    }

    /// Whether `capability` is granted — for `scope`, when given (a scoped grant covers only its scopes).
    public func allows(_ capability: Capability, scope: String? = nil) -> Bool {
        switch grant(of: capability) {
        case nil: return false
        case .all?: return true
        case .scopes(let granted)?:
            guard let scope, let rule = capability.scope else { return false }
            return granted.contains { rule.covers($0, scope) }
        }
    }

    /// Throws `PERMISSION_DENIED`, naming the flag to use, unless `capability` (for `scope`) is granted.
    public func check(_ capability: Capability, scope: String? = nil) throws(BridgeError) {
        guard !allows(capability, scope: scope) else { return }
        let what = scope.map { "\(capability.guards) to \($0)" } ?? capability.guards
        let hint = scope.map { "\(capability.flag)=\($0) (or \(capability.flag))" } ?? capability.flag
        throw BridgeError(
            code: BridgeError.Code.permissionDenied,
            message: "\(what.prefix(1).uppercased())\(what.dropFirst()) was not granted; run with \(hint).",
            data: .object(["permission": .string(what), "capability": .string(capability.name)]))
    }
}

extension Capability {
    /// Network access, scoped by `host[:port]` (`--allow-net`, `--allow-net=a.com,b.org:8080`).
    ///
    /// A plugin asks for `host:port`; a granted host without a port covers every port of that host.
    public static let net = Capability("net", guards: "network access", scope: .hosts)
}

extension Capability.Scope {
    /// Scopes of `host`, `host:port`, `[v6]` or `[v6]:port`, compared case-insensitively.
    public static let hosts = Capability.Scope(
        valueName: "hosts",
        parse: { (text) throws(CapabilityError) in
            // A grant no request can match is refused, not kept: port 0, a bracketed host that is no IPv6
            // address.
            guard let pattern = HostPattern(parsing: text), pattern.port != 0,
                !pattern.host.contains(":") || HostPattern.isIPv6Address(pattern.host)
            else {
                throw CapabilityError(
                    "'\(text)' is not a host or host:port (ports are 1–65535; write IPv6 addresses as [::1]).")
            }
            return pattern.description
        },
        covers: { granted, requested in
            guard let grant = HostPattern(parsing: granted), let request = HostPattern(parsing: requested) else {
                return false
            }
            return grant.host == request.host && (grant.port == nil || grant.port == request.port)
        })
}

/// One `host[:port]` of a network grant or request.
public struct HostPattern: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int?

    public init(host: String, port: Int? = nil) {
        self.host = host.lowercased()
        self.port = port
    }

    /// Parses `host`, `host:port`, `[v6]` or `[v6]:port`; nil when malformed (a bare IPv6 address included:
    /// `::1` would otherwise read as host `:` port 1).
    public init?(parsing text: String) {
        var hostPart = Substring(text)
        var port: Int?
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { return nil }
            let rest = hostPart[hostPart.index(after: close)...]
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
            guard hostPart.contains(":") else { return nil }
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let p = Int(rest.dropFirst()), (0...65535).contains(p) else { return nil }
                port = p
            }
        } else if let colon = hostPart.firstIndex(of: ":") {
            guard colon == hostPart.lastIndex(of: ":"), let p = Int(hostPart[hostPart.index(after: colon)...]),
                (0...65535).contains(p)
            else { return nil }
            port = p
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty, !hostPart.hasPrefix("-"), hostPart.utf8.allSatisfy(Self.isHostByte) else { return nil }
        self.init(host: String(hostPart), port: port)
    }

    /// Whether `text` is an IPv6 address (without brackets or a zone).
    static func isIPv6Address(_ text: String) -> Bool {
        var address = in6_addr()
        return text.withCString { inet_pton(AF_INET6, $0, &address) } == 1
    }

    /// Letters, digits and `.-_:*` (checked per request: no set is built).
    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "*"):
            true
        default: false
        }
    }

    /// `host`, `host:port`, `[v6]:port`.
    public var description: String {
        let h = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(h):\($0)" } ?? h
    }
}
