import Foundation
import HTTPPlugin
import HTTPPluginTesting
import JSBridgeTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A 1 GiB download over loopback, streamed to disk without holding it in memory.
@Suite struct TransferLargeDownloadTests {
    /// The process's resident set size in bytes (`VmRSS` of /proc/self/status).
    static func residentBytes() -> Int64 {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let digits = line.filter(\.isNumber)
            return (Int64(digits) ?? 0) * 1024
        }
        return 0
    }

    /// Compares the file with the generated pattern, block by block (`memcmp`, so a debug build stays fast).
    static func matchesPattern(path: String, length: Int64) -> Bool {
        let period = 251
        let blockSize = period * 4096  // ~1 MiB, a whole number of periods
        let expected = (0..<blockSize).map { TestHTTPServer.patternByte(at: Int64($0)) }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: blockSize)
        var offset: Int64 = 0
        while offset < length {
            let want = Int(min(Int64(blockSize), length - offset))
            var got = 0
            while got < want {
                let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + got, want - got) }
                if n <= 0 { return false }
                got += n
            }
            let same = buffer.withUnsafeBytes { a in
                expected.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, want) }
            }
            if same != 0 { return false }
            offset += Int64(want)
        }
        var extra: UInt8 = 0
        return read(descriptor, &extra, 1) == 0
    }

    @Test(.timeLimit(.minutes(5))) func oneGigabyteStreamedToDisk() async throws {
        let length: Int64 = 1 << 30
        let server = try await TestHTTPServer.start()
        server.route("/big.bin") { _ in .generated(length: length) }
        let transport = AsyncHTTPClientTransport()
        let directory = TemporaryDirectory.make(prefix: "jsbridge-large")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let downloader = Downloader(
            fetcher: Fetcher(transport: transport, authorize: { _, _ in }), directory: directory,
            progressInterval: .milliseconds(50))
        let baseline = Self.residentBytes()
        let peak = Locked(baseline)
        let events = Locked<[Int64]>([])
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await downloader.download(DownloadRequest(url: server.url("/big.bin"))) { progress in
            let resident = Self.residentBytes()
            peak.withLock { $0 = max($0, resident) }
            events.withLock { $0.append(progress.bytes) }
        }
        let elapsed = clock.now - start
        await transport.shutdown()
        try await server.stop()

        let growth = peak.withLock { $0 } - baseline
        print(
            "1 GiB download: \(elapsed), resident baseline \(baseline >> 20) MiB, peak growth \(growth >> 20) MiB, "
                + "\(events.withLock { $0.count }) progress events")
        #expect(result.length == length)
        let attributes = try FileManager.default.attributesOfItem(atPath: result.filePath)
        #expect((attributes[.size] as? NSNumber)?.int64Value == length)
        let path = result.filePath
        #expect(try await runBlocking { Self.matchesPattern(path: path, length: length) })
        // Nothing near the file's size was held in memory. The figure is the whole test process's, with the
        // suite's other tests running beside it (253 MiB seen once), so the bound is half the file.
        #expect(growth < 512 << 20)
        let seen = events.withLock { $0 }
        #expect(seen.last == length)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 })
    }
}
