/// Reads an action's arguments straight from their JSON tree, for actions on a hot path where `Decodable`
/// costs too much (a small argument struct takes microseconds through the decoder, a fraction of that here).
///
/// Failures are `INVALID_ARGUMENT` with the same paths and messages as the decoder's. Members not asked for
/// are ignored, and `null` reads as absent, as with `decodeIfPresent`.
///
/// ```swift
/// a.async("get", args: JSONValue.self) { context, json in
///     let reader = try ArgumentReader(json)
///     let url = try reader.requiredString("url")
///     let retries = try reader.int("retries") ?? 0
///     …
/// }
/// ```
public struct ArgumentReader: Sendable {
    /// The members read.
    public let object: JSONObject
    /// Where the object is, in JavaScript notation (`""` for the arguments themselves).
    public let path: String

    /// Reads the object `value`; `null` at the root (a call without arguments) reads as `{}`.
    public init(_ value: JSONValue, at path: String = "") throws(BridgeError) {
        switch value {
        case .object(let object): self.object = object
        case .null where path.isEmpty: self.object = JSONObject()
        default: throw BridgeError.invalidArgument(at: path, "expected an object, got \(value.kindDescription)")
        }
        self.path = path
    }

    /// The path of member `key`: `headers`, `retry.count`, `["first name"]`.
    public func path(of key: String) -> String {
        let member = ArgumentIssue.javaScriptPath([JSONCodingKey(stringValue: key)])
        if path.isEmpty { return member }
        return member.hasPrefix("[") ? path + member : path + "." + member
    }

    /// Member `key`, or nil when it is absent or `null`.
    public func value(_ key: String) -> JSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    /// The string `key`, or nil when absent.
    public func string(_ key: String) throws(BridgeError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let string) = value else { throw mismatch(key, expected: "a string", got: value) }
        return string
    }

    /// The string `key`; its absence (or `null`) is an issue.
    public func requiredString(_ key: String) throws(BridgeError) -> String {
        guard let value = object[key] else { throw missing(key) }
        guard case .string(let string) = value else { throw mismatch(key, expected: "a string", got: value) }
        return string
    }

    /// The boolean `key`, or nil when absent.
    public func bool(_ key: String) throws(BridgeError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw mismatch(key, expected: "a boolean", got: value) }
        return flag
    }

    /// The integer `key` (a number without a fraction, within ±2^53), or nil when absent.
    public func int(_ key: String) throws(BridgeError) -> Int? {
        guard let value = value(key) else { return nil }
        do {
            return try JSONUnbox.integer(value, Int.self, { [] })
        } catch let error as DecodingError {
            throw issue(key, error.issues.first?.message ?? "expected an integer")
        } catch {
            throw issue(key, "expected an integer")
        }
    }

    /// The array `key`, or nil when absent.
    public func array(_ key: String) throws(BridgeError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw mismatch(key, expected: "an array", got: value) }
        return elements
    }

    /// Member `key` through the decoder (for the rarer, nested parts of the arguments), or nil when absent;
    /// issues carry the member's path.
    public func decode<T: Decodable>(_ type: T.Type, _ key: String) throws(BridgeError) -> T? {
        guard let value = value(key) else { return nil }
        do {
            return try JSONValueDecoder().decode(T.self, from: value)
        } catch let error as DecodingError {
            let base = path(of: key)
            let issues = error.issues.map { issue in
                let path =
                    issue.path.isEmpty ? base : issue.path.hasPrefix("[") ? base + issue.path : base + "." + issue.path
                return ArgumentIssue(path: path, message: issue.message)
            }
            let first = issues.first.map { "at '\($0.path)': \($0.message)" } ?? "at '\(base)'"
            throw BridgeError.invalidArgument("Invalid arguments: \(first)", issues: issues)
        } catch {
            throw issue(key, "\(error)")
        }
    }

    /// An `INVALID_ARGUMENT` error about member `key`.
    public func issue(_ key: String, _ message: String) -> BridgeError {
        BridgeError.invalidArgument(at: path(of: key), message)
    }

    private func mismatch(_ key: String, expected: String, got value: JSONValue) -> BridgeError {
        issue(key, "expected \(expected), got \(value.kindDescription)")
    }

    private func missing(_ key: String) -> BridgeError {
        issue(key, "missing required key \(JSONValue.string(key).serialized())")
    }
}
