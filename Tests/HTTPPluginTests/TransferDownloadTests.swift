import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridgeCore
import JSBridgeTesting
import Testing

/// The downloader core against a real server on loopback.
@Suite struct TransferDownloadTests {
    /// A server, a live transport, a fresh downloads folder; everything stopped afterwards.
    static func withDownloader<T>(
        cleanup: DownloadCleanupPolicy = .none, progressInterval: Duration = .zero,
        _ body: (TestHTTPServer, Downloader) async throws -> T
    ) async throws -> T {
        let server = try await TestHTTPServer.start()
        let transport = AsyncHTTPClientTransport()
        let directory = TemporaryDirectory.make(prefix: "jsbridge-downloads") + "/downloads"
        let downloader = Downloader(
            fetcher: Fetcher(transport: transport, authorize: { _, _ in }), directory: directory, cleanup: cleanup,
            progressInterval: progressInterval)
        do {
            let result = try await body(server, downloader)
            await transport.shutdown()
            try await server.stop()
            return result
        } catch {
            await transport.shutdown()
            try await server.stop()
            throw error
        }
    }

    static func files(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    @Test func downloadsWithNameTypeAndProgress() async throws {
        try await Self.withDownloader { server, downloader in
            let body = (0..<300_000).map { UInt8($0 % 256) }
            server.route("/files/data.bin") { _ in
                .bytes(body, contentType: "application/x-thing; charset=binary")
            }
            let events = Locked<[TransferProgress]>([])
            let result = try await downloader.download(DownloadRequest(url: server.url("/files/data.bin"))) {
                progress in
                events.withLock { $0.append(progress) }
            }
            #expect(result.filePath == downloader.directory + "/data.bin")
            #expect(result.mimeType == "application/x-thing")
            #expect(result.length == 300_000)
            #expect(result.suggestedFilename == "data.bin")
            #expect(try Data(contentsOf: URL(fileURLWithPath: result.filePath)) == Data(body))
            #expect(Self.files(in: downloader.directory) == ["data.bin"])
            let seen = events.withLock { $0 }
            #expect(seen.first == TransferProgress(bytes: 0, total: 300_000))
            #expect(seen.last == TransferProgress(bytes: 300_000, total: 300_000))
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.bytes < $1.bytes })
            #expect(seen.allSatisfy { $0.total == 300_000 })
        }
    }

    @Test func progressWithoutLengthAndThrottling() async throws {
        try await Self.withDownloader(progressInterval: .seconds(60)) { server, downloader in
            server.route("/chunked") { _ in .chunked(["a", "bb", "ccc"], interval: .milliseconds(5)) }
            let events = Locked<[TransferProgress]>([])
            let result = try await downloader.download(DownloadRequest(url: server.url("/chunked"))) { progress in
                events.withLock { $0.append(progress) }
            }
            #expect(result.length == 6)
            #expect(result.mimeType == "text/plain")
            // Throttled to the first and the final update.
            #expect(
                events.withLock { $0 } == [
                    TransferProgress(bytes: 0, total: nil), TransferProgress(bytes: 6, total: nil),
                ])
        }
    }

    @Test func statusIsCheckedBeforeWriting() async throws {
        try await Self.withDownloader { server, downloader in
            server.route("/missing") { _ in .text("not here", status: 404) }
            let error = await #expect(throws: HTTPError.self) {
                try await downloader.download(DownloadRequest(url: server.url("/missing")))
            }
            guard case .status(let status, _, let url, _, let body) = error else {
                Issue.record("expected a status error, got \(String(describing: error))")
                return
            }
            #expect(status == 404)
            #expect(url == server.url("/missing"))
            #expect(body == "not here")
            #expect(Self.files(in: downloader.directory) == [])
        }
    }

    @Test func resetMidBodyLeavesNoFile() async throws {
        try await Self.withDownloader { server, downloader in
            server.route("/reset") { _ in .reset(contentLength: 100_000, sending: String(repeating: "x", count: 1000)) }
            let error = await #expect(throws: HTTPError.self) {
                try await downloader.download(DownloadRequest(url: server.url("/reset")))
            }
            if case .network(let kind, _, _) = error {
                #expect(kind == "reset")
            } else {
                Issue.record("\(String(describing: error))")
            }
            #expect(Self.files(in: downloader.directory) == [])
        }
    }

    @Test func cancellationStopsTheTransferAndLeavesNoFile() async throws {
        try await Self.withDownloader { server, downloader in
            // 64 MiB at 64 KiB per 50 ms: about 50 s if it were not cancelled.
            server.route("/slow") { _ in .generated(length: 64 << 20, chunkSize: 64 << 10, interval: .milliseconds(50))
            }
            let started = AsyncStream.makeStream(of: Void.self)
            let task = Task {
                try await downloader.download(DownloadRequest(url: server.url("/slow"))) { progress in
                    if progress.bytes > 0 { started.continuation.yield() }
                }
            }
            for await _ in started.stream { break }
            #expect(Self.files(in: downloader.directory).count == 1)  // the hidden partial file
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(Self.files(in: downloader.directory) == [])
            // The cancel closed the connection, and the server stopped sending there: not the whole body.
            #expect(await eventually { server.connectionsClosed == server.connectionsAccepted })
            #expect(server.generatedBytesSent < 64 << 20)
        }
    }

    @Test func contentDispositionNamesAreSanitised() async throws {
        try await Self.withDownloader { server, downloader in
            let names = [
                "attachment; filename=\"../../../../tmp/evil.sh\"": "evil.sh",
                "attachment; filename*=UTF-8''..%2F..%2Fpasswd": "passwd",
                "attachment; filename=\".htaccess\"": "htaccess",
                "attachment; filename=\"..\"": "dl",  // falls back to the URL
                "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9%0A.pdf": "résumé.pdf",
            ]
            for (header, expected) in names {
                server.route("/dl") { _ in .text("x", headers: [.init("Content-Disposition", header)]) }
                let result = try await downloader.download(DownloadRequest(url: server.url("/dl")))
                #expect(result.suggestedFilename == expected, "\(header)")
                #expect(result.filePath == downloader.directory + "/" + expected)
                #expect(URL(fileURLWithPath: result.filePath).deletingLastPathComponent().path == downloader.directory)
            }
            // A name the caller asks for is sanitised the same way.
            server.route("/plain") { _ in .text("y") }
            let result = try await downloader.download(
                DownloadRequest(url: server.url("/plain"), filename: "../../outside.txt"))
            #expect(result.filePath == downloader.directory + "/outside.txt")
            #expect(result.suggestedFilename == "plain")
        }
    }

    @Test func collisionsAreNumberedUnlessOverwriting() async throws {
        try await Self.withDownloader { server, downloader in
            let count = Locked(0)
            server.route("/report.pdf") { _ in
                let n = count.withLock {
                    $0 += 1; return $0
                }
                return .bytes(Array("v\(n)".utf8), contentType: "application/pdf")
            }
            var paths: [String] = []
            for _ in 0..<3 {
                paths.append(try await downloader.download(DownloadRequest(url: server.url("/report.pdf"))).filePath)
            }
            #expect(
                paths.map { URL(fileURLWithPath: $0).lastPathComponent } == [
                    "report.pdf", "report (1).pdf", "report (2).pdf",
                ])
            let replaced = try await downloader.download(
                DownloadRequest(url: server.url("/report.pdf"), overwrite: true))
            #expect(replaced.filePath == paths[0])
            #expect(try String(contentsOfFile: paths[0], encoding: .utf8) == "v4")
            #expect(try String(contentsOfFile: paths[1], encoding: .utf8) == "v2")
            #expect(Self.files(in: downloader.directory).count == 3)
        }
    }

    @Test func cleanupPolicy() async throws {
        try await Self.withDownloader(cleanup: DownloadCleanupPolicy(maxAge: .seconds(3600), maxFiles: 3)) {
            server, downloader in
            let directory = downloader.directory
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let now = Date()
            // name → age in seconds
            let existing: [(String, TimeInterval)] = [
                ("ancient.txt", 7200), ("old.txt", 600), ("older.txt", 1200), ("new.txt", 10), ("newer.txt", 5),
                (".hidden", 99_999), (Downloader.partialPrefix + "stale.part", 2 * 86_400),
                (Downloader.partialPrefix + "fresh.part", 60),
            ]
            for (name, age) in existing {
                let path = directory + "/" + name
                _ = FileManager.default.createFile(atPath: path, contents: Data(name.utf8))
                try FileManager.default.setAttributes(
                    [.modificationDate: now.addingTimeInterval(-age)], ofItemAtPath: path)
            }
            try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
            server.route("/fresh.txt") { _ in .text("fresh") }
            _ = try await downloader.download(DownloadRequest(url: server.url("/fresh.txt")))
            // ancient.txt is too old; of the rest the two newest are kept (3 with the new download).
            #expect(
                Self.files(in: directory) == [
                    ".hidden", Downloader.partialPrefix + "fresh.part", "fresh.txt", "new.txt", "newer.txt", "sub",
                ])
        }
    }

    @Test func defaultDirectoryPerApp() {
        #expect(Downloader.defaultDirectory(storageDirectory: "/data/", appID: "my.app") == "/data/downloads/my.app")
        let odd = Downloader.defaultDirectory(storageDirectory: "/data", appID: "../x/y")
        #expect(odd.hasPrefix("/data/downloads/"))
        #expect(!odd.dropFirst("/data/downloads/".count).contains("/"))
        #expect(!odd.contains(".."))
    }

    @Test func permissionIsCheckedBeforeAnything() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/x") { _ in .text("x") }
        let transport = AsyncHTTPClientTransport()
        let directory = TemporaryDirectory.make(prefix: "jsbridge-downloads") + "/d"
        struct Denied: Error {}
        let downloader = Downloader(
            fetcher: Fetcher(transport: transport, authorize: { _, _ in throw Denied() }), directory: directory)
        await #expect(throws: Denied.self) { try await downloader.download(DownloadRequest(url: server.url("/x"))) }
        #expect(server.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory))
        await transport.shutdown()
        try await server.stop()
    }
}
