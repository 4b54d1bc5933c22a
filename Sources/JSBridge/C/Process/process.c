#include "jsb_process.h"

#include <malloc.h>
#include <stdio.h>
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
