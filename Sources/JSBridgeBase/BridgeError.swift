/// An error that reaches JavaScript as a `BridgeError` with a stable `code`.
///
/// Throw it from an action to choose the code JavaScript sees; any other error becomes `PLUGIN_ERROR`
/// unless it conforms to ``BridgeErrorConvertible``.
public struct BridgeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable code such as `INVALID_ARGUMENT` or a plugin's own `QUOTA_EXCEEDED`.
    public var code: String
    /// What happened and, where possible, what to do about it.
    public var message: String
    /// Optional structured details (for `INVALID_ARGUMENT`: `{"issues": [{path, message}]}`).
    public var data: JSONValue?

    /// Creates an error with a code, a message and optional data.
    public init(code: String, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var description: String { "[\(code)] \(message)" }
}

extension BridgeError {
    /// The core codes of the bridge (DESIGN §3.2).
    public enum Code {
        public static let pluginNotFound = "PLUGIN_NOT_FOUND"
        public static let actionNotFound = "ACTION_NOT_FOUND"
        public static let invalidArgument = "INVALID_ARGUMENT"
        public static let permissionDenied = "PERMISSION_DENIED"
        public static let pluginError = "PLUGIN_ERROR"
        public static let cancelled = "CANCELLED"
        public static let timeout = "TIMEOUT"
        public static let dropped = "DROPPED"
    }

    /// No plugin of that name is registered.
    public static func pluginNotFound(_ plugin: String) -> BridgeError {
        BridgeError(
            code: Code.pluginNotFound,
            message: "No plugin named '\(plugin)' is registered.")
    }

    /// The plugin has no such action, or not of the kind called.
    public static func actionNotFound(_ plugin: String, _ action: String, hint: String? = nil) -> BridgeError {
        BridgeError(
            code: Code.actionNotFound,
            message: "Plugin '\(plugin)' has no action '\(action)'" + (hint.map { ": \($0)" } ?? "."))
    }

    /// Arguments that do not decode; `issues` lists each problem with its path.
    public static func invalidArgument(_ message: String, issues: [ArgumentIssue] = []) -> BridgeError {
        var data: JSONValue?
        if !issues.isEmpty {
            data = .object([
                "issues": .array(issues.map { .object(["path": .string($0.path), "message": .string($0.message)]) })
            ])
        }
        return BridgeError(code: Code.invalidArgument, message: message, data: data)
    }

    /// `INVALID_ARGUMENT` for one bad argument: "Invalid arguments: at '<path>': <message>" (without the
    /// "at" part when `path` is empty: the arguments as a whole), with that issue.
    public static func invalidArgument(at path: String, _ message: String) -> BridgeError {
        invalidArgument(
            "Invalid arguments: \(path.isEmpty ? "" : "at '\(path)': ")\(message)",
            issues: [ArgumentIssue(path: path, message: message)])
    }

    /// The call was cancelled.
    public static let cancelled = BridgeError(code: Code.cancelled, message: "The call was cancelled.")
}

/// An error type that knows its bridge representation (its own stable code).
public protocol BridgeErrorConvertible: Error {
    /// The error as JavaScript should see it.
    var bridgeError: BridgeError { get }
}

extension BridgeError {
    /// Maps any error thrown by an action to what JavaScript sees.
    public init(from error: any Error) {
        switch error {
        case let error as BridgeError:
            self = error
        case let error as any BridgeErrorConvertible:
            self = error.bridgeError
        case is CancellationError:
            self = .cancelled
        default:
            self.init(
                code: Code.pluginError,
                message: String(describing: error),
                data: .object(["type": .string(String(reflecting: type(of: error)))]))
        }
    }
}

extension BridgeError {
    /// The member of ``data`` that holds what a Cordova exec's fail callback receives in place of the error.
    public static let cordovaPayloadKey = "cordovaPayload"

    /// An error whose Cordova exec (`cordova.exec`, JSCoreBridge's transport) hands the fail callback
    /// `payload` as it is, as a Cordova plugin's native side answers (cordova-plugin-file's `FileError` number,
    /// a `{code, message}` object): `www/` code compares what it gets (`new FileError(code).code ===
    /// FileError.NOT_FOUND_ERR`). `bridge.call` and `bridge.subscribe` still fail with the `BridgeError`,
    /// `payload` at `data.cordovaPayload`.
    public static func cordova(code: String, message: String, payload: JSONValue) -> BridgeError {
        BridgeError(code: code, message: message, data: .object([cordovaPayloadKey: payload]))
    }

    /// The payload a Cordova fail callback receives (``cordova(code:message:payload:)``), if the error has one.
    public var cordovaPayload: JSONValue? { data?[Self.cordovaPayloadKey] }
}

extension BridgeError {
    /// `{code, message, data?}`, as JavaScript receives it.
    public var jsonValue: JSONValue {
        var object: JSONObject = ["code": .string(code), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }
}
