// Default options of the sanitizers, compiled into every binary that links the engine, so that a test run
// under `swift test --sanitize=address|thread` needs no environment variables: the CLI tests start the
// `jsbridge` binary with an environment of their own. The sanitizer runtimes call these hooks while they
// start, before they can track the hook itself, so the hooks are written in C and built without the
// sanitizers' instrumentation (a Swift hook is instrumented, and ThreadSanitizer crashed entering it).
// A build without a sanitizer never calls them. docs/fuzzing.md, "Sanitizers".

#define HOOK __attribute__((disable_sanitizer_instrumentation, visibility("default"), used))

// LeakSanitizer (part of AddressSanitizer on Linux): JavaScriptCore keeps allocations for the life of the
// process (its VM-wide tables), which LeakSanitizer reports at exit.
HOOK const char *__lsan_default_suppressions(void) { return "leak:libjavascriptcoregtk-4.1.so.0\n"; }

// The suppressions above are expected, so their tally is not printed at every exit (the CLI tests compare
// the `jsbridge` binary's stderr).
HOOK const char *__lsan_default_options(void) { return "print_suppressions=0"; }

// ThreadSanitizer: JavaScriptCore suspends threads for its collector with a signal whose handler, inside the
// engine, changes `errno`; TSan reports that as "signal handler spoils errno" wherever the thread was.
HOOK const char *__tsan_default_suppressions(void) { return "signal:libjavascriptcoregtk-4.1.so.0\n"; }
