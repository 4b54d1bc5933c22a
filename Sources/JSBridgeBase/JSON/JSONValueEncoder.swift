import Foundation

/// Encodes `Encodable` values into a ``JSONValue`` tree, with JavaScript conventions.
///
/// Object keys keep the order in which they were encoded. `Date` becomes an ISO-8601 UTC string with
/// milliseconds (like `Date.prototype.toJSON`), `Data` a base64 string, `URL` its absolute string, `Decimal`
/// the nearest number, and a `JSONValue` itself. Non-finite numbers and integers beyond ±2^53 (which JavaScript cannot hold exactly)
/// throw `EncodingError.invalidValue`. `nil` optionals are omitted from objects, as `JSON.stringify`
/// omits `undefined`.
public struct JSONValueEncoder: Sendable {
    /// Values made available to types through `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder.
    public init() {}

    /// Encodes `value` as a JSON value.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        if let boxed = try JSONBox.special(value, { [] }) { return boxed }
        let context = JSONEncodingContext(userInfo: userInfo)
        let encoder = JSONValueEncoderImpl(node: .root, context: context)
        try value.encode(to: encoder)
        guard let storage = encoder.storage else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(T.self) did not encode any values"))
        }
        return storage.materialized
    }
}

// MARK: - Boxing primitives

enum JSONBox {
    static func invalid(_ value: Any, _ message: String, _ path: () -> [any CodingKey]) -> EncodingError {
        .invalidValue(value, EncodingError.Context(codingPath: path(), debugDescription: message))
    }

    @inline(__always)
    static func integer<I: BinaryInteger>(_ value: I, _ path: () -> [any CodingKey]) throws -> JSONValue {
        if let exact = Int64(exactly: value), exact.magnitude <= 9_007_199_254_740_992 { return .number(Double(exact)) }
        throw invalid(
            value,
            "integer \(value) cannot be represented exactly as a JavaScript number (beyond ±2^53); encode it as a string",
            path)
    }

    @inline(__always)
    static func double(_ value: Double, _ path: () -> [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else { throw invalid(value, "non-finite number \(value) cannot be encoded as JSON", path) }
        return .number(value)
    }

    /// A `Float` becomes the `Double` with the same shortest decimal digits (`0.1` stays `0.1`).
    static func float(_ value: Float, _ path: () -> [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else { throw invalid(value, "non-finite number \(value) cannot be encoded as JSON", path) }
        return .number(Double(value.description) ?? Double(value))
    }

    static func date(_ value: Date, _ path: () -> [any CodingKey]) throws -> JSONValue {
        guard let text = JSONDateCoding.format(value) else {
            throw invalid(
                value, "date \(value.timeIntervalSince1970) s since 1970 is outside JavaScript's Date range", path)
        }
        return .string(text)
    }

    /// A `Decimal` becomes the nearest `Double` (JavaScript numbers are doubles).
    static func decimal(_ value: Decimal, _ path: () -> [any CodingKey]) throws -> JSONValue {
        guard !value.isNaN, let number = Double(value.description), number.isFinite else {
            throw invalid(value, "decimal \(value) cannot be encoded as a JavaScript number", path)
        }
        return .number(number)
    }

    /// The JSON value for leaf and Foundation types, or `nil` when `T` needs its own `encode(to:)`.
    @inline(__always)
    static func special<T: Encodable>(_ value: T, _ path: () -> [any CodingKey]) throws -> JSONValue? {
        if T.self == JSONValue.self { return (value as! JSONValue) }
        if T.self == String.self { return .string(value as! String) }
        if T.self == Int.self { return try integer(value as! Int, path) }
        if T.self == Double.self { return try double(value as! Double, path) }
        if T.self == Bool.self { return .bool(value as! Bool) }
        if T.self == Date.self { return try date(value as! Date, path) }
        if T.self == Data.self { return .string((value as! Data).withUnsafeBytes { Base64.encode($0) }) }
        if T.self == URL.self { return .string((value as! URL).absoluteString) }
        if T.self == Decimal.self { return try decimal(value as! Decimal, path) }
        return nil
    }
}

// MARK: - Encoded storage

/// What an encoder or container produced; containers are references so nested containers can fill them.
enum EncodedSlot {
    case value(JSONValue)
    case object(EncodedObject)
    case array(EncodedArray)
    /// A `superEncoder()`'s output, read when the tree is materialized.
    case deferred(JSONValueEncoderImpl)

    var materialized: JSONValue {
        switch self {
        case .value(let value):
            return value
        case .object(let object):
            return .object(JSONObject(uniqueKeys: object.keys, values: object.slots.map { $0.materialized }))
        case .array(let array):
            return .array(array.slots.map { $0.materialized })
        case .deferred(let encoder):
            return encoder.storage?.materialized ?? .object(JSONObject())
        }
    }
}

/// An object being encoded: ordered keys, each set once (re-setting replaces in place).
final class EncodedObject {
    private(set) var keys: [String] = []
    private(set) var slots: [EncodedSlot] = []
    private var positions: [String: Int]?

    private func position(of key: String) -> Int? {
        if let positions { return positions[key] }
        for i in keys.indices where keys[i] == key { return i }
        return nil
    }

    func slot(for key: String) -> EncodedSlot? { position(of: key).map { slots[$0] } }

    func set(_ key: String, _ slot: EncodedSlot) {
        if let i = position(of: key) {
            slots[i] = slot
            return
        }
        keys.append(key)
        slots.append(slot)
        if positions != nil {
            positions![key] = keys.count - 1
        } else if keys.count > 12 {
            var index = [String: Int](minimumCapacity: keys.count * 2)
            for (i, k) in keys.enumerated() { index[k] = i }
            positions = index
        }
    }
}

/// An array being encoded.
final class EncodedArray {
    var slots: [EncodedSlot] = []
}

/// Options shared by every encoder object of one `encode` call.
final class JSONEncodingContext {
    let userInfo: [CodingUserInfoKey: Any]
    /// Whether ``Bytes`` go beside the JSON (into `collected`) rather than into it as base64.
    var collectsBytes = false
    var collected: [ByteAttachment] = []

    init(userInfo: [CodingUserInfoKey: any Sendable]) {
        self.userInfo = userInfo.isEmpty ? [:] : userInfo.mapValues { $0 as Any }
    }

    /// Encodes `value` found at `node`.
    func wrap<T: Encodable>(_ value: T, at node: @autoclosure () -> CodingPathNode) throws -> EncodedSlot {
        if let boxed = try JSONBox.special(value, { node().codingPath }) { return .value(boxed) }
        let encoder = JSONValueEncoderImpl(node: node(), context: self)
        try value.encode(to: encoder)
        return encoder.storage ?? .object(EncodedObject())
    }
}

// MARK: - Encoder

/// The `Encoder` for one value; it is also its own single-value container.
final class JSONValueEncoderImpl: Encoder, SingleValueEncodingContainer {
    var storage: EncodedSlot?
    let node: CodingPathNode
    let context: JSONEncodingContext

    init(node: CodingPathNode, context: JSONEncodingContext) {
        self.node = node
        self.context = context
    }

    var codingPath: [any CodingKey] { node.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: EncodedObject
        if case .object(let existing)? = storage {
            object = existing
        } else {
            object = EncodedObject()
            storage = .object(object)
        }
        return KeyedEncodingContainer(JSONKeyedEncodingContainer<Key>(object: object, node: node, context: context))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: EncodedArray
        if case .array(let existing)? = storage {
            array = existing
        } else {
            array = EncodedArray()
            storage = .array(array)
        }
        return JSONUnkeyedEncodingContainer(array: array, node: node, context: context)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: SingleValueEncodingContainer

    private func path() -> [any CodingKey] { codingPath }

    func encodeNil() throws { storage = .value(.null) }
    func encode(_ value: Bool) throws { storage = .value(.bool(value)) }
    func encode(_ value: String) throws { storage = .value(.string(value)) }
    func encode(_ value: Double) throws { storage = .value(try JSONBox.double(value, path)) }
    func encode(_ value: Float) throws { storage = .value(try JSONBox.float(value, path)) }
    func encode(_ value: Int) throws { storage = .value(try JSONBox.integer(value, path)) }
    func encode(_ value: Int8) throws { storage = .value(try JSONBox.integer(value, path)) }
    func encode(_ value: Int16) throws { storage = .value(try JSONBox.integer(value, path)) }
    func encode(_ value: Int32) throws { storage = .value(try JSONBox.integer(value, path)) }
    func encode(_ value: Int64) throws { storage = .value(try JSONBox.integer(value, path)) }
    func encode(_ value: Int128) throws { storage = .value(try JSONBox.integer(value, path)) }
    func encode(_ value: UInt) throws { storage = .value(try JSONBox.integer(value, path)) }
    func encode(_ value: UInt8) throws { storage = .value(try JSONBox.integer(value, path)) }
    func encode(_ value: UInt16) throws { storage = .value(try JSONBox.integer(value, path)) }
    func encode(_ value: UInt32) throws { storage = .value(try JSONBox.integer(value, path)) }
    func encode(_ value: UInt64) throws { storage = .value(try JSONBox.integer(value, path)) }
    func encode(_ value: UInt128) throws { storage = .value(try JSONBox.integer(value, path)) }
    func encode<T: Encodable>(_ value: T) throws {
        if let boxed = try JSONBox.special(value, path) {
            storage = .value(boxed)
        } else {
            // Same position: let the value encode itself into this encoder.
            try value.encode(to: self)
        }
    }
}

// MARK: - Keyed container

struct JSONKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: EncodedObject
    let node: CodingPathNode
    let context: JSONEncodingContext

    var codingPath: [any CodingKey] { node.codingPath }

    @inline(__always)
    private func set(_ key: Key, _ value: JSONValue) { object.set(key.stringValue, .value(value)) }

    mutating func encodeNil(forKey key: Key) throws { set(key, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(key, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(key, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(key, try JSONBox.double(value, { node.appending(key).codingPath }))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(key, try JSONBox.float(value, { node.appending(key).codingPath }))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try integer(value, key) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { try integer(value, key) }

    @inline(__always)
    private func integer(_ value: some BinaryInteger, _ key: Key) throws {
        set(key, try JSONBox.integer(value, { node.appending(key).codingPath }))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(key.stringValue, try context.wrap(value, at: node.appending(key)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested: EncodedObject
        if case .object(let existing)? = object.slot(for: key.stringValue) {
            nested = existing
        } else {
            nested = EncodedObject()
            object.set(key.stringValue, .object(nested))
        }
        return KeyedEncodingContainer(
            JSONKeyedEncodingContainer<NestedKey>(object: nested, node: node.appending(key), context: context))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested: EncodedArray
        if case .array(let existing)? = object.slot(for: key.stringValue) {
            nested = existing
        } else {
            nested = EncodedArray()
            object.set(key.stringValue, .array(nested))
        }
        return JSONUnkeyedEncodingContainer(array: nested, node: node.appending(key), context: context)
    }

    mutating func superEncoder() -> any Encoder { superEncoder(JSONCodingKey.super) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(key) }

    private func superEncoder(_ key: some CodingKey) -> any Encoder {
        let encoder = JSONValueEncoderImpl(node: node.appending(key), context: context)
        object.set(key.stringValue, .deferred(encoder))
        return encoder
    }
}

// MARK: - Unkeyed container

struct JSONUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let array: EncodedArray
    let node: CodingPathNode
    let context: JSONEncodingContext

    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int { array.slots.count }

    @inline(__always)
    private func append(_ value: JSONValue) { array.slots.append(.value(value)) }

    private func path() -> [any CodingKey] { node.appending(index: array.slots.count).codingPath }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try JSONBox.double(value, path)) }
    mutating func encode(_ value: Float) throws { append(try JSONBox.float(value, path)) }
    mutating func encode(_ value: Int) throws { append(try JSONBox.integer(value, path)) }
    mutating func encode(_ value: Int8) throws { append(try JSONBox.integer(value, path)) }
    mutating func encode(_ value: Int16) throws { append(try JSONBox.integer(value, path)) }
    mutating func encode(_ value: Int32) throws { append(try JSONBox.integer(value, path)) }
    mutating func encode(_ value: Int64) throws { append(try JSONBox.integer(value, path)) }
    mutating func encode(_ value: Int128) throws { append(try JSONBox.integer(value, path)) }
    mutating func encode(_ value: UInt) throws { append(try JSONBox.integer(value, path)) }
    mutating func encode(_ value: UInt8) throws { append(try JSONBox.integer(value, path)) }
    mutating func encode(_ value: UInt16) throws { append(try JSONBox.integer(value, path)) }
    mutating func encode(_ value: UInt32) throws { append(try JSONBox.integer(value, path)) }
    mutating func encode(_ value: UInt64) throws { append(try JSONBox.integer(value, path)) }
    mutating func encode(_ value: UInt128) throws { append(try JSONBox.integer(value, path)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.slots.append(try context.wrap(value, at: node.appending(index: array.slots.count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let nested = EncodedObject()
        let nestedNode = node.appending(index: array.slots.count)
        array.slots.append(.object(nested))
        return KeyedEncodingContainer(
            JSONKeyedEncodingContainer<NestedKey>(object: nested, node: nestedNode, context: context))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodedArray()
        let nestedNode = node.appending(index: array.slots.count)
        array.slots.append(.array(nested))
        return JSONUnkeyedEncodingContainer(array: nested, node: nestedNode, context: context)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = JSONValueEncoderImpl(node: node.appending(index: array.slots.count), context: context)
        array.slots.append(.deferred(encoder))
        return encoder
    }
}
