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
#include <spawn.h>
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
///
/// Traps (the watchdog's time limit, `process.exit()` of running code) are polled by JIT code instead of
/// signalled: with signals, JavaScriptCore's one "Signal Sender" thread per process suspends and resumes the
/// JS threads, and in a process running many engines (the test suites, a host app's runtimes) it was seen
/// stuck in `Thread::resume` while JS threads spun on an allocator lock, stalling every runtime of the process
/// for tens of seconds (docs/architecture.md, "Interrupting JavaScript"). `jsb_prefer_signalled_traps`
/// keeps signals for a process with one engine.
/// A variable already set wins (`setenv` without overwrite).
static inline void jsb_tune_jsc(void) {
    setenv("JSC_thresholdForFTLOptimizeAfterWarmUp", "1000000", 0);
    setenv("JSC_usePollingTraps", "1", 0);
}

/// Signalled traps, for a process that runs one engine (the `jsbridge` CLI): its JIT code then carries no
/// polling checks, which slow the busiest call row (Benchmarks/README.md, "Polling traps"), and the stall
/// polling avoids was seen only with several engines. Call before the first runtime; a variable already set
/// wins.
static inline void jsb_prefer_signalled_traps(void) {
    setenv("JSC_usePollingTraps", "0", 0);
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

// MARK: - ICU (libicuuc, loaded with JavaScriptCore): legacy text decoders and UTS #46 host names.
// ICU's own headers cannot be included here: their types (UErrorCode…) clash with the copy of ICU inside
// Foundation (_FoundationICU) in every Swift module that imports both. So this block declares the few
// functions it calls, under the versioned names ICU exports (uvernum.h has only macros), with ICU's stable
// constants, and Swift calls the jsb_* wrappers below.

#include <unicode/uvernum.h>

#define JSB_ICU(name) U_ICU_ENTRY_POINT_RENAME(name)

typedef void (*jsb_icu_to_u_callback)(const void *context, void *args, const char *units, int32_t length, int reason,
                                      int *error);
/// ICU's UIDNAInfo.
typedef struct {
    int16_t size;
    int8_t isTransitionalDifferent;
    int8_t reservedB3;
    uint32_t errors;
    int32_t reservedI2;
    int32_t reservedI3;
} jsb_idna_info;

void *JSB_ICU(ucnv_open)(const char *name, int *status);
void JSB_ICU(ucnv_close)(void *converter);
void JSB_ICU(ucnv_resetToUnicode)(void *converter);
void JSB_ICU(ucnv_setToUCallBack)(void *converter, jsb_icu_to_u_callback action, const void *context,
                                  jsb_icu_to_u_callback *oldAction, const void **oldContext, int *status);
void JSB_ICU(ucnv_toUnicode)(void *converter, uint16_t **target, const uint16_t *targetLimit, const char **source,
                             const char *sourceLimit, int32_t *offsets, int8_t flush, int *status);
void JSB_ICU(ucnv_cbToUWriteUChars)(void *args, const uint16_t *source, int32_t length, int32_t offsetIndex,
                                    int *status);
void *JSB_ICU(uidna_openUTS46)(uint32_t options, int *status);
int32_t JSB_ICU(uidna_nameToASCII)(const void *idna, const uint16_t *name, int32_t length, uint16_t *dest,
                                   int32_t capacity, jsb_idna_info *info, int *status);

enum {
    JSB_U_ZERO_ERROR = 0,
    JSB_U_BUFFER_OVERFLOW_ERROR = 15,
    JSB_U_ILLEGAL_CHAR_FOUND = 12,
    JSB_UCNV_IRREGULAR = 2,
    JSB_UIDNA_CHECK_BIDI = 4,
    JSB_UIDNA_CHECK_CONTEXTJ = 8,
    JSB_UIDNA_NONTRANSITIONAL_TO_ASCII = 0x10,
    JSB_UIDNA_NONTRANSITIONAL_TO_UNICODE = 0x20,
};

/// Errors the URL Standard ignores: EMPTY_LABEL, LABEL_TOO_LONG, DOMAIN_NAME_TOO_LONG (VerifyDnsLength is
/// false), LEADING_HYPHEN, TRAILING_HYPHEN, HYPHEN_3_4 (CheckHyphens is false).
static inline uint32_t jsb_idna_ignored_errors(void) { return 0x1 | 0x2 | 0x4 | 0x8 | 0x10 | 0x20; }

/// Flags for the callbacks below (their `context`): how the Encoding Standard's decoder differs from ICU's.
enum {
    /// A double-byte decoder (Big5, EUC-KR, gb18030, Shift_JIS, EUC-JP): an invalid pair whose second byte is
    /// ASCII gives U+FFFD and then that byte's character (ICU drops the byte).
    JSB_ICU_ASCII_TRAIL = 1,
    /// gb18030: the single byte 0x80 is U+20AC (ICU calls it invalid).
    JSB_ICU_EURO_80 = 2,
};

/// What the Encoding Standard decodes where ICU reports an invalid sequence: writes it and answers true, or
/// answers false when it is an error there too.
static bool jsb_icu_fix(uintptr_t flags, void *args, const char *units, int32_t length, int *error) {
    static const uint16_t euro = 0x20AC;
    if ((flags & JSB_ICU_EURO_80) && length == 1 && (uint8_t)units[0] == 0x80) {
        *error = JSB_U_ZERO_ERROR;
        JSB_ICU(ucnv_cbToUWriteUChars)(args, &euro, 1, 0, error);
        return true;
    }
    return false;
}

/// Writes one U+FFFD per invalid or unmapped sequence (ICU's own substitute callback writes U+001A for
/// single bytes of some converters), and the Encoding Standard's exceptions (`jsb_icu_fix`, JSB_ICU_ASCII_TRAIL).
static void jsb_icu_replace(const void *context, void *args, const char *units, int32_t length, int reason,
                            int *error) {
    if (reason > JSB_UCNV_IRREGULAR) return;
    uintptr_t flags = (uintptr_t)context;
    if (jsb_icu_fix(flags, args, units, length, error)) return;
    uint16_t replacement[2] = {0xFFFD, 0};
    int32_t count = 1;
    uint8_t trail = length == 2 ? (uint8_t)units[1] : 0xFF;
    // In gb18030 a lead and a digit start a four-byte sequence: cut short, it is one error.
    bool digitOfFourBytes = (flags & JSB_ICU_EURO_80) && trail >= 0x30 && trail <= 0x39;
    if ((flags & JSB_ICU_ASCII_TRAIL) && trail < 0x80 && !digitOfFourBytes) {
        replacement[1] = trail;
        count = 2;
    }
    *error = JSB_U_ZERO_ERROR;
    JSB_ICU(ucnv_cbToUWriteUChars)(args, replacement, count, 0, error);
}

/// Stops at the first invalid or unmapped sequence (for `fatal` decoders).
static void jsb_icu_stop(const void *context, void *args, const char *units, int32_t length, int reason,
                         int *error) {
    if (reason > JSB_UCNV_IRREGULAR) return;
    if (jsb_icu_fix((uintptr_t)context, args, units, length, error)) return;
    *error = JSB_U_ILLEGAL_CHAR_FOUND;
}

/// Opens ICU converter `name` with `flags` (JSB_ICU_*); with `fatal`, invalid input stops the conversion
/// instead of giving U+FFFD. NULL when ICU has no such converter.
static inline void *jsb_icu_decoder_open(const char *name, bool fatal, uintptr_t flags) {
    int status = JSB_U_ZERO_ERROR;
    void *converter = JSB_ICU(ucnv_open)(name, &status);
    if (status > JSB_U_ZERO_ERROR || converter == NULL) return NULL;
    JSB_ICU(ucnv_setToUCallBack)(converter, fatal ? jsb_icu_stop : jsb_icu_replace, (const void *)flags, NULL, NULL,
                                 &status);
    if (status > JSB_U_ZERO_ERROR) {
        JSB_ICU(ucnv_close)(converter);
        return NULL;
    }
    return converter;
}

static inline void jsb_icu_decoder_close(void *converter) { JSB_ICU(ucnv_close)(converter); }

/// Decodes `length` bytes into a malloc'ed buffer of UTF-16 units (`*units`, `*count`; the caller frees it).
/// With `flush`, an unfinished sequence at the end is an error and the converter is reset afterwards.
/// Returns 0, or 1 when the input is invalid and the converter was opened fatal (the converter is then reset).
static inline int jsb_icu_decode(void *converter, const uint8_t *bytes, size_t length, bool flush, uint16_t **units,
                                 size_t *count) {
    size_t capacity = length * 2 + 16;
    uint16_t *out = (uint16_t *)malloc(capacity * sizeof(uint16_t));
    const char *source = (const char *)bytes;
    const char *sourceEnd = source + length;
    uint16_t *target = out;
    for (;;) {
        int status = JSB_U_ZERO_ERROR;
        JSB_ICU(ucnv_toUnicode)(converter, &target, out + capacity, &source, sourceEnd, NULL, flush, &status);
        if (status == JSB_U_BUFFER_OVERFLOW_ERROR) {
            size_t used = (size_t)(target - out);
            capacity *= 2;
            out = (uint16_t *)realloc(out, capacity * sizeof(uint16_t));
            target = out + used;
            continue;
        }
        if (status > JSB_U_ZERO_ERROR) {
            JSB_ICU(ucnv_resetToUnicode)(converter);
            free(out);
            *units = NULL;
            *count = 0;
            return 1;
        }
        break;
    }
    if (flush) JSB_ICU(ucnv_resetToUnicode)(converter);
    *units = out;
    *count = (size_t)(target - out);
    return 0;
}

/// UTS #46 ToASCII of a domain as the URL Standard asks (nontransitional, CheckBidi, CheckJoiners, no STD3
/// rules). Writes at most `capacity` units to `dest` and answers the result's length; -1 when ICU fails,
/// -2 - length when `capacity` is too small. `*errors` receives ICU's UIDNA_ERROR_* bits.
static inline int32_t jsb_idna_to_ascii(const uint16_t *name, int32_t length, uint16_t *dest, int32_t capacity,
                                        uint32_t *errors) {
    static void *idna = NULL;
    int status = JSB_U_ZERO_ERROR;
    if (idna == NULL) {
        idna = JSB_ICU(uidna_openUTS46)(JSB_UIDNA_CHECK_BIDI | JSB_UIDNA_CHECK_CONTEXTJ |
                                            JSB_UIDNA_NONTRANSITIONAL_TO_ASCII | JSB_UIDNA_NONTRANSITIONAL_TO_UNICODE,
                                        &status);
        if (status > JSB_U_ZERO_ERROR) {
            idna = NULL;
            return -1;
        }
    }
    jsb_idna_info info = {sizeof(jsb_idna_info), 0, 0, 0, 0, 0};
    int32_t written = JSB_ICU(uidna_nameToASCII)(idna, name, length, dest, capacity, &info, &status);
    if (status == JSB_U_BUFFER_OVERFLOW_ERROR) return -2 - written;
    if (status > JSB_U_ZERO_ERROR) return -1;
    *errors = info.errors;
    return written;
}


extern char **environ;
static inline char **jsb_environ(void) { return environ; }


// MARK: - Terminals (the REPL: JSBridgeCLI's TerminalPlugin; its pseudo-terminal tests).

#include <pty.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <termios.h>

/// The settings a terminal had before `jsb_tty_raw` changed them (restored by `jsb_tty_restore`).
static inline struct termios *jsb_tty_saved(void) {
    static struct termios saved;
    return &saved;
}
static int jsb_tty_saved_fd = -1;

/// Puts terminal `fd` in raw mode for line editing (no echo, no line buffering, no signal keys, no CR/NL
/// translation on input; output processing stays on so "\n" still starts a new line); 0 or -1 (errno).
static inline int jsb_tty_raw(int fd) {
    struct termios settings;
    if (tcgetattr(fd, &settings) != 0) return -1;
    if (jsb_tty_saved_fd < 0) {
        *jsb_tty_saved() = settings;
        jsb_tty_saved_fd = fd;
    }
    settings.c_iflag &= ~(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
    settings.c_cflag |= CS8;
    settings.c_lflag &= ~(ECHO | ICANON | IEXTEN | ISIG);
    settings.c_cc[VMIN] = 1;
    settings.c_cc[VTIME] = 0;
    return tcsetattr(fd, TCSADRAIN, &settings);
}

/// The settings the terminal had before `jsb_tty_raw`, except that Ctrl-D is an ordinary key: while the REPL
/// evaluates, Ctrl-C is SIGINT as usual, but a Ctrl-D typed then must reach the line editor afterwards as a
/// key, not be turned by the line discipline into an end of input that raw mode later delivers as a NUL.
static inline void jsb_tty_evaluating(void) {
    if (jsb_tty_saved_fd < 0) return;
    struct termios settings = *jsb_tty_saved();
    settings.c_cc[VEOF] = _POSIX_VDISABLE;
    tcsetattr(jsb_tty_saved_fd, TCSADRAIN, &settings);
}

/// Gives the terminal back the settings it had before `jsb_tty_raw` (a no-op if it never ran).
static inline void jsb_tty_restore(void) {
    if (jsb_tty_saved_fd >= 0) tcsetattr(jsb_tty_saved_fd, TCSADRAIN, jsb_tty_saved());
}

/// Restores the terminal when the process exits, however it exits normally (`exit`, `process.exit()`).
static inline void jsb_tty_restore_at_exit(void) {
    static int registered = 0;
    if (!registered) {
        registered = 1;
        atexit(jsb_tty_restore);
    }
}

/// The terminal's width in columns, or 0 when unknown.
static inline int jsb_tty_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
}

/// posix_spawn's flag that starts the child in a session of its own (glibc's value: it is declared only
/// under _GNU_SOURCE, which this header does not set).
static inline short jsb_spawn_setsid_flag(void) {
#ifdef POSIX_SPAWN_SETSID
    return POSIX_SPAWN_SETSID;
#else
    return 0x80;
#endif
}

/// Adds to `actions` the closing of every descriptor from `lowest` up in the child (glibc 2.34's
/// posix_spawn_file_actions_addclosefrom_np, declared by name here as the header hides it in strict modes).
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *, int);
static inline int jsb_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

/// Opens a pseudo-terminal pair of `rows` x `cols`: the controller's fd in `*controller`, the device's path
/// in `name` (`length` bytes); the device side is closed again (a child opens it by name); 0 or -1.
static inline int jsb_pty_open(int *controller, char *name, size_t length, int rows, int cols) {
    int device = -1;
    struct winsize size = {0};
    size.ws_row = (unsigned short)rows;
    size.ws_col = (unsigned short)cols;
    if (openpty(controller, &device, NULL, NULL, &size) != 0) return -1;
    const char *path = ttyname(device);
    if (path == NULL || strlen(path) + 1 > length) {
        close(device);
        close(*controller);
        return -1;
    }
    strcpy(name, path);
    close(device);
    return 0;
}

#endif
