// posix_spawn's pieces that glibc declares only under _GNU_SOURCE, and process file descriptors (pidfds), for
// the processes jsbridge starts: node:child_process's children (the node extension), and the tests' (the CLI
// tests' jsbridge runs, a test PostgreSQL cluster).
#ifndef JSB_SPAWN_H
#define JSB_SPAWN_H

#include <spawn.h>
#include <sys/types.h>

/// posix_spawn's flag that starts the child in a session of its own (POSIX_SPAWN_SETSID).
short jsb_spawn_setsid_flag(void);

/// Adds to `actions` the closing of every descriptor from `lowest` up in the child
/// (posix_spawn_file_actions_addclosefrom_np, glibc 2.34).
int jsb_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// Adds to `actions` a change of the child's working directory to `path`
/// (posix_spawn_file_actions_addchdir_np, glibc 2.29); the spawn fails with that chdir's error.
int jsb_spawn_chdir(posix_spawn_file_actions_t *actions, const char *path);

/// A pipe whose two ends close on exec (pipe2 with O_CLOEXEC: no other thread's child inherits them); 0 or -1
/// with errno.
int jsb_pipe_cloexec(int fds[2]);

/// A descriptor that refers to process `pid` (pidfd_open): readable once it exits, and a way to signal it
/// that cannot reach another process reusing its id. -1 with errno when the kernel has none (before 5.3).
int jsb_pidfd_open(pid_t pid);

/// Sends `signo` to the process `pidfd` refers to (pidfd_send_signal); 0, or -1 with errno (ESRCH once it
/// was reaped).
int jsb_pidfd_send_signal(int pidfd, int signo);

#endif
