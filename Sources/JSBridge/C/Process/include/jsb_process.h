// The process and the machine it runs on: a monotonic clock, resident memory, the allocator's tuning, the
// environment and the standard streams (Swift 6 rejects the mutable C globals `stdout`, `stderr` and
// `environ`, so they are reached through functions), and the system calls Swift's Glibc module leaves out
// (`sysinfo`, `getrandom`).
#ifndef JSB_PROCESS_H
#define JSB_PROCESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/random.h>
#include <sys/sysinfo.h>
#include <time.h>

/// Nanoseconds on CLOCK_MONOTONIC (inline: the loop and every traced call read it).
static inline uint64_t jsb_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/// Writes `length` bytes to stdout (`fd` 1, buffered) or stderr (`fd` 2: stdout is flushed first, so the two
/// keep the order they were written in, and stderr is flushed at once).
void jsb_write_out(int fd, const char *bytes, size_t length);

/// Flushes stdout and stderr.
void jsb_flush_all(void);

/// Resident set size in bytes, from /proc/self/statm (0 when unreadable).
uint64_t jsb_resident_bytes(void);

/// Tunes glibc malloc for a process whose threads hand allocations to each other (the JS thread and the
/// action workers): two arenas instead of eight per core, and freed memory returned to the OS at 128 KiB
/// instead of a threshold that only grows. Keeps RSS flat under a steady stream of calls.
void jsb_tune_malloc(void);

/// The process's environment (`environ`).
char **jsb_environ(void);

/// A thread that ends the process at a deadline unless the run it guards ends first: the last resort of
/// `--timeout` and `process.exit()` when the JS thread does not come back (docs/architecture.md,
/// "Interrupting JavaScript").
typedef struct jsb_watchdog jsb_watchdog;

/// Starts a watchdog with no deadline; NULL if its thread could not start.
jsb_watchdog *jsb_watchdog_start(void);

/// Sets the deadline (CLOCK_MONOTONIC ns) if it is earlier than the current one: then stdout is flushed,
/// `message` (copied; may be NULL) written to stderr and the process exits with `code` (`_exit`).
void jsb_watchdog_set(jsb_watchdog *watchdog, uint64_t deadline_ns, int code, const char *message);

/// The run has ended: the thread exits (it frees the watchdog). If it is ending the process already, this
/// waits for that.
void jsb_watchdog_finish(jsb_watchdog *watchdog);

#endif
