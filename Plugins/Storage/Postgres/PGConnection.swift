import CLibPQ
import Foundation

/// A parameter of a query, sent in binary format.
package enum PGParameter {
    case text(String)
    case bytes([UInt8])
    case int8(Int64)
    case bool(Bool)
    case byteaArray([[UInt8]])
    case null(Oid)

    package var oid: Oid {
        switch self {
        case .text: 25
        case .bytes: 17
        case .int8: 20
        case .bool: 16
        case .byteaArray: 1001
        case .null(let oid): oid
        }
    }

    /// The binary wire form (nil for SQL NULL).
    package var wire: [UInt8]? {
        switch self {
        case .text(let string): return Array(string.utf8)
        case .bytes(let bytes): return bytes
        case .int8(let value): return withUnsafeBytes(of: value.bigEndian) { Array($0) }
        case .bool(let value): return [value ? 1 : 0]
        case .byteaArray(let items):
            // PostgreSQL's binary array layout: dimensions, null flag, element type, then length-prefixed items.
            var out: [UInt8] = []
            func int32(_ value: Int) { withUnsafeBytes(of: Int32(value).bigEndian) { out.append(contentsOf: $0) } }
            int32(items.isEmpty ? 0 : 1)
            int32(0)
            int32(17)
            if !items.isEmpty {
                int32(items.count)
                int32(1)
            }
            for item in items {
                int32(item.count)
                out.append(contentsOf: item)
            }
            return out
        case .null: return nil
        }
    }
}

/// Why a libpq call failed.
package struct PGFailure: Error {
    /// The SQLSTATE when the server answered with an error, else nil.
    package var sqlState: String?
    package var message: String
    package var detail: String?
    /// The connection broke: the server is gone, restarting or unreachable.
    package var connectionLost: Bool

    package init(sqlState: String?, message: String, detail: String?, connectionLost: Bool) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.connectionLost = connectionLost
    }
}

/// The rows of a query in binary format.
package struct PGRows {
    fileprivate var rows: [[[UInt8]?]]

    package var count: Int { rows.count }

    package func bytes(_ row: Int, _ column: Int) -> [UInt8]? { rows[row][column] }

    package func string(_ row: Int, _ column: Int) -> String? {
        rows[row][column].map { String(decoding: $0, as: UTF8.self) }
    }

    package func int64(_ row: Int, _ column: Int) -> Int64? {
        guard let bytes = rows[row][column], bytes.count == 8 else { return nil }
        return bytes.reduce(Int64(0)) { ($0 << 8) | Int64($1) }
    }
}

/// libpq's functions (it is opened, not linked: Plugins/Storage/CLibPQ/shim.h), in one table for the program.
/// A table in the C header would be copied into each object file that calls a wrapper, and the copies the
/// loader does not fill are, to the optimizer, forever null.
private nonisolated(unsafe) let libpq: UnsafeMutablePointer<jsb_libpq_api> = {
    let table = UnsafeMutablePointer<jsb_libpq_api>.allocate(capacity: 1)
    table.initialize(to: jsb_libpq_api())
    return table
}()

/// Whether libpq could be opened; tried once, by the first connection, before any other libpq call.
private let libpqLoaded = jsb_libpq_load(libpq) == 0

/// One libpq connection, used by one thread at a time (its owner holds a lock).
package final class PGConnection {
    package let handle: OpaquePointer
    private var preparedNames: Set<String> = []

    /// Connects with libpq's keyword/value parameters; throws with libpq's message on failure.
    package init(parameters: [(String, String)]) throws(PGFailure) {
        guard libpqLoaded else {
            throw PGFailure(
                sqlState: nil, message: "libpq.so.5 could not be loaded: install Debian's libpq5 package", detail: nil,
                connectionLost: false)
        }
        let keywords = parameters.map { strdup($0.0) } + [nil]
        let values = parameters.map { strdup($0.1) } + [nil]
        defer {
            for pointer in keywords { free(pointer) }
            for pointer in values { free(pointer) }
        }
        let connection = keywords.map { UnsafePointer($0) }.withUnsafeBufferPointer { keywordPointers in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointers in
                jsb_PQconnectdbParams(libpq, keywordPointers.baseAddress, valuePointers.baseAddress, 1)
            }
        }
        guard let connection else {
            throw PGFailure(sqlState: nil, message: "out of memory", detail: nil, connectionLost: true)
        }
        guard jsb_PQstatus(libpq, connection) == CONNECTION_OK else {
            let message = Self.trimmed(String(cString: jsb_PQerrorMessage(libpq, connection)))
            jsb_PQfinish(libpq, connection)
            throw PGFailure(sqlState: nil, message: message, detail: nil, connectionLost: true)
        }
        handle = connection
    }

    deinit { jsb_PQfinish(libpq, handle) }

    package var isBroken: Bool { jsb_PQstatus(libpq, handle) != CONNECTION_OK }

    /// The socket, for waiting on notifications.
    package var socket: Int32 { jsb_PQsocket(libpq, handle) }

    package static func trimmed(_ message: String) -> String {
        message.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: " ")
    }

    /// Runs `sql` without parameters (several statements allowed).
    package func execute(_ sql: String) throws(PGFailure) {
        let result = jsb_PQexec(libpq, handle, sql)
        _ = try consume(result)
    }

    /// Runs `sql` with binary parameters and results; `name` prepares it once per connection.
    @discardableResult
    package func query(_ sql: String, name: String? = nil, _ parameters: [PGParameter] = []) throws(PGFailure) -> PGRows
    {
        let types = parameters.map(\.oid)
        if let name, !preparedNames.contains(name) {
            let result = jsb_PQprepare(libpq, handle, name, sql, Int32(parameters.count), types)
            _ = try consume(result)
            preparedNames.insert(name)
        }
        let wires = parameters.map(\.wire)
        let buffers: [UnsafeMutablePointer<CChar>?] = wires.map { wire in
            guard let wire else { return nil }
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(wire.count, 1))
            wire.withUnsafeBytes { raw in
                if let base = raw.baseAddress {
                    UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: wire.count)
                }
            }
            return buffer
        }
        defer { for buffer in buffers { buffer?.deallocate() } }
        let lengths = wires.map { Int32($0?.count ?? 0) }
        let formats = [Int32](repeating: 1, count: parameters.count)
        let values = buffers.map { UnsafePointer($0) }
        let result: OpaquePointer? =
            if let name {
                jsb_PQexecPrepared(libpq, handle, name, Int32(parameters.count), values, lengths, formats, 1)
            } else {
                jsb_PQexecParams(libpq, handle, sql, Int32(parameters.count), types, values, lengths, formats, 1)
            }
        return try consume(result)
    }

    /// Reads a result: its rows, or the failure it reports.
    private func consume(_ result: OpaquePointer?) throws(PGFailure) -> PGRows {
        guard let result else { throw failure(nil) }
        defer { jsb_PQclear(libpq, result) }
        switch jsb_PQresultStatus(libpq, result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return PGRows(rows: [])
        case PGRES_TUPLES_OK:
            let rowCount = jsb_PQntuples(libpq, result)
            let columnCount = jsb_PQnfields(libpq, result)
            var rows: [[[UInt8]?]] = []
            rows.reserveCapacity(Int(rowCount))
            for row in 0..<rowCount {
                var values: [[UInt8]?] = []
                values.reserveCapacity(Int(columnCount))
                for column in 0..<columnCount {
                    if jsb_PQgetisnull(libpq, result, row, column) != 0 {
                        values.append(nil)
                    } else {
                        let length = Int(jsb_PQgetlength(libpq, result, row, column))
                        let pointer = UnsafeRawPointer(jsb_PQgetvalue(libpq, result, row, column)!)
                        values.append(Array(UnsafeRawBufferPointer(start: pointer, count: length)))
                    }
                }
                rows.append(values)
            }
            return PGRows(rows: rows)
        default:
            throw failure(result)
        }
    }

    private func failure(_ result: OpaquePointer?) -> PGFailure {
        func field(_ code: Character) -> String? {
            guard let result, let pointer = jsb_PQresultErrorField(libpq, result, Int32(code.asciiValue!)) else {
                return nil
            }
            return String(cString: pointer)
        }
        let sqlState = field("C")
        let message = field("M") ?? Self.trimmed(String(cString: jsb_PQerrorMessage(libpq, handle)))
        // Class 08 (connection exception) and 57P (operator intervention: shutdown, crash) mean the server
        // went away; a broken connection says the same without an SQLSTATE.
        let lost =
            isBroken || sqlState.map { $0.hasPrefix("08") || $0.hasPrefix("57P") } ?? (result == nil)
        return PGFailure(sqlState: sqlState, message: message, detail: field("D"), connectionLost: lost)
    }

    /// Reads what the server sent and returns the pending notifications' payloads.
    package func notifications() throws(PGFailure) -> [String] {
        guard jsb_PQconsumeInput(libpq, handle) == 1 else { throw failure(nil) }
        var payloads: [String] = []
        while let notification = jsb_PQnotifies(libpq, handle) {
            payloads.append(String(cString: notification.pointee.extra))
            jsb_PQfreemem(libpq, notification)
        }
        return payloads
    }
}
