// Typings of the Echo plugin, written from its declaration by `jsbridge --typings Echo`.
// Do not edit: regenerate instead.

declare namespace EchoPlugin {
  interface FailArguments {
    code?: string;
    message?: string;
  }
  interface TickArguments {
    count: number;
    intervalMs?: number;
  }
}

interface JSBridgePluginTypes {
  Echo: {
    actions: {
      context: { kind: "sync"; args: void; result: unknown };
      echo: { kind: "async"; args: unknown; result: unknown };
      fail: { kind: "async"; args: EchoPlugin.FailArguments; result: unknown };
      ping: { kind: "sync"; args: number; result: number };
      ticks: { kind: "stream"; args: EchoPlugin.TickArguments; value: number };
    };
    events: {
    };
  };
}
