// All C includes and small C helpers used by jsbridge live here.
#ifndef JSBRIDGE_SHIM_H
#define JSBRIDGE_SHIM_H

#include <JavaScriptCore/JavaScript.h>
#include <dlfcn.h>
#include <malloc.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
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


// MARK: - Signals. Called from one Swift file only (JSBridge's Signals.swift): each object file that calls
// these gets its own copy of the static state below.

/// The self-pipe: the handler writes each signal's number; the JS thread reads them on its event loop.
static int jsb_signal_pipe[2] = {-1, -1};
/// Bit `n`: whether the script listens to signal `n` (`process.on("SIGINT", …)`); set by the JS thread, read
/// by the handler.
static volatile sig_atomic_t jsb_signal_listened = 0;
/// Set by the handler, cleared by the JS thread before it reads the pipe: most loop turns then cost no read().
static volatile sig_atomic_t jsb_signal_arrived = 0;
/// Set by the first SIGINT/SIGTERM nobody listens to: the run is ending, and another one kills at once.
static volatile sig_atomic_t jsb_signal_ending = 0;

static void jsb_signal_handler(int signo) {
    int saved = errno;
    if ((signo == SIGINT || signo == SIGTERM) && !(jsb_signal_listened & (1 << signo))) {
        if (jsb_signal_ending) {
            signal(signo, SIG_DFL);
            raise(signo);
        }
        jsb_signal_ending = 1;
    }
    jsb_signal_arrived = 1;
    unsigned char byte = (unsigned char)signo;
    ssize_t written = write(jsb_signal_pipe[1], &byte, 1);
    (void)written;
    errno = saved;
}

static inline int jsb_signal_install_one(int signo) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = jsb_signal_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(signo, &action, NULL);
}

/// Installs the handlers for SIGINT, SIGTERM, SIGTSTP and SIGCONT (once); returns the pipe's read end or -1.
static inline int jsb_signals_install(void) {
    if (jsb_signal_pipe[0] >= 0) return jsb_signal_pipe[0];
    if (pipe2(jsb_signal_pipe, O_NONBLOCK | O_CLOEXEC) != 0) return -1;
    jsb_signal_install_one(SIGINT);
    jsb_signal_install_one(SIGTERM);
    jsb_signal_install_one(SIGTSTP);
    jsb_signal_install_one(SIGCONT);
    return jsb_signal_pipe[0];
}

/// Whether a signal arrived since the last call (then read the pipe to its end with `jsb_signals_take`).
static inline bool jsb_signals_arrived(void) {
    if (!jsb_signal_arrived) return false;
    jsb_signal_arrived = 0;
    return true;
}

/// The next signal received (its number), or 0 when none waits. Never blocks.
static inline int jsb_signals_take(void) {
    if (jsb_signal_pipe[0] < 0) return 0;
    unsigned char byte;
    return read(jsb_signal_pipe[0], &byte, 1) == 1 ? byte : 0;
}

/// Waits until a signal's number can be read (for the thread that wakes the JS thread's loop).
static inline void jsb_signals_wait(void) {
    struct pollfd fd = {jsb_signal_pipe[0], POLLIN, 0};
    while (poll(&fd, 1, -1) < 0 && errno == EINTR) {}
}

static inline void jsb_signals_set_listened(int signo, bool listened) {
    if (signo <= 0 || signo >= 31) return;
    if (listened) jsb_signal_listened |= (1 << signo);
    else jsb_signal_listened &= ~(1 << signo);
}

/// Dies of `signo` as if never handled (the exit status says killed by that signal).
static inline void jsb_signals_reraise(int signo) {
    signal(signo, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signo);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(signo);
}

/// Stops the process as SIGTSTP does by default; returns once it is continued (SIGCONT).
static inline void jsb_signals_stop_self(void) {
    signal(SIGTSTP, SIG_DFL);
    raise(SIGTSTP);
    jsb_signal_install_one(SIGTSTP);
}

// MARK: - zlib, for CompressionStream / DecompressionStream (JSBridge's CompressionNatives.swift).

#include <zlib.h>

/// One deflate or inflate stream.
typedef struct jsb_zstream {
    z_stream z;
    int decompress;
    int ended;  // inflate saw the end of the compressed data
} jsb_zstream;

/// A stream for `format` 0 (deflate: zlib wrapper), 1 (deflate-raw) or 2 (gzip); NULL when zlib refuses.
static inline jsb_zstream *jsb_zstream_create(int format, int decompress) {
    jsb_zstream *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    int bits = format == 1 ? -15 : format == 2 ? 15 + 16 : 15;
    int rc = decompress ? inflateInit2(&s->z, bits)
                        : deflateInit2(&s->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, bits, 8, Z_DEFAULT_STRATEGY);
    if (rc != Z_OK) {
        free(s);
        return NULL;
    }
    s->decompress = decompress;
    return s;
}

static inline void jsb_zstream_free(jsb_zstream *s) {
    if (s->decompress) inflateEnd(&s->z);
    else deflateEnd(&s->z);
    free(s);
}

/// Results of `jsb_zstream_run`.
#define JSB_Z_OK 0
#define JSB_Z_CORRUPT 1
#define JSB_Z_TRAILING 2
#define JSB_Z_TRUNCATED 3
#define JSB_Z_NOMEM 4

/// Feeds `length` bytes of `input` (then, with `finish`, ends the stream) and answers the output in a
/// malloc'd buffer (`*out`, `*out_length`; NULL when empty). Inflate reports corrupt input, data after the
/// end of the compressed stream, and (with `finish`) input that stopped before that end.
static inline int jsb_zstream_run(jsb_zstream *s, const uint8_t *input, size_t length, int finish, uint8_t **out,
                                  size_t *out_length) {
    *out = NULL;
    *out_length = 0;
    size_t capacity = length < 16384 ? 16384 : length + length / 2 + 1024;
    uint8_t *buffer = malloc(capacity);
    if (!buffer) return JSB_Z_NOMEM;
    size_t used = 0;
    s->z.next_in = (Bytef *)input;
    s->z.avail_in = (uInt)length;
    int status = JSB_Z_OK;
    for (;;) {
        if (used == capacity) {
            capacity *= 2;
            uint8_t *grown = realloc(buffer, capacity);
            if (!grown) {
                status = JSB_Z_NOMEM;
                break;
            }
            buffer = grown;
        }
        s->z.next_out = buffer + used;
        s->z.avail_out = (uInt)(capacity - used);
        if (s->decompress) {
            if (s->ended) {
                if (s->z.avail_in > 0) status = JSB_Z_TRAILING;
                break;
            }
            int rc = inflate(&s->z, Z_NO_FLUSH);
            used = capacity - s->z.avail_out;
            if (rc == Z_STREAM_END) {
                s->ended = 1;
                continue;
            }
            if (rc == Z_NEED_DICT || rc == Z_DATA_ERROR || rc == Z_STREAM_ERROR) {
                status = JSB_Z_CORRUPT;
                break;
            }
            if (rc == Z_MEM_ERROR) {
                status = JSB_Z_NOMEM;
                break;
            }
            if (s->z.avail_out != 0) break;  // all input consumed (or Z_BUF_ERROR: more input needed)
        } else {
            int rc = deflate(&s->z, finish ? Z_FINISH : Z_NO_FLUSH);
            used = capacity - s->z.avail_out;
            if (rc == Z_STREAM_END) break;
            if (rc == Z_STREAM_ERROR) {
                status = JSB_Z_CORRUPT;
                break;
            }
            if (s->z.avail_out != 0) break;
        }
    }
    if (status == JSB_Z_OK && s->decompress && finish && !s->ended) status = JSB_Z_TRUNCATED;
    if (status != JSB_Z_OK || used == 0) {
        free(buffer);
        return status;
    }
    *out = buffer;
    *out_length = used;
    return JSB_Z_OK;
}

extern char **environ;
static inline char **jsb_environ(void) { return environ; }

#endif
