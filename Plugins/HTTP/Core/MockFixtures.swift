import FileAccess
import Foundation
import JSBridgeBase

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

    /// The largest fixture file read (a response body held in memory).
    public static let maxFileBytes = 64 << 20

    /// The parsed fixture; `MOCK_NOT_FOUND` when the file does not exist, `MOCK_INVALID` (with the file and
    /// the parse error's offset) when it is not JSON or not a readable file.
    ///
    /// `check` resolves the fixture file's path and may refuse it: a directory the script named is checked
    /// with the script's `--allow-read`, so a fixture that is a link out of it is refused like any read. The
    /// file is then opened without following links, so what is read is what was checked.
    public func load(
        dao: String, variant: String?,
        check: (String) throws(BridgeError) -> ResolvedPath = { ResolvedPath($0) }
    ) throws(BridgeError) -> JSONValue {
        let path = try path(dao: dao, variant: variant)
        let file = try check(path)
        let bytes: [UInt8]
        do throws(FileAccessError) {
            bytes = try file.read(maxBytes: Self.maxFileBytes)
        } catch  where error.errno == ENOENT || error.errno == ENOTDIR {
            throw BridgeError(
                code: "MOCK_NOT_FOUND",
                message: "No mock fixture for DAO '\(dao)': expected the file \(path).",
                data: ["path": .string(path)])
        } catch {
            let reason = error.errno == EFBIG ? "larger than \(Self.maxFileBytes >> 20) MiB" : "\(error)"
            throw BridgeError(
                code: "MOCK_INVALID", message: "The mock fixture \(path) cannot be read: \(reason).",
                data: ["path": .string(path)])
        }
        do {
            return try JSONValue(parsing: bytes)
        } catch {
            throw BridgeError(
                code: "MOCK_INVALID",
                message: "The mock fixture \(path) is not valid JSON: \(error.message) (at byte \(error.offset)).",
                data: ["path": .string(path), "offset": .number(Double(error.offset))])
        }
    }
}

extension MockFixtures {
    /// What a fixture answers: a response or an error, after an optional pause.
    public struct Answer: Sendable {
        public var delay: Duration?
        public var outcome: Result<FetchResponse, HTTPError>
    }

    /// The answer a fixture stands for, for a request of `url`: a plain fixture is a 200 response with that
    /// JSON as its body; an envelope (an object whose keys all start with `$`) gives `$status`, `$headers` (an
    /// object), `$body` (JSON) or `$text`, `$delayMs`, or `$error` (`"timeout"`, else the kind of a network
    /// error). The same rules as JavaScript DAOs' fixtures (docs/http.md, "Mocks"); a malformed envelope is
    /// `MOCK_INVALID`.
    public static func answer(_ fixture: JSONValue, url: String) throws(BridgeError) -> Answer {
        guard case .object(let envelope) = fixture, !envelope.isEmpty, envelope.keys.allSatisfy({ $0.hasPrefix("$") })
        else {
            let headers = [HTTPField("content-type", "application/json")]
            return Answer(delay: nil, outcome: .success(response(200, headers, fixture.serializedUTF8(), url: url)))
        }
        func invalid(_ key: String, _ expected: String) -> BridgeError {
            BridgeError(
                code: "MOCK_INVALID", message: "The mock fixture's \(key) must be \(expected).",
                data: ["key": .string(key)])
        }
        var delayMs: Double?
        if let value = envelope["$delayMs"] {
            guard let ms = value.doubleValue, ms >= 0 else { throw invalid("$delayMs", "a number of milliseconds") }
            delayMs = ms
        }
        let delay = delayMs.map { Duration.milliseconds($0) }
        if let error = envelope["$error"] {
            guard let kind = error.stringValue else { throw invalid("$error", "\"timeout\" or a network error kind") }
            let failure: HTTPError =
                kind == "timeout"
                ? .timeout(ms: Int(delayMs ?? 0), url: url)
                : .network(kind: kind, message: "mocked network error (\(kind))", url: url)
            return Answer(delay: delay, outcome: .failure(failure))
        }
        var status = 200
        if let value = envelope["$status"] {
            guard let code = value.intValue, (100...599).contains(code) else {
                throw invalid("$status", "an HTTP status (100–599)")
            }
            status = code
        }
        var headers: [HTTPField] = []
        if let value = envelope["$headers"] {
            guard case .object(let fields) = value else { throw invalid("$headers", "an object") }
            headers = fields.keys.sorted().map {
                HTTPField($0.lowercased(), fields[$0]!.stringValue ?? fields[$0]!.serialized())
            }
        }
        var body: [UInt8] = []
        if let text = envelope["$text"] {
            guard let text = text.stringValue else { throw invalid("$text", "a string") }
            body = Array(text.utf8)
        } else if let json = envelope["$body"] {
            body = json.serializedUTF8()
            if !headers.contains(where: { $0.name == "content-type" }) {
                headers.append(HTTPField("content-type", "application/json"))
            }
        }
        return Answer(delay: delay, outcome: .success(response(status, headers, body, url: url)))
    }

    private static func response(_ status: Int, _ headers: [HTTPField], _ body: [UInt8], url: String) -> FetchResponse {
        FetchResponse(
            status: status, statusText: HTTPStatus.reason(status), headers: headers, url: url, redirected: false,
            body: body)
    }
}
