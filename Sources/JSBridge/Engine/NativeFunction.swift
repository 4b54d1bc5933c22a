import CJavaScriptCore
import JSBridgeCore

/// The arguments of a native function call, valid only during the call (on the JS thread).
package struct NativeCall {
    /// The engine the function belongs to (its conversions: ``JSEngine/makeString(_:)``, …).
    package let engine: JSEngine
    package let context: JSContextRef
    package let count: Int
    let values: UnsafePointer<JSValueRef?>?

    /// The argument at `index`, or `undefined` when absent.
    package subscript(index: Int) -> JSValueRef {
        if index < count, let value = values?[index] { return value }
        return JSValueMakeUndefined(context)
    }

    package func number(_ index: Int) -> Double { JSValueToNumber(context, self[index], nil) }

    package func string(_ index: Int) -> String {
        guard let ref = JSValueToStringCopy(context, self[index], nil) else { return "" }
        defer { JSStringRelease(ref) }
        return String(jsString: ref)
    }

    /// Parses argument `index`, a string of JSON text, straight from its UTF-8 bytes (no Swift `String`).
    package func json(_ index: Int) throws(JSONParseError) -> JSONValue {
        guard let ref = JSValueToStringCopy(context, self[index], nil) else { return try JSONValue(parsing: "") }
        defer { JSStringRelease(ref) }
        let capacity = JSStringGetMaximumUTF8CStringSize(ref)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        let written = buffer.withMemoryRebound(to: CChar.self, capacity: capacity) {
            JSStringGetUTF8CString(ref, $0, capacity)
        }
        // `written` counts the terminating NUL.
        return try JSONValue(parsing: UnsafeBufferPointer(start: buffer, count: max(written - 1, 0)))
    }

    package func bool(_ index: Int) -> Bool { JSValueToBoolean(context, self[index]) }

    /// The bytes of `ArrayBuffer` argument `index`, from byte `start` (argument `index + 1`) for `count` (argument
    /// `index + 2`) bytes, clamped to the buffer; nil when it is not an `ArrayBuffer`. Valid until the next engine
    /// call: the natives that take bytes this way read or write them at once.
    package func arrayBuffer(_ index: Int) -> UnsafeMutableBufferPointer<UInt8>? {
        let value = self[index]
        guard JSValueGetTypedArrayType(context, value, nil) == kJSTypedArrayTypeArrayBuffer,
            let object = JSValueToObject(context, value, nil)
        else { return nil }
        let size = JSObjectGetArrayBufferByteLength(context, object, nil)
        guard let base = JSObjectGetArrayBufferBytesPtr(context, object, nil) else {
            return size == 0 ? UnsafeMutableBufferPointer(start: nil, count: 0) : nil
        }
        let start = min(size, Int(max(0, number(index + 1))))
        let count = min(size - start, Int(max(0, number(index + 2))))
        return UnsafeMutableBufferPointer(start: base.assumingMemoryBound(to: UInt8.self) + start, count: count)
    }
}

/// An error thrown by a native function: becomes a JavaScript exception in the caller.
package enum NativeError: Error {
    /// A `TypeError` with this message.
    case type(String)
    /// A plain `Error` with this message and an optional Node-style `code` (e.g. `ENOENT`).
    case plain(String, code: String?)
    /// A `BridgeError`.
    case bridge(BridgeError, plugin: String, action: String)
    /// An exception value already created in JavaScript, rethrown as is.
    case exception(ThrownValue)
}

/// A JavaScript exception value carried through a Swift `throw` inside one native call.
///
/// It never leaves the JS thread: it is created and consumed within the same callback frame.
package struct ThrownValue: @unchecked Sendable {
    package let value: JSValueRef

    package init(value: JSValueRef) { self.value = value }
}

/// The Swift closure behind one native function object.
final class NativeFunctionBox {
    let body: (NativeCall) throws(NativeError) -> JSValueRef?
    unowned let engine: JSEngine

    init(engine: JSEngine, body: @escaping (NativeCall) throws(NativeError) -> JSValueRef?) {
        self.engine = engine
        self.body = body
    }
}

/// The JS class of native functions: `callAsFunction` dispatches to the box in the object's private data.
enum NativeFunctionClass {
    nonisolated(unsafe) static let shared: JSClassRef = {
        var definition = kJSClassDefinitionEmpty
        definition.className = staticCString("NativeFunction")
        definition.callAsFunction = { context, function, _, count, arguments, exception in
            guard let context, let function, let raw = JSObjectGetPrivate(function) else { return nil }
            let box = Unmanaged<NativeFunctionBox>.fromOpaque(raw).takeUnretainedValue()
            do throws(NativeError) {
                return try box.body(NativeCall(engine: box.engine, context: context, count: count, values: arguments))
                    ?? JSValueMakeUndefined(context)
            } catch {
                exception?.pointee = box.engine.makeException(error)
                return nil
            }
        }
        // Finalizers may run on any thread in the middle of an allocation: only release memory here.
        definition.finalize = { object in
            guard let object, let raw = JSObjectGetPrivate(object) else { return }
            Unmanaged<NativeFunctionBox>.fromOpaque(raw).release()
        }
        return JSClassCreate(&definition)
    }()
}
