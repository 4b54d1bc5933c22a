import CJavaScriptCore
import JSBridgeCore

/// The natives behind js/encoding.js (TextDecoder, TextEncoder.encodeInto) and js/url.js (host names):
/// UTF-8 and UTF-16 decoded here, legacy encodings through ICU's converters, UTS #46 through ICU's IDNA.
extension JSRuntime {
    func installEncodingNatives() {
        // textDecodeUTF8(arrayBuffer, offset, length, fatal) → string, or null when `fatal` and the bytes are
        // not UTF-8. Unfinished sequences at the end are errors: a streaming caller holds them back.
        defineNative("textDecodeUTF8") { [unowned(unsafe) self] call throws(NativeError) in
            guard let range = encodingByteRange(call, 0) else { throw .type("textDecodeUTF8 needs an ArrayBuffer.") }
            return makeUTF16String(capacity: range.count) { output in
                TextCodecs.utf8Decode(UnsafeBufferPointer(range), into: output, fatal: call.bool(3))
            }
        }
        // textDecodeUTF16(arrayBuffer, offset, length, bigEndian, fatal) → string, or null when `fatal` and
        // there is a lone surrogate or an odd byte at the end.
        defineNative("textDecodeUTF16") { [unowned(unsafe) self] call throws(NativeError) in
            guard let range = encodingByteRange(call, 0) else { throw .type("textDecodeUTF16 needs an ArrayBuffer.") }
            return makeUTF16String(capacity: range.count / 2 + 1) { output in
                TextCodecs.utf16Decode(
                    UnsafeBufferPointer(range), into: output, bigEndian: call.bool(3), fatal: call.bool(4))
            }
        }
        // textDecoderOpen(icuName, fatal, flags) → a converter handle (closed when collected), or null when ICU
        // has none. flags: JSB_ICU_* (shim.h), where the Encoding Standard's decoder differs from ICU's.
        defineNative("textDecoderOpen") { [unowned(unsafe) self] call throws(NativeError) in
            let flags = UInt(max(0, min(3, call.number(2))))
            guard let converter = jsb_icu_decoder_open(call.string(0), call.bool(1), flags) else {
                return JSValueMakeNull(context)
            }
            return JSObjectMake(context, ConverterClass.shared, converter)
        }
        // textDecode(handle, arrayBuffer, offset, length, flush) → string, or null on invalid input with a
        // fatal converter. Without `flush`, the converter keeps an unfinished sequence for the next call.
        defineNative("textDecode") { [unowned(unsafe) self] call throws(NativeError) in
            guard let handle = JSValueToObject(context, call[0], nil),
                JSValueIsObjectOfClass(context, handle, ConverterClass.shared),
                let converter = JSObjectGetPrivate(handle)
            else { throw .type("textDecode needs a converter.") }
            guard let range = encodingByteRange(call, 1) else { throw .type("textDecode needs an ArrayBuffer.") }
            var units: UnsafeMutablePointer<UInt16>?
            var count = 0
            let failed = jsb_icu_decode(converter, range.baseAddress, range.count, call.bool(4), &units, &count)
            defer { free(units) }
            if failed != 0 { return JSValueMakeNull(context) }
            let ref = JSStringCreateWithCharacters(units ?? UnsafeMutablePointer(bitPattern: 2)!, count)!
            defer { JSStringRelease(ref) }
            return JSValueMakeString(context, ref)
        }
        // textEncodeInto(string, arrayBuffer, offset, length) → [UTF-16 units read, bytes written].
        defineNative("textEncodeInto") { [unowned(unsafe) self] call throws(NativeError) in
            guard let range = encodingByteRange(call, 1) else { throw .type("textEncodeInto needs an ArrayBuffer.") }
            guard let ref = JSValueToStringCopy(context, call[0], nil) else { return nil }
            defer { JSStringRelease(ref) }
            let units = UnsafeBufferPointer(start: JSStringGetCharactersPtr(ref), count: JSStringGetLength(ref))
            let result = NodeCodecs.utf8Encode(
                units, into: range.baseAddress ?? UnsafeMutablePointer(bitPattern: 1)!, capacity: range.count)
            let values: [JSValueRef?] = [
                JSValueMakeNumber(context, Double(result.read)), JSValueMakeNumber(context, Double(result.written)),
            ]
            return JSObjectMakeArray(context, 2, values, nil)
        }
        // domainToASCII(domain) → UTS #46 ToASCII as the URL Standard's "domain to ASCII" asks, or null on failure.
        defineNative("domainToASCII") { [unowned(unsafe) self] call throws(NativeError) in
            guard let ref = JSValueToStringCopy(context, call[0], nil) else { return JSValueMakeNull(context) }
            defer { JSStringRelease(ref) }
            let length = JSStringGetLength(ref)
            guard length < Int(Int32.max) / 4 else { return JSValueMakeNull(context) }
            var capacity = Int32(length * 4 + 64)
            while true {
                let output = UnsafeMutablePointer<UInt16>.allocate(capacity: Int(capacity))
                defer { output.deallocate() }
                var errors: UInt32 = 0
                let written = jsb_idna_to_ascii(
                    JSStringGetCharactersPtr(ref), Int32(length), output, capacity, &errors)
                if written <= -2 {
                    capacity = -2 - written + 1
                    continue
                }
                guard written >= 0, errors & ~jsb_idna_ignored_errors() == 0 else { return JSValueMakeNull(context) }
                let result = JSStringCreateWithCharacters(output, Int(written))!
                defer { JSStringRelease(result) }
                return JSValueMakeString(context, result)
            }
        }
    }

    /// The bytes of ArrayBuffer (or SharedArrayBuffer) argument `index` from byte `start` (argument
    /// `index + 1`) for `count` (argument `index + 2`) bytes, clamped to the buffer; nil when it is not one.
    private func encodingByteRange(_ call: NativeCall, _ index: Int) -> UnsafeMutableBufferPointer<UInt8>? {
        guard let object = JSValueToObject(context, call[index], nil),
            JSValueGetTypedArrayType(context, call[index], nil) == kJSTypedArrayTypeArrayBuffer
        else { return nil }
        let size = JSObjectGetArrayBufferByteLength(context, object, nil)
        guard let base = JSObjectGetArrayBufferBytesPtr(context, object, nil) else {
            return size == 0 ? UnsafeMutableBufferPointer(start: nil, count: 0) : nil
        }
        let start = min(size, Int(max(0, call.number(index + 1))))
        let count = min(size - start, Int(max(0, call.number(index + 2))))
        return UnsafeMutableBufferPointer(start: base.assumingMemoryBound(to: UInt8.self) + start, count: count)
    }
}

/// The JS class of ICU converter handles: the private data is the `UConverter`, closed by the finalizer.
enum ConverterClass {
    nonisolated(unsafe) static let shared: JSClassRef = {
        var definition = kJSClassDefinitionEmpty
        definition.className = staticCString("TextConverter")
        definition.finalize = { object in
            guard let object, let converter = JSObjectGetPrivate(object) else { return }
            jsb_icu_decoder_close(converter)
        }
        return JSClassCreate(&definition)
    }()
}

/// TextDecoder's UTF-8 and UTF-16 decoders over raw memory, as the Encoding Standard specifies them.
enum TextCodecs {
    /// Decodes UTF-8 into UTF-16 (at most one unit per byte), one U+FFFD per maximal ill-formed subpart;
    /// answers the units written, or nil at the first error when `fatal`.
    static func utf8Decode(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt16>, fatal: Bool)
        -> Int?
    {
        guard let base = bytes.baseAddress else { return 0 }
        let count = bytes.count
        var index = 0, written = 0
        while index < count {
            // Eight ASCII bytes at a time while they last.
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                // Each byte widened to a 16-bit lane, four lanes per store.
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
            // Well-formed two- and three-byte sequences (Latin, Greek, CJK…) without the general loop below;
            // anything else, including E0/ED's narrower second-byte ranges, takes that loop.
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
                if fatal { return nil }
                output[written] = 0xFFFD
                written += 1
                index += 1
                continue
            }
            var next = index + 1
            var valid = true
            for step in 0..<needed {
                guard next < count else {
                    valid = false
                    break
                }
                let byte = base[next]
                let (low, high) = step == 0 ? (lower, upper) : (UInt8(0x80), UInt8(0xBF))
                guard byte >= low && byte <= high else {
                    valid = false
                    break
                }
                code = (code << 6) | UInt32(byte & 0x3F)
                next += 1
            }
            if !valid {
                // The maximal subpart (lead plus the continuation bytes that fit) becomes one U+FFFD.
                if fatal { return nil }
                output[written] = 0xFFFD
                written += 1
                index = next
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
            index = next
        }
        return written
    }

    /// Decodes UTF-16 (little- or big-endian) with lone surrogates and an odd final byte as errors (U+FFFD,
    /// or nil when `fatal`); answers the units written (at most one per two bytes, plus one).
    static func utf16Decode(
        _ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt16>, bigEndian: Bool, fatal: Bool
    ) -> Int? {
        guard let base = bytes.baseAddress else { return 0 }
        let units = bytes.count / 2
        let unit: (Int) -> UInt16 =
            bigEndian
            ? { UInt16(base[2 * $0]) << 8 | UInt16(base[2 * $0 + 1]) }
            : { UInt16(base[2 * $0]) | UInt16(base[2 * $0 + 1]) << 8 }
        var index = 0, written = 0
        var leadPending = false
        while index < units {
            // Little-endian input on a little-endian machine: four units at a time while none is a surrogate
            // (a lane whose top five bits are 11011 makes `(lanes ^ D800…) - 1` borrow into its high bit).
            if !bigEndian, 1.littleEndian == 1 {
                while index + 4 <= units {
                    let word = UnsafeRawPointer(base + 2 * index).loadUnaligned(as: UInt64.self)
                    let lanes = (word & 0xF800_F800_F800_F800) ^ 0xD800_D800_D800_D800
                    if (lanes &- 0x0001_0001_0001_0001) & ~lanes & 0x8000_8000_8000_8000 != 0 { break }
                    UnsafeMutableRawPointer(output + written).storeBytes(of: word, as: UInt64.self)
                    index += 4
                    written += 4
                }
                guard index < units else { break }
            }
            let value = unit(index)
            index += 1
            if value & 0xF800 != 0xD800 {
                output[written] = value
                written += 1
                continue
            }
            if value <= 0xDBFF, index < units {
                let next = unit(index)
                if next >= 0xDC00 && next <= 0xDFFF {
                    output[written] = value
                    output[written + 1] = next
                    written += 2
                    index += 1
                    continue
                }
            }
            // A lone lead at the very end with an odd byte after it makes a single error with that byte.
            if value <= 0xDBFF, index == units, bytes.count % 2 == 1 {
                leadPending = true
                break
            }
            if fatal { return nil }
            output[written] = 0xFFFD
            written += 1
        }
        if leadPending || bytes.count % 2 == 1 {
            if fatal { return nil }
            output[written] = 0xFFFD
            written += 1
        }
        return written
    }
}
