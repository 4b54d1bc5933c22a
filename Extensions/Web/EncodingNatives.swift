import CJavaScriptCore
import CTextEncodings
import JSBridge
import JSBridgeBase

#if canImport(Glibc)
    import Glibc
#endif

/// The natives behind `encoding.js` (TextDecoder, TextEncoder) and `url.js` (host names): UTF-8 through
/// ``UTF8Codec``, UTF-16 here, legacy encodings through ICU's converters, UTS #46 through ICU's IDNA
/// (CTextEncodings).
extension WebExtension {
    static func declareEncodingNatives<State>(_ ext: inout ExtensionDeclaration<State>) {
        ext.native(
            "textDecodeUTF8", "(buffer: ArrayBuffer, offset: number, length: number, fatal: boolean): string | null"
        ) { call, _ throws(NativeError) in
            // With `fatal`, null when the bytes are not UTF-8. Unfinished sequences at the end are errors: a
            // streaming caller holds them back.
            guard let range = call.arrayBuffer(0) else { throw .type("textDecodeUTF8 needs an ArrayBuffer.") }
            return call.engine.makeUTF16String(capacity: range.count) { output in
                UTF8Codec.decode(UnsafeBufferPointer(range), into: output, fatal: call.bool(3))
            }
        }
        ext.native(
            "textDecodeUTF16",
            "(buffer: ArrayBuffer, offset: number, length: number, bigEndian: boolean, fatal: boolean): string | null"
        ) { call, _ throws(NativeError) in
            // With `fatal`, null for a lone surrogate or an odd byte at the end.
            guard let range = call.arrayBuffer(0) else { throw .type("textDecodeUTF16 needs an ArrayBuffer.") }
            return call.engine.makeUTF16String(capacity: range.count / 2 + 1) { output in
                utf16Decode(UnsafeBufferPointer(range), into: output, bigEndian: call.bool(3), fatal: call.bool(4))
            }
        }
        ext.native("textDecoderOpen", "(icuName: string, fatal: boolean, flags: number): object | null") {
            call, _ throws(NativeError) in
            // A converter handle (closed when collected), or null when ICU has none. flags: JSB_ICU_*
            // (jsb_text_encodings.h), where the Encoding Standard's decoder differs from ICU's.
            let flags = UInt(max(0, min(3, call.number(2))))
            guard let converter = jsb_icu_decoder_open(call.string(0), call.bool(1), flags) else {
                return JSValueMakeNull(call.context)
            }
            return JSObjectMake(call.context, ConverterClass.shared, converter)
        }
        ext.native(
            "textDecode",
            "(handle: object, buffer: ArrayBuffer, offset: number, length: number, flush: boolean): string | null"
        ) { call, _ throws(NativeError) in
            // Null on invalid input with a fatal converter. Without `flush`, the converter keeps an unfinished
            // sequence for the next call.
            guard let handle = JSValueToObject(call.context, call[0], nil),
                JSValueIsObjectOfClass(call.context, handle, ConverterClass.shared),
                let converter = JSObjectGetPrivate(handle)
            else { throw .type("textDecode needs a converter.") }
            guard let range = call.arrayBuffer(1) else { throw .type("textDecode needs an ArrayBuffer.") }
            var units: UnsafeMutablePointer<UInt16>?
            var count = 0
            let failed = jsb_icu_decode(converter, range.baseAddress, range.count, call.bool(4), &units, &count)
            defer { free(units) }
            if failed != 0 { return JSValueMakeNull(call.context) }
            return call.engine.makeString(utf16: UnsafeBufferPointer(start: units, count: count))
        }
        ext.native(
            "textEncodeInto", "(text: string, buffer: ArrayBuffer, offset: number, length: number): [number, number]"
        ) { call, _ throws(NativeError) in
            // [UTF-16 units read, bytes written]; no character is split.
            guard let range = call.arrayBuffer(1) else { throw .type("textEncodeInto needs an ArrayBuffer.") }
            let result = call.engine.withUTF16(call[0]) { units in
                UTF8Codec.encode(
                    units, into: range.baseAddress ?? UnsafeMutablePointer(bitPattern: 1)!, capacity: range.count)
            }
            let values: [JSValueRef?] = [
                JSValueMakeNumber(call.context, Double(result.read)),
                JSValueMakeNumber(call.context, Double(result.written)),
            ]
            return JSObjectMakeArray(call.context, 2, values, nil)
        }
        ext.native("textEncodeUTF8", "(text: string): ArrayBuffer") { call, _ throws(NativeError) in
            // Lone surrogates become U+FFFD.
            call.engine.withUTF16(call[0]) { units in
                let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, units.count * 3))
                let written = UTF8Codec.encode(units, into: bytes, capacity: units.count * 3).written
                return call.engine.makeArrayBuffer(realloc(bytes, max(1, written))!, count: written)
            }
        }
        ext.native(
            "textBase64Encode", "(buffer: ArrayBuffer, offset: number, length: number, url: boolean): string"
        ) { call, _ throws(NativeError) in
            // url: base64url without padding.
            guard let range = call.arrayBuffer(0) else { throw .type("textBase64Encode needs an ArrayBuffer.") }
            let url = call.bool(3)
            return call.engine.makeUTF16String(capacity: Base64.encodedLength(range.count, url: url)) {
                Base64.encode(UnsafeBufferPointer(range), into: $0, url: url)
            }
        }
        ext.native("textBase64Decode", "(text: string): ArrayBuffer") { call, _ throws(NativeError) in
            // Either alphabet; other characters skipped, stopping at "=" (Node's rule; encoding.js checks first
            // where the Infra standard's forgiving-base64 asks).
            call.engine.withUTF16(call[0]) { units in
                let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, units.count * 3 / 4 + 3))
                return call.engine.makeArrayBuffer(bytes, count: Base64.decodeForgiving(units, into: bytes))
            }
        }
        ext.native("domainToASCII", "(domain: string): string | null") { call, _ throws(NativeError) in
            // UTS #46 ToASCII as the URL Standard's "domain to ASCII" asks, or null on failure.
            call.engine.withUTF16(call[0]) { name -> JSValueRef in
                guard name.count < Int(Int32.max) / 4 else { return JSValueMakeNull(call.context) }
                var capacity = Int32(name.count * 4 + 64)
                while true {
                    let output = UnsafeMutablePointer<UInt16>.allocate(capacity: Int(capacity))
                    defer { output.deallocate() }
                    let written = jsb_domain_to_ascii(name.baseAddress, Int32(name.count), output, capacity)
                    if written <= -2 {
                        capacity = -2 - written + 1
                        continue
                    }
                    guard written >= 0 else { return JSValueMakeNull(call.context) }
                    return call.engine.makeString(utf16: UnsafeBufferPointer(start: output, count: Int(written)))
                }
            }
        }
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
