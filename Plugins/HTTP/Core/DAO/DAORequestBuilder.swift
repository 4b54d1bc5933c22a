import Foundation
import JSBridgeBase
import ModelConversion

/// A call's parameters sorted by where they go, by wire name (``DAORequestBuilder/map(_:_:)``).
public struct DAOMappedParameters: Sendable {
    /// Values for the path's `{name}` placeholders, as text.
    public var path: [String: String] = [:]
    /// Header parameters, as text, in declaration order.
    public var headers: [(name: String, value: String)] = []
    /// Wire name → value, for the query and the body (what `didSetUpParams` sees).
    public var parameters: JSONObject = [:]
    /// Placements given explicitly (the others follow the encoding).
    public var placement: [String: ParameterPlacement] = [:]

    public init() {}
}

/// A request as a DAO builds it: a body, or (encoding `multipart`) the body's parts, left for the caller to
/// stream.
public struct DAOBuiltRequest: Sendable {
    public var request: FetchRequest
    /// Encoding `multipart`: the body parameters, arrays not expanded (a part is a field or a file by its value).
    public var parts: [(name: String, value: JSONValue)]?
}

/// The DAO rules between a call's parameters and its request: mapping to wire names and placements, the
/// path's placeholders, the query, and the body per encoding. Swift DAOs (``DAOClient``) and JavaScript ones
/// (the HTTP plugin's `daoRequest`) both build their requests here.
public enum DAORequestBuilder {
    /// Sorts `input` (parameters by their declared names) by placement; a missing required parameter or path
    /// placeholder is an `INVALID_ARGUMENT` ``DAOError`` listing every one (path `params.<name>`).
    public static func map(_ endpoint: DAOEndpoint, _ input: JSONObject) throws(DAOError) -> DAOMappedParameters {
        var mapped = DAOMappedParameters()
        var issues: [ModelIssue] = []
        let pathNames = pathPlaceholders(endpoint.path)
        var declared = Set<String>()
        for parameter in endpoint.parameters {
            declared.insert(parameter.name)
            if parameter.isIgnored { continue }
            guard let value = input[parameter.name].flatMap({ $0 == .null ? nil : $0 }) ?? parameter.defaultValue
            else {
                if parameter.isRequired {
                    issues.append(
                        ModelIssue(path: "params.\(parameter.name)", code: "REQUIRED", message: "is required"))
                }
                continue
            }
            let placement = parameter.placement ?? (pathNames.contains(parameter.wireName) ? .path : nil)
            switch placement {
            case .path: mapped.path[parameter.wireName] = scalar(value)
            case .header: mapped.headers.append((parameter.wireName, scalar(value)))
            case .query, .body, nil:
                mapped.parameters[parameter.wireName] = value
                if let placement { mapped.placement[parameter.wireName] = placement }
            }
        }
        for (name, value) in zip(input.keys, input.values) where !declared.contains(name) && value != .null {
            if pathNames.contains(name) { mapped.path[name] = scalar(value) } else { mapped.parameters[name] = value }
        }
        var reported = Set(issues.map(\.path))
        for name in pathNames where mapped.path[name] == nil && reported.insert("params.\(name)").inserted {
            issues.append(
                ModelIssue(
                    path: "params.\(name)", code: "REQUIRED", message: "is required by the path '\(endpoint.path)'"))
        }
        guard issues.isEmpty else {
            throw DAOError(
                domain: .request, code: "INVALID_ARGUMENT",
                message: "invalid parameters: " + issues.map { "\($0.path) \($0.message)" }.joined(separator: "; "),
                issues: issues)
        }
        return mapped
    }

    /// The request of `mapped` (after `didSetUpParams`, its `parameters` may have changed) with `headers`
    /// (the endpoint's after `setUpHeaders`; header parameters replace fields of the same name).
    public static func request(_ endpoint: DAOEndpoint, _ mapped: DAOMappedParameters, headers: [HTTPField])
        -> DAOBuiltRequest
    {
        var path = endpoint.path
        for (name, value) in mapped.path {
            path = path.replacingOccurrences(of: "{\(name)}", with: percentEncode(value, plusForSpace: false))
        }
        var url = join(endpoint.baseURL, path)
        let method = endpoint.method
        let encoding = endpoint.encoding ?? (["GET", "HEAD", "DELETE"].contains(method) ? .query : .json)
        var query: [(String, JSONValue)] = []
        var body: [(String, JSONValue)] = []
        for (name, value) in zip(mapped.parameters.keys, mapped.parameters.values) {
            let placement = mapped.placement[name] ?? (encoding == .query ? .query : .body)
            if placement == .query { query.append((name, value)) } else { body.append((name, value)) }
        }
        let queryText = formEncode(query)
        if !queryText.isEmpty { url += (url.contains("?") ? "&" : "?") + queryText }
        var headers = headers
        for (name, value) in mapped.headers {
            headers.removeAll { $0.name.lowercased() == name.lowercased() }
            headers.append(HTTPField(name, value))
        }
        var bytes: [UInt8]?
        var parts: [(name: String, value: JSONValue)]?
        if encoding == .multipart {
            parts = body.map { (name: $0.0, value: $0.1) }
        } else if !body.isEmpty {
            let contentType: String
            if encoding == .form {
                bytes = Array(formEncode(body).utf8)
                contentType = "application/x-www-form-urlencoded;charset=UTF-8"
            } else {
                bytes = JSONValue.object(JSONObject(body)).serializedUTF8()
                contentType = "application/json"
            }
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                headers.append(HTTPField("content-type", contentType))
            }
        }
        let request = FetchRequest(
            method: method, url: url, headers: headers, body: bytes, connectTimeout: endpoint.connectTimeout)
        return DAOBuiltRequest(request: request, parts: parts)
    }

    /// The names of the path's `{name}` placeholders, in order.
    public static func pathPlaceholders(_ path: String) -> [String] {
        var names: [String] = []
        var rest = path[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// `path` after `base` with one `/` between them; a path with a scheme stands alone.
    static func join(_ base: String, _ path: String) -> String {
        if hasScheme(path) || base.isEmpty { return path }
        if path.isEmpty { return base }
        var base = base[...]
        while base.hasSuffix("/") { base = base.dropLast() }
        var path = path[...]
        while path.hasPrefix("/") { path = path.dropFirst() }
        return "\(base)/\(path)"
    }

    /// Whether `text` starts with a URL scheme (`letter (letter | digit | + | - | .)* :`).
    private static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")), colon != text.utf8.startIndex else {
            return false
        }
        let scheme = text.utf8[..<colon]
        func isLetter(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        }
        return isLetter(scheme.first!)
            && scheme.allSatisfy {
                isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            }
    }

    /// Text for a scalar parameter: strings as they are, numbers as JavaScript prints them, containers as JSON.
    public static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .null: ""
        case .number, .array, .object: value.serialized()
        }
    }

    /// `application/x-www-form-urlencoded` pairs; arrays repeat their key.
    static func formEncode(_ pairs: [(String, JSONValue)]) -> String {
        var parts: [String] = []
        for (name, value) in pairs {
            let values: [JSONValue] = if case .array(let items) = value { items } else { [value] }
            for item in values {
                parts.append(
                    percentEncode(name, plusForSpace: true) + "=" + percentEncode(scalar(item), plusForSpace: true))
            }
        }
        return parts.joined(separator: "&")
    }

    /// Percent-encodes everything but ASCII letters, digits and `*-._` (and `~` in paths); spaces become
    /// `+` in forms, `%20` in paths — as URLSearchParams and encodeURIComponent do.
    static func percentEncode(_ text: String, plusForSpace: Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "*") where plusForSpace, UInt8(ascii: "~") where !plusForSpace:
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " ") where plusForSpace:
                out += "+"
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += hex.count == 1 ? "%0" + hex : "%" + hex
            }
        }
        return out
    }
}

extension HTTPCacheOptions {
    /// A DAO call's cache options, or nil when the call does not use the cache: with mode `none`, only an
    /// unsafe request goes through it (to drop the stored entries of its URL). The wire parameters are part
    /// of the default key.
    public static func dao(
        mode: HTTPCacheMode, interval: Duration?, key: String? = nil, method: String, parameters: JSONObject
    ) -> HTTPCacheOptions? {
        let safe = HTTPCachePolicy.safeMethods
        guard mode != .none || !(safe.contains(method) || safe.contains(method.uppercased())) else { return nil }
        return HTTPCacheOptions(
            mode: mode, interval: interval, key: key,
            parameters: zip(parameters.keys, parameters.values).map {
                (name: $0.0, value: DAORequestBuilder.scalar($0.1))
            })
    }
}
