import CJavaScriptCore
import Testing

@testable import JSBridge

/// `String(jsString:)` takes JavaScriptCore's UTF-8 conversion when it is complete and repairs lone surrogates
/// through UTF-16 otherwise: both ways must give what decoding the UTF-16 units (with repair) gives.
@Suite struct JSStringsTests {
    /// The engine's options first: JavaScriptCore fixes them at its first call, which here is a string's, and
    /// the rest of the test process must still get polled traps (``JSRuntime/engineOptions``).
    init() { JSRuntime.engineOptions }

    /// What `String(jsString:)` must return for `units`: Swift's repairing UTF-16 decoding.
    private func expected(_ units: [UInt16]) -> String { String(decoding: units, as: UTF16.self) }

    private func converted(_ units: [UInt16]) -> String {
        let ref = units.withUnsafeBufferPointer { JSStringCreateWithCharacters($0.baseAddress, $0.count)! }
        defer { JSStringRelease(ref) }
        return String(jsString: ref)
    }

    @Test func lonePairedAndSpecialUnitsConvertAsUTF16DecodingDoes() {
        let cases: [[UInt16]] = [
            [], Array("plain ASCII".utf16), Array("café ÿ".utf16), Array("日本語 🎉".utf16),
            [0x61, 0xD800, 0x62],  // a lone high surrogate in the middle
            [0xDC00],  // a lone low surrogate alone
            [0xD83D],  // a high surrogate at the end
            [0xDBFF, 0xDFFF, 0xD800],  // a valid pair, then a lone one
            [0x61, 0x00, 0x62],  // NUL inside
            [0xFFFF, 0x41],  // the storage escape character
            [0xE9, 0xE9, 0xD800, 0x78],  // two-byte characters before a lone surrogate
        ]
        for units in cases {
            #expect(converted(units) == expected(units), "units \(units)")
        }
    }

    @Test func randomUnitSequencesConvertAsUTF16DecodingDoes() {
        var generator = SystemRandomNumberGenerator()
        let pool: [ClosedRange<UInt16>] = [
            0...0x7F, 0x80...0xFF, 0x100...0xD7FF, 0xD800...0xDBFF, 0xDC00...0xDFFF, 0xE000...0xFFFF,
        ]
        for _ in 0..<2000 {
            let count = Int.random(in: 0...40, using: &generator)
            let units = (0..<count).map { _ in
                UInt16.random(in: pool.randomElement(using: &generator)!, using: &generator)
            }
            #expect(converted(units) == expected(units), "units \(units)")
        }
    }

    @Test func stringsStoredInEightBitsConvertExactly() {
        // Created from UTF-8 with only Latin-1 characters, JavaScriptCore keeps the string in 8-bit storage.
        for text in ["", "key123", "café au lait ÿ", String(repeating: "é", count: 600)] {
            let ref = JSStringCreateWithUTF8CString(text)!
            defer { JSStringRelease(ref) }
            #expect(String(jsString: ref) == text)
        }
    }

    @Test func swiftStringsRoundTripThroughTheEngine() {
        for text in ["", "a\u{0}b", "日本語 🎉", String(repeating: "x", count: 5000), "\u{FFFF}0041"] {
            let ref = makeJSString(text)
            defer { JSStringRelease(ref) }
            #expect(String(jsString: ref) == text)
        }
    }
}
