// Model conversion benchmark (issue 3): engine vs hand-written mapping, Foundation JSONDecoder/JSONEncoder.
// Built and run by Benchmarks/model/run (release, whole-module). Prints one line per comparison.
import Foundation
import JSBridgeBase
import ModelConversion

struct GithubUser: ModelConvertible {
    var login = "", userID = 0, avatarURL = "", gravatarID = "", url = "", htmlURL = "", followersURL = ""
    var followingURL = "", gistsURL = "", starredURL = "", subscriptionsURL = "", organizationsURL = ""
    var reposURL = "", eventsURL = "", receivedEventsURL = "", type = "", siteAdmin = false, name = ""
    var company: String?, blog = "", location = "", email: String?, hireable: Bool?, bio = ""
    var publicRepos = 0, publicGists = 0, followers = 0, following = 0

    static let modelMapping = ModelMapping<GithubUser>("GithubUser", keyStrategy: .snakeCase) { m in
        m.field("login", \.login); m.field("userID", \.userID, keys: "id"); m.field("avatarURL", \.avatarURL)
        m.field("gravatarID", \.gravatarID); m.field("url", \.url); m.field("htmlURL", \.htmlURL)
        m.field("followersURL", \.followersURL); m.field("followingURL", \.followingURL);
        m.field("gistsURL", \.gistsURL)
        m.field("starredURL", \.starredURL); m.field("subscriptionsURL", \.subscriptionsURL)
        m.field("organizationsURL", \.organizationsURL); m.field("reposURL", \.reposURL);
        m.field("eventsURL", \.eventsURL)
        m.field("receivedEventsURL", \.receivedEventsURL); m.field("type", \.type); m.field("siteAdmin", \.siteAdmin)
        m.field("name", \.name); m.field("company", \.company); m.field("blog", \.blog); m.field("location", \.location)
        m.field("email", \.email); m.field("hireable", \.hireable); m.field("bio", \.bio)
        m.field("publicRepos", \.publicRepos); m.field("publicGists", \.publicGists); m.field("followers", \.followers)
        m.field("following", \.following)
    }
}

struct CodableUser: Codable {
    var login: String, userID: Int, avatarURL: String, gravatarID: String, url: String, htmlURL: String
    var followersURL: String, followingURL: String, gistsURL: String, starredURL: String, subscriptionsURL: String
    var organizationsURL: String, reposURL: String, eventsURL: String, receivedEventsURL: String, type: String
    var siteAdmin: Bool, name: String, company: String?, blog: String, location: String, email: String?
    var hireable: Bool?, bio: String, publicRepos: Int, publicGists: Int, followers: Int, following: Int
    enum CodingKeys: String, CodingKey {
        case login, userID = "id", avatarURL = "avatar_url", gravatarID = "gravatar_id", url, htmlURL = "html_url"
        case followersURL = "followers_url", followingURL = "following_url", gistsURL = "gists_url"
        case starredURL = "starred_url", subscriptionsURL = "subscriptions_url", organizationsURL = "organizations_url"
        case reposURL = "repos_url", eventsURL = "events_url", receivedEventsURL = "received_events_url", type
        case siteAdmin = "site_admin", name, company, blog, location, email, hireable, bio
        case publicRepos = "public_repos", publicGists = "public_gists", followers, following
    }
}

/// What a careful programmer writes by hand from the parsed tree (type checks, no coercion).
func handWritten(_ value: JSONValue) -> GithubUser? {
    guard case .object(let o) = value else { return nil }
    var u = GithubUser()
    func s(_ k: String) -> String? { if case .string(let v)? = o[k] { return v }; return nil }
    func i(_ k: String) -> Int? { if case .number(let v)? = o[k], let x = Int(exactly: v) { return x }; return nil }
    func b(_ k: String) -> Bool? { if case .bool(let v)? = o[k] { return v }; return nil }
    u.login = s("login") ?? ""; u.userID = i("id") ?? 0; u.avatarURL = s("avatar_url") ?? ""
    u.gravatarID = s("gravatar_id") ?? ""; u.url = s("url") ?? ""; u.htmlURL = s("html_url") ?? ""
    u.followersURL = s("followers_url") ?? ""; u.followingURL = s("following_url") ?? "";
    u.gistsURL = s("gists_url") ?? ""
    u.starredURL = s("starred_url") ?? ""; u.subscriptionsURL = s("subscriptions_url") ?? ""
    u.organizationsURL = s("organizations_url") ?? ""; u.reposURL = s("repos_url") ?? "";
    u.eventsURL = s("events_url") ?? ""
    u.receivedEventsURL = s("received_events_url") ?? ""; u.type = s("type") ?? "";
    u.siteAdmin = b("site_admin") ?? false
    u.name = s("name") ?? ""; u.company = s("company"); u.blog = s("blog") ?? ""; u.location = s("location") ?? ""
    u.email = s("email"); u.hireable = b("hireable"); u.bio = s("bio") ?? ""; u.publicRepos = i("public_repos") ?? 0
    u.publicGists = i("public_gists") ?? 0; u.followers = i("followers") ?? 0; u.following = i("following") ?? 0
    return u
}

@inline(never) func blackHole<T>(_ x: T) { withExtendedLifetime(x) {} }

/// Best of `rounds` timings of `count` iterations, in nanoseconds per iteration.
func measure(_ count: Int, rounds: Int = 7, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = ContinuousClock.now
        for _ in 0..<count { try body() }
        let d = ContinuousClock.now - start
        let ns = Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
        best = min(best, ns / Double(count))
    }
    return best
}

let args = CommandLine.arguments
let dataDir = args.count > 1 ? args[1] : "/work/shared/bench-data"
let count = args.count > 2 ? Int(args[2])! : 10_000
let userBytes = Array(try! Data(contentsOf: URL(fileURLWithPath: dataDir + "/yymodel-githubuser.json")))
let userData = Data(userBytes)
let tree = try! JSONValue(parsing: userBytes)
let weiboBytes = Array(try! Data(contentsOf: URL(fileURLWithPath: dataDir + "/yymodel-weibostatus.json")))
let weiboTree = try! JSONValue(parsing: weiboBytes)

// Sanity: all paths agree.
let viaEngine = try! GithubUser(json: tree)
precondition(viaEngine.login == handWritten(tree)!.login && viaEngine.publicRepos == 147)
precondition(try! JSONDecoder().decode(CodableUser.self, from: userData).userID == viaEngine.userID)

func row(_ name: String, _ engine: Double, _ peer: Double, peerName: String, target: String, ok: Bool) {
    let line = String(
        format: "%-44@ engine %8.0f ns  %@ %8.0f ns  ratio %5.2f×  target %@  %@", name as NSString, engine,
        peerName as NSString, peer, engine / peer, target as NSString, ok ? "MET" : "MISSED")
    print(line)
}

if ProcessInfo.processInfo.environment["BENCH_MODEL_BYTES_ONLY"] != nil {
    // Only bytes → model (Benchmarks/model/run alternates this with pydantic on a noisy machine).
    let ns = try! measure(count) { blackHole(try GithubUser(jsonBytes: userBytes)) }
    print("RESULT engine_bytes_ns=\(Int(ns))")
    exit(0)
}

if let mode = ProcessInfo.processInfo.environment["BENCH_MODEL_PROFILE"] {
    // BENCH_MODEL_PROFILE=1: tree→model only; BENCH_MODEL_PROFILE=bytes: bytes→model only (for perf record).
    if mode == "bytes" {
        for _ in 0..<100_000 { blackHole(try! GithubUser(jsonBytes: userBytes)) }
    } else {
        for _ in 0..<300_000 { blackHole(try! GithubUser(json: tree)) }
    }
    exit(0)
}

// 1. tree → model vs hand-written.
let hand = measure(count) { blackHole(handWritten(tree)) }
let engineTree = try! measure(count) { blackHole(try GithubUser(json: tree)) }
row(
    "GithubUser tree→model (vs hand-written)", engineTree, hand, peerName: "hand", target: "≤1.2×",
    ok: engineTree / hand <= 1.2)

// 2. bytes → model vs JSONDecoder.
let decoder = JSONDecoder()
let foundationDecode = try! measure(count) { blackHole(try decoder.decode(CodableUser.self, from: userData)) }
let engineBytes = try! measure(count) { blackHole(try GithubUser(jsonBytes: userBytes)) }
row(
    "GithubUser bytes→model (vs JSONDecoder)", engineBytes, foundationDecode, peerName: "Foundation", target: "≤0.5×",
    ok: engineBytes / foundationDecode <= 0.5)

// 3. model → JSON bytes vs JSONEncoder.
let codable = try! decoder.decode(CodableUser.self, from: userData)
let encoder = JSONEncoder()
let foundationEncode = try! measure(count) { blackHole(try encoder.encode(codable)) }
let engineEncode = measure(count) { blackHole(viaEngine.jsonBytes()) }
row(
    "GithubUser model→JSON (vs JSONEncoder)", engineEncode, foundationEncode, peerName: "Foundation", target: "≤0.5×",
    ok: engineEncode / foundationEncode <= 0.5)

// 4. The schema engine (what Model.convert runs) on both fixtures, vs hand-written tree mapping.
let registry = ModelRegistry()
try! registry.define(
    ModelSchema(
        name: "GithubUser",
        json: try! JSONValue(
            parsing: Array(
                """
                {"login":"string","userID":{"type":"int","key":"id"},"avatarURL":"url","gravatarID":"string","url":"url","htmlURL":"url",
                 "followersURL":"url","followingURL":"string","gistsURL":"string","starredURL":"string","subscriptionsURL":"url",
                 "organizationsURL":"url","reposURL":"url","eventsURL":"string","receivedEventsURL":"url","type":"string","siteAdmin":"bool",
                 "name":"string","company":"string?","blog":"url?","location":"string?","email":"string?","hireable":"bool?","bio":"string?",
                 "publicRepos":"int","publicGists":"int","followers":"int","following":"int"}
                """.utf8)), options: ["keyStrategy": "snake_case"]))
let schemaTree = try! measure(count) { blackHole(try registry.convert("GithubUser", tree)) }
row("GithubUser schema engine tree→model", schemaTree, hand, peerName: "hand", target: "info", ok: true)

try! registry.define(
    ModelSchema(
        name: "WeiboUser",
        json: try! JSONValue(
            parsing: Array(
                """
                {"userID":{"type":"int","key":"id"},"idString":{"type":"string","key":"idstr"},"gender":"string","name":"string?",
                 "screenName":"string?","profileImageURL":"url?","avatarLarge":"url?","statusesCount":"int","followersCount":"int",
                 "verified":"bool","location":"string?","createdAt":"date?","icons":"any"}
                """.utf8)), options: ["keyStrategy": "snake_case"]))
try! registry.define(
    ModelSchema(
        name: "WeiboPicture",
        json: [
            "picID": ["type": "string", "key": "pic_id"], "thumbnail": ["type": "url?", "key": "thumbnail.url"],
            "large": ["type": "url?", "key": "large.url"],
        ]))
try! registry.define(
    ModelSchema(
        name: "WeiboStatus",
        json: try! JSONValue(
            parsing: Array(
                """
                {"statusID":{"type":"int","key":"id"},"idstr":"string","createdAt":"date","text":"string","source":"string?","favorited":"bool",
                 "truncated":"bool","user":"WeiboUser","pics":{"type":"{WeiboPicture}?","key":"pic_infos"},"repostsCount":"int","commentsCount":"int",
                 "attitudesCount":"int","urlStruct":{"type":"any?","key":"url_struct"},"topicStruct":{"type":"any?","key":"topic_struct"}}
                """.utf8)), options: ["keyStrategy": "snake_case"]))
let weiboCount = max(count / 10, 1)
_ = try! registry.convert("WeiboStatus", weiboTree)
let weiboSchema = try! measure(weiboCount) { blackHole(try registry.convert("WeiboStatus", weiboTree)) }
let weiboBytesT = try! measure(weiboCount) { blackHole(try registry.convert("WeiboStatus", json: weiboBytes)) }
print(
    String(
        format: "%-44@ engine %8.0f ns (tree→model), %8.0f ns (bytes→model)", "WeiboStatus schema engine" as NSString,
        weiboSchema, weiboBytesT))
print("RESULT engine_bytes_ns=\(Int(engineBytes))")
if ProcessInfo.processInfo.environment["BENCH_MODEL_DETAIL"] != nil {
    let parseOnly = try! measure(count) { blackHole(try JSONValue(parsing: userBytes)) }
    let parseChecked = try! measure(count) { blackHole(try parseJSON(userBytes, model: "x")) }
    let kps: [WritableKeyPath<GithubUser, String>] = [
        \.login, \.avatarURL, \.gravatarID, \.url, \.htmlURL, \.followersURL, \.followingURL, \.gistsURL, \.starredURL,
        \.subscriptionsURL, \.organizationsURL, \.reposURL, \.eventsURL, \.receivedEventsURL, \.type, \.name, \.blog,
        \.location, \.bio,
    ]
    var u = GithubUser()
    let kpCost = measure(count) {
        for kp in kps { u[keyPath: kp] = "x" }; blackHole(u)
    }
    let lookups = measure(count) { if case .object(let o) = tree { for k in o.keys { blackHole(o[k]) } } }
    let trees = (0..<64).map { _ in try! JSONValue(parsing: userBytes) }
    var k = 0
    let fresh = measure(count) {
        k = (k + 1) & 63; blackHole(try! GithubUser(json: trees[k]))
    }
    let handFresh = measure(count) {
        k = (k + 1) & 63; blackHole(handWritten(trees[k]))
    }
    print("detail: 64 distinct trees: engine \(Int(fresh)) ns, hand \(Int(handFresh)) ns")
    print(
        "detail: parse \(Int(parseOnly)) ns, parse+unicode check \(Int(parseChecked)) ns, 19 keypath sets \(Int(kpCost)) ns, 28 lookups \(Int(lookups)) ns"
    )
}
