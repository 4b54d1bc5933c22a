import CJavaScriptCore
import JSBridgeCore

/// A JavaScript value as a plugin's argument (JS thread only).
///
/// One rule decides what a script can send to a plugin and how: the bridge's `serialize` (host JS,
/// `bridge.js`), which refuses functions, symbols, BigInts and cycles with the path of the problem and sets
/// `ArrayBuffer`s and views aside as bytes. Async and stream calls run it in JavaScript before they cross;
/// a sync action's native function hands it every object, and reads only what needs no rule itself: a
/// primitive, or bytes as the whole argument.
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
            return try serializedArgument(value)
        }
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
