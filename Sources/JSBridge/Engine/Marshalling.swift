import CJavaScriptCore
import JSBridgeCore

/// A JavaScript value as a plugin's argument (JS thread only).
///
/// One rule decides what a script can send to a plugin and how: the bridge's `serialize` (host JS,
/// `bridge.js`), which refuses functions, symbols, BigInts and cycles with the path of the problem and sets
/// `ArrayBuffer`s and views aside as bytes. Async and stream calls run it in JavaScript before they cross;
/// a sync action's native function hands it every object, and reads only what needs no rule itself: a
/// primitive, bytes as the whole argument, or a short array of primitives (read as `serialize` would write it;
/// `BridgeCallTests` holds the two ways equal).
extension JSEngine {
    /// Reads a sync call's argument: JSON, with `ArrayBuffer`s and typed arrays beside it as bytes.
    func bridgeArgument(_ value: JSValueRef) throws(NativeError) -> BridgeValue {
        switch JSValueGetType(context, value) {
        case kJSTypeUndefined, kJSTypeNull:
            return BridgeValue(.null)
        case kJSTypeBoolean:
            return BridgeValue(.bool(JSValueToBoolean(context, value)))
        case kJSTypeNumber:
            let number = JSValueToNumber(context, value, nil)
            return BridgeValue(number.isFinite ? .number(number) : .null)
        case kJSTypeString:
            return BridgeValue(.string(describe(value)))
        default:
            if let bytes = copiedBytes(value) {
                return BridgeValue(.object([:]), bytes: [ByteAttachment(path: [], bytes: bytes)])
            }
            if let items = primitiveArray(value) { return BridgeValue(.array(items)) }
            return try serializedArgument(value)
        }
    }

    /// `value` read directly when it is a short array of primitives without `toJSON` (`localStorage.setItem`'s
    /// `[key, value]`), as `serialize`'s JSON would give it: `undefined` and non-finite numbers as null, -0 as
    /// 0. Nil for anything else, which takes `serialize`. Reads `toJSON`, `length` and each element once.
    private func primitiveArray(_ value: JSValueRef) -> [JSONValue]? {
        guard JSValueIsArray(context, value), let array = JSValueToObject(context, value, nil) else { return nil }
        // A read that throws (a getter, a Proxy trap) leaves the value to `serialize`, which reports it.
        var exception: JSValueRef?
        guard let toJSON = JSObjectGetProperty(context, array, PropertyNames.toJSON, &exception), exception == nil,
            JSValueIsUndefined(context, toJSON),
            let lengthValue = JSObjectGetProperty(context, array, PropertyNames.length, &exception), exception == nil,
            JSValueIsNumber(context, lengthValue)
        else { return nil }
        let length = JSValueToNumber(context, lengthValue, nil)
        guard length >= 0, length <= 8, length == length.rounded(.towardZero) else { return nil }
        var items: [JSONValue] = []
        items.reserveCapacity(Int(length))
        for index in 0..<UInt32(length) {
            guard let item = JSObjectGetPropertyAtIndex(context, array, index, &exception), exception == nil else {
                return nil
            }
            switch JSValueGetType(context, item) {
            case kJSTypeUndefined, kJSTypeNull: items.append(.null)
            case kJSTypeBoolean: items.append(.bool(JSValueToBoolean(context, item)))
            case kJSTypeNumber:
                let number = JSValueToNumber(context, item, nil)
                items.append(number.isFinite ? .number(number == 0 ? 0 : number) : .null)
            case kJSTypeString: items.append(.string(describe(item)))
            default: return nil
            }
        }
        return items
    }

    /// `value` through the bridge's `serialize`: `text`, or `[text, pathsJSON, bytes]` when it holds bytes.
    private func serializedArgument(_ value: JSValueRef) throws(NativeError) -> BridgeValue {
        // bridge.js's; reading it runs that lazy file when nothing used the bridge yet.
        if serializer == nil { serializer = internalFunction("serializeNative") }
        guard let serializer else { throw .type("The bridge is not ready.") }
        guard var text = try call(serializer, [value]) else { return BridgeValue(.null) }
        var bytes: [ByteAttachment] = []
        if JSValueIsArray(context, text), let parts = JSValueToObject(context, text, nil) {
            text = JSObjectGetPropertyAtIndex(context, parts, 0, nil)
            bytes = try sentBytes(
                paths: JSObjectGetPropertyAtIndex(context, parts, 1, nil),
                values: JSObjectGetPropertyAtIndex(context, parts, 2, nil))
        }
        guard JSValueIsString(context, text) else { return BridgeValue(.null) }
        do {
            return BridgeValue(try JSONValue(parsing: describe(text)), bytes: bytes)
        } catch {
            throw .type("Arguments could not be read as JSON: \(error)")
        }
    }
}

/// Property names the argument reading looks up on every call, made once for the process (a `JSStringRef` is
/// immutable and not tied to a context).
private enum PropertyNames {
    nonisolated(unsafe) static let toJSON = JSStringCreateWithUTF8CString("toJSON")!
    nonisolated(unsafe) static let length = JSStringCreateWithUTF8CString("length")!
}
