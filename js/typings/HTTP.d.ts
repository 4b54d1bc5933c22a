// Typings of the HTTP plugin, written from its declaration by `jsbridge --typings HTTP`.
// Do not edit: regenerate instead.
/// <reference path="../../Plugins/HTTP/Plugin/http.d.ts" />

declare namespace HTTPPlugin {
  interface DownloadArguments {
    url: string;
    method?: string;
    headers?: string[][];
    filename?: string;
    overwrite?: boolean;
    progress?: boolean;
    progressIntervalMs?: number;
  }
  interface UploadArguments {
    url: string;
    method?: string;
    headers?: string[][];
    fields?: string[][];
    files?: HTTPPlugin.FileArgument[];
    multipart?: HTTPPlugin.FramedArgument;
    progress?: boolean;
    progressIntervalMs?: number;
    connectTimeoutMs?: number;
    totalTimeoutMs?: number;
    retry?: HTTPPlugin.RetryPolicy;
  }
  interface FileArgument {
    name: string;
    path?: string;
    text?: string;
    bytes?: Uint8Array;
    filename?: string;
    contentType?: string;
  }
  interface FramedArgument {
    boundary: string;
    pieces: HTTPPlugin.Piece[];
  }
  interface Piece {
    text?: string;
    bytes?: Uint8Array;
    path?: string;
  }
  interface RetryPolicy {
    count: number;
    delayMs?: number;
    factor?: number;
    maxDelayMs?: number;
    statuses?: number[];
    methods?: string[];
  }
}

interface JSBridgePluginTypes {
  HTTP: {
    actions: {
      cacheClear: { kind: "async"; args: void; result: unknown };
      download: { kind: "stream"; args: HTTPPlugin.DownloadArguments; value: unknown };
      request: { kind: "async"; args: { url: string; method?: string; headers?: Array<[string, string]>; body?: string; bodyBytes?: Uint8Array; redirect?: "follow" | "manual" | "error"; connectTimeoutMs?: number; totalTimeoutMs?: number; retry?: object; stream?: boolean; bodyStream?: number }; result: unknown };
      upload: { kind: "stream"; args: HTTPPlugin.UploadArguments; value: unknown };
    };
    events: {
    };
  };
}

