// Keys, values and group names are JavaScript strings: UTF-16 that may hold lone surrogates, which neither a
// Swift `String` nor UTF-8 can carry. Stores therefore keep WTF-8 (UTF-8 that also encodes a lone surrogate
// as its 3-byte form): for every well-formed string it is exactly UTF-8, so data written before this rule
// reads back unchanged and needs no migration, and distinct JavaScript strings never share bytes. On the Swift
// side a lone surrogate is spelled with an escape (see ``StorageText``); see docs/storage.md.

/// The escaped form in which a store's `String`s carry any JavaScript string, and its WTF-8 bytes on disk.
///
/// U+FFFF followed by four uppercase hexadecimal digits (`0-9A-F`) stands for that one UTF-16 code unit; the
/// escape is used for lone surrogates, and for U+FFFF itself where four such digits follow it. Every other
/// character — a U+FFFF not followed by four uppercase hex digits included — stands for itself, so
/// well-formed text is its own escaped form unless it holds U+FFFF followed by four hex digits. (U+FFFF is a
/// noncharacter, which Unicode reserves for internal use such as this.)
public enum StorageText {
    /// The escape character, U+FFFF.
    public static let escape: Unicode.Scalar = "\u{FFFF}"

    /// The WTF-8 bytes of the JavaScript string that `text` (escaped form) stands for.
    public static func bytes(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { utf8 in
            // U+FFFF is EF BF BF in UTF-8: without an EF byte nothing is escaped.
            guard utf8.contains(0xEF) else { return Array(utf8) }
            return decodeEscapes(Array(utf8))
        }
    }

    /// Calls `body` with the WTF-8 bytes of `text`: its own UTF-8 storage when it holds no escape (the common
    /// case, without a copy).
    public static func withBytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var text = text
        if let result = text.withUTF8({ $0.contains(0xEF) ? nil : body($0) }) { return result }
        return bytes(text).withUnsafeBufferPointer(body)
    }

    /// How many bytes ``bytes(_:)`` gives for `text` (what a key or value counts against the quota).
    public static func byteCount(_ text: String) -> Int {
        var text = text
        let plain = text.withUTF8 { $0.contains(0xEF) ? nil : $0.count }
        return plain ?? bytes(text).count
    }

    /// The escaped form of WTF-8 `bytes` (ill-formed sequences other than surrogates become U+FFFD, as
    /// UTF-8 decoding does).
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard needsEscapes(bytes) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if i + 2 < bytes.count, let unit = escapedUnit(b, bytes[i + 1], bytes[i + 2]),
                unit != 0xFFFF || hexFollows(bytes, i + 3)
            {
                appendEscape(unit, to: &out)
                i += 3
            } else {
                out.append(b)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The escaped form of WTF-8 `bytes`.
    public static func string(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { string($0) }
    }

    /// The one escaped form of `text` (a non-canonical escape such as U+FFFF "0041" becomes "A").
    public static func canonical(_ text: String) -> String {
        guard text.unicodeScalars.contains(escape) else { return text }
        return string(bytes(text))
    }

    /// Byte order of the stored (WTF-8) form: the key order of every store.
    public static func less(_ a: String, _ b: String) -> Bool {
        if !a.unicodeScalars.contains(escape), !b.unicodeScalars.contains(escape) {
            return a.utf8.lexicographicallyPrecedes(b.utf8)
        }
        return bytes(a).lexicographicallyPrecedes(bytes(b))
    }

    // MARK: - Encoding details

    /// The code unit a 3-byte sequence stands for when it must be escaped: a surrogate (ED A0…BF xx) or
    /// U+FFFF (EF BF BF).
    private static func escapedUnit(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8) -> UInt16? {
        if b0 == 0xED, (0xA0...0xBF).contains(b1), (0x80...0xBF).contains(b2) {
            return 0xD000 | UInt16(b1 & 0x3F) << 6 | UInt16(b2 & 0x3F)
        }
        if b0 == 0xEF, b1 == 0xBF, b2 == 0xBF { return 0xFFFF }
        return nil
    }

    private static func needsEscapes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i + 2 < bytes.count {
            if (bytes[i] == 0xED || bytes[i] == 0xEF), escapedUnit(bytes[i], bytes[i + 1], bytes[i + 2]) != nil {
                return true
            }
            i += 1
        }
        return false
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Whether four uppercase hex digits start at `bytes[i]` (after a U+FFFF, they would read as an escape).
    private static func hexFollows(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        guard i + 4 <= bytes.count else { return false }
        return (i..<i + 4).allSatisfy { hexValue(bytes[$0]) != nil }
    }

    private static func appendEscape(_ unit: UInt16, to out: inout [UInt8]) {
        out.append(contentsOf: [0xEF, 0xBF, 0xBF])
        for shift in stride(from: 12, through: 0, by: -4) { out.append(hexDigits[Int(unit >> UInt16(shift) & 0xF)]) }
    }

    private static func hexValue(_ byte: UInt8) -> UInt16? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt16(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt16(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The escape at `utf8[i...]` (U+FFFF and four hex digits), or nil.
    private static func unit(at i: Int, in utf8: [UInt8]) -> UInt16? {
        guard i + 6 < utf8.count, utf8[i] == 0xEF, utf8[i + 1] == 0xBF, utf8[i + 2] == 0xBF else { return nil }
        var unit: UInt16 = 0
        for k in 3..<7 {
            guard let digit = hexValue(utf8[i + k]) else { return nil }
            unit = unit << 4 | digit
        }
        return unit
    }

    /// UTF-8 with escapes -> WTF-8. An escaped surrogate pair becomes its 4-byte character (WTF-8 never
    /// spells a pair as two 3-byte halves).
    private static func decodeEscapes(_ utf8: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var i = 0
        while i < utf8.count {
            guard let unit = unit(at: i, in: utf8) else {
                out.append(utf8[i])
                i += 1
                continue
            }
            i += 7
            if (0xD800...0xDBFF).contains(unit), let low = Self.unit(at: i, in: utf8), (0xDC00...0xDFFF).contains(low) {
                let scalar = 0x10000 + (UInt32(unit - 0xD800) << 10 | UInt32(low - 0xDC00))
                out.append(contentsOf: [
                    0xF0 | UInt8(scalar >> 18), 0x80 | UInt8(scalar >> 12 & 0x3F), 0x80 | UInt8(scalar >> 6 & 0x3F),
                    0x80 | UInt8(scalar & 0x3F),
                ])
                i += 7
                continue
            }
            // Any other BMP code unit (a lone surrogate included) in its 1- to 3-byte form.
            if unit < 0x80 {
                out.append(UInt8(unit))
            } else if unit < 0x800 {
                out.append(contentsOf: [0xC0 | UInt8(unit >> 6), 0x80 | UInt8(unit & 0x3F)])
            } else {
                out.append(contentsOf: [
                    0xE0 | UInt8(unit >> 12), 0x80 | UInt8(unit >> 6 & 0x3F), 0x80 | UInt8(unit & 0x3F),
                ])
            }
        }
        return out
    }
}
