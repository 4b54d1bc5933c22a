import JSBridgeCore
import JSBridgeTesting
import Testing

/// ``EncodedJSON`` accepts exactly what JavaScriptCore's `JSON.parse` accepts: the runtime embeds the text
/// in a batch of answers that `JSON.parse` reads whole, so a text it rejected would lose the whole batch.
@Suite struct EncodedJSONAgreementTests {
    @Test func acceptsWhatJSONParseAccepts() async throws {
        // Short random texts over JSON's punctuation and a few letters and digits (a fixed seed), plus edge cases.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let alphabet = Array(#"{}[]",:-+.0123eEtrufalsn\u/ "#).map(String.init) + ["\t", "\n", "é", "\u{1}"]
        var texts = [
            "", "0", "-0", "01", "1.5e+3", "[1,]", "\"\\u00\"", "\"\\uD800\"", "\u{FEFF}1", "\"\u{7F}\"",
            String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
        ]
        for _ in 0..<3000 {
            texts.append((0..<(1 + next(7))).map { _ in alphabet[next(alphabet.count)] }.joined())
        }
        let input = JSONValue.array(texts.map { .string($0) }).serialized()
        let result = await ScriptRunner.run(
            """
            const texts = JSON.parse(\(JSONValue.string(input).serialized()));
            console.log(JSON.stringify(texts.map((text) => { try { JSON.parse(text); return true; } catch { return false; } })));
            """)
        let verdicts = try JSONValue(parsing: try #require(result.lines.first, "\(result.stderr)"))
        let accepted = try #require(verdicts.arrayValue)
        #expect(accepted.count == texts.count)
        var disagreements: [String] = []
        for (text, verdict) in zip(texts, accepted) where (EncodedJSON(validating: text) != nil) != (verdict == true) {
            disagreements.append(text.debugDescription)
        }
        #expect(disagreements.isEmpty, "JSON.parse disagrees on \(disagreements.prefix(20))")
        #expect(accepted.filter { $0 == true }.count > 50, "too few valid texts to compare")
    }
}
