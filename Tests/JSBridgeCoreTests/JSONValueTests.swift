import Foundation
import JSBridgeCore
import Testing

@testable import JSBridgeBase

// MARK: - Parsing

@Suite("JSON parsing")
struct JSONParsingTests {
    @Test func parsesAllKindsAndRoundTrips() throws {
        let text = #"{"a":1,"b":[true,false,null],"c":"x","d":{"e":-2.5,"f":[]},"g":{}}"#
        let value = try JSONValue(parsing: text)
        #expect(value["a"] == .number(1))
        #expect(value["b"] == [true, false, nil])
        #expect(value["c"] == "x")
        #expect(value["d"]?["e"] == .number(-2.5))
        #expect(value["d"]?["f"] == .array([]))
        #expect(value["g"] == .object(JSONObject()))
        #expect(value.serialized() == text)
    }

    @Test func skipsAllJSONWhitespace() throws {
        let value = try JSONValue(parsing: " \n\t{ \"a\" :\r\n [ 1 , 2 ] , \"b\" : { } }\r\n ")
        #expect(value.serialized() == #"{"a":[1,2],"b":{}}"#)
    }

    @Test func keepsKeyOrder() throws {
        let value = try JSONValue(parsing: #"{"z":1,"a":2,"m":3}"#)
        #expect(value.objectValue?.keys == ["z", "a", "m"])
        #expect(value.serialized() == #"{"z":1,"a":2,"m":3}"#)
    }

    @Test func duplicateKeysKeepFirstPositionAndLastValueLikeJSONParse() throws {
        let small = try JSONValue(parsing: #"{"a":1,"b":2,"a":3}"#)
        #expect(small.serialized() == #"{"a":3,"b":2}"#)
        // Large objects take the hashed path.
        let keys = (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let large = try JSONValue(parsing: "{\(keys),\"k3\":99}")
        #expect(large.objectValue?.count == 20)
        #expect(large["k3"] == 99)
        #expect(large.objectValue?.keys[3] == "k3")
    }

    @Test func parsesNumbersLikeJavaScript() throws {
        let minusZero = try JSONValue(parsing: "-0").doubleValue
        #expect(minusZero == 0 && minusZero?.sign == .minus)
        #expect(try JSONValue(parsing: "1E2") == 100)
        #expect(try JSONValue(parsing: "1e+2") == 100)
        #expect(try JSONValue(parsing: "25e-1") == 2.5)
        #expect(try JSONValue(parsing: "0.1") == 0.1)
        #expect(try JSONValue(parsing: "123456789012345") == 123_456_789_012_345)
        // Beyond the integer fast path: rounded like Number("12345678901234567890").
        #expect(try JSONValue(parsing: "12345678901234567890") == .number(12_345_678_901_234_567_890))
        #expect(try JSONValue(parsing: "9007199254740993") == .number(9_007_199_254_740_992))
        #expect(try JSONValue(parsing: "-9007199254740993").doubleValue == -9_007_199_254_740_992)
        #expect(try JSONValue(parsing: "1e400") == .number(.infinity))
        #expect(try JSONValue(parsing: "-1e400") == .number(-.infinity))
        #expect(try JSONValue(parsing: "1e-400") == 0)
        #expect(try JSONValue(parsing: "5e-324") == .number(.leastNonzeroMagnitude))
        #expect(try JSONValue(parsing: "1.7976931348623157e308") == .number(.greatestFiniteMagnitude))
    }

    @Test func parsesBytesFromContiguousAndOtherCollections() throws {
        let bytes = Array(#"{"a":[1,"é"]}"#.utf8)
        #expect(try JSONValue(parsing: bytes)["a"]?[1] == "é")
        #expect(try JSONValue(parsing: bytes[0...]) == JSONValue(parsing: bytes))
        // Not contiguous: takes the copying path.
        let lazy = #"[1,2,3]"#.utf8.lazy.map { $0 }
        #expect(try JSONValue(parsing: lazy) == [1, 2, 3])
        #expect(try JSONValue(parsing: Data("true".utf8)) == true)
    }

    @Test func invalidUTF8BytesBecomeReplacementCharacters() throws {
        let value = try JSONValue(parsing: [0x22, 0x61, 0xFF, 0x62, 0x22])
        #expect(value == "a\u{FFFD}b")
    }

    @Test(arguments: [
        ("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\/\u{8}\u{c}\n\r\t"),
        ("\"\\u00e9\\u00E9\"", "éé"),
        ("\"\\u4e2d\\u6587\"", "中文"),
        ("\"\\uD83D\\uDE00\"", "😀"),
        ("\"\\ud83d\\ude00x\"", "😀x"),
        ("\"\\u0000\"", "\u{0}"),
        ("\"😀中文é\"", "😀中文é"),
        ("\"a\\nb\\u0041c\"", "a\nbAc"),
        // Lone surrogates cannot live in a Swift String: U+FFFD.
        ("\"\\uD800\"", "\u{FFFD}"),
        ("\"\\uDC00x\"", "\u{FFFD}x"),
        ("\"\\uD800\\u0041\"", "\u{FFFD}A"),
        ("\"\\uD800\\uD800\\uDC00\"", "\u{FFFD}𐀀"),
        ("\"\\uD800\\n\"", "\u{FFFD}\n"),
    ])
    func decodesEscapes(input: String, expected: String) throws {
        #expect(try JSONValue(parsing: input) == .string(expected))
    }

    @Test(arguments: [
        ("", 0, "Unexpected end of input at offset 0"),
        ("   ", 3, "Unexpected end of input at offset 3"),
        (#"{"a":1}}"#, 7, "Unexpected character '}' at offset 7"),
        ("[1,]", 3, "Unexpected character ']' at offset 3"),
        (#"{"a":1,}"#, 7, "Unexpected character '}' at offset 7"),
        ("[1 2]", 3, "Unexpected character '2' at offset 3"),
        ("{'a':1}", 1, "Unexpected character ''' at offset 1"),
        (#"{"a" 1}"#, 5, "Unexpected character '1' at offset 5"),
        ("[1]x", 3, "Unexpected character 'x' at offset 3"),
        ("01", 1, "Unexpected character '1' at offset 1"),
        ("1.", 2, "Unexpected end of input at offset 2"),
        ("1.e5", 2, "Unexpected character 'e' at offset 2"),
        ("1e", 2, "Unexpected end of input at offset 2"),
        ("-", 1, "Unexpected end of input at offset 1"),
        ("+1", 0, "Unexpected character '+' at offset 0"),
        (".5", 0, "Unexpected character '.' at offset 0"),
        ("tru", 3, "Unexpected end of input at offset 3"),
        ("trux", 3, "Unexpected character 'x' at offset 3"),
        ("nul", 3, "Unexpected end of input at offset 3"),
        ("NaN", 0, "Unexpected character 'N' at offset 0"),
        ("[1,2", 4, "Unexpected end of input at offset 4"),
        ("\u{FEFF}1", 0, "Unexpected character '\u{FEFF}' (U+FEFF) at offset 0"),
    ])
    func reportsErrorsWithOffsets(input: String, offset: Int, message: String) {
        #expect(throws: JSONParseError(message: message, offset: offset)) { try JSONValue(parsing: input) }
    }

    @Test func reportsStringErrors() {
        #expect(throws: JSONParseError(message: "Unterminated string starting at offset 1", offset: 1)) {
            try JSONValue(parsing: "[\"abc")
        }
        #expect(throws: JSONParseError(message: "Unescaped control character U+000A in string at offset 2", offset: 2))
        {
            try JSONValue(parsing: "\"a\nb\"")
        }
        #expect(throws: JSONParseError(message: "Invalid escape character 'x' in string at offset 2", offset: 2)) {
            try JSONValue(parsing: #""\x""#)
        }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: #""\u12G4""#) }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: #""\u12"#) }
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: #""\u12G4""#) }
        #expect(error?.offset == 5)
        #expect(error?.description == error?.message)
    }

    @Test func nestingUpToTheLimitParses() throws {
        let depth = 10_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let value = try JSONValue(parsing: text)
        var level = 0
        var current = value
        while case .array(let items) = current, let first = items.first {
            level += 1
            current = first
        }
        #expect(level == depth - 1)
        #expect(value.serialized() == text)
    }

    @Test func nestingBeyondTheLimitIsAnError() {
        let objects = String(repeating: #"{"a":"#, count: 10_001) + "1" + String(repeating: "}", count: 10_001)
        let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: objects) }
        #expect(error?.offset == 50_000)
        #expect(error?.message.contains("Nesting deeper than 10000 levels") == true)

        let deep = String(repeating: "[", count: 100_000)
        let deepError = #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
        #expect(deepError?.offset == 10_000)
    }

    @Test func deepInputIsSafeOnASmallThreadStack() throws {
        // 512 KB stack: a recursive parser would overflow on 100 000 levels.
        let outcome = runOnSmallStack {
            var results: [String] = []
            let ok = String(repeating: "[", count: 9_000) + String(repeating: "]", count: 9_000)
            do {
                var values = [try JSONValue(parsing: ok)]
                results.append("ok \(values[0].serialized().utf8.count)")
                // Swift's own release of a 9 000-level tree recurses too deep for 512 KB: release it flat.
                JSONValue.releaseIteratively(&values)
            } catch {
                results.append("unexpected \(error)")
            }
            do {
                // A complete deep value followed by garbage: the parser must release it flat.
                _ = try JSONValue(parsing: ok + " x")
                results.append("no error")
            } catch {
                results.append("error \((error as? JSONParseError)?.offset ?? -1)")
            }
            do {
                _ = try JSONValue(parsing: String(repeating: "[", count: 100_000))
                results.append("no error")
            } catch {
                results.append("error \((error as? JSONParseError)?.offset ?? -1)")
            }
            return results
        }
        #expect(outcome == ["ok 18000", "error 18001", "error 10000"])
    }
}

/// Runs `body` on a thread with a 512 KB stack and returns its result.
func runOnSmallStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.value = body()
        done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    done.wait()
    return box.value!
}

/// Carries a result from another thread; written before a semaphore signal, read after the wait.
final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

// MARK: - Serializing

@Suite("JSON serializing")
struct JSONSerializingTests {
    // Expected strings are what node prints for `JSON.stringify(x)`.
    @Test(
        arguments: [
            (0.0, "0"), (-0.0, "0"), (1, "1"), (-1, "-1"), (1.5, "1.5"), (-1.5, "-1.5"),
            (0.1, "0.1"), (0.1 + 0.2, "0.30000000000000004"), (1e21, "1e+21"), (1e20, "100000000000000000000"),
            (123_456_789_012_345_680_000, "123456789012345680000"), (0.000001, "0.000001"), (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"), (9_007_199_254_740_992, "9007199254740992"),
            (1_152_921_504_606_846_976, "1152921504606847000"),
            (Double.leastNonzeroMagnitude, "5e-324"), (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
            (1e100, "1e+100"), (123.456, "123.456"), (1e15, "1000000000000000"), (1e16, "10000000000000000"),
            (1.2345e-5, "0.000012345"), (100, "100"), (-1e-7, "-1e-7"), (2.5e21, "2.5e+21"),
            (9.999999999999999e20, "999999999999999900000"), (1.0 / 3, "0.3333333333333333"),
            (1.0000000000000002, "1.0000000000000002"), (0.000001234, "0.000001234"), (1.2345e-7, "1.2345e-7"),
            (-123456.789, "-123456.789"), (4.35, "4.35"), (2.2250738585072014e-308, "2.2250738585072014e-308"),
            (12_345_678_901_234_567_890, "12345678901234567000"), (0.00001, "0.00001"),
            (1e-5 * 1.1, "0.000011000000000000001"), (1.1e-5, "0.000011"), (5e-7, "5e-7"), (1e301, "1e+301"),
            (144_115_188_075_855_870, "144115188075855870"), (-9_007_199_254_740_991, "-9007199254740991"),
            (Double.nan, "null"), (Double.infinity, "null"), (-Double.infinity, "null"),
        ] as [(Double, String)])
    func formatsNumbersLikeJavaScript(number: Double, expected: String) {
        #expect(JSONValue.number(number).serialized() == expected)
    }

    @Test func javaScriptStringSpellsNonFiniteNumbers() {
        #expect(JSONValue.javaScriptString(for: .nan) == "NaN")
        #expect(JSONValue.javaScriptString(for: -.infinity) == "-Infinity")
        #expect(JSONValue.javaScriptString(for: 1e21) == "1e+21")
    }

    @Test func serializedNumbersParseBackExactly() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let number = Double(bitPattern: generator.next())
            guard number.isFinite else { continue }
            let text = JSONValue.number(number).serialized()
            #expect(try JSONValue(parsing: text) == .number(number == 0 ? 0 : number), "\(text)")
        }
    }

    @Test func escapesStringsLikeJSONStringify() {
        let value = JSONValue.string("\u{0}\u{1f}\u{7f}\"\\\u{8}\u{c}\n\r\t/é😀中")
        #expect(value.serialized() == #""\u0000\u001f"# + "\u{7f}" + #"\"\\\b\f\n\r\t/é😀中""#)
        #expect(JSONValue.string("").serialized() == #""""#)
        #expect(JSONValue.string("plain ascii").serialized() == #""plain ascii""#)
        #expect(JSONValue.string("\u{1}").serialized() == #""\u0001""#)
        // Object keys are escaped the same way.
        #expect(JSONValue.object(["a\"b": 1]).serialized() == #"{"a\"b":1}"#)
    }

    @Test func unicodeRoundTrips() throws {
        let original: JSONValue = ["emoji": "👩‍👩‍👧 😀", "cjk": "日本語のテキスト", "mixed": "a\u{0}b\nc\u{1F}"]
        let text = original.serialized()
        #expect(try JSONValue(parsing: text) == original)
        #expect(try JSONValue(parsing: Array(text.utf8)) == original)
    }

    @Test func serializeIntoAppendsAndUTF8MatchesString() {
        var output = "x="
        JSONValue.array([1, "a", nil]).serialize(into: &output)
        #expect(output == #"x=[1,"a",null]"#)
        #expect(JSONValue.array([1, "é"]).serializedUTF8() == Array(#"[1,"é"]"#.utf8))
    }

    @Test func serializesEveryKind() {
        let value: JSONValue = [
            "null": nil, "t": true, "f": false, "n": -12, "s": "x",
            "a": [1, [2, []], [:]], "o": ["k": ["deep": [true]]],
        ]
        #expect(
            value.serialized()
                == #"{"null":null,"t":true,"f":false,"n":-12,"s":"x","a":[1,[2,[]],{}],"o":{"k":{"deep":[true]}}}"#)
        #expect(value.description == value.serialized())
    }

    @Test func serializesVeryDeepValuesWithoutRecursion() {
        var value: JSONValue = 1
        for i in 0..<20_000 { value = i % 2 == 0 ? .array([value]) : .object(["k": value]) }
        let text = value.serialized()
        #expect(text.hasPrefix(#"{"k":[{"k":["#))
        #expect(text.utf8.count == 10_000 * 2 + 10_000 * 6 + 1)
    }
}

// MARK: - Literals, accessors, JSONObject

@Suite("JSONValue API")
struct JSONValueAPITests {
    @Test func literalsBuildTheExpectedCases() {
        let null: JSONValue = nil
        let bool: JSONValue = true
        let int: JSONValue = 42
        let float: JSONValue = 2.5
        let string: JSONValue = "hi"
        let array: JSONValue = [1, "a"]
        let object: JSONValue = ["b": 1, "a": 2]
        #expect(null == .null)
        #expect(bool == .bool(true))
        #expect(int == .number(42))
        #expect(float == .number(2.5))
        #expect(string == .string("hi"))
        #expect(array == .array([.number(1), .string("a")]))
        #expect(object.objectValue?.keys == ["b", "a"])
    }

    @Test func accessorsReturnValuesOnlyForTheirKind() {
        let value: JSONValue = ["n": 3, "s": "x", "b": false, "a": [10, 20], "z": nil, "f": 2.5]
        #expect(value["n"]?.intValue == 3)
        #expect(value["n"]?.doubleValue == 3)
        #expect(value["n"]?.stringValue == nil)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["s"]?.intValue == nil)
        #expect(value["b"]?.boolValue == false)
        #expect(value["a"]?[1] == 20)
        #expect(value["a"]?[2] == nil)
        #expect(value["a"]?[-1] == nil)
        #expect(value["a"]?.arrayValue?.count == 2)
        #expect(value["z"]?.isNull == true)
        #expect(value["missing"] == nil)
        #expect(value["f"]?.intValue == nil)
        #expect(value[0] == nil)
        #expect(value["s"]?["x"] == nil)
        #expect(value.objectValue?.count == 6)
    }

    @Test func intValueRequiresExactIntegers() {
        #expect(JSONValue.number(9_007_199_254_740_992).intValue == 9_007_199_254_740_992)
        #expect(JSONValue.number(-9_007_199_254_740_992).intValue == -9_007_199_254_740_992)
        #expect(JSONValue.number(9_007_199_254_740_994).intValue == nil)
        #expect(JSONValue.number(1e300).intValue == nil)
        #expect(JSONValue.number(.nan).intValue == nil)
        #expect(JSONValue.number(.infinity).intValue == nil)
        #expect(JSONValue.number(-0.0).intValue == 0)
    }

    @Test func objectSubscriptSetsAppendsAndRemoves() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        object["b"] = "two"
        object["d"] = 4
        #expect(object.keys == ["a", "b", "c", "d"])
        #expect(object["b"] == "two")
        object["a"] = nil
        #expect(object.keys == ["b", "c", "d"])
        #expect(object["a"] == nil)
        #expect(object.removeValue(forKey: "c") == 3)
        #expect(object.removeValue(forKey: "c") == nil)
        #expect(Array(object.map(\.key)) == ["b", "d"])
        #expect(object.values == ["two", 4])
        #expect(!object.isEmpty && object.count == 2)
    }

    @Test func largeObjectsStayConsistentThroughRemovals() {
        var object = JSONObject()
        for i in 0..<100 { object["k\(i)"] = .number(Double(i)) }
        for i in stride(from: 0, to: 100, by: 3) { object["k\(i)"] = nil }
        let expected = (0..<100).filter { $0 % 3 != 0 }
        #expect(object.keys == expected.map { "k\($0)" })
        for i in 0..<100 { #expect(object["k\(i)"] == (i % 3 == 0 ? nil : .number(Double(i)))) }
        // Shrinks back below the index threshold and keeps working.
        for i in expected.dropFirst(5) { object["k\(i)"] = nil }
        #expect(object.keys == expected.prefix(5).map { "k\($0)" })
        object["k1"] = "replaced"
        object["new"] = true
        #expect(object.keys == ["k1", "k2", "k4", "k5", "k7", "new"])
        #expect(object["k1"] == "replaced")
    }

    @Test func objectEqualityAndHashIgnoreOrder() {
        let a: JSONObject = ["x": 1, "y": [true]]
        let b: JSONObject = ["y": [true], "x": 1]
        let c: JSONObject = ["x": 1, "y": [false]]
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != c)
        let x: JSONObject = ["x": 1]
        let z: JSONObject = ["z": 1]
        #expect(x != z)
        #expect(Set<JSONValue>([.object(a), .object(b), .object(c)]).count == 2)
    }

    @Test func objectInitFromPairsAndIteration() {
        let object = JSONObject([("b", 1), ("a", 2), ("b", 3)])
        #expect(object.keys == ["b", "a"])
        #expect(object["b"] == 3)
        var seen: [String] = []
        for (key, value) in object { seen.append("\(key)=\(value)") }
        #expect(seen == ["b=3", "a=2"])
        #expect(object.description == #"{"b":3,"a":2}"#)
    }
}
