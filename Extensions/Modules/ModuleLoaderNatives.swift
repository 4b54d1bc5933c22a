import CJavaScriptCore
import Foundation
import JSBridge
import JSBridgeCore

/// The loaders' natives: compiling CommonJS and ES modules (``ModuleScanner``), and the file-system questions
/// resolution asks (used by `module.js`, `esm.js`, `resolve.js`, and the REPL's tokenizer).
extension ModulesExtension {
    /// The start of a compiled module's function, up to its body: js/esm.js calls it with these parameters.
    private static let modulePrefix = Array("(function (__jsbImports, __jsbMeta__, __jsbI, __jsbExport) {".utf16)

    static func declareNatives(_ ext: inout ExtensionDeclaration<ExtensionHost>) {
        // stat(path) → 0 missing, 1 file, 2 directory.
        ext.native("stat", "(path: string): 0 | 1 | 2") { call, _ throws(NativeError) in
            var info = stat()
            guard stat(call.string(0), &info) == 0 else { return JSValueMakeNumber(call.context, 0) }
            return JSValueMakeNumber(call.context, info.st_mode & S_IFMT == S_IFDIR ? 2 : 1)
        }
        ext.native("realpath", "(path: string): string") { call, _ throws(NativeError) in
            let path = call.string(0)
            guard let resolved = realpath(path, nil) else { return call.engine.makeString(path) }
            defer { free(resolved) }
            return call.engine.makeString(String(cString: resolved))
        }
        // compile(source, filename, ...params) → a function whose body is `source` (CommonJS wrapper).
        ext.native("compile", "(source: string, filename: string, ...parameters: string[]): Function") {
            call, _ throws(NativeError) in
            let names = (2..<max(2, call.count)).map { call.string($0) }
            return try call.engine.compileFunction(body: call.string(0), parameters: names, sourceURL: call.string(1))
        }
        // compileModule(filename, source, detect) → the module's analysis (as scanModule's, without `body`) with
        // `source` (the text, read from `filename` when `source` is undefined), `compiled` (the module function:
        // see docs/architecture.md, "ES modules"), `isAsync` and `headerLength` (the wrapper's length before
        // the module's first line); `{error, offset, source}` for a malformed module. With `detect`, a module
        // without module syntax is not compiled (`compiled` is absent: the file is CommonJS).
        ext.native(
            "compileModule", "(filename: string, source: string | undefined, detect: boolean): JSBridgeCompiledModule"
        ) {
            call, host throws(NativeError) in
            let engine = call.engine
            var units: [UInt16]
            if JSValueIsUndefined(call.context, call[1]) {
                let data = try host.readSource(call.string(0))
                units = Array(String(decoding: data, as: UTF8.self).utf16)
            } else {
                units = engine.withUTF16(call[1]) { Array($0) }
            }
            let filename = call.string(0)
            if isTypeScript(filename) {
                do throws(TypeScriptStripper.StripError) {
                    let stripped = try units.withUnsafeBufferPointer {
                        buffer throws(TypeScriptStripper.StripError) in try TypeScriptStripper.strip(buffer)
                    }
                    if let stripped {
                        units = stripped
                    }
                } catch {
                    let object = JSValueToObject(engine.context, engine.makeValue(json(error, in: units)), nil)!
                    units.withUnsafeBufferPointer { engine.setProperty(object, "source", engine.makeString(utf16: $0)) }
                    return object
                }
            }
            return try units.withUnsafeBufferPointer { buffer throws(NativeError) in
                try compileModule(buffer, filename: filename, detect: call.bool(2), engine: engine)
            }
        }
        // stripTypeScript(source) → the source with TypeScript's erasable syntax blanked out (docs/running-scripts.md,
        // "TypeScript"), or `{error, offset, line, column, code}` for syntax that cannot be erased.
        ext.native("stripTypeScript", "(source: string): string | JSBridgeTypeScriptError") {
            call, _ throws(NativeError) in
            let engine = call.engine
            return engine.withUTF16(call[0]) { source in
                do throws(TypeScriptStripper.StripError) {
                    guard let stripped = try TypeScriptStripper.strip(source) else { return call[0] }
                    return stripped.withUnsafeBufferPointer { engine.makeString(utf16: $0) }
                } catch {
                    return engine.makeValue(json(error, in: Array(source)))
                }
            }
        }
        // scanModule(source, dynamicOnly) → the analysis with `body` (the rewritten source), or
        // `{error, offset}` for a malformed module.
        ext.native("scanModule", "(source: string, dynamicOnly?: boolean): JSBridgeModuleScan") {
            call, _ throws(NativeError) in
            let engine = call.engine
            let dynamicOnly = call.count > 1 && call.bool(1)
            return engine.withUTF16(call[0]) { source in
                do throws(ModuleScanner.ScanError) {
                    let analysis = try ModuleScanner(source).analyze(dynamicOnly: dynamicOnly)
                    let object = JSValueToObject(engine.context, engine.makeValue(json(analysis)), nil)!
                    let body =
                        analysis.edits.isEmpty
                        ? engine.makeString(utf16: source)
                        : analysis.rewrite(source).withUnsafeBufferPointer { engine.makeString(utf16: $0) }
                    engine.setProperty(object, "body", body)
                    return object
                } catch {
                    return engine.makeValue(json(error))
                }
            }
        }
        // tokenize(source) → `{types, starts, ends, values, newlines, count}` (values: the text of names and
        // punctuators, else null), or `{error, offset}`.
        ext.native("tokenize", "(source: string): JSBridgeTokens") { call, _ throws(NativeError) in
            let engine = call.engine
            return engine.withUTF16(call[0]) { source in
                do throws(ModuleScanner.ScanError) {
                    let scanner = try ModuleScanner(source)
                    let tokens = scanner.tokens
                    return engine.makeValue([
                        "types": .array(tokens.map { .number(Double($0.kind.rawValue)) }),
                        "starts": .array(tokens.map { .number(Double($0.start)) }),
                        "ends": .array(tokens.map { .number(Double($0.end)) }),
                        "values": .array(tokens.indices.map { scanner.value($0).map(JSONValue.string) ?? .null }),
                        "newlines": .array(tokens.map { .bool($0.newlineBefore) }),
                        "count": .number(Double(tokens.count)),
                    ])
                } catch {
                    return engine.makeValue(json(error))
                }
            }
        }
    }

    /// `compileModule`'s work on the module's text.
    private static func compileModule(
        _ buffer: UnsafeBufferPointer<UInt16>, filename: String, detect: Bool, engine: JSEngine
    ) throws(NativeError) -> JSValueRef {
        let source = engine.makeString(utf16: buffer)
        let analysis: ModuleAnalysis
        do throws(ModuleScanner.ScanError) {
            analysis = try ModuleScanner(buffer).analyze()
        } catch {
            let object = JSValueToObject(engine.context, engine.makeValue(json(error)), nil)!
            engine.setProperty(object, "source", source)
            return object
        }
        let object = JSValueToObject(engine.context, engine.makeValue(json(analysis)), nil)!
        engine.setProperty(object, "source", source)
        if detect && !analysis.moduleSyntax { return object }
        var body = analysis.rewrite(buffer)
        if body.starts(with: [35, 33]) { body.replaceSubrange(0..<2, with: [47, 47]) }  // #! → //
        var isAsync = false
        var header = moduleHeader(analysis, isAsync: false)
        let compiled: JSObjectRef
        do throws(NativeError) {
            compiled = try compileModuleFunction(header: header, body: body, sourceURL: filename, engine: engine)
        } catch {
            // A body with top-level await compiles only as an async generator.
            guard analysis.hasAwait, case .exception(let thrown) = error, engine.isSyntaxError(thrown.value) else {
                throw error
            }
            isAsync = true
            header = moduleHeader(analysis, isAsync: true)
            compiled = try compileModuleFunction(header: header, body: body, sourceURL: filename, engine: engine)
        }
        engine.setProperty(object, "compiled", compiled)
        engine.setProperty(object, "isAsync", JSValueMakeBoolean(engine.context, isAsync))
        let headerLength = modulePrefix.count + header.count
        engine.setProperty(object, "headerLength", JSValueMakeNumber(engine.context, Double(headerLength)))
        return object
    }

    /// The start of a module's function body, up to its first line: imports seen through `with` (only when
    /// there are any), then a generator whose first step registers the export getters.
    private static func moduleHeader(_ analysis: ModuleAnalysis, isAsync: Bool) -> [UInt16] {
        let getters = analysis.locals.map { JSONValue.string($0.exported).serialized() + ": () => " + $0.local }
        let scope = analysis.bindings.isEmpty ? "" : "with (__jsbImports) "
        return Array(
            "\(scope){ return (\(isAsync ? "async " : "")function* () { \"use strict\"; __jsbExport({\(getters.joined(separator: ", "))}); yield; "
                .utf16)
    }

    /// Compiles `header` + `body` + the closing brackets as the module function.
    private static func compileModuleFunction(header: [UInt16], body: [UInt16], sourceURL: String, engine: JSEngine)
        throws(NativeError) -> JSObjectRef
    {
        var text = Self.modulePrefix
        text.reserveCapacity(text.count + header.count + body.count + 16)
        text += header
        text += body
        text += "\n})(); }\n})".utf16
        let source = text.withUnsafeBufferPointer { JSStringCreateWithCharacters($0.baseAddress, $0.count)! }
        defer { JSStringRelease(source) }
        return try engine.evaluateFunction(source, sourceURL: sourceURL)
    }

    /// Whether `filename` is TypeScript (`.ts`, `.mts`, `.cts`), whose erasable syntax is stripped on loading.
    static func isTypeScript(_ filename: String) -> Bool {
        filename.hasSuffix(".ts") || filename.hasSuffix(".mts") || filename.hasSuffix(".cts")
    }

    /// A strip error as the loaders read it: message, offset, 1-based line and column (in UTF-16 units, as
    /// the engine counts them) and Node's code.
    private static func json(_ error: TypeScriptStripper.StripError, in source: [UInt16]) -> JSONValue {
        var line = 1
        var lineStart = 0
        for index in 0..<min(error.offset, source.count) where source[index] == 10 {
            line += 1
            lineStart = index + 1
        }
        return [
            "error": .string(error.message), "offset": .number(Double(error.offset)), "line": .number(Double(line)),
            "column": .number(Double(error.offset - lineStart + 1)), "code": .string(error.code),
        ]
    }

    private static func json(_ error: ModuleScanner.ScanError) -> JSONValue {
        ["error": .string(error.message), "offset": .number(Double(error.offset))]
    }

    /// The analysis as js/esm.js reads it (without the body).
    private static func json(_ analysis: ModuleAnalysis) -> JSONValue {
        .object([
            "requests": .array(
                analysis.requests.map { request in
                    var object: JSONObject = [
                        "specifier": .string(request.specifier), "offset": .number(Double(request.offset)),
                    ]
                    if let type = request.type { object["type"] = .string(type) }
                    return .object(object)
                }),
            "bindings": .array(
                analysis.bindings.map { [.string($0.imported), .string($0.local), .number(Double($0.request))] }),
            "locals": .array(analysis.locals.map { [.string($0.exported), .string($0.local)] }),
            "indirect": .array(
                analysis.indirect.map { [.string($0.exported), .string($0.imported), .number(Double($0.request))] }),
            "stars": .array(analysis.stars.map { .number(Double($0)) }),
            "moduleSyntax": .bool(analysis.moduleSyntax),
            "hasAwait": .bool(analysis.hasAwait),
        ])
    }
}
