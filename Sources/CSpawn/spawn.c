#define _GNU_SOURCE
#include "jsb_spawn.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

short jsb_spawn_setsid_flag(void) { return POSIX_SPAWN_SETSID; }

int jsb_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int jsb_spawn_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int jsb_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int jsb_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int jsb_pidfd_send_signal(int pidfd, int signo) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, signo, NULL, 0);
}
