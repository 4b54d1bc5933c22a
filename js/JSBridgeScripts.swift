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
        /// Whether the file runs only when the runtime's JS loads it by name (`internal.load`).
        public let onDemand: Bool

        init(name: String, source: [UInt8], globals: [String], internals: [String], onDemand: Bool = false) {
            self.name = name
            self.source = source
            self.globals = globals
            self.internals = internals
            self.onDemand = onDemand
        }

        public var isLazy: Bool { onDemand || !globals.isEmpty || !internals.isEmpty }
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
            internals: ["runExit", "process", "emitSignal"]),
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
            name: "resolve.js", source: PackageResources.resolve_js, globals: [],
            internals: ["resolveBare"]),
        File(name: "esm.js", source: PackageResources.esm_js, globals: [], internals: ["esm", "fileURLToPath"]),
        File(
            name: "cordova.js", source: PackageResources.cordova_js, globals: ["cordova", "jsCoreBridge", "document"],
            internals: ["cordovaLifecycle"]),
        File(
            name: "blob.js", source: PackageResources.blob_js, globals: ["Blob", "File"],
            internals: ["Blob", "File", "blobInternals"]),
        File(
            name: "form-data.js", source: PackageResources.form_data_js, globals: ["FormData"],
            internals: ["FormData", "formDataInternals"]),
        File(
            name: "structured-clone.js", source: PackageResources.structured_clone_js,
            globals: ["structuredClone"], internals: ["structuredClone"]),
        File(
            name: "streams.js", source: PackageResources.streams_js,
            globals: [
                "ReadableStream", "ReadableStreamDefaultReader", "ReadableStreamBYOBReader",
                "ReadableStreamBYOBRequest",
                "ReadableStreamDefaultController", "ReadableByteStreamController", "WritableStream",
                "WritableStreamDefaultWriter", "WritableStreamDefaultController", "TransformStream",
                "TransformStreamDefaultController", "ByteLengthQueuingStrategy", "CountQueuingStrategy",
                "TextEncoderStream", "TextDecoderStream",
            ],
            internals: ["streams"]),
        File(
            name: "compression.js", source: PackageResources.compression_js,
            globals: ["CompressionStream", "DecompressionStream"], internals: []),
        File(
            name: "message-channel.js", source: PackageResources.message_channel_js,
            globals: ["MessageChannel", "MessagePort", "MessageEvent"], internals: []),
        // Node's built-in modules (js/node): the registry, then one file per module, loaded by name.
        File(
            name: "node-builtins.js", source: PackageResources.node_builtins_js, globals: [],
            internals: ["nodeBuiltin", "nodeExport", "nodeErrors"]),
        File(
            name: "node-buffer.js", source: PackageResources.node_buffer_js, globals: ["Buffer"], internals: ["Buffer"]),
        File(name: "node-crypto.js", source: PackageResources.node_crypto_js, globals: ["crypto"], internals: []),
        File(name: "node-path.js", source: PackageResources.node_path_js, globals: [], internals: [], onDemand: true),
        File(
            name: "node-events.js", source: PackageResources.node_events_js, globals: [], internals: [], onDemand: true),
        File(name: "node-util.js", source: PackageResources.node_util_js, globals: [], internals: [], onDemand: true),
        File(name: "node-os.js", source: PackageResources.node_os_js, globals: [], internals: [], onDemand: true),
        File(
            name: "node-timers.js", source: PackageResources.node_timers_js, globals: [], internals: [], onDemand: true),
        File(
            name: "node-assert.js", source: PackageResources.node_assert_js, globals: [], internals: [], onDemand: true),
        File(name: "node-url.js", source: PackageResources.node_url_js, globals: [], internals: [], onDemand: true),
        File(
            name: "node-string-decoder.js", source: PackageResources.node_string_decoder_js, globals: [], internals: [],
            onDemand: true),
        File(
            name: "node-process.js", source: PackageResources.node_process_js, globals: [], internals: [],
            onDemand: true),
        File(name: "node-stdin.js", source: PackageResources.node_stdin_js, globals: [], internals: [], onDemand: true),
        File(name: "node-hash.js", source: PackageResources.node_hash_js, globals: [], internals: [], onDemand: true),
        // The REPL (`jsbridge` with no script on a terminal): loaded by module.js's runMain only then.
        File(name: "repl.js", source: PackageResources.repl_js, globals: [], internals: [], onDemand: true),
    ]
}
