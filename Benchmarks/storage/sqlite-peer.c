// The raw-SQLite peer of Benchmarks/storage/run: the same operations as localStorage.setItem/getItem,
// straight through SQLite's C API, with the Storage plugin's schema, pragmas and durability
// (WAL, synchronous=NORMAL, one autocommit transaction per write, prepared statements reused).
// Usage: sqlite-peer <database file> <count>   → prints {"setPerSec":…,"getPerSec":…}
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void check(int rc, sqlite3 *db, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: sqlite-peer <db> <count>\n"); return 2; }
    int count = atoi(argv[2]);
    sqlite3 *db;
    check(sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL), db, "open");
    sqlite3_busy_timeout(db, 10000);
    check(sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
        "CREATE TABLE IF NOT EXISTS items (grp TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,"
        " PRIMARY KEY (grp, key)) WITHOUT ROWID;", NULL, NULL, NULL), db, "schema");
    sqlite3_stmt *put, *get;
    check(sqlite3_prepare_v2(db, "INSERT INTO items(grp, key, value) VALUES ('', ?1, ?2) "
        "ON CONFLICT(grp, key) DO UPDATE SET value = excluded.value", -1, &put, NULL), db, "prepare put");
    check(sqlite3_prepare_v2(db, "SELECT value FROM items WHERE grp = '' AND key = ?1", -1, &get, NULL), db, "prepare get");
    char key[64], value[64];
    double t0 = now();
    for (int i = 0; i < count; i++) {
        int kl = snprintf(key, sizeof key, "key%d", i), vl = snprintf(value, sizeof value, "value%d", i);
        sqlite3_bind_text(put, 1, key, kl, SQLITE_TRANSIENT);
        sqlite3_bind_text(put, 2, value, vl, SQLITE_TRANSIENT);
        check(sqlite3_step(put), db, "put");
        sqlite3_reset(put);
    }
    double t1 = now();
    long total = 0;
    for (int i = 0; i < count; i++) {
        int kl = snprintf(key, sizeof key, "key%d", i);
        sqlite3_bind_text(get, 1, key, kl, SQLITE_TRANSIENT);
        if (sqlite3_step(get) == SQLITE_ROW) total += sqlite3_column_bytes(get, 0);
        sqlite3_reset(get);
    }
    double t2 = now();
    if (total == 0) { fprintf(stderr, "nothing read\n"); return 1; }
    printf("{\"setPerSec\":%.0f,\"getPerSec\":%.0f}\n", count / (t1 - t0), count / (t2 - t1));
    sqlite3_finalize(put);
    sqlite3_finalize(get);
    sqlite3_close(db);
    return 0;
}
