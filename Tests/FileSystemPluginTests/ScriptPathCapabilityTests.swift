import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridgeCore
import JSBridgeTesting
import Testing

/// Paths a script hands to other plugins need `--allow-read` too: HTTP upload files and a DAO's mock
/// directory, against a real loopback server (which must see no request when the path is denied).
@Suite struct ScriptPathCapabilityTests {
    func run(_ script: String, permissions: Permissions) async throws -> (ScriptResult, TestHTTPServer) {
        let server = try await TestHTTPServer.start()
        server.route("/upload") { request in .json("{\"size\":\(request.body.count)}") }
        server.route("/users/1") { _ in .json("{\"live\":true}") }
        let result = await ScriptRunner.run(
            "const base = \"\(server.baseURL)\";\n" + script, plugins: [HTTPPlugin()],
            options: .testing(permissions: permissions))
        try await server.stop()
        return (result, server)
    }

    func fixtures() throws -> (granted: String, outside: String) {
        let root = URL(fileURLWithPath: TemporaryDirectory.make(prefix: "fs-http")).resolvingSymlinksInPath().path
        for dir in ["granted", "outside"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(dir)", withIntermediateDirectories: true)
            try "{\"fixture\":\"\(dir)\"}".write(toFile: "\(root)/\(dir)/User.json", atomically: true, encoding: .utf8)
        }
        try FileManager.default.createSymbolicLink(
            atPath: root + "/granted/link", withDestinationPath: root + "/outside")
        return (root + "/granted", root + "/outside")
    }

    @Test func uploadOfAFileOutsideAllowReadIsDenied() async throws {
        let (granted, outside) = try fixtures()
        let permissions = try Permissions(allowing: .net).granting(.read, scopes: [granted])
        let (result, server) = try await run(
            """
            (async () => {
              const ok = await HTTP.upload(base + "/upload", { files: [{ name: "f", path: \(String(reflecting: granted + "/User.json")) }] });
              console.log("granted", ok.status);
              for (const path of [\(String(reflecting: outside + "/User.json")), \(String(reflecting: granted + "/link/User.json")), \(String(reflecting: granted + "/../outside/User.json")), "/etc/passwd"]) {
                try {
                  await HTTP.upload(base + "/upload", { files: [{ name: "f", path }] });
                  console.log("sent");
                } catch (e) {
                  console.log(e.code, e.message.includes("--allow-read="));
                }
              }
            })();
            """, permissions: permissions)
        #expect(
            result.lines == [
                "granted 200", "PERMISSION_DENIED true", "PERMISSION_DENIED true", "PERMISSION_DENIED true",
                "PERMISSION_DENIED true",
            ], "\(result.stderr)")
        #expect(server.requests.count == 1)
    }

    @Test func aMockDirectoryOutsideAllowReadIsDenied() async throws {
        let (granted, outside) = try fixtures()
        let permissions = try Permissions(allowing: .net).granting(.read, scopes: [granted])
        let (result, server) = try await run(
            """
            (async () => {
              for (const dir of [\(String(reflecting: granted)), \(String(reflecting: outside)), \(String(reflecting: granted + "/link"))]) {
                const dao = HTTP.dao({ name: "User", baseURL: base, path: "/users/1", mock: { mode: "fixture", dir } });
                try { console.log(JSON.stringify(await dao.send())); } catch (e) { console.log(e.code); }
              }
            })();
            """, permissions: permissions)
        #expect(
            result.lines == [#"{"fixture":"granted"}"#, "PERMISSION_DENIED", "PERMISSION_DENIED"], "\(result.stderr)")
        #expect(server.requests.isEmpty)
    }
}
