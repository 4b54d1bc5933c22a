// swift-tools-version: 6.0
import Foundation
import PackageDescription

// A third-party plugin package: the `Sensors` plugin, its runtime binary and its tests, built on jsbridge's
// libraries only. This example depends on the jsbridge checkout it lives in (two folders up); in your own
// package write `.package(url: "https://github.com/<owner>/jsbridge", from: "0.2.0")` and `package: "jsbridge"`.
let jsbridge = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let jsbridgePackage = jsbridge.lastPathComponent.lowercased()

let package = Package(
    name: "sensors-plugin",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "SensorsPlugin", targets: ["SensorsPlugin"]),
        .executable(name: "sensors-runtime", targets: ["sensors-runtime"]),
    ],
    dependencies: [.package(path: jsbridge.path)],
    targets: [
        // The domain core: thermal zones read from files; no bridge types (it imports JSBridgeBase only).
        .target(name: "SensorsCore", dependencies: [.product(name: "JSBridgeBase", package: jsbridgePackage)]),
        // The plugin: its declaration, JavaScript API and TypeScript declarations.
        .target(
            name: "SensorsPlugin",
            dependencies: ["SensorsCore", .product(name: "JSBridgeCore", package: jsbridgePackage)],
            resources: [.embedInCode("sensors.js"), .embedInCode("sensors.d.ts")]),
        // A runtime binary: jsbridge's command line with the Sensors plugin.
        .executableTarget(
            name: "sensors-runtime",
            dependencies: ["SensorsPlugin", .product(name: "JSBridgeCLI", package: jsbridgePackage)]),
        .testTarget(
            name: "SensorsPluginTests",
            dependencies: ["SensorsPlugin", .product(name: "JSBridgeTesting", package: jsbridgePackage)]),
    ],
    swiftLanguageModes: [.v6]
)
