// swift-tools-version: 6.0
import PackageDescription

// The raw-client peer of Benchmarks/storage/run's PostgreSQL rows: postgres-nio, built in release by the
// benchmark only (never by the main package, its tests or CI).
let package = Package(
    name: "postgres-peer",
    platforms: [.macOS(.v13)],
    dependencies: [.package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2")],
    targets: [
        .executableTarget(
            name: "postgres-peer", dependencies: [.product(name: "PostgresNIO", package: "postgres-nio")])
    ]
)
