import JSBridgeCore
import ModelConversion
import Synchronization

/// The `Model` bridge plugin: a thin adapter over ``ModelRegistry`` (see docs/model-conversion.md).
///
/// Scripts use the `Model` global (js/model.js); these are its native actions. Arguments are plain JSON
/// (`{name, value, options}`), read without the Decodable machinery to keep conversions fast.
public struct ModelPlugin: BridgePlugin {
    public static let name = "Model"
    /// The models of this runtime (one registry per host).
    public let registry: ModelRegistry
    /// Models whose resolver this plugin installed for a JS `resolve` hook.
    private let jsResolved = JSResolvedModels()

    public init() { self.init(registry: ModelRegistry()) }
    public init(registry: ModelRegistry) { self.registry = registry }

    /// The key js/model.js adds to an input object whose model a JS `resolve` hook chose; the native resolver
    /// of such a model reads it (a NUL-prefixed key, which real payloads do not use).
    public static let resolvedModelKey = "\u{0}model"

    public func actions(_ a: inout ActionTable) {
        let registry = self.registry
        let jsResolved = self.jsResolved
        a.sync("define", args: JSONValue.self) { _, args in
            let name = try args.requiredString("name")
            let schema = try ModelSchema(name: name, json: args["schema"] ?? .null, options: args["options"] ?? .null)
            let replace = args["options"]?["replace"]?.boolValue ?? false
            try registry.define(schema, redefinition: replace ? .replace : .rejectDifferent)
            // `resolve: true`: the model has a JS resolver (js/model.js marks each resolved input object).
            let jsResolver = args["options"]?["resolve"]?.boolValue ?? false
            let installed = jsResolved.names.withLock { set in
                jsResolver ? set.insert(name).inserted : set.remove(name) != nil
            }
            if jsResolver {
                registry.setResolver(name) { $0[ModelPlugin.resolvedModelKey]?.stringValue }
            } else if installed {
                registry.setResolver(name, nil)
            }
            return schema.json
        }
        a.sync("inputKeys", args: JSONValue.self) { _, args in
            let name = try args.requiredString("name")
            guard let keys = registry.inputKeys(name) else { throw unknownModel(name) }
            return keys
        }
        a.sync("schema", args: JSONValue.self) { _, args in
            let name = try args.requiredString("name")
            guard let schema = registry.schema(name) else { throw unknownModel(name) }
            return schema.json
        }
        a.sync("names") { _ in registry.names }
        a.sync("fastPlans", args: JSONValue.self) { _, args in
            registry.fastPlans(try args.requiredString("name"))
        }
        a.sync("convert", args: JSONValue.self) { _, args in try convert(registry, args) }
        a.async("convertAsync", args: JSONValue.self) { _, args in try convert(registry, args) }
        a.sync("toJSON", args: JSONValue.self) { _, args in
            let name = try args.requiredString("name")
            guard registry.isDefined(name) else { throw unknownModel(name) }
            return try registry.toJSON(name, args["value"] ?? .null)
        }
        a.sync("validate", args: JSONValue.self) { _, args in
            let name = try args.requiredString("name")
            guard registry.isDefined(name) else { throw unknownModel(name) }
            let options = try conversionOptions(args["options"])
            return JSONValue.array(registry.validate(name, args["value"] ?? .null, options: options).map(\.json))
        }
        a.sync("sample", args: JSONValue.self) { _, args in
            let name = try args.requiredString("name")
            guard registry.isDefined(name) else { throw unknownModel(name) }
            return try registry.sample(name, asJSON: args["json"]?.boolValue ?? false)
        }
        a.sync("archive", args: JSONValue.self) { _, args in
            let name = try args.requiredString("name")
            guard registry.isDefined(name) else { throw unknownModel(name) }
            return try registry.archive(name, args["value"] ?? .null)
        }
        a.sync("unarchive", args: JSONValue.self) { _, args in
            let text = try args.requiredString("archive")
            let (model, value) = try registry.unarchive(text)
            return JSONValue.object(["model": .string(model), "value": value])
        }
        a.sync("equals", args: JSONValue.self) { _, args in
            let name = try args.requiredString("name")
            guard registry.isDefined(name) else { throw unknownModel(name) }
            return registry.equal(name, args["a"] ?? .null, args["b"] ?? .null)
        }
        a.sync("hash", args: JSONValue.self) { _, args in
            let name = try args.requiredString("name")
            guard registry.isDefined(name) else { throw unknownModel(name) }
            return Double(registry.hash(name, args["value"] ?? .null) & 0x1F_FFFF_FFFF_FFFF)
        }
        a.sync("describe", args: JSONValue.self) { _, args in
            let name = try args.requiredString("name")
            return registry.describe(name, args["value"] ?? .null)
        }
    }
}

/// The names of the models whose resolver the plugin installed for a JS `resolve` hook.
private final class JSResolvedModels: Sendable {
    let names = Mutex<Set<String>>([])
}

private func convert(_ registry: ModelRegistry, _ args: JSONValue) throws -> JSONValue {
    let name = try args.requiredString("name")
    guard registry.isDefined(name) else { throw unknownModel(name) }
    let options = try conversionOptions(args["options"])
    return try registry.convert(name, args["value"] ?? .null, options: options)
}

private func conversionOptions(_ json: JSONValue?) throws -> ConversionOptions {
    var options = ConversionOptions()
    guard let json, case .object(let o) = json else { return options }
    for (key, value) in o {
        switch (key, value) {
        case ("strict", .bool(let b)): options.strict = b
        case ("nullLikes", .array(let a)): options.nullLikes = Set(a.compactMap(\.stringValue))
        case ("maxDepth", .number(let n)) where n >= 1 && n <= 500: options.maxDepth = Int(n)
        case ("maxIssues", .number(let n)) where n >= 1: options.maxIssues = Int(min(n, 1e6))
        default:
            throw BridgeError.invalidArgument(
                "Invalid conversion option '\(key)'.",
                issues: [
                    ArgumentIssue(
                        path: "options.\(key)",
                        message:
                            "unknown option or wrong type (strict: boolean, nullLikes: [string], maxDepth: 1…500, maxIssues: number)"
                    )
                ])
        }
    }
    return options
}

func unknownModel(_ name: String) -> BridgeError {
    BridgeError(
        code: "UNKNOWN_MODEL", message: "No model named '\(name)' is defined (use Model.define first).",
        data: ["model": .string(name)])
}

extension ModelError: BridgeErrorConvertible {
    /// `DATA_FORMAT` with `data: {model, issues: [{path, code, message, input}]}`.
    public var bridgeError: BridgeError {
        BridgeError(
            code: "DATA_FORMAT", message: description,
            data: ["model": .string(model), "issues": .array(issues.map(\.json))])
    }
}

extension SchemaError: BridgeErrorConvertible {
    /// `UNKNOWN_TYPE`, `INVALID_SCHEMA` or `REDEFINITION`, with `data.path` in the schema.
    public var bridgeError: BridgeError {
        BridgeError(code: code, message: message, data: path.isEmpty ? nil : ["path": .string(path)])
    }
}

extension JSONValue {
    fileprivate func requiredString(_ key: String) throws -> String {
        guard let s = self[key]?.stringValue else {
            throw BridgeError.invalidArgument(
                "Missing or invalid '\(key)'.", issues: [ArgumentIssue(path: key, message: "expected a string")])
        }
        return s
    }
}
