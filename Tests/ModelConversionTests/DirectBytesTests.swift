import Foundation
import JSBridgeBase
import Testing

@testable import ModelConversion

/// The direct bytes → model path must give exactly what the tree path gives (the model, or the same issues).
@Suite struct DirectBytesTests {
    /// The tree path: parse, then convert the tree.
    func viaTree<M: ModelConvertible>(_: M.Type, _ bytes: [UInt8], _ options: ConversionOptions) -> Result<
        M, ModelError
    > {
        Result { () throws(ModelError) -> M in
            try M(json: try parseJSON(bytes, model: M.modelMapping.name), options: options)
        }
    }

    func viaBytes<M: ModelConvertible>(_: M.Type, _ bytes: [UInt8], _ options: ConversionOptions) -> Result<
        M, ModelError
    > {
        Result { () throws(ModelError) -> M in try M(jsonBytes: bytes, options: options) }
    }

    /// Whether the direct path handled `bytes` itself (nil: it fell back to the tree path).
    func direct<M: ModelConvertible>(_: M.Type, _ bytes: [UInt8], _ options: ConversionOptions = .lenient) -> Result<
        M, ModelError
    >? {
        bytes.withUnsafeBufferPointer { M.modelMapping.decodeBytes($0, options: options) }
    }

    func same<M: ModelConvertible & Equatable>(
        _ type: M.Type, _ text: String, _ options: ConversionOptions = .lenient,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        same(type, Array(text.utf8), options, sourceLocation: sourceLocation)
    }

    func same<M: ModelConvertible & Equatable>(
        _ type: M.Type, _ bytes: [UInt8], _ options: ConversionOptions = .lenient,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let tree = viaTree(type, bytes, options)
        #expect(
            viaBytes(type, bytes, options) == tree, "\(String(decoding: bytes, as: UTF8.self))",
            sourceLocation: sourceLocation)
        if let direct = direct(type, bytes, options) {
            #expect(direct == tree, "direct: \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        }
    }

    /// The fixture with `replacement` substituted for `target`.
    func user(_ target: String, _ replacement: String) -> String {
        precondition(githubUserJSON.contains(target))
        return githubUserJSON.replacingOccurrences(of: target, with: replacement)
    }

    @Test func handlesTheCommonCaseDirectly() throws {
        let bytes = Array(githubUserJSON.utf8)
        let u = try #require(direct(GithubUser.self, bytes)).get()
        #expect(u == (try GithubUser(json: json(githubUserJSON))))
        #expect(u.receivedEventsURL == "https://api.github.com/users/facebook/received_events")
        #expect(u.userID == 69631 && u.company == nil && u.hireable == nil && u.siteAdmin == false)
        // Pretty-printed input (whitespace everywhere) too.
        let pretty = try JSONSerialization.data(
            withJSONObject: JSONSerialization.jsonObject(with: Data(bytes)), options: [.prettyPrinted])
        #expect(try #require(direct(GithubUser.self, Array(pretty))).get() == u)
        // Issues are found directly as well, in field order.
        let bad = user("\"public_repos\":147", "\"public_repos\":\"many\"")
            .replacingOccurrences(of: "\"login\":\"facebook\",", with: "")
        guard case .failure(let error) = try #require(direct(GithubUser.self, Array(bad.utf8))) else {
            Issue.record("expected issues")
            return
        }
        #expect(error.issues.map(\.path) == ["login", "public_repos"])
    }

    @Test func fallsBackWhereTheTreeDecides() {
        for text in [
            user("\"id\":69631", "\"id\":69631,\"id\":1"),  // a repeated key
            user("\"login\"", "\"l\\u006fgin\""),  // an escaped key
            user("\"login\"", "\"ｌogin\""),  // a non-ASCII key (canonical equivalence on the tree path)
            user("\"following\":0}", "\"following\":0,}"),  // a syntax error
            "[1]", "", " ", "{\"login\":\"x\"} x",
        ] {
            #expect(direct(GithubUser.self, Array(text.utf8)) == nil, "\(text)")
            same(GithubUser.self, text)
        }
    }

    @Test func candidateKeysAndNullLikes() {
        // avatar_url (first candidate) and avatarURL (second), in both orders, null, null-like and missing.
        let pairs = [
            (#""avatar_url":"a","avatarURL":"b""#), (#""avatarURL":"b","avatar_url":"a""#),
            (#""avatar_url":null,"avatarURL":"b""#), (#""avatarURL":"b","avatar_url":null"#),
            (#""avatar_url":"<null>","avatarURL":"b""#), (#""avatarURL":"nil","avatar_url":"a""#),
            (#""avatarURL":null,"avatar_url":null"#), (#""avatarURL":"b""#), (#""avatarURL":"nil""#),
            (#""avatar_url":5,"avatarURL":"b""#), (#""avatarURL":5,"avatar_url":"a""#),
        ]
        for pair in pairs {
            same(GithubUser.self, user(#""avatar_url":"https://avatars.githubusercontent.com/u/69631?v=3""#, pair))
            same(
                GithubUser.self, user(#""avatar_url":"https://avatars.githubusercontent.com/u/69631?v=3""#, pair),
                .strictMode)
        }
        for v in ["null", "\"null\"", "\"(null)\"", "\"x\"", "5", "true", "[]", "{}"] {
            same(GithubUser.self, user(#""company":null"#, #""company":\#(v)"#))
            same(GithubUser.self, user(#""login":"facebook""#, #""login":\#(v)"#))
            same(GithubUser.self, user(#""hireable":null"#, #""hireable":\#(v)"#))
            same(GithubUser.self, user(#""login":"facebook""#, #""login":\#(v)"#), .strictMode)
        }
    }

    @Test func numbersStringsAndUnicode() {
        for v in [
            "147", "-0", "0", "1.0", "1e2", "1E+2", "-12", "12345678901234567", "9007199254740993", "1.5", "\"147\"",
            "\"1.5e3\"", "01", "-", "1.", "1e", "2e308", "-2e308", "true", "\"yes\"",
        ] {
            same(GithubUser.self, user("\"public_repos\":147", "\"public_repos\":\(v)"))
            same(GithubUser.self, user("\"site_admin\":false", "\"site_admin\":\(v)"))
        }
        for v in [
            #""a\nb""#, #""a\"b""#, #""caf\u00e9""#, #""\ud83d\ude00""#, #""\ud800""#, #""x\udc00y""#, #""\q""#,
            "\"café ☕\"", "\"tab\there\"", #""\/""#,
        ] {
            same(GithubUser.self, user(#""name":"Facebook""#, #""name":\#(v)"#))
            same(GithubUser.self, user(#""name":"Facebook""#, #""name":"x","other":\#(v)"#))
        }
        var bytes = Array(user(#""name":"Facebook""#, #""name":"Face@ook""#).utf8)
        let at = bytes.firstIndex(of: UInt8(ascii: "@"))!
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC3, 0xA9]] {
            var copy = bytes
            copy.replaceSubrange(at...at, with: bad)
            same(GithubUser.self, copy)
        }
        bytes = Array(user(#""name":"Facebook""#, #""name":"Facebook","x":["Face@ook",{"a":[1,2]}]"#).utf8)
        let at2 = bytes.firstIndex(of: UInt8(ascii: "@"))!
        bytes[at2] = 0xFE
        same(GithubUser.self, bytes)
    }

    @Test func unknownValuesAreValidated() {
        for v in [
            "[1,2,{\"a\":[]}]", "{\"a\":{\"b\":null}}", "[1,]", "{\"a\"}", "[\"]\"]", "{\"}\":1}", "[[[]]", "nul",
            "tru",
            "[\"\\\"]\"]",
        ] {
            same(GithubUser.self, user(#""type":"Organization""#, #""type":"Organization","extra":\#(v)"#))
        }
        // 10,000 levels below an unknown key: the same answer as the tree path (which limits the parse depth).
        for depth in [100, 4_999, 5_001, 9_999, 10_001] {
            let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            same(GithubUser.self, user(#""type":"Organization""#, #""type":"Organization","extra":\#(deep)"#))
        }
    }

    @Test func modelsWithHooksPathsAndNesting() {
        same(TypedRoom.self, #"{"number":1,"price":"2.5"}"#)
        same(TypedRoom.self, #"{"number":1}"#)
        same(TypedHotel.self, #"{"name":"Ritz","ext":{"desc":"grand"},"rooms":[{"number":1,"price":2}]}"#)
        same(TypedHotel.self, #"{"name":"Ritz","rooms":[{"number":"x"}],"stars":9}"#)
    }

    @Test func randomMutationsAgree() {
        var rng = SplitMix64(seed: 0x5EED)
        let base = Array(githubUserJSON.utf8)
        let alphabet = Array(#"{}[]":,\ 0123456789.eE-+tfnulrsa"#.utf8) + [0x80, 0xC3, 0xFF, 0x0A]
        for _ in 0..<1500 {
            var bytes = base
            for _ in 0...(rng.next() % 3) {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[at] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: at)
                default: bytes.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: at)
                }
            }
            same(GithubUser.self, bytes)
        }
    }
}
