import Foundation

/// The directives of the `Cache-Control` fields of a request or response (RFC 9111 §5.2), names lower-cased.
package struct CacheControl: Sendable, Hashable {
    /// Directive name → argument (nil when the directive has none).
    package var directives: [String: String?] = [:]

    package init(_ headers: [HTTPField]) {
        for field in headers where field.name.lowercased() == "cache-control" {
            for item in Self.split(field.value) {
                let parts = item.split(separator: "=", maxSplits: 1)
                guard let first = parts.first else { continue }
                let name = first.trimmingCharacters(in: .whitespaces).lowercased()
                guard !name.isEmpty else { continue }
                var value: String?
                if parts.count == 2 {
                    var text = parts[1].trimmingCharacters(in: .whitespaces)
                    if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
                        text = String(text.dropFirst().dropLast()).replacingOccurrences(of: "\\", with: "")
                    }
                    value = text
                }
                // The first occurrence wins (RFC 9111 §4.2.1 says duplicates make the response stale: be
                // conservative through `seconds`, which reads this value).
                if directives[name] == nil { directives[name] = .some(value) }
            }
        }
    }

    /// Whether `name` is present (with or without an argument).
    package func has(_ name: String) -> Bool { directives[name] != nil }

    /// The delta-seconds argument of `name`; a present but invalid argument counts as 0 (stale), per RFC 9111 §1.2.2.
    package func seconds(_ name: String) -> Int? {
        guard let entry = directives[name] else { return nil }
        guard let text = entry, !text.isEmpty, text.allSatisfy(\.isNumber) else { return 0 }
        return Int(text) ?? Int(Int32.max)
    }

    /// Whether `no-cache` is present without field names (with names, only those fields would need
    /// revalidation; a private cache may treat it the same — it does).
    var noCache: Bool { has("no-cache") }

    /// Splits a field value at commas outside quoted strings.
    package static func split(_ value: String) -> [String] {
        var items: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in value {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" && quoted {
                current.append(character)
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
                current.append(character)
            } else if character == "," && !quoted {
                items.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        items.append(current)
        return items.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// Header look-ups the cache needs (kept in one namespace so they never clash with other extensions).
enum CacheFields {
    /// The values of every field named `name` (case-insensitive) joined with ", ", or nil when there is none.
    static func combined(_ name: String, in headers: [HTTPField]) -> String? {
        let values = headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The first value of the field `name` (case-insensitive).
    static func first(_ name: String, in headers: [HTTPField]) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
