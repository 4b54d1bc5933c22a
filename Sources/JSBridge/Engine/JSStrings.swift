import CJavaScriptCore
import Glibc

/// Calls `body` with a temporary `JSStringRef` for `string`, released afterwards.
///
/// The closure scope keeps the string alive for the whole C call (DESIGN §7: a wrapper released in
/// `deinit` may be freed before the call that uses it).
@inline(__always)
package func withJSString<R>(_ string: String, _ body: (JSStringRef) throws -> R) rethrows -> R {
    let ref = makeJSString(string)
    defer { JSStringRelease(ref) }
    return try body(ref)
}

/// Creates a retained `JSStringRef` (the caller releases it); exact for any Swift string, NULs included.
package func makeJSString(_ string: String) -> JSStringRef {
    // Fast path: text without NUL goes through the UTF-8 C-string constructor (a Swift string is valid UTF-8,
    // which it decodes exactly); converting to UTF-16 here cost ~100 instructions a character. `strlen` finds
    // an interior NUL in the same C string (vectorised; a Swift loop over `utf8` took ~14 instructions a byte).
    let length = string.utf8.count
    if let ref = string.withCString({ strlen($0) == length ? JSStringCreateWithUTF8CString($0) : nil }) {
        return ref
    }
    let units = Array(string.utf16)
    return units.withUnsafeBufferPointer { JSStringCreateWithCharacters($0.baseAddress, $0.count) }
}

/// Creates a retained `JSStringRef` from text known to contain no NUL (JSON text), via UTF-8.
package func makeJSStringFromNULFreeUTF8(_ string: String) -> JSStringRef {
    string.withCString { JSStringCreateWithUTF8CString($0) }
}

extension String {
    /// Copies a JavaScript string (UTF-16; lone surrogates become U+FFFD).
    init(jsString ref: JSStringRef) {
        let length = JSStringGetLength(ref)
        guard length > 0 else {
            self = ""
            return
        }
        // JavaScriptCore writes UTF-8 straight from its 8-bit or 16-bit storage (no UTF-16 copy of an 8-bit
        // string), but stops at a lone surrogate: a short result goes the repairing UTF-16 way instead.
        let capacity = JSStringGetMaximumUTF8CStringSize(ref)
        let converted = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer -> String? in
            let written = JSStringGetUTF8CString(ref, buffer.baseAddress, capacity) - 1
            guard written >= 0 else { return nil }
            return UnsafeRawBufferPointer(start: buffer.baseAddress, count: written).withMemoryRebound(
                to: UInt8.self
            ) { bytes in
                utf16Length(ofUTF8: bytes) == length ? String(decoding: bytes, as: UTF8.self) : nil
            }
        }
        if let converted {
            self = converted
        } else {
            self = String(
                decoding: UnsafeBufferPointer(start: JSStringGetCharactersPtr(ref), count: length), as: UTF16.self)
        }
    }
}

/// How many UTF-16 code units the (valid) UTF-8 `bytes` encode: one per scalar, two for those of four bytes.
@inline(__always)
private func utf16Length(ofUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var count = 0
    for byte in bytes {
        count &+= (byte & 0xC0 != 0x80 ? 1 : 0) &+ (byte >= 0xF0 ? 1 : 0)
    }
    return count
}

/// A string literal as a C string: literals are stored NUL-terminated, for the life of the process.
package func staticCString(_ literal: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Property-name strings created once and kept for the life of the process.
enum JSKeys {
    nonisolated(unsafe) static let length = JSStringCreateWithUTF8CString("length")!
}
