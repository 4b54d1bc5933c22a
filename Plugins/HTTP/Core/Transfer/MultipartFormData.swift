import FileAccess
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `multipart/form-data` body (RFC 7578): text fields and files, encoded whole (``encode()``) or streamed
/// from disk (``bodyStream(chunkSize:)``), with its length known before anything is sent.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append(field: "title", value: "Holiday")
/// form.append(file: "photo", path: "/tmp/a.jpg")                       // streamed from disk
/// form.append(data: "notes", bytes: Array("hi".utf8), filename: "notes.txt", contentType: "text/plain")
/// let request = HTTPTransportRequest(
///     method: "POST", url: url, headers: [HTTPField("Content-Type", form.contentType)],
///     bodyStream: try form.bodyStream())
/// ```
///
/// Names and file names are written as browsers write them: UTF-8, with `"`, CR and LF percent-encoded.
public struct MultipartFormData: Sendable, Hashable {
    /// One part of the form.
    public struct Part: Sendable, Hashable {
        /// Where a part's bytes come from.
        public enum Content: Sendable, Hashable {
            /// Bytes in memory.
            case bytes([UInt8])
            /// A file, read when the body is sent (its size is taken when the length is computed), opened
            /// without following links (``ResolvedPath/open(_:mode:)``).
            case file(path: ResolvedPath)
        }

        /// The form field's name.
        public var name: String
        /// The file name (makes the part a file part); nil for plain fields.
        public var filename: String?
        /// The part's `Content-Type` (nil: none, as for text fields).
        public var contentType: String?
        public var content: Content
        /// More header fields of the part.
        public var headers: [HTTPField]

        public init(
            name: String, filename: String? = nil, contentType: String? = nil, content: Content,
            headers: [HTTPField] = []
        ) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.content = content
            self.headers = headers
        }
    }

    /// The boundary between parts (1–70 characters of RFC 2046's `bchars`, not ending in a space).
    public let boundary: String
    /// The parts, in order.
    public var parts: [Part]
    /// A body framed elsewhere (delimiters and part headers included), sent as is instead of ``parts``: the
    /// JavaScript API frames its forms in one place (js/form-data.js) and this type streams the files in it.
    public private(set) var framed: [Part.Content]?

    /// An empty form with `boundary` (default: a random one).
    public init(boundary: String = MultipartFormData.randomBoundary(), parts: [Part] = []) {
        self.boundary = boundary
        self.parts = parts
        self.framed = nil
    }

    /// A body already framed with `boundary`: `pieces` are its bytes in order, files read when it is sent.
    public init(boundary: String, framed pieces: [Part.Content]) {
        self.boundary = boundary
        self.parts = []
        self.framed = pieces
    }

    /// A random boundary: `----jsbridge` and 24 random letters and digits.
    public static func randomBoundary() -> String {
        let characters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return "----jsbridge" + String((0..<24).map { _ in characters.randomElement(using: &generator)! })
    }

    /// The request's `Content-Type`: `multipart/form-data; boundary=…`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Appends a text field.
    public mutating func append(field name: String, value: String) {
        parts.append(Part(name: name, content: .bytes(Array(value.utf8))))
    }

    /// Appends a file read from `path` when the body is sent; `filename` defaults to the path's last component
    /// and `contentType` to a guess from the file name's extension.
    public mutating func append(file name: String, path: String, filename: String? = nil, contentType: String? = nil) {
        append(
            file: name, path: ResolvedPath(path),
            filename: filename ?? (path.split(separator: "/").last.map(String.init) ?? "file"), contentType: contentType
        )
    }

    /// Appends the file at a path already resolved (and checked, for a script's path) like
    /// ``append(file:path:filename:contentType:)``.
    public mutating func append(
        file name: String, path: ResolvedPath, filename: String? = nil, contentType: String? = nil
    ) {
        let filename = filename ?? (path.path.split(separator: "/").last.map(String.init) ?? "file")
        parts.append(
            Part(
                name: name, filename: filename, contentType: contentType ?? MIMEType.guess(forFilename: filename),
                content: .file(path: path)))
    }

    /// Appends bytes as a file part (`filename` nil: a field part; `contentType` defaults to a guess from the
    /// file name, else `application/octet-stream`).
    public mutating func append(data name: String, bytes: [UInt8], filename: String? = nil, contentType: String? = nil)
    {
        parts.append(
            Part(
                name: name, filename: filename,
                contentType: contentType ?? MIMEType.guess(forFilename: filename ?? ""), content: .bytes(bytes)))
    }

    // MARK: - Encoding

    /// One piece of the encoded body: bytes in memory or a file of a known size.
    enum Segment {
        case bytes([UInt8])
        case file(path: ResolvedPath, size: Int64)

        var size: Int64 {
            switch self {
            case .bytes(let bytes): Int64(bytes.count)
            case .file(_, let size): size
            }
        }
    }

    /// Checks the form and lists its segments, taking each file's size now.
    func segments() throws(TransferError) -> [Segment] {
        try validate()
        var segments: [Segment] = []
        var pending: [UInt8] = []
        if let framed {
            for piece in framed {
                switch piece {
                case .bytes(let bytes): pending += bytes
                case .file(let path): try Self.add(file: path, to: &segments, pending: &pending)
                }
            }
            if !pending.isEmpty { segments.append(.bytes(pending)) }
            return segments
        }
        for (index, part) in parts.enumerated() {
            pending += Array(((index == 0 ? "" : "\r\n") + "--\(boundary)\r\n").utf8)
            pending += head(of: part)
            switch part.content {
            case .bytes(let bytes):
                pending += bytes
            case .file(let path):
                try Self.add(file: path, to: &segments, pending: &pending)
            }
        }
        pending += Array(((parts.isEmpty ? "" : "\r\n") + "--\(boundary)--\r\n").utf8)
        segments.append(.bytes(pending))
        return segments
    }

    /// Appends the file at `path` to `segments` after the bytes in `pending`, measuring it now.
    private static func add(
        file path: ResolvedPath, to segments: inout [Segment], pending: inout [UInt8]
    ) throws(TransferError) {
        let size = try fileSize(path)
        if size == 0 {
            // A file that reports no size (Linux's /proc and /sys) has content only when read: read it now,
            // once, so that the length sent and the bytes sent agree.
            pending += try contents(ofUnsized: path)
            return
        }
        if !pending.isEmpty { segments.append(.bytes(pending)) }
        pending = []
        segments.append(.file(path: path, size: size))
    }

    /// The body's length in bytes (files are measured now).
    public func contentLength() throws(TransferError) -> Int64 {
        try segments().reduce(0) { $0 + $1.size }
    }

    /// The whole body in memory (files are read now) — for small forms; stream large files with
    /// ``bodyStream(chunkSize:)``.
    public func encode() throws(TransferError) -> [UInt8] {
        var body: [UInt8] = []
        for segment in try segments() {
            switch segment {
            case .bytes(let bytes): body += bytes
            case .file(let path, let size):
                let reader = try FileReader(path: path, size: size)
                while let chunk = try reader.next(max: 1 << 20) { body += chunk }
            }
        }
        return body
    }

    /// The body as a stream of chunks of at most `chunkSize` bytes, reading files as it goes; its `length`
    /// is computed now. A file that is shorter when it is read than when it was measured fails the stream
    /// with ``TransferError/fileChanged(path:expected:)`` (a longer one is cut at its measured size).
    public func bodyStream(chunkSize: Int = 64 << 10) throws(TransferError) -> HTTPRequestBodyStream {
        let segments = try self.segments()
        let length = segments.reduce(0) { $0 + $1.size }
        let chunkSize = max(chunkSize, 1)
        return HTTPRequestBodyStream(length: length) {
            let cursor = SegmentCursor(segments: segments, chunkSize: chunkSize)
            return { try cursor.next() }
        }
    }

    private func validate() throws(TransferError) {
        let bchars = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
        guard (1...70).contains(boundary.utf8.count), boundary.utf8.allSatisfy(bchars.contains),
            !boundary.hasSuffix(" ")
        else {
            throw TransferError.invalid("'\(boundary)' is not a valid multipart boundary.")
        }
        for (index, part) in parts.enumerated() {
            for field in part.headers {
                let token = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
                guard !field.name.isEmpty, field.name.utf8.allSatisfy(token.contains),
                    !Self.breaksLine(field.value)
                else {
                    throw TransferError.invalid("Part \(index) ('\(part.name)') has an invalid header '\(field.name)'.")
                }
            }
            if let type = part.contentType, Self.breaksLine(type) {
                throw TransferError.invalid("Part \(index) ('\(part.name)') has an invalid content type.")
            }
        }
    }

    /// Whether `value` holds CR, LF or NUL. Checked on the UTF-8 bytes: as `Character`s, a CRLF pair is one
    /// grapheme equal to neither `"\r"` nor `"\n"`, and would let a header value inject lines.
    static func breaksLine(_ value: String) -> Bool {
        value.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 }
    }

    /// A part's header lines and the blank line after them.
    private func head(of part: Part) -> [UInt8] {
        var text = "Content-Disposition: form-data; name=\"\(Self.escape(part.name))\""
        if let filename = part.filename { text += "; filename=\"\(Self.escape(filename))\"" }
        text += "\r\n"
        if let type = part.contentType { text += "Content-Type: \(type)\r\n" }
        for field in part.headers { text += "\(field.name): \(field.value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// HTML's escaping of names in `Content-Disposition`: `"` → `%22`, CR → `%0D`, LF → `%0A`.
    package static func escape(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": out += "%22"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The most read from a file that reports no size.
    public static let unsizedFileLimit = 16 << 20

    /// The bytes of a file whose size is 0 by `stat` (empty, or made when read), at most ``unsizedFileLimit``.
    static func contents(ofUnsized path: ResolvedPath) throws(TransferError) -> [UInt8] {
        let reader = try FileReader(path: path, size: Int64(unsizedFileLimit) + 1, exact: false)
        var bytes: [UInt8] = []
        while let chunk = try reader.next(max: 64 << 10) {
            bytes += chunk
            if bytes.count > unsizedFileLimit {
                throw TransferError.invalid(
                    "'\(path.path)' reports no size and holds more than \(unsizedFileLimit) bytes: it cannot be sent.")
            }
        }
        return bytes
    }

    static func fileSize(_ path: ResolvedPath) throws(TransferError) -> Int64 {
        let descriptor = try FileReader.open(path, O_PATH)
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw TransferError.posix("stat", path.path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw TransferError.fileNotFound(path: path.path) }
        return Int64(info.st_size)
    }
}

/// Walks the segments of one iteration of a streamed body.
private final class SegmentCursor {
    private var segments: ArraySlice<MultipartFormData.Segment>
    private let chunkSize: Int
    private var reader: FileReader?
    private var offset = 0

    init(segments: [MultipartFormData.Segment], chunkSize: Int) {
        self.segments = segments[...]
        self.chunkSize = chunkSize
    }

    func next() throws -> [UInt8]? {
        while true {
            try Task.checkCancellation()
            if let reader {
                if let chunk = try reader.next(max: chunkSize) { return chunk }
                self.reader = nil
                continue
            }
            guard let segment = segments.first else { return nil }
            switch segment {
            case .bytes(let bytes):
                if offset < bytes.count {
                    let end = min(offset + chunkSize, bytes.count)
                    defer { offset = end }
                    return Array(bytes[offset..<end])
                }
                segments.removeFirst()
                offset = 0
            case .file(let path, let size):
                segments.removeFirst()
                reader = try FileReader(path: path, size: size)
            }
        }
    }
}

/// Reads exactly `size` bytes of a file (`exact`), or up to `size` bytes and its end, in chunks; closes it at
/// the end or when released.
final class FileReader {
    let path: String
    private var descriptor: Int32
    private var remaining: Int64
    private let size: Int64
    private let exact: Bool

    init(path: ResolvedPath, size: Int64, exact: Bool = true) throws(TransferError) {
        self.path = path.path
        self.size = size
        self.exact = exact
        self.remaining = size
        descriptor = try Self.open(path, O_RDONLY)
    }

    /// Opens `path` following no link; a missing file is ``TransferError/fileNotFound(path:)``.
    static func open(_ path: ResolvedPath, _ flags: Int32) throws(TransferError) -> Int32 {
        do throws(FileAccessError) {
            return try path.open(flags)
        } catch {
            if error.errno == ENOENT || error.errno == ENOTDIR { throw TransferError.fileNotFound(path: path.path) }
            throw TransferError.posix("open", path.path, errno: error.errno)
        }
    }

    /// The next chunk of at most `max` bytes, or nil once `size` bytes were read.
    func next(max: Int) throws(TransferError) -> [UInt8]? {
        guard remaining > 0 else {
            closeFile()
            return nil
        }
        let count = Int(min(Int64(max), remaining))
        var failure: Int32 = 0
        let chunk = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                let got = read(descriptor, buffer.baseAddress! + initialized, count - initialized)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 { return }
                initialized += got
            }
        }
        if failure != 0 {
            closeFile()
            throw TransferError.posix("read", path, errno: failure)
        }
        if chunk.count < count {
            closeFile()
            guard !exact else { throw TransferError.fileChanged(path: path, expected: size) }
            remaining = 0
            return chunk.isEmpty ? nil : chunk
        }
        remaining -= Int64(chunk.count)
        return chunk
    }

    private func closeFile() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }

    deinit { closeFile() }
}
