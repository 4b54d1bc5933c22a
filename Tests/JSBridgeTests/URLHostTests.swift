import Foundation
import JSBridge
import JSBridgeTesting
import Testing

/// URL host names through UTS #46 as the URL Standard's "domain to ASCII" asks (nontransitional,
/// CheckHyphens and VerifyDnsLength off, CheckBidi and CheckJoiners on), and URLSearchParams' record rules.
@Suite struct URLHostTests {
    private func run(_ script: String) async -> [String] {
        let result = await ScriptRunner.run(
            """
            const href = (input, base) => { try { return new URL(input, base).href; } catch (e) { return `${e.name} ${e.code}`; } };
            \(script)
            """)
        #expect(result.exitCode == 0, "\(result.stderr)")
        return result.lines
    }

    @Test func hostNamesAreMappedAndConvertedToPunycode() async {
        let lines = await run(
            #"""
            for (const input of ["https://a%C2%ADb/", "https://fa\u00DF.de/", "https://\uFF21.com/", "https://EXAMPLE.com/",
              "https://a\u00e0.com/", "https://a.b\u3002c/", "https://x\uFF0Ey/", "https://xn--fa-hia.de/", "https://-x-.com/",
              "https://ab--c.com/", "https://a..b/", `https://${"a".repeat(70)}.com/`, "https://\u05D0\u05D1.com/"]) {
              console.log(href(input));
            }
            """#)
        #expect(
            lines == [
                "https://ab/", "https://xn--fa-hia.de/", "https://a.com/", "https://example.com/",
                "https://xn--a-sfa.com/", "https://a.b.c/", "https://x.y/", "https://xn--fa-hia.de/",
                "https://-x-.com/", "https://ab--c.com/", "https://a..b/",
                "https://\(String(repeating: "a", count: 70)).com/",
                "https://xn--4dbc.com/",
            ])
    }

    @Test func invalidHostNamesFailValidityChecks() async {
        let lines = await run(
            #"""
            // A joiner outside its context, a leading combining mark, bad punycode, a bidi rule, a forbidden code point.
            for (const input of ["https://a\u200Db.com/", "https://\u0300a.com/", "https://xn--a.com/", "https://\u0661\u06F1.com/",
              "https://xn--/", "https://a<b/", "https://\u00AD/"]) {
              console.log(href(input), URL.canParse(input), URL.parse(input));
            }
            console.log(URL.canParse("/p", "https://a.com"), URL.parse("/p", "https://a.com").href, URL.parse("/p"));
            const url = new URL("https://a.com/");
            url.hostname = "fa\u00DF.de";
            url.host = "\u200D";  // fails: the host stays
            console.log(url.href);
            """#)
        #expect(
            lines == [
                "TypeError ERR_INVALID_URL false null", "TypeError ERR_INVALID_URL false null",
                "TypeError ERR_INVALID_URL false null", "TypeError ERR_INVALID_URL false null",
                "TypeError ERR_INVALID_URL false null", "TypeError ERR_INVALID_URL false null",
                "TypeError ERR_INVALID_URL false null", "true https://a.com/p null", "https://xn--fa-hia.de/",
            ])
    }

    @Test func searchParamsRecordsMergeKeysThatAreEqualAsUSVStrings() async {
        let lines = await run(
            #"""
            const params = new URLSearchParams({ "\uD835x": "1", xx: "2", "\uD83Dx": "3" });
            console.log(params.toString(), params.size, params.get("\uFFFDx"));
            const lone = new URLSearchParams([["\uD800", "a"], ["\uDC00", "b"]]);
            console.log(lone.toString(), lone.getAll("\uFFFD").join());
            try { new URLSearchParams({ [Symbol("s")]: "x" }); } catch (e) { console.log(e.name); }
            const hidden = Object.defineProperty({ a: "1" }, "b", { value: "2", enumerable: false });
            console.log(new URLSearchParams(hidden).toString());
            const sorted = new URLSearchParams("z=1&\uFFFD=2&a=3&\uD83D\uDE00=4&z=0&a=5");
            sorted.sort();
            console.log(sorted.toString());
            """#)
        #expect(
            lines == [
                "%EF%BF%BDx=3&xx=2 2 3", "%EF%BF%BD=a&%EF%BF%BD=b a,b", "TypeError", "a=1",
                "a=3&a=5&z=1&z=0&%F0%9F%98%80=4&%EF%BF%BD=2",
            ])
    }
}
