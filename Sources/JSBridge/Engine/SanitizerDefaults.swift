// Default options of the sanitizers, compiled into every binary that links the engine, so that a test run
// under `swift test --sanitize=address|thread` needs no environment variables — the CLI tests start the
// `jsbridge` binary with an environment of their own. The sanitizer runtimes call these C hooks at start-up;
// a build without a sanitizer never calls them. docs/fuzzing.md, "Sanitizers".

/// LeakSanitizer (part of AddressSanitizer on Linux): JavaScriptCore keeps allocations for the life of the
/// process (its VM-wide tables), which LeakSanitizer reports at exit.
@_cdecl("__lsan_default_suppressions")
public func lsanDefaultSuppressions() -> UnsafePointer<CChar> {
    staticCString("leak:libjavascriptcoregtk-4.1.so.0\n")
}

/// LeakSanitizer's options: the suppressions above are expected, so their tally is not printed at every exit
/// (the CLI tests compare the `jsbridge` binary's stderr).
@_cdecl("__lsan_default_options")
public func lsanDefaultOptions() -> UnsafePointer<CChar> {
    staticCString("print_suppressions=0")
}

/// ThreadSanitizer: JavaScriptCore suspends threads for its collector with a signal whose handler, inside the
/// engine, changes `errno`; TSan reports that as "signal handler spoils errno" wherever the thread was.
@_cdecl("__tsan_default_suppressions")
public func tsanDefaultSuppressions() -> UnsafePointer<CChar> {
    staticCString("signal:libjavascriptcoregtk-4.1.so.0\n")
}
