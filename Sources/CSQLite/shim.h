// All SQLite C includes and C helpers used by jsbridge live here.
#ifndef JSBRIDGE_SQLITE_SHIM_H
#define JSBRIDGE_SQLITE_SHIM_H
#include <sqlite3.h>

/// Binds `length` bytes of UTF-8 text, copied by SQLite (SQLITE_TRANSIENT is a macro Swift cannot import).
static inline int jsb_sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text ? text : "", length, SQLITE_TRANSIENT);
}
#endif
