import Foundation
import Testing

@testable import JSBridgeBase

/// The project's one base64, hex and UTF-8 codec, against independent implementations (Foundation's base64,
/// the standard library's UTF-8 validation) on random and chosen inputs.
@Suite struct TextCodecTests {
    /// Random byte strings of every length up to 64, then a few longer ones; the same on every run.
    private static let samples: [[UInt8]] = {
        var generator = SplitMix64(seed: 0x5EED)
        var samples: [[UInt8]] = []
        for length in Array(0...64) + [255, 1000, 4097] {
            samples.append((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
        }
        return samples
    }()

    @Test func base64EncodesAsFoundationDoesAndDecodesBack() {
        for bytes in Self.samples {
            let text = bytes.withUnsafeBytes { Base64.encode($0) }
            #expect(text == Data(bytes).base64EncodedString())
            #expect(Base64.decode(text) == bytes)
            let url = bytes.withUnsafeBytes { Base64.encode($0, url: true) }
            let expected = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(url == expected)
            #expect(Base64.decode(url) == bytes)
        }
    }

    @Test func strictBase64RefusesWhatIsNotBase64() {
        for text in ["a", "ab!c", "ab=c", "abc===", "%%%%", "a b c d", "abcde"] {
            #expect(Base64.decode(text) == nil, "\(text)")
        }
        #expect(Base64.decode("") == [])
        #expect(Base64.decode("aGk") == Array("hi".utf8))
        #expect(Bytes(base64Encoded: "aGk=") == Bytes(Array("hi".utf8)))
    }

    @Test func forgivingBase64SkipsOtherCharactersAndStopsAtPadding() {
        let decode = { (text: String) -> [UInt8] in
            let units = Array(text.utf16)
            return [UInt8](unsafeUninitializedCapacity: units.count) { output, count in
                count = units.withUnsafeBufferPointer { Base64.decodeForgiving($0, into: output.baseAddress!) }
            }
        }
        #expect(decode("aG k\n=") == Array("hi".utf8))
        #expect(decode("aGk=trailing") == Array("hi".utf8))
        #expect(decode("-_-_") == [0xFB, 0xFF, 0xBF])
        #expect(decode("+/+/") == [0xFB, 0xFF, 0xBF])
        #expect(decode("\u{00E9}aGk") == Array("hi".utf8))
    }

    @Test func hexRoundTripsAndStopsAtTheFirstPairThatIsNotHex() {
        for bytes in Self.samples {
            let text = Hex.encode(bytes)
            #expect(text == bytes.map { String(format: "%02x", $0) }.joined())
            let units = Array(text.uppercased().utf8)
            let decoded = [UInt8](unsafeUninitializedCapacity: units.count / 2 + 1) { output, count in
                count = units.withUnsafeBufferPointer { Hex.decodeForgiving($0, into: output.baseAddress!) }
            }
            #expect(decoded == bytes)
        }
        let units = Array("a1b2g3c4".utf8)
        let prefix = [UInt8](unsafeUninitializedCapacity: 4) { output, count in
            count = units.withUnsafeBufferPointer { Hex.decodeForgiving($0, into: output.baseAddress!) }
        }
        #expect(prefix == [0xA1, 0xB2])
    }

    @Test func utf8ValidationAgreesWithTheStandardLibrary() {
        var generator = SplitMix64(seed: 0xC0DE)
        // Random bytes are mostly invalid; bytes biased towards UTF-8's lead and continuation ranges are not.
        let ranges: [ClosedRange<UInt8>] = [0x00...0x7F, 0x80...0xBF, 0xC2...0xF4, 0xE0...0xED, 0xF0...0xF4]
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...12, using: &generator)
            let bytes = (0..<length).map { _ in
                UInt8.random(in: ranges.randomElement(using: &generator)!, using: &generator)
            }
            let valid = String(validating: bytes, as: UTF8.self) != nil
            #expect(UTF8Codec.isValid(bytes) == valid, "\(bytes)")
        }
    }

    @Test func utf8ValidationGivesTheOffsetOfTheFirstBadSequence() {
        let check = { (bytes: [UInt8]) in bytes.withUnsafeBufferPointer { UTF8Codec.validate($0) } }
        #expect(check(Array("plain ascii, long enough for the word loop".utf8)) == nil)
        #expect(check(Array("caf\u{E9} \u{1F389}".utf8)) == nil)
        #expect(check(Array("abcdefgh".utf8) + [0xC0, 0x80]) == 8)  // overlong
        #expect(check(Array("ab".utf8) + [0xED, 0xA0, 0x80]) == 2)  // a surrogate
        #expect(check(Array("abc".utf8) + [0xE2, 0x82]) == 3)  // cut short
        #expect(check([0xF4, 0x90, 0x80, 0x80]) == 0)  // past U+10FFFF
    }

    @Test func utf8DecodingAndEncodingRoundTripThroughUTF16() {
        for text in ["", "ascii only text that is long", "caf\u{E9}", "\u{65E5}\u{672C}", "\u{1F389} party"] {
            let bytes = Array(text.utf8)
            let units = [UInt16](unsafeUninitializedCapacity: bytes.count + 1) { output, count in
                count = bytes.withUnsafeBufferPointer {
                    UTF8Codec.decode($0, into: output.baseAddress!, fatal: true)!
                }
            }
            #expect(units == Array(text.utf16))
            let encoded = [UInt8](unsafeUninitializedCapacity: units.count * 3 + 1) { output, count in
                count = units.withUnsafeBufferPointer {
                    UTF8Codec.encode($0, into: output.baseAddress!, capacity: units.count * 3).written
                }
            }
            #expect(encoded == bytes)
        }
    }
}
