import Foundation
import JSBridgeBase
import JSBridgeTesting
import ModelConversion
import Testing

@Suite struct CoercionTableTests {
    func one(_ type: FieldType, _ input: JSONValue, strict: Bool = false) -> (JSONValue?, [ModelIssue]) {
        let r = ModelRegistry()
        try! r.define(ModelSchema(name: "T", fields: [FieldSchema("v", type)]))
        let result = r.check("T", ["v": input], options: ConversionOptions(strict: strict))
        return (result.value?["v"], result.issues)
    }

    @Test func lenientTable() {
        #expect(one(.string, 42).0 == "42")
        #expect(one(.string, 1.5).0 == "1.5")
        #expect(one(.string, true).1.first?.code == "TYPE")
        #expect(one(.int, "42").0 == 42)
        #expect(one(.int, " 42 ").0 == 42)
        #expect(one(.int, "42.0").0 == 42)
        #expect(one(.int, 4.5).1.first?.code == "NOT_INTEGER")
        #expect(one(.int, "4.5").1.first?.code == "NOT_INTEGER")
        #expect(one(.int, true).0 == 1)
        #expect(one(.int, "abc").1.first?.code == "TYPE")
        #expect(one(.int, "0x10").1.first?.code == "TYPE")
        #expect(one(.double, "1e3").0 == 1000)
        #expect(one(.double, "NaN").1.first?.code == "NOT_FINITE")
        #expect(one(.double, "-Infinity").1.first?.code == "NOT_FINITE")
        #expect(one(.double, "inf").1.first?.code == "NOT_FINITE")
        for (word, value) in [
            ("true", true), ("YES", true), ("no", false), ("1", true), ("0", false), ("false", false),
        ] {
            #expect(one(.bool, .string(word)).0 == .bool(value))
        }
        #expect(one(.bool, 1).0 == true)
        #expect(one(.bool, 0).0 == false)
        #expect(one(.bool, 2).1.first?.code == "TYPE")
        #expect(one(.bool, "maybe").1.first?.code == "TYPE")
        // IPHBaseModel's case variants, each of them.
        for nullLike in [
            "null", "NULL", "Null", "<null>", "<NULL>", "<Null>", "(null)", "(NULL)", "(Null)", "nil", "NIL", "Nil",
        ] {
            #expect(one(.optional(.int), .string(nullLike)).0 == .null)
            #expect(one(.int, .string(nullLike)).1.first?.code == "NULL")
        }
        #expect(one(.optional(.url), "").0 == .null)
        #expect(one(.url, "https://x.org/a").0 == "https://x.org/a")
        #expect(one(.url, "not a url").1.first?.code == "URL_FORMAT")
        #expect(one(.any, ["a": [1]]).0 == ["a": [1]])
    }

    @Test func strictTable() {
        #expect(one(.string, 42, strict: true).1.first?.code == "TYPE")
        #expect(one(.int, "42", strict: true).1.first?.code == "TYPE")
        #expect(one(.bool, 1, strict: true).1.first?.code == "TYPE")
        #expect(one(.optional(.int), "null", strict: true).1.first?.code == "TYPE")
        #expect(one(.date, 1_442_377_209, strict: true).1.first?.code == "TYPE")
        #expect(one(.date, "Wed Sep 16 12:20:09 +0800 2015", strict: true).1.first?.code == "DATE_FORMAT")
        #expect(one(.date, "2015-09-16T04:20:09Z", strict: true).0 == "2015-09-16T04:20:09Z")
        #expect(one(.int, 42, strict: true).0 == 42)
    }

    @Test func integersAreLosslessUpTo2To53() {
        #expect(one(.int, 9_007_199_254_740_991).0 == 9_007_199_254_740_991)
        #expect(one(.int, .number(9_007_199_254_740_992)).1.first?.code == "OUT_OF_RANGE")
        #expect(one(.int, "9007199254740993").1.first?.code == "OUT_OF_RANGE")
        #expect(one(.int, .number(1e300)).1.first?.code == "OUT_OF_RANGE")
        let parsed = json(#"{"v": 12345678901234567890}"#)
        let r = ModelRegistry()
        try! r.define(ModelSchema(name: "T", fields: [FieldSchema("v", .int)]))
        #expect(r.validate("T", parsed).map(\.code) == ["OUT_OF_RANGE"])
    }

    @Test func dates() {
        let cases: [(String, String)] = [
            ("2015-09-16", "2015-09-16T00:00:00Z"),
            ("2015-09-16T12:20:09Z", "2015-09-16T12:20:09Z"),
            ("2015-09-16T12:20:09.250Z", "2015-09-16T12:20:09.250Z"),
            ("2015-09-16T12:20:09+08:00", "2015-09-16T04:20:09Z"),
            ("2015-09-16T12:20:09.5+0800", "2015-09-16T04:20:09.500Z"),
            ("2015-09-16 12:20:09", "2015-09-16T12:20:09Z"),
            ("Wed Sep 16 12:20:09 +0800 2015", "2015-09-16T04:20:09Z"),
            ("Wed Sep 16 12:20:09.000 +0800 2015", "2015-09-16T04:20:09Z"),
            ("20150916122009", "2015-09-16T12:20:09Z"),
            ("1442377209", "2015-09-16T04:20:09Z"),
        ]
        for (input, expected) in cases {
            #expect(one(.date, .string(input)).0 == .string(expected), "\(input)")
        }
        #expect(one(.date, 1_442_377_209).0 == "2015-09-16T04:20:09Z")
        #expect(one(.date, 1_442_377_209_123).0 == "2015-09-16T04:20:09.123Z")
        #expect(one(.date, "2015-02-30").1.first?.code == "DATE_FORMAT")
        #expect(one(.date, "yesterday").1.first?.code == "DATE_FORMAT")
        #expect(one(.date, true).1.first?.code == "TYPE")
    }
}

@Suite struct SchemaEngineTests {
    @Test func convertsWithKeysPathsAndDefaults() throws {
        let r = try hotelRegistry()
        let out = try r.convert(
            "Hotel",
            json(
                """
                {"name":"Ritz","ext":{"desc":"grand"},"description":"other","opened":"2015-09-16T12:20:09+08:00",
                 "site":"","rooms":[{"number":"101","price":"99.5","kind":"single","tags":["a","a","b"]}]}
                """))
        #expect(
            out
                == json(
                    """
                    {"name":"Ritz","desc":"grand","stars":3,"opened":"2015-09-16T04:20:09Z","site":null,
                     "rooms":[{"number":101,"price":99.5,"kind":"single","tags":["a","b"]}],"byFloor":null,"extra":null}
                    """))
        // First non-null candidate wins.
        let second = try r.convert(
            "Hotel", json(#"{"name":"A","ext":{"desc":null},"description":"fallback","rooms":[]}"#))
        #expect(second["desc"] == "fallback")
        // Back to JSON: the first key, nested paths rebuilt.
        let back = try r.toJSON("Hotel", out)
        #expect(back["ext"] == ["desc": "grand"])
        #expect(back["description"] == nil)
        #expect(back["rooms"]?[0]?["number"] == 101)
    }

    @Test func collectsEveryIssueWithPaths() throws {
        let r = try hotelRegistry()
        let issues = r.validate(
            "Hotel",
            json(
                """
                {"stars":9,"opened":"soon","rooms":[{"number":1,"price":1,"kind":"single"},{"number":2.5,"price":-1,"kind":"villa"},
                 {"number":3,"price":{},"kind":"suite"},null],"byFloor":{"1":[{"number":"x","price":1,"kind":"single"}]}}
                """))
        #expect(
            issues.map { "\($0.path) \($0.code)" }
                == [
                    "name REQUIRED", "stars OUT_OF_RANGE", "opened DATE_FORMAT", "rooms[1].number NOT_INTEGER",
                    "rooms[1].price OUT_OF_RANGE", "rooms[1].kind NOT_IN_ENUM", "rooms[2].price TYPE", "rooms[3] NULL",
                    "byFloor.1[0].number TYPE",
                ].map { $0.replacingOccurrences(of: "byFloor.1", with: "byFloor[\"1\"]") })
        #expect(issues[3].input == 2.5)
        #expect(issues[6].input == "{object with 0 keys}" || issues[6].input == .object([:]))
        #expect(throws: ModelError.self) { try r.convert("Hotel", ["rooms": "none"]) }
    }

    @Test func wrongTypesAtEveryLevel() throws {
        let r = try hotelRegistry()
        #expect(r.validate("Hotel", [1, 2]).map(\.code) == ["TYPE"])
        #expect(r.validate("Hotel", ["name": ["x"], "rooms": ["a"]]).map(\.path) == ["name", "rooms[0]"])
        #expect(
            r.validate("Hotel", ["name": "x", "rooms": [["number": [], "price": true, "kind": 3]]]).map(\.path)
                == ["rooms[0].number", "rooms[0].kind"])  // price: true → 1 (lenient)
    }

    @Test func invalidPolicyUsesDefaultNeverZero() throws {
        let r = ModelRegistry()
        try r.define(
            ModelSchema(
                name: "P",
                fields: [
                    FieldSchema("count", .int, defaultValue: 7, onInvalid: .useDefault),
                    FieldSchema("score", .optional(.double), onInvalid: .useDefault),
                    FieldSchema("name", .string),
                ]))
        let result = r.check("P", ["count": "many", "score": "high", "name": "x"])
        #expect(result.value == ["count": 7, "score": nil, "name": "x"])
        #expect(result.warnings.map(\.path) == ["count", "score"])
        #expect(result.issues.isEmpty)
    }

    @Test func whitelistBlacklistAndSnakeCase() throws {
        let r = ModelRegistry()
        try r.define(
            ModelSchema(
                name: "U",
                fields: [
                    FieldSchema("avatarURL", .string), FieldSchema("userID", .int), FieldSchema("secret", .string),
                ],
                keyStrategy: .snakeCase, ignore: ["secret"]))
        let u = try r.convert("U", ["avatar_url": "a", "user_id": 1, "secret": "s"])
        #expect(u == ["avatarURL": "a", "userID": 1])
        #expect(try r.convert("U", ["avatarURL": "b", "userID": 2]) == ["avatarURL": "b", "userID": 2])
        #expect(try r.toJSON("U", u) == ["avatar_url": "a", "user_id": 1])
        try r.define(ModelSchema(name: "W", fields: [FieldSchema("a", .int), FieldSchema("b", .int)], only: ["a"]))
        #expect(try r.convert("W", ["a": 1]) == ["a": 1])
    }

    @Test func polymorphismByDiscriminatorAndResolver() throws {
        let r = ModelRegistry()
        try r.define(
            ModelSchema(name: "Circle", fields: [FieldSchema("kind", .string), FieldSchema("radius", .double)]))
        try r.define(ModelSchema(name: "Square", fields: [FieldSchema("kind", .string), FieldSchema("side", .double)]))
        try r.define(
            ModelSchema(
                name: "Shape", fields: [],
                discriminator: Discriminator(
                    key: "kind", mapping: ["circle": "Circle", "square": "Square", "blob": "Blob"])))
        try r.define(ModelSchema(name: "Drawing", fields: [FieldSchema("shapes", .array(.model("Shape")))]))
        let d = try r.convert(
            "Drawing", json(#"{"shapes":[{"kind":"circle","radius":"2"},{"kind":"square","side":3}]}"#))
        #expect(d == json(#"{"shapes":[{"kind":"circle","radius":2},{"kind":"square","side":3}]}"#))
        #expect(
            try r.toJSON("Drawing", d) == json(#"{"shapes":[{"kind":"circle","radius":2},{"kind":"square","side":3}]}"#)
        )
        let bad = r.validate("Drawing", json(#"{"shapes":[{"kind":"hexagon"},{"radius":1},{"kind":"blob"}]}"#))
        #expect(
            bad.map { "\($0.path) \($0.code)" } == [
                "shapes[0].kind UNKNOWN_DISCRIMINATOR", "shapes[1].kind REQUIRED", "shapes[2].kind UNKNOWN_MODEL",
            ])
        #expect(bad[0].input == "hexagon")
        // A custom resolver picks by shape of the data.
        try r.define(ModelSchema(name: "Any2D", fields: [FieldSchema("radius", .double)]))
        r.setResolver("Any2D") { value in value["side"] != nil ? "Square" : nil }
        #expect(try r.convert("Any2D", ["kind": "s", "side": 2]) == ["kind": "s", "side": 2])
        #expect(try r.convert("Any2D", ["radius": 1]) == ["radius": 1])
        // model → JSON asks the resolver too (with the model object), so the chosen model's fields are written.
        #expect(try r.toJSON("Any2D", ["kind": "s", "side": 2]) == ["kind": "s", "side": 2])
        #expect(try r.toJSON("Any2D", ["radius": 1, "kind": "c"]) == ["radius": 1])
    }

    @Test func transformsBeforeAndAfter() throws {
        let r = try hotelRegistry()
        r.setBeforeTransform("Room") { value, _ in
            guard case .object(var o) = value, o["kind"] == nil else { return nil }
            o["kind"] = "single"
            return .object(o)
        }
        r.setAfterTransform("Hotel") { hotel, _ in
            guard case .array(let rooms)? = hotel["rooms"] else { return }
            hotel["rooms"] = .array(
                rooms.map { room in
                    guard case .object(var o) = room else { return room }
                    o["hotel"] = hotel["name"]
                    return .object(o)
                })
        }
        let h = try r.convert("Hotel", json(#"{"name":"Ritz","rooms":[{"number":1,"price":2}]}"#))
        #expect(h["rooms"]?[0]?["kind"] == "single")
        #expect(h["rooms"]?[0]?["hotel"] == "Ritz")
    }

    @Test func schemaErrors() throws {
        #expect(throws: SchemaError.self) { try FieldType.parse("strng") }
        #expect((try? FieldType.parse("[Room]")) == .array(.model("Room")))
        #expect((try? FieldType.parse("Set<int>?")) == .optional(.set(.int)))
        #expect((try? FieldType.parse("{Room}")) == .map(.model("Room")))
        let r = ModelRegistry()
        try r.define(ModelSchema(name: "A", fields: [FieldSchema("x", .int)]))
        try r.define(ModelSchema(name: "A", fields: [FieldSchema("x", .int)]))  // same again: fine
        let e = #expect(throws: SchemaError.self) {
            try r.define(ModelSchema(name: "A", fields: [FieldSchema("x", .string)]))
        }
        #expect(e?.code == "REDEFINITION")
        try r.define(ModelSchema(name: "A", fields: [FieldSchema("x", .string)]), redefinition: .replace)
        #expect(try r.convert("A", ["x": 1]) == ["x": "1"])
        #expect(throws: SchemaError.self) { try r.define(ModelSchema(name: "lower", fields: [])) }
        let parsed = #expect(throws: SchemaError.self) {
            try ModelSchema(name: "B", json: ["a": "int", "b": ["type": "strng"]])
        }
        #expect(parsed?.code == "UNKNOWN_TYPE")
        #expect(parsed?.path == "b.type")
        // An undefined nested model is reported at its path when converting.
        try r.define(ModelSchema(name: "C", fields: [FieldSchema("child", .model("Missing"))]))
        #expect(r.validate("C", ["child": [:]]).map { "\($0.path) \($0.code)" } == ["child UNKNOWN_MODEL"])
        #expect(r.validate("Nope", [:]).map(\.code) == ["UNKNOWN_MODEL"])
    }

    @Test func plainObjectSchema() throws {
        let schema = try ModelSchema(
            name: "Hotel",
            json: json(
                """
                {"name":"string","rooms":["Room"],"stars":{"type":"int","default":3,"min":1,"max":5},
                 "desc":{"type":"string","keys":["ext.desc","description"],"optional":true},
                 "kind":{"type":"string","enum":["a","b"],"onInvalid":"default","default":"a"}}
                """),
            options: ["keyStrategy": "snake_case", "strict": false])
        #expect(schema.fields.map(\.name) == ["name", "rooms", "stars", "desc", "kind"])
        #expect(schema.fields[1].type == .array(.model("Room")))
        #expect(schema.fields[3].type == .optional(.string))
        #expect(schema.fields[3].keys == ["ext.desc", "description"])
        #expect(schema.keyStrategy == .snakeCase)
        #expect(throws: SchemaError.self) { try ModelSchema(name: "X", json: ["a": ["type": "int", "colour": 1]]) }
        #expect(throws: SchemaError.self) { try ModelSchema(name: "X", json: ["a": 5]) }
    }

    // Seconds of work in a debug build: off the cooperative pool, which every async test shares.
    @Test(.blocking) func deepNestingIsATooDeepIssueNotACrash() throws {
        let r = ModelRegistry()
        try r.define(ModelSchema(name: "Node", fields: [FieldSchema("child", .optional(.model("Node")))]))
        try r.define(
            ModelSchema(name: "Box", fields: [FieldSchema("raw", .any), FieldSchema("list", .optional(.any))]))
        var text = String(repeating: #"{"child":"#, count: 10_000) + "null" + String(repeating: "}", count: 10_000)
        var deep = json(text)
        let issues = r.validate("Node", deep)
        #expect(issues.map(\.code) == ["TOO_DEEP"])
        #expect(issues[0].path.hasPrefix("child.child.child"))
        // Raw JSON of any depth passes through untouched.
        var box: JSONValue = ["raw": deep]
        let out = try r.convert("Box", box)
        #expect(out["raw"] == deep)
        box = .null
        releaseDeep(&deep)
        text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        var nested = json(text)
        try r.define(ModelSchema(name: "Lists", fields: [FieldSchema("l", .array(.array(.array(.int))))]))
        #expect(r.validate("Lists", ["l": nested]).map(\.code) == ["TYPE"])
        releaseDeep(&nested)
    }

    // Seconds of work in a debug build: off the cooperative pool, which every async test shares.
    @Test(.blocking) func hugeArrays() throws {
        let r = try hotelRegistry()
        let rooms = JSONValue.array(
            (0..<200_000).map { i in ["number": .number(Double(i)), "price": 1, "kind": "single"] })
        let out = try r.convert("Hotel", ["name": "Big", "rooms": rooms])
        #expect(out["rooms"]?.arrayValue?.count == 200_000)
        var bad = rooms.arrayValue!
        for i in stride(from: 0, to: 200_000, by: 2) { bad[i] = "x" }
        let issues = r.validate(
            "Hotel", ["name": "Big", "rooms": .array(bad)], options: ConversionOptions(maxIssues: 50))
        #expect(issues.count == 51)
        #expect(issues.last?.code == "TOO_MANY_ISSUES")
        #expect(issues[1].path == "rooms[2]")
    }

    @Test func bytesRejectInvalidUnicode() throws {
        let r = try hotelRegistry()
        var bytes = Array(#"{"name":"ab","rooms":[]}"#.utf8)
        #expect(try r.convert("Hotel", json: bytes)["name"] == "ab")
        bytes[10] = 0xFF
        let e1 = #expect(throws: ModelError.self) { try r.convert("Hotel", json: bytes) }
        #expect(e1?.issues.first?.code == "INVALID_UNICODE")
        #expect(e1?.issues.first?.message.contains("offset 10") == true)
        let lone = Array(#"{"name":"\ud800x","rooms":[]}"#.utf8)
        let e2 = #expect(throws: ModelError.self) { try r.convert("Hotel", json: lone) }
        #expect(e2?.issues.first?.code == "INVALID_UNICODE")
        let pair = Array(#"{"name":"\ud83d\ude00","rooms":[]}"#.utf8)
        #expect(try r.convert("Hotel", json: pair)["name"] == "😀")
        let broken = Array(#"{"name":"#.utf8)
        #expect(
            (#expect(throws: ModelError.self) { try r.convert("Hotel", json: broken) })?.issues.first?.code
                == "JSON_PARSE")
    }

    @Test func sampleArchiveEqualityDescription() throws {
        let r = try hotelRegistry()
        let s = try r.sample("Hotel")
        #expect(r.validate("Hotel", try r.toJSON("Hotel", s)) == [])
        #expect(s["name"] == "Jane Doe")
        #expect(s["stars"] == 3)
        #expect(s["rooms"]?[0]?["kind"] == "single")
        let wire = try r.sample("Hotel", asJSON: true)
        #expect(wire["ext"]?["desc"] != nil)
        let h = try r.convert(
            "Hotel", json(#"{"name":"Ritz","rooms":[{"number":1,"price":2,"kind":"suite"}],"opened":1442377209}"#))
        let archived = try r.archive("Hotel", h)
        #expect(archived.hasPrefix(#"{"$model":"Hotel","$version":1,"value":{"name":"Ritz""#))
        #expect(try r.archive("Hotel", h) == archived)
        let restored = try r.unarchive(archived)
        #expect(restored.model == "Hotel")
        #expect(restored.value == h)
        #expect(r.equal("Hotel", h, restored.value))
        #expect(r.hash("Hotel", h) == r.hash("Hotel", restored.value))
        var other = h.objectValue!
        other["name"] = "Savoy"
        #expect(!r.equal("Hotel", h, .object(other)))
        #expect(try r.copy("Hotel", h) == h)
        #expect(r.describe("Hotel", ["name": "Ritz"]) == #"Hotel(name: "Ritz")"#)
    }
}

@Suite struct TypedModelTests {
    @Test func githubUserRoundTrip() throws {
        let user = try GithubUser(json: json(githubUserJSON))
        #expect(user.login == "facebook")
        #expect(user.userID == 69631)
        #expect(user.avatarURL == "https://avatars.githubusercontent.com/u/69631?v=3")
        #expect(user.company == nil)
        #expect(user.publicRepos == 147)
        let fromBytes = try GithubUser(jsonBytes: Array(githubUserJSON.utf8))
        #expect(fromBytes == user)
        let bytes = user.jsonBytes()
        let again = try GithubUser(jsonBytes: bytes)
        #expect(again == user)
        let tree = try JSONValue(parsing: bytes)
        #expect(tree["id"] == 69631)
        #expect(tree["avatar_url"] == "https://avatars.githubusercontent.com/u/69631?v=3")
        #expect(tree["company"] == nil)  // nil fields are left out
        #expect(tree == user.jsonValue())
        #expect(user.modelDescription.hasPrefix(#"GithubUser(login: "facebook", userID: 69631"#))
        #expect(try GithubUser(archive: user.archived()) == user)
        #expect(Set([user, again]).count == 1)
    }

    /// A typed mapping writes its JSON bytes with the same rules as the tree serializer (one writer).
    @Test func directBytesEqualTheSerializedTree() {
        let names = ["plain", "quote \" backslash \\ slash /", "controls \u{0}\u{1f}\n\t\r\u{8}\u{c}", "é 😀 \u{2028}"]
        let prices = [0.0, -0.0, 0.1, 1.5e-7, 1e21, 123_456_789_012_345_680, -2.5, .nan, .infinity, -.infinity]
        for (name, price) in zip(names.cycled(to: prices.count), prices) {
            let room = TypedRoom(number: -42, price: price, hotelName: name)
            var hotel = TypedHotel(name: name, desc: name, rooms: [room])
            hotel.byFloor = [name: room]
            #expect(hotel.jsonBytes() == hotel.jsonValue().serializedUTF8(), "\(name) \(price)")
        }
    }

    @Test func typedIssuesAndTransforms() throws {
        let h = try TypedHotel(
            json: json(
                """
                {"name":"Ritz","ext":{"desc":"grand"},"stars":"9","rooms":[{"number":1,"price":"10"}],"tags":["a","a"],
                 "byFloor":{"1":{"number":"2","price":3}}}
                """))
        #expect(h.desc == "grand")
        #expect(h.stars == 3)  // out of range → the property's own default (policy .useDefault), never 0
        #expect(h.rooms == [TypedRoom(number: 1, price: 10, hotelName: "Ritz")])
        #expect(h.tags == ["a"])
        #expect(h.byFloor["1"]?.number == 2)
        let issues = TypedHotel.validate(
            json(#"{"rooms":[{"number":1.5,"price":-1},{"number":"x"}, null],"tags":[null]}"#))
        #expect(
            issues.map { "\($0.path) \($0.code)" } == [
                "name REQUIRED", "rooms[0].number NOT_INTEGER", "rooms[0].price OUT_OF_RANGE", "rooms[1].number TYPE",
                "rooms[1].price REQUIRED", "rooms[2] NULL", "tags[0] NULL",
            ])
        let back = try JSONValue(parsing: h.jsonBytes())
        #expect(back["ext"] == ["desc": "grand"])
        #expect(back["rooms"] == [["number": 1, "price": 10]])
        #expect(back == h.jsonValue())
        let strict = #expect(throws: ModelError.self) {
            try TypedHotel(json: ["name": 5, "rooms": []], options: .strictMode)
        }
        #expect(strict?.issues.map(\.path) == ["name"])
    }

    @Test func typedDeepRecursionIsBounded() throws {
        var text = String(repeating: #"{"number":1,"price":1,"rooms":["#, count: 1) + "]}"
        text =
            #"{"name":"x","rooms":"# + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "}"
        var value = json(text)
        let issues = TypedHotel.validate(value)
        #expect(issues.map(\.code) == ["TYPE"])
        releaseDeep(&value)
    }
}

@Suite struct ShapeCacheTests {
    @Test func differentKeyOrdersAndMissingKeys() throws {
        let a = try TypedRoom(json: ["number": 1, "price": 2])
        let b = try TypedRoom(json: ["price": 3, "number": 4])
        let c = try TypedRoom(json: ["price": 3, "number": 4])
        #expect([a.number, b.number, c.number] == [Int](arrayLiteral: 1, 4, 4))
        #expect([a.price, b.price] == [Double](arrayLiteral: 2, 3))
        #expect(TypedRoom.validate(["price": 3, "extra": 1]).map(\.path) == ["number"])
        #expect(TypedRoom.validate(["number": 3, "extra": 1]).map(\.path) == ["price"])
        #expect(try TypedRoom(json: ["number": 5, "price": 6]).number == 5)
    }
}

extension Array {
    /// The elements repeated until there are `count` of them.
    fileprivate func cycled(to count: Int) -> [Element] { (0..<count).map { self[$0 % self.count] } }
}
