#define _GNU_SOURCE
#include "jsb_process.h"

#include <malloc.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

void jsb_write_out(int fd, const char *bytes, size_t length) {
    if (fd == 2) {
        fflush(stdout);
        fwrite(bytes, 1, length, stderr);
        fflush(stderr);
    } else {
        fwrite(bytes, 1, length, stdout);
    }
}

void jsb_flush_all(void) {
    fflush(stdout);
    fflush(stderr);
}

uint64_t jsb_resident_bytes(void) {
    FILE *file = fopen("/proc/self/statm", "r");
    if (!file) return 0;
    unsigned long size = 0, resident = 0;
    int read = fscanf(file, "%lu %lu", &size, &resident);
    fclose(file);
    if (read != 2) return 0;
    return (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

void jsb_tune_malloc(void) {
    mallopt(M_ARENA_MAX, 2);
    mallopt(M_TRIM_THRESHOLD, 128 * 1024);
}

char **jsb_environ(void) { return environ; }

struct jsb_watchdog {
    pthread_mutex_t mutex;
    pthread_cond_t changed;
    uint64_t deadline;  // 0: none
    int code;
    char *message;
    bool finished;
};

static void watchdog_free(jsb_watchdog *watchdog) {
    pthread_mutex_destroy(&watchdog->mutex);
    pthread_cond_destroy(&watchdog->changed);
    free(watchdog->message);
    free(watchdog);
}

/// Flushes `stream` unless another thread holds it for long (a writer blocked on a full pipe): the process
/// must end either way.
static void flush_if_free(FILE *stream) {
    for (int tries = 0; tries < 100; tries++) {
        if (ftrylockfile(stream) == 0) {
            fflush_unlocked(stream);
            funlockfile(stream);
            return;
        }
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
}

static void *watchdog_main(void *raw) {
    jsb_watchdog *watchdog = raw;
    pthread_mutex_lock(&watchdog->mutex);
    while (!watchdog->finished) {
        if (watchdog->deadline == 0) {
            pthread_cond_wait(&watchdog->changed, &watchdog->mutex);
            continue;
        }
        uint64_t now = jsb_monotonic_ns();
        if (now >= watchdog->deadline) {
            // The mutex stays locked: `jsb_watchdog_finish` waits for the end of the process.
            flush_if_free(stdout);
            if (watchdog->message) {
                flush_if_free(stderr);
                ssize_t written = write(2, watchdog->message, strlen(watchdog->message));
                (void)written;
            }
            _exit(watchdog->code);
        }
        struct timespec until = {(time_t)(watchdog->deadline / 1000000000ull),
                                 (long)(watchdog->deadline % 1000000000ull)};
        pthread_cond_timedwait(&watchdog->changed, &watchdog->mutex, &until);
    }
    pthread_mutex_unlock(&watchdog->mutex);
    watchdog_free(watchdog);
    return NULL;
}

jsb_watchdog *jsb_watchdog_start(void) {
    jsb_watchdog *watchdog = calloc(1, sizeof *watchdog);
    if (!watchdog) return NULL;
    pthread_mutex_init(&watchdog->mutex, NULL);
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&watchdog->changed, &attributes);
    pthread_condattr_destroy(&attributes);
    pthread_attr_t thread_attributes;
    pthread_attr_init(&thread_attributes);
    pthread_attr_setdetachstate(&thread_attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&thread_attributes, 64 * 1024);
    pthread_t thread;
    int failed = pthread_create(&thread, &thread_attributes, watchdog_main, watchdog);
    pthread_attr_destroy(&thread_attributes);
    if (failed) {
        watchdog_free(watchdog);
        return NULL;
    }
    return watchdog;
}

void jsb_watchdog_set(jsb_watchdog *watchdog, uint64_t deadline_ns, int code, const char *message) {
    if (!watchdog) return;
    pthread_mutex_lock(&watchdog->mutex);
    if (!watchdog->finished && (watchdog->deadline == 0 || deadline_ns < watchdog->deadline)) {
        watchdog->deadline = deadline_ns;
        watchdog->code = code;
        free(watchdog->message);
        watchdog->message = message ? strdup(message) : NULL;
        pthread_cond_signal(&watchdog->changed);
    }
    pthread_mutex_unlock(&watchdog->mutex);
}

void jsb_watchdog_finish(jsb_watchdog *watchdog) {
    if (!watchdog) return;
    pthread_mutex_lock(&watchdog->mutex);
    watchdog->finished = true;
    pthread_cond_signal(&watchdog->changed);
    pthread_mutex_unlock(&watchdog->mutex);
}
