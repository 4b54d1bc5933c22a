// Typings of the NetworkStatus plugin, written from its declaration by `jsbridge --typings NetworkStatus`.
// Do not edit: regenerate instead.

interface JSBridgePluginTypes {
  NetworkStatus: {
    actions: {
      getConnectionInfo: { kind: "stream"; args: void; value: string };
      getType: { kind: "async"; args: void; result: string };
    };
    events: {
    };
  };
}
