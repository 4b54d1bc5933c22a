import CJavaScriptCore
import JSBridgeCore

/// Conversions between JavaScript values and Swift values (JS thread only).
extension JSRuntime {
    func makeString(_ string: String) -> JSValueRef {
        withJSString(string) { JSValueMakeString(context, $0) }
    }

    func property(_ object: JSObjectRef, _ name: String) -> JSValueRef? {
        withJSString(name) { JSObjectGetProperty(context, object, $0, nil) }
    }

    func setProperty(_ object: JSObjectRef, _ name: String, _ value: JSValueRef, hidden: Bool = false) {
        withJSString(name) {
            JSObjectSetProperty(
                context, object, $0, value,
                JSPropertyAttributes(hidden ? kJSPropertyAttributeDontEnum : kJSPropertyAttributeNone), nil)
        }
    }

    /// `String(value)`, for diagnostics that must not fail.
    func describe(_ value: JSValueRef) -> String {
        guard let ref = JSValueToStringCopy(context, value, nil) else { return "(unprintable value)" }
        defer { JSStringRelease(ref) }
        return String(jsString: ref)
    }

    /// Makes a JS value from a JSON value: primitives directly, containers through the JSON parser.
    func makeValue(_ json: JSONValue) -> JSValueRef {
        switch json {
        case .null: return JSValueMakeNull(context)
        case .bool(let b): return JSValueMakeBoolean(context, b)
        case .number(let n): return JSValueMakeNumber(context, n)
        case .string(let s): return makeString(s)
        case .array, .object:
            let ref = makeJSStringFromNULFreeUTF8(json.serialized())
            defer { JSStringRelease(ref) }
            return JSValueMakeFromJSONString(context, ref) ?? JSValueMakeNull(context)
        }
    }

    /// Reads a JS value as JSON for a sync call: primitives and arrays directly, `ArrayBuffer`s and typed arrays
    /// as bytes beside the JSON (at `components`, into `bytes`), other objects through the runtime's checking
    /// `JSON.stringify` (functions, symbols, cycles and BigInts are rejected).
    func jsonArgument(
        _ value: JSValueRef, path: String, depth: Int, components: inout [JSONPathComponent],
        bytes: inout [ByteAttachment]
    ) throws(NativeError) -> JSONValue {
        switch JSValueGetType(context, value) {
        case kJSTypeUndefined, kJSTypeNull:
            return .null
        case kJSTypeBoolean:
            return .bool(JSValueToBoolean(context, value))
        case kJSTypeNumber:
            let number = JSValueToNumber(context, value, nil)
            return number.isFinite ? .number(number) : .null
        case kJSTypeString:
            return .string(describe(value))
        case kJSTypeObject:
            if JSValueIsArray(context, value), depth < 64, let array = JSValueToObject(context, value, nil) {
                let length = Int(JSValueToNumber(context, JSObjectGetProperty(context, array, JSKeys.length, nil), nil))
                var elements: [JSONValue] = []
                elements.reserveCapacity(length)
                for index in 0..<length {
                    let element = JSObjectGetPropertyAtIndex(context, array, UInt32(index), nil)!
                    components.append(.index(index))
                    defer { components.removeLast() }
                    elements.append(
                        try jsonArgument(
                            element, path: "\(path)[\(index)]", depth: depth + 1, components: &components,
                            bytes: &bytes))
                }
                return .array(elements)
            }
            if let found = copiedBytes(value) {
                bytes.append(ByteAttachment(path: components, bytes: found))
                return .object([:])
            }
            return try serializedArgument(value, path: path, components: components, bytes: &bytes)
        default:
            return try serializedArgument(value, path: path, components: components, bytes: &bytes)
        }
    }

    private func serializedArgument(
        _ value: JSValueRef, path: String, components: [JSONPathComponent], bytes: inout [ByteAttachment]
    ) throws(NativeError) -> JSONValue {
        guard let serialize = hooks.serialize else { throw .type("The bridge is not ready.") }
        var exception: JSValueRef?
        let args: [JSValueRef?] = [value, makeString(path)]
        var text = JSObjectCallAsFunction(context, serialize, nil, 2, args, &exception)
        if let exception { throw .exception(ThrownValue(value: exception)) }
        // `[text, paths, values]` when the value holds bytes.
        if let answer = text, JSValueIsArray(context, answer), let parts = JSValueToObject(context, answer, nil) {
            text = JSObjectGetPropertyAtIndex(context, parts, 0, nil)
            let sent = try sentBytes(
                paths: JSObjectGetPropertyAtIndex(context, parts, 1, nil),
                values: JSObjectGetPropertyAtIndex(context, parts, 2, nil))
            for attachment in sent {
                bytes.append(ByteAttachment(path: components + attachment.path, bytes: attachment.bytes))
            }
        }
        guard let text, JSValueIsString(context, text) else { return .null }
        do {
            return try JSONValue(parsing: describe(text))
        } catch {
            throw .type("Arguments could not be read as JSON: \(error)")
        }
    }

    /// Turns a native error into the JS exception value to throw.
    func makeException(_ error: NativeError, in ctx: JSContextRef) -> JSValueRef {
        let kind: String, message: String
        var code: JSONValue = .null, plugin: JSONValue = .null, action: JSONValue = .null, data: JSONValue = .null
        switch error {
        case .exception(let thrown):
            return thrown.value
        case .type(let text):
            (kind, message) = ("TypeError", text)
        case .plain(let text, let errorCode):
            (kind, message) = ("Error", text)
            code = errorCode.map(JSONValue.string) ?? .null
        case .bridge(let bridgeError, let pluginName, let actionName):
            (kind, message) = ("BridgeError", bridgeError.message)
            code = .string(bridgeError.code)
            plugin = .string(pluginName)
            action = .string(actionName)
            data = bridgeError.data ?? .null
        }
        if let makeError = hooks.makeError {
            let args: [JSValueRef?] = [
                makeString(kind), makeString(message), makeValue(code), makeValue(plugin), makeValue(action),
                makeValue(data),
            ]
            var exception: JSValueRef?
            if let made = JSObjectCallAsFunction(ctx, makeError, nil, args.count, args, &exception), exception == nil {
                return made
            }
        }
        let text = makeString(message)
        return JSObjectMakeError(ctx, 1, [text], nil)
    }
}
