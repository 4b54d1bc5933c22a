import Foundation
import StoragePluginTesting

/// The test process's PostgreSQL cluster and its `storage` database, made once.
enum SharedPostgres {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: String?

    /// The URL of the shared test database.
    static var url: String {
        get throws {
            lock.lock()
            defer { lock.unlock() }
            if let made { return made }
            let url = try TestPostgresCluster.shared.createDatabase("storage")
            made = url
            return url
        }
    }

    static var cluster: TestPostgresCluster {
        get throws { try TestPostgresCluster.shared }
    }
}
