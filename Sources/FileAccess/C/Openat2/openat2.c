#define _GNU_SOURCE
#include "jsb_openat2.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

_Static_assert(JSB_O_PATH == O_PATH, "O_PATH");
_Static_assert(JSB_AT_EMPTY_PATH == AT_EMPTY_PATH, "AT_EMPTY_PATH");

int jsb_openat2_no_symlinks(int dirfd, const char *path, int flags, mode_t mode) {
#ifdef SYS_openat2
    struct open_how how = {
        .flags = (unsigned long long)flags,
        // openat2 refuses a mode unless the call may create a file.
        .mode = ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) ? (unsigned long long)mode : 0,
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS,
    };
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
#else
    (void)dirfd, (void)path, (void)flags, (void)mode;
    errno = ENOSYS;
    return -1;
#endif
}
