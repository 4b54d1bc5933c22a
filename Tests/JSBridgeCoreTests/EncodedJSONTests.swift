import JSBridgeCore
import Testing

@testable import JSBridgeBase

/// ``EncodedJSON``: what it accepts is exactly one JSON value (the runtime embeds the text in a batch of
/// answers that JavaScript parses whole, so an accepted malformed text would break every answer in it).
@Suite struct EncodedJSONTests {
    /// Documents of JSON's grammar, with the value each encodes.
    static let valid: [(String, JSONValue)] = [
        (#"{"id":1,"name":"x"}"#, ["id": 1, "name": "x"]),
        (" \t\r\n[1, -0.5, 2e3, 4E-2, 0, -0, 1.25e+2] \n", [1, -0.5, 2000, 0.04, 0, 0, 125]),
        (#""a\"\\\/\b\f\n\r\t\u00e9\uD83D\uDE00""#, "a\"\\/\u{08}\u{0C}\n\r\té😀"),
        ("true", true), ("false", false), ("null", .null), ("0", 0), ("\"\"", ""),
        ("{}", [:]), ("[]", []), ("[[],{},[{}]]", [[], [:], [[:]]]),
        (#"{"é":"ü","nested":{"a":[true,false,null]}}"#, ["é": "ü", "nested": ["a": [true, false, .null]]]),
    ]

    /// Texts that are not one JSON value.
    static let invalid = [
        "", " ", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{'a':1}", "[1 2]", "01", "1.", ".5", "+1",
        "-", "1e", "1e+", "0x10", "NaN", "Infinity", "tru", "nulls", "\"abc", "\"a\\x\"", "\"\\u12G4\"",
        "\"tab\there\"", "\"line\nbreak\"", "[1]]", "1 2", "\u{FEFF}{}", "{\"a\":1}x", "[\"a\",]",
    ]

    @Test func acceptsJSONAndKeepsItsText() throws {
        for (text, value) in Self.valid {
            let encoded = try #require(EncodedJSON(validating: text), "rejected \(text)")
            #expect(encoded.text == text)
            #expect(encoded.value == value, "for \(text)")
        }
    }

    @Test func rejectsAnythingElse() {
        for text in Self.invalid {
            #expect(EncodedJSON(validating: text) == nil, "accepted \(text.debugDescription)")
        }
    }

    @Test func limitsTheNesting() {
        let deepest =
            String(repeating: "[", count: EncodedJSON.maxDepth) + String(repeating: "]", count: EncodedJSON.maxDepth)
        #expect(EncodedJSON(validating: deepest) != nil)
        #expect(EncodedJSON(validating: "[" + deepest + "]") == nil)
        #expect(
            EncodedJSON(validating: String(repeating: "{\"a\":", count: 600) + "1" + String(repeating: "}", count: 600))
                == nil)
    }

    @Test func encodesAValue() {
        let encoded = EncodedJSON(["name": "a\"b", "scores": [1.5, .number(.infinity)], "none": .null])
        #expect(encoded.value == ["name": "a\"b", "scores": [1.5, .null], "none": .null])
        #expect(EncodedJSON(validating: encoded.text) == encoded)
    }

    @Test func addsAMemberToAnObject() throws {
        let body = try #require(EncodedJSON(validating: #"{"id": 7, "tags": ["a"]}"#))
        let answer = EncodedJSON(["status": 200, "url": "http://x/\"q\""], adding: "json", body)
        #expect(answer.value == ["status": 200, "url": "http://x/\"q\"", "json": ["id": 7, "tags": ["a"]]])
        #expect(EncodedJSON(validating: answer.text) == answer)
        #expect(EncodedJSON([:], adding: "json", body).value == ["json": ["id": 7, "tags": ["a"]]])
    }
}
