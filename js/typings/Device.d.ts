// Typings of the Device plugin, written from its declaration by `jsbridge --typings Device`.
// Do not edit: regenerate instead.

declare namespace DevicePlugin {
  interface DeviceInfo {
    platform: string;
    version: string;
    model: string;
    manufacturer: string;
    uuid: string;
    isVirtual: boolean;
    serial: string;
    cordova: string;
  }
}

interface JSBridgePluginTypes {
  Device: {
    actions: {
      getDeviceInfo: { kind: "async"; args: void; result: DevicePlugin.DeviceInfo };
    };
    events: {
    };
  };
}
