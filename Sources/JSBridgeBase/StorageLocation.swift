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
        let slug = String(
            String.UnicodeScalarView(
                appID.unicodeScalars.suffix(60).map { $0.isASCII && allowed.contains(UInt8($0.value)) ? $0 : "_" })
        ).trimmingCharacters(in: CharacterSet(charactersIn: "._"))
        let hex = String(fnv1a(appID), radix: 16)
        return (slug.isEmpty ? "app" : slug) + "-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `$XDG_DATA_HOME/jsbridge`, else `~/.local/share/jsbridge`.
    public static func defaultDirectory(environment: [String: String]) -> String {
        defaultDirectory { environment[$0] }
    }

    /// ``defaultDirectory(environment:)`` of the process's environment, read variable by variable (building
    /// Foundation's whole environment dictionary is a measurable part of start-up).
    public static func defaultDirectory() -> String {
        defaultDirectory { getenv($0).map { String(cString: $0) } }
    }

    private static func defaultDirectory(_ variable: (String) -> String?) -> String {
        if let xdg = variable("XDG_DATA_HOME"), !xdg.isEmpty { return xdg + "/jsbridge" }
        let home = variable("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/jsbridge"
    }
}

/// The 64-bit FNV-1a hash of `text`'s UTF-8 bytes (stable across runs, unlike `Hasher`).
public func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
    }
    return hash
}
