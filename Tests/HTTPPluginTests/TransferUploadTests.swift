import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridgeCore
import JSBridgeTesting
import Testing

/// A small multipart/form-data parser for checking what the server received.
struct ParsedPart: Equatable {
    var headers: [String: String]
    var body: [UInt8]

    var disposition: String { headers["content-disposition"] ?? "" }
}

func parseMultipart(_ body: [UInt8], contentType: String) -> [ParsedPart]? {
    guard let range = contentType.range(of: "boundary=") else { return nil }
    let boundary = Array(("--" + contentType[range.upperBound...]).utf8)
    // memchr/memcmp: a debug build stays fast on large bodies.
    func find(_ needle: [UInt8], from start: Int) -> Int? {
        body.withUnsafeBytes { haystack -> Int? in
            needle.withUnsafeBytes { needle -> Int? in
                var index = start
                while index + needle.count <= haystack.count {
                    guard
                        let hit = memchr(
                            haystack.baseAddress! + index, Int32(needle[0]), haystack.count - needle.count + 1 - index)
                    else { return nil }
                    let offset = UnsafeRawPointer(hit) - haystack.baseAddress!
                    if memcmp(hit, needle.baseAddress!, needle.count) == 0 { return offset }
                    index = offset + 1
                }
                return nil
            }
        }
    }
    guard var position = find(boundary, from: 0), position == 0 else { return nil }
    var parts: [ParsedPart] = []
    while true {
        position += boundary.count
        if Array(body[position..<min(position + 2, body.count)]) == Array("--".utf8) {
            // The close delimiter ends the body (with a final CRLF).
            return Array(body[(position + 2)...]) == Array("\r\n".utf8) ? parts : nil
        }
        guard Array(body[position..<position + 2]) == Array("\r\n".utf8) else { return nil }
        position += 2
        guard let headerEnd = find(Array("\r\n\r\n".utf8), from: position) else { return nil }
        var headers: [String: String] = [:]
        for line in String(decoding: body[position..<headerEnd], as: UTF8.self).components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let contentStart = headerEnd + 4
        guard let next = find(Array("\r\n".utf8) + boundary, from: contentStart) else { return nil }
        parts.append(ParsedPart(headers: headers, body: Array(body[contentStart..<next])))
        position = next + 2
    }
}

@Suite struct TransferUploadTests {
    @Test func encoderWritesAWellFormedBody() throws {
        var form = MultipartFormData(boundary: "XyZ")
        form.append(field: "title", value: "Hello \"world\"\r\nline")
        form.append(data: "blob", bytes: [0, 1, 2], filename: "a\"b.bin", contentType: nil)
        let expected =
            "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHello \"world\"\r\nline\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"blob\"; filename=\"a%22b.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n\u{0}\u{1}\u{2}\r\n--XyZ--\r\n"
        #expect(try form.encode() == Array(expected.utf8))
        #expect(try form.contentLength() == Int64(expected.utf8.count))
        #expect(form.contentType == "multipart/form-data; boundary=XyZ")
        #expect(try MultipartFormData(boundary: "b").encode() == Array("--b--\r\n".utf8))
        #expect(throws: TransferError.self) { try MultipartFormData(boundary: "bad\nboundary").encode() }
        var missing = MultipartFormData()
        missing.append(file: "f", path: "/nonexistent/file.txt")
        #expect(throws: TransferError.fileNotFound(path: "/nonexistent/file.txt")) { try missing.contentLength() }
    }

    @Test func streamedBodyEqualsTheEncodedOne() async throws {
        let directory = TemporaryDirectory.make(prefix: "jsbridge-upload")
        let path = directory + "/data.bin"
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        var form = MultipartFormData()
        form.append(field: "a", value: "1")
        form.append(file: "file", path: path)
        form.append(field: "b", value: "2")
        let stream = try form.bodyStream(chunkSize: 10_000)
        var streamed: [UInt8] = []
        for try await chunk in stream {
            #expect(chunk.count <= 10_000)
            streamed += chunk
        }
        #expect(streamed == (try form.encode()))
        #expect(Int64(streamed.count) == stream.length)
        // A second iteration reads the file again.
        var again = 0
        for try await chunk in stream { again += chunk.count }
        #expect(again == streamed.count)
        // A file that shrank after measuring fails the stream.
        let shrinking = try form.bodyStream()
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes.prefix(10)))
        await #expect(throws: TransferError.fileChanged(path: path, expected: 200_000)) {
            for try await _ in shrinking {}
        }
    }

    /// A file that reports no size (`/proc/version`) is read when the form is measured: its part carries its
    /// content, and the length sent is the length of the bytes sent.
    @Test func filesWithoutASizeAreSentWithTheirContent() async throws {
        let content = try String(contentsOfFile: "/proc/version", encoding: .utf8)
        #expect(!content.isEmpty)
        var form = MultipartFormData(boundary: "b")
        form.append(file: "version", path: "/proc/version")
        let stream = try form.bodyStream()
        var streamed: [UInt8] = []
        for try await chunk in stream { streamed += chunk }
        #expect(String(decoding: streamed, as: UTF8.self).contains(content))
        #expect(Int64(streamed.count) == stream.length)
    }

    @Test func uploadOverLoopback() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/upload") { request in .json("{\"received\":\(request.body.count)}", status: 201) }
        let transport = AsyncHTTPClientTransport()
        let directory = TemporaryDirectory.make(prefix: "jsbridge-upload")
        let path = directory + "/photo.png"
        let fileBytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
        _ = FileManager.default.createFile(atPath: path, contents: Data(fileBytes))

        var form = MultipartFormData()
        form.append(field: "title", value: "Holiday ☀")
        form.append(file: "photo", path: path)
        form.append(data: "notes", bytes: Array("some notes".utf8), filename: "notes.txt")
        let length = try form.contentLength()
        let uploader = Uploader(
            fetcher: Fetcher(transport: transport, authorize: { _, _ in }), progressInterval: .zero, chunkSize: 64 << 10
        )
        let events = Locked<[TransferProgress]>([])
        let response = try await uploader.upload(
            UploadRequest(
                url: server.url("/upload"), headers: [HTTPField("X-Token", "t"), HTTPField("Content-Type", "x/y")],
                form: form)
        ) { progress in events.withLock { $0.append(progress) } }
        await transport.shutdown()
        try await server.stop()

        #expect(response.status == 201)
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"received\":\(length)}")
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.header("x-token") == "t")
        #expect(request.header("content-length") == "\(length)")
        #expect(request.header("transfer-encoding") == nil)
        let contentType = try #require(request.header("content-type"))
        #expect(contentType == form.contentType)
        let parts = try #require(parseMultipart(request.body, contentType: contentType))
        #expect(parts.count == 3)
        #expect(parts[0].disposition == "form-data; name=\"title\"")
        #expect(parts[0].headers["content-type"] == nil)
        #expect(String(decoding: parts[0].body, as: UTF8.self) == "Holiday ☀")
        #expect(parts[1].disposition == "form-data; name=\"photo\"; filename=\"photo.png\"")
        #expect(parts[1].headers["content-type"] == "image/png")
        #expect(parts[1].body == fileBytes)
        #expect(parts[2].disposition == "form-data; name=\"notes\"; filename=\"notes.txt\"")
        #expect(parts[2].headers["content-type"] == "text/plain")
        #expect(parts[2].body == Array("some notes".utf8))

        let seen = events.withLock { $0 }
        #expect(seen.count >= 3)
        #expect(seen.last == TransferProgress(bytes: length, total: length))
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.bytes < $1.bytes })
    }

    @Test func missingFileFailsBeforeConnecting() async throws {
        let transport = RecordingHTTPTransport()
        var form = MultipartFormData()
        form.append(file: "f", path: "/nonexistent/x.txt")
        let uploader = Uploader(fetcher: Fetcher(transport: transport, authorize: { _, _ in }))
        await #expect(throws: TransferError.fileNotFound(path: "/nonexistent/x.txt")) {
            try await uploader.upload(UploadRequest(url: "http://127.0.0.1:1/u", form: form))
        }
        #expect(transport.requests.isEmpty)
    }
}
