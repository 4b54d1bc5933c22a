import Foundation
import JSBridgeBase

/// A field type with model names resolved to indices in the program.
@usableFromInline
indirect enum CompiledType {
    case string, int, double, bool, date, url, any
    case model(Int)
    case unknown(String)
    case array(CompiledType)
    case set(CompiledType)
    case map(CompiledType)
    case optional(CompiledType)

    var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }
}

/// One field's plan: where its input is read and the rules every conversion path applies to it (the schema
/// engine here, typed Swift mappings in Typed.swift): candidate keys, absence and null, the lenient empty URL,
/// enumeration and range checks, the invalid-value policy. Only the value conversion differs per path (to JSON
/// here, to a Swift value there), and both convert through ``Coerce``.
@usableFromInline
final class CompiledField {
    let name: String
    @usableFromInline let keys: [String]
    /// Each key split on dots (a key without dots is one component).
    @usableFromInline let paths: [[String]]
    let type: CompiledType
    @usableFromInline let required: Bool
    let defaultValue: JSONValue?
    let oneOf: [JSONValue]?
    let minimum: Double?
    let maximum: Double?
    @usableFromInline let policy: InvalidPolicy
    let strict: Bool?
    @usableFromInline let hasChecks: Bool
    /// Whether the lenient empty-URL rule applies: a URL field that may be absent (see ``isAbsent(_:_:)``).
    let emptyURLIsAbsent: Bool

    @usableFromInline
    init(
        name: String, keys: [String], type: CompiledType, required: Bool, defaultValue: JSONValue? = nil,
        oneOf: [JSONValue]?, minimum: Double?, maximum: Double?, policy: InvalidPolicy, strict: Bool? = nil
    ) {
        self.name = name
        self.keys = keys
        self.paths = keys.map(ModelKey.path)
        self.type = type
        self.required = required
        self.defaultValue = defaultValue
        self.oneOf = oneOf
        self.minimum = minimum
        self.maximum = maximum
        self.policy = policy
        self.strict = strict
        self.hasChecks = oneOf != nil || minimum != nil || maximum != nil
        self.emptyURLIsAbsent = type.isURL && (defaultValue != nil || type.isOptional || !required)
    }

    /// The input of this field in `object`: the value of the first candidate key present with a value that is
    /// not null-like, else of the first one present, and that key's index; nil when no candidate key is present.
    /// A dotted key is read literally first, then as a path.
    @usableFromInline
    func find(in object: JSONObject, _ ctx: ConversionContext) -> (value: JSONValue, keyIndex: Int)? {
        var found: (value: JSONValue, keyIndex: Int)?
        for i in paths.indices {
            let value: JSONValue?
            if paths[i].count == 1 {
                value = object[keys[i]]
            } else {
                value = object[keys[i]] ?? object.value(atPath: paths[i])
            }
            guard let value else { continue }
            if !ctx.isNullish(value) { return (value, i) }
            if found == nil { found = (value, i) }
        }
        return found
    }

    /// Whether a found `raw` value counts as no value: null-like, or (lenient) `""` in a URL field that may be
    /// absent.
    @usableFromInline
    func isAbsent(_ raw: JSONValue, _ ctx: ConversionContext) -> Bool {
        ctx.isNullish(raw) || (emptyURLIsAbsent && !ctx.strict && raw == .string(""))
    }

    /// Records that a required field is missing (no candidate key present).
    @usableFromInline
    func failMissing(_ ctx: inout ConversionContext) {
        ctx.fail(ModelIssue.Code.required, "missing required key '\(keys[0])'", input: nil, key: keys[0])
    }

    /// Records that a field that does not accept null got null; false when the invalid-value policy drops the
    /// issue (the field then takes its default).
    @usableFromInline
    func failNull(_ raw: JSONValue, key: String, _ ctx: inout ConversionContext) -> Bool {
        let mark = ctx.issues.count
        ctx.fail(ModelIssue.Code.null, "null is not allowed for required field '\(name)'", input: raw, key: key)
        guard policy == .useDefault else { return true }
        ctx.demote(from: mark)
        return false
    }

    /// Enum and range checks on a converted value (in its JSON form); records an issue and returns false when
    /// the value fails them.
    @usableFromInline
    func check(_ value: JSONValue, _ ctx: inout ConversionContext) -> Bool {
        if let oneOf, !oneOf.contains(value) {
            let list = oneOf.map { $0.serialized() }.joined(separator: ", ")
            ctx.fail(ModelIssue.Code.notInEnum, "must be one of \(list)", input: value)
            return false
        }
        guard minimum != nil || maximum != nil else { return true }
        let measure: Double
        let what: String
        switch value {
        case .number(let n): measure = n; what = "value"
        case .string(let s): measure = Double(s.count); what = "length"
        case .array(let a): measure = Double(a.count); what = "count"
        case .object(let o): measure = Double(o.count); what = "count"
        default: return true
        }
        if let minimum, measure < minimum {
            ctx.fail(
                ModelIssue.Code.range,
                "\(what) \(JSONValue.javaScriptString(for: measure)) is below the minimum \(JSONValue.javaScriptString(for: minimum))",
                input: value)
            return false
        }
        if let maximum, measure > maximum {
            ctx.fail(
                ModelIssue.Code.range,
                "\(what) \(JSONValue.javaScriptString(for: measure)) is above the maximum \(JSONValue.javaScriptString(for: maximum))",
                input: value)
            return false
        }
        return true
    }
}

final class CompiledModel: @unchecked Sendable {
    let name: String
    let schema: ModelSchema
    var fields: [CompiledField] = []
    var strict: Bool?
    var discriminator: (key: String, targets: [String: Int], unknown: [String: String])?
    var before: BeforeTransform?
    var after: AfterTransform?
    var resolver: ModelResolver?

    init(schema: ModelSchema) {
        self.name = schema.name
        self.schema = schema
    }
}

/// Every model compiled into flat plans: fields with pre-split key paths and resolved nested models.
final class CompiledProgram: @unchecked Sendable {
    let models: [CompiledModel]
    let index: [String: Int]

    init(
        schemas: [ModelSchema], before: [String: BeforeTransform], after: [String: AfterTransform],
        resolvers: [String: ModelResolver]
    ) {
        var index = [String: Int]()
        for (i, s) in schemas.enumerated() { index[s.name] = i }
        self.index = index
        models = schemas.map(CompiledModel.init)
        func compile(_ t: FieldType) -> CompiledType {
            switch t {
            case .string: .string
            case .int: .int
            case .double: .double
            case .bool: .bool
            case .date: .date
            case .url: .url
            case .any: .any
            case .model(let n): index[n].map { .model($0) } ?? .unknown(n)
            case .array(let e): .array(compile(e))
            case .set(let e): .set(compile(e))
            case .map(let e): .map(compile(e))
            case .optional(let e): .optional(compile(e))
            }
        }
        for model in models {
            let s = model.schema
            model.strict = s.strict
            model.before = before[s.name]
            model.after = after[s.name]
            model.resolver = resolvers[s.name]
            if let d = s.discriminator {
                var targets = [String: Int]()
                var unknown = [String: String]()
                for (value, name) in d.mapping {
                    if let i = index[name] { targets[value] = i } else { unknown[value] = name }
                }
                model.discriminator = (d.key, targets, unknown)
            }
            model.fields = s.activeFields.map { f in
                let keys = s.keys(of: f)
                return CompiledField(
                    name: f.name, keys: keys, type: compile(f.type), required: f.isRequired,
                    defaultValue: f.defaultValue, oneOf: f.oneOf, minimum: f.minimum, maximum: f.maximum,
                    policy: f.onInvalid ?? s.onInvalid, strict: f.strict)
            }
        }
    }

    // MARK: JSON → model

    func convertModel(_ value: JSONValue, _ modelIndex: Int, _ ctx: inout ConversionContext) -> JSONValue? {
        var model = models[modelIndex]
        guard ctx.checkDepth() else { return nil }
        if let resolver = model.resolver, let target = resolver(value), target != model.name {
            guard let i = index[target] else {
                ctx.fail(
                    ModelIssue.Code.unknownModel,
                    "the resolver of '\(model.name)' chose '\(target)', which is not defined", input: nil)
                return nil
            }
            model = models[i]
        }
        if let d = model.discriminator, case .object(let o) = value {
            guard let raw = o[d.key], !ctx.isNullish(raw) else {
                ctx.fail(
                    ModelIssue.Code.required, "missing discriminator '\(d.key)' of '\(model.name)'", input: nil,
                    key: d.key)
                return nil
            }
            let tag: String
            switch raw {
            case .string(let s): tag = s
            case .number(let n): tag = JSONValue.javaScriptString(for: n)
            case .bool(let b): tag = b ? "true" : "false"
            default: tag = ""
            }
            if let target = d.targets[tag] {
                if models[target] !== model {
                    let sub = models[target]
                    // A sub-model with its own discriminator would loop; one hop only.
                    if sub.discriminator == nil || sub === model {
                        model = sub
                    } else {
                        model = sub
                    }
                }
            } else if let missing = d.unknown[tag] {
                ctx.fail(
                    ModelIssue.Code.unknownModel,
                    "discriminator '\(tag)' names model '\(missing)', which is not defined", input: raw, key: d.key)
                return nil
            } else {
                let known = d.targets.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                ctx.fail(
                    ModelIssue.Code.unknownDiscriminator,
                    "unknown '\(d.key)' value for '\(model.name)' (expected one of \(known))", input: raw, key: d.key)
                return nil
            }
        }
        var input = value
        if let before = model.before, let replaced = before(value, &ctx) { input = replaced }
        guard case .object(let object) = input else {
            ctx.fail(
                ModelIssue.Code.type, "expected an object (model \(model.name)), got \(input.typeDescription)",
                input: input)
            return nil
        }
        let savedStrict = ctx.strict
        if let s = model.strict { ctx.strict = s }
        ctx.depth += 1
        defer {
            ctx.depth -= 1
            ctx.strict = savedStrict
        }
        var out = JSONObject()
        for field in model.fields {
            guard let (raw, keyIndex) = field.find(in: object, ctx) else {
                if let d = field.defaultValue {
                    out[field.name] = d
                } else if field.required {
                    field.failMissing(&ctx)
                } else {
                    out[field.name] = .null
                }
                continue
            }
            let key = field.keys[keyIndex]
            let fieldStrict = ctx.strict
            if let s = field.strict { ctx.strict = s }
            defer { ctx.strict = fieldStrict }
            if field.isAbsent(raw, ctx) {
                if let d = field.defaultValue {
                    out[field.name] = d
                } else if field.type.isOptional || !field.required || !field.failNull(raw, key: key, &ctx) {
                    out[field.name] = .null
                }
                continue
            }
            ctx.path.append(.key(key))
            let mark = ctx.issues.count
            var converted = convertValue(raw, field.type, &ctx)
            if let v = converted, field.hasChecks, !field.check(v, &ctx) { converted = nil }
            ctx.path.removeLast()
            if let v = converted {
                out[field.name] = v
            } else if field.policy == .useDefault {
                ctx.demote(from: mark)
                out[field.name] = field.defaultValue ?? .null
            }
        }
        if let after = model.after, ctx.issues.isEmpty { after(&out, &ctx) }
        return .object(out)
    }

    func convertValue(_ value: JSONValue, _ type: CompiledType, _ ctx: inout ConversionContext) -> JSONValue? {
        switch type {
        case .optional(let inner):
            if ctx.isNullish(value) { return .null }
            if !ctx.strict, case .url = inner, case .string(let s) = value, s.isEmpty { return .null }
            return convertValue(value, inner, &ctx)
        case .any:
            return value
        default:
            break
        }
        if ctx.isNullish(value) {
            ctx.fail(ModelIssue.Code.null, "null is not allowed here", input: value)
            return nil
        }
        switch type {
        case .string: return Coerce.string(value, &ctx).map(JSONValue.string)
        case .int: return Coerce.int(value, &ctx).map { .number(Double($0)) }
        case .double: return Coerce.double(value, &ctx).map(JSONValue.number)
        case .bool: return Coerce.bool(value, &ctx).map(JSONValue.bool)
        case .date: return Coerce.date(value, &ctx).map { .string(DateFormats.iso8601($0)) }
        case .url: return Coerce.urlString(value, &ctx).map(JSONValue.string)
        case .any, .optional: return value
        case .model(let i): return convertModel(value, i, &ctx)
        case .unknown(let name):
            ctx.fail(ModelIssue.Code.unknownModel, "no model named '\(name)' is defined", input: nil)
            return nil
        case .array(let element), .set(let element):
            guard case .array(let items) = value else {
                ctx.fail(ModelIssue.Code.type, "expected an array, got \(value.typeDescription)", input: value)
                return nil
            }
            guard ctx.checkDepth() else { return nil }
            ctx.depth += 1
            defer { ctx.depth -= 1 }
            var out = [JSONValue]()
            out.reserveCapacity(items.count)
            var ok = true
            let isSet: Bool
            if case .set = type { isSet = true } else { isSet = false }
            var seen = isSet ? Set<JSONValue>() : []
            for i in items.indices {
                ctx.path.append(.index(i))
                if let v = convertValue(items[i], element, &ctx) {
                    if !isSet || seen.insert(v).inserted { out.append(v) }
                } else {
                    ok = false
                }
                ctx.path.removeLast()
                if ctx.issues.count > ctx.options.maxIssues { break }
            }
            return ok ? .array(out) : nil
        case .map(let element):
            guard case .object(let object) = value else {
                ctx.fail(ModelIssue.Code.type, "expected an object (a map), got \(value.typeDescription)", input: value)
                return nil
            }
            guard ctx.checkDepth() else { return nil }
            ctx.depth += 1
            defer { ctx.depth -= 1 }
            var out = JSONObject()
            var ok = true
            for (k, v) in object {
                ctx.path.append(.key(k))
                if let c = convertValue(v, element, &ctx) { out[k] = c } else { ok = false }
                ctx.path.removeLast()
                if ctx.issues.count > ctx.options.maxIssues { break }
            }
            return ok ? .object(out) : nil
        }
    }

    // MARK: model → JSON

    func reverseModel(_ value: JSONValue, _ modelIndex: Int, _ ctx: inout ConversionContext) -> JSONValue {
        var model = models[modelIndex]
        guard case .object(let object) = value else {
            if !value.isNull {
                ctx.fail(
                    ModelIssue.Code.type, "expected an object (model \(model.name)), got \(value.typeDescription)",
                    input: value)
            }
            return value
        }
        guard ctx.checkDepth() else { return .null }
        // The resolver (given the model object) picks the model, as in conversion.
        if let resolver = model.resolver, let target = resolver(value), target != model.name, let i = index[target] {
            model = models[i]
        }
        if let d = model.discriminator,
            let tagValue = object[d.key]
                ?? model.fields.first(where: { $0.keys.first == d.key }).flatMap({ object[$0.name] })
        {
            let tag = tagValue.stringValue ?? tagValue.doubleValue.map { JSONValue.javaScriptString(for: $0) } ?? ""
            if let t = d.targets[tag] { model = models[t] }
        }
        ctx.depth += 1
        defer { ctx.depth -= 1 }
        var out = JSONObject()
        for field in model.fields {
            guard let v = object[field.name] else { continue }
            ctx.path.append(.key(field.name))
            let json = reverseValue(v, field.type, &ctx)
            ctx.path.removeLast()
            if ctx.canonical, json == .null { continue }
            out.set(path: field.paths[0][...], json)
        }
        return .object(out)
    }

    func reverseValue(_ value: JSONValue, _ type: CompiledType, _ ctx: inout ConversionContext) -> JSONValue {
        if value.isNull { return .null }
        switch type {
        case .optional(let inner): return reverseValue(value, inner, &ctx)
        case .model(let i): return reverseModel(value, i, &ctx)
        case .date:
            switch value {
            case .string(let s): return DateFormats.parse(s).map { .string(DateFormats.iso8601($0)) } ?? value
            // A number is read by conversion's own rule (Unix seconds, or milliseconds past 2·10^10).
            case .number(let n) where n.isFinite:
                return Coerce.date(value, &ctx).map { .string(DateFormats.iso8601($0)) } ?? value
            default: return value
            }
        case .array(let e), .set(let e):
            var isSet = false
            if case .set = type { isSet = ctx.canonical }
            guard case .array(let items) = value, e.needsReverse || isSet else { return value }
            var out = [JSONValue]()
            out.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                ctx.path.append(.index(i))
                out.append(e.needsReverse ? reverseValue(item, e, &ctx) : item)
                ctx.path.removeLast()
            }
            guard isSet else { return .array(out) }
            // A set has no order: its canonical form lists each item once, in the order of its text.
            var seen = Set<String>()
            let keyed = out.map { ($0.serialized(), $0) }.filter { seen.insert($0.0).inserted }
            return .array(keyed.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }.map(\.1))
        case .map(let e):
            guard case .object(let object) = value, e.needsReverse else { return value }
            var out = JSONObject()
            for (k, v) in object {
                ctx.path.append(.key(k))
                out[k] = reverseValue(v, e, &ctx)
                ctx.path.removeLast()
            }
            return .object(out)
        default:
            return value
        }
    }
}

extension CompiledType {
    /// Whether the type is `url` or `url?`.
    var isURL: Bool {
        switch self {
        case .url: true
        case .optional(let inner): inner.isURL
        default: false
        }
    }

    var needsReverse: Bool {
        switch self {
        case .model, .date: true
        case .array(let e), .set(let e), .map(let e), .optional(let e): e.needsReverse
        default: false
        }
    }
}
