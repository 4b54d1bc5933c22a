/// A syntax error found while parsing JSON text.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A human-readable explanation that ends with the offset, e.g. "Unexpected character '}' at offset 12".
    public let message: String
    /// The UTF-8 byte offset in the input where the error was found.
    public let offset: Int

    /// Creates an error with a message and a UTF-8 byte offset.
    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// The message.
    public var description: String { message }
}

extension JSONValue {
    /// The deepest nesting of arrays and objects the parser accepts; deeper input is an error. The one
    /// nesting limit of JSON the runtime reads: faster forms (``EncodedJSON``'s validator, the Model plugin's
    /// bytes scanner, the bridge's direct walk of arguments) stop sooner and hand deeper values to this parser.
    public static let maxParseDepth = 10_000

    /// Parses JSON text (RFC 8259, strict) into a value.
    ///
    /// Numbers are converted exactly as JavaScript's `Number()` converts the literal; an escaped lone
    /// surrogate (e.g. `"\uD800"`), which a Swift `String` cannot hold, becomes U+FFFD. Nesting deeper than
    /// ``maxParseDepth`` is an error; the parser never recurses, so any input is safe on a small stack.
    public init(parsing text: String) throws(JSONParseError) {
        let result =
            text.utf8.withContiguousStorageIfAvailable { buffer in
                Result { () throws(JSONParseError) -> JSONValue in try JSONValue.parse(buffer) }
            }
            ?? {
                var copy = text
                return copy.withUTF8 { buffer in
                    Result { () throws(JSONParseError) -> JSONValue in try JSONValue.parse(buffer) }
                }
            }()
        self = try result.get()
    }

    /// Parses UTF-8 encoded JSON text (RFC 8259, strict) into a value.
    ///
    /// Behaves like parsing a `String`; invalid UTF-8 inside strings is replaced with U+FFFD. Error offsets
    /// are byte offsets into `bytes`.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        let result =
            bytes.withContiguousStorageIfAvailable { buffer in
                Result { () throws(JSONParseError) -> JSONValue in try JSONValue.parse(buffer) }
            }
            ?? Array(bytes).withUnsafeBufferPointer { buffer in
                Result { () throws(JSONParseError) -> JSONValue in try JSONValue.parse(buffer) }
            }
        self = try result.get()
    }

    /// Parses a complete JSON document held in `buffer`.
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            throw JSONParseError(message: "Unexpected end of input at offset 0", offset: 0)
        }
        var parser = JSONParserCore(base: base, end: buffer.count)
        do {
            return try parser.parseDocument()
        } catch {
            // Partial values may be deeply nested: release them without recursion.
            releaseIteratively(&parser.valueStack)
            throw error
        }
    }

    /// Releases values without recursing into nested containers.
    ///
    /// Dropping the last reference to a deeply nested value recurses once per level inside Swift's
    /// runtime (about 100 bytes of stack per level); this keeps parser error paths safe on small stacks.
    static func releaseIteratively(_ values: inout [JSONValue]) {
        while let value = values.popLast() {
            switch value {
            case .array(let items): values.append(contentsOf: items)
            case .object(let object): values.append(contentsOf: object.values)
            default: break
            }
        }
    }
}

// MARK: - Implementation

private enum ASCII {
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let quote: UInt8 = 0x22
    static let backslash: UInt8 = 0x5C
    static let slash: UInt8 = 0x2F
    static let comma: UInt8 = 0x2C
    static let colon: UInt8 = 0x3A
    static let minus: UInt8 = 0x2D
    static let plus: UInt8 = 0x2B
    static let dot: UInt8 = 0x2E
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let openBracket: UInt8 = 0x5B
    static let closeBracket: UInt8 = 0x5D
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
    static let lowerE: UInt8 = 0x65
    static let upperE: UInt8 = 0x45
    static let lowerT: UInt8 = 0x74
    static let lowerF: UInt8 = 0x66
    static let lowerN: UInt8 = 0x6E
}

/// One open array or object: where its elements (and keys) start on the parser's stacks.
struct ParserFrame {
    var isObject: Bool
    var valueStart: Int
    var keyStart: Int
}

/// The iterative parser over a contiguous UTF-8 buffer.
struct JSONParserCore {
    let base: UnsafePointer<UInt8>
    let end: Int
    var pos = 0
    /// Reused buffer for strings that contain escapes.
    var scratch: [UInt8] = []
    /// Open containers.
    var frames: [ParserFrame] = []
    /// Completed values of the open containers, in order.
    var valueStack: [JSONValue] = []
    /// Keys of the open objects' members, in order.
    var keyStack: [String] = []

    init(base: UnsafePointer<UInt8>, end: Int) {
        self.base = base
        self.end = end
    }

    // MARK: Errors

    func unexpected(at offset: Int) -> JSONParseError {
        if offset >= end {
            return JSONParseError(message: "Unexpected end of input at offset \(offset)", offset: offset)
        }
        return JSONParseError(
            message: "Unexpected character \(describeCharacter(at: offset)) at offset \(offset)", offset: offset)
    }

    func error(_ text: String, at offset: Int) -> JSONParseError {
        JSONParseError(message: "\(text) at offset \(offset)", offset: offset)
    }

    /// A readable rendering of the character starting at `offset`: `'x'`, `U+000A`, or `byte 0xFF`.
    func describeCharacter(at offset: Int) -> String {
        let byte = base[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x80 { return "U+" + hex4(UInt32(byte)) }
        let length: Int =
            switch byte {
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 0
            }
        if length > 0, offset + length <= end {
            var decoder = UTF8()
            var iterator = UnsafeBufferPointer(start: base + offset, count: length).makeIterator()
            if case .scalarValue(let scalar) = decoder.decode(&iterator) {
                return "'\(Character(scalar))' (U+\(hex4(scalar.value)))"
            }
        }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    // MARK: Structure

    @inline(__always)
    mutating func skipWhitespace() {
        while pos < end {
            let c = base[pos]
            guard c == ASCII.space || c == ASCII.newline || c == ASCII.carriageReturn || c == ASCII.tab else { return }
            pos += 1
        }
    }

    /// Parses `"key"` then `:`, leaving `pos` at the start of the member's value.
    @inline(__always)
    mutating func parseMemberKey() throws(JSONParseError) -> String {
        guard pos < end, base[pos] == ASCII.quote else { throw unexpected(at: pos) }
        let key = try parseString()
        skipWhitespace()
        guard pos < end, base[pos] == ASCII.colon else { throw unexpected(at: pos) }
        pos += 1
        return key
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        parsing: while true {
            // Expect a value at `pos`.
            skipWhitespace()
            guard pos < end else { throw unexpected(at: pos) }
            var value: JSONValue
            switch base[pos] {
            case ASCII.openBracket:
                let start = pos
                pos += 1
                skipWhitespace()
                if pos < end && base[pos] == ASCII.closeBracket {
                    pos += 1
                    value = .array([])
                } else {
                    guard frames.count < JSONValue.maxParseDepth else {
                        throw error("Nesting deeper than \(JSONValue.maxParseDepth) levels", at: start)
                    }
                    frames.append(ParserFrame(isObject: false, valueStart: valueStack.count, keyStart: keyStack.count))
                    continue parsing
                }
            case ASCII.openBrace:
                let start = pos
                pos += 1
                skipWhitespace()
                if pos < end && base[pos] == ASCII.closeBrace {
                    pos += 1
                    value = .object(JSONObject())
                } else {
                    guard frames.count < JSONValue.maxParseDepth else {
                        throw error("Nesting deeper than \(JSONValue.maxParseDepth) levels", at: start)
                    }
                    frames.append(ParserFrame(isObject: true, valueStart: valueStack.count, keyStart: keyStack.count))
                    keyStack.append(try parseMemberKey())
                    continue parsing
                }
            case ASCII.quote:
                value = .string(try parseString())
            case ASCII.minus, ASCII.zero...ASCII.nine:
                value = .number(try parseNumber())
            case ASCII.lowerT:
                try expectLiteral("true")
                value = .bool(true)
            case ASCII.lowerF:
                try expectLiteral("false")
                value = .bool(false)
            case ASCII.lowerN:
                try expectLiteral("null")
                value = .null
            default:
                throw unexpected(at: pos)
            }

            // A value is complete: attach it to the open container, closing containers as they end.
            while true {
                guard let frame = frames.last else {
                    skipWhitespace()
                    guard pos == end else {
                        valueStack.append(value)  // released iteratively by the caller
                        throw unexpected(at: pos)
                    }
                    return value
                }
                valueStack.append(value)
                skipWhitespace()
                guard pos < end else { throw unexpected(at: pos) }
                let c = base[pos]
                if c == ASCII.comma {
                    pos += 1
                    if frame.isObject {
                        skipWhitespace()
                        keyStack.append(try parseMemberKey())
                    }
                    continue parsing
                }
                if frame.isObject {
                    guard c == ASCII.closeBrace else { throw unexpected(at: pos) }
                    pos += 1
                    // (Copying the keys measured faster than moving them: the generic uninitialized-array
                    // initializer for [String] pays a runtime metadata lookup per call.)
                    let keys = Array(keyStack[frame.keyStart...])
                    keyStack.removeSubrange(frame.keyStart...)
                    let values = Self.takeTail(of: &valueStack, from: frame.valueStart, filler: .null)
                    value = .object(JSONObject(keys: keys, values: values))
                } else {
                    guard c == ASCII.closeBracket else { throw unexpected(at: pos) }
                    pos += 1
                    value = .array(Self.takeTail(of: &valueStack, from: frame.valueStart, filler: .null))
                }
                frames.removeLast()
            }
        }
    }

    /// Moves `stack[start...]` into a new array and shortens `stack`, without retaining or releasing
    /// the moved elements (the vacated slots are refilled with a trivial `filler` before removal).
    @inline(__always)
    static func takeTail<Element>(of stack: inout [Element], from start: Int, filler: Element) -> [Element] {
        let count = stack.count - start
        let tail = stack.withUnsafeMutableBufferPointer { buffer in
            let source = buffer.baseAddress! + start
            return [Element](unsafeUninitializedCapacity: count) { target, initialized in
                target.baseAddress!.moveInitialize(from: source, count: count)
                source.initialize(repeating: filler, count: count)
                initialized = count
            }
        }
        stack.removeSubrange(start...)
        return tail
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for (i, byte) in bytes.enumerated() {
            guard pos + i < end, base[pos + i] == byte else { throw unexpected(at: pos + i) }
        }
        pos += bytes.count
    }

    // MARK: Strings

    /// Parses a string whose opening quote is at `pos`.
    @inline(__always)
    mutating func parseString() throws(JSONParseError) -> String {
        let start = pos + 1
        var i = start
        while i < end {
            let c = base[i]
            if c == ASCII.quote {
                pos = i + 1
                return String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self)
            }
            if c == ASCII.backslash { return try parseEscapedString(start: start, firstEscape: i) }
            if c < 0x20 { throw controlCharacter(at: i) }
            i += 1
        }
        throw error("Unterminated string starting", at: start - 1)
    }

    func controlCharacter(at offset: Int) -> JSONParseError {
        error("Unescaped control character \(describeCharacter(at: offset)) in string", at: offset)
    }

    /// The slow path for strings with escapes: decode into `scratch`.
    mutating func parseEscapedString(start: Int, firstEscape: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: firstEscape - start))
        var i = firstEscape
        var runStart = i
        while i < end {
            let c = base[i]
            if c == ASCII.quote {
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart))
                pos = i + 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if c < 0x20 { throw controlCharacter(at: i) }
            guard c == ASCII.backslash else {
                i += 1
                continue
            }
            scratch.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart))
            guard i + 1 < end else { throw error("Unterminated string starting", at: start - 1) }
            let escape = base[i + 1]
            switch escape {
            case ASCII.quote, ASCII.backslash, ASCII.slash: scratch.append(escape)
            case 0x62: scratch.append(0x08)  // b
            case 0x66: scratch.append(0x0C)  // f
            case 0x6E: scratch.append(0x0A)  // n
            case 0x72: scratch.append(0x0D)  // r
            case 0x74: scratch.append(0x09)  // t
            case 0x75:  // u
                var scalar = try hexQuad(at: i + 2)
                var consumed = 6
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    // A high surrogate: combine with a following \uDC00-\uDFFF escape, else U+FFFD.
                    if i + 7 < end, base[i + 6] == ASCII.backslash, base[i + 7] == 0x75,
                        let low = try? hexQuad(at: i + 8), low >= 0xDC00 && low <= 0xDFFF
                    {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        consumed = 12
                    } else {
                        scalar = 0xFFFD
                    }
                } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                    scalar = 0xFFFD
                }
                appendUTF8(scalar)
                i += consumed
                runStart = i
                continue
            default:
                throw error("Invalid escape character \(describeCharacter(at: i + 1)) in string", at: i + 1)
            }
            i += 2
            runStart = i
        }
        throw error("Unterminated string starting", at: start - 1)
    }

    /// Four hex digits at `offset` as a number.
    func hexQuad(at offset: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for j in offset..<(offset + 4) {
            guard j < end else { throw unexpected(at: j) }
            let c = base[j]
            let digit: UInt8
            switch c {
            case 0x30...0x39: digit = c - 0x30
            case 0x41...0x46: digit = c - 0x41 + 10
            case 0x61...0x66: digit = c - 0x61 + 10
            default: throw error("Invalid \\u escape: expected a hex digit, found \(describeCharacter(at: j))", at: j)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | (scalar >> 6)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | (scalar >> 12)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            scratch.append(UInt8(0xF0 | (scalar >> 18)))
            scratch.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    // MARK: Numbers

    /// Parses a number at `pos` with the RFC 8259 grammar; the value matches JavaScript's `Number()`.
    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = pos
        var i = pos
        var negative = false
        if base[i] == ASCII.minus {
            negative = true
            i += 1
        }
        guard i < end else { throw unexpected(at: i) }
        // All digits (integer and fraction) as one integer while it fits; `digitCount` counts them all.
        var mantissa: UInt64 = 0
        var digitCount = 0
        let first = base[i]
        if first == ASCII.zero {
            i += 1
        } else if first > ASCII.zero && first <= ASCII.nine {
            while i < end {
                let c = base[i] &- ASCII.zero
                guard c < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(c)
                digitCount += 1
                i += 1
            }
        } else {
            throw error("No number after minus sign: unexpected \(describeCharacter(at: i))", at: i)
        }
        var fractionDigits = 0
        if i < end && base[i] == ASCII.dot {
            i += 1
            let fractionStart = i
            while i < end {
                let c = base[i] &- ASCII.zero
                guard c < 10 else { break }
                if digitCount > 0 || c != 0 {  // leading zeros of "0.000x" are not significant
                    mantissa = mantissa &* 10 &+ UInt64(c)
                    digitCount += 1
                }
                i += 1
            }
            fractionDigits = i - fractionStart
            guard fractionDigits > 0 else { throw unexpected(at: i) }
        }
        var exponent = 0
        if i < end && (base[i] == ASCII.lowerE || base[i] == ASCII.upperE) {
            i += 1
            var exponentNegative = false
            if i < end && (base[i] == ASCII.plus || base[i] == ASCII.minus) {
                exponentNegative = base[i] == ASCII.minus
                i += 1
            }
            let exponentStart = i
            while i < end {
                let c = base[i] &- ASCII.zero
                guard c < 10 else { break }
                if exponent < 100_000 { exponent = exponent * 10 + Int(c) }
                i += 1
            }
            guard i > exponentStart else { throw unexpected(at: i) }
            if exponentNegative { exponent = -exponent }
        }
        pos = i
        // Exact fast path: a mantissa below 2^53 and a power of ten up to 10^22 are both exact Doubles,
        // so one correctly rounded multiplication or division gives the correctly rounded result.
        let scale = exponent - fractionDigits
        if digitCount <= 15 && scale >= -22 && scale <= 22 {
            var value = Double(mantissa)
            if scale > 0 {
                value *= Self.powersOfTen[scale]
            } else if scale < 0 {
                value /= Self.powersOfTen[-scale]
            }
            return negative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self)
        guard let value = Double(text) else { throw error("Invalid number", at: start) }
        return value
    }

    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]
}
