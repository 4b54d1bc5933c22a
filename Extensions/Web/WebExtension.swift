import JSBridge

/// The `web` engine extension: the web platform's APIs that WinterTC's Minimum Common API and scripts written
/// for browsers expect — events and `AbortController`, `TextEncoder`/`TextDecoder`, `URL`, `URLPattern`,
/// `structuredClone`, `Blob`/`File`/`FormData`, streams, compression streams, `MessageChannel`, `performance`,
/// Web Crypto (`crypto.subtle`), `self`, `reportError` and WebAssembly's promise-returning functions. Every
/// global is lazy: its file runs the first time a script reads it.
public enum WebExtension {
    static let declaration = EngineExtension("web", state: WebState.init) { ext in
        ext.script(
            .lazy(
                "events.js", PackageResources.events_js,
                globals: ["DOMException", "Event", "CustomEvent", "EventTarget", "AbortSignal", "AbortController"],
                internals: [
                    "DOMException", "Event", "CustomEvent", "EventTarget", "AbortSignal", "AbortController",
                    "abortSignal", "isDOMException",
                ]))
        ext.script(
            .lazy(
                "encoding.js", PackageResources.encoding_js, globals: ["TextEncoder", "TextDecoder", "btoa", "atob"],
                internals: [
                    "utf8Encode", "utf8Decode", "TextEncoder", "TextDecoder", "base64Encode", "base64Decode",
                    "forgivingBase64Decode",
                ]))
        ext.script(
            .lazy(
                "url.js", PackageResources.url_js, globals: ["URL", "URLSearchParams"],
                internals: ["URL", "URLSearchParams", "parseURLComponents", "canonicalizeURLComponent"]))
        ext.script(
            .lazy(
                "urlpattern.js", PackageResources.urlpattern_js, globals: ["URLPattern"], internals: ["URLPattern"]))
        ext.script(
            .lazy(
                "structured-clone.js", PackageResources.structured_clone_js, globals: ["structuredClone"],
                internals: ["structuredClone"]))
        ext.script(
            .lazy(
                "blob.js", PackageResources.blob_js, globals: ["Blob", "File"],
                internals: ["Blob", "File", "blobInternals"]))
        ext.script(
            .lazy(
                "form-data.js", PackageResources.form_data_js, globals: ["FormData"],
                internals: ["FormData", "formDataInternals"]))
        ext.script(
            .lazy(
                "streams.js", PackageResources.streams_js,
                globals: [
                    "ReadableStream", "ReadableStreamDefaultReader", "ReadableStreamBYOBReader",
                    "ReadableStreamBYOBRequest", "ReadableStreamDefaultController", "ReadableByteStreamController",
                    "WritableStream", "WritableStreamDefaultWriter", "WritableStreamDefaultController",
                    "TransformStream", "TransformStreamDefaultController", "ByteLengthQueuingStrategy",
                    "CountQueuingStrategy", "TextEncoderStream", "TextDecoderStream",
                ],
                internals: ["streams", "ReadableStream", "TransformStream"]))
        ext.script(
            .lazy(
                "compression.js", PackageResources.compression_js,
                globals: ["CompressionStream", "DecompressionStream"]))
        ext.script(
            .lazy(
                "message-channel.js", PackageResources.message_channel_js,
                globals: ["MessageChannel", "MessagePort", "MessageEvent"],
                internals: ["messagePorts", "MessageEvent"]))
        ext.script(.lazy("performance.js", PackageResources.performance_js, globals: ["performance"]))
        ext.script(
            .lazy(
                "crypto.js", PackageResources.crypto_js, globals: ["crypto", "Crypto", "CryptoKey", "SubtleCrypto"],
                internals: ["webcrypto", "getRandomValues", "randomUUID", "cryptoRunSync"]))
        ext.script(.lazy("global-scope.js", PackageResources.global_scope_js, globals: ["self", "reportError"]))
        ext.script(.lazy("webassembly.js", PackageResources.webassembly_js, globals: ["WebAssembly"]))
        // The web APIs as the runtime loaded them, for plugins' JavaScript (a script's reassignment of a global
        // does not reach there).
        ext.exposeToPlugins(
            "utf8Encode", "utf8Decode", "base64Encode", "base64Decode", "forgivingBase64Decode", "URL",
            "URLSearchParams", "fileURLToPath", "DOMException", "Event", "EventTarget",
            "AbortSignal", "AbortController", "Blob", "File", "FormData", "blobInternals", "formDataInternals",
            "ReadableStream", "streams", "structuredClone", "MessageEvent")
        declareEncodingNatives(&ext)
        declareCompressionNatives(&ext)
        declareCryptoNatives(&ext)
    }
}

extension EngineExtension {
    /// The web platform's APIs (``WebExtension``).
    public static var web: EngineExtension { WebExtension.declaration }
}
