// All libpq C includes used by jsbridge live here.
//
// libpq is not linked: it is opened (dlopen) the first time a PostgreSQL store connects. Linked, it and the
// ~30 libraries it needs (TLS, Kerberos, LDAP) would be loaded into every jsbridge process at start-up, for
// the few scripts that use --storage-url (measured: a few milliseconds and ~6 MiB of `jsbridge -e 0`'s RSS).
// `jsb_PQ…` wrappers call through a table filled by `jsb_libpq_load`, which the Swift side runs once before
// any other call.
#ifndef JSBRIDGE_LIBPQ_SHIM_H
#define JSBRIDGE_LIBPQ_SHIM_H
#include <dlfcn.h>
#include <postgresql/libpq-fe.h>  // Debian's libpq-dev; not linked (above)

typedef struct {
    PGconn *(*connectdbParams)(const char *const *, const char *const *, int);
    ConnStatusType (*status)(const PGconn *);
    char *(*errorMessage)(const PGconn *);
    void (*finish)(PGconn *);
    int (*socket)(const PGconn *);
    PGresult *(*exec)(PGconn *, const char *);
    PGresult *(*prepare)(PGconn *, const char *, const char *, int, const Oid *);
    PGresult *(*execPrepared)(PGconn *, const char *, int, const char *const *, const int *, const int *, int);
    PGresult *(*execParams)(PGconn *, const char *, int, const Oid *, const char *const *, const int *,
                            const int *, int);
    void (*clear)(PGresult *);
    ExecStatusType (*resultStatus)(const PGresult *);
    int (*ntuples)(const PGresult *);
    int (*nfields)(const PGresult *);
    int (*getisnull)(const PGresult *, int, int);
    int (*getlength)(const PGresult *, int, int);
    char *(*getvalue)(const PGresult *, int, int);
    char *(*resultErrorField)(const PGresult *, int);
    int (*consumeInput)(PGconn *);
    PGnotify *(*notifies)(PGconn *);
    void (*freemem)(void *);
} jsb_libpq_api;

/// The resolved functions (a function's static: Swift imports functions from a header, not variables).
static inline jsb_libpq_api *jsb_libpq(void) {
    static jsb_libpq_api table;
    return &table;
}

/// Opens libpq.so.5 and resolves every function the store uses; 0 on success, -1 when the library or a
/// function is missing. Not thread-safe: run it once, before any `jsb_PQ…` call.
static inline int jsb_libpq_load(void) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return -1;
#define JSB_PQ_RESOLVE(field, symbol) \
    if ((*(void **)&jsb_libpq()->field = dlsym(library, symbol)) == NULL) return -1;
    JSB_PQ_RESOLVE(connectdbParams, "PQconnectdbParams")
    JSB_PQ_RESOLVE(status, "PQstatus")
    JSB_PQ_RESOLVE(errorMessage, "PQerrorMessage")
    JSB_PQ_RESOLVE(finish, "PQfinish")
    JSB_PQ_RESOLVE(socket, "PQsocket")
    JSB_PQ_RESOLVE(exec, "PQexec")
    JSB_PQ_RESOLVE(prepare, "PQprepare")
    JSB_PQ_RESOLVE(execPrepared, "PQexecPrepared")
    JSB_PQ_RESOLVE(execParams, "PQexecParams")
    JSB_PQ_RESOLVE(clear, "PQclear")
    JSB_PQ_RESOLVE(resultStatus, "PQresultStatus")
    JSB_PQ_RESOLVE(ntuples, "PQntuples")
    JSB_PQ_RESOLVE(nfields, "PQnfields")
    JSB_PQ_RESOLVE(getisnull, "PQgetisnull")
    JSB_PQ_RESOLVE(getlength, "PQgetlength")
    JSB_PQ_RESOLVE(getvalue, "PQgetvalue")
    JSB_PQ_RESOLVE(resultErrorField, "PQresultErrorField")
    JSB_PQ_RESOLVE(consumeInput, "PQconsumeInput")
    JSB_PQ_RESOLVE(notifies, "PQnotifies")
    JSB_PQ_RESOLVE(freemem, "PQfreemem")
#undef JSB_PQ_RESOLVE
    return 0;
}

static inline PGconn *jsb_PQconnectdbParams(const char *const *k, const char *const *v, int expand) {
    return jsb_libpq()->connectdbParams(k, v, expand);
}
static inline ConnStatusType jsb_PQstatus(const PGconn *c) { return jsb_libpq()->status(c); }
static inline char *jsb_PQerrorMessage(const PGconn *c) { return jsb_libpq()->errorMessage(c); }
static inline void jsb_PQfinish(PGconn *c) { jsb_libpq()->finish(c); }
static inline int jsb_PQsocket(const PGconn *c) { return jsb_libpq()->socket(c); }
static inline PGresult *jsb_PQexec(PGconn *c, const char *q) { return jsb_libpq()->exec(c, q); }
static inline PGresult *jsb_PQprepare(PGconn *c, const char *n, const char *q, int count, const Oid *types) {
    return jsb_libpq()->prepare(c, n, q, count, types);
}
static inline PGresult *jsb_PQexecPrepared(PGconn *c, const char *n, int count, const char *const *values,
                                           const int *lengths, const int *formats, int resultFormat) {
    return jsb_libpq()->execPrepared(c, n, count, values, lengths, formats, resultFormat);
}
static inline PGresult *jsb_PQexecParams(PGconn *c, const char *q, int count, const Oid *types,
                                         const char *const *values, const int *lengths, const int *formats,
                                         int resultFormat) {
    return jsb_libpq()->execParams(c, q, count, types, values, lengths, formats, resultFormat);
}
static inline void jsb_PQclear(PGresult *r) { jsb_libpq()->clear(r); }
static inline ExecStatusType jsb_PQresultStatus(const PGresult *r) { return jsb_libpq()->resultStatus(r); }
static inline int jsb_PQntuples(const PGresult *r) { return jsb_libpq()->ntuples(r); }
static inline int jsb_PQnfields(const PGresult *r) { return jsb_libpq()->nfields(r); }
static inline int jsb_PQgetisnull(const PGresult *r, int row, int column) { return jsb_libpq()->getisnull(r, row, column); }
static inline int jsb_PQgetlength(const PGresult *r, int row, int column) { return jsb_libpq()->getlength(r, row, column); }
static inline char *jsb_PQgetvalue(const PGresult *r, int row, int column) { return jsb_libpq()->getvalue(r, row, column); }
static inline char *jsb_PQresultErrorField(const PGresult *r, int code) { return jsb_libpq()->resultErrorField(r, code); }
static inline int jsb_PQconsumeInput(PGconn *c) { return jsb_libpq()->consumeInput(c); }
static inline PGnotify *jsb_PQnotifies(PGconn *c) { return jsb_libpq()->notifies(c); }
static inline void jsb_PQfreemem(void *p) { jsb_libpq()->freemem(p); }
#endif
