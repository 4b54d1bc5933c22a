@_exported import DeviceCore
import JSBridgeCore

/// The `Device` plugin: what Cordova's `device` object reports (cordova-plugin-device's exec service), read
/// from DMI and the OS; a thin adapter over ``DeviceInfoReader`` (see docs/cordova.md).
///
/// | action | kind | arguments | result |
/// |---|---|---|---|
/// | `getDeviceInfo` | async | none | `{platform, version, model, manufacturer, uuid, isVirtual, serial, cordova}` |
public struct DevicePlugin: BridgePlugin {
    public static let name = "Device"

    private let reader: DeviceInfoReader
    private let runtimeVersion: String

    /// A plugin reading the real machine for a runtime of `runtimeVersion` (reported as `cordova`).
    public init(runtimeVersion: String = DeviceInfoReader.unknown) {
        self.init(reader: DeviceInfoReader(), runtimeVersion: runtimeVersion)
    }

    /// A plugin reading through `reader` (a fake DMI tree in tests).
    public init(reader: DeviceInfoReader, runtimeVersion: String = DeviceInfoReader.unknown) {
        self.reader = reader
        self.runtimeVersion = runtimeVersion
    }

    /// The reader and the runtime version the answers report.
    public struct State: Sendable {
        let reader: DeviceInfoReader
        let runtimeVersion: String
    }

    public func setUp(_ context: SetUpContext<Self>) async throws -> State {
        State(reader: reader, runtimeVersion: runtimeVersion)
    }

    public static func declare(_ plugin: inout PluginDeclaration<Self>) {
        // A few small files: read off the JS thread, once per call (the answer is cheap and never stale).
        plugin.async("getDeviceInfo") { context in
            context.state.reader.read(appID: context.storage.appID, runtimeVersion: context.state.runtimeVersion)
        }
    }
}
