// openat2(2), which glibc 2.36 does not wrap (FileAccess's PathBeneath opens through it): opening a path
// relative to a directory descriptor with the kernel refusing every symbolic link, `..` escape and procfs
// magic link on the way.
#ifndef JSB_OPENAT2_H
#define JSB_OPENAT2_H

#include <sys/types.h>

/// `O_PATH` and `AT_EMPTY_PATH`, which glibc declares only under `_GNU_SOURCE` (openat2.c checks the values).
#define JSB_O_PATH 010000000
#define JSB_AT_EMPTY_PATH 0x1000

/// openat2(dirfd, path, {flags, mode, RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS}): a descriptor, or -1 with errno
/// set (ENOSYS on kernels before 5.6, ELOOP for a link on the way, EXDEV for an escape).
int jsb_openat2_no_symlinks(int dirfd, const char *path, int flags, mode_t mode);

#endif
