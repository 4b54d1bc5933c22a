import Foundation
import JSBridgeBase

/// One parsed NMEA 0183 sentence the replay understands (GGA, RMC).
public enum NMEASentence: Sendable, Hashable {
    /// `$--GGA`: time of day, position (nil without a fix), HDOP, altitude above mean sea level, geoid separation.
    case gga(time: TimeOfDay, coordinate: Coordinate?, hdop: Double?, altitudeMSL: Double?, geoidSeparation: Double?)
    /// `$--RMC`: time, validity, position, speed (knots), course (degrees), date.
    case rmc(
        time: TimeOfDay, valid: Bool, coordinate: Coordinate?, speedKnots: Double?, course: Double?,
        date: DateComponents?)
    /// A well-formed sentence of another type (ignored, not counted as bad).
    case other(String)

    /// Seconds since midnight UTC.
    public struct TimeOfDay: Sendable, Hashable {
        public var seconds: Double
    }
}

/// Why a line is not a usable sentence.
public enum NMEAParseError: Error, Sendable, Hashable {
    case notASentence
    case badChecksum(expected: String, computed: String)
    case missingChecksum
    case malformed(String)
}

/// NMEA 0183 parsing (checksums verified).
public enum NMEA {
    /// The longest line of an NMEA file read (a sentence has at most 82 characters); a longer one is skipped
    /// and counted, without being read into memory.
    public static let maxLineBytes = 4_096

    /// Parses one line (`$GPGGA,…*hh`); throws for anything unusable.
    public static func parse(_ rawLine: some StringProtocol) throws(NMEAParseError) -> NMEASentence {
        let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
        guard line.first == "$" || line.first == "!" else { throw .notASentence }
        guard let star = line.lastIndex(of: "*") else { throw .missingChecksum }
        let body = line[line.index(after: line.startIndex)..<star]
        let given = line[line.index(after: star)...].uppercased()
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        let computed = String(format: "%02X", sum)
        guard given.count == 2, given.allSatisfy(\.isHexDigit) else {
            throw .malformed("bad checksum field '\(given)'")
        }
        guard given == computed else { throw .badChecksum(expected: given, computed: computed) }
        let fields = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard let tag = fields.first, tag.count >= 5, tag.allSatisfy({ $0.isLetter || $0.isNumber }) else {
            throw .malformed("bad sentence tag")
        }
        let type = String(tag.suffix(3))
        func field(_ i: Int) -> String { i < fields.count ? fields[i] : "" }
        func number(_ i: Int) throws(NMEAParseError) -> Double? {
            let text = field(i)
            if text.isEmpty { return nil }
            guard let value = Double(text), value.isFinite else {
                throw .malformed("field \(i) of \(type) is not a number: '\(text)'")
            }
            return value
        }
        switch type {
        case "GGA":
            guard fields.count >= 10 else { throw .malformed("GGA has \(fields.count) fields") }
            let time = try parseTime(field(1))
            let quality = Int(field(6)) ?? 0
            let coordinate = quality == 0 ? nil : try parseCoordinate(field(2), field(3), field(4), field(5))
            return .gga(
                time: time, coordinate: coordinate, hdop: try number(8), altitudeMSL: try number(9),
                geoidSeparation: try number(11))
        case "RMC":
            guard fields.count >= 10 else { throw .malformed("RMC has \(fields.count) fields") }
            let time = try parseTime(field(1))
            let valid = field(2) == "A"
            let coordinate = valid ? try parseCoordinate(field(3), field(4), field(5), field(6)) : nil
            var date: DateComponents?
            let d = field(9)
            if d.count == 6, let dd = Int(d.prefix(2)), let mm = Int(d.dropFirst(2).prefix(2)),
                let yy = Int(d.suffix(2)),
                (1...31).contains(dd), (1...12).contains(mm)
            {
                date = DateComponents(year: yy < 80 ? 2000 + yy : 1900 + yy, month: mm, day: dd)
            } else if !d.isEmpty {
                throw .malformed("bad RMC date '\(d)'")
            }
            return .rmc(
                time: time, valid: valid, coordinate: coordinate, speedKnots: try number(7), course: try number(8),
                date: date)
        default:
            return .other(type)
        }
    }

    static func parseTime(_ text: String) throws(NMEAParseError) -> NMEASentence.TimeOfDay {
        guard text.count >= 6, let hh = Int(text.prefix(2)), let mm = Int(text.dropFirst(2).prefix(2)),
            let ss = Double(text.dropFirst(4)), hh < 24, mm < 60, ss < 61
        else { throw .malformed("bad time '\(text)'") }
        return .init(seconds: Double(hh * 3600 + mm * 60) + ss)
    }

    static func parseCoordinate(_ lat: String, _ ns: String, _ lon: String, _ ew: String) throws(NMEAParseError)
        -> Coordinate
    {
        func degrees(_ text: String, _ degreeDigits: Int) -> Double? {
            guard text.count > degreeDigits + 1, let d = Double(text.prefix(degreeDigits)),
                let m = Double(text.dropFirst(degreeDigits)),
                m < 60
            else { return nil }
            return d + m / 60
        }
        guard var latitude = degrees(lat, 2), var longitude = degrees(lon, 3), ["N", "S"].contains(ns),
            ["E", "W"].contains(ew)
        else { throw .malformed("bad position '\(lat),\(ns),\(lon),\(ew)'") }
        if ns == "S" { latitude = -latitude }
        if ew == "W" { longitude = -longitude }
        guard abs(latitude) <= 90, abs(longitude) <= 180 else { throw .malformed("position out of range") }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// The checksum-terminated form of a sentence body (`GPGGA,…` → `$GPGGA,…*hh`), for tests and feeders.
    public static func sentence(_ body: String) -> String {
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        return "$" + body + "*" + String(format: "%02X", sum)
    }
}

/// Groups GGA/RMC sentences of one time of day into fixes.
public struct NMEAFixAssembler: Sendable {
    private var time: NMEASentence.TimeOfDay?
    private var coordinate: Coordinate?
    private var hdop: Double?, altitudeMSL: Double?, geoidSeparation: Double?
    private var speedKnots: Double?, course: Double?
    private var date: DateComponents?
    private var lastDate: DateComponents?

    public init() {}

    /// Adds a sentence; returns the previous cycle's fix when this sentence starts a new one.
    public mutating func add(_ sentence: NMEASentence, fallbackDate: Date) -> (fix: Fix, seconds: Double)? {
        let sentenceTime: NMEASentence.TimeOfDay
        switch sentence {
        case .gga(let t, _, _, _, _), .rmc(let t, _, _, _, _, _): sentenceTime = t
        case .other: return nil
        }
        var finished: (Fix, Double)?
        if let time, time != sentenceTime { finished = flush(fallbackDate: fallbackDate) }
        time = sentenceTime
        switch sentence {
        case .gga(_, let c, let h, let alt, let sep):
            if let c { coordinate = c }
            hdop = h
            altitudeMSL = c == nil ? nil : alt
            geoidSeparation = sep
        case .rmc(_, let valid, let c, let speed, let track, let d):
            if valid, let c { coordinate = c }
            speedKnots = speed
            course = track
            if let d {
                date = d
                lastDate = d
            }
        case .other: break
        }
        return finished
    }

    /// Ends the current cycle (at end of input).
    public mutating func flush(fallbackDate: Date) -> (fix: Fix, seconds: Double)? {
        defer {
            time = nil
            coordinate = nil
            hdop = nil
            altitudeMSL = nil
            geoidSeparation = nil
            speedKnots = nil
            course = nil
            date = nil
        }
        guard let time, let coordinate else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = (date ?? lastDate).flatMap { calendar.date(from: $0) } ?? calendar.startOfDay(for: fallbackDate)
        let timestamp = day.addingTimeInterval(time.seconds)
        let altitude = altitudeMSL.map { $0 + (geoidSeparation ?? 0) }
        let speed = speedKnots.map { $0 * 1852 / 3600 }
        let fix = Fix(
            coordinate: coordinate, altitude: altitude, accuracy: (hdop ?? 1) * 5, altitudeAccuracy: nil,
            heading: course, speed: speed, timestamp: timestamp)
        return (fix, time.seconds)
    }
}

/// Counters of an NMEA replay, shared by every stream of the source.
public final class NMEAStatistics: Sendable {
    private let state = Locked((sentences: 0, skipped: 0, fixes: 0, lastProblem: String?.none))
    public init() {}
    public var sentences: Int { state.withLock { $0.sentences } }
    /// Lines skipped: bad checksum, missing checksum, malformed fields, not a sentence.
    public var skipped: Int { state.withLock { $0.skipped } }
    public var fixes: Int { state.withLock { $0.fixes } }
    public var lastProblem: String? { state.withLock { $0.lastProblem } }
    func sentence() { state.withLock { $0.sentences += 1 } }
    func fix() { state.withLock { $0.fixes += 1 } }
    func skip(_ problem: String) {
        state.withLock {
            $0.skipped += 1
            $0.lastProblem = problem
        }
    }
}

/// Replays GGA/RMC sentences from a file at their recorded pace × `speed` (0: as fast as possible).
///
/// Bad lines are skipped and counted in ``statistics``; each request replays the file from the start.
public struct NMEAReplaySource: LocationSource {
    public let path: String
    /// 1 = recorded pace, 10 = ten times faster, 0 = no waiting.
    public let speed: Double
    public let statistics: NMEAStatistics

    public init(path: String, speed: Double = 1, statistics: NMEAStatistics = NMEAStatistics()) {
        self.path = path
        self.speed = speed
        self.statistics = statistics
    }

    public var description: String { "nmea:\(path)" }

    public func fixes(clock: any BridgeClock) -> AsyncThrowingStream<Fix, any Error> {
        let path = path, speed = speed, statistics = statistics
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    guard let file = FileHandle(forReadingAtPath: path) else {
                        throw LocationError.unavailable(
                            "The NMEA file '\(path)' cannot be read (missing or not readable).")
                    }
                    defer { try? file.close() }
                    var assembler = NMEAFixAssembler()
                    var previous: Double?
                    func deliver(_ fix: Fix, _ seconds: Double) async throws {
                        if let previous, speed > 0 {
                            var gap = seconds - previous
                            if gap < 0 { gap += 86_400 }
                            if gap > 0 {
                                try await clock.sleep(for: .milliseconds(Int((gap / speed * 1000).rounded())))
                            }
                        }
                        previous = seconds
                        var fix = fix
                        fix.receivedAt = clock.now()
                        statistics.fix()
                        continuation.yield(fix)
                    }
                    var splitter = LineSplitter(maxLength: NMEA.maxLineBytes)
                    var lines: [String] = []
                    var ended = false
                    while !ended {
                        try Task.checkCancellation()
                        let chunk = try file.read(upToCount: 65_536) ?? Data()
                        lines.removeAll(keepingCapacity: true)
                        let keep: ([UInt8]) -> Void = { lines.append(String(decoding: $0, as: UTF8.self)) }
                        let tooLong: (Int) -> Void = { _ in
                            statistics.skip("a line longer than \(NMEA.maxLineBytes) bytes")
                        }
                        splitter.feed(chunk, line: keep, tooLong: tooLong)
                        if chunk.isEmpty {
                            splitter.finish(line: keep, tooLong: tooLong)
                            ended = true
                        }
                        for line in lines where !line.allSatisfy(\.isWhitespace) {
                            try Task.checkCancellation()
                            let sentence: NMEASentence
                            do {
                                sentence = try NMEA.parse(line)
                            } catch {
                                statistics.skip("\(error): \(line.prefix(80))")
                                continue
                            }
                            statistics.sentence()
                            if let (fix, seconds) = assembler.add(sentence, fallbackDate: clock.now()) {
                                try await deliver(fix, seconds)
                            }
                        }
                    }
                    if let (fix, seconds) = assembler.flush(fallbackDate: clock.now()) {
                        try await deliver(fix, seconds)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
