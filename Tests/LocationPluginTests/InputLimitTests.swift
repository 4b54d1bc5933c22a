import Foundation
import JSBridgeCore
import JSBridgeTesting
import LocationPlugin
import Synchronization
import Testing

@testable import LocationCore

#if canImport(Glibc)
    import Glibc
#endif

/// What a source may send that is not a position: lines without end, values that cannot be.
@Suite(.blocking) struct InputLimitTests {
    @Test func linesAreSplitOnceAndCapped() {
        var splitter = LineSplitter(maxLength: 4)
        var lines: [String] = []
        var tooLong: [Int] = []
        let keep: ([UInt8]) -> Void = { lines.append(String(decoding: $0, as: UTF8.self)) }
        for chunk in ["ab\r\ncd", "e\n12345", "6789", "\nxy\n\nlast"] {
            splitter.feed(Array(chunk.utf8), line: keep, tooLong: { tooLong.append($0) })
        }
        splitter.finish(line: keep)
        #expect(lines == ["ab", "cde", "xy", "", "last"])
        #expect(tooLong == [9])
    }

    @Test func fixesThatCannotBeAreNotPositions() {
        let good = Fix(
            coordinate: Coordinate(latitude: 48.85, longitude: 2.35), altitude: 35, accuracy: 5, altitudeAccuracy: 3,
            heading: 90, speed: 1, timestamp: Date(timeIntervalSince1970: 0))
        #expect(good.checked() == good)
        for latitude in [91, -90.5, 1e308, .nan] {
            var fix = good
            fix.coordinate = Coordinate(latitude: latitude, longitude: 2.35)
            #expect(fix.checked() == nil, "latitude \(latitude)")
        }
        var far = good
        far.coordinate = Coordinate(latitude: 0, longitude: 180.5)
        #expect(far.checked() == nil)
        for accuracy in [-5, .infinity] {
            var fix = good
            fix.accuracy = accuracy
            #expect(fix.checked() == nil, "accuracy \(accuracy)")
        }
        var odd = good
        (odd.heading, odd.speed, odd.altitudeAccuracy, odd.altitude) = (-720, -1, -2, .infinity)
        let checked = odd.checked()
        #expect(checked?.heading == nil && checked?.speed == nil)
        #expect(checked?.altitudeAccuracy == nil && checked?.altitude == nil)
        var north = good
        north.heading = 360
        #expect(north.checked()?.heading == 0)
    }

    /// A gpsd that sends 32 MiB without a newline, then impossible fixes, then a real one: the real one
    /// arrives, and nothing else does. (A stall would end in the request's timeout, a guard far above the
    /// second this takes.)
    @Test func aHostileGPSDCannotStallOrLie() async throws {
        let server = try HostileGPSD(
            lines: [
                String(repeating: "x", count: 32 << 20),
                #"{"class":"TPV","mode":2,"time":"2026-11-24T10:00:00.000Z","lat":91,"lon":2,"eph":5}"#,
                #"{"class":"TPV","mode":2,"time":"2026-11-24T10:00:01.000Z","lat":1e308,"lon":2,"eph":5}"#,
                #"{"class":"TPV","mode":2,"time":"2026-11-24T10:00:02.000Z","lat":48,"lon":2,"eph":-5}"#,
                #"{"class":"TPV","mode":2,"time":"2026-11-24T10:00:03.000Z","lat":48,"lon":2,"eph":5,"track":-720}"#,
            ])
        let service = LocationService(source: GPSDSource(port: server.port), clock: SystemClock())
        let fix = try await service.currentPosition(timeout: .seconds(600))
        #expect(fix.coordinate == Coordinate(latitude: 48, longitude: 2))
        #expect(fix.heading == nil)
        server.stop()
    }

    @Test func anNMEAFileWithAHugeLineIsReadInBoundedMemory() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("long-\(UUID().uuidString).nmea")
        defer { try? FileManager.default.removeItem(at: file) }
        var text = String(repeating: "$", count: 16 << 20) + "\n"
        text += NMEA.sentence("GPGGA,120000.00,4851.2046,N,00221.0280,E,1,08,1.0,35.0,M,45.0,M,,") + "\n"
        try text.write(to: file, atomically: true, encoding: .utf8)
        let source = NMEAReplaySource(path: file.path, speed: 0)
        var fixes: [Fix] = []
        for try await fix in source.fixes(clock: SystemClock()) { fixes.append(fix) }
        #expect(fixes.count == 1)
        #expect(source.statistics.skipped == 1)
        #expect(source.statistics.lastProblem?.contains("longer than \(NMEA.maxLineBytes) bytes") == true)
    }
}

/// A TCP server speaking as gpsd would, but sending `lines` (each followed by a newline) once a client
/// connects, then holding the connection open.
final class HostileGPSD: Sendable {
    let port: Int
    private let listener: Int32
    private let stopped = Atomic<Bool>(false)

    init(lines: [String]) throws {
        let (fd, port) = try listenOnLoopback(backlog: 4)
        self.port = port
        listener = fd
        let payload = Array((lines.joined(separator: "\n") + "\n").utf8)
        Thread.detachNewThread { [self] in
            let client = accept(fd, nil, nil)
            guard client >= 0 else { return }
            var sent = 0
            while sent < payload.count, !stopped.load(ordering: .relaxed) {
                let n = payload[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                sent += n
            }
            while !stopped.load(ordering: .relaxed) { usleep(20_000) }
            close(client)
        }
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
