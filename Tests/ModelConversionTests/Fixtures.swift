import Foundation
import JSBridgeBase
import ModelConversion

/// Parses JSON text for tests.
func json(_ text: String) -> JSONValue {
    try! JSONValue(parsing: text)
}

/// A registry with the hotel example: a hotel with rooms, prices and dates.
func hotelRegistry() throws -> ModelRegistry {
    let r = ModelRegistry()
    try r.define(
        ModelSchema(
            name: "Room",
            fields: [
                FieldSchema("number", .int),
                FieldSchema("price", .double, minimum: 0),
                FieldSchema("kind", .string, oneOf: ["single", "double", "suite"]),
                FieldSchema("tags", .optional(.set(.string))),
            ]))
    try r.define(
        ModelSchema(
            name: "Hotel",
            fields: [
                FieldSchema("name", .string),
                FieldSchema("desc", .optional(.string), keys: ["ext.desc", "description"]),
                FieldSchema("stars", .int, defaultValue: 3, minimum: 1, maximum: 5),
                FieldSchema("opened", .optional(.date)),
                FieldSchema("site", .optional(.url)),
                FieldSchema("rooms", .array(.model("Room"))),
                FieldSchema("byFloor", .optional(.map(.array(.model("Room"))))),
                FieldSchema("extra", .optional(.any)),
            ]))
    return r
}

/// Releases a deeply nested value without deep recursion (each level is held by `levels` first).
func releaseDeep(_ value: inout JSONValue) {
    var levels: [JSONValue] = []
    var current = value
    while true {
        levels.append(current)
        if case .array(let a) = current, let first = a.first {
            current = first
        } else if case .object(let o) = current, let first = o.values.first {
            current = first
        } else {
            break
        }
    }
    value = .null
    current = .null
    while !levels.isEmpty { levels.removeFirst() }
}

/// The GithubUser model of YYModel's benchmark, typed.
struct GithubUser: ModelConvertible, Hashable {
    var login = ""
    var userID = 0
    var avatarURL = ""
    var gravatarID = ""
    var url = ""
    var htmlURL = ""
    var followersURL = ""
    var followingURL = ""
    var gistsURL = ""
    var starredURL = ""
    var subscriptionsURL = ""
    var organizationsURL = ""
    var reposURL = ""
    var eventsURL = ""
    var receivedEventsURL = ""
    var type = ""
    var siteAdmin = false
    var name = ""
    var company: String?
    var blog = ""
    var location = ""
    var email: String?
    var hireable: Bool?
    var bio = ""
    var publicRepos = 0
    var publicGists = 0
    var followers = 0
    var following = 0
    var createdAt: Date?

    static let modelMapping = ModelMapping<GithubUser>("GithubUser", keyStrategy: .snakeCase) { m in
        m.field("login", \.login)
        m.field("userID", \.userID, keys: "id")
        m.field("avatarURL", \.avatarURL)
        m.field("gravatarID", \.gravatarID)
        m.field("url", \.url)
        m.field("htmlURL", \.htmlURL)
        m.field("followersURL", \.followersURL)
        m.field("followingURL", \.followingURL)
        m.field("gistsURL", \.gistsURL)
        m.field("starredURL", \.starredURL)
        m.field("subscriptionsURL", \.subscriptionsURL)
        m.field("organizationsURL", \.organizationsURL)
        m.field("reposURL", \.reposURL)
        m.field("eventsURL", \.eventsURL)
        m.field("receivedEventsURL", \.receivedEventsURL)
        m.field("type", \.type)
        m.field("siteAdmin", \.siteAdmin)
        m.field("name", \.name)
        m.field("company", \.company)
        m.field("blog", \.blog)
        m.field("location", \.location)
        m.field("email", \.email)
        m.field("hireable", \.hireable)
        m.field("bio", \.bio)
        m.field("publicRepos", \.publicRepos)
        m.field("publicGists", \.publicGists)
        m.field("followers", \.followers)
        m.field("following", \.following)
        m.field("createdAt", \.createdAt)
    }
}

let githubUserJSON = """
    {"login":"facebook","id":69631,"avatar_url":"https://avatars.githubusercontent.com/u/69631?v=3","gravatar_id":"",
    "url":"https://api.github.com/users/facebook","html_url":"https://github.com/facebook",
    "followers_url":"https://api.github.com/users/facebook/followers","following_url":"https://api.github.com/users/facebook/following{/other_user}",
    "gists_url":"https://api.github.com/users/facebook/gists{/gist_id}","starred_url":"https://api.github.com/users/facebook/starred{/owner}{/repo}",
    "subscriptions_url":"https://api.github.com/users/facebook/subscriptions","organizations_url":"https://api.github.com/users/facebook/orgs",
    "repos_url":"https://api.github.com/users/facebook/repos","events_url":"https://api.github.com/users/facebook/events{/privacy}",
    "received_events_url":"https://api.github.com/users/facebook/received_events","type":"Organization","site_admin":false,
    "name":"Facebook","company":null,"blog":"https://code.facebook.com/projects/","location":"Menlo Park, California",
    "email":null,"hireable":null,"bio":"We work hard.","public_repos":147,"public_gists":12,"followers":0,"following":0}
    """

/// Typed hotel/room with an `after` transform giving each room its hotel's name.
struct TypedRoom: ModelConvertible, Hashable {
    var number = 0
    var price = 0.0
    var hotelName = ""
    static let modelMapping = ModelMapping<TypedRoom>("TypedRoom") { m in
        m.field("number", \.number)
        m.field("price", \.price, range: 0...10_000)
    }
}

struct TypedHotel: ModelConvertible, Hashable {
    var name = ""
    var desc: String?
    var stars = 3
    var rooms: [TypedRoom] = []
    var tags: Set<String> = []
    var byFloor: [String: TypedRoom] = [:]
    static let modelMapping = ModelMapping<TypedHotel>("TypedHotel") { m in
        m.field("name", \.name)
        m.field("desc", \.desc, keys: "ext.desc", "description")
        m.field("stars", \.stars, required: false, onInvalid: .useDefault, range: 1...5)
        m.field("rooms", \.rooms)
        m.field("tags", \.tags, required: false)
        m.field("byFloor", \.byFloor, required: false)
        m.after = { hotel, _ in
            for i in hotel.rooms.indices { hotel.rooms[i].hotelName = hotel.name }
        }
    }
}
