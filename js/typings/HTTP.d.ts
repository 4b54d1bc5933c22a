// Typings of the HTTP plugin, written from its declaration by `jsbridge --typings HTTP`.
// Do not edit: regenerate instead.
/// <reference path="../../Plugins/HTTP/Plugin/http.d.ts" />

declare namespace HTTPPlugin {
  interface BodyIDArguments {
    id: number;
  }
  interface BodyReadArguments {
    id: number;
    all?: boolean;
  }
  interface BodyWriteArguments {
    id: number;
    chunk?: Uint8Array;
    end?: boolean;
    error?: string;
  }
  interface CacheTokenArguments {
    token: number;
  }
  interface DAOReadArguments {
    dao: unknown;
    method: string;
    answer?: HTTPPlugin.Answer;
    entity?: unknown;
    read: "response" | "entity" | "data";
  }
  interface Answer {
    status: number;
    statusText?: string;
    headers?: string[][];
    url: string;
    body?: string;
    bodyBase64?: string;
  }
  interface DAORequestArguments {
    dao: unknown;
    params?: unknown;
    headers?: string[][];
    stage?: string;
    mapped?: HTTPPlugin.Mapped;
    wire?: unknown;
  }
  interface Mapped {
    path: { [key: string]: string };
    headers: string[][];
    placement: { [key: string]: string };
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
    base64?: string;
    filename?: string;
    contentType?: string;
  }
  interface FramedArgument {
    boundary: string;
    pieces: HTTPPlugin.Piece[];
  }
  interface Piece {
    text?: string;
    base64?: string;
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
      bodyCancel: { kind: "sync"; args: HTTPPlugin.BodyIDArguments; result: boolean };
      bodyOpen: { kind: "sync"; args: void; result: number };
      bodyRead: { kind: "async"; args: HTTPPlugin.BodyReadArguments; result: { bytes?: Uint8Array; done: boolean } };
      bodyWrite: { kind: "async"; args: HTTPPlugin.BodyWriteArguments; result: boolean };
      cacheClear: { kind: "async"; args: void; result: unknown };
      cacheCommit: { kind: "async"; args: HTTPPlugin.CacheTokenArguments; result: boolean };
      cacheDiscard: { kind: "async"; args: HTTPPlugin.CacheTokenArguments; result: boolean };
      daoDefine: { kind: "sync"; args: string; result: number | null };
      daoRead: { kind: "sync"; args: HTTPPlugin.DAOReadArguments; result: unknown };
      daoRequest: { kind: "sync"; args: HTTPPlugin.DAORequestArguments; result: unknown };
      daoSend: { kind: "async"; args: { dao: number | string; params?: object; request?: object; wire?: object; mock?: { dir?: string; variant?: string; delayMs?: number }; mockContent?: unknown; cacheKey?: string; lookup?: boolean; read: "response" | "entity" | "data"; brief?: boolean }; result: unknown };
      download: { kind: "stream"; args: HTTPPlugin.DownloadArguments; value: unknown };
      request: { kind: "async"; args: { url: string; method?: string; headers?: Array<[string, string]>; body?: string; bodyBase64?: string; redirect?: "follow" | "manual" | "error"; connectTimeoutMs?: number; totalTimeoutMs?: number; retry?: object; stream?: boolean; bodyStream?: number }; result: unknown };
      settings: { kind: "sync"; args: void; result: unknown };
      upload: { kind: "stream"; args: HTTPPlugin.UploadArguments; value: unknown };
    };
    events: {
    };
  };
}

