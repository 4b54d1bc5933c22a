import Foundation
import JSBridgeBase

/// File names for downloads: what the server suggests (`Content-Disposition`, else the URL), made safe to
/// use as one file name inside the downloads folder.
///
/// Sanitising keeps only the last path component (so `../../etc/passwd` becomes `passwd`), removes control
/// and invisible formatting characters (including bidirectional overrides), replaces `< > : " | ? *` with
/// `_`, strips leading and trailing dots and spaces (no hidden files, no `.`/`..`), and bounds the name to
/// ``maxBytes`` UTF-8 bytes while keeping a short extension.
public enum DownloadFileName {
    /// The longest name produced, in UTF-8 bytes (file systems allow 255; this leaves room for " (n)").
    public static let maxBytes = 200
    /// The name used when neither the header nor the URL gives one (an extension is added from the type).
    public static let defaultName = "download"

    /// The name to suggest for a response: `Content-Disposition`'s `filename*` (RFC 8187, UTF-8 or
    /// ISO-8859-1), else its `filename`, else the URL's last path segment, else ``defaultName`` (plus an
    /// extension for a known `mimeType`) — always sanitised.
    public static func suggested(contentDisposition: String?, url: String, mimeType: String? = nil) -> String {
        if let header = contentDisposition, let name = fromContentDisposition(header).flatMap(sanitize) {
            return name
        }
        if let name = lastPathSegment(of: url).flatMap(sanitize) { return name }
        if let mimeType, let ext = MIMEType.fileExtension(for: mimeType) { return defaultName + "." + ext }
        return defaultName
    }

    /// The raw (unsanitised) file name of a `Content-Disposition` value: `filename*` wins over `filename`.
    public static func fromContentDisposition(_ value: String) -> String? {
        var plain: String?
        var extended: String?
        for (name, parameter) in parameters(of: value) {
            switch name {
            case "filename*": if extended == nil { extended = decodeExtended(parameter) }
            case "filename": if plain == nil { plain = parameter }
            default: break
            }
        }
        if let extended, !extended.isEmpty { return extended }
        return plain
    }

    /// `name` made safe as one file name, or nil when nothing usable is left.
    public static func sanitize(_ name: String) -> String? {
        // Only the last path component, whatever the separator. Split by scalar: as a `Character`, a separator
        // after a prepended format character (e.g. U+0600 then "/") is part of one grapheme and would stay.
        let component = name.unicodeScalars.split(omittingEmptySubsequences: true) { $0 == "/" || $0 == "\\" }
            .last.map { String(Substring($0)) }
        guard let component else { return nil }
        var scalars = String.UnicodeScalarView()
        for scalar in component.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate, .privateUse:
                continue
            default:
                break
            }
            if "<>:\"|?*".unicodeScalars.contains(scalar) {
                scalars.append("_")
            } else if scalar.properties.isWhitespace {
                scalars.append(" ")
            } else {
                scalars.append(scalar)
            }
        }
        var result = String(scalars)
        let trimmed = CharacterSet(charactersIn: ". ")
        result = result.trimmingCharacters(in: trimmed)
        guard !result.isEmpty else { return nil }
        return bounded(result)
    }

    /// `name` numbered for the `n`th collision: `report.pdf` → `report (1).pdf`; `a.tar.gz` → `a (1).tar.gz`.
    public static func numbered(_ name: String, _ n: Int) -> String {
        let (base, ext) = split(name)
        return "\(base) (\(n))\(ext)"
    }

    // MARK: - Helpers

    /// Base name and extension (with its dot; `.tar.*` kept together); no extension for names like `README`.
    static func split(_ name: String) -> (base: Substring, ext: Substring) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name[...], "") }
        var start = dot
        let base = name[..<dot]
        if base.lowercased().hasSuffix(".tar"), base.count > 4 { start = name.index(dot, offsetBy: -4) }
        let ext = name[start...]
        // A long "extension" is just part of the name.
        guard ext.utf8.count <= 16, !ext.contains(" ") else { return (name[...], "") }
        return (name[..<start], ext)
    }

    /// Cuts `name` to ``maxBytes`` UTF-8 bytes on a character boundary, keeping its extension.
    static func bounded(_ name: String) -> String {
        guard name.utf8.count > maxBytes else { return name }
        let (base, ext) = split(name)
        var kept = ""
        var used = ext.utf8.count
        for character in base {
            let size = character.utf8.count
            if used + size > maxBytes { break }
            kept.append(character)
            used += size
        }
        kept = kept.trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        return kept.isEmpty ? String(ext.dropFirst()) : kept + ext
    }

    /// The percent-decoded last segment of the URL's path (query and fragment ignored).
    static func lastPathSegment(of url: String) -> String? {
        var text = Substring(url)
        if let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<end] }
        if let scheme = text.range(of: "://") {
            let afterScheme = text[scheme.upperBound...]
            guard let slash = afterScheme.firstIndex(of: "/") else { return nil }
            text = afterScheme[slash...]
        }
        guard let last = text.split(separator: "/").last else { return nil }
        return String(last).removingPercentEncoding ?? String(last)
    }

    /// The `;`-separated parameters of a header value, names lower-cased, quoted strings unescaped.
    static func parameters(of value: String) -> [(String, String)] {
        var result: [(String, String)] = []
        var scalars = Array(value.unicodeScalars)[...]
        // Skip the disposition type.
        while let first = scalars.first, first != ";" { scalars.removeFirst() }
        while !scalars.isEmpty {
            scalars.removeFirst()  // ";"
            while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
            var name = ""
            while let first = scalars.first, first != "=", first != ";" {
                name.unicodeScalars.append(first)
                scalars.removeFirst()
            }
            guard scalars.first == "=" else { continue }
            scalars.removeFirst()
            while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
            var parameter = ""
            if scalars.first == "\"" {
                scalars.removeFirst()
                while let first = scalars.popFirst() {
                    if first == "\"" { break }
                    if first == "\\", let escaped = scalars.popFirst() {
                        parameter.unicodeScalars.append(escaped)
                    } else {
                        parameter.unicodeScalars.append(first)
                    }
                }
                while let first = scalars.first, first != ";" { scalars.removeFirst() }
            } else {
                while let first = scalars.first, first != ";" {
                    parameter.unicodeScalars.append(first)
                    scalars.removeFirst()
                }
                parameter = parameter.trimmingCharacters(in: .whitespaces)
            }
            result.append((name.trimmingCharacters(in: .whitespaces).lowercased(), parameter))
        }
        return result
    }

    /// Decodes an RFC 8187 `ext-value`: `charset'language'percent-encoded` (UTF-8 or ISO-8859-1).
    static func decodeExtended(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let charset = parts[0].lowercased()
        var bytes: [UInt8] = []
        var utf8 = Array(parts[2].utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let high = Hex.value(utf8[utf8.startIndex]), let low = Hex.value(utf8[utf8.startIndex + 1])
            {
                bytes.append(high << 4 | low)
                utf8.removeFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        switch charset {
        case "utf-8": return String(validating: bytes, as: UTF8.self)
        case "iso-8859-1": return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default: return nil
        }
    }
}
