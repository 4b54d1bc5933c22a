// swift-tools-version: 6.0
import PackageDescription

/// The libFuzzer executables: one per target of the main package's `FuzzTargets` (see docs/fuzzing.md).
/// Built only by scripts/fuzz.sh, with `-sanitize=fuzzer,address`; the main build and CI never build it.
let targets = ["json", "model", "nmea", "gpsd", "multipart", "cache-entry", "headers", "filename", "path", "cli"]

let package = Package(
    name: "JSBridgeFuzz",
    dependencies: [.package(name: "jsbridge", path: "..")],
    targets: targets.map { name in
        .executableTarget(
            name: "fuzz-\(name)", dependencies: [.product(name: "FuzzTargets", package: "jsbridge")],
            path: "Sources/fuzz-\(name)")
    },
    swiftLanguageModes: [.v6]
)
