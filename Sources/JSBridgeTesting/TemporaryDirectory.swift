import Foundation
import JSBridgeBase

/// Fresh temporary directories for tests, removed with their contents when the test process exits.
public enum TemporaryDirectory {
    /// Creates a new, empty directory under the system's temporary directory; it is removed, with whatever
    /// the test left in it, when the process exits normally (a test that needs it gone sooner removes it).
    public static func make(prefix: String) -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        made.withLock { paths in
            if paths.isEmpty { atexit { TemporaryDirectory.removeAll() } }
            paths.append(path)
        }
        return path
    }

    private static let made = Locked<[String]>([])

    private static func removeAll() {
        for path in made.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
