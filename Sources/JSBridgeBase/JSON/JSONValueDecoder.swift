import Foundation

/// Decodes `Decodable` types directly from a ``JSONValue`` tree, with JavaScript conventions.
///
/// Rules: integers decode only from integral numbers within the type's range and within ±2^53;
/// `Float`/`Double` from numbers; `String` only from strings; `Bool` only from booleans (no coercion);
/// `Date` from an ISO-8601 string or a number of milliseconds since 1970; `Data` from base64;
/// `URL` from a string; `Decimal` from a number; `JSONValue` as the raw subtree. A missing key or `null` decodes an `Optional` as `nil`.
/// Errors are standard `DecodingError`s whose `debugDescription` is a human message
/// (see ``Swift/DecodingError/issues``).
public struct JSONValueDecoder: Sendable {
    /// Values made available to types through `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder.
    public init() {}

    /// Decodes a value of type `T` from `value`.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        // Fast paths: no decoder object needed.
        if T.self == JSONValue.self { return value as! T }
        if T.self == Int.self { return try JSONUnbox.integer(value, Int.self, { [] }) as! T }
        if T.self == Double.self { return try JSONUnbox.double(value, { [] }) as! T }
        if T.self == String.self { return try JSONUnbox.string(value, { [] }) as! T }
        if T.self == Bool.self { return try JSONUnbox.bool(value, { [] }) as! T }
        let context = JSONDecodingContext(userInfo: userInfo)
        return try context.unwrap(value, as: T.self, at: .root)
    }
}

/// An issue found while decoding arguments: where (a JavaScript path) and what.
public struct ArgumentIssue: Sendable, Hashable, Codable {
    /// The location in JavaScript notation, e.g. `rooms[2].price`; `""` for the root.
    public var path: String
    /// A human-readable message, e.g. `expected an integer, got a string ("abc")`.
    public var message: String

    /// Creates an issue.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
}

extension DecodingError {
    /// The error as `{path, message}` issues, with the path in JavaScript notation (`rooms[2].price`).
    ///
    /// A missing key's path includes the key. Messages come from the error's `debugDescription`, which
    /// ``JSONValueDecoder`` writes for humans; other decoders' wording is passed through.
    public var issues: [ArgumentIssue] {
        switch self {
        case .keyNotFound(let key, let context):
            return [
                ArgumentIssue(
                    path: ArgumentIssue.javaScriptPath(context.codingPath + [key]),
                    message: "missing required key \(JSONValue.string(key.stringValue).serialized())")
            ]
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return [
                ArgumentIssue(path: ArgumentIssue.javaScriptPath(context.codingPath), message: context.debugDescription)
            ]
        @unknown default:
            return [ArgumentIssue(path: "", message: String(describing: self))]
        }
    }
}

// MARK: - Unboxing primitives

/// Converts leaf values, throwing human-readable `DecodingError`s. `path` is only evaluated on failure.
enum JSONUnbox {
    static func mismatch(
        _ type: Any.Type, expected: String, got value: JSONValue, _ path: () -> [any CodingKey]
    ) -> DecodingError {
        let context = DecodingError.Context(
            codingPath: path(), debugDescription: "expected \(expected), got \(value.kindDescription)")
        if case .null = value { return .valueNotFound(type, context) }
        return .typeMismatch(type, context)
    }

    static func corrupted(_ message: String, _ path: () -> [any CodingKey]) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: path(), debugDescription: message))
    }

    @inline(__always)
    static func bool(_ value: JSONValue, _ path: () -> [any CodingKey]) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(Bool.self, expected: "a boolean", got: value, path) }
        return flag
    }

    @inline(__always)
    static func string(_ value: JSONValue, _ path: () -> [any CodingKey]) throws -> String {
        guard case .string(let string) = value else {
            throw mismatch(String.self, expected: "a string", got: value, path)
        }
        return string
    }

    @inline(__always)
    static func double(_ value: JSONValue, _ path: () -> [any CodingKey]) throws -> Double {
        guard case .number(let number) = value else {
            throw mismatch(Double.self, expected: "a number", got: value, path)
        }
        return number
    }

    static func float(_ value: JSONValue, _ path: () -> [any CodingKey]) throws -> Float {
        guard case .number(let number) = value else {
            throw mismatch(Float.self, expected: "a number", got: value, path)
        }
        let result = Float(number)
        if number.isFinite && !result.isFinite {
            throw corrupted("number \(JSONValue.javaScriptString(for: number)) is out of range for Float", path)
        }
        return result
    }

    @inline(__always)
    static func integer<I: FixedWidthInteger>(_ value: JSONValue, _ type: I.Type, _ path: () -> [any CodingKey]) throws
        -> I
    {
        guard case .number(let number) = value else { throw mismatch(I.self, expected: "an integer", got: value, path) }
        if number.magnitude <= JSONValue.maxExactInteger, let result = I(exactly: number) { return result }
        return try integerFailure(number, type, path)
    }

    static func integerFailure<I: FixedWidthInteger>(_ number: Double, _ type: I.Type, _ path: () -> [any CodingKey])
        throws -> I
    {
        if number.isNaN || (number.isFinite && number.rounded(.towardZero) != number) {
            throw mismatch(I.self, expected: "an integer", got: .number(number), path)
        }
        let lower = max(Double(I.min), -JSONValue.maxExactInteger)
        let upper = min(Double(I.max), JSONValue.maxExactInteger)
        throw corrupted(
            "number \(JSONValue.javaScriptString(for: number)) is out of range for \(I.self) "
                + "(\(JSONValue.javaScriptString(for: lower)) to \(JSONValue.javaScriptString(for: upper)))", path)
    }

    static func date(_ value: JSONValue, _ path: () -> [any CodingKey]) throws -> Date {
        switch value {
        case .string(let text):
            guard let date = JSONDateCoding.parse(text) else {
                throw corrupted(
                    "invalid date \(JSONValue.string(text).serialized()): expected ISO-8601 like \"2024-01-02T03:04:05.678Z\"",
                    path)
            }
            return date
        case .number(let ms) where ms.isFinite:
            return Date(timeIntervalSince1970: ms / 1000)
        default:
            throw mismatch(
                Date.self, expected: "a date (an ISO-8601 string or milliseconds since 1970)", got: value, path)
        }
    }

    /// A `Decimal` from a number, via its shortest decimal digits (so `0.1` becomes exactly 0.1).
    static func decimal(_ value: JSONValue, _ path: () -> [any CodingKey]) throws -> Decimal {
        guard case .number(let number) = value else {
            throw mismatch(Decimal.self, expected: "a number", got: value, path)
        }
        guard number.isFinite, let decimal = Decimal(string: JSONValue.javaScriptString(for: number)) else {
            throw corrupted(
                "number \(JSONValue.javaScriptString(for: number)) cannot be represented as a Decimal", path)
        }
        return decimal
    }

    static func data(_ value: JSONValue, _ path: () -> [any CodingKey]) throws -> Data {
        guard case .string(let text) = value else {
            throw mismatch(Data.self, expected: "a base64 string", got: value, path)
        }
        guard let bytes = Base64.decode(text) else { throw corrupted("invalid base64 string", path) }
        return Data(bytes)
    }

    static func url(_ value: JSONValue, _ path: () -> [any CodingKey]) throws -> URL {
        guard case .string(let text) = value else {
            throw mismatch(URL.self, expected: "a URL string", got: value, path)
        }
        guard let url = URL(string: text) else {
            throw corrupted("invalid URL \(JSONValue.string(text).serialized())", path)
        }
        return url
    }
}

// MARK: - Decoder

/// Options shared by every decoder object of one `decode` call.
final class JSONDecodingContext {
    let userInfo: [CodingUserInfoKey: Any]
    /// Bytes beside the JSON being decoded (``JSONValueDecoder/decode(_:from:)-bridge``).
    var attachments: [ByteAttachment] = []

    init(userInfo: [CodingUserInfoKey: any Sendable]) {
        self.userInfo = userInfo.isEmpty ? [:] : userInfo.mapValues { $0 as Any }
    }

    /// `value` at `node` for a reader of raw JSON: bytes beside it become base64 text, as in plain JSON.
    func plain(_ value: JSONValue, at node: CodingPathNode) -> JSONValue {
        attachments.isEmpty ? value : BridgeValue(value, bytes: bytes(under: node)).plainJSON
    }

    /// Decodes `T` from `value` at `node`, special-casing leaf and Foundation types.
    func unwrap<T: Decodable>(_ value: JSONValue, as type: T.Type, at node: @autoclosure () -> CodingPathNode) throws
        -> T
    {
        if T.self == JSONValue.self { return plain(value, at: node()) as! T }
        if T.self == String.self { return try JSONUnbox.string(value, { node().codingPath }) as! T }
        if T.self == Int.self { return try JSONUnbox.integer(value, Int.self, { node().codingPath }) as! T }
        if T.self == Double.self { return try JSONUnbox.double(value, { node().codingPath }) as! T }
        if T.self == Bool.self { return try JSONUnbox.bool(value, { node().codingPath }) as! T }
        if T.self == Date.self { return try JSONUnbox.date(value, { node().codingPath }) as! T }
        if T.self == Data.self { return try JSONUnbox.data(value, { node().codingPath }) as! T }
        if T.self == URL.self { return try JSONUnbox.url(value, { node().codingPath }) as! T }
        if T.self == Decimal.self { return try JSONUnbox.decimal(value, { node().codingPath }) as! T }
        return try T(from: JSONValueDecoderImpl(value: value, node: node(), context: self))
    }
}

/// The `Decoder` over one JSON value; it is also its own single-value container.
final class JSONValueDecoderImpl: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let node: CodingPathNode
    let context: JSONDecodingContext

    init(value: JSONValue, node: CodingPathNode, context: JSONDecodingContext) {
        self.value = value
        self.node = node
        self.context = context
    }

    var codingPath: [any CodingKey] { node.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw JSONUnbox.mismatch([String: JSONValue].self, expected: "an object", got: value, { codingPath })
        }
        return KeyedDecodingContainer(JSONKeyedDecodingContainer<Key>(object: object, node: node, context: context))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = value else {
            throw JSONUnbox.mismatch([JSONValue].self, expected: "an array", got: value, { codingPath })
        }
        return JSONUnkeyedDecodingContainer(array: array, node: node, context: context)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try JSONUnbox.bool(value, { codingPath }) }
    func decode(_ type: String.Type) throws -> String { try JSONUnbox.string(value, { codingPath }) }
    func decode(_ type: Double.Type) throws -> Double { try JSONUnbox.double(value, { codingPath }) }
    func decode(_ type: Float.Type) throws -> Float { try JSONUnbox.float(value, { codingPath }) }
    func decode(_ type: Int.Type) throws -> Int { try JSONUnbox.integer(value, type, { codingPath }) }
    func decode(_ type: Int8.Type) throws -> Int8 { try JSONUnbox.integer(value, type, { codingPath }) }
    func decode(_ type: Int16.Type) throws -> Int16 { try JSONUnbox.integer(value, type, { codingPath }) }
    func decode(_ type: Int32.Type) throws -> Int32 { try JSONUnbox.integer(value, type, { codingPath }) }
    func decode(_ type: Int64.Type) throws -> Int64 { try JSONUnbox.integer(value, type, { codingPath }) }
    func decode(_ type: Int128.Type) throws -> Int128 { try JSONUnbox.integer(value, type, { codingPath }) }
    func decode(_ type: UInt.Type) throws -> UInt { try JSONUnbox.integer(value, type, { codingPath }) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try JSONUnbox.integer(value, type, { codingPath }) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try JSONUnbox.integer(value, type, { codingPath }) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try JSONUnbox.integer(value, type, { codingPath }) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try JSONUnbox.integer(value, type, { codingPath }) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try JSONUnbox.integer(value, type, { codingPath }) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self { return context.plain(value, at: node) as! T }
        if T.self == Date.self { return try JSONUnbox.date(value, { codingPath }) as! T }
        if T.self == Data.self { return try JSONUnbox.data(value, { codingPath }) as! T }
        if T.self == URL.self { return try JSONUnbox.url(value, { codingPath }) as! T }
        if T.self == Decimal.self { return try JSONUnbox.decimal(value, { codingPath }) as! T }
        // Same value, same path: decode with this decoder.
        return try T(from: self)
    }
}

// MARK: - Keyed container

struct JSONKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let node: CodingPathNode
    let context: JSONDecodingContext

    var codingPath: [any CodingKey] { node.codingPath }

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    @inline(__always)
    private func value(for key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "missing required key \(JSONValue.string(key.stringValue).serialized())"))
        }
        return value
    }

    /// The value for `key`, or `nil` when the key is missing or `null`.
    @inline(__always)
    private func presentValue(for key: Key) -> JSONValue? {
        guard let value = object[key.stringValue], !value.isNull else { return nil }
        return value
    }

    private func path(_ key: Key) -> [any CodingKey] { node.appending(key).codingPath }

    func decodeNil(forKey key: Key) throws -> Bool { try value(for: key).isNull }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try JSONUnbox.bool(value(for: key), { path(key) })
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try JSONUnbox.string(value(for: key), { path(key) })
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try JSONUnbox.double(value(for: key), { path(key) })
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try JSONUnbox.float(value(for: key), { path(key) })
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try JSONUnbox.integer(value(for: key), type, { path(key) })
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try JSONUnbox.integer(value(for: key), type, { path(key) })
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try JSONUnbox.integer(value(for: key), type, { path(key) })
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try JSONUnbox.integer(value(for: key), type, { path(key) })
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try JSONUnbox.integer(value(for: key), type, { path(key) })
    }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
        try JSONUnbox.integer(value(for: key), type, { path(key) })
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try JSONUnbox.integer(value(for: key), type, { path(key) })
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try JSONUnbox.integer(value(for: key), type, { path(key) })
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try JSONUnbox.integer(value(for: key), type, { path(key) })
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try JSONUnbox.integer(value(for: key), type, { path(key) })
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try JSONUnbox.integer(value(for: key), type, { path(key) })
    }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
        try JSONUnbox.integer(value(for: key), type, { path(key) })
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try context.unwrap(value(for: key), as: T.self, at: node.appending(key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try presentValue(for: key).map { v throws in try JSONUnbox.bool(v, { path(key) }) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try presentValue(for: key).map { v throws in try JSONUnbox.string(v, { path(key) }) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try presentValue(for: key).map { v throws in try JSONUnbox.double(v, { path(key) }) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try presentValue(for: key).map { v throws in try JSONUnbox.float(v, { path(key) }) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try integerIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try integerIfPresent(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = presentValue(for: key) else { return nil }
        return try context.unwrap(value, as: T.self, at: node.appending(key))
    }

    @inline(__always)
    private func integerIfPresent<I: FixedWidthInteger>(_ type: I.Type, _ key: Key) throws -> I? {
        guard let value = presentValue(for: key) else { return nil }
        return try JSONUnbox.integer(value, type, { path(key) })
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try value(for: key)
        guard case .object(let object) = value else {
            throw JSONUnbox.mismatch([String: JSONValue].self, expected: "an object", got: value, { path(key) })
        }
        return KeyedDecodingContainer(
            JSONKeyedDecodingContainer<NestedKey>(object: object, node: node.appending(key), context: context))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let value = try value(for: key)
        guard case .array(let array) = value else {
            throw JSONUnbox.mismatch([JSONValue].self, expected: "an array", got: value, { path(key) })
        }
        return JSONUnkeyedDecodingContainer(array: array, node: node.appending(key), context: context)
    }

    func superDecoder() throws -> any Decoder {
        JSONValueDecoderImpl(
            value: object["super"] ?? .null, node: node.appending(JSONCodingKey.super), context: context)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONValueDecoderImpl(value: object[key.stringValue] ?? .null, node: node.appending(key), context: context)
    }
}

// MARK: - Unkeyed container

struct JSONUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let array: [JSONValue]
    let node: CodingPathNode
    let context: JSONDecodingContext
    private(set) var currentIndex = 0

    init(array: [JSONValue], node: CodingPathNode, context: JSONDecodingContext) {
        self.array = array
        self.node = node
        self.context = context
    }

    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    private func path() -> [any CodingKey] { node.appending(index: currentIndex).codingPath }

    /// The current element; throws `valueNotFound` past the end.
    @inline(__always)
    private func current(_ type: Any.Type) throws -> JSONValue {
        guard currentIndex < array.count else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: path(),
                    debugDescription:
                        "expected an element at index \(currentIndex), but the array has only \(array.count)"))
        }
        return array[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard try current(Never.self).isNull else { return false }
        currentIndex += 1
        return true
    }

    @inline(__always)
    private mutating func next<T>(_ type: T.Type, _ body: (JSONValue, () -> [any CodingKey]) throws -> T) throws -> T {
        let value = try current(type)
        let node = self.node
        let index = currentIndex
        let result = try body(value, { node.appending(index: index).codingPath })
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type, JSONUnbox.bool) }
    mutating func decode(_ type: String.Type) throws -> String { try next(type, JSONUnbox.string) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type, JSONUnbox.double) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type, JSONUnbox.float) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try JSONUnbox.integer($0, type, $1) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try JSONUnbox.integer($0, type, $1) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try JSONUnbox.integer($0, type, $1) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try JSONUnbox.integer($0, type, $1) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try JSONUnbox.integer($0, type, $1) } }
    mutating func decode(_ type: Int128.Type) throws -> Int128 {
        try next(type) { try JSONUnbox.integer($0, type, $1) }
    }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try JSONUnbox.integer($0, type, $1) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try JSONUnbox.integer($0, type, $1) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        try next(type) { try JSONUnbox.integer($0, type, $1) }
    }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        try next(type) { try JSONUnbox.integer($0, type, $1) }
    }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        try next(type) { try JSONUnbox.integer($0, type, $1) }
    }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 {
        try next(type) { try JSONUnbox.integer($0, type, $1) }
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try current(type)
        let result = try context.unwrap(value, as: T.self, at: node.appending(index: currentIndex))
        currentIndex += 1
        return result
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        let value = try current([String: JSONValue].self)
        guard case .object(let object) = value else {
            throw JSONUnbox.mismatch([String: JSONValue].self, expected: "an object", got: value, path)
        }
        let container = JSONKeyedDecodingContainer<NestedKey>(
            object: object, node: node.appending(index: currentIndex), context: context)
        currentIndex += 1
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let value = try current([JSONValue].self)
        guard case .array(let array) = value else {
            throw JSONUnbox.mismatch([JSONValue].self, expected: "an array", got: value, path)
        }
        let container = JSONUnkeyedDecodingContainer(
            array: array, node: node.appending(index: currentIndex), context: context)
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let value = try current(JSONValue.self)
        let decoder = JSONValueDecoderImpl(value: value, node: node.appending(index: currentIndex), context: context)
        currentIndex += 1
        return decoder
    }
}
