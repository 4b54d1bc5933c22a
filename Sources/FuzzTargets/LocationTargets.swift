import Foundation
import JSBridgeBase
import LocationCore

extension FuzzTargets {
    /// NMEA input: the first two bytes choose a line cap (1…256 bytes) and a chunking seed; the rest is an
    /// NMEA stream.
    ///
    /// - ``LineSplitter`` gives the same lines and the same number of too-long lines whatever the chunking
    ///   (random chunk sizes, one byte at a time, all at once), and agrees with a plain reference split.
    /// - No line it delivers is longer than its cap.
    /// - Every line parses or fails with an ``NMEAParseError``; sentences feed ``NMEAFixAssembler`` without a
    ///   trap.
    public static func nmea(_ bytes: [UInt8]) {
        guard bytes.count >= 2 else { return }
        let cap = 1 + Int(bytes[0])
        var random = SplitMix64(seed: UInt64(bytes[1]))
        let stream = Array(bytes[2...])

        let expected = referenceLines(stream, cap: cap)
        let whole = splitLines([stream], cap: cap)
        precondition(whole.lines == expected.lines, "LineSplitter's lines differ from the reference split")
        precondition(whole.tooLong == expected.tooLong, "LineSplitter's too-long count differs from the reference")
        var chunks: [[UInt8]] = []
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + 1 + random.next(40))
            chunks.append(Array(stream[start..<end]))
            if random.next(8) == 0 { chunks.append([]) }
            start = end
        }
        let chunked = splitLines(chunks, cap: cap)
        precondition(chunked.lines == whole.lines, "LineSplitter's lines depend on the chunking")
        precondition(chunked.tooLong == whole.tooLong, "LineSplitter's too-long count depends on the chunking")
        let bytewise = splitLines(stream.map { [$0] }, cap: cap)
        precondition(bytewise.lines == whole.lines, "LineSplitter's lines differ when fed byte by byte")
        for line in whole.lines { precondition(line.count <= cap, "LineSplitter kept a line longer than its cap") }

        var assembler = NMEAFixAssembler()
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        for line in splitLines([stream], cap: NMEA.maxLineBytes).lines {
            guard let sentence = try? NMEA.parse(String(decoding: line, as: UTF8.self)) else { continue }
            if let fix = assembler.add(sentence, fallbackDate: date) { checkFinite(fix.fix) }
        }
        if let fix = assembler.flush(fallbackDate: date) { checkFinite(fix.fix) }
    }

    /// gpsd input: one report a line (JSON, usually `{"class":"TPV",…}`), merged into fixes as the gpsd source
    /// merges them. No input traps; lines go through the same splitter and cap as a gpsd connection.
    public static func gpsd(_ bytes: [UInt8]) {
        var merger = TPVMerger()
        var splitter = LineSplitter(maxLength: GPSDSource.maxLineBytes)
        var now = Date(timeIntervalSince1970: 1_700_000_000)
        func take(_ line: [UInt8]) {
            now += 0.25
            _ = merger.add(line: line, receivedAt: now)
        }
        splitter.feed(bytes, line: take, tooLong: { _ in })
        splitter.finish(line: take)
        _ = merger.flush()
    }

    /// The lines and too-long count `LineSplitter` gives for `chunks`.
    static func splitLines(_ chunks: [[UInt8]], cap: Int) -> (lines: [[UInt8]], tooLong: Int) {
        var splitter = LineSplitter(maxLength: cap)
        var lines: [[UInt8]] = []
        var tooLong = 0
        for chunk in chunks { splitter.feed(chunk, line: { lines.append($0) }, tooLong: { _ in tooLong += 1 }) }
        splitter.finish(line: { lines.append($0) }, tooLong: { _ in tooLong += 1 })
        return (lines, tooLong)
    }

    /// The splitter's contract, written plainly: lines end at LF, a CR before the LF is dropped, a line longer
    /// than `cap` is dropped and counted, a last line without LF counts when it is not empty.
    static func referenceLines(_ stream: [UInt8], cap: Int) -> (lines: [[UInt8]], tooLong: Int) {
        var lines: [[UInt8]] = []
        var tooLong = 0
        let pieces = stream.split(separator: 10, omittingEmptySubsequences: false)
        for (index, piece) in pieces.enumerated() {
            let isLast = index == pieces.count - 1
            if isLast && piece.isEmpty { break }
            var line = Array(piece)
            if line.last == 13 { line.removeLast() }
            if line.count > cap {
                tooLong += 1
            } else {
                lines.append(line)
            }
        }
        return (lines, tooLong)
    }

    /// A fix from NMEA has a finite position.
    static func checkFinite(_ fix: Fix) {
        precondition(
            fix.coordinate.latitude.isFinite && fix.coordinate.longitude.isFinite,
            "an NMEA fix with a non-finite position")
    }
}
