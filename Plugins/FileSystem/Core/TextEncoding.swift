import JSBridgeBase

/// The encodings files are read and written in as text: `utf8`, `base64`, `base64url`, `hex`, `latin1`
/// (also the form bytes take crossing the bridge: one character per byte).
public enum TextEncoding: String, Sendable, CaseIterable {
    case utf8, base64, base64url, hex, latin1

    /// The encoding named `name` as Node spells it (`utf-8`, `binary`, `ucs2` is not supported); nil otherwise.
    public init?(named name: String) {
        switch name.lowercased() {
        case "utf8", "utf-8": self = .utf8
        case "base64": self = .base64
        case "base64url": self = .base64url
        case "hex": self = .hex
        case "latin1", "binary": self = .latin1
        default: return nil
        }
    }

    /// The longest string JavaScriptCore holds: 2^31 − 1 UTF-16 units.
    public static let maxStringLength = Int(Int32.max)

    /// The most UTF-16 units `byteCount` bytes become as text in this encoding.
    public func maxTextLength(_ byteCount: Int) -> Int {
        switch self {
        case .utf8, .latin1: byteCount
        case .hex: 2 * byteCount
        case .base64, .base64url: (byteCount + 2) / 3 * 4
        }
    }

    /// `bytes` as text (invalid UTF-8 becomes U+FFFD, as Node decodes it).
    public func encode(_ bytes: [UInt8]) -> String {
        switch self {
        case .utf8: return String(decoding: bytes, as: UTF8.self)
        case .latin1: return Self.latin1String(bytes)
        case .hex: return Hex.encode(bytes)
        case .base64, .base64url: return bytes.withUnsafeBytes { Base64.encode($0, url: self == .base64url) }
        }
    }

    /// The bytes `text` stands for. Like Node, decoding is forgiving: hex stops at the first bad pair, base64
    /// skips characters outside its alphabet, latin1 keeps each character's low byte.
    public func decode(_ text: String) -> [UInt8] {
        switch self {
        case .utf8: return Array(text.utf8)
        case .latin1: return Self.latin1Bytes(text)
        case .hex: return Self.decoding(text, capacity: text.utf8.count / 2) { Hex.decodeForgiving($0, into: $1) }
        case .base64, .base64url:
            return Self.decoding(text, capacity: text.utf8.count * 3 / 4) { Base64.decodeForgiving($0, into: $1) }
        }
    }

    /// One character per byte (U+0000…U+00FF), written as UTF-8 straight into the string's storage.
    static func latin1String(_ bytes: [UInt8]) -> String {
        var high = 0
        for byte in bytes where byte >= 0x80 { high += 1 }
        return String(unsafeUninitializedCapacity: bytes.count + high) { out in
            var i = 0
            for byte in bytes {
                if byte < 0x80 {
                    out[i] = byte
                    i += 1
                } else {
                    out[i] = 0xC0 | byte >> 6
                    out[i + 1] = 0x80 | byte & 0x3F
                    i += 2
                }
            }
            return i
        }
    }

    /// The low byte of each UTF-16 unit (each character of a latin1 string).
    static func latin1Bytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var utf8 = text.utf8.makeIterator()
        while let lead = utf8.next() {
            if lead < 0x80 {
                bytes.append(lead)
            } else if lead < 0xE0, let next = utf8.next() {
                bytes.append(UInt8(truncatingIfNeeded: (UInt32(lead & 0x1F) << 6) | UInt32(next & 0x3F)))
            } else {
                // A character beyond U+07FF: decode it whole and keep its low byte, as Node does.
                var scalar = UInt32(lead & (lead < 0xF0 ? 0x0F : 0x07))
                for _ in 0..<(lead < 0xF0 ? 2 : 3) { scalar = scalar << 6 | UInt32((utf8.next() ?? 0x80) & 0x3F) }
                if scalar > 0xFFFF {
                    bytes.append(UInt8(truncatingIfNeeded: 0xD800 + ((scalar - 0x10000) >> 10)))
                    bytes.append(UInt8(truncatingIfNeeded: 0xDC00 + ((scalar - 0x10000) & 0x3FF)))
                } else {
                    bytes.append(UInt8(truncatingIfNeeded: scalar))
                }
            }
        }
        return bytes
    }

    /// The bytes `decode` writes from `text`'s UTF-8 into a buffer of `capacity` bytes.
    private static func decoding(
        _ text: String, capacity: Int,
        _ decode: (UnsafeBufferPointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Int
    ) -> [UInt8] {
        var text = text
        return text.withUTF8 { units in
            [UInt8](unsafeUninitializedCapacity: max(1, capacity)) { output, count in
                count = decode(units, output.baseAddress!)
            }
        }
    }
}
