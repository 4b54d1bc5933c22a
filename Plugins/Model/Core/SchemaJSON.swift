import Foundation
import JSBridgeBase

extension ModelSchema {
    /// Reads a plain-object schema (what `Model.define(name, schema, options)` receives):
    /// `{ field: "string" | "Room" | ["Room"] | "int?" | { type, key | keys, optional, required, default,
    /// enum, min, max, onInvalid, strict } }`, and options `{ strict, keyStrategy, onInvalid, only, ignore,
    /// discriminator: { key, mapping } }`.
    public init(name: String, json schema: JSONValue, options: JSONValue = .null) throws(SchemaError) {
        guard case .object(let fields) = schema else {
            throw SchemaError(
                code: "INVALID_SCHEMA",
                message: "The schema of '\(name)' must be an object of fields, got \(schema.typeDescription).")
        }
        var parsed = [FieldSchema]()
        for (fieldName, spec) in fields {
            parsed.append(try FieldSchema(name: fieldName, json: spec))
        }
        self.init(name: name, fields: parsed)
        guard case .object(let o) = options else {
            if !options.isNull {
                throw SchemaError(code: "INVALID_SCHEMA", message: "The options of '\(name)' must be an object.")
            }
            return
        }
        for (key, value) in o {
            switch key {
            case "strict": strict = try value.bool(key)
            case "keyStrategy":
                guard let s = value.stringValue, let k = KeyStrategy(rawValue: s == "snake" ? "snake_case" : s) else {
                    throw SchemaError(
                        code: "INVALID_SCHEMA", message: "keyStrategy must be \"none\" or \"snake_case\".", path: key)
                }
                keyStrategy = k
            case "onInvalid": onInvalid = try InvalidPolicy(json: value, path: key)
            case "only", "whitelist": only = try value.strings(key)
            case "ignore", "blacklist": ignore = try value.strings(key)
            case "discriminator":
                guard let k = value["key"]?.stringValue, case .object(let m)? = value["mapping"] else {
                    throw SchemaError(
                        code: "INVALID_SCHEMA",
                        message: "discriminator must be { key: string, mapping: { value: ModelName } }.", path: key)
                }
                var mapping = [String: String]()
                for (tag, model) in m {
                    guard let modelName = model.stringValue else {
                        throw SchemaError(
                            code: "INVALID_SCHEMA", message: "discriminator mapping values must be model names.",
                            path: "discriminator.mapping.\(tag)")
                    }
                    mapping[tag] = modelName
                }
                discriminator = Discriminator(key: k, mapping: mapping)
            case "replace", "before", "after", "resolve": continue  // handled by the caller / the JS side
            default:
                throw SchemaError(code: "INVALID_SCHEMA", message: "Unknown model option '\(key)'.", path: key)
            }
        }
    }

    /// The schema as a plain object (the inverse of ``init(name:json:options:)``).
    public var json: JSONValue {
        var fields = JSONObject()
        for f in self.fields { fields[f.name] = f.json }
        var out: JSONObject = ["name": .string(name), "fields": .object(fields)]
        var options = JSONObject()
        if let strict { options["strict"] = .bool(strict) }
        if keyStrategy != .none { options["keyStrategy"] = .string(keyStrategy.rawValue) }
        if onInvalid != .fail { options["onInvalid"] = .string(onInvalid.rawValue) }
        if let only { options["only"] = .array(only.map(JSONValue.string)) }
        if !ignore.isEmpty { options["ignore"] = .array(ignore.map(JSONValue.string)) }
        if let d = discriminator {
            options["discriminator"] = [
                "key": .string(d.key),
                "mapping": .object(
                    JSONObject(d.mapping.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            ]
        }
        out["options"] = .object(options)
        return .object(out)
    }
}

extension FieldSchema {
    init(name: String, json spec: JSONValue) throws(SchemaError) {
        let path = name
        switch spec {
        case .string(let t):
            do { self.init(name, try FieldType.parse(t)) } catch {
                throw SchemaError(code: error.code, message: "Field '\(name)': \(error.message)", path: path)
            }
        case .array:
            self.init(name, try FieldType(json: spec, path: path))
        case .object(let o):
            guard let typeSpec = o["type"] else {
                throw SchemaError(
                    code: "INVALID_SCHEMA", message: "Field '\(name)': an options object needs a 'type'.", path: path)
            }
            self.init(name, try FieldType(json: typeSpec, path: path + ".type"))
            for (key, value) in o {
                let p = path + "." + key
                switch key {
                case "type": continue
                case "key": keys = [try value.string(p)]
                case "keys": keys = try value.strings(p)
                case "optional":
                    if try value.bool(p), !type.isOptional { type = .optional(type) }
                case "required": required = try value.bool(p)
                case "default": defaultValue = value
                case "enum", "oneOf", "scope":
                    guard case .array(let a) = value else {
                        throw SchemaError(
                            code: "INVALID_SCHEMA", message: "Field '\(name)': enum must be an array.", path: p)
                    }
                    oneOf = a
                case "min", "minimum": minimum = try value.number(p)
                case "max", "maximum": maximum = try value.number(p)
                case "onInvalid": onInvalid = try InvalidPolicy(json: value, path: p)
                case "strict": strict = try value.bool(p)
                default:
                    throw SchemaError(
                        code: "INVALID_SCHEMA", message: "Field '\(name)': unknown option '\(key)'.", path: p)
                }
            }
            if keys.contains(where: { $0.isEmpty }) {
                throw SchemaError(
                    code: "INVALID_SCHEMA", message: "Field '\(name)': a key must not be empty.", path: path)
            }
        default:
            throw SchemaError(
                code: "INVALID_SCHEMA",
                message:
                    "Field '\(name)': expected a type name, [type] or an options object, got \(spec.typeDescription).",
                path: path)
        }
    }

    var json: JSONValue {
        var o: JSONObject = ["type": .string(type.description)]
        if !keys.isEmpty { o["keys"] = .array(keys.map(JSONValue.string)) }
        if let required { o["required"] = .bool(required) }
        if let defaultValue { o["default"] = defaultValue }
        if let oneOf { o["enum"] = .array(oneOf) }
        if let minimum { o["min"] = .number(minimum) }
        if let maximum { o["max"] = .number(maximum) }
        if let onInvalid { o["onInvalid"] = .string(onInvalid.rawValue) }
        if let strict { o["strict"] = .bool(strict) }
        return .object(o)
    }
}

extension FieldType {
    init(json: JSONValue, path: String) throws(SchemaError) {
        switch json {
        case .string(let t):
            do { self = try FieldType.parse(t) } catch {
                throw SchemaError(code: error.code, message: "Field '\(path)': \(error.message)", path: path)
            }
        case .array(let a):
            guard a.count == 1 else {
                throw SchemaError(
                    code: "INVALID_SCHEMA",
                    message: "Field '\(path)': an array type is written [type] with exactly one element.", path: path)
            }
            self = .array(try FieldType(json: a[0], path: path + "[0]"))
        case .object(let o) where o.count == 1 && (o["set"] != nil || o["map"] != nil || o["optional"] != nil):
            let (k, v) = (o.keys[0], o.values[0])
            let inner = try FieldType(json: v, path: path + "." + k)
            self = k == "set" ? .set(inner) : k == "map" ? .map(inner) : .optional(inner)
        default:
            throw SchemaError(
                code: "INVALID_SCHEMA",
                message: "Field '\(path)': expected a type name or [type], got \(json.typeDescription).", path: path)
        }
    }
}

extension InvalidPolicy {
    init(json: JSONValue, path: String) throws(SchemaError) {
        guard let s = json.stringValue, let p = InvalidPolicy(rawValue: s == "null" ? "default" : s) else {
            throw SchemaError(
                code: "INVALID_SCHEMA", message: "onInvalid must be \"fail\", \"default\" or \"null\".", path: path)
        }
        self = p
    }
}

extension JSONValue {
    fileprivate func bool(_ path: String) throws(SchemaError) -> Bool {
        guard case .bool(let b) = self else {
            throw SchemaError(code: "INVALID_SCHEMA", message: "'\(path)' must be a boolean.", path: path)
        }
        return b
    }
    fileprivate func number(_ path: String) throws(SchemaError) -> Double {
        guard case .number(let n) = self, n.isFinite else {
            throw SchemaError(code: "INVALID_SCHEMA", message: "'\(path)' must be a number.", path: path)
        }
        return n
    }
    fileprivate func string(_ path: String) throws(SchemaError) -> String {
        guard case .string(let s) = self else {
            throw SchemaError(code: "INVALID_SCHEMA", message: "'\(path)' must be a string.", path: path)
        }
        return s
    }
    fileprivate func strings(_ path: String) throws(SchemaError) -> [String] {
        if case .string(let s) = self { return [s] }
        guard case .array(let a) = self else {
            throw SchemaError(code: "INVALID_SCHEMA", message: "'\(path)' must be an array of strings.", path: path)
        }
        var out = [String]()
        for v in a {
            guard case .string(let s) = v else {
                throw SchemaError(code: "INVALID_SCHEMA", message: "'\(path)' must be an array of strings.", path: path)
            }
            out.append(s)
        }
        return out
    }
}
