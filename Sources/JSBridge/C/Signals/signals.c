#define _GNU_SOURCE
#include "jsb_signals.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/// The self-pipe: the handler writes each signal's number; the JS thread reads them on its event loop.
static int signal_pipe[2] = {-1, -1};
/// Bit `n`: whether the script listens to signal `n`; set by the JS thread, read by the handler.
static volatile sig_atomic_t listened_mask = 0;
/// Set by the handler, cleared by the JS thread before it reads the pipe: most loop turns then cost no read().
static volatile sig_atomic_t arrived = 0;
/// Set by the first SIGINT/SIGTERM nobody listens to: the run is ending, and another one kills at once.
static volatile sig_atomic_t ending = 0;
/// That first SIGINT/SIGTERM, until the JS thread takes it (`jsb_signals_taken`): if it has not when the
/// alarm rings, the process dies of it (the JS thread is stuck: an endless loop, a microtask loop).
static volatile sig_atomic_t awaiting = 0;

/// Seconds the JS thread has to take a SIGINT/SIGTERM nobody listens to.
#define TAKE_SECONDS 5

static void die_of(int signo) {
    signal(signo, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signo);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(signo);
}

static void alarm_handler(int signo) {
    (void)signo;
    int pending = awaiting;
    if (pending) die_of(pending);
}

static void handler(int signo) {
    int saved = errno;
    if ((signo == SIGINT || signo == SIGTERM) && !(listened_mask & (1 << signo))) {
        if (ending) {
            signal(signo, SIG_DFL);
            raise(signo);
        }
        ending = 1;
        awaiting = signo;
        alarm(TAKE_SECONDS);
    }
    arrived = 1;
    unsigned char byte = (unsigned char)signo;
    ssize_t written = write(signal_pipe[1], &byte, 1);
    (void)written;
    errno = saved;
}

static int install_one(int signo) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(signo, &action, NULL);
}

int jsb_signals_install(void) {
    if (signal_pipe[0] >= 0) return signal_pipe[0];
    if (pipe2(signal_pipe, O_NONBLOCK | O_CLOEXEC) != 0) return -1;
    install_one(SIGINT);
    install_one(SIGTERM);
    install_one(SIGTSTP);
    install_one(SIGCONT);
    struct sigaction alarm_action;
    memset(&alarm_action, 0, sizeof alarm_action);
    alarm_action.sa_handler = alarm_handler;
    sigemptyset(&alarm_action.sa_mask);
    alarm_action.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &alarm_action, NULL);
    return signal_pipe[0];
}

bool jsb_signals_arrived(void) {
    if (!arrived) return false;
    arrived = 0;
    return true;
}

int jsb_signals_take(void) {
    if (signal_pipe[0] < 0) return 0;
    unsigned char byte;
    return read(signal_pipe[0], &byte, 1) == 1 ? byte : 0;
}

void jsb_signals_wait(void) {
    struct pollfd fd = {signal_pipe[0], POLLIN, 0};
    while (poll(&fd, 1, -1) < 0 && errno == EINTR) {}
}

void jsb_signals_set_listened(int signo, bool listened) {
    if (signo <= 0 || signo >= 31) return;
    if (listened) listened_mask |= (1 << signo);
    else listened_mask &= ~(1 << signo);
}

void jsb_signals_reraise(int signo) { die_of(signo); }

void jsb_signals_stop_self(void) {
    signal(SIGTSTP, SIG_DFL);
    raise(SIGTSTP);
    install_one(SIGTSTP);
}

void jsb_signals_taken(int signo) {
    if (awaiting != signo) return;
    awaiting = 0;
    alarm(0);
}
