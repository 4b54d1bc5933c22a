import Foundation

/// The on-disk form of an ``HTTPCacheEntry``:
///
/// ```
/// "JSBC" version(u8) metaLength(u32) meta body-length(u64) body checksum(u64: FNV-1a of all bytes before it)
/// ```
/// Integers are little-endian; strings are a u32 length plus UTF-8. `meta` holds everything but the body, so
/// a sweep can read an entry's key, URL and dates without its body. Any inconsistency (short file, wrong
/// magic, version or checksum, a length past the end) makes ``decode(_:)`` return nil.
package enum HTTPCacheEntryCoding {
    static let magic: [UInt8] = Array("JSBC".utf8)
    static let version: UInt8 = 1
    /// Bytes before `meta`.
    static let prefixLength = 9

    /// The metadata of an entry as read by a sweep (no body).
    struct Meta: Sendable {
        var key: String
        var url: String
        var storedAt: Date
    }

    package static func encode(_ entry: HTTPCacheEntry) -> [UInt8] {
        var meta = ByteWriter()
        meta.string(entry.key)
        meta.string(entry.url)
        meta.date(entry.storedAt)
        meta.string(entry.method)
        meta.u32(UInt32(clamping: entry.status))
        meta.string(entry.statusText)
        meta.string(entry.responseURL)
        meta.u8(entry.redirected ? 1 : 0)
        meta.u32(UInt32(entry.headers.count))
        for field in entry.headers {
            meta.string(field.name)
            meta.string(field.value)
        }
        let vary = entry.varyValues.sorted { $0.key < $1.key }
        meta.u32(UInt32(vary.count))
        for (name, value) in vary {
            meta.string(name)
            if let value {
                meta.u8(1)
                meta.string(value)
            } else {
                meta.u8(0)
            }
        }
        meta.date(entry.requestTime)
        meta.date(entry.responseTime)

        var out = ByteWriter()
        out.bytes.reserveCapacity(meta.bytes.count + entry.body.count + 32)
        out.bytes += magic
        out.u8(version)
        out.u32(UInt32(meta.bytes.count))
        out.bytes += meta.bytes
        out.u64(UInt64(entry.body.count))
        out.bytes += entry.body
        out.u64(fnv1a(out.bytes[...]))
        return out.bytes
    }

    package static func decode(_ bytes: [UInt8]) -> HTTPCacheEntry? {
        guard bytes.count >= prefixLength + 16, Array(bytes[0..<4]) == magic, bytes[4] == version else { return nil }
        var checksumReader = ByteReader(bytes[(bytes.count - 8)...])
        guard let checksum = checksumReader.u64(), checksum == fnv1a(bytes[..<(bytes.count - 8)]) else { return nil }
        var reader = ByteReader(bytes[5..<(bytes.count - 8)])
        guard let metaLength = reader.u32(), let metaBytes = reader.take(Int(metaLength)) else { return nil }
        var meta = ByteReader(metaBytes)
        guard let key = meta.string(), let url = meta.string(), let storedAt = meta.date(),
            let method = meta.string(), let status = meta.u32(), let statusText = meta.string(),
            let responseURL = meta.string(), let redirected = meta.u8(), let headerCount = meta.u32()
        else { return nil }
        var headers: [HTTPField] = []
        for _ in 0..<headerCount {
            guard let name = meta.string(), let value = meta.string() else { return nil }
            headers.append(HTTPField(name, value))
        }
        guard let varyCount = meta.u32() else { return nil }
        var vary: [String: String?] = [:]
        for _ in 0..<varyCount {
            guard let name = meta.string(), let present = meta.u8() else { return nil }
            if present == 1 {
                guard let value = meta.string() else { return nil }
                vary[name] = .some(value)
            } else {
                vary[name] = .some(nil)
            }
        }
        guard let requestTime = meta.date(), let responseTime = meta.date(), meta.isAtEnd,
            let bodyLength = reader.u64(), bodyLength <= UInt64(Int.max), let body = reader.take(Int(bodyLength)),
            reader.isAtEnd
        else { return nil }
        return HTTPCacheEntry(
            key: key, url: url, method: method, status: Int(status), statusText: statusText, headers: headers,
            responseURL: responseURL, redirected: redirected == 1, body: Array(body), varyValues: vary,
            requestTime: requestTime, responseTime: responseTime, storedAt: storedAt)
    }

    /// Reads the key, URL and storage date from the start of an entry file (`prefix` holds at least the
    /// first ``prefixLength`` bytes plus the announced meta); nil when they do not parse. Does not check the
    /// checksum.
    static func decodeMeta(_ prefix: [UInt8]) -> Meta? {
        guard prefix.count >= prefixLength, Array(prefix[0..<4]) == magic, prefix[4] == version else { return nil }
        var reader = ByteReader(prefix[5...])
        guard let metaLength = reader.u32(), let metaBytes = reader.take(Int(metaLength)) else { return nil }
        var meta = ByteReader(metaBytes)
        guard let key = meta.string(), let url = meta.string(), let storedAt = meta.date() else { return nil }
        return Meta(key: key, url: url, storedAt: storedAt)
    }

    /// The length of the meta section announced in `prefix` (its first ``prefixLength`` bytes).
    static func metaLength(_ prefix: [UInt8]) -> Int? {
        guard prefix.count >= prefixLength, Array(prefix[0..<4]) == magic, prefix[4] == version else { return nil }
        var reader = ByteReader(prefix[5...])
        return reader.u32().map(Int.init)
    }

    /// 64-bit FNV-1a.
    static func fnv1a<C: Collection>(_ bytes: C, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64
    where C.Element == UInt8 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }
}

struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func u64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        u32(UInt32(utf8.count))
        bytes += utf8
    }

    mutating func date(_ value: Date) { u64(value.timeIntervalSince1970.bitPattern) }
}

struct ByteReader {
    private var rest: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { rest = bytes }

    var isAtEnd: Bool { rest.isEmpty }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, rest.count >= count else { return nil }
        let taken = rest.prefix(count)
        rest = rest.dropFirst(count)
        return taken
    }

    mutating func u8() -> UInt8? { take(1)?.first }

    mutating func u32() -> UInt32? {
        guard let raw = take(4) else { return nil }
        return raw.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func u64() -> UInt64? {
        guard let raw = take(8) else { return nil }
        return raw.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func string() -> String? {
        guard let length = u32(), let raw = take(Int(length)) else { return nil }
        return String(validating: raw, as: UTF8.self)
    }

    mutating func date() -> Date? {
        guard let bits = u64() else { return nil }
        let seconds = Double(bitPattern: bits)
        return seconds.isFinite ? Date(timeIntervalSince1970: seconds) : nil
    }
}
