// Typings of the Notification plugin, written from its declaration by `jsbridge --typings Notification`.
// Do not edit: regenerate instead.

declare namespace NotificationPlugin {
  interface PromptAnswer {
    buttonIndex: number;
    input1: string;
  }
}

interface JSBridgePluginTypes {
  Notification: {
    actions: {
      alert: { kind: "async"; args: unknown; result: number };
      beep: { kind: "async"; args: unknown; result: unknown };
      confirm: { kind: "async"; args: unknown; result: number };
      prompt: { kind: "async"; args: unknown; result: NotificationPlugin.PromptAnswer };
    };
    events: {
    };
  };
}
