// HTTP (docs/http.md): the JavaScript API of the plugin (declared beside its JavaScript; added to its generated
// typings, `jsbridge --typings`).

/** The plugin's error codes (with `INVALID_ARGUMENT`, `PERMISSION_DENIED`, `TIMEOUT`, `CANCELLED` from the bridge). */
interface BridgeErrorCodes {
  /** The request never got a response (`data.kind`: `connect`, `dns`, `reset`, `timeout`, …; `data.url`). */
  NETWORK_ERROR: true;
  /** A DAO or download got a non-2xx status; `data.status`, `statusText`, `url`, `headers`, `body`. */
  HTTP_STATUS: true;
  /** The response body is above `maxBodyBytes`; `data.limit`, `data.url`. */
  BODY_TOO_LARGE: true;
  /** A DAO's response does not convert into its model; `data.issues`. */
  DATA_FORMAT: true;
  /** A DAO's response body is not JSON. */
  INVALID_JSON: true;
  /** A DAO hook said the response is a server error (`HTTP.serverError`). */
  SERVER_ERROR: true;
  /** A DAO hook asked for more retries than the DAO allows. */
  RETRY_EXHAUSTED: true;
  /** A mocked DAO has no fixture file; `data.path`. */
  MOCK_NOT_FOUND: true;
  /** A fixture file is not a valid mock (an envelope with a bad `$status`, …). */
  MOCK_INVALID: true;
  /** An upload's file does not exist; `data.path`. */
  FILE_NOT_FOUND: true;
  /** A file of a transfer could not be read or written; `data.path`, `operation`, `reason`. */
  FILE_ERROR: true;
}

/** Options of `HTTP.queue(name, options)`. */
interface HTTPQueueOptions {
  /** At most this many tasks in flight (a positive integer or `Infinity`; default 1 for a new queue: serial unless sized). */
  maxConcurrent?: number;
}

/** A task of `queue.add`: gets the task's signal (aborted by `cancelAll` or the caller's own signal). */
type HTTPQueueTask<T> = (context: { signal: AbortSignal }) => T | PromiseLike<T>;

/**
 * A named request queue (`HTTP.queue(name)`): tasks start in FIFO order, at most `maxConcurrent` at a time.
 */
interface HTTPRequestQueue {
  readonly name: string;
  /** The limit; setting it is `resize(n)`. */
  maxConcurrent: number;
  /** Tasks started and not yet settled. */
  readonly running: number;
  /** Tasks waiting for a slot. */
  readonly waiting: number;
  /** Nothing running and nothing waiting. */
  readonly isIdle: boolean;
  /** Changes the limit: growing starts waiting tasks at once; shrinking lets running tasks finish. */
  resize(maxConcurrent: number): this;
  /** `fetch(input, init)` once the queue lets it start; `cancelAll` aborts it through its signal. */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /** Runs `fn` when a slot is free; `options.signal` aborting while it waits removes it. */
  add<T>(fn: HTTPQueueTask<T>, options?: { signal?: AbortSignal }): Promise<Awaited<T>>;
  /** Calls `callback` each time the queue drains (synchronously, at that moment). */
  onIdle(callback: (queue: HTTPRequestQueue) => void): { remove(): void };
  /** Resolves when nothing is running or waiting (at once when already idle). */
  idle(): Promise<void>;
  /**
   * Rejects every waiting task with `reason` (default: an `AbortError` `DOMException`) and aborts every running
   * task's signal with it; returns how many tasks were hit. The queue stays usable.
   */
  cancelAll(reason?: unknown): number;
}

/** A DAO parameter: a wire name, `true`, or options. */
type HTTPDAOParam =
  | string
  | true
  | { mapTo?: string; in?: "query" | "body" | "header" | "path"; default?: unknown; required?: boolean; ignore?: boolean };

/** What a DAO's hooks see after the response arrived. */
interface HTTPDAOResponse {
  status: number;
  statusText: string;
  headers: Headers;
  url: string;
  redirected: boolean;
  attempts: number;
  source: "network" | "mock" | "cache";
  /** The body as text (undefined when it is not valid UTF-8). */
  text?: string;
  /** The body's bytes when it is not valid UTF-8. */
  bytes?: Uint8Array;
}

/** The context every hook gets. */
interface HTTPDAOContext {
  dao: HTTPDAO;
  name: string;
  /** 1, then 2, 3… after `HTTP.retry()` outcomes. */
  attempt: number;
  signal: AbortSignal;
  params?: Record<string, unknown>;
  request?: { method: string; url: string; headers: Headers; body?: string | Uint8Array };
  response?: HTTPDAOResponse;
}

/** A hook: mutate the value or return a replacement (`undefined` keeps it); may be async. */
type HTTPDAOHook<T> = (this: HTTPDAO, value: T, context: HTTPDAOContext) => unknown;

interface HTTPDAOHooks {
  setUpHeaders?: HTTPDAOHook<Headers>;
  setUpParams?: HTTPDAOHook<Record<string, unknown>>;
  didSetUpParams?: HTTPDAOHook<Record<string, unknown>>;
  willSend?: HTTPDAOHook<{ method: string; url: string; headers: Headers; body?: string | Uint8Array }>;
  didReceive?: HTTPDAOHook<HTTPDAOResponse>;
  outputEntity?: HTTPDAOHook<any>;
  deliver?: HTTPDAOHook<any>;
}

/** `HTTP.dao(definition)` (see docs/http.md, "DAOs"). */
interface HTTPDAODefinition extends HTTPDAOHooks {
  name?: string;
  baseURL?: string;
  path?: string;
  method?: string;
  headers?: Record<string, string>;
  params?: Record<string, HTTPDAOParam>;
  encoding?: "query" | "json" | "form" | "multipart";
  response?: { type?: "json" | "text" | "bytes"; keyPath?: string; model?: string | [string] };
  hooks?: HTTPDAOHooks;
  retry?: { count: number; delayMs?: number; factor?: number; maxDelayMs?: number; statuses?: number[]; methods?: string[] };
  timeout?: number | { connectMs?: number; totalMs?: number };
  queue?: string;
  cache?: "none" | "http" | "alternative" | "both" | "onlyWrite" | { mode: "none" | "http" | "alternative" | "both" | "onlyWrite"; key?: string | ((request: unknown, params: Record<string, unknown>) => string); intervalMs?: number };
  mock?: boolean | "fixture" | "auto" | "off" | { mode?: "fixture" | "auto" | "off"; variant?: string; delayMs?: number; dir?: string };
}

/** A data-access object. */
interface HTTPDAO {
  readonly name: string;
  readonly method: string;
  /** Calls in flight. */
  readonly pending: number;
  /** The delivered value. */
  send(
    params?: Record<string, unknown>,
    options?: { signal?: AbortSignal; onProgress?: (progress: HTTPTransferProgress) => void },
  ): Promise<any>;
  /** The delivered value with the response's details. */
  request(
    params?: Record<string, unknown>,
    options?: {
      signal?: AbortSignal;
      onCache?: (data: any, info: { source: "cache"; status: number }) => unknown;
      onProgress?: (progress: HTTPTransferProgress) => void;
    },
  ): Promise<{ data: any; status: number; headers: Headers; url: string; source: string; attempts: number }>;
  /** Runs the hooks up to `willSend`, then streams the response into a file (like `HTTP.download`). */
  download(params?: Record<string, unknown>, options?: HTTPDownloadOptions): Promise<HTTPDownloadResult>;
  /** A DAO inheriting this one's settings; hooks chain (this one's first). */
  extend(definition: HTTPDAODefinition): HTTPDAO;
  /** Rejects every call in flight with `CANCELLED`; returns how many. */
  cancel(reason?: unknown): number;
}

/** A failed DAO call. */
interface HTTPDAOError extends BridgeError {
  domain: "network" | "http" | "server" | "dataFormat" | "cancelled" | "timeout" | "request";
  dao: string;
  status?: number;
  serverCode?: unknown;
  response?: { status: number; statusText: string; headers: Record<string, string>; url: string; body: string };
  cause?: unknown;
}

/** Progress of `HTTP.download` / `HTTP.upload` (throttled; the last event has `loaded === total`). */
interface HTTPTransferProgress {
  /** Bytes received (download) or sent (upload). */
  loaded: number;
  /** The body's length, when known. */
  total?: number;
  lengthComputable: boolean;
}

/** Options of `HTTP.download(url, options)`. */
interface HTTPDownloadOptions {
  method?: string;
  headers?: HeadersInit;
  /** The file name wanted (sanitised); default: the server's suggestion. */
  filename?: string;
  /** Replace an existing file of that name instead of adding " (1)", " (2)", …. */
  overwrite?: boolean;
  onProgress?: (progress: HTTPTransferProgress) => void;
  /** Shortest time between two progress events (default: the `progressIntervalMs` setting, 100). */
  progressIntervalMs?: number;
  /** Aborting removes the partial file and rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** What `HTTP.download` resolves with. */
interface HTTPDownloadResult {
  /** Absolute path of the file in the downloads folder. */
  filePath: string;
  mimeType: string;
  length: number;
  /** The sanitised name the server suggested (`Content-Disposition`, else the URL). */
  suggestedFilename: string;
}

/** One file part of `HTTP.upload`: from a file on disk (`path`, streamed) or from memory (`data`). */
type HTTPUploadFile = { name: string; filename?: string; contentType?: string } & (
  | { path: string; data?: undefined }
  | { data: string | ArrayBuffer | ArrayBufferView | Blob; path?: undefined }
);

/** Options of `HTTP.upload(url, options)` (a `multipart/form-data` request). */
interface HTTPUploadOptions {
  /** Default `"POST"`. */
  method?: string;
  headers?: HeadersInit;
  fields?: Record<string, string> | Iterable<[string, string]>;
  files?: HTTPUploadFile[];
  onProgress?: (progress: HTTPTransferProgress) => void;
  progressIntervalMs?: number;
  signal?: AbortSignal;
}

/**
 * The HTTP plugin's namespace. `fetch`, `Headers`, `Request` and `Response` are also globals with the WHATWG
 * types (from the `webworker` lib); network access needs `--allow-net`.
 */
declare const HTTP: Readonly<{
  fetch: typeof fetch;
  Headers: typeof Headers;
  Request: typeof Request;
  Response: typeof Response;
  /** The queue named `name`: created on first use; later calls return the same object (options resize it). */
  queue(name: string, options?: HTTPQueueOptions): HTTPRequestQueue;
  /** The queues' class (for `instanceof`; not constructible). */
  RequestQueue: { readonly prototype: HTTPRequestQueue };
  /** A new DAO. */
  dao(definition: HTTPDAODefinition): HTTPDAO;
  /** The DAOs' class (for `instanceof`; not constructible). */
  DAO: { readonly prototype: HTTPDAO };
  DAOError: { readonly prototype: HTTPDAOError };
  /** A business error for `outputEntity` to throw. */
  serverError(message: string, options?: { code?: unknown; data?: unknown }): HTTPDAOError;
  /** A hook outcome that repeats the call after `afterMs`. */
  retry(options?: { afterMs?: number }): { afterMs: number };
  /** Empties this app's HTTP cache. */
  clearCache(): Promise<void>;
  /** Streams `url` into a file in the downloads folder (non-2xx rejects with `HTTP_STATUS`; no file is left). */
  download(url: string | URL, options?: HTTPDownloadOptions): Promise<HTTPDownloadResult>;
  /** Sends a multipart form (files streamed from disk); resolves for any status, like `fetch`. */
  upload(url: string | URL, options?: HTTPUploadOptions): Promise<Response>;
}>;
