import CJavaScriptCore
import Foundation
import JSBridgeCore

/// The ES module loader's natives (``ModuleScanner``), used by js/esm.js and js/repl.js.
extension JSRuntime {
    /// The start of a compiled module's function, up to its body: js/esm.js calls it with these parameters.
    private static let modulePrefix = Array("(function (__jsbImports, __jsbMeta__, __jsbI, __jsbExport) {".utf16)

    func installModuleLoaderNatives() {
        // compileModule(filename, source, detect) → the module's analysis (as scanModule's, without `body`) with
        // `source` (the text, read from `filename` when `source` is undefined), `compiled` (the module function:
        // see docs/architecture.md, "ES modules"), `isAsync` and `headerLength` (the wrapper's length before
        // the module's first line); `{error, offset, source}` for a malformed module. With `detect`, a module
        // without module syntax is not compiled (`compiled` is absent: the file is CommonJS).
        defineNative("compileModule") { [unowned(unsafe) self] call throws(NativeError) in
            let filename = call.string(0)
            let units: [UInt16]
            if JSValueIsUndefined(context, call[1]) {
                units = Array(String(decoding: try Self.readSourceFile(filename), as: UTF8.self).utf16)
            } else {
                units = withCodeUnits(of: call[1]) { units, _ in Array(units) }
            }
            let source = units.withUnsafeBufferPointer { makeString(utf16: $0) }
            return try units.withUnsafeBufferPointer { buffer throws(NativeError) -> JSValueRef in
                let analysis: ModuleAnalysis
                do throws(ModuleScanner.ScanError) {
                    analysis = try ModuleScanner(buffer).analyze()
                } catch {
                    let object = JSValueToObject(context, makeValue(Self.json(error)), nil)!
                    setProperty(object, "source", source)
                    return object
                }
                let object = JSValueToObject(context, makeValue(Self.json(analysis)), nil)!
                setProperty(object, "source", source)
                if call.bool(2) && !analysis.moduleSyntax { return object }
                var body = analysis.rewrite(buffer)
                if body.starts(with: [35, 33]) { body.replaceSubrange(0..<2, with: [47, 47]) }  // #! → //
                var isAsync = false
                var header = Self.moduleHeader(analysis, isAsync: false)
                let compiled: JSObjectRef
                do throws(NativeError) {
                    compiled = try compileModuleFunction(header: header, body: body, sourceURL: filename)
                } catch {
                    // A body with top-level await compiles only as an async generator.
                    guard analysis.hasAwait, case .exception(let thrown) = error, isSyntaxError(thrown.value) else {
                        throw error
                    }
                    isAsync = true
                    header = Self.moduleHeader(analysis, isAsync: true)
                    compiled = try compileModuleFunction(header: header, body: body, sourceURL: filename)
                }
                setProperty(object, "compiled", compiled)
                setProperty(object, "isAsync", JSValueMakeBoolean(context, isAsync))
                let headerLength = Self.modulePrefix.count + header.count
                setProperty(object, "headerLength", JSValueMakeNumber(context, Double(headerLength)))
                return object
            }
        }
        // scanModule(source, dynamicOnly) → the analysis with `body` (the rewritten source), or
        // `{error, offset}` for a malformed module.
        defineNative("scanModule") { [unowned(unsafe) self] call throws(NativeError) in
            let dynamicOnly = call.count > 1 && call.bool(1)
            return withCodeUnits(of: call[0]) { source, original in
                do throws(ModuleScanner.ScanError) {
                    let analysis = try ModuleScanner(source).analyze(dynamicOnly: dynamicOnly)
                    let object = JSValueToObject(context, makeValue(Self.json(analysis)), nil)!
                    let body: JSValueRef
                    if analysis.edits.isEmpty {
                        body = original
                    } else {
                        body = analysis.rewrite(source).withUnsafeBufferPointer { makeString(utf16: $0) }
                    }
                    setProperty(object, "body", body)
                    return object
                } catch {
                    return makeValue(Self.json(error))
                }
            }
        }
        // tokenize(source) → `{types, starts, ends, values, newlines, count}` (values: the text of names and
        // punctuators, else null), or `{error, offset}`.
        defineNative("tokenize") { [unowned(unsafe) self] call throws(NativeError) in
            withCodeUnits(of: call[0]) { source, _ in
                do throws(ModuleScanner.ScanError) {
                    let scanner = try ModuleScanner(source)
                    let tokens = scanner.tokens
                    return makeValue([
                        "types": .array(tokens.map { .number(Double($0.kind.rawValue)) }),
                        "starts": .array(tokens.map { .number(Double($0.start)) }),
                        "ends": .array(tokens.map { .number(Double($0.end)) }),
                        "values": .array(tokens.indices.map { scanner.value($0).map(JSONValue.string) ?? .null }),
                        "newlines": .array(tokens.map { .bool($0.newlineBefore) }),
                        "count": .number(Double(tokens.count)),
                    ])
                } catch {
                    return makeValue(Self.json(error))
                }
            }
        }
    }

    /// Calls `body` with the UTF-16 code units of `value` as a string, and that string as a JS value.
    private func withCodeUnits<R>(
        of value: JSValueRef, _ body: (UnsafeBufferPointer<UInt16>, JSValueRef) -> R
    ) -> R {
        let ref = JSValueToStringCopy(context, value, nil) ?? JSStringCreateWithUTF8CString("")!
        defer { JSStringRelease(ref) }
        let string = JSValueIsString(context, value) ? value : JSValueMakeString(context, ref)!
        return body(UnsafeBufferPointer(start: JSStringGetCharactersPtr(ref), count: JSStringGetLength(ref)), string)
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
    private func compileModuleFunction(header: [UInt16], body: [UInt16], sourceURL: String) throws(NativeError)
        -> JSObjectRef
    {
        var text = Self.modulePrefix
        text.reserveCapacity(text.count + header.count + body.count + 16)
        text += header
        text += body
        text += "\n})(); }\n})".utf16
        let source = text.withUnsafeBufferPointer { JSStringCreateWithCharacters($0.baseAddress, $0.count)! }
        defer { JSStringRelease(source) }
        return try evaluateFunction(source, sourceURL: sourceURL)
    }

    private func isSyntaxError(_ value: JSValueRef) -> Bool {
        guard JSValueIsObject(context, value), let object = JSValueToObject(context, value, nil),
            let name = property(object, "name")
        else { return false }
        return JSValueIsString(context, name) && describe(name) == "SyntaxError"
    }

    private func makeString(utf16 units: UnsafeBufferPointer<UInt16>) -> JSValueRef {
        let ref = JSStringCreateWithCharacters(units.baseAddress, units.count)!
        defer { JSStringRelease(ref) }
        return JSValueMakeString(context, ref)
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
