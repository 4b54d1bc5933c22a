import CJavaScriptCore
import JSBridgeCore

/// The ES module scanner's natives (``ModuleScanner``), used by js/esm.js and js/repl.js.
extension JSRuntime {
    func installModuleScannerNatives() {
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
                        let text = analysis.rewrite(source)
                        let ref = text.withUnsafeBufferPointer {
                            JSStringCreateWithCharacters($0.baseAddress, $0.count)
                        }
                        defer { JSStringRelease(ref) }
                        body = JSValueMakeString(context, ref)
                    }
                    setProperty(object, "body", body)
                    return object
                } catch {
                    return makeValue(["error": .string(error.message), "offset": .number(Double(error.offset))])
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
                    return makeValue(["error": .string(error.message), "offset": .number(Double(error.offset))])
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
