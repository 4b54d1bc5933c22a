#define _GNU_SOURCE
#include "jsb_spawn.h"

short jsb_spawn_setsid_flag(void) { return POSIX_SPAWN_SETSID; }

int jsb_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}
