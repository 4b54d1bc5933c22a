// swift-tools-version: 6.0
import PackageDescription

// The raw-client peers of the PostgreSQL rows of Benchmarks/storage/run (postgres-peer) and
// Benchmarks/queue/run (queue-peer): postgres-nio, built in release by those benchmarks only (never by the
// main package, its tests or CI). One package, so a full benchmark run builds postgres-nio once.
let package = Package(
    name: "postgres-peer",
    platforms: [.macOS(.v13)],
    dependencies: [.package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2")],
    targets: [
        .executableTarget(
            name: "postgres-peer", dependencies: [.product(name: "PostgresNIO", package: "postgres-nio")]),
        .executableTarget(
            name: "queue-peer", dependencies: [.product(name: "PostgresNIO", package: "postgres-nio")]),
    ]
)
