import JSBridgeBase

/// The type of a field.
public indirect enum FieldType: Sendable, Hashable, CustomStringConvertible {
    case string, int, double, bool, date, url
    /// Any JSON value, kept as it is (YYModel's `id`, pydantic's `Any`).
    case any
    /// A nested model, by name (model names start with an uppercase letter).
    case model(String)
    case array(FieldType)
    /// An array without duplicates (duplicates in the input are dropped, first one kept).
    case set(FieldType)
    /// A JSON object with string keys and values of one type.
    case map(FieldType)
    /// `null` (or missing, or a null-like string when lenient) is allowed and converts to `null`.
    case optional(FieldType)

    /// The type names a schema may use.
    public static let builtInNames: [String: FieldType] = [
        "string": .string, "int": .int, "integer": .int, "double": .double, "number": .double, "float": .double,
        "bool": .bool, "boolean": .bool, "date": .date, "url": .url, "any": .any, "raw": .any, "json": .any,
    ]

    /// Parses a type name: `string`, `int`, …, `Room` (a model), `[T]` / `T[]` (array), `Set<T>`,
    /// `Map<T>` / `{T}` (string-keyed map), `T?` (optional).
    public static func parse(_ text: String) throws(SchemaError) -> FieldType {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("?") { return .optional(try parse(String(t.dropLast()))) }
        if t.hasSuffix("[]") { return .array(try parse(String(t.dropLast(2)))) }
        if t.hasPrefix("[") && t.hasSuffix("]") { return .array(try parse(String(t.dropFirst().dropLast()))) }
        if t.hasPrefix("{") && t.hasSuffix("}") { return .map(try parse(String(t.dropFirst().dropLast()))) }
        for (prefix, make) in [("Set<", FieldType.set), ("Map<", FieldType.map), ("Array<", FieldType.array)]
        where t.hasPrefix(prefix) && t.hasSuffix(">") {
            return make(try parse(String(t.dropFirst(prefix.count).dropLast())))
        }
        if let builtIn = builtInNames[t] { return builtIn }
        if let first = t.unicodeScalars.first, first.properties.isUppercase,
            t.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" })
        {
            return .model(t)
        }
        let known = builtInNames.keys.sorted().joined(separator: ", ")
        throw SchemaError(
            code: "UNKNOWN_TYPE",
            message:
                "Unknown type '\(text)'. Built-in types: \(known); arrays [T], sets Set<T>, maps {T}, optional T?; "
                + "a model name starts with an uppercase letter.")
    }

    public var description: String {
        switch self {
        case .string: "string"
        case .int: "int"
        case .double: "double"
        case .bool: "bool"
        case .date: "date"
        case .url: "url"
        case .any: "any"
        case .model(let name): name
        case .array(let t): "[\(t)]"
        case .set(let t): "Set<\(t)>"
        case .map(let t): "{\(t)}"
        case .optional(let t): "\(t)?"
        }
    }

    /// Whether null is allowed.
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// Every model name the type refers to.
    var modelNames: [String] {
        switch self {
        case .model(let n): [n]
        case .array(let t), .set(let t), .map(let t), .optional(let t): t.modelNames
        default: []
        }
    }
}

/// One field of a model.
public struct FieldSchema: Sendable, Hashable {
    public var name: String
    public var type: FieldType
    /// Candidate JSON keys, in order (dotted key paths like `ext.desc` allowed). Empty: from the name
    /// and the model's key strategy. The first key present with a non-null value wins; the first key is
    /// the one written back.
    public var keys: [String]
    /// `nil`: required unless the type is optional or a default is given (HAccess's rule).
    public var required: Bool?
    /// The value used when the key is missing or null (and for invalid values under the `default` policy).
    public var defaultValue: JSONValue?
    /// The allowed values (HAccess `HPScope`), compared after conversion.
    public var oneOf: [JSONValue]?
    /// Numeric range (for numbers: the value; for strings, arrays, sets and maps: the count).
    public var minimum: Double?
    public var maximum: Double?
    /// Overrides the model's invalid-value policy.
    public var onInvalid: InvalidPolicy?
    /// Overrides the conversion's strictness for this field.
    public var strict: Bool?

    public init(
        _ name: String, _ type: FieldType, keys: [String] = [], required: Bool? = nil, defaultValue: JSONValue? = nil,
        oneOf: [JSONValue]? = nil, minimum: Double? = nil, maximum: Double? = nil, onInvalid: InvalidPolicy? = nil,
        strict: Bool? = nil
    ) {
        self.name = name
        self.type = type
        self.keys = keys
        self.required = required
        self.defaultValue = defaultValue
        self.oneOf = oneOf
        self.minimum = minimum
        self.maximum = maximum
        self.onInvalid = onInvalid
        self.strict = strict
    }

    /// Whether a missing key (or null) is an issue.
    public var isRequired: Bool { required ?? (!type.isOptional && defaultValue == nil) }
}

/// Polymorphism by a discriminator field (HAccess `HPDivideType`): the value of `key` in the input picks the model.
public struct Discriminator: Sendable, Hashable {
    /// The JSON key holding the discriminator.
    public var key: String
    /// Discriminator value → model name.
    public var mapping: [String: String]

    public init(key: String, mapping: [String: String]) {
        self.key = key
        self.mapping = mapping
    }
}

/// A model: a name and its fields, with model-wide options.
public struct ModelSchema: Sendable, Hashable {
    public var name: String
    public var fields: [FieldSchema]
    /// Overrides the conversion's strictness for the whole model.
    public var strict: Bool?
    public var keyStrategy: KeyStrategy
    public var onInvalid: InvalidPolicy
    /// Only these fields are converted (YYModel's whitelist); `nil` = all.
    public var only: [String]?
    /// These fields are skipped (YYModel's blacklist / ignore).
    public var ignore: [String]
    public var discriminator: Discriminator?

    public init(
        name: String, fields: [FieldSchema], strict: Bool? = nil, keyStrategy: KeyStrategy = .none,
        onInvalid: InvalidPolicy = .fail, only: [String]? = nil, ignore: [String] = [],
        discriminator: Discriminator? = nil
    ) {
        self.name = name
        self.fields = fields
        self.strict = strict
        self.keyStrategy = keyStrategy
        self.onInvalid = onInvalid
        self.only = only
        self.ignore = ignore
        self.discriminator = discriminator
    }

    /// The fields that take part in conversion (whitelist and blacklist applied).
    public var activeFields: [FieldSchema] {
        fields.filter { f in !ignore.contains(f.name) && (only?.contains(f.name) ?? true) }
    }

    /// The candidate keys of a field: its own, or derived from its name with the key strategy.
    public func keys(of field: FieldSchema) -> [String] {
        if !field.keys.isEmpty { return field.keys }
        switch keyStrategy {
        case .none: return [field.name]
        case .snakeCase:
            let snake = snakeCase(field.name)
            return snake == field.name ? [snake] : [snake, field.name]
        }
    }
}

/// `avatarURL` → `avatar_url`, `userID` → `user_id`, `htmlURLString` → `html_url_string`.
public func snakeCase(_ name: String) -> String {
    let chars = Array(name)
    var out = ""
    for (i, c) in chars.enumerated() {
        if c.isUppercase {
            let prevLower = i > 0 && (chars[i - 1].isLowercase || chars[i - 1].isNumber)
            let nextLower = i + 1 < chars.count && chars[i + 1].isLowercase && i > 0 && chars[i - 1].isUppercase
            if i > 0 && (prevLower || nextLower) { out.append("_") }
            out += c.lowercased()
        } else {
            out.append(c)
        }
    }
    return out
}

/// `avatar_url` → `avatarUrl`.
public func camelCase(_ key: String) -> String {
    var out = ""
    var upper = false
    for c in key {
        if c == "_" && !out.isEmpty {
            upper = true
        } else {
            out += upper ? c.uppercased() : String(c)
            upper = false
        }
    }
    return out
}

/// How a model's key reads its input, for every conversion path (schema engine, typed mappings).
@usableFromInline
enum ModelKey {
    /// The key's path: a key with dots is a key path (`"ext.desc"`), unless a segment would be empty
    /// (`".ext"`, `"a..b"`, `"a."`): such a key is literal, read and written as it is.
    @usableFromInline
    static func path(_ key: String) -> [String] {
        guard key.contains(".") else { return [key] }
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        return parts.contains(where: \.isEmpty) ? [key] : parts.map(String.init)
    }
}
