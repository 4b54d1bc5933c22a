// The raw-SQLite peer of Benchmarks/storage/run, in Swift: the same operations as localStorage.setItem/getItem
// straight through SQLite's C API, with the Storage plugin's schema, pragmas and durability (WAL,
// synchronous=NORMAL, one autocommit transaction per write, prepared statements reused).
// Usage: sqlite-peer <database file> <count>   → prints {"setPerSec":…,"getPerSec":…}
import CSQLite
import Foundation

func check(_ rc: Int32, _ db: OpaquePointer?, _ what: String) {
    guard rc != SQLITE_OK, rc != SQLITE_DONE, rc != SQLITE_ROW else { return }
    FileHandle.standardError.write(Data("\(what): \(String(cString: sqlite3_errmsg(db)))\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let count = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: sqlite-peer <db> <count>\n".utf8))
    exit(2)
}
var db: OpaquePointer?
check(
    sqlite3_open_v2(arguments[1], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil), db,
    "open")
sqlite3_busy_timeout(db, 10_000)
check(
    sqlite3_exec(
        db,
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
            + "CREATE TABLE IF NOT EXISTS items (grp TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,"
            + " PRIMARY KEY (grp, key)) WITHOUT ROWID;", nil, nil, nil), db, "schema")
var put: OpaquePointer?
var get: OpaquePointer?
check(
    sqlite3_prepare_v2(
        db,
        "INSERT INTO items(grp, key, value) VALUES ('', ?1, ?2) "
            + "ON CONFLICT(grp, key) DO UPDATE SET value = excluded.value", -1, &put, nil), db, "prepare put")
check(sqlite3_prepare_v2(db, "SELECT value FROM items WHERE grp = '' AND key = ?1", -1, &get, nil), db, "prepare get")

func bind(_ statement: OpaquePointer?, _ index: Int32, _ text: String) {
    var text = text
    text.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) {
            _ = jsb_sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count))
        }
    }
}

let clock = ContinuousClock()
let t0 = clock.now
for i in 0..<count {
    bind(put, 1, "key\(i)")
    bind(put, 2, "value\(i)")
    check(sqlite3_step(put), db, "put")
    sqlite3_reset(put)
}
let t1 = clock.now
var total = 0
for i in 0..<count {
    bind(get, 1, "key\(i)")
    if sqlite3_step(get) == SQLITE_ROW { total += Int(sqlite3_column_bytes(get, 0)) }
    sqlite3_reset(get)
}
let t2 = clock.now
guard total > 0 else {
    FileHandle.standardError.write(Data("nothing read\n".utf8))
    exit(1)
}
func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
print(#"{"setPerSec":\#(Int(Double(count) / seconds(t1 - t0))),"getPerSec":\#(Int(Double(count) / seconds(t2 - t1)))}"#)
sqlite3_finalize(put)
sqlite3_finalize(get)
sqlite3_close(db)
