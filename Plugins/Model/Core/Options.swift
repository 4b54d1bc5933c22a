import JSBridgeBase

/// What to do with a value that does not convert.
public enum InvalidPolicy: String, Sendable, Hashable {
    /// Report an issue; the conversion fails (the default).
    case fail
    /// Use the field's default (or `null` / the Swift property's initial value when it has none) and report
    /// the issue as a warning instead. Never turns a bad value into `0`.
    case useDefault = "default"
}

/// How field names map to JSON keys when a field lists no keys of its own.
public enum KeyStrategy: String, Sendable, Hashable {
    /// The JSON key is the field name.
    case none
    /// `avatarURL` ⇄ `avatar_url`: the snake_case key is tried first (and written), then the field name.
    case snakeCase = "snake_case"
}

/// Options of one conversion.
public struct ConversionOptions: Sendable, Hashable {
    /// No coercion: only values of the exact JSON type convert (see docs/model-conversion.md).
    public var strict: Bool
    /// Strings treated as `null` in lenient mode (compared exactly).
    public var nullLikes: Set<String> {
        didSet { usesDefaultNullLikes = nullLikes == ConversionOptions.defaultNullLikes }
    }
    /// Whether ``nullLikes`` is the default list (checked without hashing).
    public private(set) var usesDefaultNullLikes = true
    /// The deepest nesting of models and containers converted; deeper input is a `TOO_DEEP` issue.
    public var maxDepth: Int
    /// Issues collected before giving up (`TOO_MANY_ISSUES` is added last).
    public var maxIssues: Int

    /// ``maxDepth`` when a call does not set it.
    public static let defaultMaxDepth = 200
    /// The largest ``maxDepth`` a call may ask for.
    public static let maxDepthLimit = 500

    /// IPHBaseModel's null-like strings (each of its case variants of `null`, `(null)` and `<null>`), and the
    /// `nil` and `undefined` spellings other Objective-C and JavaScript back ends send.
    public static let defaultNullLikes: Set<String> = [
        "null", "NULL", "Null", "<null>", "<NULL>", "<Null>", "(null)", "(NULL)", "(Null)", "nil", "<nil>", "(nil)",
        "NIL", "Nil", "undefined",
    ]

    public init(
        strict: Bool = false, nullLikes: Set<String> = ConversionOptions.defaultNullLikes,
        maxDepth: Int = ConversionOptions.defaultMaxDepth,
        maxIssues: Int = 1000
    ) {
        self.strict = strict
        self.nullLikes = nullLikes
        self.usesDefaultNullLikes = nullLikes == ConversionOptions.defaultNullLikes
        self.maxDepth = maxDepth
        self.maxIssues = maxIssues
    }

    public static let lenient = ConversionOptions()
    public static let strictMode = ConversionOptions(strict: true)
}

/// The state of one conversion: options, the current path, the issues found.
public struct ConversionContext {
    /// Whether one more level of nesting is allowed; records a `TOO_DEEP` issue when it is not.
    @inlinable
    public mutating func checkDepth() -> Bool {
        guard depth >= options.maxDepth else { return true }
        fail(ModelIssue.Code.tooDeep, "nesting deeper than \(options.maxDepth) levels", input: nil)
        return false
    }

    public let options: ConversionOptions
    /// Writing back a model's canonical form (``ModelRegistry/canonicalJSON(_:_:)``): null fields left out, set
    /// items ordered and each once.
    public var canonical = false
    /// Issues that make the conversion fail.
    public var issues: [ModelIssue] = []
    /// Issues turned into defaults by an ``InvalidPolicy/useDefault`` policy.
    public var warnings: [ModelIssue] = []
    /// The path of the value being converted.
    public var path: [PathComponent] {
        get {
            guard let pendingKey else { return storedPath }
            var p = storedPath
            p.append(.key(pendingKey))
            return p
        }
        _modify {
            materializePendingKey()
            yield &storedPath
        }
        set {
            pendingKey = nil
            storedPath = newValue
        }
    }
    /// The path without ``pendingKey``.
    @usableFromInline var storedPath: [PathComponent] = []
    /// The last key of the path, kept out of ``storedPath`` until something needs the whole path (typed models push
    /// one key per field; most fields convert without reading the path, so this saves an array append and removal).
    @usableFromInline var pendingKey: String?

    @inlinable
    mutating func materializePendingKey() {
        if let key = pendingKey {
            pendingKey = nil
            storedPath.append(.key(key))
        }
    }

    /// Appends `key` to the path (lazily).
    @inlinable
    mutating func pushKey(_ key: String) {
        if pendingKey != nil { materializePendingKey() }
        pendingKey = key
    }

    /// Removes the last path component pushed with ``pushKey(_:)``.
    @inlinable
    mutating func popKey() {
        if pendingKey != nil {
            pendingKey = nil
        } else {
            storedPath.removeLast()
        }
    }
    /// The current nesting depth.
    public var depth = 0
    public var strict: Bool
    /// Whether the null-like list is the default one (a faster check).
    @usableFromInline let defaultNulls: Bool

    public init(options: ConversionOptions = .lenient) {
        self.options = options
        self.strict = options.strict
        self.defaultNulls = options.usesDefaultNullLikes
    }

    /// Records an issue at the current path (plus `key`, when given).
    public mutating func fail(_ code: String, _ message: String, input: JSONValue?, key: String? = nil) {
        guard issues.count <= options.maxIssues else { return }
        if issues.count == options.maxIssues {
            issues.append(
                ModelIssue(
                    path: path.pathString, code: ModelIssue.Code.tooMany,
                    message: "more than \(options.maxIssues) issues; the rest were not collected"))
            return
        }
        var p = path
        if let key { p.append(.key(key)) }
        issues.append(ModelIssue(path: p.pathString, code: code, message: message, input: input.map(abbreviate)))
    }

    /// Moves the issues recorded since `mark` to ``warnings``.

    public mutating func demote(from mark: Int) {
        guard issues.count > mark else { return }
        warnings.append(contentsOf: issues[mark...])
        issues.removeSubrange(mark...)
    }

    /// Whether `string` is a null-like string in lenient mode.

    @inlinable
    public func isNullLike(_ string: String) -> Bool {
        if strict { return false }
        if defaultNulls {
            let utf8 = string.utf8
            let n = utf8.count
            guard n >= 3 && n <= 9, let first = utf8.first else { return false }
            switch first {
            case 0x6E, 0x4E, 0x3C, 0x28, 0x75:  // n N < ( u
                return ConversionContext.defaultList.contains(string)
            default:
                return false
            }
        }
        return options.nullLikes.contains(string)
    }

    @usableFromInline static let defaultList: [String] = Array(ConversionOptions.defaultNullLikes)

    /// Whether a value counts as null (`null`, or a null-like string when lenient).

    @inlinable
    public func isNullish(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return true
        case .string(let s): return isNullLike(s)
        default: return false
        }
    }
}

/// Keeps issue inputs small: big containers are summarized.
func abbreviate(_ value: JSONValue) -> JSONValue {
    switch value {
    case .array(let a) where a.count > 3: return .string("[array of \(a.count)]")
    case .array(let a) where a.contains(where: { $0.isContainer }): return .string("[array of \(a.count)]")
    case .object(let o) where o.count > 0: return .string("{object with \(o.count) keys}")
    case .string(let s) where s.utf8.count > 200: return .string(String(s.prefix(200)) + "…")
    default: return value
    }
}

extension JSONValue {
    var isContainer: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }

    /// A short description of the JSON type, for messages: "a string", "an object", …
    public var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
