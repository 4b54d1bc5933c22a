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

    /// A plugin reading the real machine; `cordova` is the version of the runtime it runs in
    /// (``HostEnvironment/runtime``).
    public init() {
        self.init(reader: DeviceInfoReader())
    }

    /// A plugin reading through `reader` (a fake DMI tree in tests).
    public init(reader: DeviceInfoReader) {
        self.reader = reader
    }

    public func setUp(_ context: SetUpContext<Self>) async throws -> DeviceInfoReader { reader }

    public static func declare(_ plugin: inout PluginDeclaration<Self>) {
        // A few small files: read off the JS thread, once per call (the answer is cheap and never stale).
        plugin.async("getDeviceInfo") { context in
            context.state.read(appID: context.storage.appID, runtimeVersion: context.runtime.version)
        }
    }
}
