import Foundation
import JSBridgeBase

/// Failures of downloads and uploads that are not HTTP failures: local files and bad input (no bridge types
/// inside; the plugin maps them to codes).
public enum TransferError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file to upload does not exist (or is not a regular file).
    case fileNotFound(path: String)
    /// A local file operation failed: `operation` is `open`, `read`, `write`, `close`, `rename`, `stat` or
    /// `mkdir`; `message` is the system's reason.
    case fileError(path: String, operation: String, message: String)
    /// A file being uploaded changed size after the body's length was computed.
    case fileChanged(path: String, expected: Int64)
    /// The request cannot be built (a bad field name, boundary, or file name).
    case invalid(String)

    public var description: String {
        switch self {
        case .fileNotFound(let path): "No such file: '\(path)'."
        case .fileError(let path, let operation, let message): "Cannot \(operation) '\(path)': \(message)."
        case .fileChanged(let path, let expected):
            "The file '\(path)' changed while it was uploaded (expected \(expected) bytes)."
        case .invalid(let message): message
        }
    }

    /// A `fileError` for the current `errno`.
    static func posix(_ operation: String, _ path: String, errno code: Int32 = errno) -> TransferError {
        .fileError(path: path, operation: operation, message: String(cString: strerror(code)))
    }
}

/// The error as JavaScript sees it: its stable code, with details in `data`.
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
