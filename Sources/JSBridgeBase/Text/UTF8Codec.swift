/// UTF-8, once for the whole project, as the Encoding Standard reads it: what is well-formed (``validate(_:)``),
/// decoding to UTF-16 with one U+FFFD per maximal ill-formed subpart (``decode(_:into:fatal:)``), and encoding
/// UTF-16 with lone surrogates as U+FFFD (``encode(_:into:capacity:)``). The engine's `TextDecoder`,
/// `TextEncoder` and `Buffer`, and the plugins' checks of text, all use these.
public enum UTF8Codec {
    /// One step over the sequence of `count` bytes at `base` that starts at `index` with a byte that is not
    /// ASCII: its scalar and where the next sequence starts, or `scalar == nil` for an ill-formed one, with
    /// `next` after its maximal subpart (the lead and the continuation bytes that fit).
    @inlinable @inline(__always)
    public static func step(_ base: UnsafePointer<UInt8>, _ count: Int, at index: Int) -> (scalar: UInt32?, next: Int) {
        let lead = base[index]
        var needed = 0, code: UInt32 = 0, lower: UInt8 = 0x80, upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: (needed, code) = (1, UInt32(lead & 0x1F))
        case 0xE0...0xEF:
            (needed, code) = (2, UInt32(lead & 0x0F))
            if lead == 0xE0 { lower = 0xA0 }
            if lead == 0xED { upper = 0x9F }
        case 0xF0...0xF4:
            (needed, code) = (3, UInt32(lead & 0x07))
            if lead == 0xF0 { lower = 0x90 }
            if lead == 0xF4 { upper = 0x8F }
        default:
            return (nil, index + 1)
        }
        var next = index + 1
        for position in 0..<needed {
            guard next < count else { return (nil, next) }
            let byte = base[next]
            let (low, high) = position == 0 ? (lower, upper) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= low && byte <= high else { return (nil, next) }
            code = (code << 6) | UInt32(byte & 0x3F)
            next += 1
        }
        return (code, next)
    }

    /// Whether eight bytes from `index` are all ASCII.
    @usableFromInline @inline(__always)
    static func asciiWord(_ base: UnsafePointer<UInt8>, at index: Int) -> UInt64? {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        return word & 0x8080_8080_8080_8080 == 0 ? word : nil
    }

    /// The offset of the first byte of the first ill-formed sequence in `bytes` (a sequence cut short at the
    /// end included), or nil when they are well-formed UTF-8.
    public static func validate(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        while index < count {
            while index + 8 <= count, asciiWord(base, at: index) != nil { index += 8 }
            guard index < count else { break }
            if base[index] < 0x80 {
                index += 1
                continue
            }
            let (scalar, next) = step(base, count, at: index)
            if scalar == nil { return index }
            index = next
        }
        return nil
    }

    /// Whether `bytes` are well-formed UTF-8.
    public static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        if let valid = bytes.withContiguousStorageIfAvailable({ validate($0) == nil }) { return valid }
        return Array(bytes).withUnsafeBufferPointer { validate($0) == nil }
    }

    /// Decodes UTF-8 into UTF-16 (at most one unit per byte), one U+FFFD per maximal ill-formed subpart;
    /// answers the units written, or nil at the first error when `fatal`.
    public static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt16>, fatal: Bool
    )
        -> Int?
    {
        guard let base = bytes.baseAddress else { return 0 }
        let count = bytes.count
        var index = 0, written = 0
        while index < count {
            // Eight ASCII bytes at a time while they last, each widened to a 16-bit lane, four lanes per store.
            while index + 8 <= count, let word = asciiWord(base, at: index) {
                for half in 0..<2 {
                    var lanes = (word >> (32 * UInt64(half))) & 0xFFFF_FFFF
                    lanes = (lanes | (lanes << 16)) & 0x0000_FFFF_0000_FFFF
                    lanes = (lanes | (lanes << 8)) & 0x00FF_00FF_00FF_00FF
                    UnsafeMutableRawPointer(output + written + 4 * half).storeBytes(of: lanes, as: UInt64.self)
                }
                index += 8
                written += 8
            }
            guard index < count else { break }
            let lead = base[index]
            if lead < 0x80 {
                output[written] = UInt16(lead)
                written += 1
                index += 1
                continue
            }
            // Well-formed two- and three-byte sequences (Latin, Greek, CJK…) without the general step;
            // anything else, including E0/ED's narrower second-byte ranges, takes it.
            if lead >= 0xC2, lead <= 0xDF, index + 1 < count, base[index + 1] & 0xC0 == 0x80 {
                output[written] = UInt16(lead & 0x1F) << 6 | UInt16(base[index + 1] & 0x3F)
                written += 1
                index += 2
                continue
            }
            if lead >= 0xE1, lead <= 0xEF, lead != 0xED, index + 2 < count, base[index + 1] & 0xC0 == 0x80,
                base[index + 2] & 0xC0 == 0x80
            {
                output[written] =
                    UInt16(lead & 0x0F) << 12 | UInt16(base[index + 1] & 0x3F) << 6 | UInt16(base[index + 2] & 0x3F)
                written += 1
                index += 3
                continue
            }
            let (scalar, next) = step(base, count, at: index)
            index = next
            guard let code = scalar else {
                if fatal { return nil }
                output[written] = 0xFFFD
                written += 1
                continue
            }
            if code >= 0x10000 {
                let value = code - 0x10000
                output[written] = UInt16(0xD800 + (value >> 10))
                output[written + 1] = UInt16(0xDC00 + (value & 0x3FF))
                written += 2
            } else {
                output[written] = UInt16(code)
                written += 1
            }
        }
        return written
    }

    /// Encodes UTF-16 `units` as UTF-8 into `output` up to `capacity` bytes, never splitting a character
    /// (lone surrogates become U+FFFD); answers the units read and the bytes written.
    public static func encode(
        _ units: UnsafeBufferPointer<UInt16>, into output: UnsafeMutablePointer<UInt8>, capacity: Int
    )
        -> (read: Int, written: Int)
    {
        var read = 0, written = 0
        let count = units.count
        while read < count {
            var code = UInt32(units[read])
            var consumed = 1
            if code < 0x80 {
                if written >= capacity { break }
                output[written] = UInt8(code)
                written += 1
                read += 1
                continue
            }
            if code >= 0xD800 && code <= 0xDFFF {
                if code <= 0xDBFF, read + 1 < count, units[read + 1] >= 0xDC00, units[read + 1] <= 0xDFFF {
                    code = 0x10000 + ((code - 0xD800) << 10) + (UInt32(units[read + 1]) - 0xDC00)
                    consumed = 2
                } else {
                    code = 0xFFFD
                }
            }
            let size = code < 0x800 ? 2 : code < 0x10000 ? 3 : 4
            if written + size > capacity { break }
            switch size {
            case 2:
                output[written] = UInt8(0xC0 | (code >> 6))
                output[written + 1] = UInt8(0x80 | (code & 0x3F))
            case 3:
                output[written] = UInt8(0xE0 | (code >> 12))
                output[written + 1] = UInt8(0x80 | ((code >> 6) & 0x3F))
                output[written + 2] = UInt8(0x80 | (code & 0x3F))
            default:
                output[written] = UInt8(0xF0 | (code >> 18))
                output[written + 1] = UInt8(0x80 | ((code >> 12) & 0x3F))
                output[written + 2] = UInt8(0x80 | ((code >> 6) & 0x3F))
                output[written + 3] = UInt8(0x80 | (code & 0x3F))
            }
            written += size
            read += consumed
        }
        return (read, written)
    }
}
