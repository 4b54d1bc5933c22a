/// The JavaScript half of the runtime, embedded in the binary at build time.
///
/// Each file is the body of a function `(internal) => { … }`, run once at start-up in this order.
public enum JSBridgeScripts {
    /// The runtime files, in load order.
    public static let files: [(name: String, source: [UInt8])] = [
        ("inspect.js", PackageResources.inspect_js),
        ("console.js", PackageResources.console_js),
        ("errors.js", PackageResources.errors_js),
        ("encoding.js", PackageResources.encoding_js),
        ("events.js", PackageResources.events_js),
        ("url.js", PackageResources.url_js),
        ("structured-clone.js", PackageResources.structured_clone_js),
        ("timers.js", PackageResources.timers_js),
        ("process.js", PackageResources.process_js),
        ("module.js", PackageResources.module_js),
        ("bridge.js", PackageResources.bridge_js),
    ]
}
