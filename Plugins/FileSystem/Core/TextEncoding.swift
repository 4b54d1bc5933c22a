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

    /// `bytes` as text (invalid UTF-8 becomes U+FFFD, as Node decodes it).
    public func encode(_ bytes: [UInt8]) -> String {
        switch self {
        case .utf8: return String(decoding: bytes, as: UTF8.self)
        case .latin1: return Self.latin1String(bytes)
        case .hex:
            let digits = Array("0123456789abcdef".utf8)
            return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
                for (i, byte) in bytes.enumerated() {
                    out[2 * i] = digits[Int(byte >> 4)]
                    out[2 * i + 1] = digits[Int(byte & 15)]
                }
                return bytes.count * 2
            }
        case .base64, .base64url: return Self.base64(bytes, url: self == .base64url)
        }
    }

    /// The bytes `text` stands for. Like Node, decoding is forgiving: hex stops at the first bad pair, base64
    /// skips characters outside its alphabet, latin1 keeps each character's low byte.
    public func decode(_ text: String) -> [UInt8] {
        switch self {
        case .utf8: return Array(text.utf8)
        case .latin1: return Self.latin1Bytes(text)
        case .hex:
            var bytes: [UInt8] = []
            var high: UInt8?
            for unit in text.utf8 {
                guard let value = Self.hexValue(unit) else { break }
                if let h = high {
                    bytes.append(h << 4 | value)
                    high = nil
                } else {
                    high = value
                }
            }
            return bytes
        case .base64, .base64url: return Self.fromBase64(text)
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

    private static func hexValue(_ unit: UInt8) -> UInt8? {
        switch unit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): unit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): unit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): unit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func base64(_ bytes: [UInt8], url: Bool) -> String {
        let alphabet = Array(
            (url
                ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
                : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/").utf8)
        let full = bytes.count / 3
        let rest = bytes.count % 3
        let length = url ? full * 4 + (rest == 0 ? 0 : rest + 1) : (bytes.count + 2) / 3 * 4
        return String(unsafeUninitializedCapacity: length) { out in
            var o = 0
            var i = 0
            for _ in 0..<full {
                let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                out[o] = alphabet[Int(n >> 18 & 63)]
                out[o + 1] = alphabet[Int(n >> 12 & 63)]
                out[o + 2] = alphabet[Int(n >> 6 & 63)]
                out[o + 3] = alphabet[Int(n & 63)]
                i += 3
                o += 4
            }
            if rest > 0 {
                let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
                out[o] = alphabet[Int(n >> 18 & 63)]
                out[o + 1] = alphabet[Int(n >> 12 & 63)]
                o += 2
                if rest == 2 {
                    out[o] = alphabet[Int(n >> 6 & 63)]
                    o += 1
                }
                if !url {
                    while o < length {
                        out[o] = UInt8(ascii: "=")
                        o += 1
                    }
                }
            }
            return o
        }
    }

    private static func fromBase64(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for unit in text.utf8 {
            if unit == UInt8(ascii: "=") { break }
            let value: UInt32
            switch unit {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(unit - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(unit - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(unit - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): value = 63
            default: continue
            }
            buffer = buffer << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return bytes
    }
}
