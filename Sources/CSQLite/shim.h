// All SQLite C includes and C helpers used by jsbridge live here.
#ifndef JSBRIDGE_SQLITE_SHIM_H
#define JSBRIDGE_SQLITE_SHIM_H
#include <sqlite3.h>
#endif
