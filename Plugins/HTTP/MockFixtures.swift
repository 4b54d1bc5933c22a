import Foundation
import JSBridgeCore

/// Fixture files for mocked DAOs: `<directory>/<DAOName>.json`, or `<DAOName>.<variant>.json` for a variant.
///
/// A fixture is the response body as JSON. An object whose keys all start with `$` is an envelope instead:
/// `$status`, `$headers` (an object), `$delayMs`, `$body` (JSON), `$text` (a text body) or `$error`
/// (`"network"`, `"timeout"`), so status, delay and error cases are fixtures too (docs/http.md, "Mocks").
public struct MockFixtures: Sendable {
    /// Where fixtures are read from (relative paths resolve against the working directory).
    public var directory: String

    public init(directory: String) { self.directory = directory }

    /// Names of DAOs and variants: letters, digits, `_`, `-` and `.` (no path separators, no leading dot).
    static func isSafeName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.utf8.count <= 200
            && name.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-" || $0 == "."
            }
    }

    /// The fixture's path for `dao` (and `variant`).
    public func path(dao: String, variant: String?) throws(BridgeError) -> String {
        guard Self.isSafeName(dao) else {
            throw BridgeError.invalidArgument(
                "The DAO name '\(dao)' cannot name a fixture file (use letters, digits, '_', '-', '.').",
                issues: [ArgumentIssue(path: "dao", message: "not a safe file name")])
        }
        if let variant, !Self.isSafeName(variant) {
            throw BridgeError.invalidArgument(
                "The mock variant '\(variant)' cannot name a fixture file (use letters, digits, '_', '-', '.').",
                issues: [ArgumentIssue(path: "variant", message: "not a safe file name")])
        }
        let file = variant.map { "\(dao).\($0).json" } ?? "\(dao).json"
        return URL(fileURLWithPath: directory).appendingPathComponent(file).path
    }

    /// The parsed fixture; `MOCK_NOT_FOUND` when the file does not exist, `MOCK_INVALID` (with the file and
    /// the parse error's offset) when it is not JSON.
    public func load(dao: String, variant: String?) throws(BridgeError) -> JSONValue {
        let path = try path(dao: dao, variant: variant)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BridgeError(
                code: "MOCK_NOT_FOUND",
                message: "No mock fixture for DAO '\(dao)': expected the file \(path).",
                data: ["path": .string(path)])
        }
        do {
            return try JSONValue(parsing: data)
        } catch {
            throw BridgeError(
                code: "MOCK_INVALID",
                message: "The mock fixture \(path) is not valid JSON: \(error.message) (at byte \(error.offset)).",
                data: ["path": .string(path), "offset": .number(Double(error.offset))])
        }
    }
}
