/// JSON text checked once, then embedded as is wherever an answer is encoded.
///
/// A plugin that already holds JSON text (a response body, a stored document) answers with it through
/// ``CallReply/resolve(encoded:)``: it is neither parsed into a ``JSONValue`` nor escaped into a string,
/// and JavaScript receives the value the text encodes, parsed once with the rest of the answer.
public struct EncodedJSON: Sendable, Equatable {
    /// The JSON text: one value (RFC 8259), at most ``maxDepth`` containers deep.
    public let text: String

    /// The deepest nesting of arrays and objects the validator follows (it recurses): deeper text is not
    /// embedded, and the caller answers with the parsed value instead — a cutoff of this fast form, within
    /// the one nesting limit, ``JSONValue/maxParseDepth``.
    public static let maxDepth = min(512, JSONValue.maxParseDepth)

    /// Checks `text`; nil if it is not one JSON value (RFC 8259, surrounding whitespace allowed), or nests
    /// deeper than ``maxDepth``.
    public init?(validating text: String) {
        var text = text
        let valid = text.withUTF8 { bytes in
            var validator = JSONValidator(bytes)
            return validator.validateDocument()
        }
        guard valid else { return nil }
        self.text = text
    }

    /// The text of `value` (always valid: non-finite numbers are written as `null`, as `JSON.stringify` does).
    public init(_ value: JSONValue) {
        text = value.serialized()
    }

    /// The object `members`, with `key` added holding `member`'s value (`key` must not be in `members`).
    public init(_ members: JSONObject, adding key: String, _ member: EncodedJSON) {
        var writer = JSONWriter(capacity: 256 + member.text.utf8.count)
        writer.append(0x7B)
        for (index, name) in members.keys.enumerated() {
            writer.writeString(name)
            writer.append(0x3A)
            writer.write(members.values[index])
            writer.append(0x2C)
        }
        writer.writeString(key)
        writer.append(0x3A)
        var text = member.text
        text.withUTF8 { writer.append($0) }
        writer.append(0x7D)
        self.text = writer.makeString()
    }

    /// The value the text encodes.
    public var value: JSONValue {
        // The text was checked: it parses.
        (try? JSONValue(parsing: text)) ?? .null
    }
}

/// Checks that bytes are one JSON value without building it: the grammar of RFC 8259 (as `JSON.parse`
/// accepts it), with a nesting limit.
struct JSONValidator {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func validateDocument() -> Bool {
        guard value(depth: 0) else { return false }
        skipWhitespace()
        return index == bytes.count
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func value(depth: Int) -> Bool {
        skipWhitespace()
        guard let byte = current else { return false }
        switch byte {
        case UInt8(ascii: "{"): return container(closedBy: UInt8(ascii: "}"), keyed: true, depth: depth)
        case UInt8(ascii: "["): return container(closedBy: UInt8(ascii: "]"), keyed: false, depth: depth)
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number()
        }
    }

    /// An object (`keyed`) or an array, from its opening bracket.
    private mutating func container(closedBy closing: UInt8, keyed: Bool, depth: Int) -> Bool {
        guard depth < EncodedJSON.maxDepth else { return false }
        index += 1
        skipWhitespace()
        if current == closing {
            index += 1
            return true
        }
        while true {
            if keyed {
                skipWhitespace()
                guard current == UInt8(ascii: "\""), string() else { return false }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { return false }
                index += 1
            }
            guard value(depth: depth + 1) else { return false }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case closing:
                index += 1
                return true
            default: return false
            }
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// A string, from its opening quote: no control characters, only JSON's escapes.
    private mutating func string() -> Bool {
        index += 1
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return true
            case UInt8(ascii: "\\"):
                guard let escaped = current else { return false }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    continue
                case UInt8(ascii: "u"):
                    guard bytes.count - index >= 4 else { return false }
                    for _ in 0..<4 {
                        guard let digit = current, Self.isHexDigit(digit) else { return false }
                        index += 1
                    }
                default: return false
                }
            case 0..<0x20: return false
            default: continue
            }
        }
        return false
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() -> Bool {
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, (0x30...0x39).contains(first) else { return false }
        index += 1
        if first != UInt8(ascii: "0") { digits() }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() else { return false }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() else { return false }
        }
        return true
    }

    /// Skips digits; whether there was one.
    @discardableResult
    private mutating func digits() -> Bool {
        let start = index
        while let byte = current, (0x30...0x39).contains(byte) { index += 1 }
        return index > start
    }
}
