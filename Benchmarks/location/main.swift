// Reverse-geocoding nearest-city query: the k-d tree of the GeoNames index vs brute force over every city.
// Built by Benchmarks/location/run with `swiftc -O` together with Plugins/Location/Core/{GeoMath,GeonamesIndex}.swift.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: geo-bench <index.jsbgeo> [queries]")
    exit(2)
}
let queries = arguments.count > 2 ? Int(arguments[2]) ?? 2000 : 2000
let index: GeonamesIndex
do {
    index = try GeonamesIndex(path: arguments[1])
} catch {
    print("geo-bench: \(error)")
    exit(1)
}

// Deterministic query points over inhabited latitudes (a simple LCG: the same points every run).
var state: UInt64 = 0x9E37_79B9_7F4A_7C15
func next() -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(state >> 11) / Double(1 << 53)
}
let points = (0..<queries).map { _ in Coordinate(latitude: next() * 130 - 60, longitude: next() * 360 - 180) }

func time(_ rounds: Int, _ body: () -> Int) -> (seconds: Double, checksum: Int) {
    var best = Double.infinity
    var checksum = 0
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        checksum = body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return (best, checksum)
}

let bruteCount = max(50, queries / 20)
let tree = time(5) { points.reduce(0) { $0 &+ (index.nearest(to: $1)?.index ?? -1) } }
let brute = time(3) { points.prefix(bruteCount).reduce(0) { $0 &+ (index.nearestBruteForce(to: $1)?.index ?? -1) } }
// Same answers on the brute-force subset.
var mismatches = 0
for p in points.prefix(bruteCount) where index.nearest(to: p)?.index != index.nearestBruteForce(to: p)?.index {
    if let a = index.nearest(to: p), let b = index.nearestBruteForce(to: p), abs(a.distanceKm - b.distanceKm) < 1e-6 {
        continue
    }
    mismatches += 1
}
let treeUs = tree.seconds / Double(queries) * 1e6
let bruteUs = brute.seconds / Double(bruteCount) * 1e6
let ratio = bruteUs / treeUs
print("cities: \(index.count), queries: \(queries) (brute force: \(bruteCount))")
print(String(format: "k-d tree     %10.2f µs/query", treeUs))
print(String(format: "brute force  %10.2f µs/query", bruteUs))
print(String(format: "speed-up     %10.1f×  (target ≥ 50×: %@)", ratio, ratio >= 50 ? "PASS" : "MISS"))
print("mismatches: \(mismatches)")
print(
    String(
        format: #"{"cities":%d,"treeUsPerQuery":%.3f,"bruteUsPerQuery":%.3f,"ratio":%.1f,"mismatches":%d}"#,
        index.count, treeUs, bruteUs, ratio, mismatches))
exit(mismatches == 0 ? 0 : 1)
