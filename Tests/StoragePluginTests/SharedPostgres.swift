import Foundation
import JSBridgeCore
import StoragePluginTesting
import Testing

/// The test process's PostgreSQL cluster and its `storage` database, made once.
enum SharedPostgres {
    /// The URL of the shared test database.
    static var url: String {
        get throws { try TestPostgresCluster.sharedDatabase("storage") }
    }

    static var cluster: TestPostgresCluster {
        get throws { try TestPostgresCluster.shared }
    }
}

/// The backends the plugin's script tests run on (the same tests on each, so they cannot drift).
enum Backend: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }

    /// `options` for this backend: PostgreSQL adds the shared database's URL to the Storage section and
    /// makes the app id unique to the test's storage directory (one database serves every test).
    func options(_ options: BridgeHost.Options) throws -> BridgeHost.Options {
        guard self == .postgres else { return options }
        var options = options
        var section = options.configuration["Storage"]?.objectValue ?? [:]
        section["url"] = .string(try SharedPostgres.url)
        options.configuration["Storage"] = .object(section)
        options.storage = StorageLocation(
            appID: options.storage.appID + "@" + options.storage.directory, directory: options.storage.directory)
        return options
    }
}
