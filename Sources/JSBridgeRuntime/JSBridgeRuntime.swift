import DevicePlugin
import EchoPlugin
import FilePlugin
import FileSystemPlugin
import Foundation
import HTTPPlugin
@_exported import JSBridgeCLI
@_exported import JSBridgeCore
@_exported import JSBridgeExtensions
import JSBridgeInspector
import LocationPlugin
import ModelPlugin
import NetworkStatusPlugin
import NotificationPlugin
import QueuePlugin
import StoragePlugin

extension RuntimeDescription {
    /// `jsbridge` itself: every engine extension and every built-in plugin. A custom runtime is this with
    /// plugins added (``RuntimeDescription/adding(_:)``) and a name of its own (``RuntimeDescription/named(_:version:)``):
    ///
    /// ```swift
    /// import JSBridgeRuntime
    /// import SensorsPlugin
    ///
    /// JSBridgeCLI.main(.jsbridge.named("sensors", version: "1.0.0").adding { [SensorsPlugin()] })
    /// ```
    public static var jsbridge: RuntimeDescription {
        RuntimeDescription(
            extensions: .jsbridge, plugins: { BuiltInPlugins.make() },
            inspector: { request, title, url, version in
                let inspector = try Inspector(request, title: title, url: url, version: version)
                FileHandle.standardError.write(
                    Data("Debugger listening on \(inspector.webSocketURL)\nFor help, see: docs/debugging.md\n".utf8))
                return inspector
            })
    }
}

/// jsbridge's built-in plugins.
public enum BuiltInPlugins {
    /// One instance of each built-in plugin.
    public static func make() -> [any BridgePlugin] {
        [
            DevicePlugin(), EchoPlugin(), FilePlugin(), FileSystemPlugin(), HTTPPlugin(), LocationPlugin(),
            ModelPlugin(), NetworkStatusPlugin(), NotificationPlugin(), QueuePlugin(), StoragePlugin(),
        ]
    }
}
