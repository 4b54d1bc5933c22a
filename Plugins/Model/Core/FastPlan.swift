import JSBridgeBase

extension ModelRegistry {
    /// Plans for the JS fast path (the Model plugin's model.js): for `name` and every model it reaches, either a plan
    /// `{fields: [{name, keys, type, required}]}` or `null` when the model uses a feature the fast path does not
    /// replicate (defaults, enums, ranges, policies, strictness overrides, polymorphism, native transforms,
    /// dotted or non-ASCII keys, dates, sets, maps, any). Types: "string" | "int" | "double" | "bool" | "url" |
    /// {"model": name} | {"array": type} | {"optional": type}. The fast path only handles input that converts
    /// with no coercion and no issue; everything else goes to ``convert(_:_:options:)``.
    public func fastPlans(_ name: String) -> JSONValue {
        let program = program()
        var plans = JSONObject()
        var pending = [name]
        var ineligible = Set<String>()
        while let next = pending.popLast() {
            if plans[next] != nil { continue }
            guard let i = program.index[next] else {
                plans[next] = .null
                ineligible.insert(next)
                continue
            }
            var refs: [String] = []
            let plan = program.fastPlan(program.models[i], &refs)
            plans[next] = plan ?? .null
            if plan == nil { ineligible.insert(next) }
            pending.append(contentsOf: refs)
        }
        // A model is usable only if every model it reaches is.
        var changed = true
        while changed {
            changed = false
            for (key, plan) in zip(plans.keys, plans.values) where !ineligible.contains(key) {
                guard case .object(let o) = plan, case .array(let fields)? = o["fields"] else { continue }
                for field in fields {
                    if let t = field["type"], referencedModels(t).contains(where: ineligible.contains) {
                        ineligible.insert(key)
                        changed = true
                        break
                    }
                }
            }
        }
        var out = JSONObject()
        for (key, plan) in zip(plans.keys, plans.values) { out[key] = ineligible.contains(key) ? .null : plan }
        return .object([
            "plans": .object(out),
            "nullLikes": .array(ConversionOptions.defaultNullLikes.sorted().map(JSONValue.string)),
        ])
    }

    private func referencedModels(_ t: JSONValue) -> [String] {
        guard case .object(let o) = t else { return [] }
        if let m = o["model"]?.stringValue { return [m] }
        if let inner = o["array"] ?? o["optional"] { return referencedModels(inner) }
        return []
    }
}

extension CompiledProgram {
    /// Keys the fast path reads with a plain JS property access: ASCII, no dots, and none of the characters that a
    /// non-ASCII character canonically decomposes to (`K` ← U+212A, `;` ← U+037E, `` ` `` ← U+1FEF), since native
    /// keys compare by canonical equivalence.
    private static func plainKey(_ key: String) -> Bool {
        !key.isEmpty && key != "__proto__"
            && key.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x2E && $0 != 0x4B && $0 != 0x3B && $0 != 0x60 }
    }

    fileprivate func fastPlan(_ model: CompiledModel, _ refs: inout [String]) -> JSONValue? {
        guard model.discriminator == nil, model.before == nil, model.after == nil, model.resolver == nil,
            model.strict == nil
        else { return nil }
        var fields: [JSONValue] = []
        for f in model.fields {
            guard f.defaultValue == nil, f.oneOf == nil, f.minimum == nil, f.maximum == nil, f.policy == .fail,
                f.strict == nil, f.name != "__proto__", f.keys.allSatisfy(Self.plainKey),
                let type = fastType(f.type, &refs)
            else { return nil }
            fields.append([
                "name": .string(f.name), "keys": .array(f.keys.map(JSONValue.string)), "type": type,
                "required": .bool(f.required),
            ])
        }
        return ["fields": .array(fields)]
    }

    private func fastType(_ t: CompiledType, _ refs: inout [String]) -> JSONValue? {
        switch t {
        case .string: return "string"
        case .int: return "int"
        case .double: return "double"
        case .bool: return "bool"
        case .url: return "url"
        case .model(let i):
            refs.append(models[i].name)
            return ["model": .string(models[i].name)]
        case .array(let e): return fastType(e, &refs).map { ["array": $0] }
        case .optional(let e): return fastType(e, &refs).map { ["optional": $0] }
        case .date, .any, .set, .map, .unknown: return nil
        }
    }
}
