import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridgeCore
import JSBridgeTesting
import Testing

/// The `download` / `upload` stream actions, called from Swift.
@Suite struct TransferPluginTests {
    static func files(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    @Test func downloadActionWithProgressAndDefaultFolder() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a.txt") { _ in .text("hello") }
        let tester = try await PluginTester(HTTPPlugin(), options: .testing(permissions: Permissions(allowing: .net)))
        var values: [JSONValue] = []
        for try await value in try tester.stream(
            "download", ["url": .string(server.url("/a.txt")), "progress": true, "progressIntervalMs": 0])
        {
            values.append(value)
        }
        await tester.shutdown()
        try await server.stop()
        let folder = tester.options.storage.directory + "/downloads/test"
        #expect(
            values.last
                == [
                    "type": "result", "filePath": .string(folder + "/a.txt"), "mimeType": "text/plain", "length": 5,
                    "suggestedFilename": "a.txt",
                ])
        #expect(values.first == ["type": "progress", "loaded": 0, "total": 5])
        #expect(values.dropLast().last == ["type": "progress", "loaded": 5, "total": 5])
        #expect(Self.files(in: folder) == ["a.txt"])
    }

    @Test func permissionDeniedWithoutAllowNet() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a.txt") { _ in .text("hello") }
        let tester = try await PluginTester(HTTPPlugin(), options: .testing())
        await #expect(throws: BridgeError.self) {
            for try await _ in try tester.stream("download", ["url": .string(server.url("/a.txt"))]) {}
        }
        do {
            for try await _ in try tester.stream("upload", ["url": .string(server.url("/a.txt"))]) {}
            Issue.record("upload was allowed")
        } catch let error as BridgeError {
            #expect(error.code == BridgeError.Code.permissionDenied)
        }
        await tester.shutdown()
        try await server.stop()
        #expect(server.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: tester.options.storage.directory + "/downloads"))
    }

    @Test func cancellingTheStreamRemovesThePartialFile() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/slow") { _ in .generated(length: 64 << 20, chunkSize: 64 << 10, interval: .milliseconds(5)) }
        let directory = TemporaryDirectory.make(prefix: "jsbridge-dl") + "/custom"
        let tester = try await PluginTester(
            HTTPPlugin(),
            options: .testing(
                configuration: ["HTTP": ["downloadsDir": .string(directory)]], permissions: Permissions(allowing: .net))
        )
        let stream = try tester.stream(
            "download", ["url": .string(server.url("/slow")), "progress": true, "progressIntervalMs": 0])
        for try await value in stream {
            if case .object(let object) = value, case .number(let loaded) = object["loaded"], loaded > 0 { break }
        }
        #expect(Self.files(in: directory).count == 1)
        stream.cancel()
        // Cancelling reaches the native side; the partial file goes away promptly.
        #expect(await eventually { Self.files(in: directory).isEmpty })
        await tester.shutdown()
        try await server.stop()
    }

    @Test func badConfigurationFailsSetUp() async throws {
        await #expect(throws: BridgeError.self) {
            _ = try await PluginTester(
                HTTPPlugin(),
                options: .testing(configuration: ["HTTP": ["downloadsMaxFiles": 0, "progressIntervalMs": -1]]))
        }
    }

    @Test func badUploadArguments() async throws {
        let tester = try await PluginTester(
            HTTPPlugin(), options: .testing(permissions: Permissions(allowing: .net, .read)))
        do {
            for try await _ in try tester.stream(
                "upload", ["url": "http://127.0.0.1:1/", "files": [["name": "f", "path": "/x", "text": "y"]]])
            {}
            Issue.record("accepted two sources")
        } catch let error as BridgeError {
            #expect(error.code == BridgeError.Code.invalidArgument)
        }
        do {
            for try await _ in try tester.stream(
                "upload", ["url": "http://127.0.0.1:1/", "files": [["name": "f", "path": "/nonexistent/file"]]])
            {}
            Issue.record("accepted a missing file")
        } catch let error as BridgeError {
            #expect(error.code == "FILE_NOT_FOUND")
        }
        await tester.shutdown()
    }
}
