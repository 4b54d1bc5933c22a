// swift-tools-version: 6.0
import Foundation
import PackageDescription

// A third-party plugin package: the `Sensors` plugin and its tests, built on jsbridge's plugin API and test kit
// only (its runtime binary lives in a package of its own, ../sensors-runtime, so these tests build without the
// built-in plugins). This example depends on the jsbridge checkout it lives in, two folders up; SwiftPM names a
// path dependency after its folder. In your own package write
// `.package(url: "https://github.com/<owner>/jsbridge", from: "0.2.0")` and `package: "jsbridge"`.
let jsbridge = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let jsbridgePackage = jsbridge.lastPathComponent.lowercased()

let package = Package(
    name: "sensors-plugin",
    platforms: [.macOS(.v15)],
    products: [.library(name: "SensorsPlugin", targets: ["SensorsPlugin"])],
    dependencies: [.package(path: jsbridge.path)],
    targets: [
        // The domain core: thermal zones read from files; no bridge types (it imports JSBridgeBase only).
        .target(name: "SensorsCore", dependencies: [.product(name: "JSBridgeBase", package: jsbridgePackage)]),
        // The plugin: its declaration, JavaScript API and TypeScript declarations.
        .target(
            name: "SensorsPlugin",
            dependencies: ["SensorsCore", .product(name: "JSBridgeCore", package: jsbridgePackage)],
            resources: [.embedInCode("sensors.js"), .embedInCode("sensors.d.ts")]),
        .testTarget(
            name: "SensorsPluginTests",
            dependencies: ["SensorsPlugin", .product(name: "JSBridgeTesting", package: jsbridgePackage)]),
    ],
    swiftLanguageModes: [.v6]
)
