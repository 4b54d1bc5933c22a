import JSBridge
import JSBridgeTesting
import Testing

/// URLPattern (Extensions/Web/js/urlpattern.js) against the URL Pattern Standard's algorithm and examples
/// (https://urlpattern.spec.whatwg.org/). The expected values were worked out from the standard's steps.
@Suite struct URLPatternTests {
    private func run(_ script: String) async -> [String] {
        let result = await ScriptRunner.run(Self.prelude + script)
        #expect(result.exitCode == 0, "\(result.stderr)")
        return result.lines
    }

    private static let prelude = #"""
        const names = ["protocol", "username", "password", "hostname", "port", "pathname", "search", "hash"];
        const show = (v) => JSON.stringify(v, (k, x) => (x === undefined ? "(undefined)" : x));
        const attempt = (f) => { try { return f(); } catch (e) { return `${e.constructor.name}`; } };
        const parts = (p) => names.map((k) => p[k]).join(" ");
        // The components whose pattern is not "*": input and groups.
        const match = (p, ...args) => {
          const r = p.exec(...args);
          if (r === null) return "null";
          return names.filter((k) => p[k] !== "*").map((k) => `${k}=${r[k].input}${show(r[k].groups)}`).join(" ") || "match";
        };
        """# + "\n"

    /// The component getters answer each pattern as "generate a pattern string" writes it: defaults, the constructor
    /// string's components, a base URL's, escapes and groups kept only where needed.
    @Test func componentsAreTheNormalizedPatternStrings() async {
        let lines = await run(
            #"""
            for (const args of [
              [{ pathname: "/books/:id" }],
              ["https://example.com:8080/foo/:bar?q=1#frag"],
              ["https://EXAMPLE.com:443/a"],
              ["http://example.com:80/a"],
              [{ protocol: "http", port: "80" }],
              [{ protocol: "https:", search: "?a=1", hash: "#h" }],
              ["/foo/*", "https://example.com/base/page?x#y"],
              [{ pathname: "bar", baseURL: "https://example.com/foo/page" }],
              [{ baseURL: "https://u:p@example.com:8080/a?b#c" }],
              ["data\\:text/*"],
              ["mailto\\::user@*"],
              [{ pathname: "/foo/(.*)" }],
              [{ pathname: "/foo/([^\\/]+?)" }],
              [{ pathname: "/:a(foo)" }],
              [{ pathname: "/{:name}suffix" }],
              [{ pathname: "/:name{}suffix" }],
              [{ pathname: "/{foo}?/{:bar}+" }],
              [{ hostname: "{*.}?example.com" }],
              [{ pathname: "/a\\:b\\*c" }],
              [{ pathname: "/:foo\\bar" }],
              ["https://example.com/foo?q=:v"],
              ["https://example.com/foo/:bar?q=1"],
              ["https://[\\:\\:1]:8080/"],
              [{ hostname: "[\\:\\:AB]" }],
            ]) {
              console.log(attempt(() => { const p = new URLPattern(...args); return `${parts(p)} ${p.hasRegExpGroups}`; }));
            }
            """#)
        #expect(
            lines == [
                #"* * * * * /books/:id * * false"#,
                #"https * * example.com 8080 /foo/:bar?q=1  frag false"#,
                #"https * * example.com  /a * * false"#,
                #"http * * example.com  /a * * false"#,
                #"http * * *  * * * false"#,
                #"https * * * * * a=1 h false"#,
                #"https * * example.com  /foo/* * * false"#,
                #"https * * example.com  /foo/bar * * false"#,
                #"https * * example.com 8080 /a b c false"#,
                #"data * *   text/* * * false"#,
                #"mailto * *   :user@* * * false"#,
                #"* * * * * /foo/* * * false"#,
                #"* * * * * /foo/([^\/]+?) * * false"#,
                #"* * * * * /:a(foo) * * true"#,
                #"* * * * * /{:name}suffix * * false"#,
                #"* * * * * {/:name}suffix * * false"#,
                #"* * * * * /{foo}?/{:bar}+ * * false"#,
                #"* * * {*.}?example.com * * * * false"#,
                #"* * * * * /a\:b\*c * * false"#,
                #"* * * * * {/:foo}bar * * false"#,
                #"https * * example.com  /foo q=:v * false"#,
                #"https * * example.com  /foo/:bar?q=1 * * false"#,
                #"https * * [\:\:1] 8080 / * * false"#,
                #"* * * [\:\:ab] * * * * false"#,
            ])
    }

    /// Named, regexp and wildcard groups in each component; optional, repeated and `{…}` groups; undefined for a group
    /// that did not take part.
    @Test func execAnswersEachComponentsInputAndGroups() async {
        let lines = await run(
            #"""
            const p1 = new URLPattern({ pathname: "/books/:id" });
            console.log(match(p1, "https://example.com/books/123"), match(p1, "https://example.com/books/"), match(p1, { pathname: "/books/9" }), p1.test("https://example.com/books/1/2"));
            const p2 = new URLPattern("https://:sub.example.com/:section/*\\?q=:query#:frag");
            console.log(match(p2, "https://www.example.com/news/a/b?q=x#top"));
            const p3 = new URLPattern({ protocol: "http{s}?", username: ":user", password: ":pass", port: ":port(\\d+)" });
            console.log(match(p3, "https://me:secret@example.com:8080/"), match(p3, "ftp://me:secret@example.com:21/"), match(p3, "http://me:secret@example.com/"));
            const p4 = new URLPattern({ pathname: "/foo/:bar?" });
            console.log(match(p4, { pathname: "/foo" }), match(p4, { pathname: "/foo/x" }), match(p4, { pathname: "/foo/" }), match(p4, { pathname: "/foo/x/y" }));
            const p5 = new URLPattern({ pathname: "/foo/:bar+" });
            console.log(match(p5, { pathname: "/foo" }), match(p5, { pathname: "/foo/a/b/c" }));
            const p6 = new URLPattern({ pathname: "/foo/:bar*" });
            console.log(match(p6, { pathname: "/foo" }), match(p6, { pathname: "/foo/a/b" }), match(p6, { pathname: "/foobar" }));
            const p7 = new URLPattern({ pathname: "/product{/:type}?/:id" });
            console.log(match(p7, { pathname: "/product/42" }), match(p7, { pathname: "/product/shoe/42" }));
            const p8 = new URLPattern({ pathname: "/files/*.:ext" });
            console.log(match(p8, { pathname: "/files/a/b.tar.gz" }));
            const p9 = new URLPattern({ pathname: "/(foo|bar)/:n(\\d+)" });
            console.log(p9.hasRegExpGroups, match(p9, { pathname: "/bar/12" }), match(p9, { pathname: "/baz/12" }), match(p9, { pathname: "/foo/x" }));
            const p10 = new URLPattern({ hostname: "{:sub.}*example.com" });
            console.log(match(p10, { hostname: "example.com" }), match(p10, { hostname: "a.b.example.com" }));
            const p11 = new URLPattern({ pathname: "/a/:x{-:y}?" });
            console.log(match(p11, { pathname: "/a/1-2" }), match(p11, { pathname: "/a/1" }));
            const p12 = new URLPattern("https://example.com/*");
            console.log(match(p12, "https://example.com/x/y?z#w"), match(p12, "http://example.com/x"), match(p12, "https://user:pw@example.com:443/"), match(p12, "https://example.com:8443/"));
            console.log(match(new URLPattern(), "https://anything/"), new URLPattern().test(), new URLPattern({}).test({}));
            const p13 = new URLPattern({ pathname: "/:__proto__/:constructor" });
            const r13 = p13.exec({ pathname: "/a/b" });
            console.log(Object.keys(r13.pathname.groups).join(","), r13.pathname.groups.__proto__, Object.getPrototypeOf(r13.pathname.groups) === Object.prototype);
            const p14 = new URLPattern({ pathname: "/\u00e9t\u00e9/:\u00e9" });
            console.log(p14.pathname, match(p14, "https://x/%C3%A9t%C3%A9/y"), match(p14, { pathname: "/\u00e9t\u00e9/z" }));
            """#)
        #expect(
            lines == [
                #"pathname=/books/123{"id":"123"} null pathname=/books/9{"id":"9"} false"#,
                #"protocol=https{} hostname=www.example.com{"sub":"www"} port={} pathname=/news/a/b{"0":"a/b","section":"news"} search=q=x{"query":"x"} hash=top{"frag":"top"}"#,
                #"protocol=https{} username=me{"user":"me"} password=secret{"pass":"secret"} port=8080{"port":"8080"} null null"#,
                #"pathname=/foo{"bar":"(undefined)"} pathname=/foo/x{"bar":"x"} null null"#,
                #"null pathname=/foo/a/b/c{"bar":"a/b/c"}"#,
                #"pathname=/foo{"bar":"(undefined)"} pathname=/foo/a/b{"bar":"a/b"} null"#,
                #"pathname=/product/42{"type":"(undefined)","id":"42"} pathname=/product/shoe/42{"type":"shoe","id":"42"}"#,
                #"pathname=/files/a/b.tar.gz{"0":"a/b.tar","ext":"gz"}"#,
                #"true pathname=/bar/12{"0":"bar","n":"12"} null null"#,
                #"hostname=example.com{"sub":"(undefined)"} hostname=a.b.example.com{"sub":"a.b"}"#,
                #"pathname=/a/1-2{"x":"1","y":"2"} pathname=/a/1{"x":"1","y":"(undefined)"}"#,
                #"protocol=https{} hostname=example.com{} port={} pathname=/x/y{"0":"x/y"} null protocol=https{} hostname=example.com{} port={} pathname=/{"0":""} null"#,
                #"match true true"#,
                #"__proto__,constructor a true"#,
                #"/%C3%A9t%C3%A9/:\#u{E9} pathname=/%C3%A9t%C3%A9/y{"\#u{E9}":"y"} pathname=/%C3%A9t%C3%A9/z{"\#u{E9}":"z"}"#,
            ])
    }

    /// A base URL gives the components before the first one the pattern or input names (not the username and password
    /// of a pattern).
    @Test func baseURLsFillTheComponentsBeforeTheFirstGiven() async {
        let lines = await run(
            #"""
            const b1 = new URLPattern("books/:id", "https://example.com/shop/index.html?q#h");
            console.log(parts(b1), match(b1, "https://example.com/shop/books/7"));
            const b2 = new URLPattern({ pathname: "/api/*" });
            console.log(b2.test("/api/v1", "https://example.com"), b2.test("/api/v1"), b2.test("/api", "not a url"), show(b2.exec("/api/v1", "https://example.com").inputs));
            const b3 = new URLPattern({ search: "x=:x", baseURL: "https://example.com/p" });
            console.log(parts(b3), match(b3, "https://example.com/p?x=1"), match(b3, { search: "?x=2", baseURL: "https://example.com/p" }));
            console.log(show(b3.exec({ search: "x=3", baseURL: "https://example.com/p" }).inputs));
            const b4 = new URLPattern({ pathname: "/p", baseURL: "https://user:pw@example.com" });
            console.log(b4.test("https://other:pw2@example.com/p"), match(new URLPattern({ username: "u*" }), { username: "user", baseURL: "https://x:y@z" }));
            """#)
        #expect(
            lines == [
                #"https * * example.com  /shop/books/:id * * protocol=https{} hostname=example.com{} port={} pathname=/shop/books/7{"id":"7"}"#,
                #"true false false ["/api/v1","https://example.com"]"#,
                #"https * * example.com  /p x=:x * protocol=https{} hostname=example.com{} port={} pathname=/p{} search=x=1{"x":"1"} protocol=https{} hostname=example.com{} port={} pathname=/p{} search=x=2{"x":"2"}"#,
                #"[{"baseURL":"https://example.com/p","search":"x=3"}]"#,
                #"true username=user{"0":"ser"}"#,
            ])
    }

    /// `ignoreCase` compiles the pathname, search and hash case-insensitively.
    @Test func ignoreCaseAppliesToPathnameSearchAndHash() async {
        let lines = await run(
            #"""
            const i1 = new URLPattern({ pathname: "/Foo/:bar", search: "Q=*", hash: "H" }, { ignoreCase: true });
            console.log(match(i1, "https://x/FOO/Baz?q=1#h"), new URLPattern({ pathname: "/Foo" }).test({ pathname: "/foo" }));
            console.log(new URLPattern("https://example.com/Foo", "https://base", { ignoreCase: true }).test("https://EXAMPLE.com/foo"));
            """#)
        #expect(
            lines == [
                #"pathname=/FOO/Baz{"bar":"Baz"} search=q=1{"0":"1"} hash=h{} false"#,
                #"true"#,
            ])
    }

    /// Fixed text in patterns and every input component go through the URL parser: lower-cased schemes, IDNA and
    /// percent-encoding, default ports removed, dot segments resolved.
    @Test func patternsAndInputsAreCanonicalizedByTheURLParser() async {
        let lines = await run(
            #"""
            console.log(new URLPattern({ protocol: "HTTPS" }).protocol, new URLPattern({ hostname: "EXAMPLE.com" }).hostname, new URLPattern({ hostname: "b\u00FCcher.de" }).hostname);
            console.log(new URLPattern({ protocol: "https", port: "443" }).port, new URLPattern({ protocol: "http", port: "443" }).port, new URLPattern({ port: "080" }).port);
            console.log(new URLPattern({ pathname: "/a b/c%20d/\u00E9" }).pathname, new URLPattern({ pathname: "/a/./b/../c" }).pathname, new URLPattern({ search: "a b" }).search, new URLPattern({ hash: "a b" }).hash);
            console.log(new URLPattern({ username: "a b@", password: "c:d" }).username, new URLPattern({ password: "c:d" }).password);
            console.log(new URLPattern({ protocol: "mailto", pathname: "A B" }).pathname, new URLPattern({ protocol: "https", pathname: "a/b" }).pathname);
            const c1 = new URLPattern({ hostname: "xn--bcher-kva.de", port: "8080", pathname: "/%C3%A9" });
            console.log(c1.test({ hostname: "B\u00FCcher.DE", port: "8080", pathname: "/\u00E9" }), c1.test("https://b\u00FCcher.de:8080/\u00E9"), c1.test({ hostname: "bucher.de", port: "8080", pathname: "/\u00E9" }));
            console.log(new URLPattern({ protocol: "http", port: "" }).test({ protocol: "http", port: "80" }), new URLPattern({ port: "80" }).test({ protocol: "http", port: "80" }), new URLPattern({ port: "" }).test("http://x:80/"));
            console.log(new URLPattern({ pathname: "/foo" }).test({ pathname: "/./bar/../foo" }), new URLPattern({ hostname: "[\\:\\:1]" }).test("http://[0:0::1]/"));
            """#)
        #expect(
            lines == [
                #"https example.com xn--bcher-kva.de"#,
                #" 443 80"#,
                #"/a%20b/c%20d/%C3%A9 /a/c a%20b a%20b"#,
                #"a%20b%40 c:d"#,
                #"A B a/b"#,
                #"true true false"#,
                #"true false true"#,
                #"true true"#,
            ])
    }

    /// Invalid syntax, invalid regular expressions, duplicate names, a base URL with a dictionary, invalid components:
    /// TypeError.
    @Test func invalidPatternsThrowTypeError() async {
        let lines = await run(
            #"""
            for (const args of [
              [{ pathname: "/(" }], [{ pathname: "/:" }], [{ pathname: "/(?x)" }], [{ pathname: "/()" }], [{ pathname: "/([a)" }],
              [{ pathname: "/(\u00E9)" }], [{ pathname: "/{foo" }], [{ pathname: "/foo}" }], [{ pathname: "/foo\\" }], [{ pathname: "/:a/:a" }],
              [{ pathname: "/(a)(b)" }], [{ pathname: "/:a(b)/(c)" }], [{ pathname: "/**" }], [{ pathname: "/{:a}{:a}" }],
              [{}, "https://example.com"], [{ pathname: "/x" }, "https://example.com", {}], ["/relative"], ["https://example.com", "not a url"],
              [{ baseURL: "not a url" }], [{ hostname: "bad host" }], [{ hostname: "bad/host" }], [{ hostname: "a#b" }], [{ hostname: "[::1]" }],
              [{ hostname: "[\\:\\:x]" }], [{ port: "abc" }], [{ port: "65536" }], [{ protocol: "ht tp" }], [{ protocol: "1http" }],
              ["data:foobar"], ["https://example.com/", undefined, 1], [{ pathname: "/" }, 5],
            ]) {
              console.log(show(args), attempt(() => parts(new URLPattern(...args))));
            }
            const x = new URLPattern({ pathname: "/x" });
            console.log(attempt(() => x.test({ pathname: "/x" }, "https://example.com")), attempt(() => x.exec({}, "https://b")), x.test({ port: "abc" }), x.test({ hostname: "a b" }), x.exec("not a url"));
            """#)
        #expect(
            lines == [
                #"[{"pathname":"/("}] TypeError"#,
                #"[{"pathname":"/:"}] TypeError"#,
                #"[{"pathname":"/(?x)"}] TypeError"#,
                #"[{"pathname":"/()"}] TypeError"#,
                #"[{"pathname":"/([a)"}] TypeError"#,
                #"[{"pathname":"/(\#u{E9})"}] TypeError"#,
                #"[{"pathname":"/{foo"}] TypeError"#,
                #"[{"pathname":"/foo}"}] TypeError"#,
                #"[{"pathname":"/foo\\"}] TypeError"#,
                #"[{"pathname":"/:a/:a"}] TypeError"#,
                #"[{"pathname":"/(a)(b)"}] * * * * * /(a)(b) * *"#,
                #"[{"pathname":"/:a(b)/(c)"}] * * * * * /:a(b)/(c) * *"#,
                #"[{"pathname":"/**"}] * * * * * /** * *"#,
                #"[{"pathname":"/{:a}{:a}"}] TypeError"#,
                #"[{},"https://example.com"] TypeError"#,
                #"[{"pathname":"/x"},"https://example.com",{}] TypeError"#,
                #"["/relative"] TypeError"#,
                #"["https://example.com","not a url"] TypeError"#,
                #"[{"baseURL":"not a url"}] TypeError"#,
                #"[{"hostname":"bad host"}] TypeError"#,
                #"[{"hostname":"bad/host"}] TypeError"#,
                #"[{"hostname":"a#b"}] TypeError"#,
                #"[{"hostname":"[::1]"}] TypeError"#,
                #"[{"hostname":"[\\:\\:x]"}] TypeError"#,
                #"[{"port":"abc"}] TypeError"#,
                #"[{"port":"65536"}] TypeError"#,
                #"[{"protocol":"ht tp"}] TypeError"#,
                #"[{"protocol":"1http"}] TypeError"#,
                #"["data:foobar"] TypeError"#,
                #"["https://example.com/","(undefined)",1] TypeError"#,
                #"[{"pathname":"/"},5] TypeError"#,
                #"TypeError TypeError false false null"#,
            ])
    }

    /// Web IDL: class string, lengths, enumerable members, brand checks, USVString conversions.
    @Test func theInterfaceIsShapedAsWebIDLSays() async {
        let lines = await run(
            #"""
            const e = new URLPattern({ pathname: "/x" });
            console.log(typeof URLPattern, URLPattern.length, URLPattern.prototype.test.length, URLPattern.prototype.exec.length, Object.prototype.toString.call(e), String(e));
            console.log(Object.keys(URLPattern.prototype).join(","));
            console.log(attempt(() => URLPattern()), attempt(() => URLPattern.prototype.test.call({}, "https://x/")), attempt(() => Reflect.getOwnPropertyDescriptor(URLPattern.prototype, "pathname").get.call({})));
            console.log(attempt(() => new URLPattern(Symbol())), attempt(() => new URLPattern({ pathname: Symbol() })), new URLPattern({ pathname: { toString: () => "/obj" } }).pathname, new URLPattern({ pathname: "/x" }, null).pathname);
            """#)
        #expect(
            lines == [
                #"function 0 0 0 [object URLPattern] [object URLPattern]"#,
                #"test,exec,protocol,username,password,hostname,port,pathname,search,hash,hasRegExpGroups"#,
                #"TypeError TypeError TypeError"#,
                #"TypeError TypeError /obj /x"#,
            ])
    }

    /// console.log shows the component patterns and hasRegExpGroups, as Node does.
    @Test func consoleShowsTheComponents() async {
        let result = await ScriptRunner.run(#"console.log(new URLPattern("https://example.com/:id(\\d+)"));"#)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(
            result.lines == [
                "URLPattern {", "  protocol: 'https',", "  username: '*',", "  password: '*',",
                "  hostname: 'example.com',", "  port: '',", #"  pathname: '/:id(\\d+)',"#, "  search: '*',",
                "  hash: '*',", "  hasRegExpGroups: true", "}",
            ])
    }
}
