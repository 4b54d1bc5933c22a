import CJavaScriptCore
import JSBridgeCore

#if canImport(Glibc)
    import Glibc
#endif

/// One runtime's JavaScriptCore context, the `internal` object its JavaScript files share, and the conversions
/// between JavaScript values and Swift's (JS thread only).
///
/// The host and every engine extension's natives reach the engine through this object; values made here never
/// leave the JS thread (`JSValueRef` is not `Sendable`).
package final class JSEngine {
    package let group: JSContextGroupRef
    package let context: JSGlobalContextRef
    /// `internal`: the object the engine's JavaScript files share. Every name on it is declared by the
    /// extension that provides it (its `natives.d.ts` and `internal.d.ts`).
    package let internalObject: JSObjectRef
    /// Script buffers lent to actions (BytesLane.swift).
    let lent = LentBuffers()
    /// Makes the JS error of a ``NativeError`` (`internal.makeError`, set once the bridge's JS ran).
    var errorMaker: JSObjectRef?
    /// The bridge's `serialize` for a sync call's argument (`internal.serializeNative`; Marshalling.swift).
    var serializer: JSObjectRef?
    /// Values kept from the collector for the engine's life (hooks into JavaScript).
    private var protected: [JSValueRef] = []

    init(name: String) {
        group = JSContextGroupCreate()
        context = JSGlobalContextCreateInGroup(group, nil)
        internalObject = JSObjectMake(context, nil, nil)
        JSValueProtect(context, internalObject)
        withJSString(name) { JSGlobalContextSetName(context, $0) }
    }

    deinit {
        for value in protected { JSValueUnprotect(context, value) }
        JSValueUnprotect(context, internalObject)
        lent.drain(context)
        // A plugin still holding a script's lent buffer keeps the engine's memory: it must stay valid.
        guard lent.outstanding.load(ordering: .relaxed) == 0 else { return }
        JSGlobalContextRelease(context)
        JSContextGroupRelease(group)
    }

    /// Keeps `value` from the collector for the engine's life.
    package func protect(_ value: JSValueRef) {
        JSValueProtect(context, value)
        protected.append(value)
    }

    /// The function `internal[name]`, kept from the collector, or nil when it is not a function.
    package func internalFunction(_ name: String) -> JSObjectRef? {
        guard let value = property(internalObject, name), JSValueIsObject(context, value),
            let object = JSValueToObject(context, value, nil), JSObjectIsFunction(context, object)
        else { return nil }
        protect(object)
        return object
    }

    // MARK: - Values

    package func makeString(_ string: String) -> JSValueRef {
        withJSString(string) { JSValueMakeString(context, $0) }
    }

    package func makeString(utf16 units: UnsafeBufferPointer<UInt16>) -> JSValueRef {
        let ref = JSStringCreateWithCharacters(units.baseAddress, units.count)!
        defer { JSStringRelease(ref) }
        return JSValueMakeString(context, ref)
    }

    /// A JS string of the UTF-16 units `fill` writes into a buffer of `capacity` units (it answers how many,
    /// or nil for `null`).
    package func makeUTF16String(capacity: Int, _ fill: (UnsafeMutablePointer<UInt16>) -> Int?) -> JSValueRef {
        let units = UnsafeMutablePointer<UInt16>.allocate(capacity: max(1, capacity))
        defer { units.deallocate() }
        guard let count = fill(units) else { return JSValueMakeNull(context) }
        return makeString(utf16: UnsafeBufferPointer(start: units, count: count))
    }

    /// Calls `body` with the UTF-16 code units of `value` converted to a string.
    package func withUTF16<R>(_ value: JSValueRef, _ body: (UnsafeBufferPointer<UInt16>) throws -> R) rethrows -> R {
        guard let ref = JSValueToStringCopy(context, value, nil) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        defer { JSStringRelease(ref) }
        return try body(UnsafeBufferPointer(start: JSStringGetCharactersPtr(ref), count: JSStringGetLength(ref)))
    }

    /// A new `ArrayBuffer` that takes over `bytes` (allocated with `malloc`; the engine frees them).
    package func makeArrayBuffer(_ bytes: UnsafeMutableRawPointer, count: Int) -> JSValueRef {
        // The deallocator may run on any thread, in the middle of a collection: it only frees memory.
        JSObjectMakeArrayBufferWithBytesNoCopy(context, bytes, count, { pointer, _ in free(pointer) }, nil, nil)
    }

    /// A new array of `count` values, each stored in it as soon as `element` makes it; undefined once the run
    /// is stopping (the engine then makes no more values).
    ///
    /// JavaScriptCore's collector finds values through stacks, registers and JS objects, never through Swift's
    /// heap. Values gathered first in a Swift array (a heap buffer) can be freed by a collection that making the
    /// next value starts; stored in the JS array one by one, each stays reachable.
    package func makeArray(count: Int, _ element: (Int) -> JSValueRef?) -> JSValueRef {
        makeArrayObject(count: count, element) ?? JSValueMakeUndefined(context)
    }

    /// Runs `body` with `count` new values made by `value`, kept reachable while the next ones are made and
    /// throughout `body` (see ``makeArray(count:_:)``): the arguments of a call into JavaScript.
    package func withNewValues<R>(count: Int, _ value: (Int) -> JSValueRef?, _ body: ([JSValueRef?]) -> R) -> R {
        guard let holder = makeArrayObject(count: count, value) else {
            return body([JSValueRef?](repeating: nil, count: count))
        }
        let values = (0..<count).map { JSObjectGetPropertyAtIndex(context, holder, UInt32($0), nil) }
        return withExtendedLifetime(holder) { body(values) }
    }

    private func makeArrayObject(count: Int, _ element: (Int) -> JSValueRef?) -> JSObjectRef? {
        guard let array = JSObjectMakeArray(context, 0, nil, nil) else { return nil }
        for index in 0..<count {
            JSObjectSetPropertyAtIndex(
                context, array, UInt32(index), element(index) ?? JSValueMakeUndefined(context), nil)
        }
        return array
    }

    package func property(_ object: JSObjectRef, _ name: String) -> JSValueRef? {
        withJSString(name) { JSObjectGetProperty(context, object, $0, nil) }
    }

    package func setProperty(_ object: JSObjectRef, _ name: String, _ value: JSValueRef, hidden: Bool = false) {
        withJSString(name) {
            JSObjectSetProperty(
                context, object, $0, value,
                JSPropertyAttributes(hidden ? kJSPropertyAttributeDontEnum : kJSPropertyAttributeNone), nil)
        }
    }

    /// `String(value)`, for diagnostics that must not fail.
    package func describe(_ value: JSValueRef) -> String {
        guard let ref = JSValueToStringCopy(context, value, nil) else { return "(unprintable value)" }
        defer { JSStringRelease(ref) }
        return String(jsString: ref)
    }

    /// Makes a JS value from a JSON value: primitives directly, containers through the JSON parser.
    package func makeValue(_ json: JSONValue) -> JSValueRef {
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

    /// Whether `value` is an error whose `name` is "SyntaxError".
    package func isSyntaxError(_ value: JSValueRef) -> Bool {
        guard JSValueIsObject(context, value), let object = JSValueToObject(context, value, nil),
            let name = property(object, "name")
        else { return false }
        return JSValueIsString(context, name) && describe(name) == "SyntaxError"
    }

    // MARK: - Functions

    /// A JS function object that runs `body`.
    package func makeFunction(_ body: @escaping (NativeCall) throws(NativeError) -> JSValueRef?) -> JSObjectRef {
        let box = NativeFunctionBox(engine: self, body: body)
        return JSObjectMake(context, NativeFunctionClass.shared, Unmanaged.passRetained(box).toOpaque())!
    }

    /// Compiles `body` as a function of `parameters`; line numbers in errors and stacks match the body's
    /// own (the wrapper shares its first line, so only columns on line 1 are shifted).
    package func compileFunction(body: String, parameters: [String], sourceURL: String) throws(NativeError)
        -> JSObjectRef
    {
        let source = makeJSString("(function (\(parameters.joined(separator: ", "))) {" + body + "\n})")
        defer { JSStringRelease(source) }
        return try evaluateFunction(source, sourceURL: sourceURL)
    }

    /// The function that `source`, a parenthesised function expression, evaluates to.
    package func evaluateFunction(_ source: JSStringRef, sourceURL: String) throws(NativeError) -> JSObjectRef {
        var exception: JSValueRef?
        let value = withJSString(sourceURL) { url in JSEvaluateScript(context, source, nil, url, 1, &exception) }
        if let exception { throw .exception(ThrownValue(value: exception)) }
        guard let value, let function = JSValueToObject(context, value, nil) else {
            throw .type("Could not compile \(sourceURL).")
        }
        return function
    }

    /// Calls `function` with `arguments`; a thrown exception is rethrown as a ``NativeError``.
    @discardableResult
    package func call(_ function: JSObjectRef, _ arguments: [JSValueRef?]) throws(NativeError) -> JSValueRef? {
        var exception: JSValueRef?
        let result = arguments.withUnsafeBufferPointer {
            JSObjectCallAsFunction(context, function, nil, $0.count, $0.baseAddress, &exception)
        }
        if let exception { throw .exception(ThrownValue(value: exception)) }
        return result
    }

    /// Turns a native error into the JS exception value to throw.
    func makeException(_ error: NativeError) -> JSValueRef {
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
        if let errorMaker {
            let arguments = [
                makeString(kind), makeString(message), makeValue(code), makeValue(plugin), makeValue(action),
                makeValue(data),
            ]
            if let made = try? call(errorMaker, arguments) { return made }
        }
        return JSObjectMakeError(context, 1, [makeString(message)], nil)
    }
}
