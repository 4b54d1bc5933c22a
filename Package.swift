// swift-tools-version: 6.0
import PackageDescription

/// SwiftNIO's event-loop products: the JS thread is a SwiftNIO event loop.
let nioLoops: [Target.Dependency] = [
    .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
]

/// A built-in plugin's adapter target: the plugin type over its core, with its JavaScript and typings
/// embedded (`Plugins/<Name>/Plugin`).
func pluginTarget(_ name: String, folder: String, dependencies: [Target.Dependency], embedding files: [String])
    -> Target
{
    .target(
        name: name, dependencies: ["JSBridgeCore"] + dependencies, path: "Plugins/\(folder)/Plugin",
        resources: files.map { .embedInCode($0) })
}

let package = Package(
    name: "jsbridge",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "jsbridge", targets: ["jsbridge"]),
        .library(name: "JSBridgeBase", targets: ["JSBridgeBase"]),
        .library(name: "JSBridgeCore", targets: ["JSBridgeCore"]),
        .library(name: "JSBridge", targets: ["JSBridge"]),
        .library(name: "JSBridgeTesting", targets: ["JSBridgeTesting"]),
        .library(name: "JSBridgeCLI", targets: ["JSBridgeCLI"]),
        .library(name: "EchoPlugin", targets: ["EchoPlugin"]),
        .library(name: "ModelConversion", targets: ["ModelConversion"]),
        .library(name: "ModelPlugin", targets: ["ModelPlugin"]),
        .library(name: "StorageCore", targets: ["StorageCore"]),
        .library(name: "StoragePostgres", targets: ["StoragePostgres"]),
        .library(name: "StoragePlugin", targets: ["StoragePlugin"]),
        .library(name: "StoragePluginTesting", targets: ["StoragePluginTesting"]),
        .library(name: "LocationCore", targets: ["LocationCore"]),
        .library(name: "LocationPlugin", targets: ["LocationPlugin"]),
        .library(name: "DeviceCore", targets: ["DeviceCore"]),
        .library(name: "DevicePlugin", targets: ["DevicePlugin"]),
        .library(name: "HTTPCore", targets: ["HTTPCore"]),
        .library(name: "HTTPPlugin", targets: ["HTTPPlugin"]),
        .library(name: "HTTPPluginTesting", targets: ["HTTPPluginTesting"]),
        .library(name: "FileSystemCore", targets: ["FileSystemCore"]),
        .library(name: "FileSystemPlugin", targets: ["FileSystemPlugin"]),
        .library(name: "FuzzTargets", targets: ["FuzzTargets"]),
    ],
    dependencies: [
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
        // The sanitizers' default options (C: built without their instrumentation), linked into the engine, and
        // which sanitizer a build has (for the test kit's time bounds).
        .target(name: "CSanitizerDefaults"),
        // The foundation every module builds on: JSON values, errors with codes, the clock. Plugins' domain
        // cores import only this, so the compiler keeps them free of the bridge.
        .target(name: "JSBridgeBase"),
        // The plugin API: declarations, capabilities, contexts, the registry, executors, typings. No JavaScriptCore.
        .target(name: "JSBridgeCore", dependencies: ["JSBridgeBase"]),
        // The engine's own JavaScript (js/*.js), embedded in the binary.
        .target(
            name: "JSBridgeScripts",
            path: "js",
            exclude: ["test", "jsbridge.d.ts", "typings", "tsconfig.json"],
            resources: [
                "loader.js", "inspect.js", "console.js", "errors.js", "encoding.js", "events.js", "url.js",
                "structured-clone.js", "timers.js", "process.js", "module.js", "bridge.js", "primordials.js",
                "resolve.js", "esm.js", "blob.js", "form-data.js", "streams.js", "compression.js", "message-channel.js",
                "node/node-builtins.js", "node/node-path.js", "node/node-events.js", "node/node-util.js",
                "node/node-os.js", "node/node-buffer.js", "node/node-timers.js", "node/node-assert.js",
                "node/node-url.js", "node/node-string-decoder.js", "node/node-crypto.js", "node/node-process.js",
                "node/node-stdin.js", "node/node-hash.js",
                "cordova.js",
                "repl.js",
            ].map { .embedInCode($0) }
        ),
        // The engine: JavaScriptCore host, event loop (the JS thread is a SwiftNIO event loop), command queue.
        // It knows no plugin by name.
        .target(
            name: "JSBridge",
            dependencies: ["CJavaScriptCore", "CSanitizerDefaults", "JSBridgeCore", "JSBridgeScripts"] + nioLoops
        ),
        // Headless test kit for plugin authors: no built-in plugin in it.
        .target(name: "JSBridgeTesting", dependencies: ["CSanitizerDefaults", "JSBridge", "JSBridgeCore"]),
        // The command line (flags, exit codes, --help and --typings from the plugins' declarations) as a
        // library, for `jsbridge` and users' own runtimes.
        .target(name: "JSBridgeCLI", dependencies: ["JSBridge", "CJavaScriptCore"]),

        // MARK: Built-in plugins: Plugins/<Name>/Core (bridge-free) + Plugins/<Name>/Plugin (adapter, JS, typings)

        // Echo: a diagnostic plugin with one action of each kind (an adapter only: it has no domain).
        .target(name: "EchoPlugin", dependencies: ["JSBridgeCore"], path: "Plugins/Echo"),
        // Model: the conversion engine (JSON ⇄ models) and its plugin.
        .target(name: "ModelConversion", dependencies: ["JSBridgeBase"], path: "Plugins/Model/Core"),
        pluginTarget(
            "ModelPlugin", folder: "Model", dependencies: ["ModelConversion"], embedding: ["model.js", "model.d.ts"]),
        // Storage: key-value stores (SQLite, in memory) and the plugin.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "StorageCore", dependencies: ["JSBridgeBase", "CSQLite"], path: "Plugins/Storage/Core"),
        // PostgreSQL through libpq (synchronous calls fit localStorage's synchronous API; see docs/storage.md),
        // opened on first use rather than linked (Plugins/Storage/CLibPQ/shim.h).
        .systemLibrary(name: "CLibPQ", path: "Plugins/Storage/CLibPQ", providers: [.apt(["libpq-dev"])]),
        .target(
            name: "StoragePostgres", dependencies: ["JSBridgeBase", "StorageCore", "CLibPQ"],
            path: "Plugins/Storage/Postgres"),
        pluginTarget(
            "StoragePlugin", folder: "Storage", dependencies: ["StorageCore", "StoragePostgres"],
            embedding: ["storage.js", "storage.d.ts"]),
        // A throwaway PostgreSQL cluster for tests (initdb in a temporary directory, a free port).
        .target(
            name: "StoragePluginTesting", dependencies: ["CJavaScriptCore", "JSBridgeBase"],
            path: "Plugins/Storage/Testing"),
        // Location: gpsd / fixed / NMEA sources, offline reverse geocoding, and the plugin.
        .target(name: "LocationCore", dependencies: ["JSBridgeBase"], path: "Plugins/Location/Core"),
        pluginTarget(
            "LocationPlugin", folder: "Location", dependencies: ["LocationCore"],
            embedding: ["location.js", "location.d.ts"]),
        // Device: what Cordova's `device` reports (DMI, OS release, a per-app UUID) and the plugin.
        .target(name: "DeviceCore", dependencies: ["JSBridgeBase"], path: "Plugins/Device/Core"),
        pluginTarget("DevicePlugin", folder: "Device", dependencies: ["DeviceCore"], embedding: []),
        // HTTP: transports (AsyncHTTPClient live), caches, DAOs, transfers; the plugin; a test server.
        .target(
            name: "HTTPCore",
            dependencies: [
                "JSBridgeBase", "ModelConversion",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ] + nioLoops,
            path: "Plugins/HTTP/Core"),
        pluginTarget(
            "HTTPPlugin", folder: "HTTP", dependencies: ["HTTPCore"],
            embedding: ["http.js", "http-dao.js", "http-transfer.js", "http.d.ts"]),
        .target(
            name: "HTTPPluginTesting",
            dependencies: ["JSBridgeBase", .product(name: "NIOHTTP1", package: "swift-nio")] + nioLoops,
            path: "Plugins/HTTP/Testing"),
        // FileSystem: files and directories over POSIX behind --allow-read/--allow-write, and node:fs.
        .target(name: "FileSystemCore", dependencies: ["JSBridgeBase"], path: "Plugins/FileSystem/Core"),
        pluginTarget(
            "FileSystemPlugin", folder: "FileSystem", dependencies: ["FileSystemCore"],
            embedding: [
                "filesystem-core.js", "filesystem.js", "node-fs-common.js", "node-fs-promises.js", "node-fs.js",
                "filesystem.d.ts",
            ]),

        // The `jsbridge` executable: the CLI with the built-in plugins.
        .executableTarget(
            name: "jsbridge",
            dependencies: [
                "JSBridge", "JSBridgeCLI", "DevicePlugin", "EchoPlugin", "FileSystemPlugin", "HTTPPlugin",
                "LocationPlugin", "ModelPlugin", "StoragePlugin",
            ],
            // mimalloc in place of glibc's malloc: the bridge allocates on one thread and frees on another,
            // which glibc serialises on its arena locks (docs/architecture.md, "Memory allocator").
            linkerSettings: [.linkedLibrary("mimalloc", .when(platforms: [.linux]))]),

        // MARK: Fuzzing

        // The fuzz targets: one function per input format, checking its invariants with `precondition`. The
        // libFuzzer executables in Fuzz/ call them; FuzzRegressionTests replays the seeds and crashers.
        .target(name: "FuzzTargets", dependencies: ["JSBridgeBase", "ModelConversion", "LocationCore", "HTTPCore"]),

        // MARK: Examples

        // The example plugin that docs/writing-a-plugin.md walks through.
        .target(
            name: "CounterPlugin", dependencies: ["JSBridgeCore"], path: "examples/counter-plugin/Sources/CounterPlugin"
        ),
        .executableTarget(
            name: "counter-runtime", dependencies: ["JSBridgeCLI", "CounterPlugin", "EchoPlugin"],
            path: "examples/counter-plugin/Sources/counter-runtime"),

        // MARK: Tests

        .testTarget(name: "JSBridgeCoreTests", dependencies: ["JSBridgeBase", "JSBridgeCore", "JSBridgeTesting"]),
        .testTarget(
            name: "JSBridgeTests",
            dependencies: ["JSBridge", "JSBridgeTesting", "EchoPlugin"] + nioLoops),
        .testTarget(name: "EchoPluginTests", dependencies: ["EchoPlugin", "JSBridgeTesting"]),
        .testTarget(name: "ModelConversionTests", dependencies: ["ModelConversion"]),
        .testTarget(name: "ModelPluginTests", dependencies: ["ModelPlugin", "JSBridgeTesting"]),
        .testTarget(
            name: "StoragePluginTests",
            dependencies: [
                "StoragePlugin", "StorageCore", "StoragePostgres", "StoragePluginTesting", "ModelPlugin",
                "JSBridgeTesting",
            ]),
        .testTarget(name: "DevicePluginTests", dependencies: ["DevicePlugin", "DeviceCore", "JSBridgeTesting"]),
        .testTarget(
            name: "LocationPluginTests", dependencies: ["LocationPlugin", "LocationCore", "JSBridgeTesting"]),
        .testTarget(
            name: "HTTPPluginTests",
            dependencies: [
                "HTTPPlugin", "HTTPCore", "HTTPPluginTesting", "ModelPlugin", "ModelConversion", "JSBridgeTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        .testTarget(name: "FileSystemCoreTests", dependencies: ["FileSystemCore", "JSBridgeCore"]),
        .testTarget(
            name: "FileSystemPluginTests",
            dependencies: ["FileSystemPlugin", "FileSystemCore", "HTTPPlugin", "HTTPPluginTesting", "JSBridgeTesting"]),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzTargets"]),
        .testTarget(
            name: "CLITests",
            dependencies: ["jsbridge", "JSBridgeCLI", "DeviceCore", "CJavaScriptCore", "HTTPPluginTesting"],
            exclude: ["Specs"]),
        .testTarget(
            name: "CounterPluginTests", dependencies: ["CounterPlugin", "JSBridgeTesting"],
            path: "examples/counter-plugin/Tests/CounterPluginTests"),
    ],
    swiftLanguageModes: [.v6]
)
