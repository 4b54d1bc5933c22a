import Foundation

/// Fresh temporary directories for tests.
public enum TemporaryDirectory {
    /// Creates a new, empty directory under the system's temporary directory.
    public static func make(prefix: String) -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
