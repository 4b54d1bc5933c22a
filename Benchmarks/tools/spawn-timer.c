/*
 * spawn-timer.c — wall-clock start-up time of two commands, runs interleaved.
 *
 *   spawn-timer RUNS cmdA [args…] :: cmdB [args…]
 *
 * Runs each command once as a warm-up (page cache), then RUNS times each,
 * alternating A, B, A, B, … so that machine noise hits both alike. Each run is
 * posix_spawn + waitpid, timed with CLOCK_MONOTONIC; stdin/stdout/stderr go to
 * /dev/null. Prints one line of JSON:
 *   {"a":{"medianMs":…,"minMs":…,"runs":…},"b":{…}}
 * Exits 1 (and prints which) if any run exits non-zero.
 */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>

extern char **environ;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Returns elapsed ms, or -1 if the command could not start or exited non-zero. */
static double run_once(char **argv) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    double t0 = now_ms();
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) return -1;
    int status = 0;
    if (waitpid(pid, &status, 0) < 0) return -1;
    double t1 = now_ms();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    return t1 - t0;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv) {
    if (argc < 5) goto usage;
    int runs = atoi(argv[1]);
    int sep = -1;
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "::") == 0) { sep = i; break; }
    if (runs <= 0 || sep < 3 || sep == argc - 1) goto usage;
    argv[sep] = NULL;
    char **cmd[2] = { argv + 2, argv + sep + 1 };

    double *t[2] = { calloc(runs, sizeof(double)), calloc(runs, sizeof(double)) };
    for (int c = 0; c < 2; c++)
        if (run_once(cmd[c]) < 0) {
            fprintf(stderr, "spawn-timer: %s failed\n", cmd[c][0]);
            return 1;
        }
    for (int r = 0; r < runs; r++)
        for (int c = 0; c < 2; c++) {
            /* alternate which goes first, so neither always follows the other */
            int k = (r % 2) ? 1 - c : c;
            double ms = run_once(cmd[k]);
            if (ms < 0) {
                fprintf(stderr, "spawn-timer: %s failed\n", cmd[k][0]);
                return 1;
            }
            t[k][r] = ms;
        }
    double min[2];
    for (int c = 0; c < 2; c++) {
        min[c] = t[c][0];
        for (int r = 1; r < runs; r++) if (t[c][r] < min[c]) min[c] = t[c][r];
    }
    double med0 = median(t[0], runs), med1 = median(t[1], runs);
    printf("{\"a\":{\"medianMs\":%.4f,\"minMs\":%.4f,\"runs\":%d},"
           "\"b\":{\"medianMs\":%.4f,\"minMs\":%.4f,\"runs\":%d}}\n",
           med0, min[0], runs, med1, min[1], runs);
    return 0;
usage:
    fprintf(stderr, "usage: spawn-timer RUNS cmdA [args…] :: cmdB [args…]\n");
    return 2;
}
