import Foundation
import JSBridgeBase

/// A value a typed model field can hold: converts from JSON with the conversion table and back.
public protocol ModelValue {
    /// Converts `value` (never null-like unless the type is optional); records issues in `ctx` and returns nil on failure.
    static func modelDecode(_ value: JSONValue, _ ctx: inout ConversionContext) -> Self?
    /// The JSON form.
    func modelEncode() -> JSONValue
    /// Appends the JSON form as UTF-8.
    func modelWrite(_ writer: inout JSONWriter)
    /// Whether null converts (to `nil`).
    static var modelIsOptional: Bool { get }
    /// The value null converts to, for optional types.
    static var modelNull: Self? { get }
    /// The number compared with a field's range (the value, or a count for strings and collections).
    var modelMeasure: Double? { get }
    /// Whether this value is `nil` (left out when writing JSON).
    var modelIsNil: Bool { get }
}

extension ModelValue {
    public static var modelIsOptional: Bool { false }
    public static var modelNull: Self? { nil }
    public var modelMeasure: Double? { nil }
    public var modelIsNil: Bool { false }
    public func modelWrite(_ writer: inout JSONWriter) { writer.write(modelEncode()) }
}

/// A typed Swift model with its mapping declared next to it:
///
/// ```swift
/// struct GithubUser: ModelConvertible, Hashable {
///     var login = ""
///     var userID = 0
///     var company: String?
///     static let modelMapping = ModelMapping<GithubUser>("GithubUser", keyStrategy: .snakeCase) { m in
///         m.field("login", \.login)
///         m.field("userID", \.userID, keys: "id")
///         m.field("company", \.company)
///     }
/// }
/// let user = try GithubUser(json: value)       // or GithubUser(jsonBytes: data)
/// let bytes = user.jsonBytes()                 // model → JSON
/// ```
/// `init()` supplies the values of fields that are missing and not required.
public protocol ModelConvertible: ModelValue {
    init()
    static var modelMapping: ModelMapping<Self> { get }
}

extension ModelConvertible {
    @inlinable
    public static func modelDecode(_ value: JSONValue, _ ctx: inout ConversionContext) -> Self? {
        modelMapping.decode(value, &ctx)
    }
    public func modelEncode() -> JSONValue { Self.modelMapping.encode(self) }
    public func modelWrite(_ writer: inout JSONWriter) { Self.modelMapping.write(self, &writer) }

    /// Converts a JSON tree; throws every issue found.
    @inlinable
    public init(json: JSONValue, options: ConversionOptions = .lenient) throws(ModelError) {
        var ctx = ConversionContext(options: options)
        let m = Self.modelMapping.decode(json, &ctx)
        guard let m, ctx.issues.isEmpty else { throw ModelError(model: Self.modelMapping.name, issues: ctx.issues) }
        self = m
    }

    /// Converts UTF-8 JSON bytes (invalid UTF-8 and escaped lone surrogates are `INVALID_UNICODE` issues).
    @inlinable
    public init(jsonBytes: some Collection<UInt8>, options: ConversionOptions = .lenient) throws(ModelError) {
        // Directly from the bytes when the mapping and the input allow it (same result), else via the tree.
        let mapping = Self.modelMapping
        if let direct = jsonBytes.withContiguousStorageIfAvailable({ mapping.decodeBytes($0, options: options) }),
            let direct
        {
            self = try direct.get()
            return
        }
        try self.init(json: try parseJSON(jsonBytes, model: mapping.name), options: options)
    }

    /// Every issue `json` has as this model (empty when it converts).
    @inlinable
    public static func validate(_ json: JSONValue, options: ConversionOptions = .lenient) -> [ModelIssue] {
        var ctx = ConversionContext(options: options)
        _ = modelMapping.decode(json, &ctx)
        return ctx.issues
    }

    /// Model → JSON tree (first keys, nested key paths rebuilt, dates ISO 8601, `nil` fields left out).
    public func jsonValue() -> JSONValue { Self.modelMapping.encode(self) }

    /// Model → compact JSON bytes, written directly (no intermediate tree).
    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        Self.modelMapping.write(self, &w)
        return w.makeArray()
    }

    /// `GithubUser(login: "facebook", userID: 69631, …)`.
    public var modelDescription: String {
        guard case .object(let o) = Self.modelMapping.encodeByName(self) else { return "\(Self.self)()" }
        return "\(Self.modelMapping.name)(" + o.map { "\($0.key): \($0.value.serialized())" }.joined(separator: ", ")
            + ")"
    }

    /// A stable archive (`{"$model","$version","value"}`) Storage can persist; restore with ``init(archive:)``.
    public func archived() -> String {
        let envelope: JSONObject = [
            "$model": .string(Self.modelMapping.name), "$version": .number(Double(ModelRegistry.archiveVersion)),
            "value": jsonValue(),
        ]
        return JSONValue.object(envelope).serialized()
    }

    public init(archive: String) throws(ModelError) {
        let envelope = try parseJSON(Array(archive.utf8), model: Self.modelMapping.name)
        guard envelope["$model"]?.stringValue == Self.modelMapping.name, let value = envelope["value"] else {
            throw ModelError(
                model: Self.modelMapping.name,
                issues: [
                    ModelIssue(
                        path: "$model", code: ModelIssue.Code.type,
                        message: "not an archive of \(Self.modelMapping.name)", input: envelope["$model"])
                ])
        }
        try self.init(json: value)
    }
}

/// One field of a typed mapping: its plan (the rules the schema engine applies too) and specialized accessors.
public final class TypedField<M> {
    /// Where the input is read and the rules applied to it, shared with the schema engine.
    @usableFromInline let rule: CompiledField
    @usableFromInline let keys: [String]
    @usableFromInline let paths: [[String]]
    /// One literal key: read from the object's shape alone.
    @usableFromInline let simple: Bool
    /// Stores null-like input: the optional's nil; nil when the type does not accept null.
    @usableFromInline let storeNull: ((inout M) -> Void)?
    /// Converts a present, non-null value through ``ModelValue/modelDecode(_:_:)`` and the rule's checks, and
    /// stores it.
    @usableFromInline let decode: (inout M, JSONValue, inout ConversionContext) -> Void
    /// A scalar field (String, Int, Double, Bool or their optionals; no range or enumeration) stored at
    /// `fastOffset`: the decode loop converts the exact-type input inline and calls `decode` only otherwise.
    @usableFromInline let fastKind: FastKind
    @usableFromInline let fastOffset: Int
    let isNil: (UnsafePointer<M>) -> Bool
    let write: (UnsafePointer<M>, inout JSONWriter) -> Void
    let encode: (M) -> JSONValue

    @usableFromInline
    init(
        rule: CompiledField, storeNull: ((inout M) -> Void)?,
        decode: @escaping (inout M, JSONValue, inout ConversionContext) -> Void, fastKind: FastKind,
        fastOffset: Int, isNil: @escaping (UnsafePointer<M>) -> Bool,
        write: @escaping (UnsafePointer<M>, inout JSONWriter) -> Void, encode: @escaping (M) -> JSONValue
    ) {
        self.rule = rule
        self.keys = rule.keys
        self.paths = rule.paths
        self.simple = rule.paths.count == 1 && rule.paths[0].count == 1
        self.storeNull = storeNull
        self.decode = decode
        self.fastKind = fastKind
        self.fastOffset = fastOffset
        self.isNil = isNil
        self.write = write
        self.encode = encode
    }
}

/// Collects the fields of a typed mapping.
public struct ModelMappingBuilder<M: ModelConvertible> {
    /// Each field, made once the mapping's default invalid-value policy is known.
    @usableFromInline var fields: [(_ defaultPolicy: InvalidPolicy) -> TypedField<M>] = []
    @usableFromInline let keyStrategy: KeyStrategy

    init(keyStrategy: KeyStrategy) { self.keyStrategy = keyStrategy }
    /// Runs on the raw input object before the fields convert.
    public var before: ((JSONValue) -> JSONValue)?
    /// Runs on the converted model (e.g. give each room a reference to its hotel).
    public var after: ((inout M, inout ConversionContext) -> Void)?

    /// Declares a field: its name, the property, candidate JSON keys (default: from the name and the key
    /// strategy; dotted paths allowed; the first present non-null one wins, the first one is written),
    /// whether it is required (default: unless the property is optional), an invalid-value policy, a
    /// numeric range and an enumeration.
    @inlinable
    public mutating func field<V: ModelValue>(
        _ name: String, _ keyPath: WritableKeyPath<M, V>, keys: String..., required: Bool? = nil,
        onInvalid: InvalidPolicy? = nil, range: ClosedRange<Double>? = nil, oneOf: [JSONValue]? = nil
    ) {
        let keys =
            !keys.isEmpty
            ? keys : keyStrategy == .snakeCase && snakeCase(name) != name ? [snakeCase(name), name] : [name]
        let required = required ?? !V.modelIsOptional
        // Stored properties of structs are read and written at their offset (no key path projection).
        let offset = MemoryLayout<M>.offset(of: keyPath)
        let fastKind: FastKind = offset == nil || range != nil || oneOf != nil ? .none : FastKind.of(V.self)
        let store: (inout M, V) -> Void = { model, value in
            if let offset {
                withUnsafeMutablePointer(to: &model) { p in
                    (UnsafeMutableRawPointer(p) + offset).assumingMemoryBound(to: V.self).pointee = value
                }
            } else {
                model[keyPath: keyPath] = value
            }
        }
        fields.append { defaultPolicy in
            let rule = CompiledField(
                name: name, keys: keys, type: compiledType(of: V.self), required: required, oneOf: oneOf,
                minimum: range?.lowerBound, maximum: range?.upperBound, policy: onInvalid ?? defaultPolicy)
            return TypedField(
                rule: rule,
                storeNull: V.modelIsOptional ? { model in store(&model, V.modelNull!) } : nil,
                decode: { model, raw, ctx in
                    guard let v = V.modelDecode(raw, &ctx) else { return }
                    if rule.hasChecks && !rule.check(v.modelEncode(), &ctx) { return }
                    store(&model, v)
                },
                fastKind: fastKind, fastOffset: offset ?? 0,
                isNil: { p in
                    if let offset {
                        return (UnsafeRawPointer(p) + offset).assumingMemoryBound(to: V.self).pointee.modelIsNil
                    }
                    return p.pointee[keyPath: keyPath].modelIsNil
                },
                write: { p, w in
                    if let offset {
                        (UnsafeRawPointer(p) + offset).assumingMemoryBound(to: V.self).pointee.modelWrite(&w)
                    } else {
                        p.pointee[keyPath: keyPath].modelWrite(&w)
                    }
                },
                encode: { $0[keyPath: keyPath].modelEncode() })
        }
    }
}

/// The engine's type for a typed field's value type, as far as the shared field rules read it: whether it is
/// optional, a URL, or any JSON.
@usableFromInline
func compiledType<V: ModelValue>(of type: V.Type) -> CompiledType {
    if type == URL.self { return .url }
    if type == URL?.self { return .optional(.url) }
    if type == JSONValue.self { return .any }
    return V.modelIsOptional ? .optional(.any) : .any
}

/// The mapping of a typed model: compiled once (a flat list of fields with specialized setters and a
/// precomputed output layout).
public final class ModelMapping<M: ModelConvertible>: @unchecked Sendable {
    public let name: String
    @usableFromInline let fields: [TypedField<M>]
    @usableFromInline let strict: Bool?
    @usableFromInline let before: ((JSONValue) -> JSONValue)?
    @usableFromInline let after: ((inout M, inout ConversionContext) -> Void)?
    private let layout: [WriteNode]
    /// The last object shape seen.
    private let shapeCache = Locked<ShapeEntry?>(nil)
    /// The number of candidate keys over all fields.
    private let keyCount: Int
    /// Key matching for the direct bytes path (nil: that path is not used; see DirectBytes.swift).
    @usableFromInline let direct: DirectKeys?

    private indirect enum WriteNode {
        case field(Int, [UInt8])
        case object([UInt8], [WriteNode])
    }

    public init(
        _ name: String, keyStrategy: KeyStrategy = .none, strict: Bool? = nil, onInvalid: InvalidPolicy = .fail,
        _ build: (inout ModelMappingBuilder<M>) -> Void
    ) {
        var builder = ModelMappingBuilder<M>(keyStrategy: keyStrategy)
        build(&builder)
        self.name = name
        self.fields = builder.fields.map { $0(onInvalid) }
        self.strict = strict
        self.before = builder.before
        self.after = builder.after
        self.keyCount = fields.reduce(0) { $0 + $1.keys.count }
        self.direct = DirectKeys(fields.map(\.keys))
        // Output layout: fields grouped by the components of their first key.
        func keyBytes(_ k: String) -> [UInt8] {
            var w = JSONWriter(capacity: k.utf8.count + 8)
            w.writeString(k)
            w.append(0x3A)
            return w.makeArray()
        }
        let root = LayoutTree()
        for (i, f) in fields.enumerated() {
            var node = root
            let path = f.paths[0]
            for (j, component) in path.enumerated() {
                if j == path.count - 1 {
                    node.order.append((component, i, nil))
                } else if let existing = node.order.first(where: { $0.0 == component && $0.2 != nil })?.2 {
                    node = existing
                } else {
                    let child = LayoutTree()
                    node.order.append((component, nil, child))
                    node = child
                }
            }
        }
        func makeLayout(_ t: LayoutTree) -> [WriteNode] {
            t.order.map { key, index, child in
                if let index { return WriteNode.field(index, keyBytes(key)) }
                return WriteNode.object(keyBytes(key), makeLayout(child!))
            }
        }
        layout = makeLayout(root)
    }

    /// Per candidate key of every field (flattened, see `keyStart`), the position of that literal key in
    /// `object` (-1 when absent); cached for the last shape seen, so objects with the same keys in the same
    /// order (the common case) are matched without hashing.
    @usableFromInline
    func shape(of object: JSONObject) -> ShapeEntry {
        let keys = object.keys
        if let cached = shapeCache.withLock({ $0 }), cached.keys == keys { return cached }
        let entry = ShapeEntry(keys: keys, positions: computePositions(keys))
        shapeCache.withLock { $0 = entry }
        return entry
    }

    private func computePositions(_ keys: [String]) -> [Int] {
        var positions: [Int] = []
        positions.reserveCapacity(keyCount)
        if keys.count <= 12 {
            for f in fields {
                for k in f.keys { positions.append(keys.firstIndex(of: k) ?? -1) }
            }
        } else {
            var index = [String: Int](minimumCapacity: keys.count)
            for (i, k) in keys.enumerated() where index[k] == nil { index[k] = i }
            for f in fields {
                for k in f.keys { positions.append(index[k] ?? -1) }
            }
        }
        return positions
    }

    @inlinable
    func decode(_ value: JSONValue, _ ctx: inout ConversionContext) -> M? {
        if let before { return decodeObject(before(value), &ctx) }
        return decodeObject(value, &ctx)
    }

    @inlinable
    func decodeObject(_ input: JSONValue, _ ctx: inout ConversionContext) -> M? {
        guard case .object(let object) = input else {
            ctx.fail(
                ModelIssue.Code.type, "expected an object (model \(name)), got \(input.typeDescription)", input: input)
            return nil
        }
        guard ctx.checkDepth() else { return nil }
        let start = ctx.issues.count
        let savedStrict = ctx.strict
        if let strict { ctx.strict = strict }
        ctx.depth += 1
        var model = M()
        let shape = shape(of: object)
        let positions = shape.positions
        let values = object.values
        var slot = 0
        for field in fields {
            var found: JSONValue?
            var foundIndex = 0
            let n = field.keys.count
            if field.simple {
                let p = positions[slot]
                if p >= 0 { found = values[p] }
            } else {
                for i in 0..<n {
                    var v: JSONValue?
                    let p = positions[slot + i]
                    if p >= 0 {
                        v = values[p]
                    } else if field.paths[i].count > 1 {
                        v = object.value(atPath: field.paths[i])
                    }
                    if let v {
                        if !ctx.isNullish(v) {
                            found = v
                            foundIndex = i
                            break
                        }
                        if found == nil {
                            found = v
                            foundIndex = i
                        }
                    }
                }
            }
            slot &+= n
            guard let raw = found else {
                if field.rule.required { field.rule.failMissing(&ctx) }
                continue
            }
            convertFound(field, raw, foundIndex, &model, &ctx)
        }
        ctx.depth -= 1
        ctx.strict = savedStrict
        if ctx.issues.count > start { return nil }
        if let after { after(&model, &ctx) }
        return ctx.issues.count > start ? nil : model
    }

    /// Converts the value `raw` found under candidate key `foundIndex` of `field` into `model` by the field's
    /// rules: exact-type scalars inline, null-like input (and the lenient empty URL) as the rules say, everything
    /// else through the field's decoder (with the key on the path and the invalid-value policy applied).
    @inlinable
    func convertFound(
        _ field: TypedField<M>, _ raw: JSONValue, _ foundIndex: Int, _ model: inout M, _ ctx: inout ConversionContext
    ) {
        let kind = field.fastKind
        if kind != .none {
            let nullLike: Bool
            if case .string(let s) = raw { nullLike = ctx.isNullLike(s) } else { nullLike = false }
            if !nullLike {
                let offset = field.fastOffset
                let done = withUnsafeMutableBytes(of: &model) { p in decodeFast(kind, raw, p.baseAddress! + offset) }
                if done { return }
            }
        }
        let rule = field.rule
        let key = field.keys[foundIndex]
        if rule.isAbsent(raw, ctx) {
            // A field that is not required keeps the value `init()` gave it: its default.
            if let storeNull = field.storeNull {
                storeNull(&model)
            } else if rule.required {
                _ = rule.failNull(raw, key: key, &ctx)
            }
            return
        }
        ctx.pushKey(key)
        let mark = ctx.issues.count
        field.decode(&model, raw, &ctx)
        if ctx.issues.count > mark, rule.policy == .useDefault { ctx.demote(from: mark) }
        ctx.popKey()
    }

    func encode(_ model: M) -> JSONValue {
        var out = JSONObject()
        for field in fields where !withUnsafePointer(to: model, { field.isNil($0) }) {
            out.set(path: field.paths[0][...], field.encode(model))
        }
        return .object(out)
    }

    /// By field name (for descriptions).
    func encodeByName(_ model: M) -> JSONValue {
        var out = JSONObject()
        for field in fields { out[field.rule.name] = field.encode(model) }
        return .object(out)
    }

    func write(_ model: M, _ w: inout JSONWriter) {
        withUnsafePointer(to: model) { write(layout, $0, &w) }
    }

    private func write(_ nodes: [WriteNode], _ model: UnsafePointer<M>, _ w: inout JSONWriter) {
        w.append(0x7B)
        var first = true
        for node in nodes {
            switch node {
            case .field(let i, let key):
                let field = fields[i]
                if field.isNil(model) { continue }
                if !first { w.append(0x2C) }
                first = false
                w.append(key)
                field.write(model, &w)
            case .object(let key, let children):
                if !first { w.append(0x2C) }
                first = false
                w.append(key)
                write(children, model, &w)
            }
        }
        w.append(0x7D)
    }
}

/// The scalar types the typed decode loop converts inline (see ``TypedField/fastKind``).
@usableFromInline
enum FastKind: UInt8 {
    case none, string, int, double, bool, optionalString, optionalInt, optionalDouble, optionalBool

    @usableFromInline
    static func of<V>(_ type: V.Type) -> FastKind {
        if type == String.self { return .string }
        if type == Int.self { return .int }
        if type == Double.self { return .double }
        if type == Bool.self { return .bool }
        if type == String?.self { return .optionalString }
        if type == Int?.self { return .optionalInt }
        if type == Double?.self { return .optionalDouble }
        if type == Bool?.self { return .optionalBool }
        return .none
    }
}

/// Converts `raw` inline for a scalar field when it has exactly the field's type (no coercion, no issue
/// possible) and stores it at `offset` in `model`; returns false to let the field's general decoder handle it.
/// The caller has checked that `raw` is not a null-like string.
@inlinable @inline(__always)
func decodeFast(_ kind: FastKind, _ raw: JSONValue, _ model: UnsafeMutableRawPointer) -> Bool {
    switch kind {
    case .none:
        return false
    case .string, .optionalString:
        switch raw {
        case .string(let s):
            if kind == .string {
                model.assumingMemoryBound(to: String.self).pointee = s
            } else {
                model.assumingMemoryBound(to: String?.self).pointee = s
            }
            return true
        case .null where kind == .optionalString:
            model.assumingMemoryBound(to: String?.self).pointee = nil
            return true
        default:
            return false
        }
    case .int, .optionalInt:
        switch raw {
        case .number(let n):
            guard n.magnitude <= Coerce.maxSafeInteger else { return false }
            let i = Int(n)
            guard Double(i) == n else { return false }
            if kind == .int {
                model.assumingMemoryBound(to: Int.self).pointee = i
            } else {
                model.assumingMemoryBound(to: Int?.self).pointee = i
            }
            return true
        case .null where kind == .optionalInt:
            model.assumingMemoryBound(to: Int?.self).pointee = nil
            return true
        default:
            return false
        }
    case .double, .optionalDouble:
        switch raw {
        case .number(let n):
            guard n.isFinite else { return false }
            if kind == .double {
                model.assumingMemoryBound(to: Double.self).pointee = n
            } else {
                model.assumingMemoryBound(to: Double?.self).pointee = n
            }
            return true
        case .null where kind == .optionalDouble:
            model.assumingMemoryBound(to: Double?.self).pointee = nil
            return true
        default:
            return false
        }
    case .bool, .optionalBool:
        switch raw {
        case .bool(let b):
            if kind == .bool {
                model.assumingMemoryBound(to: Bool.self).pointee = b
            } else {
                model.assumingMemoryBound(to: Bool?.self).pointee = b
            }
            return true
        case .null where kind == .optionalBool:
            model.assumingMemoryBound(to: Bool?.self).pointee = nil
            return true
        default:
            return false
        }
    }
}

/// An object shape (its keys in order) and, per candidate key of every field, the key's position (-1: absent).
@usableFromInline
final class ShapeEntry: Sendable {
    @usableFromInline let keys: [String]
    @usableFromInline let positions: [Int]
    init(keys: [String], positions: [Int]) {
        self.keys = keys
        self.positions = positions
    }
}

final class LayoutTree {
    var order: [(String, Int?, LayoutTree?)] = []
}

// MARK: - Conformances

extension String: ModelValue {
    public static func modelDecode(_ value: JSONValue, _ ctx: inout ConversionContext) -> String? {
        if case .string(let s) = value { return s }
        return Coerce.string(value, &ctx)
    }
    public func modelEncode() -> JSONValue { .string(self) }
    public func modelWrite(_ writer: inout JSONWriter) { writer.writeString(self) }
    public var modelMeasure: Double? { Double(count) }
}

extension Int: ModelValue {
    public static func modelDecode(_ value: JSONValue, _ ctx: inout ConversionContext) -> Int? {
        Coerce.int(value, &ctx)
    }
    public func modelEncode() -> JSONValue { .number(Double(self)) }
    public func modelWrite(_ writer: inout JSONWriter) { writer.writeInteger(Int64(self)) }
    public var modelMeasure: Double? { Double(self) }
}

extension Double: ModelValue {
    public static func modelDecode(_ value: JSONValue, _ ctx: inout ConversionContext) -> Double? {
        Coerce.double(value, &ctx)
    }
    public func modelEncode() -> JSONValue { .number(self) }
    public func modelWrite(_ writer: inout JSONWriter) {
        writer.writeNumber(self)
    }
    public var modelMeasure: Double? { self }
}

extension Bool: ModelValue {
    public static func modelDecode(_ value: JSONValue, _ ctx: inout ConversionContext) -> Bool? {
        Coerce.bool(value, &ctx)
    }
    public func modelEncode() -> JSONValue { .bool(self) }
    public func modelWrite(_ writer: inout JSONWriter) {
        writer.appendLiteral(self ? "true" : "false")
    }
}

extension Date: ModelValue {
    public static func modelDecode(_ value: JSONValue, _ ctx: inout ConversionContext) -> Date? {
        Coerce.date(value, &ctx)
    }
    public func modelEncode() -> JSONValue { .string(DateFormats.iso8601(self)) }
    public func modelWrite(_ writer: inout JSONWriter) { writer.writeString(DateFormats.iso8601(self)) }
}

extension URL: ModelValue {
    public static func modelDecode(_ value: JSONValue, _ ctx: inout ConversionContext) -> URL? {
        Coerce.url(value, &ctx)
    }
    public func modelEncode() -> JSONValue { .string(absoluteString) }
    public func modelWrite(_ writer: inout JSONWriter) { writer.writeString(absoluteString) }
}

extension JSONValue: ModelValue {
    public static func modelDecode(_ value: JSONValue, _ ctx: inout ConversionContext) -> JSONValue? { value }
    public func modelEncode() -> JSONValue { self }
    public static var modelIsOptional: Bool { true }
    public static var modelNull: JSONValue? { .null }
}

extension Optional: ModelValue where Wrapped: ModelValue {
    public static func modelDecode(_ value: JSONValue, _ ctx: inout ConversionContext) -> Wrapped?? {
        if ctx.isNullish(value) { return .some(nil) }
        if !ctx.strict, Wrapped.self == URL.self, case .string(let s) = value, s.isEmpty { return .some(nil) }
        guard let w = Wrapped.modelDecode(value, &ctx) else { return nil }
        return .some(w)
    }
    public func modelEncode() -> JSONValue { self?.modelEncode() ?? .null }
    public func modelWrite(_ writer: inout JSONWriter) {
        if let self { self.modelWrite(&writer) } else { writer.appendLiteral("null") }
    }
    public static var modelIsOptional: Bool { true }
    public static var modelNull: Wrapped?? { .some(nil) }
    public var modelMeasure: Double? { self?.modelMeasure }
    public var modelIsNil: Bool { self == nil }
}

/// Converts the elements of an array with paths and the depth limit.
func decodeElements<E: ModelValue>(_ value: JSONValue, _ ctx: inout ConversionContext, _ body: (E) -> Void) -> Bool {
    guard case .array(let items) = value else {
        ctx.fail(ModelIssue.Code.type, "expected an array, got \(value.typeDescription)", input: value)
        return false
    }
    guard ctx.checkDepth() else { return false }
    ctx.depth += 1
    defer { ctx.depth -= 1 }
    var ok = true
    for i in items.indices {
        ctx.path.append(.index(i))
        let item = items[i]
        if !E.modelIsOptional && ctx.isNullish(item) {
            ctx.fail(ModelIssue.Code.null, "null is not allowed here", input: item)
            ok = false
        } else if let e = E.modelDecode(item, &ctx) {
            body(e)
        } else {
            ok = false
        }
        ctx.path.removeLast()
        if ctx.issues.count > ctx.options.maxIssues { break }
    }
    return ok
}

extension Array: ModelValue where Element: ModelValue {
    public static func modelDecode(_ value: JSONValue, _ ctx: inout ConversionContext) -> [Element]? {
        var out = [Element]()
        if case .array(let a) = value { out.reserveCapacity(a.count) }
        return decodeElements(value, &ctx) { out.append($0) } ? out : nil
    }
    public func modelEncode() -> JSONValue { .array(map { $0.modelEncode() }) }
    public func modelWrite(_ writer: inout JSONWriter) {
        writer.append(0x5B)
        for (i, e) in enumerated() {
            if i > 0 { writer.append(0x2C) }
            e.modelWrite(&writer)
        }
        writer.append(0x5D)
    }
    public var modelMeasure: Double? { Double(count) }
}

extension Set: ModelValue where Element: ModelValue {
    public static func modelDecode(_ value: JSONValue, _ ctx: inout ConversionContext) -> Set<Element>? {
        var out = Set<Element>()
        return decodeElements(value, &ctx) { out.insert($0) } ? out : nil
    }
    public func modelEncode() -> JSONValue {
        .array(map { $0.modelEncode() }.sorted { $0.serialized() < $1.serialized() })
    }
    public var modelMeasure: Double? { Double(count) }
}

extension Dictionary: ModelValue where Key == String, Value: ModelValue {
    public static func modelDecode(_ value: JSONValue, _ ctx: inout ConversionContext) -> [String: Value]? {
        guard case .object(let object) = value else {
            ctx.fail(ModelIssue.Code.type, "expected an object (a map), got \(value.typeDescription)", input: value)
            return nil
        }
        guard ctx.checkDepth() else { return nil }
        ctx.depth += 1
        defer { ctx.depth -= 1 }
        var out = [String: Value](minimumCapacity: object.count)
        var ok = true
        for (k, v) in object {
            ctx.path.append(.key(k))
            if !Value.modelIsOptional && ctx.isNullish(v) {
                ctx.fail(ModelIssue.Code.null, "null is not allowed here", input: v)
                ok = false
            } else if let d = Value.modelDecode(v, &ctx) {
                out[k] = d
            } else {
                ok = false
            }
            ctx.path.removeLast()
        }
        return ok ? out : nil
    }
    public func modelEncode() -> JSONValue {
        .object(JSONObject(sorted { $0.key < $1.key }.map { ($0.key, $0.value.modelEncode()) }))
    }
    public var modelMeasure: Double? { Double(count) }
}

extension JSONObject {
    /// The value at a key path (`["ext", "desc"]` for `"ext.desc"`), descending through nested objects.
    @usableFromInline
    func value(atPath path: [String]) -> JSONValue? {
        var current = self
        for (i, component) in path.enumerated() {
            guard let next = current[component] else { return nil }
            if i == path.count - 1 { return next }
            guard case .object(let o) = next else { return nil }
            current = o
        }
        return nil
    }
}
