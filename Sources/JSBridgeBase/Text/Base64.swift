/// Base64, once for the whole project: the engine's `Buffer` and `atob`, the file system's encodings,
/// ``Bytes`` in plain JSON, the HTTP plugin's bodies.
///
/// Encoding writes the standard alphabet with padding or, with `url`, base64url without it. Decoding comes
/// in two strengths: ``decodeForgiving(_:into:)`` is Node's (`Buffer.from(s, "base64")`: either alphabet,
/// other characters skipped, stopping at the first `=`), ``decode(_:)`` is for input that must be base64
/// (either alphabet, padding optional, anything else refused).
public enum Base64 {
    @usableFromInline static let standard = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    @usableFromInline static let urlSafe = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Each character's 6-bit value in either alphabet; 255 for every other character.
    @usableFromInline static let values: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (index, unit) in standard.enumerated() { table[Int(unit)] = UInt8(index) }
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()

    /// How many characters ``encode(_:into:url:)`` writes for `count` bytes.
    @inlinable
    public static func encodedLength(_ count: Int, url: Bool) -> Int {
        url ? count / 3 * 4 + (count % 3 == 0 ? 0 : count % 3 + 1) : (count + 2) / 3 * 4
    }

    /// Writes the base64 text of `bytes` to `output` (``encodedLength(_:url:)`` units: ASCII in any code unit
    /// width, so a caller can fill a UTF-16 JavaScript string or UTF-8 `String` storage directly); answers the
    /// units written.
    @inlinable
    public static func encode<Unit: FixedWidthInteger & UnsignedInteger>(
        _ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<Unit>, url: Bool
    ) -> Int {
        (url ? urlSafe : standard).withUnsafeBufferPointer { table in
            var index = 0, written = 0
            let count = bytes.count
            while index + 3 <= count {
                let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                output[written] = Unit(table[Int(value >> 18)])
                output[written + 1] = Unit(table[Int((value >> 12) & 63)])
                output[written + 2] = Unit(table[Int((value >> 6) & 63)])
                output[written + 3] = Unit(table[Int(value & 63)])
                index += 3
                written += 4
            }
            let rest = count - index
            if rest > 0 {
                let value = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
                output[written] = Unit(table[Int(value >> 18)])
                output[written + 1] = Unit(table[Int((value >> 12) & 63)])
                written += 2
                if rest == 2 {
                    output[written] = Unit(table[Int((value >> 6) & 63)])
                    written += 1
                }
                if !url {
                    for _ in rest..<3 {
                        output[written] = Unit(UInt8(ascii: "="))
                        written += 1
                    }
                }
            }
            return written
        }
    }

    /// The base64 text of `bytes`.
    public static func encode(_ bytes: UnsafeRawBufferPointer, url: Bool = false) -> String {
        let length = encodedLength(bytes.count, url: url)
        guard length > 0 else { return "" }
        return String(unsafeUninitializedCapacity: length) { output in
            encode(bytes.bindMemory(to: UInt8.self), into: output.baseAddress!, url: url)
        }
    }

    /// Decodes `units` as Node does: either alphabet, characters outside both skipped, stopping at the first
    /// `=`. Writes at most `units.count * 3 / 4` bytes to `output`; answers how many.
    @inlinable
    public static func decodeForgiving<Unit: FixedWidthInteger & UnsignedInteger>(
        _ units: UnsafeBufferPointer<Unit>, into output: UnsafeMutablePointer<UInt8>
    ) -> Int {
        values.withUnsafeBufferPointer { table in
            var accumulator: UInt32 = 0, bits = 0, written = 0
            for unit in units {
                if unit == Unit(UInt8(ascii: "=")) { break }
                guard unit < 256 else { continue }
                let value = table[Int(unit)]
                if value == 255 { continue }
                accumulator = (accumulator << 6) | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output[written] = UInt8((accumulator >> UInt32(bits)) & 0xFF)
                    written += 1
                }
            }
            return written
        }
    }

    /// The bytes `text` encodes (either alphabet, padding optional); nil when it holds anything else, a `=`
    /// anywhere but at the end, or a length no base64 text has.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var utf8 = Array(text.utf8)
        while utf8.last == UInt8(ascii: "=") { utf8.removeLast() }
        guard text.utf8.count - utf8.count <= 2, utf8.count % 4 != 1 else { return nil }
        for unit in utf8 where values[Int(unit)] == 255 { return nil }
        guard !utf8.isEmpty else { return [] }
        return [UInt8](unsafeUninitializedCapacity: utf8.count * 3 / 4) { output, count in
            count = utf8.withUnsafeBufferPointer { decodeForgiving($0, into: output.baseAddress!) }
        }
    }
}
