// swift-tools-version: 6.0
// The HTTP benchmark's Swift side (Benchmarks/http/run builds it in release into its own .build):
//   http-server  the loopback server both sides talk to (SwiftNIO, HTTP/1.1 keep-alive, one event loop)
//   http-peer    the raw peer: AsyncHTTPClient's HTTPClient.execute + Foundation JSONDecoder into a Codable
// Same package URLs and versions as the root Package.swift.
import PackageDescription

let package = Package(
    name: "http-bench",
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(
            name: "http-server",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        .executableTarget(
            name: "http-peer",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]),
    ]
)
