// Typings of the Storage plugin, written from its declaration by `jsbridge --typings Storage`.
// Do not edit: regenerate instead.
/// <reference path="../../Plugins/Storage/Plugin/storage.d.ts" />

declare namespace StoragePlugin {
  interface Info {
    quotaBytes: number;
    appId: string;
    path: string;
  }
  interface Usage {
    usedBytes: number;
    quotaBytes?: number;
  }
  interface Change {
    group: string;
    key?: string;
    value?: string;
    origin: string;
  }
}

interface JSBridgePluginTypes {
  Storage: {
    actions: {
      clear: { kind: "async"; args: { group?: string } | null; result: unknown };
      clearItems: { kind: "sync"; args: void; result: unknown };
      entries: { kind: "async"; args: { group?: string } | null; result: string[][] };
      get: { kind: "async"; args: { group?: string; key: string }; result: string | null };
      getItem: { kind: "sync"; args: string | [string] | { key: string }; result: string | null };
      groups: { kind: "async"; args: void; result: string[] };
      has: { kind: "async"; args: { group?: string; key: string }; result: boolean };
      info: { kind: "sync"; args: void; result: StoragePlugin.Info };
      itemKeys: { kind: "sync"; args: void; result: string[] };
      key: { kind: "sync"; args: number; result: string | null };
      keys: { kind: "async"; args: { group?: string } | null; result: string[] };
      length: { kind: "sync"; args: void; result: number };
      remove: { kind: "async"; args: { group?: string; key: string }; result: boolean };
      removeItem: { kind: "sync"; args: string | [string] | { key: string }; result: unknown };
      set: { kind: "async"; args: { group?: string; key: string; json: string } | { group?: string; key: string; value: unknown }; result: unknown };
      setItem: { kind: "sync"; args: [key: string, value: string]; result: unknown };
      transaction: { kind: "async"; args: { ops: Array<{ op: "set" | "remove" | "clear" | "enqueue"; group?: string; key?: string; json?: string; value?: unknown; queue?: string; delayMs?: number; attempts?: number; backoff?: unknown }> }; result: unknown };
      unwatch: { kind: "async"; args: { id: number }; result: boolean };
      usage: { kind: "async"; args: void; result: StoragePlugin.Usage };
      watch: { kind: "async"; args: { group?: string; key?: string | null }; result: number };
    };
    events: {
      change: StoragePlugin.Change;
    };
  };
}

