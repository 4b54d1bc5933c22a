import Foundation

/// A coding key for object members and array positions used by the JSON value coders.
struct JSONCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }

    init(index: Int) { self.init(intValue: index) }

    static let `super` = JSONCodingKey(stringValue: "super")
}

/// A coding path as a parent-linked list, so that descending costs nothing until a path is needed.
indirect enum CodingPathNode {
    case root
    case key(any CodingKey, CodingPathNode)
    case index(Int, CodingPathNode)

    func appending(_ key: some CodingKey) -> CodingPathNode { .key(key, self) }
    func appending(index: Int) -> CodingPathNode { .index(index, self) }

    /// The path from the root as `CodingKey`s.
    var codingPath: [any CodingKey] {
        var reversed: [any CodingKey] = []
        var node = self
        while true {
            switch node {
            case .root:
                return reversed.reversed()
            case .key(let key, let parent):
                reversed.append(key)
                node = parent
            case .index(let index, let parent):
                reversed.append(JSONCodingKey(index: index))
                node = parent
            }
        }
    }
}

// MARK: - Paths and messages

extension ArgumentIssue {
    /// Formats a coding path in JavaScript notation: `rooms[2].price`, `["first name"]`; the root is `""`.
    public static func javaScriptPath(_ codingPath: [any CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue == "Index \(index)" {
                path += "[\(index)]"
            } else if isIdentifier(key.stringValue) {
                if !path.isEmpty { path += "." }
                path += key.stringValue
            } else {
                path += "[" + JSONValue.string(key.stringValue).serialized() + "]"
            }
        }
        return path
    }

    /// Whether `name` can follow a `.` in JavaScript (ASCII identifiers only).
    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first else { return false }
        func isStart(_ c: UInt8) -> Bool {
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x24
        }
        guard isStart(first) else { return false }
        return name.utf8.allSatisfy { isStart($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}

extension JSONValue {
    /// A short description of the value's kind for error messages: `a string ("abc")`, `null`, `an array`.
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return "a boolean (\(flag))"
        case .number(let number): return "a number (\(JSONValue.javaScriptString(for: number)))"
        case .string(let string):
            let limit = 40
            if string.count > limit {
                return "a string (\(JSONValue.string(String(string.prefix(limit))).serialized().dropLast())…\")"
            }
            return "a string (\(JSONValue.string(string).serialized()))"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

// MARK: - Dates (JavaScript conventions)

enum JSONDateCoding {
    /// Milliseconds in JavaScript's valid `Date` range: ±8.64e15.
    static let maxMilliseconds = 8.64e15

    /// Formats like JavaScript's `Date.prototype.toJSON`: `2024-01-02T03:04:05.678Z` (UTC, milliseconds).
    /// Returns `nil` for dates outside JavaScript's range.
    static func format(_ date: Date) -> String? {
        let ms = (date.timeIntervalSince1970 * 1000).rounded()
        guard ms.isFinite, ms.magnitude <= maxMilliseconds else { return nil }
        let totalMs = Int64(ms)
        var days = totalMs / 86_400_000
        var msOfDay = totalMs % 86_400_000
        if msOfDay < 0 {
            msOfDay += 86_400_000
            days -= 1
        }
        let (year, month, day) = CivilCalendar.date(days: days)
        let hour = msOfDay / 3_600_000
        let minute = msOfDay / 60_000 % 60
        let second = msOfDay / 1000 % 60
        let millisecond = msOfDay % 1000

        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        let yearText: String
        if year >= 0 && year <= 9999 {
            yearText = pad(year, 4)
        } else {
            yearText = (year < 0 ? "-" : "+") + pad(Int64(year.magnitude), 6)
        }
        return
            "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(millisecond, 3))Z"
    }

    /// Parses an ISO-8601 / RFC 3339 date: `YYYY-MM-DD` (UTC midnight) or
    /// `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z` or `±HH:MM` (the zone is required).
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var i = 0
        func number(_ width: Int) -> Int64? {
            guard i + width <= bytes.count else { return nil }
            var value: Int64 = 0
            for j in i..<(i + width) {
                let d = bytes[j] &- 0x30
                guard d < 10 else { return nil }
                value = value * 10 + Int64(d)
            }
            i += width
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }
        var year: Int64
        if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D {  // ±YYYYYY
            let negative = bytes[i] == 0x2D
            i += 1
            guard let y = number(6) else { return nil }
            year = negative ? -y : y
        } else {
            guard let y = number(4) else { return nil }
            year = y
        }
        guard expect(0x2D), let month = number(2), expect(0x2D), let day = number(2) else { return nil }
        guard (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month) else {
            return nil
        }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        if i == bytes.count { return Date(timeIntervalSince1970: Double(days) * 86_400) }

        guard i < bytes.count, bytes[i] == 0x54 || bytes[i] == 0x74 else { return nil }  // T / t
        i += 1
        guard let hour = number(2), expect(0x3A), let minute = number(2), hour < 24, minute < 60 else { return nil }
        var second: Int64 = 0
        var fraction = 0.0
        if expect(0x3A) {
            guard let s = number(2), s < 60 else { return nil }
            second = s
            if expect(0x2E) || expect(0x2C) {
                var scale = 0.1
                let start = i
                while i < bytes.count, bytes[i] &- 0x30 < 10 {
                    fraction += Double(bytes[i] - 0x30) * scale
                    scale /= 10
                    i += 1
                }
                guard i > start else { return nil }
            }
        }
        var offsetSeconds: Int64 = 0
        guard i < bytes.count else { return nil }
        switch bytes[i] {
        case 0x5A, 0x7A:  // Z / z
            i += 1
        case 0x2B, 0x2D:
            let sign: Int64 = bytes[i] == 0x2D ? -1 : 1
            i += 1
            guard let oh = number(2), oh < 24 else { return nil }
            _ = expect(0x3A)
            guard let om = number(2), om < 60 else { return nil }
            offsetSeconds = sign * (oh * 3600 + om * 60)
        default:
            return nil
        }
        guard i == bytes.count else { return nil }
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        // Keep whole milliseconds exact when the fraction has at most three digits.
        let ms = (fraction * 1000 * 1_000_000).rounded() / 1_000_000
        return Date(timeIntervalSince1970: (Double(seconds) * 1000 + ms) / 1000)
    }
}
