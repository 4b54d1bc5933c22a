// swift-tools-version: 6.0
import PackageDescription

/// SwiftNIO's event-loop products: the JS thread is a SwiftNIO event loop.
let nioLoops: [Target.Dependency] = [
    .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
]

/// An engine extension's target (`Extensions/<Folder>`): its natives, its JavaScript (`js/*.js`, embedded) and
/// its declarations (`js/*.d.ts`, read by the TypeScript check), with its C modules beside it (`C/`).
func extensionTarget(
    _ name: String, folder: String, dependencies: [Target.Dependency], cModules: Bool = false, scripts: [String]
) -> Target {
    .target(
        name: name, dependencies: ["JSBridge"] + dependencies, path: "Extensions/\(folder)",
        exclude: ["js/internal.d.ts", "js/natives.d.ts"] + (cModules ? ["C"] : []),
        resources: scripts.map { .embedInCode("js/\($0)") })
}

/// The built-in plugins: each a product of its own, and together in `JSBridgeRuntime` (`RuntimeDescription.jsbridge`).
let builtInPlugins = [
    "DevicePlugin", "EchoPlugin", "FilePlugin", "FileSystemPlugin", "HTTPPlugin", "LocationPlugin", "ModelPlugin",
    "NetworkStatusPlugin", "NotificationPlugin", "QueuePlugin", "StoragePlugin",
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
        .library(name: "FileAccess", targets: ["FileAccess"]),
        .library(name: "JSBridge", targets: ["JSBridge"]),
        .library(name: "JSBridgeExtensions", targets: ["JSBridgeExtensions"]),
        .library(name: "JSBridgeInspector", targets: ["JSBridgeInspector"]),
        .library(name: "JSBridgeTesting", targets: ["JSBridgeTesting"]),
        .library(name: "JSBridgeCLI", targets: ["JSBridgeCLI"]),
        // A custom runtime's one product: the command line, every engine extension and the built-in plugins.
        .library(name: "JSBridgeRuntime", targets: ["JSBridgeRuntime"]),
        .library(name: "ModelConversion", targets: ["ModelConversion"]),
        .library(name: "StorageCore", targets: ["StorageCore"]),
        .library(name: "StoragePostgres", targets: ["StoragePostgres"]),
        .library(name: "StoragePluginTesting", targets: ["StoragePluginTesting"]),
        .library(name: "LocationCore", targets: ["LocationCore"]),
        .library(name: "DeviceCore", targets: ["DeviceCore"]),
        .library(name: "HTTPCore", targets: ["HTTPCore"]),
        .library(name: "HTTPPostgres", targets: ["HTTPPostgres"]),
        .library(name: "HTTPPluginTesting", targets: ["HTTPPluginTesting"]),
        .library(name: "FileSystemCore", targets: ["FileSystemCore"]),
        .library(name: "FileCore", targets: ["FileCore"]),
        .library(name: "NetworkStatusCore", targets: ["NetworkStatusCore"]),
        .library(name: "NotificationCore", targets: ["NotificationCore"]),
        .library(name: "FuzzTargets", targets: ["FuzzTargets"]),
    ] + builtInPlugins.map { .library(name: $0, targets: [$0]) },
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // WebCrypto's primitives (`crypto.subtle`, node:crypto): BoringSSL behind Swift, and RSA in _CryptoExtras.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // DER for what swift-crypto does not expose: an RSA private key's parts, for its JWK (swift-crypto's own).
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    ],
    targets: [
        // C, one module per concern, each with its state in its own .c file.
        // JavaScriptCore's C API (the system library, through pkg-config) and what it does not ship.
        .systemLibrary(
            name: "CJavaScriptCore", path: "Sources/JSBridge/C/JavaScriptCore", pkgConfig: "javascriptcoregtk-4.1",
            providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]),
        .target(
            name: "CJavaScriptCoreExtras", dependencies: ["CJavaScriptCore"],
            path: "Sources/JSBridge/C/JavaScriptCoreExtras"),
        // The process: clock, resident memory, allocator tuning, environment, standard streams.
        .target(name: "CProcess", path: "Sources/JSBridge/C/Process"),
        // Signals for the runtime's loop: a self-pipe handler.
        .target(name: "CSignals", path: "Sources/JSBridge/C/Signals"),
        // zlib and brotli streams (CompressionStream, fetch's Content-Encoding, node:zlib's engines) and ICU's
        // converters and UTS #46 (TextDecoder, URL hosts).
        .target(
            name: "CCompression", path: "Extensions/Web/C/Compression",
            linkerSettings: [.linkedLibrary("z"), .linkedLibrary("brotlidec"), .linkedLibrary("brotlienc")]),
        .target(
            name: "CTextEncodings", path: "Extensions/Web/C/TextEncodings",
            linkerSettings: [.linkedLibrary("icuuc")]),
        // The debugger's relay (the RemoteInspector's GVariant messages, HTTP and WebSocket) and the engine's
        // inspector symbols, looked up with dlsym (docs/debugging.md); GLib through JavaScriptCore's pkg-config.
        .target(name: "CInspector", dependencies: ["CJavaScriptCore"], path: "Extensions/Inspector/C/Inspector"),
        // The REPL's terminal modes, and pseudo-terminals for its tests.
        .target(name: "CTerminal", path: "Extensions/REPL/C/Terminal"),
        // posix_spawn's GNU extensions and pidfds, for node:child_process and the processes tests start.
        .target(name: "CSpawn"),
        // openat2(2), for opening checked paths without following links (FileAccess).
        .target(name: "COpenat2", path: "Sources/FileAccess/C/Openat2"),
        // The sanitizers' default options (C: built without their instrumentation), linked into the engine, and
        // which sanitizer a build has (for the test kit's time bounds).
        .target(name: "CSanitizerDefaults"),
        // The foundation every module builds on: JSON values, errors with codes, the clock. Plugins' domain
        // cores import only this, so the compiler keeps them free of the bridge.
        .target(name: "JSBridgeBase"),
        // Paths as permission checks see them (resolved, compared as bytes) and opened without following links,
        // so the object checked is the object used: for every plugin and extension that opens a script's path.
        .target(name: "FileAccess", dependencies: ["COpenat2"], exclude: ["C"]),
        // The plugin API: declarations, capabilities, contexts, the registry, executors, typings. No JavaScriptCore.
        .target(name: "JSBridgeCore", dependencies: ["JSBridgeBase", "FileAccess"]),
        // The host: JavaScriptCore, the event loop (the JS thread is a SwiftNIO event loop), the command queue,
        // timers, the console, and the engine-extension mechanism; its own JavaScript in js/. It knows no plugin
        // and no extension by name.
        .target(
            name: "JSBridge",
            dependencies: [
                "CJavaScriptCore", "CJavaScriptCoreExtras", "CProcess", "CSignals", "CSanitizerDefaults",
                "JSBridgeCore",
            ] + nioLoops,
            exclude: ["C", "js/internal.d.ts", "js/natives.d.ts", "js/environment.d.ts"],
            resources: ["primordials", "loader", "errors", "bridge", "timers", "inspect", "console"].map {
                .embedInCode("js/\($0).js")
            }),

        // MARK: Engine extensions: Extensions/<Name> (natives, js/, declarations, C/)

        extensionTarget(
            "JSBridgeWeb", folder: "Web",
            dependencies: [
                "CCompression", "CTextEncodings", "CProcess", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ], cModules: true,
            scripts: [
                "events.js", "encoding.js", "url.js", "urlpattern.js", "structured-clone.js", "blob.js",
                "form-data.js", "streams.js", "compression.js", "message-channel.js", "performance.js", "crypto.js",
                "global-scope.js", "webassembly.js",
            ]),
        extensionTarget(
            "JSBridgeNode", folder: "Node",
            dependencies: [
                "JSBridgeWeb", "CProcess", "CCompression", "CSpawn", "CJavaScriptCoreExtras",
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ] + nioLoops,
            scripts: [
                "process.js", "node-builtins.js", "node-buffer.js", "node-crypto.js", "node-path.js", "node-events.js",
                "node-util.js", "node-os.js", "node-timers.js", "node-assert.js", "node-url.js",
                "node-string-decoder.js",
                "node-process.js", "node-stdin.js", "node-hash.js", "node-errors.js", "node-stream.js", "node-async.js",
                "node-readline.js", "node-zlib.js", "node-child-process.js", "node-vm.js", "node-http.js", "node-net.js",
                "node-dns.js",
            ]),
        extensionTarget(
            "JSBridgeModules", folder: "Modules", dependencies: ["JSBridgeNode"],
            scripts: ["module.js", "resolve.js", "esm.js"]),
        extensionTarget("JSBridgeCordova", folder: "Cordova", dependencies: ["JSBridgeWeb"], scripts: ["cordova.js"]),
        extensionTarget(
            "JSBridgeREPL", folder: "REPL", dependencies: ["JSBridgeNode", "JSBridgeModules", "CTerminal"],
            cModules: true,
            scripts: ["repl.js"]),
        // The debugger (`--inspect`): JavaScriptCore's own inspector behind a WebSocket (docs/debugging.md).
        .target(
            name: "JSBridgeInspector", dependencies: ["JSBridge", "CInspector"], path: "Extensions/Inspector",
            exclude: ["C"], resources: [.embedInCode("js/cdp.js")]),
        // Every engine extension, and their list (`[EngineExtension].jsbridge`).
        .target(
            name: "JSBridgeExtensions",
            dependencies: ["JSBridgeWeb", "JSBridgeNode", "JSBridgeModules", "JSBridgeCordova", "JSBridgeREPL"]),

        // Headless test kit for plugin authors: no built-in plugin in it.
        .target(
            name: "JSBridgeTesting",
            dependencies: ["CSanitizerDefaults", "JSBridge", "JSBridgeCore", "JSBridgeExtensions"]
        ),
        // The command line (flags, exit codes, --help and --typings from the plugins' declarations) as a
        // library, for `jsbridge` and users' own runtimes.
        .target(name: "JSBridgeCLI", dependencies: ["JSBridge"]),

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
            name: "StoragePluginTesting", dependencies: ["CSpawn", "JSBridgeBase"],
            path: "Plugins/Storage/Testing"),
        // Queue: durable job queues (SQLite beside Storage's file, or Storage's PostgreSQL) and the plugin.
        .target(name: "QueueCore", dependencies: ["JSBridgeBase", "CSQLite"], path: "Plugins/Queue/Core"),
        .target(
            name: "QueuePostgres",
            dependencies: ["JSBridgeBase", "QueueCore", "StorageCore", "StoragePostgres", "CLibPQ"],
            path: "Plugins/Queue/Postgres"),
        pluginTarget(
            "QueuePlugin", folder: "Queue", dependencies: ["QueueCore", "QueuePostgres", "StorageCore"],
            embedding: ["queue.js", "broadcast.js", "queue.d.ts"]),
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
                "JSBridgeBase", "FileAccess", "ModelConversion", "CCompression",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ] + nioLoops,
            path: "Plugins/HTTP/Core"),
        // The HTTP cache in Storage's PostgreSQL database (`--storage-url`), shared by hosts.
        .target(
            name: "HTTPPostgres", dependencies: ["JSBridgeBase", "HTTPCore", "StorageCore", "StoragePostgres"],
            path: "Plugins/HTTP/Postgres"),
        pluginTarget(
            "HTTPPlugin", folder: "HTTP", dependencies: ["HTTPCore", "HTTPPostgres", "StoragePostgres"],
            embedding: ["http.js", "http-dao.js", "http-transfer.js", "http.d.ts"]),
        .target(
            name: "HTTPPluginTesting",
            dependencies: ["JSBridgeBase", .product(name: "NIOHTTP1", package: "swift-nio")] + nioLoops,
            path: "Plugins/HTTP/Testing"),
        // FileSystem: files and directories over POSIX behind --allow-read/--allow-write, and node:fs.
        .target(name: "FileSystemCore", dependencies: ["JSBridgeBase", "FileAccess"], path: "Plugins/FileSystem/Core"),
        pluginTarget(
            "FileSystemPlugin", folder: "FileSystem", dependencies: ["FileSystemCore"],
            embedding: [
                "filesystem-core.js", "filesystem.js", "node-fs-common.js", "node-fs-promises.js", "node-fs.js",
                "filesystem.d.ts",
            ]),

        // Cordova's core services (docs/cordova.md, "Core services"): cordova-plugin-file's `File` over the
        // FileSystem plugin's core, cordova-plugin-network-information's `NetworkStatus`, cordova-plugin-dialogs'
        // `Notification` on the terminal.
        .target(
            name: "FileCore", dependencies: ["JSBridgeBase", "FileAccess", "FileSystemCore"], path: "Plugins/File/Core"),
        pluginTarget("FilePlugin", folder: "File", dependencies: ["FileCore", "FileSystemCore"], embedding: []),
        .target(name: "NetworkStatusCore", dependencies: ["JSBridgeBase"], path: "Plugins/NetworkStatus/Core"),
        pluginTarget("NetworkStatusPlugin", folder: "NetworkStatus", dependencies: ["NetworkStatusCore"], embedding: []),
        .target(name: "NotificationCore", dependencies: ["JSBridgeBase"], path: "Plugins/Notification/Core"),
        pluginTarget("NotificationPlugin", folder: "Notification", dependencies: ["NotificationCore"], embedding: []),

        // jsbridge as one value for custom runtimes: the command line, every engine extension and the built-in
        // plugins (`RuntimeDescription.jsbridge`).
        .target(
            name: "JSBridgeRuntime",
            dependencies: ["JSBridgeCLI", "JSBridgeExtensions", "JSBridgeInspector"]
                + builtInPlugins.map { .target(name: $0) }),
        // The `jsbridge` executable: `JSBridgeCLI.main(.jsbridge)`.
        .executableTarget(
            name: "jsbridge",
            dependencies: ["JSBridgeRuntime"],
            // mimalloc in place of glibc's malloc: the bridge allocates on one thread and frees on another,
            // which glibc serialises on its arena locks (docs/architecture.md, "Memory allocator").
            linkerSettings: [.linkedLibrary("mimalloc", .when(platforms: [.linux]))]),

        // MARK: Fuzzing

        // The fuzz targets: one function per input format, checking its invariants with `precondition`. The
        // libFuzzer executables in Fuzz/ call them; FuzzRegressionTests replays the seeds and crashers.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "JSBridgeBase", "ModelConversion", "LocationCore", "HTTPCore", "JSBridgeCore", "JSBridgeCLI",
                "FileAccess",
            ]),

        // MARK: Examples

        // A small example plugin and a runtime with it (examples/counter-plugin).
        .target(
            name: "CounterPlugin", dependencies: ["JSBridgeCore"], path: "examples/counter-plugin/Sources/CounterPlugin"
        ),
        .executableTarget(
            name: "counter-runtime", dependencies: ["JSBridgeRuntime", "CounterPlugin"],
            path: "examples/counter-plugin/Sources/counter-runtime"),

        // The smallest useful runtime: the host, the web extension and one plugin (measured in Benchmarks/run).
        .executableTarget(
            name: "web-runtime", dependencies: ["JSBridgeCLI", "JSBridgeWeb", "EchoPlugin"],
            path: "examples/web-runtime",
            linkerSettings: [.linkedLibrary("mimalloc", .when(platforms: [.linux]))]),

        // MARK: Tests

        .testTarget(name: "FileAccessTests", dependencies: ["FileAccess"]),
        .testTarget(name: "JSBridgeCoreTests", dependencies: ["JSBridgeBase", "JSBridgeCore", "JSBridgeTesting"]),
        .testTarget(
            name: "JSBridgeTests",
            dependencies: ["JSBridge", "JSBridgeTesting", "EchoPlugin"] + nioLoops),
        .testTarget(
            name: "EngineExtensionsTests",
            dependencies: ["JSBridge", "JSBridgeExtensions", "JSBridgeTesting", "EchoPlugin"]),
        .testTarget(name: "EchoPluginTests", dependencies: ["EchoPlugin", "JSBridgeTesting"]),
        .testTarget(name: "ModelConversionTests", dependencies: ["ModelConversion", "JSBridgeTesting"]),
        .testTarget(name: "ModelPluginTests", dependencies: ["ModelPlugin", "JSBridgeTesting"]),
        .testTarget(
            name: "StoragePluginTests",
            dependencies: [
                "StoragePlugin", "StorageCore", "StoragePostgres", "StoragePluginTesting", "ModelPlugin",
                "JSBridgeTesting",
            ]),
        .testTarget(
            name: "QueuePluginTests",
            dependencies: [
                "QueuePlugin", "QueueCore", "QueuePostgres", "StoragePlugin", "StorageCore", "StoragePostgres",
                "StoragePluginTesting", "JSBridgeTesting", "CSpawn",
            ]),
        .testTarget(name: "DevicePluginTests", dependencies: ["DevicePlugin", "DeviceCore", "JSBridgeTesting"]),
        .testTarget(
            name: "LocationPluginTests", dependencies: ["LocationPlugin", "LocationCore", "JSBridgeTesting"]),
        .testTarget(
            name: "HTTPPluginTests",
            dependencies: [
                "HTTPPlugin", "HTTPCore", "HTTPPluginTesting", "ModelPlugin", "ModelConversion", "JSBridge",
                "JSBridgeExtensions", "JSBridgeTesting", "CCompression", "HTTPPostgres", "StoragePostgres",
                "StoragePluginTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        .testTarget(name: "FileSystemCoreTests", dependencies: ["FileSystemCore", "FileAccess", "JSBridgeCore"]),
        .testTarget(
            name: "FileSystemPluginTests",
            dependencies: ["FileSystemPlugin", "FileSystemCore", "HTTPPlugin", "HTTPPluginTesting", "JSBridgeTesting"]),
        .testTarget(
            name: "CordovaServicesTests",
            dependencies: [
                "FilePlugin", "FileCore", "NetworkStatusPlugin", "NetworkStatusCore", "NotificationPlugin",
                "NotificationCore", "JSBridgeTesting", "CTerminal",
            ]),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzTargets"]),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "jsbridge", "JSBridgeRuntime", "JSBridgeREPL", "DeviceCore", "NetworkStatusCore", "CSpawn", "CTerminal",
                "HTTPPluginTesting",
            ],
            exclude: ["Specs"]),
        .testTarget(
            name: "CounterPluginTests", dependencies: ["CounterPlugin", "JSBridgeTesting"],
            path: "examples/counter-plugin/Tests/CounterPluginTests"),
    ],
    swiftLanguageModes: [.v6]
)
