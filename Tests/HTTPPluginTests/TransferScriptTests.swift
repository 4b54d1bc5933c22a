import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridgeCore
import JSBridgeTesting
import Testing

/// `HTTP.download` and `HTTP.upload` from JavaScript, against a real server on loopback.
@Suite struct TransferScriptTests {
    static func files(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    static func runScript(
        _ script: String, directory: String, permissions: Permissions = Permissions(allowing: .net),
        routes: (TestHTTPServer) -> Void
    ) async throws -> (ScriptResult, TestHTTPServer) {
        let server = try await TestHTTPServer.start()
        routes(server)
        let result = await ScriptRunner.run(
            "const base = \"\(server.baseURL)\";\n" + script, plugins: [HTTPPlugin()],
            options: .testing(
                configuration: ["HTTP": ["downloadsDir": .string(directory)]], permissions: permissions),
            timeout: .seconds(60))
        try await server.stop()
        return (result, server)
    }

    @Test func downloadFromJavaScript() async throws {
        let directory = TemporaryDirectory.make(prefix: "jsbridge-js-dl")
        let (result, server) = try await Self.runScript(
            """
            (async () => {
              const events = [];
              const r = await HTTP.download(base + "/files/report", {
                headers: { "X-Token": "abc" }, progressIntervalMs: 0,
                onProgress: (p) => events.push(p),
              });
              console.log(r.filePath.endsWith("/report.csv"), r.mimeType, r.length, r.suggestedFilename);
              const last = events[events.length - 1];
              console.log(last.loaded, last.total, last.lengthComputable,
                events.every((e, i) => i === 0 || e.loaded > events[i - 1].loaded));
              const named = await HTTP.download(new URL(base + "/files/report"), { filename: "../mine.csv" });
              console.log(named.filePath.slice(named.filePath.lastIndexOf("/") + 1));
              try {
                await HTTP.download(base + "/missing");
              } catch (e) {
                console.log(e instanceof Error, e.name, e.code, e.data.status, e.data.body);
              }
              const controller = new AbortController();
              try {
                await HTTP.download(base + "/slow", {
                  signal: controller.signal, progressIntervalMs: 0,
                  onProgress: (p) => { if (p.loaded > 0) controller.abort(); },
                });
                console.log("not aborted");
              } catch (e) {
                console.log(e.name, e instanceof DOMException);
              }
              const reason = new Error("mine");
              try {
                await HTTP.download(base + "/slow", { signal: AbortSignal.abort(reason) });
              } catch (e) {
                console.log(e === reason);
              }
              console.log(typeof HTTP.download, typeof HTTP.upload, Object.isFrozen(HTTP));
            })();
            """, directory: directory
        ) { server in
            server.route("/files/report") { request in
                .text(
                    String(repeating: "a,b,c\n", count: 50_000),
                    headers: [
                        .init("Content-Type", "text/csv"),
                        .init("Content-Disposition", "attachment; filename=\"report.csv\""),
                        .init("X-Seen", request.header("x-token") ?? ""),
                    ])
            }
            server.route("/slow") { _ in .generated(length: 64 << 20, chunkSize: 64 << 10, interval: .milliseconds(5)) }
        }
        #expect(
            result.lines == [
                "true text/csv 300000 report.csv", "300000 300000 true true", "mine.csv",
                "true BridgeError HTTP_STATUS 404 No route for /missing", "AbortError true", "true",
                "function function true",
            ])
        #expect(result.stderr == "")
        #expect(result.exitCode == 0)
        // The aborted download left nothing behind.
        await eventually { Self.files(in: directory).count == 2 }
        #expect(Self.files(in: directory) == ["mine.csv", "report.csv"])
        // The abort stopped the transfer: the slow body was not sent in full.
        #expect(server.generatedBytesSent < 64 << 20)
    }

    @Test func uploadFromJavaScript() async throws {
        let directory = TemporaryDirectory.make(prefix: "jsbridge-js-up")
        let path = directory + "/photo.jpg"
        let fileBytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        _ = FileManager.default.createFile(atPath: path, contents: Data(fileBytes))
        let (result, server) = try await Self.runScript(
            """
            (async () => {
              const events = [];
              const r = await HTTP.upload(base + "/upload", {
                headers: { Authorization: "Bearer t" },
                fields: { title: "Holiday", n: 3 },
                files: [
                  { name: "photo", path: \(String(reflecting: path)) },
                  { name: "raw", data: new Uint8Array([0, 255, 1]), filename: "raw.bin" },
                  { name: "note", data: "héllo", filename: "note.txt", contentType: "text/plain; charset=utf-8" },
                ],
                progressIntervalMs: 0,
                onProgress: (p) => events.push(p),
              });
              console.log(r instanceof Response, r.status, r.ok, r.headers.get("content-type"), r.url === base + "/upload");
              console.log(JSON.stringify(await r.json()));
              const last = events[events.length - 1];
              console.log(events.length > 1, last.loaded === last.total, last.total > 100000);
              const failed = await HTTP.upload(base + "/nope", { fields: [["a", "b"]] });
              console.log(failed.status, failed.ok);
              try {
                await HTTP.upload(base + "/upload", { files: [{ name: "x", path: "/nonexistent/file" }] });
              } catch (e) {
                console.log(e.name, e.code);
              }
              try {
                await HTTP.upload(base + "/upload", { files: [{ name: "x" }] });
              } catch (e) {
                console.log(e.name);
              }
            })();
            """, directory: directory, permissions: Permissions(allowing: .net, .read)
        ) { server in
            server.route("/upload") { request in .json("{\"size\":\(request.body.count)}", status: 201) }
        }
        #expect(result.stderr == "")
        #expect(result.exitCode == 0)
        let upload = try #require(server.requests.first { $0.path == "/upload" })
        let contentType = try #require(upload.header("content-type"))
        let parts = try #require(parseMultipart(upload.body, contentType: contentType))
        #expect(
            parts.map(\.disposition) == [
                "form-data; name=\"title\"", "form-data; name=\"n\"",
                "form-data; name=\"photo\"; filename=\"photo.jpg\"",
                "form-data; name=\"raw\"; filename=\"raw.bin\"", "form-data; name=\"note\"; filename=\"note.txt\"",
            ])
        #expect(parts[1].body == Array("3".utf8))
        #expect(parts[2].headers["content-type"] == "image/jpeg")
        #expect(parts[2].body == fileBytes)
        #expect(parts[3].body == [0, 255, 1])
        #expect(parts[3].headers["content-type"] == "application/octet-stream")
        #expect(parts[4].headers["content-type"] == "text/plain; charset=utf-8")
        #expect(parts[4].body == Array("héllo".utf8))
        #expect(upload.header("authorization") == "Bearer t")
        #expect(
            result.lines == [
                "true 201 true application/json true", "{\"size\":\(upload.body.count)}", "true true true", "404 false",
                "BridgeError FILE_NOT_FOUND", "TypeError",
            ])
    }

    @Test func permissionDeniedFromJavaScript() async throws {
        let directory = TemporaryDirectory.make(prefix: "jsbridge-js-denied")
        let (result, server) = try await Self.runScript(
            """
            HTTP.download(base + "/a").catch((e) => console.log(e.name, e.code));
            HTTP.upload(base + "/a", { fields: { a: "b" } }).catch((e) => console.log(e.name, e.code));
            """, directory: directory, permissions: .none
        ) { server in server.route("/a") { _ in .text("a") } }
        #expect(result.lines == ["BridgeError PERMISSION_DENIED", "BridgeError PERMISSION_DENIED"])
        #expect(server.requests.isEmpty)
        #expect(Self.files(in: directory) == [])
    }
}
