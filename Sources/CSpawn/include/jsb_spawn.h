// posix_spawn's pieces that glibc declares only under _GNU_SOURCE, for the processes tests start (the CLI
// tests' jsbridge runs, a test PostgreSQL cluster).
#ifndef JSB_SPAWN_H
#define JSB_SPAWN_H

#include <spawn.h>

/// posix_spawn's flag that starts the child in a session of its own (POSIX_SPAWN_SETSID).
short jsb_spawn_setsid_flag(void);

/// Adds to `actions` the closing of every descriptor from `lowest` up in the child
/// (posix_spawn_file_actions_addclosefrom_np, glibc 2.34).
int jsb_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

#endif
