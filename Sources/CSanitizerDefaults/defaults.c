// Default options of the sanitizers, compiled into every binary that links the engine, so that a test run
// under `swift test --sanitize=address|thread` needs no environment variables: the CLI tests start the
// `jsbridge` binary with an environment of their own. The sanitizer runtimes call these hooks while they
// start, before they can track the hook itself, so the hooks are written in C and built without the
// sanitizers' instrumentation (a Swift hook is instrumented, and ThreadSanitizer crashed entering it).
// A build without a sanitizer never calls them. docs/fuzzing.md, "Sanitizers".

#include "sanitizer_defaults.h"

#define HOOK __attribute__((disable_sanitizer_instrumentation, visibility("default"), used))

// LeakSanitizer (part of AddressSanitizer on Linux), two reports at exit that are not leaks:
// - JavaScriptCore keeps allocations for the life of the process (its VM-wide tables);
// - the side table Swift allocates for an object's first weak reference (32 bytes, freed with the object):
//   the object keeps the table's address in its reference-count word, shifted and flagged, which
//   LeakSanitizer does not read as a pointer, so a watched store's observer alive at exit was reported.
// And one leak in a dependency, not in this project's code: swift-crypto's `withBignumPointer` (CryptoExtras,
// used when an RSA key is generated) ends with `BN_clear`, which leaves the number's words allocated:
// 16 bytes per generated key.
HOOK const char *__lsan_default_suppressions(void) {
    return "leak:libjavascriptcoregtk-4.1.so.0\n"
           "leak:formWeakReference\n"
           "leak:withBignumPointer\n";
}

// The helpers the hooks call are built without instrumentation too: AddressSanitizer's checks read shadow
// memory that is not mapped yet while the runtime starts (an instrumented helper crashed there).
#define UNINSTRUMENTED __attribute__((disable_sanitizer_instrumentation))

// The path the program was started with, from the kernel's auxiliary vector: set before any code runs,
// whereas glibc sets `program_invocation_short_name` only after the sanitizer runtimes have read their
// options. Declared here: this module has no C includes.
extern unsigned long getauxval(unsigned long type);
#define JSB_AT_EXECFN 31

UNINSTRUMENTED static int ends_with(const char *text, const char *suffix) {
    if (!text) return 0;
    const char *t = text, *s = suffix;
    while (*t) t++;
    while (*s) s++;
    while (s > suffix) {
        if (t == text || *--t != *--s) return 0;
    }
    return 1;
}

// The suppressions above are expected, so their tally is not printed at every exit (the CLI tests compare
// the `jsbridge` binary's stderr). Leak checking is off in the test bundle itself (`*.xctest`): Swift keeps
// class references inside enums with tag bits in the pointer's spare bits, which LeakSanitizer does not
// read as pointers, so objects reachable only that way (static mapping caches, XCTest's and Foundation's
// state) are reported at exit. The `jsbridge` processes the CLI tests start keep it on, and per-call leaks
// are measured by RSS over a million calls (Benchmarks).
HOOK const char *__lsan_default_options(void) {
    return ends_with((const char *)getauxval(JSB_AT_EXECFN), ".xctest") ? "print_suppressions=0:detect_leaks=0"
                                                                        : "print_suppressions=0";
}

// AddressSanitizer: Foundation's `Process.run` (the tests' gpsd harness starts gpsd with it) copies each
// `/proc/self/fd` entry's name with a fixed-size `memcpy` that can read past the end of its directory buffer
// (`findMaximumOpenFromProcSelfFD`, in swift-corelibs-foundation, not built with the sanitizer): a read inside
// a library this project does not build, reported through the interceptor it calls.
HOOK const char *__asan_default_suppressions(void) { return "interceptor_via_fun:*findMaximumOpenFromProcSelfFD*\n"; }

// ThreadSanitizer: JavaScriptCore suspends threads for its collector with a signal whose handler, inside the
// engine, changes `errno`; TSan reports that as "signal handler spoils errno" wherever the thread was.
HOOK const char *__tsan_default_suppressions(void) { return "signal:libjavascriptcoregtk-4.1.so.0\n"; }

int jsb_sanitizer_kind(void) {
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
    return 1;
#elif __has_feature(thread_sanitizer)
    return 2;
#endif
#endif
    return 0;
}
