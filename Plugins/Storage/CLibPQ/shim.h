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

// The table is the Swift side's (PGConnection.swift): one for the program. Defined in this header, it would be
// copied into every object file that calls a wrapper, and a copy nothing in its own file fills is, to the
// optimizer, forever null (a release build turned the calls through it into traps).

/// Opens libpq.so.5 and fills `api` with every function the store uses; 0 on success, -1 when the library or
/// a function is missing. Not thread-safe: run it once, before any `jsb_PQ…` call.
static inline int jsb_libpq_load(jsb_libpq_api *api) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return -1;
#define JSB_PQ_RESOLVE(field, symbol) \
    if ((api->field = (__typeof__(api->field))dlsym(library, symbol)) == NULL) return -1;
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

static inline PGconn *jsb_PQconnectdbParams(const jsb_libpq_api *api, const char *const *k, const char *const *v, int expand) {
    return api->connectdbParams(k, v, expand);
}
static inline ConnStatusType jsb_PQstatus(const jsb_libpq_api *api, const PGconn *c) { return api->status(c); }
static inline char *jsb_PQerrorMessage(const jsb_libpq_api *api, const PGconn *c) { return api->errorMessage(c); }
static inline void jsb_PQfinish(const jsb_libpq_api *api, PGconn *c) { api->finish(c); }
static inline int jsb_PQsocket(const jsb_libpq_api *api, const PGconn *c) { return api->socket(c); }
static inline PGresult *jsb_PQexec(const jsb_libpq_api *api, PGconn *c, const char *q) { return api->exec(c, q); }
static inline PGresult *jsb_PQprepare(const jsb_libpq_api *api, PGconn *c, const char *n, const char *q, int count, const Oid *types) {
    return api->prepare(c, n, q, count, types);
}
static inline PGresult *jsb_PQexecPrepared(const jsb_libpq_api *api, PGconn *c, const char *n, int count, const char *const *values,
                                           const int *lengths, const int *formats, int resultFormat) {
    return api->execPrepared(c, n, count, values, lengths, formats, resultFormat);
}
static inline PGresult *jsb_PQexecParams(const jsb_libpq_api *api, PGconn *c, const char *q, int count, const Oid *types,
                                         const char *const *values, const int *lengths, const int *formats,
                                         int resultFormat) {
    return api->execParams(c, q, count, types, values, lengths, formats, resultFormat);
}
static inline void jsb_PQclear(const jsb_libpq_api *api, PGresult *r) { api->clear(r); }
static inline ExecStatusType jsb_PQresultStatus(const jsb_libpq_api *api, const PGresult *r) { return api->resultStatus(r); }
static inline int jsb_PQntuples(const jsb_libpq_api *api, const PGresult *r) { return api->ntuples(r); }
static inline int jsb_PQnfields(const jsb_libpq_api *api, const PGresult *r) { return api->nfields(r); }
static inline int jsb_PQgetisnull(const jsb_libpq_api *api, const PGresult *r, int row, int column) { return api->getisnull(r, row, column); }
static inline int jsb_PQgetlength(const jsb_libpq_api *api, const PGresult *r, int row, int column) { return api->getlength(r, row, column); }
static inline char *jsb_PQgetvalue(const jsb_libpq_api *api, const PGresult *r, int row, int column) { return api->getvalue(r, row, column); }
static inline char *jsb_PQresultErrorField(const jsb_libpq_api *api, const PGresult *r, int code) { return api->resultErrorField(r, code); }
static inline int jsb_PQconsumeInput(const jsb_libpq_api *api, PGconn *c) { return api->consumeInput(c); }
static inline PGnotify *jsb_PQnotifies(const jsb_libpq_api *api, PGconn *c) { return api->notifies(c); }
static inline void jsb_PQfreemem(const jsb_libpq_api *api, void *p) { api->freemem(p); }
#endif
