import Foundation

/// Where a runtime keeps per-application data (`--app-id`, `--storage-dir`).
public struct StorageLocation: Sendable, Hashable {
    /// The namespace of this script's data.
    public var appID: String
    /// The directory holding every app's data.
    public var directory: String

    public init(appID: String, directory: String) {
        self.appID = appID
        self.directory = directory
    }

    /// ``appID`` as one file or directory name (``fileSystemName(of:)``).
    public var fileSystemName: String { Self.fileSystemName(of: appID) }

    /// `appID` as one file or directory name: kept as is when it is made of `[A-Za-z0-9._-]` (at most 100
    /// bytes, not starting with a dot), otherwise a readable slug plus a hash of the original, so two ids never
    /// share a name. Plugins name their per-app files after it (`<name>.sqlite`, `downloads/<name>`, …).
    public static func fileSystemName(of appID: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-".utf8)
        if !appID.isEmpty, appID.utf8.count <= 100, appID.utf8.allSatisfy(allowed.contains), !appID.hasPrefix(".") {
            return appID
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in appID.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let slug = String(
            String.UnicodeScalarView(
                appID.unicodeScalars.suffix(60).map { $0.isASCII && allowed.contains(UInt8($0.value)) ? $0 : "_" })
        ).trimmingCharacters(in: CharacterSet(charactersIn: "._"))
        let hex = String(hash, radix: 16)
        return (slug.isEmpty ? "app" : slug) + "-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `$XDG_DATA_HOME/jsbridge`, else `~/.local/share/jsbridge`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/jsbridge" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/jsbridge"
    }
}

/// What a plugin sees of its host: configuration, permissions, clock, storage location and events.
///
/// Passed to `setUp` and to every action; it is `Sendable`, so actions may use it on any executor.
public struct PluginContext: Sendable {
    /// The plugin's name.
    public let pluginName: String
    /// The plugin's section of `--config` (`.null` when absent).
    public let configuration: JSONValue
    /// The capabilities granted to the script.
    public let permissions: Permissions
    /// The injected clock.
    public let clock: any BridgeClock
    /// Where this script's data lives.
    public let storage: StorageLocation
    private let eventSink: @Sendable (String, JSONValue) -> Void

    /// Creates a context; hosts and test kits do this, plugins receive it.
    public init(
        pluginName: String,
        configuration: JSONValue = .null,
        permissions: Permissions = .none,
        clock: any BridgeClock = SystemClock(),
        storage: StorageLocation,
        eventSink: @escaping @Sendable (_ event: String, _ payload: JSONValue) -> Void
    ) {
        self.pluginName = pluginName
        self.configuration = configuration
        self.permissions = permissions
        self.clock = clock
        self.storage = storage
        self.eventSink = eventSink
    }

    /// Decodes the plugin's configuration section; a missing section decodes from `{}`.
    public func configuration<C: Decodable>(as type: C.Type) throws(BridgeError) -> C {
        let source: JSONValue = configuration == .null ? .object([:]) : configuration
        do {
            return try JSONValueDecoder().decode(C.self, from: source)
        } catch let error as DecodingError {
            throw BridgeError.invalidArgument(
                "The configuration of plugin '\(pluginName)' is invalid.", issues: error.issues)
        } catch {
            throw BridgeError.invalidArgument("The configuration of plugin '\(pluginName)' is invalid: \(error)")
        }
    }

    /// Throws `PERMISSION_DENIED` unless the script was granted `permission`.
    public func require(_ permission: Permission) throws(BridgeError) {
        try permissions.check(permission)
    }

    /// Emits an event to the script's `bridge.on(plugin, event, listener)` listeners.
    public func emit(_ event: String, _ payload: some Encodable & Sendable) throws {
        eventSink(event, try encodeResult(payload))
    }

    /// Emits an event with no payload.
    public func emit(_ event: String) {
        eventSink(event, .null)
    }
}
