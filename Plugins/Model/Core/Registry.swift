import Foundation
import JSBridgeBase

/// A custom step before (on the raw input object) or after (on the converted model object) a model's conversion.
/// Return `nil` from `before` to keep the input; throw a ``ModelIssue`` message via `ConversionContext.fail`.
public typealias BeforeTransform = @Sendable (JSONValue, inout ConversionContext) -> JSONValue?
public typealias AfterTransform = @Sendable (inout JSONObject, inout ConversionContext) -> Void
/// Picks the concrete model for an input value (polymorphism by a custom rule); `nil` keeps the declared model.
public typealias ModelResolver = @Sendable (JSONValue) -> String?

/// The models known to a program or a script, and the engine that converts with them.
///
/// Thread-safe: define and convert from any thread. Each definition recompiles a flat plan used by all
/// conversions (lookups by pre-split key paths, no per-call schema interpretation).
public final class ModelRegistry: Sendable {
    private struct State {
        var schemas: [String: ModelSchema] = [:]
        var order: [String] = []
        var before: [String: BeforeTransform] = [:]
        var after: [String: AfterTransform] = [:]
        var resolvers: [String: ModelResolver] = [:]
        var program: CompiledProgram?
    }

    private let state = Locked(State())

    public init() {}

    /// How a redefinition is handled.
    public enum Redefinition: Sendable {
        /// The same schema again is accepted; a different one is a `REDEFINITION` error (the default).
        case rejectDifferent
        /// The new schema replaces the old one.
        case replace
    }

    /// Defines (or re-defines, see ``Redefinition``) a model. Nested model names may refer to models defined later;
    /// converting with a name still undefined reports `UNKNOWN_MODEL` at the path.
    public func define(_ schema: ModelSchema, redefinition: Redefinition = .rejectDifferent) throws(SchemaError) {
        try validate(schema)
        try state.withLock { (s: inout State) throws(SchemaError) in
            if let old = s.schemas[schema.name] {
                if old == schema { return }
                if case .rejectDifferent = redefinition {
                    throw SchemaError(
                        code: "REDEFINITION",
                        message:
                            "Model '\(schema.name)' is already defined with a different schema (pass replace: true to replace it)."
                    )
                }
            } else {
                s.order.append(schema.name)
            }
            s.schemas[schema.name] = schema
            s.program = nil
        }
    }

    private func validate(_ schema: ModelSchema) throws(SchemaError) {
        guard let first = schema.name.unicodeScalars.first, first.properties.isUppercase else {
            throw SchemaError(
                code: "INVALID_SCHEMA", message: "Model name '\(schema.name)' must start with an uppercase letter.")
        }
        var seen = Set<String>()
        for field in schema.fields {
            guard seen.insert(field.name).inserted else {
                throw SchemaError(
                    code: "INVALID_SCHEMA", message: "Field '\(field.name)' is declared twice in '\(schema.name)'.",
                    path: field.name)
            }
            if let min = field.minimum, let max = field.maximum, min > max {
                throw SchemaError(
                    code: "INVALID_SCHEMA", message: "Field '\(field.name)': minimum \(min) is above maximum \(max).",
                    path: field.name)
            }
            if field.keys.contains(where: { $0.isEmpty }) {
                throw SchemaError(
                    code: "INVALID_SCHEMA", message: "Field '\(field.name)': a key must not be empty.", path: field.name
                )
            }
        }
    }

    /// Whether a model of that name is defined.
    public func isDefined(_ name: String) -> Bool { state.withLock { $0.schemas[name] != nil } }

    /// The schema of a model.
    public func schema(_ name: String) -> ModelSchema? { state.withLock { $0.schemas[name] } }

    /// The candidate input keys of each field of a model (`{field: [key, …]}`, dotted paths as written), after
    /// the key strategy; nil when the model is not defined.
    public func inputKeys(_ name: String) -> JSONValue? {
        guard let schema = schema(name) else { return nil }
        return .object(
            JSONObject(schema.fields.map { ($0.name, .array(schema.keys(of: $0).map(JSONValue.string))) }))
    }

    /// Defined model names, in definition order.
    public var names: [String] { state.withLock { $0.order } }

    /// Removes a model.
    public func remove(_ name: String) {
        state.withLock {
            if $0.schemas.removeValue(forKey: name) != nil {
                $0.order.removeAll { $0 == name }
                $0.program = nil
            }
        }
    }

    /// Sets a transform run on the raw input object of `model` before its fields convert (YYModel's
    /// `modelCustomWillTransformFromDictionary`).
    public func setBeforeTransform(_ model: String, _ transform: BeforeTransform?) {
        state.withLock {
            $0.before[model] = transform
            $0.program = nil
        }
    }

    /// Sets a transform run on the converted object of `model` (YYModel's `modelCustomTransformFromDictionary`,
    /// IPHBaseModel's `handleAttributeValue:forAttributeName:`), innermost models first.
    public func setAfterTransform(_ model: String, _ transform: AfterTransform?) {
        state.withLock {
            $0.after[model] = transform
            $0.program = nil
        }
    }

    /// Sets a custom resolver: polymorphism by a rule of your own (checked before the discriminator).
    public func setResolver(_ model: String, _ resolver: ModelResolver?) {
        state.withLock {
            $0.resolvers[model] = resolver
            $0.program = nil
        }
    }

    /// The compiled plan of every model (rebuilt after a definition changes).
    func program() -> CompiledProgram {
        state.withLock { s in
            if let p = s.program { return p }
            let p = CompiledProgram(
                schemas: s.order.compactMap { s.schemas[$0] }, before: s.before, after: s.after, resolvers: s.resolvers)
            s.program = p
            return p
        }
    }

    // MARK: Conversion

    /// The outcome of a conversion that does not throw.
    public struct Result: Sendable {
        /// The converted model (field names as keys, in schema order), or `nil` when there are issues.
        public var value: JSONValue?
        public var issues: [ModelIssue]
        /// Invalid values replaced by defaults under the `default` policy.
        public var warnings: [ModelIssue]
    }

    /// Converts a JSON value into the model `name`: field names as keys, values coerced, defaults filled,
    /// dates as ISO 8601 strings. Throws every issue found.
    public func convert(_ name: String, _ value: JSONValue, options: ConversionOptions = .lenient) throws(ModelError)
        -> JSONValue
    {
        let result = check(name, value, options: options)
        if let v = result.value { return v }
        throw ModelError(model: name, issues: result.issues)
    }

    /// Converts UTF-8 JSON bytes into the model `name` (parsing, then ``convert(_:_:options:)``). Invalid UTF-8
    /// and escaped lone surrogates are `INVALID_UNICODE` issues with the byte offset.
    public func convert(_ name: String, json bytes: some Collection<UInt8>, options: ConversionOptions = .lenient)
        throws(ModelError) -> JSONValue
    {
        try convert(name, try parseJSON(bytes, model: name), options: options)
    }

    /// Converts without throwing: the value, or the issues.
    public func check(_ name: String, _ value: JSONValue, options: ConversionOptions = .lenient) -> Result {
        let program = program()
        var ctx = ConversionContext(options: options)
        guard let index = program.index[name] else {
            ctx.fail(ModelIssue.Code.unknownModel, "no model named '\(name)' is defined", input: nil)
            return Result(value: nil, issues: ctx.issues, warnings: [])
        }
        let out = program.convertModel(value, index, &ctx)
        return Result(value: ctx.issues.isEmpty ? out : nil, issues: ctx.issues, warnings: ctx.warnings)
    }

    /// Every issue of `value` as model `name` (empty when it converts).
    public func validate(_ name: String, _ value: JSONValue, options: ConversionOptions = .lenient) -> [ModelIssue] {
        check(name, value, options: options).issues
    }

    /// Model → JSON: each field written under its first key (dotted paths rebuilt as nested objects),
    /// nested models likewise, dates as ISO 8601. Fields absent from `model` are left out.
    public func toJSON(_ name: String, _ model: JSONValue) throws(ModelError) -> JSONValue {
        try writeBack(name, model, canonical: false)
    }

    /// The canonical form of a model, what ``archive(_:_:)`` writes and ``equal(_:_:_:)`` and ``hash(_:_:)``
    /// compare: ``toJSON(_:_:)``'s form with null fields left out, object keys in code-point order, and a set's
    /// items in the order of their canonical text, each once.
    public func canonicalJSON(_ name: String, _ model: JSONValue) throws(ModelError) -> JSONValue {
        sortedKeys(try writeBack(name, model, canonical: true))
    }

    private func sortedKeys(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            let keys = object.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            return .object(JSONObject(keys.map { ($0, sortedKeys(object[$0]!)) }))
        case .array(let items): return .array(items.map(sortedKeys))
        default: return value
        }
    }

    private func writeBack(_ name: String, _ model: JSONValue, canonical: Bool) throws(ModelError) -> JSONValue {
        let program = program()
        var ctx = ConversionContext(options: .lenient)
        ctx.canonical = canonical
        guard let index = program.index[name] else {
            throw ModelError(
                model: name,
                issues: [
                    ModelIssue(
                        path: "", code: ModelIssue.Code.unknownModel, message: "no model named '\(name)' is defined")
                ])
        }
        let out = program.reverseModel(model, index, &ctx)
        if !ctx.issues.isEmpty { throw ModelError(model: name, issues: ctx.issues) }
        return out
    }
}

/// Parses JSON bytes for a conversion, rejecting invalid UTF-8 and escaped lone surrogates.
public func parseJSON(_ bytes: some Collection<UInt8>, model: String) throws(ModelError) -> JSONValue {
    let checked: ModelIssue? =
        bytes.withContiguousStorageIfAvailable { checkUnicode($0) }
        ?? Array(bytes).withUnsafeBufferPointer { checkUnicode($0) }
    if let checked { throw ModelError(model: model, issues: [checked]) }
    do {
        return try JSONValue(parsing: bytes)
    } catch {
        throw ModelError(
            model: model,
            issues: [ModelIssue(path: "", code: ModelIssue.Code.parse, message: "invalid JSON: \(error.message)")])
    }
}

/// Finds invalid UTF-8 or a `\uD800`-style escape of a lone surrogate.
@usableFromInline
func checkUnicode(_ b: UnsafeBufferPointer<UInt8>) -> ModelIssue? {
    var i = 0
    let n = b.count
    func hex(_ at: Int) -> UInt32? {
        guard at + 4 <= n else { return nil }
        var v: UInt32 = 0
        for j in at..<(at + 4) {
            guard let digit = Hex.value(b[j]) else { return nil }
            v = v << 4 | UInt32(digit)
        }
        return v
    }
    func bad(_ message: String) -> ModelIssue {
        ModelIssue(path: "", code: ModelIssue.Code.unicode, message: "\(message) at byte offset \(i)")
    }
    while i < n {
        // Fast path: plain ASCII without escapes, eight bytes at a time.
        if let base = b.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i &+ 8 <= n {
                let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                // A byte ≥ 0x80, or a byte equal to 0x5C (the classic "has zero byte" test on w ^ 0x5C…).
                let x = w ^ 0x5C5C_5C5C_5C5C_5C5C
                let backslash = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
                if (w & 0x8080_8080_8080_8080) | backslash != 0 { break }
                i &+= 8
            }
        }
        while i < n, b[i] < 0x80, b[i] != 0x5C { i += 1 }
        if i >= n { break }
        let c = b[i]
        if c < 0x80 {
            if c == 0x5C, i + 1 < n {
                if b[i + 1] == 0x75, let u = hex(i + 2) {
                    if (0xD800...0xDBFF).contains(u) {
                        guard i + 11 < n + 0, b[i + 6] == 0x5C, b[i + 7] == 0x75, let low = hex(i + 8),
                            (0xDC00...0xDFFF).contains(low)
                        else { return bad("lone surrogate escape \\u\(String(u, radix: 16, uppercase: true))") }
                        i += 12
                        continue
                    }
                    if (0xDC00...0xDFFF).contains(u) {
                        return bad("lone surrogate escape \\u\(String(u, radix: 16, uppercase: true))")
                    }
                    i += 6
                    continue
                }
                i += 2
                continue
            }
            i += 1
            continue
        }
        // A sequence of several bytes: UTF-8's rule is JSBridgeBase's (``UTF8Codec``).
        let (scalar, next) = UTF8Codec.step(b.baseAddress!, n, at: i)
        guard scalar != nil else {
            if c < 0xC2 || c > 0xF4 { return bad("invalid UTF-8 byte 0x\(String(c, radix: 16, uppercase: true))") }
            return bad(next >= n ? "truncated UTF-8 sequence" : "invalid UTF-8 sequence")
        }
        i = next
    }
    return nil
}
