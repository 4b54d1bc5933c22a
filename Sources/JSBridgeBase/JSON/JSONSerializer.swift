extension JSONValue {
    /// The compact JSON text of the value, identical to JavaScript's `JSON.stringify` of the same value.
    ///
    /// Numbers print like `Number.prototype.toString` (`1e+21`, `1e-7`, `-0` → `0`); NaN and infinities
    /// print `null`. Serialization is iterative, so deeply nested values cannot overflow the stack.
    public func serialized() -> String {
        var writer = JSONWriter()
        writer.write(self)
        return writer.makeString()
    }

    /// Appends the compact JSON text of the value to `output`.
    public func serialize(into output: inout String) {
        var writer = JSONWriter()
        writer.write(self)
        output.append(writer.makeString())
    }

    /// The compact JSON text of the value as UTF-8 bytes.
    public func serializedUTF8() -> [UInt8] {
        var writer = JSONWriter()
        writer.write(self)
        return writer.makeArray()
    }
}

extension JSONValue {
    /// Formats a number exactly as JavaScript's `Number.prototype.toString()` does (NaN and ±Infinity
    /// give `NaN`, `Infinity`, `-Infinity`).
    public static func javaScriptString(for number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        var writer = JSONWriter(capacity: 32)
        writer.writeNumber(number)
        return writer.makeString()
    }
}

/// One open container during serialization.
private struct WriterFrame {
    let keys: [String]?
    let values: [JSONValue]
    var index: Int
}

/// Writes compact JSON, by the rules of `JSON.stringify`, into a growable byte buffer it owns.
///
/// ``JSONValue/serialized()`` writes a whole tree with it; code that writes JSON field by field (typed model
/// mappings) appends structure bytes itself and leaves strings and numbers to ``writeString(_:)`` and
/// ``writeNumber(_:)``, so every JSON text the runtime makes follows one set of rules.
public struct JSONWriter: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var used = 0
    /// The number of bytes written.
    public var count: Int { used }

    /// An empty writer that first allocates `capacity` bytes.
    public init(capacity: Int = 128) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written so far, as a `String`.
    public func makeString() -> String {
        String(decoding: UnsafeBufferPointer(start: base, count: used), as: UTF8.self)
    }

    /// The bytes written so far.
    public func makeArray() -> [UInt8] { Array(UnsafeBufferPointer(start: base, count: used)) }

    @inlinable @inline(__always)
    mutating func reserve(_ extra: Int) {
        if used + extra > capacity { grow(to: used + extra) }
    }

    @usableFromInline
    mutating func grow(to needed: Int) {
        let newCapacity = Swift.max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: used)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends one byte as it is (structure: `{`, `,`, `:` …).
    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        base[used] = byte
        used += 1
    }

    /// Appends bytes as they are.
    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + used).initialize(from: source, count: bytes.count)
        used += bytes.count
    }

    /// Appends bytes as they are (e.g. a key written once, ahead of time).
    @inlinable
    public mutating func append(_ bytes: some Collection<UInt8>) {
        reserve(bytes.count)
        for byte in bytes {
            base[used] = byte
            used += 1
        }
    }

    /// Writes `root` without recursion.
    public mutating func write(_ root: JSONValue) {
        var stack: [WriterFrame] = []
        var value = root
        while true {
            switch value {
            case .null:
                appendLiteral("null")
            case .bool(let flag):
                appendLiteral(flag ? "true" : "false")
            case .number(let number):
                writeNumber(number)
            case .string(let string):
                writeString(string)
            case .array(let array):
                if array.isEmpty {
                    appendLiteral("[]")
                } else {
                    append(0x5B)
                    stack.append(WriterFrame(keys: nil, values: array, index: 0))
                }
            case .object(let object):
                if object.isEmpty {
                    appendLiteral("{}")
                } else {
                    append(0x7B)
                    stack.append(WriterFrame(keys: object.keys, values: object.values, index: 0))
                }
            }
            // Find the next value to write, closing finished containers.
            while true {
                let top = stack.count - 1
                guard top >= 0 else { return }
                let index = stack[top].index
                if index == stack[top].values.count {
                    append(stack[top].keys == nil ? 0x5D : 0x7D)
                    stack.removeLast()
                    continue
                }
                if index > 0 { append(0x2C) }
                if let keys = stack[top].keys {
                    writeString(keys[index])
                    append(0x3A)
                }
                value = stack[top].values[index]
                stack[top].index = index + 1
                break
            }
        }
    }

    /// Appends a literal as it is (`null`, `true`, `[]` …).
    @inlinable @inline(__always)
    public mutating func appendLiteral(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    // MARK: Strings

    /// Writes `string` quoted and escaped like `JSON.stringify`.
    @inlinable
    public mutating func writeString(_ string: String) {
        if string.utf8.withContiguousStorageIfAvailable({ writeEscaped($0) }) != nil { return }
        var copy = string
        copy.withUTF8 { writeEscaped($0) }
    }

    @usableFromInline static let hexDigits: StaticString = "0123456789abcdef"

    @inlinable
    mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        append(0x22)
        var runStart = 0
        for i in 0..<utf8.count {
            let c = utf8[i]
            guard c < 0x20 || c == 0x22 || c == 0x5C else { continue }
            if i > runStart { append(UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
            runStart = i + 1
            append(0x5C)
            switch c {
            case 0x22: append(0x22)
            case 0x5C: append(0x5C)
            case 0x08: append(0x62)  // \b
            case 0x0C: append(0x66)  // \f
            case 0x0A: append(0x6E)  // \n
            case 0x0D: append(0x72)  // \r
            case 0x09: append(0x74)  // \t
            default:
                let hex = Self.hexDigits.utf8Start
                append(0x75)
                append(0x30)
                append(0x30)
                append(hex[Int(c >> 4)])
                append(hex[Int(c & 0xF)])
            }
        }
        if utf8.count > runStart {
            append(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        append(0x22)
    }

    // MARK: Numbers

    /// Writes a number like `JSON.stringify`: `Number.prototype.toString` digits, `null` for non-finite.
    public mutating func writeNumber(_ number: Double) {
        guard number.isFinite else {
            appendLiteral("null")
            return
        }
        if number == 0 {
            append(0x30)  // also -0
            return
        }
        // Integers below 2^53 print all their digits, which are then the shortest round-trip digits.
        if number.magnitude < 9_007_199_254_740_992, number.rounded(.towardZero) == number {
            writeInteger(Int64(number))
            return
        }
        writeShortest(number)
    }

    /// Writes an integer's decimal digits.
    @inlinable
    public mutating func writeInteger(_ value: Int64) {
        var magnitude = value.magnitude
        if value < 0 { append(0x2D) }
        // Up to 19 digits for |Int64|.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var i = 20
            repeat {
                i -= 1
                digits[i] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
            } while magnitude != 0
            append(UnsafeBufferPointer(rebasing: digits[i..<20]))
        }
    }

    /// Converts Swift's shortest round-trip `description` ("1.5e-07", "100.0", "1e+21") to JavaScript form.
    mutating func writeShortest(_ number: Double) {
        var text = number.magnitude.description
        text.withUTF8 { utf8 in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digits in
                writeShortest(description: utf8, negative: number < 0, digits: digits)
            }
        }
    }

    /// `digits` is scratch space for at most 32 digits (Swift prints at most 17 significant digits).
    private mutating func writeShortest(
        description: UnsafeBufferPointer<UInt8>, negative: Bool, digits: UnsafeMutableBufferPointer<UInt8>
    ) {
        // Collect the digits and the position of the decimal point, then JS's n (value = 0.d1…dk × 10^n).
        var digitCount = 0
        var integerDigits = 0
        var seenPoint = false
        var exponent = 0
        var exponentNegative = false
        var inExponent = false
        for c in description {
            if inExponent {
                if c == 0x2D {
                    exponentNegative = true
                } else if c >= 0x30 && c <= 0x39 {
                    exponent = exponent * 10 + Int(c - 0x30)
                }
                continue
            }
            switch c {
            case 0x30...0x39:
                if digitCount < digits.count {
                    digits[digitCount] = c
                    digitCount += 1
                }
                if !seenPoint { integerDigits += 1 }
            case 0x2E:
                seenPoint = true
            case 0x65, 0x45:
                inExponent = true
            default:
                break
            }
        }
        if exponentNegative { exponent = -exponent }
        var n = integerDigits + exponent
        var first = 0
        while first < digitCount - 1 && digits[first] == 0x30 {
            first += 1
            n -= 1
        }
        var last = digitCount
        while last > first + 1 && digits[last - 1] == 0x30 { last -= 1 }
        let significant = UnsafeBufferPointer(rebasing: digits[first..<last])
        let k = significant.count

        if negative { append(0x2D) }
        if k <= n && n <= 21 {
            append(significant)
            for _ in 0..<(n - k) { append(0x30) }
        } else if 0 < n && n <= 21 {
            append(UnsafeBufferPointer(rebasing: significant[0..<n]))
            append(0x2E)
            append(UnsafeBufferPointer(rebasing: significant[n...]))
        } else if -6 < n && n <= 0 {
            append(0x30)
            append(0x2E)
            for _ in 0..<(-n) { append(0x30) }
            append(significant)
        } else {
            append(significant[0])
            if k > 1 {
                append(0x2E)
                append(UnsafeBufferPointer(rebasing: significant[1...]))
            }
            append(0x65)  // e
            let e = n - 1
            append(e < 0 ? 0x2D : 0x2B)
            writeInteger(Int64(e.magnitude))
        }
    }
}
