import Foundation
import JSBridgeCore
import Testing

@testable import JSBridgeBase

private struct Room: Codable, Equatable {
    var number: Int
    var price: Double
    var tags: [String]?
}

private struct Booking: Codable, Equatable {
    var name: String
    var nights: UInt8
    var rooms: [Room]
    var note: String?
    var extra: JSONValue?
}

private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try JSONValueDecoder().decode(type, from: JSONValue(parsing: json))
}

/// The single issue of a decoding failure.
private func issue<T: Decodable>(_ type: T.Type, _ json: String) -> ArgumentIssue? {
    do {
        _ = try decode(type, json)
        return nil
    } catch let error as DecodingError {
        return error.issues.first
    } catch {
        return ArgumentIssue(path: "?", message: "\(error)")
    }
}

// MARK: - Decoder

@Suite("JSONValueDecoder")
struct JSONValueDecoderTests {
    @Test func decodesNestedStructsAndArrays() throws {
        let booking = try decode(
            Booking.self,
            #"{"name":"Ada","nights":3,"rooms":[{"number":1,"price":99.5},{"number":2,"price":120,"tags":["sea"]}]}"#)
        #expect(
            booking
                == Booking(
                    name: "Ada", nights: 3,
                    rooms: [Room(number: 1, price: 99.5), Room(number: 2, price: 120, tags: ["sea"])]))
    }

    @Test func reportsJavaScriptPathsForNestedErrors() {
        let json =
            #"{"name":"Ada","nights":1,"rooms":[{"number":1,"price":1},{"number":2,"price":2},{"number":3,"price":"abc"}]}"#
        #expect(
            issue(Booking.self, json)
                == ArgumentIssue(path: "rooms[2].price", message: #"expected a number, got a string ("abc")"#))

        let tagError = #"{"name":"A","nights":1,"rooms":[{"number":1,"price":1,"tags":["a",7]}]}"#
        #expect(
            issue(Booking.self, tagError)
                == ArgumentIssue(path: "rooms[0].tags[1]", message: "expected a string, got a number (7)"))
    }

    @Test func missingKeysNameTheKeyInPathAndMessage() {
        #expect(
            issue(Booking.self, #"{"nights":1,"rooms":[]}"#)
                == ArgumentIssue(path: "name", message: #"missing required key "name""#))
        let nested = #"{"name":"A","nights":1,"rooms":[{"number":1,"price":1},{"price":2}]}"#
        #expect(
            issue(Booking.self, nested)
                == ArgumentIssue(path: "rooms[1].number", message: #"missing required key "number""#))
    }

    @Test func keyNotFoundKeepsTheStandardShape() throws {
        do {
            _ = try decode(Room.self, #"{"price":1}"#)
            Issue.record("expected an error")
        } catch DecodingError.keyNotFound(let key, let context) {
            #expect(key.stringValue == "number")
            #expect(context.codingPath.isEmpty)
        }
    }

    @Test func nullForARequiredValueIsValueNotFound() throws {
        #expect(
            issue(Booking.self, #"{"name":null,"nights":1,"rooms":[]}"#)
                == ArgumentIssue(path: "name", message: "expected a string, got null"))
        do {
            _ = try decode(Booking.self, #"{"name":null,"nights":1,"rooms":[]}"#)
        } catch DecodingError.valueNotFound(let type, let context) {
            #expect(type is String.Type)
            #expect(context.codingPath.map(\.stringValue) == ["name"])
        }
    }

    @Test func optionalsAreNilWhenMissingOrNullButStillTypeChecked() throws {
        let missing = try decode(Booking.self, #"{"name":"A","nights":1,"rooms":[]}"#)
        #expect(missing.note == nil && missing.extra == nil)
        let null = try decode(Booking.self, #"{"name":"A","nights":1,"rooms":[],"note":null,"extra":null}"#)
        #expect(null.note == nil && null.extra == nil)
        let present = try decode(
            Booking.self, #"{"name":"A","nights":1,"rooms":[],"note":"hi","extra":{"z":[1,{"y":null}],"a":2}}"#)
        #expect(present.note == "hi")
        #expect(present.extra?.objectValue?.keys == ["z", "a"])
        #expect(present.extra?.serialized() == #"{"z":[1,{"y":null}],"a":2}"#)
        #expect(
            issue(Booking.self, #"{"name":"A","nights":1,"rooms":[],"note":5}"#)
                == ArgumentIssue(path: "note", message: "expected a string, got a number (5)"))
        #expect(try decode([Int?].self, "[1,null,3]") == [1, nil, 3])
        #expect(try decode(Int?.self, "null") == nil)
    }

    @Test func integersMustBeIntegralAndInRange() throws {
        #expect(issue(Int.self, "2.5") == ArgumentIssue(path: "", message: "expected an integer, got a number (2.5)"))
        #expect(
            issue([Int].self, #"[1,"abc"]"#)
                == ArgumentIssue(path: "[1]", message: #"expected an integer, got a string ("abc")"#))
        do {
            _ = try decode(Int.self, "1152921504606846976")  // 2^60
            Issue.record("expected an error")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains("out of range"))
        }
        #expect(issue(Int64.self, "-1152921504606846976")?.message.contains("out of range for Int64") == true)
        #expect(issue(UInt8.self, "300")?.message == "number 300 is out of range for UInt8 (0 to 255)")
        #expect(issue(UInt.self, "-1")?.message.contains("out of range for UInt") == true)
        #expect(issue(Int32.self, "1e10")?.message.contains("out of range for Int32") == true)
        #expect(try decode(Int.self, "9007199254740992") == 9_007_199_254_740_992)
        #expect(try decode(Int.self, "-9007199254740992") == -9_007_199_254_740_992)
        #expect(try decode(Int8.self, "-128") == -128)
        #expect(try decode(UInt64.self, "1e3") == 1000)
        #expect(try decode(Int.self, "-0") == 0)
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Int.self, from: .number(.infinity)) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Int.self, from: .number(.nan)) }
    }

    @Test func noCoercionBetweenKinds() {
        #expect(issue(Bool.self, "1") == ArgumentIssue(path: "", message: "expected a boolean, got a number (1)"))
        #expect(issue(String.self, "1") == ArgumentIssue(path: "", message: "expected a string, got a number (1)"))
        #expect(
            issue(Double.self, #""1""#) == ArgumentIssue(path: "", message: #"expected a number, got a string ("1")"#))
        #expect(issue(Room.self, "[]") == ArgumentIssue(path: "", message: "expected an object, got an array"))
        #expect(issue([Int].self, "{}") == ArgumentIssue(path: "", message: "expected an array, got an object"))
        #expect(issue(Bool.self, "null") == ArgumentIssue(path: "", message: "expected a boolean, got null"))
        #expect(issue(Bool.self, "true") == nil)
    }

    @Test func longStringsAreTruncatedInMessages() {
        let long = String(repeating: "x", count: 100)
        let message = issue(Int.self, "\"\(long)\"")?.message
        #expect(message == "expected an integer, got a string (\"\(String(repeating: "x", count: 40))…\")")
    }

    @Test func floatsDecodeFromNumbers() throws {
        #expect(try decode(Float.self, "0.1") == Float(0.1))
        #expect(try decode(Double.self, "1e-7") == 1e-7)
        #expect(issue(Float.self, "1e300")?.message == "number 1e+300 is out of range for Float")
    }

    @Test func datesDecodeFromISOStringsAndMilliseconds() throws {
        let expected = Date(timeIntervalSince1970: 1_704_164_645.678)
        let fractional = try decode(Date.self, #""2024-01-02T03:04:05.678Z""#)
        #expect((fractional.timeIntervalSince1970 * 1000).rounded() == 1_704_164_645_678)
        let whole = try decode(Date.self, #""2024-01-02T03:04:05Z""#)
        #expect(whole.timeIntervalSince1970 == 1_704_164_645)
        let offset = try decode(Date.self, #""2024-01-02T05:04:05+02:00""#)
        #expect(offset.timeIntervalSince1970 == 1_704_164_645)
        let dateOnly = try decode(Date.self, #""2024-01-02""#)
        #expect(dateOnly.timeIntervalSince1970 == 1_704_153_600)
        let millis = try decode(Date.self, "1704164645678")
        #expect(abs(millis.timeIntervalSince1970 - expected.timeIntervalSince1970) < 1e-6)
        let micro = try decode(Date.self, #""2024-01-02T03:04:05.678901Z""#)
        #expect(abs(micro.timeIntervalSince1970 - 1_704_164_645.678901) < 1e-6)

        #expect(
            issue(Date.self, #""2024-13-01T00:00:00Z""#)?.message.hasPrefix(#"invalid date "2024-13-01T00:00:00Z""#)
                == true)
        #expect(issue(Date.self, #""2023-02-29""#) != nil)
        #expect(issue(Date.self, #""2024-01-02T03:04:05""#) != nil, "a time without a zone is ambiguous")
        #expect(
            issue(Date.self, "true")?.message
                == "expected a date (an ISO-8601 string or milliseconds since 1970), got a boolean (true)")
    }

    @Test func dataAndURLDecodeFromStrings() throws {
        #expect(try decode(Data.self, #""AAEC/w==""#) == Data([0, 1, 2, 255]))
        #expect(issue(Data.self, #""not base64!""#)?.message == "invalid base64 string")
        #expect(try decode(URL.self, #""https://example.com/a?b=1""#).absoluteString == "https://example.com/a?b=1")
        #expect(issue(URL.self, "1")?.message == "expected a URL string, got a number (1)")
    }

    @Test func decimalsDecodeFromNumbersViaShortestDigits() throws {
        struct Price: Codable, Equatable { var amount: Decimal }
        #expect(try decode(Decimal.self, "0.1") == Decimal(string: "0.1"))
        #expect(try decode(Price.self, #"{"amount":1234.5678}"#) == Price(amount: Decimal(string: "1234.5678")!))
        #expect(
            issue(Price.self, #"{"amount":"1"}"#)
                == ArgumentIssue(path: "amount", message: #"expected a number, got a string ("1")"#))
        #expect(try JSONValueEncoder().encode(Price(amount: Decimal(string: "12.5")!)) == ["amount": 12.5])
        #expect(try JSONValueEncoder().encode([Decimal(string: "0.1")!]).serialized() == "[0.1]")
    }

    @Test func jsonValueDecodesAsTheRawSubtree() throws {
        let value: JSONValue = ["b": [1, nil], "a": "x"]
        #expect(try JSONValueDecoder().decode(JSONValue.self, from: value) == value)
        #expect(try JSONValueDecoder().decode([JSONValue].self, from: [1, "a"]) == [1, "a"])
        #expect(try JSONValueDecoder().decode([String: JSONValue].self, from: value)["b"] == [1, nil])
    }

    @Test func decodesDictionariesAndRawRepresentableEnums() throws {
        enum Color: String, Codable { case red, green }
        #expect(try decode([String: Int].self, #"{"a":1,"b":2}"#) == ["a": 1, "b": 2])
        #expect(try decode([Int: String].self, #"{"1":"x"}"#) == [1: "x"])
        #expect(try decode([Color].self, #"["red","green"]"#) == [.red, .green])
        #expect(
            issue([String: Int].self, #"{"a":1,"first name":"x"}"#)
                == ArgumentIssue(path: #"["first name"]"#, message: #"expected an integer, got a string ("x")"#))
        #expect(issue([Color].self, #"["red","blue"]"#)?.path == "[1]")
    }

    @Test func customContainersTrackCodingPaths() throws {
        /// Records the coding path it was decoded at, and reads nested/super containers.
        struct Probe: Decodable, Equatable {
            var path: String
            var inner: Int
            var pair: [Int]
            var parent: String
            var child: [String]

            init(path: String, inner: Int, pair: [Int], parent: String, child: [String]) {
                (self.path, self.inner, self.pair, self.parent, self.child) = (path, inner, pair, parent, child)
            }

            enum Keys: String, CodingKey { case meta, inner, pair, base, list }
            enum Meta: String, CodingKey { case inner }

            init(from decoder: any Decoder) throws {
                path = decoder.codingPath.map(\.stringValue).joined(separator: "/")
                let container = try decoder.container(keyedBy: Keys.self)
                let meta = try container.nestedContainer(keyedBy: Meta.self, forKey: .meta)
                #expect(meta.codingPath.map(\.stringValue) == decoder.codingPath.map(\.stringValue) + ["meta"])
                inner = try meta.decode(Int.self, forKey: .inner)
                var pairContainer = try container.nestedUnkeyedContainer(forKey: .pair)
                pair = [try pairContainer.decode(Int.self), try pairContainer.decode(Int.self)]
                #expect(pairContainer.isAtEnd)
                parent = try String(from: container.superDecoder(forKey: .base))
                let list = try container.superDecoder(forKey: .list)
                child = try [String](from: list)
                #expect(list.codingPath.last?.stringValue == "list")
            }
        }
        let probes = try decode(
            [String: [Probe]].self,
            #"{"x":[{"meta":{"inner":4},"pair":[5,6],"base":"b","list":["l"]}]}"#)
        #expect(probes["x"]?.first == Probe(path: "x/Index 0", inner: 4, pair: [5, 6], parent: "b", child: ["l"]))
        #expect(
            issue([String: [Probe]].self, #"{"x":[{"meta":{"inner":"no"},"pair":[5,6],"base":"b","list":[]}]}"#)
                == ArgumentIssue(path: "x[0].meta.inner", message: #"expected an integer, got a string ("no")"#))
        #expect(issue([Probe].self, #"[{"meta":{"inner":1},"pair":[5],"base":"b","list":[]}]"#)?.path == "[0].pair[1]")
    }

    @Test func unkeyedContainerHandlesNilAndEnd() throws {
        struct Triple: Decodable {
            var values: [Int?] = []
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                for _ in 0..<3 {
                    if try container.decodeNil() {
                        values.append(nil)
                    } else {
                        values.append(try container.decode(Int.self))
                    }
                }
            }
        }
        #expect(try decode(Triple.self, "[1,null,3]").values == [1, nil, 3])
        #expect(
            issue(Triple.self, "[1,null]")
                == ArgumentIssue(path: "[2]", message: "expected an element at index 2, but the array has only 2"))
    }

    @Test func superDecoderReadsTheSuperKey() throws {
        class Base: Decodable {
            let id: Int
            enum K: CodingKey { case id }
            required init(from decoder: any Decoder) throws {
                id = try decoder.container(keyedBy: K.self).decode(Int.self, forKey: .id)
            }
        }
        final class Derived: Base {
            let name: String
            enum K: CodingKey { case name }
            required init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: K.self)
                name = try container.decode(String.self, forKey: .name)
                try super.init(from: container.superDecoder())
            }
        }
        let value = try decode(Derived.self, #"{"name":"n","super":{"id":7}}"#)
        #expect(value.id == 7 && value.name == "n")
        #expect(issue(Derived.self, #"{"name":"n","super":{"id":"x"}}"#)?.path == "super.id")
    }

    @Test func topLevelFastPaths() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode(Int.self, from: 42) == 42)
        #expect(try decoder.decode(Double.self, from: 2.5) == 2.5)
        #expect(try decoder.decode(String.self, from: "s") == "s")
        #expect(try decoder.decode(Bool.self, from: true) == true)
        #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: 2.5) }
        #expect(throws: DecodingError.self) { try decoder.decode(String.self, from: nil) }
    }

    @Test func userInfoReachesTypes() throws {
        struct ReadsInfo: Decodable {
            var flag: Bool
            init(from decoder: any Decoder) throws {
                flag = decoder.userInfo[CodingUserInfoKey(rawValue: "flag")!] as? Bool ?? false
            }
        }
        var decoder = JSONValueDecoder()
        decoder.userInfo[CodingUserInfoKey(rawValue: "flag")!] = true
        #expect(try decoder.decode(ReadsInfo.self, from: [:]).flag)
        #expect(try JSONValueDecoder().decode(ReadsInfo.self, from: [:]).flag == false)
    }

    @Test func javaScriptPathFormatting() {
        let path: [any CodingKey] = [
            JSONCodingKey(stringValue: "rooms"), JSONCodingKey(index: 2), JSONCodingKey(stringValue: "price"),
            JSONCodingKey(stringValue: "a b"), JSONCodingKey(stringValue: "$ok_1"), JSONCodingKey(stringValue: "1x"),
        ]
        #expect(ArgumentIssue.javaScriptPath(path) == #"rooms[2].price["a b"].$ok_1["1x"]"#)
        #expect(ArgumentIssue.javaScriptPath([]) == "")
        #expect(ArgumentIssue.javaScriptPath([JSONCodingKey(index: 0), JSONCodingKey(stringValue: "a")]) == "[0].a")
    }

    @Test func issuesFromFoundationsDecoderAlsoGetJavaScriptPaths() throws {
        do {
            _ = try JSONDecoder().decode(
                Booking.self, from: Data(#"{"name":"A","nights":1,"rooms":[{"number":1,"price":"x"}]}"#.utf8))
            Issue.record("expected an error")
        } catch let error as DecodingError {
            #expect(error.issues.first?.path == "rooms[0].price")
        }
    }
}

// MARK: - Encoder

@Suite("JSONValueEncoder")
struct JSONValueEncoderTests {
    @Test func keepsKeyOrderOfEncoding() throws {
        struct Ordered: Encodable {
            var zeta = 1
            var alpha = "a"
            var middle = [true]
        }
        let value = try JSONValueEncoder().encode(Ordered())
        #expect(value.objectValue?.keys == ["zeta", "alpha", "middle"])
        #expect(value.serialized() == #"{"zeta":1,"alpha":"a","middle":[true]}"#)
    }

    @Test func omitsNilOptionalsAndRoundTrips() throws {
        let booking = Booking(
            name: "Ada", nights: 2, rooms: [Room(number: 1, price: 9.5, tags: ["x"]), Room(number: 2, price: 3)],
            note: nil, extra: ["k": [1, nil]])
        let value = try JSONValueEncoder().encode(booking)
        #expect(
            value.serialized()
                == #"{"name":"Ada","nights":2,"rooms":[{"number":1,"price":9.5,"tags":["x"]},{"number":2,"price":3}],"extra":{"k":[1,null]}}"#
        )
        #expect(try JSONValueDecoder().decode(Booking.self, from: value) == booking)
    }

    @Test func encodesDatesLikeJavaScriptToJSON() throws {
        let encoder = JSONValueEncoder()
        #expect(try encoder.encode(Date(timeIntervalSince1970: 1_704_164_645.678)) == "2024-01-02T03:04:05.678Z")
        #expect(try encoder.encode(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        #expect(try encoder.encode(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(try encoder.encode(Date(timeIntervalSince1970: -62_198_755_200)) == "-000001-01-01T00:00:00.000Z")
        #expect(try encoder.encode(Date(timeIntervalSince1970: 253_402_300_800)) == "+010000-01-01T00:00:00.000Z")
        #expect(
            try encoder.encode(["at": Date(timeIntervalSince1970: 1_704_164_645)]) == ["at": "2024-01-02T03:04:05.000Z"]
        )
        #expect(throws: EncodingError.self) { try encoder.encode(Date(timeIntervalSince1970: 1e13)) }
        // Round trip through the decoder.
        let date = Date(timeIntervalSince1970: 1_234_567_890.123)
        let decoded = try JSONValueDecoder().decode(Date.self, from: encoder.encode(date))
        #expect((decoded.timeIntervalSince1970 * 1000).rounded() == 1_234_567_890_123)
    }

    @Test func encodesDataAndURL() throws {
        let encoder = JSONValueEncoder()
        #expect(try encoder.encode(Data([0, 1, 2, 255])) == "AAEC/w==")
        #expect(try encoder.encode(URL(string: "https://example.com/x?y=1")!) == "https://example.com/x?y=1")
        #expect(try encoder.encode([URL(string: "file:///tmp")!]) == ["file:///tmp"])
    }

    @Test func rejectsNumbersJavaScriptCannotHold() throws {
        let encoder = JSONValueEncoder()
        #expect(try encoder.encode(9_007_199_254_740_992) == .number(9_007_199_254_740_992))
        #expect(try encoder.encode(Int64(-9_007_199_254_740_992)) == .number(-9_007_199_254_740_992))
        do {
            _ = try encoder.encode(["big": 9_007_199_254_740_993])
            Issue.record("expected an error")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.debugDescription.contains("9007199254740993"))
            #expect(context.debugDescription.contains("2^53"))
            #expect(context.codingPath.map(\.stringValue) == ["big"])
        }
        #expect(throws: EncodingError.self) { try encoder.encode(UInt64.max) }
        #expect(throws: EncodingError.self) { try encoder.encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try encoder.encode(Double.infinity) }
        #expect(throws: EncodingError.self) { try encoder.encode(Float.infinity) }
        #expect(try encoder.encode(Float(0.1)) == 0.1)
        #expect(try encoder.encode([UInt8(255), 0]) == [255, 0])
    }

    @Test func jsonValueEncodesAsItself() throws {
        let value: JSONValue = ["b": [1, nil, ["x": true]], "a": 1.5]
        #expect(try JSONValueEncoder().encode(value) == value)
        struct Wrapper: Encodable { var payload: JSONValue; var list: [JSONValue] }
        let wrapped = try JSONValueEncoder().encode(Wrapper(payload: value, list: [nil, "s"]))
        #expect(wrapped.serialized() == #"{"payload":{"b":[1,null,{"x":true}],"a":1.5},"list":[null,"s"]}"#)
    }

    @Test func nestedAndSuperEncoders() throws {
        struct Custom: Encodable {
            enum K: String, CodingKey { case meta, list, base }
            enum M: String, CodingKey { case depth, tags }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: K.self)
                var meta = container.nestedContainer(keyedBy: M.self, forKey: .meta)
                try meta.encode(2, forKey: .depth)
                var tags = meta.nestedUnkeyedContainer(forKey: .tags)
                try tags.encode("t")
                var inner = tags.nestedContainer(keyedBy: M.self)
                try inner.encodeNil(forKey: .depth)
                var list = container.nestedUnkeyedContainer(forKey: .list)
                try list.encode(1)
                var sub = list.nestedUnkeyedContainer()
                try sub.encode(true)
                try "super-value".encode(to: list.superEncoder())
                try ["from": "base"].encode(to: container.superEncoder(forKey: .base))
                try 7.encode(to: container.superEncoder())
                // Reusing a nested container appends to the same object.
                var again = container.nestedContainer(keyedBy: M.self, forKey: .meta)
                try again.encode(3, forKey: .depth)
            }
        }
        let value = try JSONValueEncoder().encode(Custom())
        #expect(
            value.serialized()
                == #"{"meta":{"depth":3,"tags":["t",{"depth":null}]},"list":[1,[true],"super-value"],"base":{"from":"base"},"super":7}"#
        )
    }

    @Test func encodingErrorsCarryThePath() throws {
        struct Inner: Encodable { var values: [Double] }
        struct Outer: Encodable { var inner: [Inner] }
        do {
            _ = try JSONValueEncoder().encode(Outer(inner: [Inner(values: [1]), Inner(values: [2, .nan])]))
            Issue.record("expected an error")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(ArgumentIssue.javaScriptPath(context.codingPath) == "inner[1].values[1]")
        }
    }

    @Test func emptyTopLevelEncodingThrows() {
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Nothing()) }
        #expect((try? JSONValueEncoder().encode(["x": Nothing()])) == ["x": [:]])
    }
}

// MARK: - Codable conformance

@Suite("JSONValue Codable")
struct JSONValueCodableTests {
    private struct Envelope: Codable, Equatable {
        var id: Int
        var payload: JSONValue
    }

    @Test func roundTripsThroughFoundationJSONEncoderAndDecoder() throws {
        let original = Envelope(id: 1, payload: ["list": [1, 2.5, "s", nil, true, ["deep": [:]]], "n": -3])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(original)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"id":1,"payload":{"list":[1,2.5,"s",null,true,{"deep":{}}],"n":-3}}"#)
        #expect(try JSONDecoder().decode(Envelope.self, from: data) == original)
    }

    @Test func foundationDecodesEveryKind() throws {
        let value = try JSONDecoder().decode(
            JSONValue.self, from: Data(#"[null,true,0,-1.5,"x",[],{"a":{"b":[false]}}]"#.utf8))
        #expect(value == [nil, true, 0, -1.5, "x", [], ["a": ["b": [false]]]])
    }

    @Test func roundTripsThroughOwnCoders() throws {
        let original = Envelope(id: 2, payload: ["z": 1, "a": [nil]])
        let value = try JSONValueEncoder().encode(original)
        #expect(value.serialized() == #"{"id":2,"payload":{"z":1,"a":[null]}}"#)
        let decoded = try JSONValueDecoder().decode(Envelope.self, from: value)
        #expect(decoded == original)
        #expect(decoded.payload.objectValue?.keys == ["z", "a"])
    }
}
