import Foundation

/// A small table between file extensions and MIME types, for uploads without a content type and
/// downloads without a name or a `Content-Type`.
public enum MIMEType {
    static let byExtension: [String: String] = [
        "txt": "text/plain", "html": "text/html", "htm": "text/html", "css": "text/css", "csv": "text/csv",
        "js": "text/javascript", "mjs": "text/javascript", "json": "application/json", "xml": "application/xml",
        "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "svg": "image/svg+xml", "ico": "image/x-icon", "bmp": "image/bmp", "mp3": "audio/mpeg", "wav": "audio/wav",
        "ogg": "audio/ogg", "mp4": "video/mp4", "webm": "video/webm", "wasm": "application/wasm",
        "md": "text/markdown", "yaml": "application/yaml", "yml": "application/yaml", "bin": "application/octet-stream",
    ]

    static let preferredExtension: [String: String] = [
        "text/plain": "txt", "text/html": "html", "text/css": "css", "text/csv": "csv", "text/javascript": "js",
        "application/javascript": "js", "application/json": "json", "application/xml": "xml", "text/xml": "xml",
        "application/pdf": "pdf", "application/zip": "zip", "application/gzip": "gz", "image/png": "png",
        "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp", "image/svg+xml": "svg", "audio/mpeg": "mp3",
        "video/mp4": "mp4", "text/markdown": "md",
    ]

    /// The table of ``guess(forFilename:)``: lower-cased extension (no dot) → MIME type.
    public static var extensionTable: [String: String] { byExtension }

    /// The type of a file named `filename` by its extension, else `application/octet-stream`.
    public static func guess(forFilename filename: String) -> String {
        guard let dot = filename.lastIndex(of: "."), dot != filename.startIndex else {
            return "application/octet-stream"
        }
        return byExtension[filename[filename.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    /// The usual extension (without the dot) of `mimeType`, if the table knows it.
    public static func fileExtension(for mimeType: String) -> String? {
        preferredExtension[essence(mimeType)]
    }

    /// The type without parameters, lower-cased: `"Text/HTML; charset=utf-8"` → `"text/html"`.
    public static func essence(_ contentType: String) -> String {
        // Split by scalar: as a `Character`, a ";" after a prepended format character (U+070F) would not match.
        let type =
            contentType.unicodeScalars.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            .first.map { String(Substring($0)) } ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
