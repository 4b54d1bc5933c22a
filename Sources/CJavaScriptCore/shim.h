// All C includes and small C helpers used by jsbridge live here.
#ifndef JSBRIDGE_SHIM_H
#define JSBRIDGE_SHIM_H

#include <JavaScriptCore/JavaScript.h>
#include <dlfcn.h>
#include <malloc.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pwd.h>
#include <sys/random.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

// MARK: - Standard streams (Swift 6 rejects the mutable C globals `stdout`/`stderr`).

static inline void jsb_write_out(int fd, const char *bytes, size_t length) {
    if (fd == 2) {
        fflush(stdout);  // keep stdout and stderr in the order they were written
        fwrite(bytes, 1, length, stderr);
        fflush(stderr);
    } else {
        fwrite(bytes, 1, length, stdout);
    }
}

static inline void jsb_flush_all(void) {
    fflush(stdout);
    fflush(stderr);
}

// MARK: - Monotonic time.

static inline uint64_t jsb_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

// MARK: - Exported-but-unshipped JavaScriptCore functions, reached through dlsym with a fallback.

typedef void (*jsb_set_rejection_cb_fn)(JSGlobalContextRef, JSObjectRef, JSValueRef *);

/// Installs `function(promise, reason)` as the unhandled-rejection callback; false when unavailable.
static inline bool jsb_set_unhandled_rejection_callback(JSGlobalContextRef ctx, JSObjectRef function) {
    static jsb_set_rejection_cb_fn fn = NULL;
    static int looked = 0;
    if (!looked) {
        fn = (jsb_set_rejection_cb_fn)dlsym(RTLD_DEFAULT, "JSGlobalContextSetUnhandledRejectionCallback");
        looked = 1;
    }
    if (!fn) return false;
    JSValueRef exception = NULL;
    fn(ctx, function, &exception);
    return exception == NULL;
}

typedef bool (*jsb_should_terminate_cb)(JSContextRef, void *);
typedef void (*jsb_set_time_limit_fn)(JSContextGroupRef, double, jsb_should_terminate_cb, void *);

/// Arms JavaScriptCore's watchdog: `callback` is asked every `seconds` of uninterrupted JS execution
/// whether to terminate it. Returns false when the function is unavailable.
static inline bool jsb_set_execution_time_limit(JSContextGroupRef group, double seconds,
                                                jsb_should_terminate_cb callback, void *context) {
    jsb_set_time_limit_fn fn =
        (jsb_set_time_limit_fn)dlsym(RTLD_DEFAULT, "JSContextGroupSetExecutionTimeLimit");
    if (!fn) return false;
    fn(group, seconds, callback, context);
    return true;
}

// MARK: - Process information.

/// Tunes glibc malloc for a process whose threads hand allocations to each other (the JS thread and the
/// action workers): two arenas instead of eight per core, and freed memory returned to the OS at 128 KiB
/// instead of a threshold that only grows. Keeps RSS flat under a steady stream of calls.
static inline void jsb_tune_malloc(void) {
    mallopt(M_ARENA_MAX, 2);
    mallopt(M_TRIM_THRESHOLD, 128 * 1024);
}

/// Tunes JavaScriptCore for short-lived scripts, before its first use (it reads `JSC_*` variables once):
/// code tiers up to the FTL compiler after 10x the default warm-up. An FTL compile costs milliseconds of a
/// core each, and a script that runs for a second or two (the common case for a command-line runtime) paid
/// ~0.4 s of CPU for FTL compiles that mostly finished too late to pay back (Benchmarks/README.md, "JIT tiers").
/// A variable the user set wins (`setenv` without overwrite).
static inline void jsb_tune_jsc(void) {
    setenv("JSC_thresholdForFTLOptimizeAfterWarmUp", "1000000", 0);
}

/// Resident set size in bytes, from /proc/self/statm.
static inline uint64_t jsb_resident_bytes(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long size = 0, resident = 0;
    int n = fscanf(f, "%lu %lu", &size, &resident);
    fclose(f);
    if (n != 2) return 0;
    return (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

extern char **environ;
static inline char **jsb_environ(void) { return environ; }

#endif
