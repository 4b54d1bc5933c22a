import JSBridgeCore
@_exported import ModelConversion

/// The `Model` bridge plugin: a thin adapter over ``ModelRegistry`` (see docs/model-conversion.md).
///
/// Scripts use the `Model` global (model.js); these are its native actions. Arguments are plain JSON
/// (`{name, value, options}`), read by hand (``ModelArguments``) to keep conversions fast.
public struct ModelPlugin: BridgePlugin {
    public static let name = "Model"
    /// The models of this runtime (one registry per host).
    public let registry: ModelRegistry

    public init() { self.init(registry: ModelRegistry()) }
    public init(registry: ModelRegistry) { self.registry = registry }

    /// The key model.js adds to an input object whose model a JS `resolve` hook chose; the native resolver
    /// of such a model reads it (a NUL-prefixed key, which real payloads do not use).
    public static let resolvedModelKey = "\u{0}model"

    /// The registry, and the models whose resolver the plugin installed for a JS `resolve` hook.
    public struct State: Sendable {
        let registry: ModelRegistry
        let jsResolved: JSResolvedModels

        /// `name`, or `UNKNOWN_MODEL` when no such model is defined.
        func defined(_ name: String) throws(BridgeError) -> String {
            guard registry.isDefined(name) else { throw unknownModel(name) }
            return name
        }
    }

    public func setUp(_ context: SetUpContext<Self>) async throws -> State {
        State(registry: registry, jsResolved: JSResolvedModels())
    }

    public static func declare(_ plugin: inout PluginDeclaration<Self>) {
        plugin.script(.global("model.js", source: PackageResources.model_js, defines: ["Model"]))
        plugin.typeScript(utf8: PackageResources.model_d_ts)
        plugin.constant("defaultMaxDepth", .number(Double(ConversionOptions.defaultMaxDepth)))
        plugin.constant("maxDepthLimit", .number(Double(ConversionOptions.maxDepthLimit)))
        plugin.constant("maxBridgeDepth", .number(Double(JSONValue.maxParseDepth)))
        plugin.sync("define", args: ModelArguments.self) { context, args in
            let (registry, name) = (context.state.registry, args.name)
            let schema = try ModelSchema(name: name, json: args.schema, options: args.options)
            let replace = args.options["replace"]?.boolValue ?? false
            try registry.define(schema, redefinition: replace ? .replace : .rejectDifferent)
            // `resolve: true`: the model has a JS resolver (model.js marks each resolved input object).
            let jsResolver = args.options["resolve"]?.boolValue ?? false
            let installed = context.state.jsResolved.names.withLock { set in
                jsResolver ? set.insert(name).inserted : set.remove(name) != nil
            }
            if jsResolver {
                registry.setResolver(name) { $0[ModelPlugin.resolvedModelKey]?.stringValue }
            } else if installed {
                registry.setResolver(name, nil)
            }
            return schema.json
        }
        plugin.sync("inputKeys", args: ModelArguments.self) { context, args in
            guard let keys = context.state.registry.inputKeys(args.name) else { throw unknownModel(args.name) }
            return keys
        }
        plugin.sync("schema", args: ModelArguments.self) { context, args in
            guard let schema = context.state.registry.schema(args.name) else { throw unknownModel(args.name) }
            return schema.json
        }
        plugin.sync("names") { context in context.state.registry.names }
        plugin.sync("fastPlans", args: ModelArguments.self) { context, args in
            context.state.registry.fastPlans(args.name)
        }
        plugin.sync("convert", args: ModelArguments.self) { context, args in try convert(context.state, args) }
        plugin.async("convertAsync", args: ModelArguments.self) { context, args in try convert(context.state, args) }
        plugin.sync("toJSON", args: ModelArguments.self) { context, args in
            try context.state.registry.toJSON(try context.state.defined(args.name), args.value)
        }
        plugin.sync("validate", args: ModelArguments.self) { context, args in
            let name = try context.state.defined(args.name)
            let issues = context.state.registry.validate(name, args.value, options: try args.conversionOptions())
            return JSONValue.array(issues.map(\.json))
        }
        plugin.sync("sample", args: ModelArguments.self) { context, args in
            try context.state.registry.sample(try context.state.defined(args.name), asJSON: args.json)
        }
        plugin.sync("archive", args: ModelArguments.self) { context, args in
            try context.state.registry.archive(try context.state.defined(args.name), args.value)
        }
        plugin.sync("unarchive", args: ArchiveArguments.self) { context, args in
            let (model, value) = try context.state.registry.unarchive(args.archive)
            return JSONValue.object(["model": .string(model), "value": value])
        }
        plugin.sync("equals", args: ModelArguments.self) { context, args in
            context.state.registry.equal(try context.state.defined(args.name), args.a, args.b)
        }
        plugin.sync("hash", args: ModelArguments.self) { context, args in
            Double(context.state.registry.hash(try context.state.defined(args.name), args.value) & 0x1F_FFFF_FFFF_FFFF)
        }
        plugin.sync("describe", args: ModelArguments.self) { context, args in
            context.state.registry.describe(try context.state.defined(args.name), args.value)
        }
    }
}

/// The arguments of the Model actions: `{name, value?, options?, schema?, json?, a?, b?}` (`name` required).
struct ModelArguments: ArgumentsReadable {
    var name: String
    var value: JSONValue
    var options: JSONValue
    var schema: JSONValue
    var json: Bool
    var a: JSONValue, b: JSONValue

    static let typeScript = TypeScriptType.raw(
        "{ name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }"
    )

    init(arguments: JSONValue) throws(BridgeError) {
        guard case .string(let name)? = arguments["name"] else {
            throw .invalidArgument(
                "Missing or invalid 'name'.", issues: [ArgumentIssue(path: "name", message: "expected a string")])
        }
        self.name = name
        value = arguments["value"] ?? .null
        options = arguments["options"] ?? .null
        schema = arguments["schema"] ?? .null
        json = arguments["json"]?.boolValue ?? false
        a = arguments["a"] ?? .null
        b = arguments["b"] ?? .null
    }

    /// `options` as conversion options: `strict`, `nullLikes`, `maxDepth`, `maxIssues`.
    func conversionOptions() throws(BridgeError) -> ConversionOptions {
        var conversion = ConversionOptions()
        guard case .object(let o) = options else { return conversion }
        for (key, value) in o {
            switch (key, value) {
            case ("strict", .bool(let b)): conversion.strict = b
            case ("nullLikes", .array(let a)): conversion.nullLikes = Set(a.compactMap(\.stringValue))
            case ("maxDepth", .number(let n)) where n >= 1 && n <= Double(ConversionOptions.maxDepthLimit):
                conversion.maxDepth = Int(n)
            case ("maxIssues", .number(let n)) where n >= 1: conversion.maxIssues = Int(min(n, 1e6))
            default:
                throw BridgeError.invalidArgument(
                    "Invalid conversion option '\(key)'.",
                    issues: [
                        ArgumentIssue(
                            path: "options.\(key)",
                            message:
                                "unknown option or wrong type (strict: boolean, nullLikes: [string], maxDepth: 1…\(ConversionOptions.maxDepthLimit), maxIssues: number)"
                        )
                    ])
            }
        }
        return conversion
    }
}

/// `{archive}`: text made by `archive`.
struct ArchiveArguments: ArgumentsReadable {
    var archive: String
    static let typeScript = TypeScriptType.raw("{ archive: string }")

    init(arguments: JSONValue) throws(BridgeError) {
        guard case .string(let text)? = arguments["archive"] else {
            throw .invalidArgument(
                "Missing or invalid 'archive'.", issues: [ArgumentIssue(path: "archive", message: "expected a string")])
        }
        archive = text
    }
}

/// The names of the models whose resolver the plugin installed for a JS `resolve` hook.
final class JSResolvedModels: Sendable {
    let names = Locked<Set<String>>([])
}

private func convert(_ state: ModelPlugin.State, _ args: ModelArguments) throws -> JSONValue {
    try state.registry.convert(try state.defined(args.name), args.value, options: try args.conversionOptions())
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
