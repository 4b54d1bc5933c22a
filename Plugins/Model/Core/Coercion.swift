import Foundation
import JSBridgeBase

/// The conversion table (docs/model-conversion.md): one function per scalar type, shared by the schema
/// engine and typed Swift models. Each returns `nil` after recording an issue in `ctx`; `key` (when given)
/// is appended to the path of the issue. Null handling is the caller's job.
public enum Coerce {
    /// The largest integer that converts losslessly (JavaScript's `Number.MAX_SAFE_INTEGER`).
    public static let maxSafeInteger: Double = 9_007_199_254_740_991

    public static func string(_ value: JSONValue, _ ctx: inout ConversionContext, key: String? = nil) -> String? {
        switch value {
        case .string(let s): return s
        case .number(let n) where !ctx.strict: return JSONValue.javaScriptString(for: n)
        default:
            ctx.fail(ModelIssue.Code.type, "expected a string, got \(value.typeDescription)", input: value, key: key)
            return nil
        }
    }

    public static func int(_ value: JSONValue, _ ctx: inout ConversionContext, key: String? = nil) -> Int? {
        switch value {
        case .number(let n):
            return integer(n, value, &ctx, key)
        case .string(let s) where !ctx.strict:
            guard let n = parseNumber(s) else {
                return numericStringFailure(s, value, "an integer", &ctx, key)
            }
            return integer(n, value, &ctx, key)
        case .bool(let b) where !ctx.strict:
            return b ? 1 : 0
        default:
            ctx.fail(ModelIssue.Code.type, "expected an integer, got \(value.typeDescription)", input: value, key: key)
            return nil
        }
    }

    static func integer(_ n: Double, _ value: JSONValue, _ ctx: inout ConversionContext, _ key: String?) -> Int? {
        if n.magnitude <= maxSafeInteger {
            let i = Int(n)
            if Double(i) == n { return i }
            ctx.fail(
                ModelIssue.Code.notInteger, "expected an integer, got \(JSONValue.javaScriptString(for: n))",
                input: value, key: key)
            return nil
        }
        if n.isFinite {
            ctx.fail(
                ModelIssue.Code.range,
                "integer \(JSONValue.javaScriptString(for: n)) is beyond ±(2^53 − 1) and cannot be held exactly (use a string field)",
                input: value, key: key)
        } else {
            ctx.fail(ModelIssue.Code.notFinite, "expected a finite number", input: value, key: key)
        }
        return nil
    }

    public static func double(_ value: JSONValue, _ ctx: inout ConversionContext, key: String? = nil) -> Double? {
        switch value {
        case .number(let n):
            if n.isFinite { return n }
            ctx.fail(ModelIssue.Code.notFinite, "expected a finite number", input: value, key: key)
            return nil
        case .string(let s) where !ctx.strict:
            if let n = parseNumber(s) { return n }
            return numericStringFailure(s, value, "a number", &ctx, key)
        case .bool(let b) where !ctx.strict:
            return b ? 1 : 0
        default:
            ctx.fail(ModelIssue.Code.type, "expected a number, got \(value.typeDescription)", input: value, key: key)
            return nil
        }
    }

    static func numericStringFailure<T>(
        _ s: String, _ value: JSONValue, _ what: String, _ ctx: inout ConversionContext, _ key: String?
    ) -> T? {
        let t = s.trimmingCharacters(in: .whitespaces).lowercased()
        if ["nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"].contains(t) {
            ctx.fail(ModelIssue.Code.notFinite, "expected a finite number, got \"\(s)\"", input: value, key: key)
        } else {
            ctx.fail(
                ModelIssue.Code.type, "expected \(what), got a string that is not a number", input: value, key: key)
        }
        return nil
    }

    /// Parses a decimal number string (JSON number syntax, optional surrounding spaces, optional `+`);
    /// returns `nil` for anything else, including hex, `NaN` and infinities.

    static func parseNumber(_ s: String) -> Double? {
        var utf8 = Substring(s).utf8
        while utf8.first == 0x20 { utf8 = utf8.dropFirst() }
        while utf8.last == 0x20 { utf8 = utf8.dropLast() }
        guard !utf8.isEmpty, utf8.count < 400 else { return nil }
        var digits = 0
        for (i, byte) in utf8.enumerated() {
            switch byte {
            case 0x30...0x39: digits += 1
            case 0x2E, 0x65, 0x45: continue
            case 0x2B, 0x2D: continue
            default: _ = i; return nil
            }
        }
        guard digits > 0, let d = Double(Substring(utf8)), d.isFinite else { return nil }
        return d
    }

    public static func bool(_ value: JSONValue, _ ctx: inout ConversionContext, key: String? = nil) -> Bool? {
        switch value {
        case .bool(let b): return b
        case .number(let n) where !ctx.strict:
            if n == 1 { return true }
            if n == 0 { return false }
        case .string(let s) where !ctx.strict:
            if let b = boolWord(s) { return b }
        default: break
        }
        ctx.fail(
            ModelIssue.Code.type,
            ctx.strict
                ? "expected a boolean, got \(value.typeDescription)"
                : "expected a boolean (true/false, 1/0, \"true\"/\"false\", \"yes\"/\"no\", \"1\"/\"0\"), got \(value.typeDescription)",
            input: value, key: key)
        return nil
    }

    static func boolWord(_ s: String) -> Bool? {
        guard s.utf8.count <= 7 else { return nil }
        switch s.lowercased().trimmingCharacters(in: .whitespaces) {
        case "true", "yes", "1", "y", "on": return true
        case "false", "no", "0", "n", "off": return false
        default: return nil
        }
    }

    /// Dates: ISO 8601 strings always; in lenient mode also YYModel's formats and Unix time (seconds, or
    /// milliseconds when |n| > 2·10^10) as numbers or numeric strings.
    public static func date(_ value: JSONValue, _ ctx: inout ConversionContext, key: String? = nil) -> Date? {
        switch value {
        case .string(let s):
            if let d = DateFormats.parse(s, lenient: !ctx.strict) { return d }
            if !ctx.strict, let n = parseNumber(s) { return unixDate(n, value, &ctx, key: key) }
            ctx.fail(
                ModelIssue.Code.date,
                ctx.strict ? "expected an ISO 8601 date" : "expected a date (ISO 8601, YYModel formats or Unix time)",
                input: value, key: key)
            return nil
        case .number(let n) where !ctx.strict:
            if n.isFinite { return unixDate(n, value, &ctx, key: key) }
            ctx.fail(ModelIssue.Code.notFinite, "expected a finite number", input: value, key: key)
            return nil
        default:
            ctx.fail(ModelIssue.Code.type, "expected a date, got \(value.typeDescription)", input: value, key: key)
            return nil
        }
    }

    /// The most seconds from 1970 a date may be, either way: JavaScript's `Date` range (±100,000,000 days).
    static let maxUnixSeconds = 8.64e12

    /// Unix time in seconds, or milliseconds past 2·10^10; nil (a `DATE_FORMAT` issue) outside JavaScript's
    /// date range.
    static func unixDate(_ n: Double, _ value: JSONValue, _ ctx: inout ConversionContext, key: String?) -> Date? {
        let seconds = n.magnitude > 2e10 ? n / 1000 : n
        if seconds.magnitude <= maxUnixSeconds { return Date(timeIntervalSince1970: seconds) }
        ctx.fail(
            ModelIssue.Code.date, "is outside the range of dates (±100,000,000 days from 1970)", input: value, key: key)
        return nil
    }

    /// A URL string (the schema engine keeps URLs as strings; typed models build a `URL` from the same check,
    /// see ``url(_:_:key:)``): not empty; no space, control character, `"`, `<` or `>`; and a colon before the
    /// first `/`, `?` or `#` ends a valid scheme (RFC 3986: a relative reference's first segment has no colon,
    /// so `2024-01-01T10:00` is no URL). The Model plugin's JS fast path (model.js) gives up on any string this
    /// could reject and leaves it to this check.
    static func urlString(_ value: JSONValue, _ ctx: inout ConversionContext, key: String? = nil) -> String? {
        guard case .string(let s) = value else {
            ctx.fail(
                ModelIssue.Code.type, "expected a URL string, got \(value.typeDescription)", input: value, key: key)
            return nil
        }
        if isURLText(s) { return s }
        ctx.fail(ModelIssue.Code.url, "expected a URL", input: value, key: key)
        return nil
    }

    private static func isURLText(_ s: String) -> Bool {
        let bytes = s.utf8
        guard !bytes.isEmpty, !bytes.contains(where: { $0 <= 0x20 || $0 == 0x22 || $0 == 0x3C || $0 == 0x3E }) else {
            return false
        }
        let firstSegment = bytes.prefix { $0 != 0x2F && $0 != 0x3F && $0 != 0x23 }
        guard let colon = firstSegment.firstIndex(of: 0x3A) else { return true }
        let scheme = bytes[..<colon]
        func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
        guard let head = scheme.first, isLetter(head) else { return false }
        return scheme.allSatisfy {
            isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E
        }
    }

    /// A `URL` from a string that passes ``urlString(_:_:key:)`` (a string Foundation's `URL` still cannot hold,
    /// such as an unclosed IPv6 host, is a `URL_FORMAT` issue too).
    public static func url(_ value: JSONValue, _ ctx: inout ConversionContext, key: String? = nil) -> URL? {
        guard let s = urlString(value, &ctx, key: key) else { return nil }
        if let url = URL(string: s) { return url }
        ctx.fail(ModelIssue.Code.url, "expected a URL", input: value, key: key)
        return nil
    }
}

/// Fast, allocation-free parsing and formatting of the accepted date formats (all in UTC unless a zone is given).
public enum DateFormats {
    /// Parses ISO 8601 (`2015-09-16`, `2015-09-16T12:20:09Z`, `…T12:20:09.123+08:00`, `+0800`, space
    /// instead of `T`, no zone = UTC) and, when `lenient`, the Weibo/Twitter form
    /// `Wed Sep 16 12:20:09 +0800 2015` (optionally with `.SSS`) and `yyyyMMddHHmmss`.
    public static func parse(_ string: String, lenient: Bool = true) -> Date? {
        var s = string
        return s.withUTF8 { buffer -> Date? in
            if let d = parseISO(buffer) { return d }
            if lenient { return parseWeibo(buffer) ?? parseCompact(buffer) }
            return nil
        }
    }

    /// ISO 8601 in UTC with milliseconds when the date has a fraction: `2015-09-16T04:20:09.500Z`.
    public static func iso8601(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        var ms = (t * 1000).rounded()
        // Conversion keeps dates within JavaScript's range; a Date made elsewhere is clamped to it.
        if !ms.isFinite { ms = 0 }
        ms = min(max(ms, -Coerce.maxUnixSeconds * 1000), Coerce.maxUnixSeconds * 1000)
        let totalMs = Int64(ms)
        var days = totalMs >= 0 ? totalMs / 86_400_000 : (totalMs - 86_399_999) / 86_400_000
        let msOfDay = totalMs - days * 86_400_000
        let (y, m, d) = CivilCalendar.date(days: days)
        days = 0
        let h = msOfDay / 3_600_000, mi = (msOfDay / 60_000) % 60, sec = (msOfDay / 1000) % 60, frac = msOfDay % 1000
        var out = [UInt8]()
        out.reserveCapacity(24)
        func two(_ v: Int64) {
            out.append(UInt8(0x30 + v / 10))
            out.append(UInt8(0x30 + v % 10))
        }
        if y < 0 || y > 9999 {
            out.append(contentsOf: Array(String(y).utf8))
        } else {
            two(y / 100)
            two(y % 100)
        }
        out.append(0x2D); two(m); out.append(0x2D); two(d); out.append(0x54)
        two(h); out.append(0x3A); two(mi); out.append(0x3A); two(sec)
        if frac != 0 {
            out.append(0x2E)
            out.append(UInt8(0x30 + frac / 100))
            two(frac % 100)
        }
        out.append(0x5A)
        return String(decoding: out, as: UTF8.self)
    }

    private static func digits(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ count: Int) -> Int64? {
        guard at + count <= b.count else { return nil }
        var v: Int64 = 0
        for i in at..<(at + count) {
            let c = b[i]
            guard c >= 0x30 && c <= 0x39 else { return nil }
            v = v * 10 + Int64(c - 0x30)
        }
        return v
    }

    private static func make(
        _ y: Int64, _ mo: Int64, _ d: Int64, _ h: Int64, _ mi: Int64, _ s: Int64, _ frac: Double, _ offset: Int64
    )
        -> Date?
    {
        guard (1...12).contains(mo), d >= 1, d <= CivilCalendar.daysInMonth(year: y, month: mo), h <= 24, mi <= 59,
            s <= 60
        else { return nil }
        if h == 24 && (mi != 0 || s != 0 || frac != 0) { return nil }
        let secs = CivilCalendar.days(year: y, month: mo, day: d) * 86400 + h * 3600 + mi * 60 + s - offset
        return Date(timeIntervalSince1970: Double(secs) + frac)
    }

    /// Fraction `.ddd…` at `i`; returns (fraction, next index).
    private static func fraction(_ b: UnsafeBufferPointer<UInt8>, _ i0: Int) -> (Double, Int)? {
        var i = i0
        guard i < b.count, b[i] == 0x2E || b[i] == 0x2C else { return (0, i) }
        i += 1
        var value = 0.0, scale = 0.1
        let start = i
        while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 {
            value += Double(b[i] - 0x30) * scale
            scale /= 10
            i += 1
        }
        return i == start ? nil : (value, i)
    }

    /// Zone at `i`: `Z`, `±hh:mm`, `±hhmm`, `±hh`, or nothing (UTC). Must end the buffer.
    private static func zone(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int64? {
        if i == b.count { return 0 }
        let c = b[i]
        if c == 0x5A || c == 0x7A { return i + 1 == b.count ? 0 : nil }
        guard c == 0x2B || c == 0x2D, let hh = digits(b, i + 1, 2) else { return nil }
        var mm: Int64 = 0
        var end = i + 3
        if end < b.count && b[end] == 0x3A {
            guard let m = digits(b, end + 1, 2) else { return nil }
            mm = m
            end += 3
        } else if let m = digits(b, end, 2) {
            mm = m
            end += 2
        }
        guard end == b.count, hh <= 23, mm <= 59 else { return nil }
        let offset = (hh * 3600 + mm * 60)
        return c == 0x2D ? -offset : offset
    }

    private static func parseISO(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
        guard b.count >= 10, let y = digits(b, 0, 4), b[4] == 0x2D, let mo = digits(b, 5, 2), b[7] == 0x2D,
            let d = digits(b, 8, 2)
        else { return nil }
        if b.count == 10 { return make(y, mo, d, 0, 0, 0, 0, 0) }
        guard b.count >= 16, b[10] == 0x54 || b[10] == 0x20 || b[10] == 0x74, let h = digits(b, 11, 2), b[13] == 0x3A,
            let mi = digits(b, 14, 2)
        else { return nil }
        var i = 16
        var s: Int64 = 0
        if i < b.count && b[i] == 0x3A {
            guard let sec = digits(b, 17, 2) else { return nil }
            s = sec
            i = 19
        }
        guard let (frac, next) = fraction(b, i), let offset = zone(b, next) else { return nil }
        return make(y, mo, d, h, mi, s, frac, offset)
    }

    private static let months: [[UInt8]] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    .map { Array($0.utf8) }

    /// `Wed Sep 16 12:20:09 +0800 2015` or `Wed Sep 16 12:20:09.000 +0800 2015`.
    private static func parseWeibo(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
        guard b.count >= 30, b[3] == 0x20, b[7] == 0x20 else { return nil }
        let mon = [b[4] | 0x20, b[5] | 0x20, b[6] | 0x20]
        guard let mIndex = months.firstIndex(of: mon), let d = digits(b, 8, 2), b[10] == 0x20, let h = digits(b, 11, 2),
            b[13] == 0x3A, let mi = digits(b, 14, 2), b[16] == 0x3A, let s = digits(b, 17, 2),
            let (frac, i) = fraction(b, 19), i + 11 == b.count, b[i] == 0x20, b[i + 6] == 0x20,
            let y = digits(b, i + 7, 4)
        else { return nil }
        let sign = b[i + 1]
        guard sign == 0x2B || sign == 0x2D, let hh = digits(b, i + 2, 2), let mm = digits(b, i + 4, 2) else {
            return nil
        }
        let offset = (hh * 3600 + mm * 60) * (sign == 0x2D ? -1 : 1)
        return make(y, Int64(mIndex + 1), d, h, mi, s, frac, offset)
    }

    /// `yyyyMMddHHmmss` (UTC).
    private static func parseCompact(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
        guard b.count == 14, let y = digits(b, 0, 4), let mo = digits(b, 4, 2), let d = digits(b, 6, 2),
            let h = digits(b, 8, 2), let mi = digits(b, 10, 2), let s = digits(b, 12, 2)
        else { return nil }
        return make(y, mo, d, h, mi, s, 0, 0)
    }
}
