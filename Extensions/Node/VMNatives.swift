import CJavaScriptCore
import CJavaScriptCoreExtras
import JSBridge

/// The natives behind `node:vm` (node-vm.js): a new JavaScriptCore global context per contextified object
/// (CJavaScriptCoreExtras' `jsb_vm_context_create`: the object's properties are the context's globals), and
/// code evaluated as a script of a given realm with its file name and line, or checked for syntax errors.
extension NodeExtension {
    static func declareVMNatives(_ ext: inout ExtensionDeclaration<NodeState>) {
        // vmCreateContext(sandbox): the new context's global object.
        ext.native("vmCreateContext", "(sandbox: object): object") { call, _ throws(NativeError) in
            guard JSValueIsObject(call.context, call[0]), let sandbox = JSValueToObject(call.context, call[0], nil),
                let global = jsb_vm_context_create(call.engine.group, sandbox)
            else { throw .type("vm could not create a context") }
            return global
        }
        // vmRun(global, code, filename, line): `code` run as a script at the top level of `global`'s realm
        // (undefined: the script's own), errors thrown as they are.
        ext.native("vmRun", "(global: object | undefined, code: string, filename: string, line: number): unknown") {
            call, _ throws(NativeError) in
            var context: JSContextRef = call.context
            if !JSValueIsUndefined(call.context, call[0]) {
                guard let global = JSValueToObject(call.context, call[0], nil),
                    let realm = jsb_object_global_context(global)
                else {
                    throw .plain("vm contexts are not supported by this JavaScriptCore", code: "ERR_NOT_IMPLEMENTED")
                }
                context = realm
            }
            return try evaluate(call, from: 1) { source, url, line, exception in
                JSEvaluateScript(context, source, nil, url, line, exception)
            }
        }
        // vmCheckSyntax(code, filename, line): throws the SyntaxError compiling it would.
        ext.native("vmCheckSyntax", "(code: string, filename: string, line: number): void") {
            call, _ throws(NativeError) in
            _ = try evaluate(call, from: 0) { source, url, line, exception in
                JSCheckScriptSyntax(call.context, source, url, line, exception)
                return nil
            }
            return nil
        }
    }

    /// `body` with the code, file name and line at arguments `index`, `index + 1` and `index + 2`; what it
    /// throws is thrown as it is.
    private static func evaluate(
        _ call: NativeCall, from index: Int,
        _ body: (JSStringRef, JSStringRef, Int32, UnsafeMutablePointer<JSValueRef?>) -> JSValueRef?
    ) throws(NativeError) -> JSValueRef? {
        guard let source = JSValueToStringCopy(call.context, call[index], nil) else { throw .type("vm: no code") }
        defer { JSStringRelease(source) }
        let line = Int32(max(1, min(call.number(index + 2), Double(Int32.max))))
        var exception: JSValueRef?
        let result = withJSString(call.string(index + 1)) { url in body(source, url, line, &exception) }
        if let exception { throw .exception(ThrownValue(value: exception)) }
        return result
    }
}
