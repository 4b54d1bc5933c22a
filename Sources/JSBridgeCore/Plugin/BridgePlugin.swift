/// A native plugin: a name and an explicit table of actions callable from JavaScript.
///
/// Nothing but the actions declared in ``actions(_:)`` is reachable from scripts. Register plugins on a
/// `BridgeHost`; a plugin is a thin adapter that decodes arguments and calls a domain core that knows
/// nothing about the bridge.
///
/// ```swift
/// struct Greeter: BridgePlugin {
///     static let name = "Greeter"
///     func actions(_ a: inout ActionTable) {
///         a.sync("hello", args: String.self) { _, name in "Hello, \(name)!" }
///     }
/// }
/// ```
public protocol BridgePlugin: Sendable {
    /// The name scripts use: `bridge.call("<name>", …)`, `bridge.plugins.<name>`.
    static var name: String { get }
    /// Declares every action of the plugin.
    func actions(_ table: inout ActionTable)
    /// Prepares the plugin before the script runs (read configuration, open files).
    func setUp(_ context: PluginContext) async throws
    /// Releases resources; awaited before the process exits.
    func shutdown() async
}

extension BridgePlugin {
    public func setUp(_ context: PluginContext) async throws {}
    public func shutdown() async {}
}

/// Arguments of an action that takes none: decodes from `null`, `{}` or `[]`.
public struct NoArguments: Decodable, Sendable {
    public init() {}
    public init(from decoder: any Decoder) throws {}
}

/// Decodes an action's arguments, turning decoding failures into `INVALID_ARGUMENT` with paths.
///
/// Inlinable so that, specialised in a plugin's module, the common argument types skip the decoder.
@inlinable
public func decodeArguments<A: Decodable>(_ type: A.Type, from value: JSONValue) throws(BridgeError) -> A {
    if A.self == NoArguments.self { return unsafeBitCast(NoArguments(), to: A.self) }
    if A.self == JSONValue.self { return unsafeBitCast(value, to: A.self) }
    if A.self == Double.self, case .number(let number) = value { return unsafeBitCast(number, to: A.self) }
    if A.self == String.self, case .string(let string) = value { return unsafeBitCast(string, to: A.self) }
    if A.self == Bool.self, case .bool(let bool) = value { return unsafeBitCast(bool, to: A.self) }
    return try decodeWithDecoder(A.self, from: value)
}

@usableFromInline
func decodeWithDecoder<A: Decodable>(_ type: A.Type, from value: JSONValue) throws(BridgeError) -> A {
    do {
        return try JSONValueDecoder().decode(A.self, from: value)
    } catch let error as DecodingError where value == .null && error.isAtRoot {
        // No arguments at all (`bridge.call(p, a)`): an argument struct whose fields are all optional
        // decodes from `{}`; anything else reports the original error.
        if let fromEmpty = try? JSONValueDecoder().decode(A.self, from: .object([:])) { return fromEmpty }
        throw invalidArgument(error)
    } catch let error as DecodingError {
        throw invalidArgument(error)
    } catch {
        throw BridgeError.invalidArgument("Invalid arguments: \(error)")
    }
}

func invalidArgument(_ error: DecodingError) -> BridgeError {
    let issues = error.issues
    let first = issues.first.map { ($0.path.isEmpty ? "" : "at '\($0.path)': ") + $0.message } ?? "\(error)"
    return BridgeError.invalidArgument("Invalid arguments: \(first)", issues: issues)
}

extension DecodingError {
    /// Whether the error is about the top-level value itself.
    var isAtRoot: Bool {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath.isEmpty
        case .keyNotFound:
            return false
        @unknown default:
            return false
        }
    }
}

/// Encodes an action's result (or an event payload) as a JSON value.
///
/// Inlinable so that, specialised in a plugin's module, the common result types skip the encoder.
@inlinable
public func encodeResult<R: Encodable>(_ value: R) throws(BridgeError) -> JSONValue {
    if R.self == JSONValue.self { return unsafeBitCast(value, to: JSONValue.self) }
    if R.self == Double.self {
        let number = unsafeBitCast(value, to: Double.self)
        if number.isFinite { return .number(number) }
    }
    if R.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
    if R.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
    return try encodeWithEncoder(value)
}

@usableFromInline
func encodeWithEncoder<R: Encodable>(_ value: R) throws(BridgeError) -> JSONValue {
    do {
        return try JSONValueEncoder().encode(value)
    } catch {
        throw BridgeError(
            code: BridgeError.Code.pluginError,
            message: "The result could not be encoded as JSON: \(error)")
    }
}
