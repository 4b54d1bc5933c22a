// Typings of the Model plugin, written from its declaration by `jsbridge --typings Model`.
// Do not edit: regenerate instead.
/// <reference path="../../Plugins/Model/Plugin/model.d.ts" />

interface JSBridgePluginTypes {
  Model: {
    actions: {
      archive: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: string };
      convert: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
      convertAsync: { kind: "async"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
      define: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
      describe: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: string };
      equals: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: boolean };
      fastPlans: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
      hash: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: number };
      inputKeys: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
      names: { kind: "sync"; args: void; result: string[] };
      sample: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
      schema: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
      toJSON: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
      unarchive: { kind: "sync"; args: { archive: string }; result: unknown };
      validate: { kind: "sync"; args: { name: string; value?: unknown; options?: object; schema?: object; json?: boolean; a?: unknown; b?: unknown }; result: unknown };
    };
    events: {
    };
  };
}

