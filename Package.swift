// swift-tools-version: 6.0
import PackageDescription

/// SwiftNIO's event-loop products: the JS thread is a SwiftNIO event loop.
let nioLoops: [Target.Dependency] = [
    .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
]

let package = Package(
    name: "jsbridge",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "jsbridge", targets: ["jsbridge"]),
        .library(name: "JSBridgeCore", targets: ["JSBridgeCore"]),
        .library(name: "JSBridge", targets: ["JSBridge"]),
        .library(name: "JSBridgeTesting", targets: ["JSBridgeTesting"]),
        .library(name: "JSBridgeCLI", targets: ["JSBridgeCLI"]),
        .library(name: "EchoPlugin", targets: ["EchoPlugin"]),
        .library(name: "ModelConversion", targets: ["ModelConversion"]),
        .library(name: "ModelPlugin", targets: ["ModelPlugin"]),
        .library(name: "StoragePlugin", targets: ["StoragePlugin"]),
        .library(name: "LocationPlugin", targets: ["LocationPlugin"]),
        .library(name: "HTTPPlugin", targets: ["HTTPPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // C: the JavaScriptCore C API and small C helpers (all C includes live in shim.h).
        .systemLibrary(
            name: "CJavaScriptCore",
            pkgConfig: "javascriptcoregtk-4.1",
            providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]
        ),
        // The plugin API, JSON values and errors. No JavaScriptCore: plugins depend on this only.
        .target(name: "JSBridgeCore"),
        // The JS side of the runtime (js/*.js), embedded in the binary.
        .target(
            name: "JSBridgeScripts",
            path: "js",
            exclude: ["test", "jsbridge.d.ts"],
            resources: [
                "loader.js", "inspect.js", "console.js", "errors.js", "encoding.js", "events.js", "url.js",
                "structured-clone.js", "timers.js", "process.js", "module.js", "bridge.js",
                "storage.js", "model.js", "location.js", "http.js", "http-dao.js", "http-transfer.js",
            ].map { .embedInCode($0) }
        ),
        // The engine: JavaScriptCore host, event loop (the JS thread is a SwiftNIO event loop), command queue.
        .target(
            name: "JSBridge",
            dependencies: ["CJavaScriptCore", "JSBridgeCore", "JSBridgeScripts"] + nioLoops
        ),
        // Headless test kit for plugin authors.
        .target(
            name: "JSBridgeTesting",
            dependencies: [
                "JSBridge", "JSBridgeCore", "StoragePlugin", "LocationPlugin", "HTTPPlugin",
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ] + nioLoops),
        // Built-in diagnostic plugin.
        .target(name: "EchoPlugin", dependencies: ["JSBridgeCore"], path: "Plugins/Echo"),
        // The model conversion engine (JSON ⇄ models; no bridge types) and its bridge plugin.
        .target(name: "ModelConversion", dependencies: ["JSBridgeCore"]),
        .target(name: "ModelPlugin", dependencies: ["JSBridgeCore", "ModelConversion"], path: "Plugins/Model"),
        // SQLite (the system library) and the Storage plugin on it.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "StoragePlugin", dependencies: ["JSBridgeCore", "CSQLite"], path: "Plugins/Storage"),
        // The Location plugin: gpsd / fixed / NMEA sources and offline reverse geocoding.
        .target(name: "LocationPlugin", dependencies: ["JSBridgeCore"], path: "Plugins/Location"),
        // The HTTP plugin: fetch() and DAOs over a transport protocol (AsyncHTTPClient live).
        .target(
            name: "HTTPPlugin",
            dependencies: [
                "JSBridgeCore", "ModelConversion",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ] + nioLoops,
            path: "Plugins/HTTP"),
        // The command line (flags, exit codes) as a library, for `jsbridge` and users' own runtimes.
        .target(
            name: "JSBridgeCLI",
            dependencies: ["JSBridge", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The `jsbridge` executable: the only place that wires the built-in plugins.
        .executableTarget(
            name: "jsbridge",
            dependencies: [
                "JSBridgeCLI", "EchoPlugin", "LocationPlugin", "ModelPlugin", "StoragePlugin", "HTTPPlugin",
            ]),
        // The example plugin that docs/writing-a-plugin.md walks through.
        .target(
            name: "CounterPlugin", dependencies: ["JSBridgeCore"], path: "examples/counter-plugin/Sources/CounterPlugin"
        ),
        .executableTarget(
            name: "counter-runtime", dependencies: ["JSBridgeCLI", "CounterPlugin", "EchoPlugin"],
            path: "examples/counter-plugin/Sources/counter-runtime"),
        .testTarget(name: "JSBridgeCoreTests", dependencies: ["JSBridgeCore"]),
        .testTarget(
            name: "JSBridgeTests",
            dependencies: ["JSBridge", "JSBridgeTesting", "EchoPlugin"] + nioLoops),
        .testTarget(name: "EchoPluginTests", dependencies: ["EchoPlugin", "JSBridgeTesting"]),
        .testTarget(name: "ModelConversionTests", dependencies: ["ModelConversion"]),
        .testTarget(name: "ModelPluginTests", dependencies: ["ModelPlugin", "JSBridgeTesting"]),
        .testTarget(name: "StoragePluginTests", dependencies: ["StoragePlugin", "ModelPlugin", "JSBridgeTesting"]),
        .testTarget(name: "LocationPluginTests", dependencies: ["LocationPlugin", "JSBridgeTesting"]),
        .testTarget(
            name: "HTTPPluginTests",
            dependencies: [
                "HTTPPlugin", "ModelPlugin", "ModelConversion", "JSBridgeTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        .testTarget(name: "CLITests", dependencies: ["jsbridge"], exclude: ["Specs"]),
        .testTarget(
            name: "CounterPluginTests", dependencies: ["CounterPlugin", "JSBridgeTesting"],
            path: "examples/counter-plugin/Tests/CounterPluginTests"),
    ],
    swiftLanguageModes: [.v6]
)
