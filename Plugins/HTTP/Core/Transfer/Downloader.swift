import Foundation
import JSBridgeBase

#if canImport(Glibc)
    import Glibc
#endif

/// What to download and where to put it.
public struct DownloadRequest: Sendable, Hashable {
    /// An absolute http(s) URL.
    public var url: String
    public var method: String
    public var headers: [HTTPField]
    /// The file name wanted (sanitised like a suggested name); nil: the name the server suggests.
    public var filename: String?
    /// Replace an existing file of the same name instead of adding " (1)", " (2)", ….
    public var overwrite: Bool
    /// How long to wait for each connection (nil: the transport's default).
    public var connectTimeout: Duration?

    public init(
        url: String, method: String = "GET", headers: [HTTPField] = [], filename: String? = nil,
        overwrite: Bool = false, connectTimeout: Duration? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.filename = filename
        self.overwrite = overwrite
        self.connectTimeout = connectTimeout
    }
}

/// A finished download.
public struct DownloadResult: Sendable, Hashable, Codable {
    /// The absolute path of the file in the downloads folder.
    public var filePath: String
    /// The response's `Content-Type` without parameters (else guessed from the file name).
    public var mimeType: String
    /// The file's size in bytes.
    public var length: Int64
    /// The sanitised name the server suggested (`Content-Disposition`, else the URL), before any " (n)".
    public var suggestedFilename: String

    public init(filePath: String, mimeType: String, length: Int64, suggestedFilename: String) {
        self.filePath = filePath
        self.mimeType = mimeType
        self.length = length
        self.suggestedFilename = suggestedFilename
    }
}

/// Which old downloads are removed when a download starts.
///
/// Files older than ``maxAge`` (by modification time) are removed first; then, with ``maxFiles``, the oldest
/// files until `maxFiles - 1` remain, so the folder holds at most `maxFiles` once the new download is in.
/// Only regular files directly in the folder count; hidden files and sub-folders are left alone, except
/// partial files of interrupted downloads (`.jsbridge-download-*.part`) not written to for a day.
public struct DownloadCleanupPolicy: Sendable, Hashable {
    /// Remove files older than this (nil: no age limit).
    public var maxAge: Duration?
    /// Keep at most this many files, the newest (nil: no count limit; at least 1).
    public var maxFiles: Int?

    public init(maxAge: Duration? = nil, maxFiles: Int? = nil) {
        self.maxAge = maxAge
        self.maxFiles = maxFiles.map { max($0, 1) }
    }

    /// Keep everything.
    public static let none = DownloadCleanupPolicy()
}

/// Downloads response bodies into files, streaming: memory use does not depend on the file's size.
///
/// A download checks the status before writing anything (non-2xx: ``HTTPError/status(_:statusText:url:headers:body:)``
/// with the start of the body, and no file), streams the body into a hidden temporary file in the downloads
/// folder, and renames it into place atomically, never replacing an existing file unless asked. On any
/// failure or cancellation the partial file is removed. Redirects are followed and every hop is checked by
/// the ``Fetcher``'s `authorize`.
public struct Downloader: Sendable {
    /// Sends the request (redirects, permission checks, timeouts).
    public var fetcher: Fetcher
    /// The downloads folder (created when missing).
    public var directory: String
    /// Applied when a download starts.
    public var cleanup: DownloadCleanupPolicy
    /// The shortest time between two progress reports.
    public var progressInterval: Duration

    /// Prefix of the temporary files of downloads in progress.
    public static let partialPrefix = ".jsbridge-download-"
    /// Partial files older than this are leftovers of interrupted runs.
    static let stalePartialAge: TimeInterval = 24 * 3600

    public init(
        fetcher: Fetcher, directory: String, cleanup: DownloadCleanupPolicy = .none,
        progressInterval: Duration = .milliseconds(100)
    ) {
        self.fetcher = fetcher
        self.directory = directory
        self.cleanup = cleanup
        self.progressInterval = progressInterval
    }

    /// The default downloads folder of an app: `<storageDirectory>/downloads/<app id as a file name>`.
    public static func defaultDirectory(storageDirectory: String, appID: String) -> String {
        let base = storageDirectory.hasSuffix("/") ? String(storageDirectory.dropLast()) : storageDirectory
        return base + "/downloads/" + StorageLocation.fileSystemName(of: appID)
    }

    /// Downloads `request` into the downloads folder; `progress` gets the bytes received (throttled to
    /// ``progressInterval``, always including the last update).
    ///
    /// Cancelling the calling task stops the transfer (the connection is closed) and removes the partial file.
    public func download(_ request: DownloadRequest, progress: TransferProgressHandler? = nil) async throws
        -> DownloadResult
    {
        // The first hop's permission before touching the folder (the fetcher checks every hop again).
        let target = try HTTPTarget(request.url)
        try fetcher.authorize(target.host, target.port)
        try Task.checkCancellation()
        try makeDirectory()
        applyCleanup()

        let opened = try await fetcher.open(
            FetchRequest(
                method: request.method, url: request.url, headers: request.headers, redirect: .follow,
                connectTimeout: request.connectTimeout))
        let head = opened.head
        guard (200...299).contains(head.status) else {
            throw await Self.statusError(opened)
        }
        let total = head.header("content-length").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        let contentType = head.header("content-type").map(MIMEType.essence).flatMap { $0.isEmpty ? nil : $0 }
        let suggested = DownloadFileName.suggested(
            contentDisposition: head.header("content-disposition"), url: opened.url, mimeType: contentType)
        let name = request.filename.flatMap(DownloadFileName.sanitize) ?? suggested
        let mimeType = contentType ?? MIMEType.guess(forFilename: name)

        let partial = PartialFile(directory: directory)
        do {
            try partial.create()
            var throttle = ProgressThrottle(interval: progressInterval)
            var received: Int64 = 0
            if let progress, throttle.shouldReport(0) { try await progress(TransferProgress(bytes: 0, total: total)) }
            for try await chunk in head.body {
                try Task.checkCancellation()
                try partial.write(chunk)
                received += Int64(chunk.count)
                if let progress, throttle.shouldReport(received, isFinal: received == total) {
                    try await progress(TransferProgress(bytes: received, total: total))
                }
            }
            try Task.checkCancellation()
            if let progress, throttle.shouldReport(received, isFinal: true) {
                try await progress(TransferProgress(bytes: received, total: total))
            }
            try partial.close()
            let path = try partial.place(as: name, overwrite: request.overwrite)
            return DownloadResult(filePath: path, mimeType: mimeType, length: received, suggestedFilename: suggested)
        } catch {
            partial.discard()
            throw error
        }
    }

    /// ``HTTPError/status(_:statusText:url:headers:body:)`` for `opened`, with the first 64 KiB of its body.
    static func statusError(_ opened: OpenedResponse) async -> HTTPError {
        let limit = 64 << 10
        var bytes: [UInt8] = []
        do {
            for try await chunk in opened.head.body {
                bytes += chunk.prefix(limit - bytes.count)
                if bytes.count >= limit { break }
            }
        } catch {
            // Keep what arrived: the status is the error that matters.
        }
        return HTTPError.status(
            opened.head.status, statusText: opened.head.reason, url: opened.url, headers: opened.head.headers,
            body: String(decoding: bytes, as: UTF8.self))
    }

    private func makeDirectory() throws(TransferError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw TransferError.fileError(path: directory, operation: "mkdir", message: "\(error.localizedDescription)")
        }
    }

    /// Removes old downloads per ``cleanup`` (and stale partial files); returns the paths removed.
    /// Failures to remove a file are ignored (it is tried again next time).
    @discardableResult
    public func applyCleanup(now: Date = Date()) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var files: [(path: String, modified: Date)] = []
        var removed: [String] = []
        func remove(_ path: String) {
            if unlink(path) == 0 { removed.append(path) }
        }
        for name in names {
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let modified = Date(
                timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
            if name.hasPrefix(".") {
                if name.hasPrefix(Self.partialPrefix), now.timeIntervalSince(modified) > Self.stalePartialAge {
                    remove(path)
                }
                continue
            }
            files.append((path, modified))
        }
        if let maxAge = cleanup.maxAge {
            let seconds = Double(maxAge.components.seconds) + Double(maxAge.components.attoseconds) / 1e18
            files.removeAll { file in
                guard now.timeIntervalSince(file.modified) > seconds else { return false }
                remove(file.path)
                return true
            }
        }
        if let maxFiles = cleanup.maxFiles, files.count > maxFiles - 1 {
            files.sort { $0.modified > $1.modified || ($0.modified == $1.modified && $0.path > $1.path) }
            for file in files[(maxFiles - 1)...] { remove(file.path) }
        }
        return removed
    }
}

/// The hidden temporary file a download is written to, then renamed into place (or removed).
final class PartialFile: @unchecked Sendable {
    // Used by one task at a time (the download's); `@unchecked` only lets it cross into the catch block.
    let directory: String
    let path: String
    private var descriptor: Int32 = -1

    init(directory: String) {
        self.directory = directory
        self.path = directory + "/" + Downloader.partialPrefix + UUID().uuidString + ".part"
    }

    func create() throws(TransferError) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0 { throw TransferError.posix("open", path) }
    }

    func write(_ bytes: [UInt8]) throws(TransferError) {
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure != 0 { throw TransferError.posix("write", path, errno: failure) }
    }

    func close() throws(TransferError) {
        guard descriptor >= 0 else { return }
        let result = Glibc.close(descriptor)
        descriptor = -1
        if result != 0 { throw TransferError.posix("close", path) }
    }

    /// Moves the file to `name` in the folder: with `overwrite` replacing any file there, else under the
    /// first free name of `name`, `name (1)`, `name (2)`, … (checked atomically with `link`).
    func place(as name: String, overwrite: Bool) throws(TransferError) -> String {
        if overwrite {
            let destination = directory + "/" + name
            guard rename(path, destination) == 0 else { throw TransferError.posix("rename", destination) }
            return destination
        }
        for n in 0..<10_000 {
            let destination = directory + "/" + (n == 0 ? name : DownloadFileName.numbered(name, n))
            if link(path, destination) == 0 {
                unlink(path)
                return destination
            }
            switch errno {
            case EEXIST:
                continue
            case EPERM, EOPNOTSUPP, EMLINK, EXDEV:
                // No hard links on this file system: check, then rename (not atomic, but close).
                if access(destination, F_OK) == 0 { continue }
                guard rename(path, destination) == 0 else { throw TransferError.posix("rename", destination) }
                return destination
            default:
                throw TransferError.posix("rename", destination)
            }
        }
        throw TransferError.fileError(
            path: directory + "/" + name, operation: "rename", message: "too many files with this name")
    }

    /// Closes and removes the partial file (after a failure or cancellation).
    func discard() {
        if descriptor >= 0 {
            _ = Glibc.close(descriptor)
            descriptor = -1
        }
        unlink(path)
    }

    deinit {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }
}
