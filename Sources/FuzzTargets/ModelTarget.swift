import JSBridgeBase
import ModelConversion

extension FuzzTargets {
    /// The model engine: the input is a schema document, a blank line (`\n\n`), then the JSON to convert.
    ///
    /// The schema document is an object of models in definition order, each its fields (what `Model.define`
    /// takes) or `[fields, options]`; definitions the engine rejects are skipped. The value is converted into
    /// the first model, from bytes and from the parsed value, leniently and strictly, and written back.
    /// - No input crashes, hangs or traps (nesting is bounded by the engine's depth limit).
    /// - Converting the bytes and converting the parsed value give the same model, and converting again gives
    ///   it again (the compiled program is reused).
    /// - What converts strictly converts leniently to the same model.
    /// - Writing a converted model back (`toJSON`, `canonicalJSON`) and validating it never crash.
    public static func model(_ bytes: [UInt8]) {
        let (schemaBytes, valueBytes) = bytes.split(atFirst: [10, 10])
        guard case .object(let models)? = try? JSONValue(parsing: schemaBytes) else { return }
        let registry = ModelRegistry()
        var first: String?
        for (name, definition) in models {
            var fields = definition
            var options = JSONValue.null
            if case .array(let pair) = definition, pair.count == 2 {
                fields = pair[0]
                options = pair[1]
            }
            guard let schema = try? ModelSchema(name: name, json: fields, options: options),
                (try? registry.define(schema)) != nil
            else { continue }
            if first == nil { first = name }
        }
        guard let name = first else { return }

        let fromBytes = Result { () throws(ModelError) in try registry.convert(name, json: valueBytes) }
        let parsed = try? parseJSON(valueBytes, model: name)
        if let parsed {
            let lenient = registry.check(name, parsed)
            precondition(lenient.value == (try? fromBytes.get()), "bytes and value conversions disagree")
            let again = registry.check(name, parsed)
            precondition(again.value == lenient.value && again.issues == lenient.issues, "conversion is not stable")
            let strict = registry.check(name, parsed, options: .strictMode)
            if let strictModel = strict.value {
                precondition(lenient.value == strictModel, "strict and lenient conversions disagree")
            }
            if let model = lenient.value {
                _ = try? registry.toJSON(name, model)
                _ = try? registry.canonicalJSON(name, model)
                _ = registry.validate(name, model)
            }
        } else {
            precondition((try? fromBytes.get()) == nil, "bytes that do not parse converted")
        }
    }
}
