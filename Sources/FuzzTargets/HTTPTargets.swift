import Foundation
import HTTPCore

extension FuzzTargets {
    /// HTTP cache entry files: any bytes decode to an entry or to nil, never a trap; decoding an encoded
    /// entry gives an equal entry, and encoding it again the same bytes.
    public static func cacheEntry(_ bytes: [UInt8]) {
        guard let entry = HTTPCacheEntryCoding.decode(bytes) else { return }
        let encoded = HTTPCacheEntryCoding.encode(entry)
        guard let again = HTTPCacheEntryCoding.decode(encoded) else {
            preconditionFailure("an encoded entry does not decode")
        }
        precondition(again == entry, "decode(encode(decode(x))) != decode(x)")
        precondition(HTTPCacheEntryCoding.encode(again) == encoded, "encoding a decoded entry is not stable")
    }

    /// Header values (the input as text): `Cache-Control`, HTTP dates, MIME essence and `Content-Disposition`.
    ///
    /// - `Cache-Control`: directive names are lower-cased, trimmed and not empty; every delta-seconds value is
    ///   ≥ 0; a field split in two at a comma outside quotes gives the same directives as the field whole.
    /// - HTTP dates: a parsed date formats to an IMF-fixdate that parses to the same date.
    /// - MIME essence is idempotent, lower-case, without `;` or surrounding spaces.
    /// - A `Content-Disposition` file name, once sanitised, satisfies ``filename(_:)``'s invariants, and so
    ///   does the name suggested for a response.
    public static func headers(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)

        let control = CacheControl([HTTPField("Cache-Control", text)])
        for (name, _) in control.directives {
            precondition(!name.isEmpty, "an empty Cache-Control directive name")
            precondition(name == name.lowercased(), "a Cache-Control directive name not lower-cased")
            precondition(
                name == name.trimmingCharacters(in: .whitespaces), "a Cache-Control directive name not trimmed")
            precondition(control.has(name), "has() misses a parsed directive")
            if let seconds = control.seconds(name) { precondition(seconds >= 0, "negative delta-seconds") }
        }
        let items = CacheControl.split(text)
        precondition(!items.contains(where: \.isEmpty), "Cache-Control split gave an empty item")
        if items.count >= 2 {
            // The same directives sent as two fields (RFC 9110 §5.3: a list may be split across fields).
            let cut = items.count / 2
            let twoFields = CacheControl([
                HTTPField("Cache-Control", items[..<cut].joined(separator: ", ")),
                HTTPField("cache-control", items[cut...].joined(separator: ", ")),
            ])
            precondition(twoFields == control, "Cache-Control differs when split across two fields")
        }

        if let date = HTTPDate.parse(text) {
            let formatted = HTTPDate.format(date)
            precondition(HTTPDate.parse(formatted) == date, "HTTP date does not survive format → parse")
        }

        let essence = MIMEType.essence(text)
        precondition(MIMEType.essence(essence) == essence, "MIME essence is not idempotent")
        // By scalar: as a `Character`, ";" also equals U+037E (Greek question mark), its canonical equivalent.
        precondition(!essence.unicodeScalars.contains(";"), "MIME essence keeps a parameter")
        _ = MIMEType.fileExtension(for: text)

        if let raw = DownloadFileName.fromContentDisposition(text), let name = DownloadFileName.sanitize(raw) {
            checkFileName(name)
        }
        checkFileName(DownloadFileName.suggested(contentDisposition: text, url: "https://example.com/a/" + text))
    }

    /// The download file-name sanitiser, on the input as text (and on its `/`-joined halves): the result, when
    /// there is one, is a single safe name (see ``checkFileName(_:)``), and sanitising it again changes nothing.
    public static func filename(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let name = DownloadFileName.sanitize(text) else { return }
        checkFileName(name)
        precondition(DownloadFileName.sanitize(name) == name, "sanitising a sanitised name changed it")
        checkFileName(DownloadFileName.numbered(name, 9999))
    }

    /// A name that is safe as one file name in the downloads folder: not empty, no `/`, `\` or NUL, not `.`
    /// or `..`, no control or invisible formatting characters, no leading or trailing dot or space, and short
    /// enough (``DownloadFileName/maxBytes``, plus room for ` (n)` when numbered: 255 bytes).
    static func checkFileName(_ name: String) {
        precondition(!name.isEmpty, "an empty file name")
        precondition(name != "." && name != "..", "a file name that is . or ..")
        precondition(name.utf8.count <= 255, "a file name longer than 255 bytes")
        for scalar in name.unicodeScalars {
            precondition(scalar != "/" && scalar != "\\" && scalar != "\0", "a path separator or NUL in a file name")
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                preconditionFailure("a control or formatting character in a file name")
            default: break
            }
        }
        precondition(!name.hasPrefix(".") && !name.hasSuffix("."), "a file name with a leading or trailing dot")
        precondition(!name.hasPrefix(" ") && !name.hasSuffix(" "), "a file name with a leading or trailing space")
    }

    /// The `multipart/form-data` encoder. The input, split at NUL bytes, gives the boundary, then per part its
    /// name, file name (empty: a field), content type (empty: none) and content.
    ///
    /// - A form the encoder accepts has a body of exactly ``MultipartFormData/contentLength()`` bytes that
    ///   starts with the first delimiter and ends with the close delimiter.
    /// - Read back by a plain reader (split at `CRLF--boundary`, when no content holds the delimiter), the body
    ///   has one section per part, each with one `Content-Disposition` line (names with `"`, CR and LF
    ///   escaped), the content type if any, a blank line, then exactly the part's content: no name, file name
    ///   or type can inject a header line or a part.
    /// - A form it rejects fails with a ``TransferError``, never a trap.
    ///
    /// There is no multipart decoder in the runtime yet, so only the encoder is fuzzed.
    public static func multipart(_ bytes: [UInt8]) {
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard let boundary = fields.first else { return }
        var form = MultipartFormData(boundary: boundary)
        var index = 1
        while index < fields.count, form.parts.count < 8 {
            func field(_ offset: Int) -> String { index + offset < fields.count ? fields[index + offset] : "" }
            form.parts.append(
                MultipartFormData.Part(
                    name: field(0), filename: field(1).isEmpty ? nil : field(1),
                    contentType: field(2).isEmpty ? nil : field(2), content: .bytes(Array(field(3).utf8))))
            index += 4
        }
        let body: [UInt8]
        let length: Int64
        do {
            body = try form.encode()
            length = try form.contentLength()
        } catch {
            return
        }
        precondition(Int64(body.count) == length, "contentLength differs from the encoded body's length")
        let close = Array("--\(boundary)--\r\n".utf8)
        precondition(body.count >= close.count && Array(body.suffix(close.count)) == close, "no close delimiter")
        guard !form.parts.isEmpty else {
            precondition(body == close, "an empty form is more than its close delimiter")
            return
        }
        precondition(body.starts(with: Array("--\(boundary)\r\n".utf8)), "the body does not start with a delimiter")

        let delimiter = Array("\r\n--\(boundary)".utf8)
        let contents = form.parts.map { part -> [UInt8] in
            if case .bytes(let bytes) = part.content { return bytes }
            return []
        }
        // With the delimiter inside a content (or at its start, after the head's CRLF), a reader could not tell
        // the parts apart: the encoder relies on a random boundary there, and there is nothing to check.
        guard !contents.contains(where: { contains(Array("\r\n".utf8) + $0, delimiter) }) else { return }
        // "--boundary\r\n" head CRLF CRLF content ("\r\n--boundary\r\n" head CRLF CRLF content)* "\r\n--boundary--\r\n"
        let sections = split(Array("\r\n".utf8) + body, at: delimiter)
        precondition(
            sections.count == form.parts.count + 2, "the body has \(sections.count - 2) parts, not \(form.parts.count)")
        precondition(sections[0].isEmpty, "bytes before the first delimiter")
        precondition(sections.last == Array("--\r\n".utf8), "bytes after the close delimiter")
        for (part, section) in zip(form.parts, sections[1...]) {
            precondition(section.starts(with: [13, 10]), "a delimiter not followed by CRLF")
            let rest = Array(section.dropFirst(2))
            let blank = Array("\r\n\r\n".utf8)
            guard let end = firstIndex(of: blank, in: rest) else { preconditionFailure("a part without a blank line") }
            let lines = split(Array(rest[..<end]), at: [13, 10])
            var expected = #"Content-Disposition: form-data; name="\#(MultipartFormData.escape(part.name))""#
            if let filename = part.filename { expected += #"; filename="\#(MultipartFormData.escape(filename))""# }
            var expectedLines = [Array(expected.utf8)]
            if let type = part.contentType { expectedLines.append(Array("Content-Type: \(type)".utf8)) }
            precondition(lines == expectedLines, "a part's header lines are not its disposition and type")
            for line in lines {
                precondition(!line.contains(13) && !line.contains(10), "a bare CR or LF in a part's header")
            }
            if case .bytes(let content) = part.content {
                precondition(Array(rest[(end + 4)...]) == content, "a part's content was changed")
            }
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool { firstIndex(of: needle, in: haystack) != nil }

    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }

    static func split(_ bytes: [UInt8], at separator: [UInt8]) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var rest = bytes[...]
        while let index = firstIndex(of: separator, in: Array(rest)) {
            pieces.append(Array(rest.prefix(index)))
            rest = rest.dropFirst(index + separator.count)
        }
        pieces.append(Array(rest))
        return pieces
    }
}
