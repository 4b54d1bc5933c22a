// Typings of the HTTP plugin, written from its declaration by `jsbridge --typings HTTP`.
// Do not edit: regenerate instead.
/// <reference path="../../Plugins/HTTP/Plugin/http.d.ts" />

declare namespace HTTPPlugin {
  interface CacheTokenArguments {
    token: number;
  }
  interface DownloadArguments {
    url: string;
    method?: string;
    headers?: string[][];
    filename?: string;
    overwrite?: boolean;
    progress?: boolean;
    progressIntervalMs?: number;
  }
  interface MockFixtureArguments {
    dao: string;
    variant?: string;
    dir?: string;
  }
  interface UploadArguments {
    url: string;
    method?: string;
    headers?: string[][];
    fields?: string[][];
    files?: HTTPPlugin.FileArgument[];
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
    base64?: string;
    filename?: string;
    contentType?: string;
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
      cacheCommit: { kind: "async"; args: HTTPPlugin.CacheTokenArguments; result: boolean };
      cacheDiscard: { kind: "async"; args: HTTPPlugin.CacheTokenArguments; result: boolean };
      cacheLookup: { kind: "async"; args: { url: string; method?: string; headers?: Array<[string, string]>; body?: string; bodyBase64?: string; redirect?: "follow" | "manual" | "error"; connectTimeoutMs?: number; totalTimeoutMs?: number; retry?: object; cache?: object; json?: boolean; brief?: boolean }; result: unknown };
      download: { kind: "stream"; args: HTTPPlugin.DownloadArguments; value: unknown };
      mockFixture: { kind: "async"; args: HTTPPlugin.MockFixtureArguments; result: unknown };
      request: { kind: "async"; args: { url: string; method?: string; headers?: Array<[string, string]>; body?: string; bodyBase64?: string; redirect?: "follow" | "manual" | "error"; connectTimeoutMs?: number; totalTimeoutMs?: number; retry?: object; cache?: object; json?: boolean; brief?: boolean }; result: unknown };
      settings: { kind: "sync"; args: void; result: unknown };
      upload: { kind: "stream"; args: HTTPPlugin.UploadArguments; value: unknown };
    };
    events: {
    };
  };
}

