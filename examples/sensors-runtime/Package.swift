// swift-tools-version: 6.0
import Foundation
import PackageDescription

// A runtime binary: jsbridge (every engine extension and built-in plugin, the `JSBridgeRuntime` product) with
// the Sensors plugin of ../sensors-plugin. A package of its own, so that the plugin's tests build without the
// built-in plugins. SwiftPM names a path dependency after its folder: here the jsbridge checkout this example
// lives in (two folders up) and `sensors-plugin`. In your own package write
// `.package(url: "https://github.com/<owner>/jsbridge", from: "0.2.0")` and `package: "jsbridge"`.
let jsbridge = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let jsbridgePackage = jsbridge.lastPathComponent.lowercased()

let package = Package(
    name: "sensors-runtime",
    platforms: [.macOS(.v15)],
    products: [.executable(name: "sensors-runtime", targets: ["sensors-runtime"])],
    dependencies: [.package(path: jsbridge.path), .package(path: "../sensors-plugin")],
    targets: [
        .executableTarget(
            name: "sensors-runtime",
            dependencies: [
                .product(name: "JSBridgeRuntime", package: jsbridgePackage),
                .product(name: "SensorsPlugin", package: "sensors-plugin"),
            ]),
        .testTarget(
            name: "SensorsRuntimeTests",
            dependencies: ["sensors-runtime", .product(name: "JSBridgeTesting", package: jsbridgePackage)]),
    ],
    swiftLanguageModes: [.v6]
)
