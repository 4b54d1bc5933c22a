import JSBridgeBase

/// One problem found while converting a value: where, what kind, a readable message and the offending input.
public struct ModelIssue: Sendable, Hashable, CustomStringConvertible {
    /// The path of the value in the *input*, e.g. `rooms[2].price` (empty for the root).
    public var path: String
    /// A stable code (see ``ModelIssue/Code``).
    public var code: String
    /// What is wrong, for people.
    public var message: String
    /// The offending input value, when there is one (absent for a missing key).
    public var input: JSONValue?

    public init(path: String, code: String, message: String, input: JSONValue? = nil) {
        self.path = path
        self.code = code
        self.message = message
        self.input = input
    }

    public var description: String { (path.isEmpty ? "" : "\(path): ") + message }

    /// The issue as `{path, code, message, input}` (the form scripts see in `error.data.issues`).
    public var json: JSONValue {
        var object: JSONObject = ["path": .string(path), "code": .string(code), "message": .string(message)]
        if let input { object["input"] = input }
        return .object(object)
    }

    /// The issue codes.
    public enum Code {
        /// A required key is missing.
        public static let required = "REQUIRED"
        /// `null` (or a null-like string) where a value is required.
        public static let null = "NULL"
        /// The value has a type that does not convert (e.g. an object for a string field).
        public static let type = "TYPE"
        /// A number with a fraction where an integer is expected.
        public static let notInteger = "NOT_INTEGER"
        /// An integer beyond ±(2^53 − 1), or a number outside the field's range.
        public static let range = "OUT_OF_RANGE"
        /// NaN or an infinity (as a string, e.g. `"NaN"`, `"Infinity"`).
        public static let notFinite = "NOT_FINITE"
        /// A value outside the field's enumeration (scope).
        public static let notInEnum = "NOT_IN_ENUM"
        /// A string that is not a date in any accepted format.
        public static let date = "DATE_FORMAT"
        /// A string that is not a URL.
        public static let url = "URL_FORMAT"
        /// A nested model name that is not defined.
        public static let unknownModel = "UNKNOWN_MODEL"
        /// The discriminator value names no model.
        public static let unknownDiscriminator = "UNKNOWN_DISCRIMINATOR"
        /// The input nests deeper than ``ConversionOptions/maxDepth``.
        public static let tooDeep = "TOO_DEEP"
        /// The input bytes are not valid JSON.
        public static let parse = "JSON_PARSE"
        /// The input bytes are not valid UTF-8, or contain an escaped lone surrogate.
        public static let unicode = "INVALID_UNICODE"
        /// A custom check (transform or validator) rejected the value.
        public static let custom = "CUSTOM"
        /// More issues were found than ``ConversionOptions/maxIssues``; the rest were not collected.
        public static let tooMany = "TOO_MANY_ISSUES"
    }
}

/// A conversion that failed: every issue found (up to ``ConversionOptions/maxIssues``).
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The model that was being converted.
    public var model: String
    /// All issues, in input order.
    public var issues: [ModelIssue]

    public init(model: String, issues: [ModelIssue]) {
        self.model = model
        self.issues = issues
    }

    public var description: String {
        let first = issues.first.map { $0.description } ?? "unknown problem"
        let more = issues.count > 1 ? " (and \(issues.count - 1) more)" : ""
        return "Invalid \(model): \(first)\(more)"
    }
}

/// A problem with a schema definition itself (an unknown type name, a bad option, a conflicting redefinition).
public struct SchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `UNKNOWN_TYPE`, `INVALID_SCHEMA`, `REDEFINITION` or `UNKNOWN_MODEL`.
    public var code: String
    public var message: String
    /// Where in the schema (e.g. `fields.rooms.type`).
    public var path: String

    public init(code: String, message: String, path: String = "") {
        self.code = code
        self.message = message
        self.path = path
    }

    public var description: String { message }
}

/// A step of a path into the input.
public enum PathComponent: Sendable, Hashable {
    case key(String)
    case index(Int)
}

extension [PathComponent] {
    /// `rooms[2].price`, `["odd key"]`, `ext.desc`.
    public var pathString: String {
        var out = ""
        for component in self {
            switch component {
            case .index(let i): out += "[\(i)]"
            case .key(let k):
                if isIdentifierLike(k) {
                    if !out.isEmpty { out += "." }
                    out += k
                } else {
                    out += "[" + JSONValue.string(k).serialized() + "]"
                }
            }
        }
        return out
    }
}

private func isIdentifierLike(_ key: String) -> Bool {
    guard let first = key.utf8.first, !(0x30...0x39).contains(first) else { return false }
    for byte in key.utf8 {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x24, 0x2E: continue  // dotted key paths stay readable
        default: return false
        }
    }
    return true
}
