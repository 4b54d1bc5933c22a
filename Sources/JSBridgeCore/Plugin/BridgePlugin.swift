/// A native plugin: everything JavaScript can reach of it, declared in one place.
///
/// ``declare(_:)`` lists the plugin's actions (typed arguments and results), events, capabilities,
/// command-line options, JavaScript API files and TypeScript declarations; nothing else is callable from
/// scripts. ``setUp(_:)`` makes the plugin's ``State`` — once, on first use — and every action receives it.
/// Built-in and third-party plugins use exactly this mechanism; a runtime binary is the engine plus a list
/// of plugins registered on a ``BridgeHost``.
///
/// ```swift
/// struct Greeter: BridgePlugin {
///     static let name = "Greeter"
///     static func declare(_ plugin: inout PluginDeclaration<Self>) {
///         plugin.sync("hello", args: String.self) { _, name in "Hello, \(name)!" }
///     }
/// }
/// ```
public protocol BridgePlugin: Sendable {
    /// The plugin's `--config` section, decoded and validated once when a runtime starts.
    associatedtype Configuration: PluginConfiguration = NoConfiguration
    /// What ``setUp(_:)`` makes and every action receives (connections, stores, caches).
    associatedtype State: Sendable = Void

    /// The name scripts use: `bridge.call("<name>", …)`, `bridge.plugins.<name>`.
    static var name: String { get }

    /// Declares the plugin: actions, events, capabilities, options, scripts and typings.
    ///
    /// Called once per registration, before any set-up; it must only declare.
    static func declare(_ plugin: inout PluginDeclaration<Self>)

    /// Makes the plugin's state. Runs once per runtime, before the first call that needs it (or when a
    /// script awaits `bridge.ready`); a failure fails every call of the plugin with that error.
    ///
    /// It must not wait for the JS thread: a sync action's first call waits for it there.
    func setUp(_ context: SetUpContext<Self>) async throws -> State

    /// Releases the state's resources; awaited before the process exits (only if set-up ran).
    func shutdown(_ state: State) async
}

extension BridgePlugin {
    public func shutdown(_ state: State) async {}
}

extension BridgePlugin where State == Void {
    public func setUp(_ context: SetUpContext<Self>) async throws {}
}

/// A plugin's configuration: its `--config` section (`{"<Plugin>": {…}}`), decoded once with
/// `INVALID_ARGUMENT` issues that carry paths.
///
/// A missing section decodes from `{}`. Put rules that decoding cannot express in ``validate()``.
public protocol PluginConfiguration: Decodable, Sendable {
    /// Problems that decoding does not catch, each with its path in the section (none when valid).
    func validate() -> [ArgumentIssue]
}

extension PluginConfiguration {
    public func validate() -> [ArgumentIssue] { [] }
}

/// The configuration of a plugin that has none: any section is accepted and ignored.
public struct NoConfiguration: PluginConfiguration {
    public init() {}
    public init(from decoder: any Decoder) throws {}
}

/// A raw configuration section, for plugins that read it as JSON (`null` when there is none).
extension JSONValue: PluginConfiguration {}

/// Arguments of an action that takes none: decodes from `null`, `{}` or `[]`.
public struct NoArguments: Decodable, Sendable {
    public init() {}
    public init(from decoder: any Decoder) throws {}
}

/// Decodes an action's arguments, turning decoding failures into `INVALID_ARGUMENT` with paths.
///
/// Types conforming to ``ArgumentsReadable`` read themselves from the JSON tree; others go through
/// ``JSONValueDecoder``. Inlinable so that, specialised in a plugin's module, common types skip both.
@inlinable
public func decodeArguments<A: Decodable>(_ type: A.Type, from value: JSONValue) throws(BridgeError) -> A {
    if A.self == NoArguments.self { return unsafeBitCast(NoArguments(), to: A.self) }
    if A.self == JSONValue.self { return unsafeBitCast(value, to: A.self) }
    if A.self == Double.self, case .number(let number) = value { return unsafeBitCast(number, to: A.self) }
    if A.self == String.self, case .string(let string) = value { return unsafeBitCast(string, to: A.self) }
    if A.self == Bool.self, case .bool(let bool) = value { return unsafeBitCast(bool, to: A.self) }
    if let readable = A.self as? any ArgumentsReadable.Type {
        return try readable.readArguments(from: value) as! A
    }
    return try decodeWithDecoder(A.self, from: value)
}

/// Decodes an action's arguments sent with bytes beside their JSON (``Bytes`` fields take them; readers of
/// raw JSON see them as base64); without bytes, as ``decodeArguments(_:from:)-(_,JSONValue)``.
@inlinable
public func decodeArguments<A: Decodable>(_ type: A.Type, from value: BridgeValue) throws(BridgeError) -> A {
    if A.self == BridgeValue.self { return unsafeBitCast(value, to: A.self) }
    if value.bytes.isEmpty { return try decodeArguments(A.self, from: value.json) }
    return try decodeBytesArguments(A.self, from: value)
}

@usableFromInline
func decodeBytesArguments<A: Decodable>(_ type: A.Type, from value: BridgeValue) throws(BridgeError) -> A {
    if let readable = A.self as? any ArgumentsReadable.Type { return try readable.readArguments(from: value) as! A }
    do {
        return try JSONValueDecoder().decode(A.self, from: value)
    } catch let error as DecodingError {
        throw invalidArgument(error)
    } catch let error as BridgeError {
        throw error
    } catch {
        throw BridgeError.invalidArgument("Invalid arguments: \(error)")
    }
}

/// Arguments that read themselves from the JSON tree (with ``ArgumentReader`` or by hand), skipping the
/// generic decoder on hot paths or where the rules are more than types. Their `Decodable` conformance comes
/// with it (the same reader), and they state their TypeScript type for the typings.
public protocol ArgumentsReadable: Decodable, Sendable, TypeScriptDescribable {
    /// Reads the arguments; throws `INVALID_ARGUMENT` with the path of the first problem.
    init(arguments: JSONValue) throws(BridgeError)
    /// Reads the arguments with the bytes a script sent beside their JSON (``BridgeValue/member(_:)``,
    /// ``BridgeValue/bytesArgument(_:)``). By default: the JSON, with those bytes as base64 text.
    init(arguments: BridgeValue) throws(BridgeError)
}

extension ArgumentsReadable {
    public init(arguments: BridgeValue) throws(BridgeError) {
        try self.init(arguments: arguments.plainJSON)
    }

    public init(from decoder: any Decoder) throws {
        try self.init(arguments: BridgeValue(from: decoder))
    }

    @usableFromInline
    static func readArguments(from value: JSONValue) throws(BridgeError) -> Self { try Self(arguments: value) }

    @usableFromInline
    static func readArguments(from value: BridgeValue) throws(BridgeError) -> Self { try Self(arguments: value) }
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
    } catch let error as BridgeError {
        throw error
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
    if R.self == String?.self { return unsafeBitCast(value, to: String?.self).map(JSONValue.string) ?? .null }
    if R.self == Int.self {
        let number = unsafeBitCast(value, to: Int.self)
        if number.magnitude <= 1 << 53 { return .number(Double(number)) }
    }
    if R.self == [String].self { return .array(unsafeBitCast(value, to: [String].self).map(JSONValue.string)) }
    return try encodeWithEncoder(value)
}

/// Encodes an action's result with every ``Bytes`` in it beside the JSON (the bridge hands them to
/// JavaScript as `Uint8Array`s); ``encodeResult(_:)`` is the plain-JSON form.
@inlinable
public func encodeBridgeResult<R: Encodable>(_ value: R) throws(BridgeError) -> BridgeValue {
    if R.self == BridgeValue.self { return unsafeBitCast(value, to: BridgeValue.self) }
    if R.self == Bytes.self { return BridgeValue(bytes: unsafeBitCast(value, to: Bytes.self)) }
    if R.self == JSONValue.self || R.self == Double.self || R.self == String.self || R.self == Bool.self
        || R.self == String?.self || R.self == Int.self || R.self == [String].self
    {
        return BridgeValue(try encodeResult(value))
    }
    do {
        return try JSONValueEncoder().encodeBridgeValue(value)
    } catch {
        throw BridgeError(
            code: BridgeError.Code.pluginError,
            message: "The result could not be encoded as JSON: \(error)")
    }
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
