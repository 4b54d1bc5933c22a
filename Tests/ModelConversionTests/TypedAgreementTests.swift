import Foundation
import JSBridgeBase
import Testing

@testable import ModelConversion

/// A typed mapping and the schema engine read the same field plan (``CompiledField``): given a typed model and
/// the schema that declares the same fields, every input converts to the same values or fails with the same
/// issues, whichever path runs.
@Suite struct TypedAgreementTests {
    struct Inner: ModelConvertible, Equatable {
        var id = 0
        var label: String?
        static let modelMapping = ModelMapping<Inner>("Inner") { m in
            m.field("id", \.id)
            m.field("label", \.label)
        }
    }

    struct Sample: ModelConvertible, Equatable {
        var text = ""
        var count = 0
        var ratio = 0.0
        var flag = false
        var note: String?
        var site = URL(string: "https://default.example/")!
        var link: URL?
        var home = URL(string: "https://home.example/")!
        var when: Date?
        var numbers: [Int] = []
        var tags: Set<String>?
        var scores: [String: Int]?
        var extra: JSONValue = .null
        var stars = 3
        var kind = "a"
        var lenient = 7
        var alias = ""
        var deep: String?
        var inner: Inner?

        static let modelMapping = ModelMapping<Sample>("Sample") { m in
            m.field("text", \.text)
            m.field("count", \.count)
            m.field("ratio", \.ratio)
            m.field("flag", \.flag)
            m.field("note", \.note)
            m.field("site", \.site, required: false)
            m.field("link", \.link)
            m.field("home", \.home)
            m.field("when", \.when)
            m.field("numbers", \.numbers)
            m.field("tags", \.tags)
            m.field("scores", \.scores)
            m.field("extra", \.extra)
            m.field("stars", \.stars, required: false, range: 1...5)
            m.field("kind", \.kind, required: false, oneOf: ["a", "b"])
            m.field("lenient", \.lenient, required: false, onInvalid: .useDefault, range: 0...10)
            m.field("alias", \.alias, keys: "alias", "otherName")
            m.field("deep", \.deep, keys: "a.b")
            m.field("inner", \.inner)
        }
    }

    /// The schema of `Sample`: each typed field's declaration, with `init()`'s values as defaults.
    static func registry() throws -> ModelRegistry {
        let registry = ModelRegistry()
        try registry.define(
            ModelSchema(name: "Inner", fields: [FieldSchema("id", .int), FieldSchema("label", .optional(.string))]))
        try registry.define(
            ModelSchema(
                name: "Sample",
                fields: [
                    FieldSchema("text", .string),
                    FieldSchema("count", .int),
                    FieldSchema("ratio", .double),
                    FieldSchema("flag", .bool),
                    FieldSchema("note", .optional(.string)),
                    FieldSchema("site", .url, defaultValue: "https://default.example/"),
                    FieldSchema("link", .optional(.url)),
                    FieldSchema("home", .url),
                    FieldSchema("when", .optional(.date)),
                    FieldSchema("numbers", .array(.int)),
                    FieldSchema("tags", .optional(.set(.string))),
                    FieldSchema("scores", .optional(.map(.int))),
                    FieldSchema("extra", .optional(.any)),
                    FieldSchema("stars", .int, defaultValue: 3, minimum: 1, maximum: 5),
                    FieldSchema("kind", .string, defaultValue: "a", oneOf: ["a", "b"]),
                    FieldSchema("lenient", .int, defaultValue: 7, minimum: 0, maximum: 10, onInvalid: .useDefault),
                    FieldSchema("alias", .string, keys: ["alias", "otherName"]),
                    FieldSchema("deep", .optional(.string), keys: ["a.b"]),
                    FieldSchema("inner", .optional(.model("Inner"))),
                ]))
        return registry
    }

    /// Inputs a field may meet: absent (nil), null and null-like, the empty string, exact and coercible
    /// scalars, wrong types, nested values.
    static let candidates: [JSONValue?] = [
        nil, .null, "null", "", "  ", "abc", "12", "1.5", "true", "https://x.example/p?q=1", "2024-02-29T10:00:00Z",
        .number(0), .number(3), .number(1.5), .number(-4), .number(11), .number(1e300), .bool(true), .bool(false),
        .array([]), .array([.number(1), "2", .number(2)]), .array(["x", "x", "y"]), .array([.null]),
        .object([:]), .object(["id": .number(1)]), .object(["id": "2", "label": .null]), .object(["k": "3"]),
        .object(["b": "inner"]),
    ]

    static let keys = [
        "text", "count", "ratio", "flag", "note", "site", "link", "home", "when", "numbers", "tags", "scores", "extra",
        "stars", "kind", "lenient", "alias", "otherName", "a", "a.b", "inner",
    ]

    /// Each field as the engine outputs it: by field name, object keys sorted, a set's items sorted; members
    /// that are null are left out of nested objects (a nested typed model writes none).
    static func canonical(_ value: JSONValue, set: Bool = false) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(
                JSONObject(
                    object.sorted { $0.key < $1.key }.filter { !$0.value.isNull }.map { ($0.key, canonical($0.value)) })
            )
        case .array(let items) where set:
            return .array(items.sorted { $0.serialized() < $1.serialized() })
        default:
            return value
        }
    }

    static func typedFields(_ sample: Sample) -> JSONValue {
        guard case .object(let object) = Sample.modelMapping.encodeByName(sample) else { return .null }
        return .object(JSONObject(object.map { ($0.key, canonical($0.value, set: $0.key == "tags")) }))
    }

    static func engineFields(_ value: JSONValue) -> JSONValue {
        guard case .object(let object) = value else { return .null }
        return .object(JSONObject(object.map { ($0.key, canonical($0.value, set: $0.key == "tags")) }))
    }

    static func describe(_ issues: [ModelIssue]) -> [String] { issues.map { "\($0.path) \($0.code) \($0.message)" } }

    @Test(arguments: [ConversionOptions.lenient, .strictMode])
    func randomInputsConvertTheSameWay(options: ConversionOptions) throws {
        let registry = try Self.registry()
        var rng = SplitMix64(seed: options.strict ? 7 : 3)
        var converted = 0
        for round in 0..<4000 {
            var object = JSONObject()
            for key in Self.keys {
                // Mostly a well-typed base, so that inputs often convert and the values are compared too.
                let pick = Int(rng.next() % UInt64(Self.candidates.count * 12))
                if pick < Self.candidates.count {
                    if let value = Self.candidates[pick] { object[key] = value }
                } else if let value = Self.base[key] {
                    object[key] = value
                }
            }
            let input = JSONValue.object(object)
            let engine = Result { () throws(ModelError) in try registry.convert("Sample", input, options: options) }
            let typed = Result { () throws(ModelError) in try Sample(json: input, options: options) }
            switch (engine, typed) {
            case (.success(let e), .success(let t)):
                converted += 1
                #expect(Self.engineFields(e) == Self.typedFields(t), "round \(round): \(input.serialized())")
            case (.failure(let e), .failure(let t)):
                #expect(Self.describe(e.issues) == Self.describe(t.issues), "round \(round): \(input.serialized())")
            default:
                Issue.record("round \(round): engine \(engine), typed \(typed) for \(input.serialized())")
            }
        }
        #expect(converted > 100)
    }

    static let base: [String: JSONValue] = [
        "text": "t", "count": .number(2), "ratio": .number(0.5), "flag": .bool(true), "home": "https://h.example/",
        "numbers": .array([.number(1)]), "alias": "al",
    ]
}
