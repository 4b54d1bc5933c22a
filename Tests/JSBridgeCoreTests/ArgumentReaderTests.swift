import JSBridgeCore
import Testing

@testable import JSBridgeBase

/// What the reader and the decoder both read in these tests.
private struct Order: Decodable, Equatable {
    struct Line: Decodable, Equatable {
        var sku: String
        var quantity: Int
    }

    var name: String
    var count: Int?
    var note: String?
    var urgent: Bool?
    var line: Line?

    init(name: String, count: Int?, note: String?, urgent: Bool?, line: Line?) {
        self.name = name
        self.count = count
        self.note = note
        self.urgent = urgent
        self.line = line
    }

    /// The same fields through ``ArgumentReader``.
    init(reading json: JSONValue) throws(BridgeError) {
        let reader = try ArgumentReader(json)
        self.init(
            name: try reader.requiredString("name"), count: try reader.int("count"), note: try reader.string("note"),
            urgent: try reader.bool("urgent"), line: try reader.decode(Line.self, "line"))
    }
}

/// The decoder's outcome for `json`: the value, or the `INVALID_ARGUMENT` issues.
private func decoded(_ json: JSONValue) -> Result<Order, BridgeError> {
    Result { () throws(BridgeError) in try decodeArguments(Order.self, from: json) }
}

private func read(_ json: JSONValue) -> Result<Order, BridgeError> {
    Result { () throws(BridgeError) in try Order(reading: json) }
}

@Suite struct ArgumentReaderTests {
    @Test func readsWhatTheDecoderReads() throws {
        let inputs: [JSONValue] = [
            ["name": "a"],
            ["name": "a", "count": 3, "note": .null, "urgent": true, "ignored": [1, 2]],
            ["name": "a", "line": ["sku": "x", "quantity": 2]],
        ]
        for input in inputs {
            #expect(try read(input).get() == decoded(input).get())
        }
    }

    @Test(arguments: [
        ["count": 1] as JSONValue,
        ["name": 5],
        ["name": .null],
        ["name": "a", "count": 1.5],
        ["name": "a", "count": "3"],
        ["name": "a", "count": 1e300],
        ["name": "a", "note": false],
        ["name": "a", "urgent": "yes"],
        ["name": "a", "urgent": 1],
        ["name": "a", "line": ["sku": "x"]],
        ["name": "a", "line": ["sku": 1, "quantity": 1]],
        ["name": "a", "line": []],
        [1, 2],
        "text",
    ])
    func failsWithTheDecodersPathsAndMessages(_ input: JSONValue) {
        guard case .failure(let expected) = decoded(input), case .failure(let error) = read(input) else {
            Issue.record("both should fail for \(input.serialized())")
            return
        }
        #expect(error.code == BridgeError.Code.invalidArgument)
        #expect(error.data?["issues"] == expected.data?["issues"], "for \(input.serialized())")
        #expect(error.message == expected.message)
    }

    @Test func nullArgumentsReadAsAnEmptyObject() throws {
        let reader = try ArgumentReader(.null)
        #expect(try reader.string("name") == nil)
        #expect(throws: BridgeError.self) { try reader.requiredString("name") }
    }

    @Test func nestedReadersPrefixTheirPaths() throws {
        let reader = try ArgumentReader(["retry": ["count": "x"], "first name": 1], at: "")
        let nested = try ArgumentReader(#require(reader.value("retry")), at: reader.path(of: "retry"))
        let error = #expect(throws: BridgeError.self) { try nested.int("count") }
        #expect(error?.data?["issues"]?[0]?["path"] == "retry.count")
        #expect(reader.path(of: "first name") == #"["first name"]"#)
        #expect(nested.path(of: "a b") == #"retry["a b"]"#)
        let notObject = #expect(throws: BridgeError.self) { try ArgumentReader(5, at: "options") }
        #expect(notObject?.data?["issues"]?[0]?["path"] == "options")
        #expect(try reader.array("missing") == nil)
        #expect(throws: BridgeError.self) { try reader.array("first name") }
    }
}
