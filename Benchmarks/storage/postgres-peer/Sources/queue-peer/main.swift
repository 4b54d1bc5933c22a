import Foundation
import Logging
import PostgresNIO

// The peer of Benchmarks/queue/run: the Queue plugin's PostgreSQL statements (PostgresJobStore.swift), the
// same text with the same parameters, straight through postgres-nio on one connection, one statement at a
// time. N enqueues (waiting for the WAL flush), then the worker's cycle (not waiting for it, as the plugin's
// worker does not) as a worker of concurrency `batch` runs it when every handler finishes at once: mark the
// last batch done and claim the next `batch` jobs in one statement, until a claim finds nothing. Prints one
// JSON line: enqueuePerSec, completePerSec (claim + complete per job).
// Arguments: host port user password database app N batch (the schema must exist: jsbridge creates it).

let arguments = CommandLine.arguments
guard arguments.count == 9, let port = Int(arguments[2]), let count = Int(arguments[7]),
    let batch = Int64(arguments[8])
else {
    FileHandle.standardError.write(Data("usage: queue-peer host port user password database app N batch\n".utf8))
    exit(2)
}
let configuration = PostgresConnection.Configuration(
    host: arguments[1], port: port, username: arguments[3], password: arguments[4], database: arguments[5],
    tls: .disable)
let logger = Logger(label: "queue-peer")
let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
let app = arguments[6]
let queue = "bench"
let worker = "peer"
let leaseMs: Int64 = 30_000

let insertJob = """
    INSERT INTO jsbridge_queue_jobs(app, queue, payload, idem_key, state, run_at, max_attempts,
        backoff_kind, backoff_ms, backoff_max_ms, created_at)
    VALUES ($1, $2, $3, $4, 'ready', $5, $6, $7, $8, $9, $10)
    ON CONFLICT (app, queue, idem_key) WHERE idem_key IS NOT NULL DO NOTHING
    RETURNING id
    """
let completeAndClaim = """
    WITH finished AS (
        UPDATE jsbridge_queue_jobs AS j SET state = 'done', finished_at = $3, worker = NULL
        FROM unnest(string_to_array($7, ',')::bigint[], string_to_array($8, ',')::bigint[]) AS c(id, attempt)
        WHERE j.id = c.id AND j.state = 'leased' AND j.worker = $5 AND j.attempt = c.attempt
        RETURNING j.id
    ), expired AS (
        UPDATE jsbridge_queue_jobs SET state = 'dead', finished_at = $3, worker = NULL,
            last_error = coalesce(last_error, 'the lease expired (the worker stopped responding)')
        WHERE app = $1 AND queue = $2 AND state = 'leased' AND run_at <= $3 AND attempt >= max_attempts
            AND id <> ALL(string_to_array($7, ',')::bigint[])
    ), picked AS (
        SELECT id FROM jsbridge_queue_jobs
        WHERE app = $1 AND queue = $2 AND state IN ('ready', 'leased') AND run_at <= $3
            AND (state = 'ready' OR attempt < max_attempts)
            AND id <> ALL(string_to_array($7, ',')::bigint[])
        ORDER BY run_at, id LIMIT $4
        FOR UPDATE SKIP LOCKED
    ), claimed AS (
        UPDATE jsbridge_queue_jobs AS j SET state = 'leased', worker = $5, run_at = $3 + $6,
            attempt = j.attempt + 1
        FROM picked WHERE j.id = picked.id
        RETURNING j.id, j.payload, j.attempt, j.max_attempts
    )
    SELECT 1::int8, id, payload, attempt, max_attempts FROM claimed
    UNION ALL SELECT 0::int8, id, NULL, NULL, NULL FROM finished
    """

func millis() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let t0 = ContinuousClock.now
for index in 0..<count {
    var binds = PostgresBindings()
    let now = millis()
    binds.append(app)
    binds.append(queue)
    binds.append("{\"i\":\(index)}")
    binds.appendNull()
    binds.append(now)
    binds.append(Int64(3))
    binds.append("exponential")
    binds.append(Int64(1000))
    binds.append(Int64(3_600_000))
    binds.append(now)
    let rows: PostgresRowSequence = try await connection.query(
        PostgresQuery(unsafeSQL: insertJob, binds: binds), logger: logger)
    for try await _ in rows {}
}
// As the plugin's worker statements: their commits do not wait for the WAL flush (PostgresJobStore's
// CommitMode.lease); the enqueues above did.
_ = try await connection.query("SET synchronous_commit = off", logger: logger)
let t1 = ContinuousClock.now
var pending: [(id: Int64, attempt: Int64)] = []
var done = 0
repeat {
    var binds = PostgresBindings()
    binds.append(app)
    binds.append(queue)
    binds.append(millis())
    binds.append(batch)
    binds.append(worker)
    binds.append(leaseMs)
    binds.append(pending.map { String($0.id) }.joined(separator: ","))
    binds.append(pending.map { String($0.attempt) }.joined(separator: ","))
    let rows: PostgresRowSequence = try await connection.query(
        PostgresQuery(unsafeSQL: completeAndClaim, binds: binds), logger: logger)
    pending = []
    for try await (kind, id, _, attempt, _) in rows.decode((Int64, Int64, String?, Int64?, Int64?).self) {
        if kind == 0 { done += 1 } else { pending.append((id, attempt ?? 0)) }
    }
} while !pending.isEmpty
let t2 = ContinuousClock.now
guard done == count else {
    FileHandle.standardError.write(Data("completed \(done) of \(count)\n".utf8))
    exit(1)
}
print(
    "{\"enqueuePerSec\":\(Int(Double(count) / seconds(t1 - t0))),\"completePerSec\":\(Int(Double(count) / seconds(t2 - t1)))}"
)
