/// The engine's own JavaScript (bridge, globals, web APIs, module loader), embedded in the binary at build
/// time. Plugins' JavaScript APIs live with their plugins (``PluginScript``).
///
/// Each file is the body of a function `(internal) => { … }`. Eager files run at start-up in order;
/// a lazy file runs the first time a global or `internal` name it provides is read, which keeps
/// start-up short.
public enum JSBridgeScripts {
    /// One runtime file.
    public struct File: Sendable {
        public let name: String
        public let source: [UInt8]
        /// Globals a lazy file defines (empty for eager files).
        public let globals: [String]
        /// `internal` names a lazy file defines.
        public let internals: [String]

        init(name: String, source: [UInt8], globals: [String], internals: [String]) {
            self.name = name
            self.source = source
            self.globals = globals
            self.internals = internals
        }

        public var isLazy: Bool { !globals.isEmpty || !internals.isEmpty }
    }

    /// Every runtime file; eager ones in load order.
    public static let files: [File] = [
        File(name: "primordials.js", source: PackageResources.primordials_js, globals: [], internals: []),
        File(name: "loader.js", source: PackageResources.loader_js, globals: [], internals: []),
        File(name: "errors.js", source: PackageResources.errors_js, globals: [], internals: []),
        File(name: "module.js", source: PackageResources.module_js, globals: [], internals: []),
        File(name: "bridge.js", source: PackageResources.bridge_js, globals: [], internals: []),
        File(
            name: "timers.js", source: PackageResources.timers_js,
            globals: [
                "setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate",
                "queueMicrotask",
            ], internals: ["fireTimer", "Timeout"]),
        File(
            name: "process.js", source: PackageResources.process_js, globals: ["process", "performance", "global"],
            internals: ["runExit", "emitSignal"]),
        File(
            name: "inspect.js", source: PackageResources.inspect_js, globals: [],
            internals: ["inspect", "format", "formatWithOptions", "formatError", "errorStack"]),
        File(name: "console.js", source: PackageResources.console_js, globals: ["console"], internals: ["console"]),
        File(
            name: "encoding.js", source: PackageResources.encoding_js,
            globals: ["TextEncoder", "TextDecoder", "btoa", "atob"], internals: ["utf8Encode", "utf8Decode"]),
        File(
            name: "events.js", source: PackageResources.events_js,
            globals: ["DOMException", "Event", "CustomEvent", "EventTarget", "AbortSignal", "AbortController"],
            internals: [
                "DOMException", "Event", "CustomEvent", "EventTarget", "AbortSignal", "AbortController", "abortSignal",
            ]),
        File(
            name: "url.js", source: PackageResources.url_js, globals: ["URL", "URLSearchParams"],
            internals: ["URL", "URLSearchParams"]),
        File(
            name: "cordova.js", source: PackageResources.cordova_js, globals: ["cordova", "jsCoreBridge", "document"],
            internals: ["cordovaLifecycle"]),
        File(
            name: "structured-clone.js", source: PackageResources.structured_clone_js,
            globals: ["structuredClone"], internals: ["structuredClone"]),
    ]
}
