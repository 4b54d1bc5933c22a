import Foundation
import JSBridgeCore

/// The HTTP plugin's transfer actions (http-transfer.js; docs/http.md, "Downloads and uploads"):
///
/// - stream `download` — `{url, method?, headers?: [[name, value]], filename?, overwrite?, progress?,
///   progressIntervalMs?}`; yields `{type: "progress", loaded, total}` (only with `progress: true`) and
///   finally `{type: "result", filePath, mimeType, length, suggestedFilename}`.
/// - stream `upload` — `{url, method?, headers?, fields?: [[name, value]], files?: [{name, path | text |
///   bytes, filename?, contentType?}] | multipart?: {boundary, pieces: [{text} | {bytes} | {path}]}, progress?,
///   progressIntervalMs?, connectTimeoutMs?, totalTimeoutMs?, retry?}`; yields progress values and finally
///   `{type: "result", status, statusText, headers, url, redirected, body | bodyBytes, attempts?}` (as
///   `request`). Bytes cross beside the JSON both ways (a `Uint8Array` in JavaScript).
///
/// Cancelling either stream stops the transfer; a cancelled or failed download leaves no file.
extension HTTPPlugin {
    /// Declares `download` and `upload` (called from ``declare(_:)``).
    static func transferActions(_ plugin: inout PluginDeclaration<Self>) {
        plugin.stream("download", args: DownloadArguments.self, of: JSONValue.self) { context, args, out in
            try await download(context: context, args: args, out: out)
        }
        plugin.stream("upload", args: UploadArguments.self, of: BridgeValue.self) { context, args, out in
            try await upload(context: context, args: args, out: out)
        }
    }

    static func download(context: PluginContext<Self>, args: DownloadArguments, out: StreamWriter<JSONValue>)
        async throws
    {
        let settings = context.state.transfers
        let fetcher = context.state.fetcher
        let validated = try RequestArguments(url: args.url, method: args.method, headers: args.headers).request()
        let downloader = Downloader(
            fetcher: fetcher, directory: settings.downloadsDirectory, cleanup: settings.cleanup,
            progressInterval: settings.progressInterval(args.progressIntervalMs))
        let request = DownloadRequest(
            url: validated.url, method: validated.method, headers: validated.headers, filename: args.filename,
            overwrite: args.overwrite ?? false)
        var progress: TransferProgressHandler?
        if args.progress == true {
            progress = { value in try await out.yield(Self.encode(value)) }
        }
        let result = try await downloader.download(request, progress: progress)
        let object: JSONObject = [
            "type": "result", "filePath": .string(result.filePath), "mimeType": .string(result.mimeType),
            "length": .number(Double(result.length)), "suggestedFilename": .string(result.suggestedFilename),
        ]
        try await out.yield(.object(object))
    }

    static func upload(context: PluginContext<Self>, args: UploadArguments, out: StreamWriter<BridgeValue>)
        async throws
    {
        let settings = context.state.transfers
        let fetcher = context.state.fetcher
        let validated = try RequestArguments(
            url: args.url, method: args.method ?? "POST", headers: args.headers,
            connectTimeoutMs: args.connectTimeoutMs, totalTimeoutMs: args.totalTimeoutMs
        ).request()
        let uploader = Uploader(fetcher: fetcher, progressInterval: settings.progressInterval(args.progressIntervalMs))
        let request = UploadRequest(
            url: validated.url, method: validated.method, headers: validated.headers,
            form: try args.form { (path) throws(BridgeError) in try context.requirePath(.read, path) },
            connectTimeout: validated.connectTimeout)
        let report: TransferProgressHandler = { value in try await out.yield(BridgeValue(Self.encode(value))) }
        let progress = args.progress == true ? report : nil
        let response: FetchResponse
        var attempts: Int?
        if let policy = PolicyFetcher(
            fetcher: fetcher, retry: args.retry, totalTimeoutMs: args.totalTimeoutMs, clock: context.clock)
        {
            // Each attempt streams the form (its files) anew; progress starts again from 0.
            (response, attempts) = try await policy.run(method: request.method, url: request.url) {
                try await uploader.upload(request, progress: progress)
            }
        } else {
            response = try await uploader.upload(request, progress: progress)
        }
        var object = head(response, attempts: attempts)
        object["type"] = "result"
        let bytes = addBody(response.body, to: &object)
        try await out.yield(BridgeValue(.object(object), bytes: bytes))
    }

    static func encode(_ progress: TransferProgress) -> JSONValue {
        [
            "type": "progress", "loaded": .number(Double(progress.bytes)),
            "total": progress.total.map { .number(Double($0)) } ?? .null,
        ]
    }
}

/// Where downloads go and how transfers report progress (from the configuration, at set-up).
struct TransferSettings: Sendable {
    var downloadsDirectory: String
    var cleanup: DownloadCleanupPolicy
    var defaultProgressIntervalMs: Int

    init(_ configuration: HTTPPlugin.Configuration, storage: StorageLocation) {
        downloadsDirectory =
            configuration.downloadsDir
            ?? Downloader.defaultDirectory(storageDirectory: storage.directory, appID: storage.appID)
        cleanup = DownloadCleanupPolicy(
            maxAge: configuration.downloadsMaxAgeSeconds.map { .milliseconds(Int64(($0 * 1000).rounded())) },
            maxFiles: configuration.downloadsMaxFiles)
        defaultProgressIntervalMs = configuration.progressIntervalMs ?? 100
    }

    /// The shortest time between progress events: the call's own, else the configured one.
    func progressInterval(_ intervalMs: Int?) -> Duration {
        .milliseconds(max(intervalMs ?? defaultProgressIntervalMs, 0))
    }
}

/// The arguments of `download`.
struct DownloadArguments: Decodable, Sendable {
    var url: String
    var method: String?
    var headers: [[String]]?
    var filename: String?
    var overwrite: Bool?
    /// Whether to send progress values.
    var progress: Bool?
    var progressIntervalMs: Int?
}

/// The arguments of `upload`.
struct UploadArguments: Decodable, Sendable {
    var url: String
    var method: String?
    var headers: [[String]]?
    var fields: [[String]]?
    var files: [FileArgument]?
    /// A body framed by the JavaScript API (js/form-data.js), sent instead of `fields` and `files`.
    var multipart: FramedArgument?
    var progress: Bool?
    var progressIntervalMs: Int?
    /// How long to wait for a connection, in milliseconds.
    var connectTimeoutMs: Int?
    /// The deadline of each attempt (the whole upload and the response), in milliseconds.
    var totalTimeoutMs: Int?
    /// Tries again per the policy (idempotent methods only, unless `methods` says otherwise).
    var retry: RetryPolicy?

    /// One file part: exactly one of `path` (streamed from disk), `text` (UTF-8) or `bytes`.
    struct FileArgument: Decodable, Sendable {
        var name: String
        var path: String?
        var text: String?
        var bytes: Bytes?
        var filename: String?
        var contentType: String?
    }

    /// A framed multipart body: its boundary and its pieces, each exactly one of `text` (UTF-8), `bytes` or
    /// `path` (a file streamed from disk).
    struct FramedArgument: Decodable, Sendable {
        struct Piece: Decodable, Sendable {
            var text: String?
            var bytes: Bytes?
            var path: String?
        }
        var boundary: String
        var pieces: [Piece]
    }

    /// The form; each file part's path goes through `checkPath` (the script's read capability), which gives
    /// the path to open.
    func form(checkPath: (String) throws(BridgeError) -> ResolvedPath) throws(BridgeError) -> MultipartFormData {
        if let multipart {
            guard fields == nil, files == nil else {
                throw BridgeError.invalidArgument(at: "multipart", "replaces fields and files: give one or the other")
            }
            var pieces: [MultipartFormData.Part.Content] = []
            for (index, piece) in multipart.pieces.enumerated() {
                let sources = [piece.text != nil, piece.bytes != nil, piece.path != nil].filter { $0 }.count
                guard sources == 1 else {
                    throw BridgeError.invalidArgument(
                        at: "multipart.pieces[\(index)]", "needs exactly one of text, bytes or path")
                }
                if let text = piece.text {
                    pieces.append(.bytes(Array(text.utf8)))
                } else if let bytes = piece.bytes {
                    pieces.append(.bytes(bytes.withUnsafeBytes { Array($0) }))
                } else if let path = piece.path {
                    guard !path.isEmpty else {
                        throw BridgeError.invalidArgument(at: "multipart.pieces[\(index)].path", "must not be empty")
                    }
                    pieces.append(.file(path: try checkPath(path)))
                }
            }
            return MultipartFormData(boundary: multipart.boundary, framed: pieces)
        }
        var form = MultipartFormData()
        for field in try namedPairs(fields, at: "fields") { form.append(field: field.name, value: field.value) }
        for (index, file) in (files ?? []).enumerated() {
            let sources = [file.path != nil, file.text != nil, file.bytes != nil].filter { $0 }.count
            guard sources == 1 else {
                throw BridgeError.invalidArgument(at: "files[\(index)]", "needs exactly one of path, text or bytes")
            }
            if let path = file.path {
                guard !path.isEmpty else {
                    throw BridgeError.invalidArgument(at: "files[\(index)].path", "must not be empty")
                }
                // The part is named after the path as given; the resolved one is what is opened.
                let opened = try checkPath(path)
                form.append(
                    file: file.name, path: opened,
                    filename: file.filename ?? String(path.split(separator: "/").last ?? Substring(path)),
                    contentType: file.contentType)
            } else if let text = file.text {
                form.append(
                    data: file.name, bytes: Array(text.utf8), filename: file.filename ?? "blob",
                    contentType: file.contentType)
            } else if let bytes = file.bytes {
                form.append(
                    data: file.name, bytes: bytes.withUnsafeBytes { Array($0) }, filename: file.filename ?? "blob",
                    contentType: file.contentType)
            }
        }
        return form
    }
}
