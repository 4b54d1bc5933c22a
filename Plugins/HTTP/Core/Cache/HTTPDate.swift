import Foundation
import JSBridgeBase

/// HTTP dates (RFC 9110 §5.6.7): parses IMF-fixdate and the two obsolete forms, formats IMF-fixdate.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let dayNames = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// Parses `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT` or `Sun Nov  6 08:49:37 1994`;
    /// nil when `text` is none of them.
    public static func parse(_ text: String) -> Date? {
        let tokens = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
        var day: Int?
        var month: Int?
        var year: Int?
        var time: (Int, Int, Int)?
        switch tokens.count {
        case 6 where tokens[5].uppercased() == "GMT":
            // IMF-fixdate: [Sun, 06, Nov, 1994, 08:49:37, GMT]
            day = Int(tokens[1])
            month = monthIndex(tokens[2])
            year = Int(tokens[3])
            time = clock(tokens[4])
        case 4 where tokens[3].uppercased() == "GMT":
            // rfc850-date: [Sunday, 06-Nov-94, 08:49:37, GMT]
            let parts = tokens[1].split(separator: "-").map(String.init)
            guard parts.count == 3, let yy = Int(parts[2]) else { return nil }
            day = Int(parts[0])
            month = monthIndex(parts[1])
            // RFC 9110: a two-digit year more than 50 years in the future means the past century.
            year = parts[2].count == 2 ? (yy < 70 ? 2000 + yy : 1900 + yy) : yy
            time = clock(tokens[2])
        case 5:
            // asctime-date: [Sun, Nov, 6, 08:49:37, 1994]
            month = monthIndex(tokens[1])
            day = Int(tokens[2])
            time = clock(tokens[3])
            year = Int(tokens[4])
        default:
            return nil
        }
        // Years have four digits in every form (RFC 9110 §5.6.7); a longer one would overflow the seconds.
        guard let day, let month, let year, let time, (1...31).contains(day), (1900...9999).contains(year) else {
            return nil
        }
        let days = Int(CivilCalendar.days(year: Int64(year), month: Int64(month + 1), day: Int64(day)))
        let seconds = days * 86_400 + time.0 * 3600 + time.1 * 60 + time.2
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Formats `date` as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), whole seconds.
    public static func format(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        var days = total / 86_400
        var rest = total % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let (year, month, day) = CivilCalendar.date(days: Int64(days))
        let weekday = dayNames[((days % 7) + 7) % 7]
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(weekday), \(two(Int(day))) \(monthNames[Int(month) - 1]) \(year) "
            + "\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60)) GMT"
    }

    private static func monthIndex(_ name: String) -> Int? {
        months.firstIndex(of: name.lowercased())
    }

    private static func clock(_ text: String) -> (Int, Int, Int)? {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 3, (0...23).contains(parts[0]), (0...59).contains(parts[1]), (0...60).contains(parts[2])
        else { return nil }
        return (parts[0], parts[1], parts[2])
    }
}
