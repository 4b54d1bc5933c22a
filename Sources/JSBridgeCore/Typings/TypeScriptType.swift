import Foundation

/// A TypeScript type, as the typings generator writes it (`jsbridge --typings <Plugin>`).
///
/// Derived from Swift types: `Decodable` types are read by decoding them once with a recording decoder
/// (every key asked for becomes a property, `decodeIfPresent` an optional one); other types are `unknown`
/// unless they conform to ``TypeScriptDescribable``.
public indirect enum TypeScriptType: Sendable, Hashable {
    case unknown, void, null, boolean, number, string
    /// A type written as is (`"a" | "b"`, `Date`, a name declared elsewhere).
    case raw(String)
    case array(TypeScriptType)
    /// `{ [key: string]: T }`.
    case record(TypeScriptType)
    /// `T | null`.
    case nullable(TypeScriptType)
    /// A named interface with these properties.
    case interface(name: String, properties: [Property])

    /// A property of an interface.
    public struct Property: Sendable, Hashable {
        public var name: String
        public var type: TypeScriptType
        /// Whether the property may be left out (`name?: T`).
        public var optional: Bool

        public init(_ name: String, _ type: TypeScriptType, optional: Bool = false) {
            self.name = name
            self.type = type
            self.optional = optional
        }
    }

    /// The type of `T`'s values.
    public static func describing<T>(_ type: T.Type) -> TypeScriptType {
        var recorder = ShapeRecorder()
        return recorder.describe(type)
    }

    /// The type of an action's arguments `T` (`void` for ``NoArguments``).
    public static func describing<T>(arguments type: T.Type) -> TypeScriptType {
        T.self == NoArguments.self ? .void : describing(type)
    }

    /// The type as TypeScript text; interfaces by name.
    public func text(in namespace: String? = nil) -> String {
        switch self {
        case .unknown: "unknown"
        case .void: "void"
        case .null: "null"
        case .boolean: "boolean"
        case .number: "number"
        case .string: "string"
        case .raw(let text): text
        case .array(let element):
            switch element {
            case .nullable, .raw: "Array<\(element.text(in: namespace))>"
            default: "\(element.text(in: namespace))[]"
            }
        case .record(let value): "{ [key: string]: \(value.text(in: namespace)) }"
        case .nullable(let wrapped): "\(wrapped.text(in: namespace)) | null"
        case .interface(let name, _): namespace.map { "\($0).\(name)" } ?? name
        }
    }

    /// Every interface this type refers to, itself included, depth first.
    func interfaces(into found: inout [TypeScriptType]) {
        switch self {
        case .array(let inner), .record(let inner), .nullable(let inner): inner.interfaces(into: &found)
        case .interface(_, let properties):
            guard !found.contains(self) else { return }
            found.append(self)
            for property in properties { property.type.interfaces(into: &found) }
        default: break
        }
    }
}

/// A Swift type whose TypeScript type is worked out when typings are written (not when a plugin is declared:
/// start-up does not pay for it).
public struct TypeDescription: Sendable {
    private let describe: @Sendable () -> TypeScriptType

    /// The type of `T`'s values.
    public init<T>(_ type: T.Type) { describe = { TypeScriptType.describing(T.self) } }

    /// The type of an action's arguments `T` (`void` for ``NoArguments``).
    public init<T>(arguments type: T.Type) { describe = { TypeScriptType.describing(arguments: T.self) } }

    /// The TypeScript type.
    public var typeScript: TypeScriptType { describe() }
}

/// A type that states its TypeScript type itself (for types the recording decoder cannot read: `Encodable`
/// results, arguments with hand-written readers, string enums without `CaseIterable`).
public protocol TypeScriptDescribable {
    static var typeScript: TypeScriptType { get }
}

extension JSONValue: TypeScriptDescribable {
    public static var typeScript: TypeScriptType { .unknown }
}

extension BridgeValue: TypeScriptDescribable {
    public static var typeScript: TypeScriptType { .unknown }
}

/// Bytes are a `Uint8Array` in results; as arguments any `ArrayBuffer` or view (or base64 text) is accepted.
extension Bytes: TypeScriptDescribable {
    public static var typeScript: TypeScriptType { .raw("Uint8Array") }
}

extension Optional: TypeScriptDescribable {
    public static var typeScript: TypeScriptType { .nullable(TypeScriptType.describing(Wrapped.self)) }
}

extension Array: TypeScriptDescribable {
    public static var typeScript: TypeScriptType { .array(TypeScriptType.describing(Element.self)) }
}

extension Set: TypeScriptDescribable {
    public static var typeScript: TypeScriptType { .array(TypeScriptType.describing(Element.self)) }
}

extension Dictionary: TypeScriptDescribable {
    public static var typeScript: TypeScriptType {
        Key.self == String.self ? .record(TypeScriptType.describing(Value.self)) : .unknown
    }
}

// MARK: - The recording decoder

/// Describes types by decoding them once with ``ShapeDecoder``, which answers every request with a neutral
/// value and writes down what was asked for.
struct ShapeRecorder {
    /// Types being described (recursive types refer to themselves by name).
    private var inProgress: Set<ObjectIdentifier> = []
    private var depth = 0

    mutating func describe<T>(_ type: T.Type) -> TypeScriptType {
        if let known = Self.builtIn(type) { return known }
        if let describable = type as? any TypeScriptDescribable.Type { return describable.typeScript }
        if let enumeration = type as? any (CaseIterable & RawRepresentable).Type {
            return Self.cases(of: enumeration)
        }
        guard let decodable = type as? any Decodable.Type else { return .unknown }
        let id = ObjectIdentifier(type)
        let name = Self.name(of: type)
        if inProgress.contains(id) || depth > 16 { return .raw(name) }
        inProgress.insert(id)
        depth += 1
        defer {
            inProgress.remove(id)
            depth -= 1
        }
        let node = ShapeNode()
        _ = try? decodable.init(from: ShapeDecoder(node: node))
        switch node.container {
        case .keyed:
            var properties: [TypeScriptType.Property] = []
            for (key, field) in node.fields {
                var fieldRecorder = self
                let described = fieldRecorder.describe(field.type)
                if let index = properties.firstIndex(where: { $0.name == key }) {
                    properties[index].optional = properties[index].optional && field.optional
                } else {
                    properties.append(.init(key, described, optional: field.optional))
                }
            }
            return .interface(name: name, properties: properties)
        case .single(let inner):
            var innerRecorder = self
            return innerRecorder.describe(inner)
        case .singleNull:
            return .null
        case .unkeyed(let element):
            guard let element else { return .array(.unknown) }
            var innerRecorder = self
            return .array(innerRecorder.describe(element))
        case nil:
            return .unknown
        }
    }

    private static func builtIn<T>(_ type: T.Type) -> TypeScriptType? {
        switch type {
        case is String.Type, is Character.Type, is URL.Type, is Data.Type, is UUID.Type: .string
        case is Bool.Type: .boolean
        case is Date.Type: .raw("string | number")
        case is any BinaryInteger.Type, is any BinaryFloatingPoint.Type, is Decimal.Type: .number
        default: nil
        }
    }

    private static func cases<E: CaseIterable & RawRepresentable>(of type: E.Type) -> TypeScriptType {
        let names = type.allCases.map { value -> String in
            let raw = value.rawValue
            if let text = raw as? String { return JSONValue.string(text).serialized() }
            return "\(raw)"
        }
        return names.isEmpty ? .unknown : .raw(names.joined(separator: " | "))
    }

    /// The Swift type's own name, without module or enclosing types.
    static func name<T>(of type: T.Type) -> String {
        var name = String(describing: type)
        if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
        return name
    }
}

/// What one decoding asked for.
final class ShapeNode {
    enum Container {
        case keyed
        case unkeyed(Any.Type?)
        case single(Any.Type)
        case singleNull
    }

    var container: Container?
    /// How deep in neutral values this node is (a guard against types that decode themselves).
    let depth: Int
    var fields: [(key: String, (type: Any.Type, optional: Bool))] = []
    /// Keys checked with `decodeNil(forKey:)`: their value may be null, so they are optional.
    var nullable: Set<String> = []

    init(depth: Int = 0) { self.depth = depth }

    /// A node for a value nested in this one.
    func child() -> ShapeNode { ShapeNode(depth: depth + 1) }

    func field(_ key: String, _ type: Any.Type, optional: Bool) {
        fields.append((key, (type, optional || nullable.contains(key))))
    }
}

/// Thrown when a neutral value cannot be made; the properties read so far are kept.
struct ShapeUnavailable: Error {}

struct ShapeDecoder: Decoder {
    let node: ShapeNode
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if node.container == nil { node.container = .keyed }
        return KeyedDecodingContainer(ShapeKeyedContainer<Key>(node: node))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if node.container == nil { node.container = .unkeyed(nil) }
        return ShapeUnkeyedContainer(node: node)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ShapeSingleContainer(node: node)
    }
}

/// A neutral value of `T`: zero, empty, false — or `T` decoded from an empty shape (at most 8 levels deep).
func neutralValue<T: Decodable>(_ type: T.Type, in node: ShapeNode) throws -> T {
    switch type {
    case is String.Type: return "" as! T
    case is Bool.Type: return false as! T
    case is Double.Type: return 0.0 as! T
    case is Float.Type: return Float(0) as! T
    case is Int.Type: return 0 as! T
    case is Int64.Type: return Int64(0) as! T
    case is UInt64.Type: return UInt64(0) as! T
    case is Int32.Type: return Int32(0) as! T
    case is UInt32.Type: return UInt32(0) as! T
    case is UInt.Type: return UInt(0) as! T
    case is JSONValue.Type: return JSONValue.null as! T
    default:
        // An enumeration's first case: decoding one from a neutral string would fail, and end the recording.
        if let enumeration = type as? any CaseIterable.Type, let first = firstCase(of: enumeration) as? T {
            return first
        }
        guard node.depth < 8 else { throw ShapeUnavailable() }
        return try T(from: ShapeDecoder(node: node.child()))
    }
}

private func firstCase<E: CaseIterable>(of type: E.Type) -> Any? { E.allCases.first }

struct ShapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let node: ShapeNode
    var codingPath: [any CodingKey] = []
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { false }

    func decodeNil(forKey key: Key) throws -> Bool {
        node.nullable.insert(key.stringValue)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        node.field(key.stringValue, type, optional: false)
        return try neutralValue(type, in: node)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        node.field(key.stringValue, type, optional: true)
        return nil
    }

    // The standard library's own versions of these ask `contains(_:)` first (which answers false here, so that
    // types branching on it take one path): each records its key as optional instead.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { optional(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { optional(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { optional(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { optional(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { optional(type, key) }

    private func optional<T>(_ type: T.Type, _ key: Key) -> T? {
        node.field(key.stringValue, type, optional: true)
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        node.field(key.stringValue, JSONValue.self, optional: false)
        return KeyedDecodingContainer(ShapeKeyedContainer<NestedKey>(node: node.child()))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        node.field(key.stringValue, [JSONValue].self, optional: false)
        return ShapeUnkeyedContainer(node: node.child())
    }

    func superDecoder() throws -> any Decoder { ShapeDecoder(node: node) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ShapeDecoder(node: node.child()) }
}

struct ShapeUnkeyedContainer: UnkeyedDecodingContainer {
    let node: ShapeNode
    var codingPath: [any CodingKey] = []
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    mutating func decodeNil() throws -> Bool { true }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        node.container = .unkeyed(type)
        return try neutralValue(type, in: node)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        KeyedDecodingContainer(ShapeKeyedContainer<NestedKey>(node: node.child()))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        ShapeUnkeyedContainer(node: node.child())
    }

    mutating func superDecoder() throws -> any Decoder { ShapeDecoder(node: node.child()) }
}

struct ShapeSingleContainer: SingleValueDecodingContainer {
    let node: ShapeNode
    var codingPath: [any CodingKey] = []

    func decodeNil() -> Bool {
        if node.container == nil { node.container = .singleNull }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        node.container = .single(type)
        return try neutralValue(type, in: node)
    }
}
