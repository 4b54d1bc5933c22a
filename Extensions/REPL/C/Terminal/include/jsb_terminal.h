// The REPL's terminal (the repl extension's terminal natives) and pseudo-terminals for its tests. The settings
// saved before raw mode live in terminal.c: one terminal per process.
#ifndef JSB_TERMINAL_H
#define JSB_TERMINAL_H

#include <stddef.h>

/// Puts terminal `fd` in raw mode for line editing (no echo, no line buffering, no signal keys, no CR/NL
/// translation on input; output processing stays on so "\n" still starts a new line); 0 or -1 (errno). The
/// first call saves the terminal's settings for `jsb_tty_restore`.
int jsb_tty_raw(int fd);

/// The settings the terminal had before `jsb_tty_raw`, except that Ctrl-D is an ordinary key: while the REPL
/// evaluates, Ctrl-C is SIGINT as usual, but a Ctrl-D typed then must reach the line editor afterwards as a
/// key, not be turned by the line discipline into an end of input that raw mode later delivers as a NUL.
void jsb_tty_evaluating(void);

/// Gives the terminal back the settings it had before `jsb_tty_raw` (a no-op if it never ran).
void jsb_tty_restore(void);

/// Restores the terminal when the process exits, however it exits normally (`exit`, `process.exit()`).
void jsb_tty_restore_at_exit(void);

/// The terminal's width in columns, or 0 when unknown.
int jsb_tty_columns(int fd);

/// Opens a pseudo-terminal pair of `rows` x `cols`: the controller's fd in `*controller`, the device's path
/// in `name` (`length` bytes); the device side is closed again (a child opens it by name); 0 or -1.
int jsb_pty_open(int *controller, char *name, size_t length, int rows, int cols);

#endif
