import HTTPPlugin
import HTTPPluginTesting
import JSBridgeCore
import JSBridgeTesting
import Testing

/// The native DAO engine's actions headless (`daoRequest`, `daoSend`, `daoRead`): the rules JavaScript DAOs
/// and Swift DAOs share.
@Suite struct DAOEngineTests {
    static let user = #"{"id": 1296269, "login": "octocat", "tags": ["a", "b"]}"#
    static let parsedUser: JSONValue = ["id": 1_296_269, "login": "octocat", "tags": ["a", "b"]]

    /// A definition as http-dao.js writes it.
    static func dao(_ path: String, _ extra: String = "") -> JSONValue {
        .string(#"{"name":"Get","baseURL":"http://a.test","path":"\#(path)""# + extra + "}")
    }

    static func tester(completions: Bool) async throws -> PluginTester {
        let transport = RecordingHTTPTransport { request in
            switch request.url {
            case "http://a.test/user":
                HTTPTransportResponse(
                    status: 200, headers: [HTTPField("Content-Type", "application/json")], body: .text(Self.user))
            case "http://a.test/text": HTTPTransportResponse(status: 200, body: .text("not { json"))
            case "http://a.test/created": HTTPTransportResponse(status: 201, body: .text("[1, 2]"))
            case "http://a.test/none": HTTPTransportResponse(status: 204)
            default: HTTPTransportResponse(status: 500, body: .text(#"{"error": 1}"#))
            }
        }
        return try await PluginTester(
            HTTPPlugin(transport: completions ? CompletionTransport(base: transport) : transport),
            options: HTTPActionTests.allowAll)
    }

    /// A body read whole arrives as it came (validated, not re-encoded), at a key path as its value; the
    /// answer is the same without a task (completions) and with one (a retry policy).
    @Test(arguments: HTTPActionTests.bothPaths) func answersCarryTheDataAtTheKeyPath(completions: Bool) async throws {
        let tester = try await Self.tester(completions: completions)
        for retry in ["", #","retry":{"count":1}"#] {
            let full = try #require(
                try await tester.call("daoSend", ["dao": Self.dao("/user", retry), "read": "data"]).objectValue)
            #expect(full["data"] == Self.parsedUser)
            #expect(full["body"] == nil && full["status"] == 200 && full["source"] == "network")
            #expect(full["headers"]?.arrayValue?.contains(["content-type", "application/json"]) == true)
            let brief = try #require(
                try await tester.call("daoSend", ["dao": Self.dao("/user", retry), "read": "data", "brief": true])
                    .objectValue)
            #expect(
                Set(brief.keys)
                    == Set(["status", "url", "data", "attempts"]).subtracting(
                        retry.isEmpty ? ["attempts"] : []))
            let tags = try await tester.call(
                "daoSend", ["dao": Self.dao("/user", #","response":{"keyPath":"tags"}"# + retry), "read": "data"])
            #expect(tags["data"] == ["a", "b"])
            let nowhere = try await tester.call(
                "daoSend", ["dao": Self.dao("/user", #","response":{"keyPath":"tags.x"}"#), "read": "data"])
            #expect(nowhere.objectValue?.keys.contains("data") == false)
            let raw = try await tester.call("daoSend", ["dao": Self.dao("/user"), "read": "response"])
            #expect(raw["body"] == JSONValue.string(Self.user))
            #expect(raw.objectValue?.keys.contains("data") == false)
        }
        #expect(try await tester.call("daoSend", ["dao": Self.dao("/created"), "read": "data"])["data"] == [1, 2])
        #expect(try await tester.call("daoSend", ["dao": Self.dao("/none"), "read": "data"])["data"] == JSONValue.null)
        let text = try await tester.call(
            "daoSend", ["dao": Self.dao("/text", #","response":{"type":"text"}"#), "read": "data"])
        #expect(text["data"] == "not { json")
        await tester.shutdown()
    }

    /// A definition is read once and named by a number afterwards: the same text gets the same number.
    @Test func definitionsAreNumbered() async throws {
        let tester = try await Self.tester(completions: true)
        let first = try await tester.call("daoDefine", Self.dao("/user"))
        #expect(try await tester.call("daoDefine", Self.dao("/user")) == first)
        #expect(try await tester.call("daoDefine", Self.dao("/created")) != first)
        let answer = try await tester.call("daoSend", ["dao": first, "read": "data"])
        #expect(answer["data"] == Self.parsedUser)
        let unknown = await #expect(throws: BridgeError.self) {
            try await tester.call("daoSend", ["dao": 999, "read": "data"])
        }
        #expect(unknown?.code == "INVALID_ARGUMENT" && unknown?.data?["issues"]?[0]?["path"] == "dao")
        await tester.shutdown()
    }

    /// Failures name their domain, keep the response, and list issues with paths.
    @Test(arguments: HTTPActionTests.bothPaths) func failuresNameTheirDomain(completions: Bool) async throws {
        let tester = try await Self.tester(completions: completions)
        let status = await #expect(throws: BridgeError.self) {
            try await tester.call("daoSend", ["dao": Self.dao("/failed"), "read": "data"])
        }
        #expect(status?.code == "HTTP_STATUS" && status?.data?["domain"] == "http")
        #expect(status?.data?["response"]?["body"] == #"{"error": 1}"#)
        let json = await #expect(throws: BridgeError.self) {
            try await tester.call("daoSend", ["dao": Self.dao("/text"), "read": "data"])
        }
        #expect(json?.code == "DATA_FORMAT" && json?.data?["domain"] == "dataFormat")
        #expect(json?.data?["issues"]?[0]?["code"] == "INVALID_JSON")
        let missing = await #expect(throws: BridgeError.self) {
            try await tester.call("daoSend", ["dao": Self.dao("/users/{id}"), "read": "data"])
        }
        #expect(missing?.code == "INVALID_ARGUMENT" && missing?.data?["issues"]?[0]?["path"] == "params.id")
        let badType = await #expect(throws: BridgeError.self) {
            try await tester.call(
                "daoSend", ["dao": Self.dao("/user", #","response":{"type":"xml"}"#), "read": "data"])
        }
        #expect(badType?.code == "INVALID_ARGUMENT")
        await tester.shutdown()
    }

    /// `daoRequest` maps parameters by the declared rules and builds the request; in two halves around a
    /// `didSetUpParams` hook; with a multipart body's fields and file references for JavaScript to stream.
    @Test func requestsAreMappedAndBuilt() async throws {
        let tester = try await Self.tester(completions: false)
        let dao = Self.dao(
            "/items/{id}",
            #","method":"POST","headers":[["X-App","1"]],"params":[{"name":"id","wire":"id"},"#
                + #"{"name":"token","wire":"X-Token","in":"header"},{"name":"page","wire":"p","in":"query","default":1}]"#
        )
        let built = try await tester.call(
            "daoRequest", ["dao": dao, "params": ["id": "a b", "token": "t", "title": "Hi"]])
        #expect(built["url"] == "http://a.test/items/a%20b?p=1")
        #expect(built["body"] == #"{"title":"Hi"}"#)
        #expect(built["headers"] == [["X-App", "1"], ["X-Token", "t"], ["content-type", "application/json"]])
        let half = try await tester.call("daoRequest", ["dao": dao, "params": ["id": 7], "stage": "map"])
        #expect(half["params"] == ["p": 1])
        let rebuilt = try await tester.call(
            "daoRequest", ["dao": dao, "mapped": half["mapped"] ?? nil, "wire": ["p": 1, "sign": "x"]])
        #expect(rebuilt["url"] == "http://a.test/items/7?p=1")
        #expect(rebuilt["body"] == #"{"sign":"x"}"#)
        let upload = Self.dao("/up", #","method":"POST","encoding":"multipart""#)
        let form = try await tester.call(
            "daoRequest", ["dao": upload, "params": ["tags": ["a", 2], "doc": ["$jsbridgeFile": 0]]])
        #expect(form["multipart"] == ["fields": [["tags", "a"], ["tags", "2"]], "files": [["doc", 0]]])
        #expect(form["body"] == nil)
        await tester.shutdown()
    }
}
