import Foundation
import JSBridgeCore

/// The HTTP plugin's transfer actions (js/http-transfer.js; docs/http.md, "Downloads and uploads"):
///
/// - stream `download` — `{url, method?, headers?: [[name, value]], filename?, overwrite?, progress?,
///   progressIntervalMs?}`; yields `{type: "progress", loaded, total}` (only with `progress: true`) and
///   finally `{type: "result", filePath, mimeType, length, suggestedFilename}`.
/// - stream `upload` — `{url, method?, headers?, fields?: [[name, value]], files?: [{name, path | text |
///   base64, filename?, contentType?}], progress?, progressIntervalMs?, connectTimeoutMs?, totalTimeoutMs?,
///   retry?}`; yields progress values and finally `{type: "result", status, statusText, headers, url,
///   redirected, body | bodyBase64, attempts?}` (as `request`).
///
/// Cancelling either stream stops the transfer; a cancelled or failed download leaves no file.
extension HTTPPlugin {
    /// The transfer keys of the `"HTTP"` configuration section.
    public struct TransferConfiguration: Decodable, Sendable {
        /// The downloads folder (default `<storage dir>/downloads/<app id>`).
        public var downloadsDir: String?
        /// When a download starts, remove downloads older than this many seconds (default: keep).
        public var downloadsMaxAgeSeconds: Double?
        /// When a download starts, remove the oldest downloads so that at most this many remain once it is
        /// in (default: no limit).
        public var downloadsMaxFiles: Int?
        /// The shortest time between two progress events, in milliseconds (default 100).
        public var progressIntervalMs: Int?
    }

    /// Problems in the transfer keys of the configuration (checked in `setUp`).
    static func transferConfigurationIssues(_ context: PluginContext) throws(BridgeError) -> [ArgumentIssue] {
        let configuration = try context.configuration(as: TransferConfiguration.self)
        var issues: [ArgumentIssue] = []
        if let value = configuration.downloadsDir, value.isEmpty {
            issues.append(ArgumentIssue(path: "downloadsDir", message: "must not be empty"))
        }
        if let value = configuration.downloadsMaxAgeSeconds, !(value >= 0) {
            issues.append(ArgumentIssue(path: "downloadsMaxAgeSeconds", message: "must not be negative, got \(value)"))
        }
        if let value = configuration.downloadsMaxFiles, value < 1 {
            issues.append(ArgumentIssue(path: "downloadsMaxFiles", message: "must be at least 1, got \(value)"))
        }
        if let value = configuration.progressIntervalMs, value < 0 {
            issues.append(ArgumentIssue(path: "progressIntervalMs", message: "must not be negative, got \(value)"))
        }
        return issues
    }

    /// Declares `download` and `upload` (called from ``actions(_:)``).
    static func transferActions(_ a: inout ActionTable, transport: any HTTPTransport) {
        a.stream("download", args: DownloadArguments.self, of: JSONValue.self) { context, args, out in
            try await download(context: context, args: args, out: out, transport: transport)
        }
        a.stream("upload", args: UploadArguments.self, of: JSONValue.self) { context, args, out in
            try await upload(context: context, args: args, out: out, transport: transport)
        }
    }

    static func download(
        context: PluginContext, args: DownloadArguments, out: StreamWriter<JSONValue>, transport: any HTTPTransport
    ) async throws {
        let settings = try TransferSettings(context, transport: transport, intervalMs: args.progressIntervalMs)
        let validated = try RequestArguments(url: args.url, method: args.method, headers: args.headers).request()
        let downloader = Downloader(
            fetcher: settings.fetcher, directory: settings.downloadsDirectory, cleanup: settings.cleanup,
            progressInterval: settings.progressInterval)
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

    static func upload(
        context: PluginContext, args: UploadArguments, out: StreamWriter<JSONValue>, transport: any HTTPTransport
    ) async throws {
        let settings = try TransferSettings(context, transport: transport, intervalMs: args.progressIntervalMs)
        let validated = try RequestArguments(
            url: args.url, method: args.method ?? "POST", headers: args.headers,
            connectTimeoutMs: args.connectTimeoutMs, totalTimeoutMs: args.totalTimeoutMs
        ).request()
        let uploader = Uploader(fetcher: settings.fetcher, progressInterval: settings.progressInterval)
        let request = UploadRequest(
            url: validated.url, method: validated.method, headers: validated.headers, form: try args.form(),
            connectTimeout: validated.connectTimeout)
        let report: TransferProgressHandler = { value in try await out.yield(Self.encode(value)) }
        let progress = args.progress == true ? report : nil
        let response: FetchResponse
        var attempts: Int?
        if let policy = PolicyFetcher(
            fetcher: settings.fetcher, retry: args.retry, totalTimeoutMs: args.totalTimeoutMs, clock: context.clock)
        {
            // Each attempt streams the form (its files) anew; progress starts again from 0.
            (response, attempts) = try await policy.run(method: request.method, url: request.url) {
                try await uploader.upload(request, progress: progress)
            }
        } else {
            response = try await uploader.upload(request, progress: progress)
        }
        guard case .object(var object) = Self.encode(response, attempts: attempts) else { return }
        object["type"] = "result"
        try await out.yield(.object(object))
    }

    static func encode(_ progress: TransferProgress) -> JSONValue {
        [
            "type": "progress", "loaded": .number(Double(progress.bytes)),
            "total": progress.total.map { .number(Double($0)) } ?? .null,
        ]
    }
}

/// The configuration a transfer runs with.
private struct TransferSettings {
    var fetcher: Fetcher
    var downloadsDirectory: String
    var cleanup: DownloadCleanupPolicy
    var progressInterval: Duration

    init(_ context: PluginContext, transport: any HTTPTransport, intervalMs: Int?) throws(BridgeError) {
        let configuration = try context.configuration(as: HTTPPlugin.Configuration.self)
        let transfer = try context.configuration(as: HTTPPlugin.TransferConfiguration.self)
        fetcher = Fetcher(
            transport: transport, timeout: .milliseconds(configuration.timeoutMs ?? 300_000),
            maxRedirects: configuration.maxRedirects ?? 20, maxBodyBytes: configuration.maxBodyBytes ?? (256 << 20),
            authorize: { host, port in try context.require(.net(host: host, port: port)) })
        downloadsDirectory =
            transfer.downloadsDir
            ?? Downloader.defaultDirectory(storageDirectory: context.storage.directory, appID: context.storage.appID)
        cleanup = DownloadCleanupPolicy(
            maxAge: transfer.downloadsMaxAgeSeconds.map { .milliseconds(Int64(($0 * 1000).rounded())) },
            maxFiles: transfer.downloadsMaxFiles)
        progressInterval = .milliseconds(max(intervalMs ?? transfer.progressIntervalMs ?? 100, 0))
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
    var progress: Bool?
    var progressIntervalMs: Int?
    /// How long to wait for a connection, in milliseconds.
    var connectTimeoutMs: Int?
    /// The deadline of each attempt (the whole upload and the response), in milliseconds.
    var totalTimeoutMs: Int?
    /// Tries again per the policy (idempotent methods only, unless `methods` says otherwise).
    var retry: RetryPolicy?

    /// One file part: exactly one of `path` (streamed from disk), `text` (UTF-8) or `base64`.
    struct FileArgument: Decodable, Sendable {
        var name: String
        var path: String?
        var text: String?
        var base64: String?
        var filename: String?
        var contentType: String?
    }

    func form() throws(BridgeError) -> MultipartFormData {
        var form = MultipartFormData()
        for field in try namedPairs(fields, at: "fields") { form.append(field: field.name, value: field.value) }
        for (index, file) in (files ?? []).enumerated() {
            let sources = [file.path != nil, file.text != nil, file.base64 != nil].filter { $0 }.count
            guard sources == 1 else {
                throw BridgeError.invalidArgument(at: "files[\(index)]", "needs exactly one of path, text or base64")
            }
            if let path = file.path {
                guard !path.isEmpty else {
                    throw BridgeError.invalidArgument(at: "files[\(index)].path", "must not be empty")
                }
                form.append(file: file.name, path: path, filename: file.filename, contentType: file.contentType)
            } else if let text = file.text {
                form.append(
                    data: file.name, bytes: Array(text.utf8), filename: file.filename ?? "blob",
                    contentType: file.contentType)
            } else if let base64 = file.base64 {
                guard let data = Data(base64Encoded: base64) else {
                    throw BridgeError.invalidArgument(at: "files[\(index)].base64", "is not base64")
                }
                form.append(
                    data: file.name, bytes: Array(data), filename: file.filename ?? "blob",
                    contentType: file.contentType)
            }
        }
        return form
    }
}

extension TransferError: BridgeErrorConvertible {
    public var bridgeError: BridgeError {
        switch self {
        case .fileNotFound(let path):
            BridgeError(code: "FILE_NOT_FOUND", message: description, data: ["path": .string(path)])
        case .fileError(let path, let operation, let message):
            BridgeError(
                code: "FILE_ERROR", message: description,
                data: ["path": .string(path), "operation": .string(operation), "reason": .string(message)])
        case .fileChanged(let path, let expected):
            BridgeError(
                code: "FILE_ERROR", message: description,
                data: [
                    "path": .string(path), "operation": "read", "reason": "the file changed while it was uploaded",
                    "expected": .number(Double(expected)),
                ])
        case .invalid(let message):
            BridgeError.invalidArgument(message)
        }
    }
}
