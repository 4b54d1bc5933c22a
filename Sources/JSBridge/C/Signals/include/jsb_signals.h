// Process signals for the runtime's loop (JSBridge's Host/Signals.swift): a handler that only writes the
// signal's number to a self-pipe, and the calls the JS thread makes around it. The state lives in signals.c,
// so every caller in the process shares the one pipe and the one set of flags.
#ifndef JSB_SIGNALS_H
#define JSB_SIGNALS_H

#include <stdbool.h>

/// Installs the handlers for SIGINT, SIGTERM, SIGTSTP and SIGCONT (once per process); returns the pipe's
/// read end, or -1 when the pipe could not be made.
int jsb_signals_install(void);

/// Whether a signal arrived since the last call (then read the pipe to its end with `jsb_signals_take`).
bool jsb_signals_arrived(void);

/// The next signal received (its number), or 0 when none waits. Never blocks.
int jsb_signals_take(void);

/// Waits until a signal's number can be read (for the thread that wakes the JS thread's loop).
void jsb_signals_wait(void);

/// Records whether the script listens to `signo` (a listener replaces the default action, which the handler
/// itself takes for a second SIGINT/SIGTERM while the run ends).
void jsb_signals_set_listened(int signo, bool listened);

/// The JS thread took `signo`: a SIGINT/SIGTERM nobody listens to no longer kills the process 5 s after it
/// came (the time the JS thread has to take it before the handler's alarm kills; docs/running-scripts.md).
void jsb_signals_taken(int signo);

/// Dies of `signo` as if it had never been handled (the exit status says killed by that signal).
void jsb_signals_reraise(int signo);

/// Stops the process as SIGTSTP does by default; returns once it is continued (SIGCONT).
void jsb_signals_stop_self(void);

#endif
