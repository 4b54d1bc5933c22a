import Foundation
import JSBridgeBase

extension ModelRegistry {
    /// Plausible data for a model, guessed from field names and types (deterministic): the model form, or
    /// with `asJSON` the JSON form (keys as the server would send them — the basis of HTTP auto-mocks).
    public func sample(_ name: String, asJSON: Bool = false) throws(ModelError) -> JSONValue {
        guard let schema = schema(name) else {
            throw ModelError(
                model: name,
                issues: [
                    ModelIssue(
                        path: "", code: ModelIssue.Code.unknownModel, message: "no model named '\(name)' is defined")
                ])
        }
        var counter = 0
        let model = sampleModel(schema, depth: 0, counter: &counter)
        return asJSON ? try toJSON(name, model) : model
    }

    private func sampleModel(_ schema: ModelSchema, depth: Int, counter: inout Int) -> JSONValue {
        var chosen = schema
        if let d = schema.discriminator, let first = d.mapping.sorted(by: { $0.key < $1.key }).first,
            let sub = self.schema(first.value)
        {
            chosen = sub
        }
        var out = JSONObject()
        for field in chosen.activeFields {
            counter += 1
            out[field.name] = sampleField(field, in: chosen, depth: depth, counter: &counter)
        }
        return .object(out)
    }

    private func sampleField(_ field: FieldSchema, in schema: ModelSchema, depth: Int, counter: inout Int) -> JSONValue
    {
        if let d = schema.discriminator, field.name == d.key || schema.keys(of: field).first == d.key,
            let tag = d.mapping.first(where: { $0.value == schema.name })?.key
        {
            return .string(tag)
        }
        if let d = field.defaultValue { return d }
        if let first = field.oneOf?.first { return first }
        return sampleValue(field.type, field: field, depth: depth, counter: &counter)
    }

    private func sampleValue(_ type: FieldType, field: FieldSchema, depth: Int, counter: inout Int) -> JSONValue {
        let n = field.name.lowercased()
        func has(_ words: String...) -> Bool { words.contains { n.contains($0) } }
        switch type {
        case .optional(let inner):
            if case .model = inner, depth >= 2 { return .null }
            return sampleValue(inner, field: field, depth: depth, counter: &counter)
        case .string:
            let s: String
            if has("email", "mail") {
                s = "jane.doe@example.com"
            } else if has("url", "link", "avatar", "image", "href", "blog") {
                s = "https://example.com/\(field.name)"
            } else if has("login", "username", "nick", "handle") {
                s = "jane_doe"
            } else if has("name") {
                s = "Jane Doe"
            } else if has("title") {
                s = "A sample title"
            } else if has("phone", "mobile", "tel") {
                s = "+1 555 0100"
            } else if has("city", "location") {
                s = "Paris"
            } else if has("country") {
                s = "France"
            } else if has("color", "colour") {
                s = "#3366ff"
            } else if has("id") {
                s = "id-\(counter)"
            } else if has("desc", "bio", "text", "content", "comment", "summary") {
                s = "Lorem ipsum dolor sit amet."
            } else if has("type", "kind", "status") {
                s = "default"
            } else {
                s = "sample \(field.name)"
            }
            return .string(clampLength(s, field))
        case .int:
            var v: Double
            if has("id") {
                v = Double(counter)
            } else if has("age") {
                v = 30
            } else if has("year") {
                v = 2024
            } else if has("count", "followers", "following", "total", "num", "size") {
                v = 42
            } else if has("price", "amount", "cost") {
                v = 100
            } else {
                v = 1
            }
            if let min = field.minimum, v < min { v = min.rounded(.up) }
            if let max = field.maximum, v > max { v = max.rounded(.down) }
            return .number(v)
        case .double:
            var v: Double
            if has("lat") {
                v = 48.8566
            } else if has("lon", "lng") {
                v = 2.3522
            } else if has("price", "amount", "cost") {
                v = 9.99
            } else if has("rating", "score") {
                v = 4.5
            } else {
                v = 1.5
            }
            if let min = field.minimum, v < min { v = min }
            if let max = field.maximum, v > max { v = max }
            return .number(v)
        case .bool: return .bool(true)
        case .date: return .string("2024-01-15T09:30:00Z")
        case .url: return .string("https://example.com/\(field.name)")
        case .any: return .object(["sample": .bool(true)])
        case .model(let name):
            guard let schema = schema(name) else { return .null }
            if depth >= 3 { return .object([:]) }
            return sampleModel(schema, depth: depth + 1, counter: &counter)
        case .array(let e), .set(let e):
            if case .model = e, depth >= 2 { return .array([]) }
            let count = max(Int(field.minimum ?? 1), 1)
            return .array(
                (0..<min(count, 3)).map { _ in
                    counter += 1
                    return sampleValue(e, field: field, depth: depth, counter: &counter)
                })
        case .map(let e):
            if case .model = e, depth >= 2 { return .object([:]) }
            return .object(["key": sampleValue(e, field: field, depth: depth, counter: &counter)])
        }
    }

    private func clampLength(_ s: String, _ field: FieldSchema) -> String {
        var s = s
        if let max = field.maximum, Double(s.count) > max { s = String(s.prefix(Int(max))) }
        if let min = field.minimum, Double(s.count) < min { s += String(repeating: "x", count: Int(min) - s.count) }
        return s
    }

    // MARK: Archiving

    /// The archive format version written by ``archive(_:_:)``.
    public static let archiveVersion = 1

    /// A stable encoded form of a model (for Storage): `{"$model":name,"$version":1,"value":{…}}` with the value
    /// in JSON form (first keys, dates ISO 8601). The same model always gives the same text.
    public func archive(_ name: String, _ model: JSONValue) throws(ModelError) -> String {
        let json = try canonicalJSON(name, model)
        let envelope: JSONObject = [
            "$model": .string(name), "$version": .number(Double(Self.archiveVersion)), "value": json,
        ]
        return JSONValue.object(envelope).serialized()
    }

    /// Restores a model archived by ``archive(_:_:)`` (converting again, so a schema change is checked).
    public func unarchive(_ text: String, options: ConversionOptions = .lenient) throws(ModelError) -> (
        model: String, value: JSONValue
    ) {
        let envelope = try parseJSON(Array(text.utf8), model: "archive")
        guard let name = envelope["$model"]?.stringValue, let value = envelope["value"] else {
            throw ModelError(
                model: "archive",
                issues: [
                    ModelIssue(
                        path: "", code: ModelIssue.Code.type,
                        message: "not a model archive (expected {\"$model\", \"$version\", \"value\"})")
                ])
        }
        guard let version = envelope["$version"]?.intValue, version <= Self.archiveVersion else {
            throw ModelError(
                model: name,
                issues: [
                    ModelIssue(
                        path: "$version", code: ModelIssue.Code.range, message: "unsupported archive version",
                        input: envelope["$version"])
                ])
        }
        return (name, try convert(name, value, options: options))
    }

    // MARK: Equality, hashing, copying, description

    /// Whether two models are equal field by field (dates compared as instants; `null` and missing alike).
    public func equal(_ name: String, _ a: JSONValue, _ b: JSONValue) -> Bool {
        guard let x = try? canonicalJSON(name, a), let y = try? canonicalJSON(name, b) else { return a == b }
        return x == y
    }

    /// A hash consistent with ``equal(_:_:_:)``.
    public func hash(_ name: String, _ a: JSONValue) -> Int {
        var h = Hasher()
        h.combine((try? canonicalJSON(name, a)) ?? a)
        return h.finalize()
    }

    /// A deep copy through conversion (a model value is already a value type in Swift; this re-validates).
    public func copy(_ name: String, _ a: JSONValue) throws(ModelError) -> JSONValue {
        try convert(name, try toJSON(name, a))
    }

    /// `GithubUser(login: "facebook", id: 69631, …)`.
    public func describe(_ name: String, _ a: JSONValue) -> String {
        guard case .object(let o) = a else { return "\(name)(\(a))" }
        let parts = o.map { "\($0.key): \($0.value.serialized())" }
        return "\(name)(\(parts.joined(separator: ", ")))"
    }
}

extension JSONObject {
    /// Sets `value` at a dotted key path (`["ext", "desc"]`), creating the intermediate objects. Two fields
    /// keyed `x` and `x.y` share a place: a null never replaces what the other wrote, and a nested value is not
    /// written inside a value that is not an object (the first field's value wins).
    mutating func set(path: ArraySlice<String>, _ value: JSONValue) {
        let key = path.first!
        if path.count == 1 {
            if value == .null, self[key] != nil { return }
            self[key] = value
            return
        }
        var child: JSONObject
        switch self[key] {
        case .object(let existing)?: child = existing
        case nil, .null?: child = JSONObject()
        default: return
        }
        child.set(path: path.dropFirst(), value)
        self[key] = .object(child)
    }
}
