import CJavaScriptCore
import JSBridgeCore

/// The arguments of a native function call, valid only during the call (on the JS thread).
struct NativeCall {
    let context: JSContextRef
    let count: Int
    let values: UnsafePointer<JSValueRef?>?

    /// The argument at `index`, or `undefined` when absent.
    subscript(index: Int) -> JSValueRef {
        if index < count, let value = values?[index] { return value }
        return JSValueMakeUndefined(context)
    }

    func number(_ index: Int) -> Double { JSValueToNumber(context, self[index], nil) }

    func string(_ index: Int) -> String {
        guard let ref = JSValueToStringCopy(context, self[index], nil) else { return "" }
        defer { JSStringRelease(ref) }
        return String(jsString: ref)
    }

    /// Parses argument `index`, a string of JSON text, straight from its UTF-8 bytes (no Swift `String`).
    func json(_ index: Int) throws(JSONParseError) -> JSONValue {
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

    func bool(_ index: Int) -> Bool { JSValueToBoolean(context, self[index]) }
}

/// An error thrown by a native function: becomes a JavaScript exception in the caller.
enum NativeError: Error {
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
struct ThrownValue: @unchecked Sendable {
    let value: JSValueRef
}

/// The Swift closure behind one native function object.
final class NativeFunctionBox {
    let body: (NativeCall) throws(NativeError) -> JSValueRef?
    unowned let runtime: JSRuntime

    init(runtime: JSRuntime, body: @escaping (NativeCall) throws(NativeError) -> JSValueRef?) {
        self.runtime = runtime
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
                return try box.body(NativeCall(context: context, count: count, values: arguments))
                    ?? JSValueMakeUndefined(context)
            } catch {
                exception?.pointee = box.runtime.makeException(error, in: context)
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
