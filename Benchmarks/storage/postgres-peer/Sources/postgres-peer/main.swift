import Foundation
import Logging
import PostgresNIO

// The peer of jsbridge's PostgreSQL rows: the same statements on the same schema (jsbridge_storage_apply for
// a write, the items SELECT for a read), straight through postgres-nio on one connection. N sequential
// writes then N sequential reads, then N writes and N reads with 1000 in flight. Prints one JSON line of
// ops/s. Arguments: host port user password database N (the schema must exist: jsbridge creates it).

let arguments = CommandLine.arguments
guard arguments.count == 7, let port = Int(arguments[2]), let count = Int(arguments[6]) else {
    FileHandle.standardError.write(Data("usage: postgres-peer host port user password database N\n".utf8))
    exit(2)
}
let configuration = PostgresConnection.Configuration(
    host: arguments[1], port: port, username: arguments[3], password: arguments[4], database: arguments[5],
    tls: .disable)
let logger = Logger(label: "postgres-peer")
let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
let app = "peer-\(UUID().uuidString)"
try await connection.query(
    "INSERT INTO jsbridge_storage_apps(app) VALUES (\(app)) ON CONFLICT DO NOTHING", logger: logger)
let quota: Int64 = 1 << 40
let writer = "peer"

@Sendable func write(_ index: Int) async throws {
    let key = "key\(index)"
    let value = "value\(index)"
    let rows = try await connection.query(
        """
        SELECT jsbridge_storage_apply(\(app), \(quota), \(writer), \(Int64(index)), false, 's',
          ARRAY[convert_to('', 'UTF8')], ARRAY[convert_to(\(key), 'UTF8')], ARRAY[convert_to(\(value), 'UTF8')])
        """, logger: logger)
    for try await _ in rows {}
}

@Sendable func read(_ index: Int) async throws -> Int {
    let key = "key\(index)"
    let rows = try await connection.query(
        """
        SELECT value FROM jsbridge_storage_items
        WHERE app = \(app) AND grp = convert_to('', 'UTF8') AND key = convert_to(\(key), 'UTF8')
        """, logger: logger)
    var length = 0
    for try await row in rows.decode(ByteBuffer.self) { length += row.readableBytes }
    return length
}

func rate(_ body: () async throws -> Void) async throws -> Double {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    return Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

func inFlight(_ operation: @escaping @Sendable (Int) async throws -> Void) async throws -> Double {
    try await rate {
        for base in stride(from: 0, to: count, by: 1000) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in base..<min(count, base + 1000) { group.addTask { try await operation(index) } }
                try await group.waitForAll()
            }
        }
    }
}

let setRate = try await rate { for index in 0..<count { try await write(index) } }
var total = 0
let getRate = try await rate { for index in 0..<count { total += try await read(index) } }
precondition(total > 0, "nothing read")
let promiseSetRate = try await inFlight { try await write($0) }
let promiseGetRate = try await inFlight { _ = try await read($0) }
print(
    "{\"setPerSec\":\(Int(setRate)),\"getPerSec\":\(Int(getRate)),\"promiseSetPerSec\":\(Int(promiseSetRate)),\"promiseGetPerSec\":\(Int(promiseGetRate))}"
)
