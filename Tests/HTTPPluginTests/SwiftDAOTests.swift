import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridgeCore
import JSBridgeTesting
import ModelConversion
import Testing

struct User: ModelConvertible, Hashable, Sendable {
    var id = 0
    var name = ""
    static let modelMapping = ModelMapping<User>("User") { m in
        m.field("id", \.id)
        m.field("name", \.name)
    }
}

final class Recorder: Sendable {
    let steps = Locked<[String]>([])
}

/// Shared settings: every DAO of this API builds on `base`.
enum Api {
    static func base(_ url: String) -> DAOEndpoint {
        DAOEndpoint(baseURL: url, headers: [HTTPField("X-Client", "swift")], retry: RetryPolicy(count: 2, delayMs: 5))
    }
}

/// Signs its parameters (sorted, joined, with a secret) and checks the `{status, msg}` envelope.
struct GetUser: HTTPDAO {
    typealias Output = User
    var baseURL: String
    let recorder = Recorder()

    var endpoint: DAOEndpoint {
        Api.base(baseURL).with(
            path: "/users/{id}", parameters: [DAOParameter("id"), DAOParameter("verbose", mapTo: "v", default: false)],
            keyPath: "resp.data")
    }

    func record(_ step: String) { recorder.steps.withLock { $0.append(step) } }
    func setUpHeaders(_ headers: inout [HTTPField], context: DAOCallContext) async throws {
        record("setUpHeaders")
        headers.append(HTTPField("X-Attempt", "\(context.attempt)"))
    }
    func setUpParameters(_ parameters: inout JSONObject, context: DAOCallContext) async throws {
        record("setUpParameters")
        parameters["ts"] = 42
    }
    func didSetUpParameters(_ parameters: inout JSONObject, context: DAOCallContext) async throws {
        record("didSetUpParameters")
        let text = parameters.keys.sorted().map { "\($0)=\(parameters[$0]!.serialized())" }.joined(separator: "&")
        parameters["sign"] = .string(String(text.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xffff }, radix: 16))
    }
    func willSend(_ request: inout FetchRequest, context: DAOCallContext) async throws { record("willSend") }
    func didReceive(_ response: FetchResponse, context: DAOCallContext) async throws -> DAOOutcome {
        record("didReceive")
        return .proceed
    }
    func outputEntity(_ json: JSONValue, context: DAOCallContext) async throws -> JSONValue {
        record("outputEntity")
        if json["status"] == false, case .string(let message)? = json["msg"] {
            throw DAOError.server(code: json["code"], message: message)
        }
        return json
    }
    func deliver(_ output: User, context: DAOCallContext) async throws -> User {
        record("deliver")
        return output
    }
}

struct ListUsers: HTTPDAO {
    typealias Output = [User]
    var baseURL: String
    var path = "/users"
    var endpoint: DAOEndpoint { Api.base(baseURL).with(path: path, keyPath: "data") }
}

struct CreateUser: HTTPDAO {
    typealias Output = JSONValue
    var baseURL: String
    var encoding: RequestEncoding = .json
    var endpoint: DAOEndpoint {
        Api.base(baseURL).with(
            path: "/echo", method: "POST",
            parameters: [
                DAOParameter("name", mapTo: "user_name", required: true),
                DAOParameter("token", mapTo: "X-Token", in: .header),
            ],
            encoding: encoding)
    }
}

/// Swift DAOs through ``DAOClient`` against a real server on loopback.
@Suite struct SwiftDAOTests {
    func withServer(_ body: (TestHTTPServer, DAOClient) async throws -> Void) async throws {
        let server = try await TestHTTPServer.start()
        server.route("/echo") { request in
            .json(
                #"{"uri":"\#(request.uri)","body":\#(JSONValue.string(request.text).serialized()),"token":"\#(request.header("x-token") ?? "")","type":"\#(request.header("content-type") ?? "")"}"#
            )
        }
        let transport = AsyncHTTPClientTransport()
        let client = DAOClient(transport: transport)
        do {
            try await body(server, client)
        } catch {
            await transport.shutdown()
            try await server.stop()
            throw error
        }
        await transport.shutdown()
        try await server.stop()
    }

    @Test func hooksRunInOrderAndTheEntityConverts() async throws {
        try await withServer { server, client in
            server.route("/users/7") { _ in .json(#"{"resp":{"data":{"id":"7","name":"Ann"}}}"#) }
            let dao = GetUser(baseURL: server.baseURL)
            let user = try await client.send(dao, ["id": 7])
            #expect(user == User(id: 7, name: "Ann"))
            #expect(
                dao.recorder.steps.withLock { $0 } == [
                    "setUpHeaders", "setUpParameters", "didSetUpParameters", "willSend", "didReceive", "outputEntity",
                    "deliver",
                ])
            let request = try #require(server.requests.first)
            #expect(request.uri.hasPrefix("/users/7?v=false&ts=42&sign="))
            #expect(request.header("x-client") == "swift")
            #expect(request.header("x-attempt") == "1")
        }
    }

    @Test func errorsHaveDomainsStatusesAndPaths() async throws {
        try await withServer { server, client in
            server.route("/users/1") { _ in .json(#"{"status":false,"code":"E1","msg":"gone"}"#) }
            server.route("/users/2") { _ in .text("nope", status: 404) }
            server.route("/users/3") { _ in .json(#"{"resp":{"data":{"id":"x"}}}"#) }
            server.route("/users/4") { _ in .json(#"{"resp":"#) }
            server.route("/users") { _ in .json(#"{"data":[{"id":1,"name":"A"},{"id":"b"}]}"#) }
            let dao = GetUser(baseURL: server.baseURL)
            func failure(_ body: () async throws -> Void) async -> DAOError? {
                do { try await body() } catch { return error as? DAOError }
                return nil
            }
            let server1 = await failure { _ = try await client.send(dao, ["id": 1]) }
            #expect(server1?.domain == .server && server1?.serverCode == "E1" && server1?.message == "gone")
            let http = await failure { _ = try await client.send(dao, ["id": 2]) }
            #expect(http?.domain == .http && http?.status == 404 && http?.body == "nope" && http?.code == "HTTP_STATUS")
            let format = await failure { _ = try await client.send(dao, ["id": 3]) }
            #expect(format?.domain == .dataFormat && format?.issues.map(\.path) == ["resp.data.id", "resp.data.name"])
            let json = await failure { _ = try await client.send(dao, ["id": 4]) }
            #expect(json?.domain == .dataFormat && json?.issues.first?.code == "INVALID_JSON")
            let list = await failure { _ = try await client.send(ListUsers(baseURL: server.baseURL)) }
            #expect(list?.issues.map(\.path) == ["data[1].id", "data[1].name"])
            let missing = await failure { _ = try await client.send(dao, [:]) }
            #expect(missing?.domain == .request && missing?.issues.map(\.path) == ["params.id"])
            let network = await failure { _ = try await client.send(GetUser(baseURL: "http://127.0.0.1:1"), ["id": 1]) }
            #expect(network?.domain == .network && network?.code == "NETWORK_ERROR")
            #expect(network?.bridgeError.data?["domain"] == "network")
        }
    }

    @Test func encodingsAndHeaderParameters() async throws {
        try await withServer { server, client in
            let json = try await client.send(
                CreateUser(baseURL: server.baseURL), ["name": "a b", "token": "t", "n": 1])
            #expect(json["body"] == #"{"user_name":"a b","n":1}"# && json["token"] == "t")
            #expect(json["type"] == "application/json")
            let form = try await client.send(
                CreateUser(baseURL: server.baseURL, encoding: .form), ["name": "a b&c", "n": [1, 2]])
            #expect(form["body"] == "user_name=a+b%26c&n=1&n=2")
            #expect(form["type"] == "application/x-www-form-urlencoded;charset=UTF-8")
            let query = try await client.send(CreateUser(baseURL: server.baseURL, encoding: .query), ["name": "ü"])
            #expect(query["uri"] == "/echo?user_name=%C3%BC" && query["body"] == "")
        }
    }

    @Test func statusesAreRetriedAndCancellationIsReported() async throws {
        try await withServer { server, client in
            let hits = Locked(0)
            server.route("/users") { _ in
                let n = hits.withLock { value in
                    value += 1
                    return value
                }
                return n < 3 ? .text("busy", status: 503) : .json(#"{"data":[{"id":1,"name":"A"}]}"#)
            }
            let arrived = TestSignal()
            server.route("/slow") { _ in
                arrived.fire()
                return .text("{}", delay: .seconds(3600))  // never, within the test
            }
            let users = try await client.send(ListUsers(baseURL: server.baseURL))
            #expect(users == [User(id: 1, name: "A")])
            #expect(hits.withLock { $0 } == 3)
            let task = Task { try await client.send(ListUsers(baseURL: server.baseURL, path: "/slow")) }
            await arrived.wait()
            task.cancel()
            // The server never answers: only the cancel can end the call.
            let result = await task.result
            #expect((result.failure as? DAOError)?.domain == .cancelled)
        }
    }
}

/// Lists users through the cache (by default `alternative`: any stored response is served).
struct CachedUsers: HTTPDAO {
    typealias Output = [User]
    var baseURL: String
    var mode = HTTPCacheMode.alternative
    var endpoint: DAOEndpoint {
        var endpoint = Api.base(baseURL).with(path: "/users", keyPath: "data")
        endpoint.cacheMode = mode
        return endpoint
    }
}

extension SwiftDAOTests {
    @Test func cachedEndpointsStoreConvertedResponsesOnly() async throws {
        let server = try await TestHTTPServer.start()
        let valid = Locked(false)
        server.route("/users") { _ in
            valid.withLock { $0 }
                ? .json(#"{"data":[{"id":1,"name":"A"}]}"#) : .json(#"{"data":[{"id":"x","name":"A"}]}"#)
        }
        let transport = AsyncHTTPClientTransport()
        let store = InMemoryHTTPCacheStore()
        let client = DAOClient(transport: transport, cache: HTTPCache(store: store))
        let dao = CachedUsers(baseURL: server.baseURL)
        await #expect(throws: DAOError.self) { try await client.send(dao) }
        valid.withLock { $0 = true }
        #expect(try await client.send(dao) == [User(id: 1, name: "A")])
        valid.withLock { $0 = false }
        #expect(try await client.send(dao) == [User(id: 1, name: "A")])
        #expect(server.requests.count == 2)
        await transport.shutdown()
        try await server.stop()
    }
}

extension SwiftDAOTests {
    /// `both` as in JavaScript: the stored answer goes to `onCache`, the call returns the network's and stores it.
    @Test func bothModeHandsTheStoredAnswerToOnCacheThenReturnsTheNetworks() async throws {
        let server = try await TestHTTPServer.start()
        let version = Locked(0)
        server.route("/users") { _ in
            let id = version.withLock {
                $0 += 1; return $0
            }
            return .json(#"{"data":[{"id":\#(id),"name":"A"}]}"#)
        }
        let transport = AsyncHTTPClientTransport()
        let client = DAOClient(transport: transport, cache: HTTPCache(store: InMemoryHTTPCacheStore()))
        let dao = CachedUsers(baseURL: server.baseURL, mode: .both)
        let cached = Locked<[[User]]>([])
        let record: @Sendable ([User]) async throws -> Void = { users in cached.withLock { $0.append(users) } }

        #expect(try await client.send(dao, onCache: record) == [User(id: 1, name: "A")])
        #expect(cached.withLock { $0 }.isEmpty)
        #expect(try await client.send(dao, onCache: record) == [User(id: 2, name: "A")])
        #expect(cached.withLock { $0 } == [[User(id: 1, name: "A")]])
        #expect(try await client.send(dao) == [User(id: 3, name: "A")])
        #expect(cached.withLock { $0 }.count == 1)
        #expect(server.requests.count == 3)
        await transport.shutdown()
        try await server.stop()
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// A DAO answered from fixtures: its own `mock` (when set) or the client's.
struct MockedUser: HTTPDAO {
    typealias Output = User
    var mock: DAOMock?
    var name: String { "MockedUser" }
    var endpoint: DAOEndpoint {
        DAOEndpoint(baseURL: "http://never.test", path: "/user", keyPath: "data", mock: mock)
    }
}

@Suite struct SwiftDAOMockTests {
    /// Writes `files` (name → JSON text) into a fresh directory.
    func fixtures(_ files: [String: String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mocks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
        return directory.path
    }

    /// Plain fixtures and envelopes (status, text, delay, errors) and variants, per DAO or for every DAO of a
    /// client; the network is never used, and answers are checked and converted as real ones.
    @Test func fixturesAnswerWithTheirStatusesDelaysAndErrors() async throws {
        let directory = try fixtures([
            "MockedUser.json": #"{"data": {"id": 7, "name": "Ann"}}"#,
            "MockedUser.missing.json": #"{"$status": 404, "$text": "no such user"}"#,
            "MockedUser.slow.json": #"{"$delayMs": 80, "$body": {"data": {"id": "8", "name": "Bo"}}}"#,
            "MockedUser.down.json": #"{"$error": "reset"}"#,
            "MockedUser.late.json": #"{"$error": "timeout", "$delayMs": 5}"#,
            "MockedUser.bad.json": #"{"data": {"id": "x"}}"#,
            "MockedUser.odd.json": #"{"$status": "teapot"}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let transport = RecordingHTTPTransport { _ in HTTPTransportResponse(status: 500) }
        let client = DAOClient(transport: transport, mock: DAOMock(directory: directory))
        #expect(try await client.send(MockedUser()) == User(id: 7, name: "Ann"))
        func failure(_ variant: String) async -> DAOError? {
            await #expect(throws: DAOError.self) {
                try await client.send(MockedUser(mock: DAOMock(directory: directory, variant: variant)))
            }
        }
        let missing = await failure("missing")
        #expect(missing?.domain == .http && missing?.status == 404 && missing?.body == "no such user")
        let started = ContinuousClock.now
        let slow = try await client.send(MockedUser(mock: DAOMock(directory: directory, variant: "slow")))
        #expect(slow == User(id: 8, name: "Bo"))
        #expect(ContinuousClock.now - started >= .milliseconds(80))
        #expect(await failure("down")?.domain == .network)
        #expect(await failure("late")?.domain == .timeout)
        let bad = await failure("bad")
        #expect(bad?.domain == .dataFormat && bad?.issues.map(\.path) == ["data.id", "data.name"])
        #expect(await failure("odd")?.code == "MOCK_INVALID")
        #expect(await failure("absent")?.code == "MOCK_NOT_FOUND")
        #expect(transport.requests.isEmpty)
    }
}
