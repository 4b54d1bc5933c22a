// The peer of Benchmarks/queue/run: the Queue plugin's PostgreSQL statements (PostgresJobStore.swift) straight
// through libpq, one connection, prepared statements, binary-free text parameters: N enqueues, then N
// claim-one + complete pairs. Prints one JSON line: enqueuePerSec, completePerSec (claim + complete per job).
//
//   libpq-peer <conninfo> <app> <N>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static long long millis(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static PGresult *run(PGconn *db, const char *name, int count, const char *const *values, ExecStatusType want) {
  PGresult *result = PQexecPrepared(db, name, count, values, NULL, NULL, 0);
  if (PQresultStatus(result) != want) {
    fprintf(stderr, "%s: %s", name, PQerrorMessage(db));
    exit(1);
  }
  return result;
}

static void prepare(PGconn *db, const char *name, const char *sql) {
  PGresult *result = PQprepare(db, name, sql, 0, NULL);
  if (PQresultStatus(result) != PGRES_COMMAND_OK) {
    fprintf(stderr, "prepare %s: %s", name, PQerrorMessage(db));
    exit(1);
  }
  PQclear(result);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: libpq-peer <conninfo> <app> <N>\n");
    return 2;
  }
  const char *app = argv[2];
  int n = atoi(argv[3]);
  PGconn *db = PQconnectdb(argv[1]);
  if (PQstatus(db) != CONNECTION_OK) {
    fprintf(stderr, "connect: %s", PQerrorMessage(db));
    return 1;
  }
  prepare(db, "enqueue",
          "INSERT INTO jsbridge_queue_jobs(app, queue, payload, idem_key, state, run_at, max_attempts, "
          "backoff_kind, backoff_ms, backoff_max_ms, created_at) "
          "VALUES ($1, $2, $3, NULL, 'ready', $4, 3, 'exponential', 1000, 3600000, $4) "
          "ON CONFLICT (app, queue, idem_key) WHERE idem_key IS NOT NULL DO NOTHING RETURNING id");
  prepare(db, "claim",
          "WITH expired AS (UPDATE jsbridge_queue_jobs SET state = 'dead', finished_at = $3, worker = NULL, "
          "last_error = coalesce(last_error, 'the lease expired') WHERE app = $1 AND queue = $2 AND state = 'leased' "
          "AND run_at <= $3 AND attempt >= max_attempts), picked AS (SELECT id FROM jsbridge_queue_jobs "
          "WHERE app = $1 AND queue = $2 AND state IN ('ready', 'leased') AND run_at <= $3 "
          "AND (state = 'ready' OR attempt < max_attempts) ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED) "
          "UPDATE jsbridge_queue_jobs AS j SET state = 'leased', worker = $4, run_at = $3::bigint + 30000, "
          "attempt = j.attempt + 1 FROM picked WHERE j.id = picked.id RETURNING j.id, j.payload, j.attempt");
  prepare(db, "complete",
          "UPDATE jsbridge_queue_jobs SET state = 'done', finished_at = $4, worker = NULL "
          "WHERE id = $1 AND state = 'leased' AND worker = $2 AND attempt = $3 RETURNING id");
  char stamp[32], payload[64];
  double t0 = now();
  for (int i = 0; i < n; i++) {
    snprintf(stamp, sizeof stamp, "%lld", millis());
    snprintf(payload, sizeof payload, "{\"i\":%d}", i);
    const char *values[] = {app, "bench", payload, stamp};
    PQclear(run(db, "enqueue", 4, values, PGRES_TUPLES_OK));
  }
  double t1 = now();
  int done = 0;
  for (;;) {
    snprintf(stamp, sizeof stamp, "%lld", millis());
    const char *claim[] = {app, "bench", stamp, "peer"};
    PGresult *jobs = run(db, "claim", 4, claim, PGRES_TUPLES_OK);
    if (PQntuples(jobs) == 0) {
      PQclear(jobs);
      break;
    }
    const char *complete[] = {PQgetvalue(jobs, 0, 0), "peer", PQgetvalue(jobs, 0, 2), stamp};
    PGresult *result = run(db, "complete", 4, complete, PGRES_TUPLES_OK);
    done += PQntuples(result);
    PQclear(result);
    PQclear(jobs);
  }
  double t2 = now();
  if (done != n) {
    fprintf(stderr, "completed %d of %d\n", done, n);
    return 1;
  }
  printf("{\"enqueuePerSec\":%.0f,\"completePerSec\":%.0f}\n", n / (t1 - t0), n / (t2 - t1));
  PQfinish(db);
  return 0;
}
