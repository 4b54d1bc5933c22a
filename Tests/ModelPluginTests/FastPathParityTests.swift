import JSBridgeTesting
import ModelPlugin
import Testing

/// The JS fast path of `Model.convert` (js/model.js) must give exactly what the native converter gives:
/// many inputs (fixtures and mutated variants) are converted both ways and compared (values, or error
/// code, message and data).
@Suite struct FastPathParityTests {
    static let script = #"""
        const user = {"login":"facebook","id":69631,"avatar_url":"https://avatars.githubusercontent.com/u/69631?v=3","gravatar_id":"",
          "url":"https://api.github.com/users/facebook","html_url":"https://github.com/facebook",
          "followers_url":"https://api.github.com/users/facebook/followers","following_url":"https://api.github.com/users/facebook/following{/other_user}",
          "gists_url":"https://api.github.com/users/facebook/gists{/gist_id}","starred_url":"https://api.github.com/users/facebook/starred{/owner}{/repo}",
          "subscriptions_url":"https://api.github.com/users/facebook/subscriptions","organizations_url":"https://api.github.com/users/facebook/orgs",
          "repos_url":"https://api.github.com/users/facebook/repos","events_url":"https://api.github.com/users/facebook/events{/privacy}",
          "received_events_url":"https://api.github.com/users/facebook/received_events","type":"Organization","site_admin":false,
          "name":"Facebook","company":null,"blog":"https://code.facebook.com/projects/","location":"Menlo Park, California",
          "email":null,"hireable":null,"bio":"We work hard.","public_repos":147,"public_gists":12,"followers":0,"following":0};
        Model.define("GithubUser", {
          login: "string", userID: { type: "int", key: "id" }, avatarURL: "url", gravatarID: "string", url: "url",
          htmlURL: "url", followersURL: "url", followingURL: "string", gistsURL: "string", starredURL: "string",
          subscriptionsURL: "url", organizationsURL: "url", reposURL: "url", eventsURL: "string",
          receivedEventsURL: "url", type: "string", siteAdmin: "bool", name: "string", company: "string?",
          blog: "url?", location: "string?", email: "string?", hireable: "bool?", bio: "string?",
          publicRepos: "int", publicGists: "int", followers: "int", following: "int",
        }, { keyStrategy: "snake_case" });
        Model.define("Room", { number: "int", price: "double", tags: ["string"], notes: "[string?]", link: "url?",
          vip: { type: "bool", required: false }, must: { type: "string?", required: true } });
        Model.define("Hotel", { name: { type: "string", keys: ["name", "title"] }, rooms: ["Room"], main: "Room?",
          grid: "[[int]]", rating: "double?" });
        const hotel = { name: "Ritz", rooms: [{ number: 1, price: 9.5, tags: ["a", "b"], notes: ["x", null], link: "https://r.example/1", vip: true, must: null },
          { number: 2, price: 0, tags: [], notes: [], link: null, must: "m" }], main: null, grid: [[1, 2], []], rating: 4.5 };
        Model.define("Tagged", { kind: "string" }, { discriminator: { key: "kind", mapping: { a: "Tagged" } } });
        Model.define("WithDefault", { n: { type: "int", default: 3 } });
        Model.define("Single", { id: "int" });
        class Point { constructor() { this.x = 1; } get login() { return "getter"; } }
        const variants = ["null", "NULL", "<null>", "nil", "undefined", "", " ", "x", "facebook", "12", "-3", "1.5", "true", "no",
          "https://a b", "http://x\"y", "<x>", "2024-01-01T10:00", "1a:b", ":x", "mailto:x", "a+b.c-d:/e", "a/b:c",
          "http:a:b", "https:x", "https", "http", "htt:p:", "hTTp:x:y", "https:/a?b:c", "httpx:y:z", "a:b/c", "?x:y", "#:", "9:x", "a\u0001b", "\ud800", "\udc00x", "😀", "é", "https://ok.example/😀",
          0, -0, 1, -1, 1.5, 2 ** 53, 2 ** 53 + 2, -(2 ** 53 - 1), NaN, Infinity, 1e21, true, false, null, undefined,
          [], [1], ["a"], [null], {}, { a: 1 }, new Date(0), Object.create(null), new Point(), { toJSON() { return "j"; } }];
        function describe(v, seen = 0) {
          if (Object.is(v, -0)) return "-0";
          if (Array.isArray(v)) return "[" + v.map((x) => describe(x)).join(",") + "]";
          if (v !== null && typeof v === "object") return "{" + Object.keys(v).map((k) => JSON.stringify(k) + ":" + describe(v[k])).join(",") + "}";
          return JSON.stringify(v) ?? String(v);
        }
        function run(name, value, options) {
          try { return "ok " + describe(Model.convert(name, value, options)); }
          catch (e) { return "error " + e.code + " " + e.message + " " + JSON.stringify(e.data); }
        }
        const clone = (v) => structuredCloneish(v);
        function structuredCloneish(v) {
          if (Array.isArray(v)) return v.map(structuredCloneish);
          if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
            const o = {}; for (const k of Object.keys(v)) o[k] = structuredCloneish(v[k]); return o;
          }
          return v;
        }
        // Every way of changing one place of `base` (at the top or nested one level down).
        function* mutations(base) {
          yield base;
          const places = [];
          (function walk(v, path) {
            if (path.length > 4) return;
            if (Array.isArray(v)) v.forEach((x, i) => { places.push([...path, i]); walk(x, [...path, i]); });
            else if (v !== null && typeof v === "object") for (const k of Object.keys(v)) { places.push([...path, k]); walk(v[k], [...path, k]); }
          })(base, []);
          for (const path of places) {
            for (const variant of [...variants, "remove"]) {
              const copy = clone(base);
              let target = copy;
              for (const p of path.slice(0, -1)) target = target[p];
              const last = path[path.length - 1];
              if (variant === "remove") { if (Array.isArray(target)) target.length = last; else delete target[last]; }
              else target[last] = variant;
              yield copy;
            }
          }
          for (const extra of ["title", "zzz"]) { const copy = clone(base); copy[extra] = "T"; yield copy; }
        }
        let checked = 0, mismatches = 0;
        const cases = [["GithubUser", user], ["Hotel", hotel], ["Room", hotel.rooms[0]], ["Tagged", { kind: "a" }], ["WithDefault", { n: 1 }], ["Single", { id: 5 }]];
        for (const [name, base] of cases) {
          for (const input of mutations(base)) {
            const fast = run(name, input), native = run(name, input, { native: true });
            checked++;
            if (fast !== native) { mismatches++; if (mismatches < 4) console.log("MISMATCH", name, describe(input), "\n fast:", fast, "\n native:", native); }
          }
        }
        for (const top of variants) {
          for (const name of ["GithubUser", "Hotel"]) {
            checked++;
            if (run(name, top) !== run(name, top, { native: true })) { mismatches++; console.log("MISMATCH top", name, describe(top)); }
          }
        }
        const cyclic = clone(hotel); cyclic.main = cyclic.rooms[0]; cyclic.rooms[0].self = cyclic;
        const withFn = clone(user); withFn.extra = () => 1; const withBig = clone(hotel); withBig.rooms[1].big = 1n;
        for (const [n, v] of [["GithubUser", withFn], ["Hotel", withBig]]) { checked++; if (run(n, v) !== run(n, v, { native: true })) { mismatches++; console.log("MISMATCH unserializable", n); } }
        checked++;
        if (run("Hotel", cyclic) !== run("Hotel", cyclic, { native: true })) { mismatches++; console.log("MISMATCH cyclic"); }
        const stats = Model.fastPath("GithubUser");
        console.log("checked", checked > 3000, "mismatches", mismatches);
        console.log("fast path used", stats.fast > 500, stats.available, Model.fastPath("Hotel").available,
          Model.fastPath("Tagged").available, Model.fastPath("WithDefault").available);
        const before = Model.fastPath().fast;
        Model.convert("Single", { id: 1 });
        console.log("a one-field model on the fast path", Model.fastPath().fast - before);
        """#

    @Test func fastPathMatchesNative() async {
        let result = await ScriptRunner.run(Self.script, plugins: [ModelPlugin()], timeout: .seconds(120))
        #expect(result.stderr == "")
        #expect(
            result.lines == [
                "checked true mismatches 0", "fast path used true true true false false",
                "a one-field model on the fast path 1",
            ])
    }
}
