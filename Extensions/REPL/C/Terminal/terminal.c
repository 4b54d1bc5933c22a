#include "jsb_terminal.h"

#include <pthread.h>
#include <pty.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

/// The settings of `saved_fd` before the first `jsb_tty_raw` (JS thread only; read again at exit).
static struct termios saved;
static int saved_fd = -1;

int jsb_tty_raw(int fd) {
    struct termios settings;
    if (tcgetattr(fd, &settings) != 0) return -1;
    if (saved_fd < 0) {
        saved = settings;
        saved_fd = fd;
    }
    settings.c_iflag &= ~(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
    settings.c_cflag |= CS8;
    settings.c_lflag &= ~(ECHO | ICANON | IEXTEN | ISIG);
    settings.c_cc[VMIN] = 1;
    settings.c_cc[VTIME] = 0;
    return tcsetattr(fd, TCSADRAIN, &settings);
}

void jsb_tty_evaluating(void) {
    if (saved_fd < 0) return;
    struct termios settings = saved;
    settings.c_cc[VEOF] = _POSIX_VDISABLE;
    tcsetattr(saved_fd, TCSADRAIN, &settings);
}

void jsb_tty_restore(void) {
    if (saved_fd >= 0) tcsetattr(saved_fd, TCSADRAIN, &saved);
}

static pthread_once_t restore_registered = PTHREAD_ONCE_INIT;

static void register_restore(void) { atexit(jsb_tty_restore); }

void jsb_tty_restore_at_exit(void) { pthread_once(&restore_registered, register_restore); }

int jsb_tty_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
}

int jsb_pty_open(int *controller, char *name, size_t length, int rows, int cols) {
    int device = -1;
    struct winsize size = {0};
    size.ws_row = (unsigned short)rows;
    size.ws_col = (unsigned short)cols;
    if (openpty(controller, &device, NULL, NULL, &size) != 0) return -1;
    // ttyname_r, not ttyname: tests open terminals on several threads at once, and ttyname's buffer is shared
    // by all of them.
    int failed = ttyname_r(device, name, length);
    close(device);
    if (failed != 0) {
        close(*controller);
        return -1;
    }
    return 0;
}
