// TypeScript typings for the globals jsbridge adds to a script.
//
// Use with the standard ES and DOM libraries, which already describe what jsbridge implements as the web
// does (console, URL, URLSearchParams, TextEncoder/TextDecoder, AbortController/AbortSignal, EventTarget,
// structuredClone, queueMicrotask, performance, atob/btoa). This file declares only what differs or is new:
// `bridge`, `cordova`, `BridgeError`, the `process` subset, Node-style timers that return a `Timeout`,
// and CommonJS `require`/`module`.
//
//   // tsconfig.json
//   { "compilerOptions": { "target": "es2022", "lib": ["es2022", "dom"], "types": [], "strict": true },
//     "files": ["path/to/jsbridge/js/jsbridge.d.ts", "script.ts"] }
//
// Do not combine it with @types/node: both declare `process`, `require` and the timers.
//
// Typing your own plugin's actions: merge into `JSBridgePlugins` (see the Echo entry below):
//
//   interface CounterPluginProxy extends JSBridgePluginProxy {
//     increment(args: { name: string; by?: number }, options?: BridgeCallOptions): Promise<number>;
//   }
//   interface JSBridgePlugins { Counter: CounterPluginProxy }

// MARK: - Errors

/** The codes of the bridge itself (every plugin can add its own, e.g. `COUNTER_LIMIT`). */
type BridgeCoreErrorCode =
  /** No plugin of that name is registered. */
  | "PLUGIN_NOT_FOUND"
  /** The plugin has no such action, or not of the kind called (sync vs async vs stream). */
  | "ACTION_NOT_FOUND"
  /** The arguments do not decode (or cannot be sent); `data.issues` lists `{path, message}` entries. */
  | "INVALID_ARGUMENT"
  /** The script was not granted the capability (`--allow-net`, `--allow-location`, `--allow-all`). */
  | "PERMISSION_DENIED"
  /** The Swift action threw an error that has no code of its own. */
  | "PLUGIN_ERROR"
  /** The call or stream was cancelled (`AbortSignal`, `cancel()`). */
  | "CANCELLED"
  /** The call exceeded its `timeout` option. */
  | "TIMEOUT"
  /** The native side released the call without ever answering it. */
  | "DROPPED";

/** A core code, or any plugin's own code. */
type BridgeErrorCode = BridgeCoreErrorCode | (string & {});

/** One problem with an action's arguments: where (`rooms[2].price`, `""` for the whole value) and what. */
interface BridgeArgumentIssue {
  path: string;
  message: string;
}

/** Structured details of a `BridgeError`; for `INVALID_ARGUMENT`, `issues`. */
interface BridgeErrorData {
  issues?: BridgeArgumentIssue[];
  [key: string]: unknown;
}

/** Every failure of a bridge call: a stable `code`, a `message`, and which `plugin`/`action`. */
declare class BridgeError extends Error {
  constructor(code: BridgeErrorCode, message: string, details?: { plugin?: string; action?: string; data?: unknown });
  /** A stable, machine-readable code. */
  code: BridgeErrorCode;
  /** The plugin called (absent for errors made in JavaScript without one). */
  plugin?: string;
  /** The action called. */
  action?: string;
  /** Optional structured details. */
  data?: BridgeErrorData;
}

// MARK: - The bridge

/** Options of `bridge.call` and of the `bridge.plugins` proxies. */
interface BridgeCallOptions {
  /** Milliseconds before the call fails with `TIMEOUT` (the native side is cancelled). */
  timeout?: number;
  /** Aborting it fails the call with `CANCELLED` (the native side is cancelled). */
  signal?: AbortSignal | null;
}

/** A running stream (`bridge.subscribe`). */
interface BridgeSubscription {
  /** The call's id (0 if the stream could not start). */
  readonly id: number;
  /**
   * Resolves when the stream finishes or is cancelled, and when it fails if an `onError` was given;
   * rejects with the `BridgeError` otherwise.
   */
  readonly done: Promise<void>;
  /** Stops the stream; the cancellation reaches the Swift side, which stops producing. */
  cancel(): void;
}

/** A `bridge.on` registration. Listeners do not keep the process alive. */
interface BridgeListener {
  remove(): void;
}

/** Cordova's success callback: once for async actions, once per value for stream actions. */
type BridgeSuccessCallback = (value: any) => void;
/** Cordova's fail callback: receives the same `BridgeError` as promises do. */
type BridgeFailCallback = (error: BridgeError) => void;

/**
 * The raw proxy over one plugin's actions: stream actions return a `BridgeSubscription`, the others a
 * Promise (unknown names reject with `PLUGIN_NOT_FOUND` / `ACTION_NOT_FOUND`).
 */
interface JSBridgePluginProxy {
  [action: string]: (...args: any[]) => any;
}

/** `bridge.plugins`: one proxy per registered plugin. Merge into this interface to type your plugins. */
interface JSBridgePlugins {
  [plugin: string]: JSBridgePluginProxy;
  /** The built-in diagnostic plugin. */
  Echo: EchoPluginProxy;
}

/** The built-in `Echo` plugin. */
interface EchoPluginProxy extends JSBridgePluginProxy {
  /** sync: `n + 1`. */
  ping(n: number, options?: BridgeCallOptions): Promise<number>;
  /** async: the same value back. */
  echo<T>(value: T, options?: BridgeCallOptions): Promise<T>;
  /** stream: `0 … count - 1`, `intervalMs` apart. */
  ticks(
    args: { count: number; intervalMs?: number },
    onValue: (tick: number) => void,
    onError?: (error: BridgeError) => void,
  ): BridgeSubscription;
  /** async: always fails, with `code` (default `ECHO_FAILURE`) and `message`. */
  fail(args?: { code?: string; message?: string }, options?: BridgeCallOptions): Promise<never>;
  /** sync: what the runtime gave the plugin. */
  context(args?: null, options?: BridgeCallOptions): Promise<{
    permissions: { net: string; location: boolean };
    appId: string;
    storageDir: string;
    configuration: unknown;
  }>;
}

interface JSBridge {
  /**
   * Cordova / JSCoreBridge shape. `args` is an array: one element passes that element, `[]` passes
   * `null`, a longer array passes the array (anything else is passed as is).
   */
  exec(
    success: BridgeSuccessCallback | null | undefined,
    fail: BridgeFailCallback | null | undefined,
    plugin: string,
    action: string,
    args?: unknown,
  ): void;
  /** Calls a sync action and returns its value; throws a `BridgeError`. `args` follows `exec`'s rule. */
  execSync<T = any>(plugin: string, action: string, args?: unknown): T;
  /** Calls a sync or async action with `args` as is. */
  call<T = any>(plugin: string, action: string, args?: unknown, options?: BridgeCallOptions): Promise<T>;
  /** Starts a stream action: `onValue` per value, `onError` on failure. */
  subscribe<T = any>(
    plugin: string,
    action: string,
    args: unknown,
    onValue: (value: T) => void,
    onError?: (error: BridgeError) => void,
  ): BridgeSubscription;
  /** Listens to a plugin's events. */
  on<T = any>(plugin: string, event: string, listener: (payload: T) => void): BridgeListener;
  /** Proxies over `call` / `subscribe`: `bridge.plugins.Echo.echo(value)`. */
  readonly plugins: JSBridgePlugins;
  /** Resolves once every plugin is set up; rejects with the set-up failures (`data.failures`). */
  readonly ready: Promise<void>;
  /** How many calls are waiting for an answer. */
  readonly pendingCalls: number;
  readonly BridgeError: typeof BridgeError;
}

declare var bridge: JSBridge;

/** Cordova's global: `cordova.exec` is `bridge.exec`. */
declare var cordova: {
  exec: JSBridge["exec"];
  readonly version: string;
  readonly plugins: JSBridgePlugins;
};

// MARK: - Timers (Node's conventions)

/** What `setTimeout`, `setInterval` and `setImmediate` return; usable as a number (its id). */
interface Timeout {
  /** Keeps the process alive while the timer is pending (the default). */
  ref(): this;
  /** Lets the process exit even though the timer is pending. */
  unref(): this;
  hasRef(): boolean;
  /** Restarts the timer with its original delay. */
  refresh(): this;
  /** Clears the timer. */
  close(): this;
  [Symbol.toPrimitive](): number;
}

declare function setTimeout<TArgs extends any[]>(callback: (...args: TArgs) => void, ms?: number, ...args: TArgs): Timeout;
declare function setInterval<TArgs extends any[]>(callback: (...args: TArgs) => void, ms?: number, ...args: TArgs): Timeout;
declare function setImmediate<TArgs extends any[]>(callback: (...args: TArgs) => void, ...args: TArgs): Timeout;
declare function clearTimeout(timeout: Timeout | number | string | null | undefined): void;
declare function clearInterval(timeout: Timeout | number | string | null | undefined): void;
declare function clearImmediate(timeout: Timeout | number | string | null | undefined): void;

// MARK: - process (a Node subset)

interface JSBridgeProcess {
  readonly title: string;
  /** `[execPath, scriptPath, ...arguments]`; with `-e`, `[execPath, ...arguments]`. */
  argv: string[];
  readonly argv0: string;
  readonly execPath: string;
  readonly execArgv: string[];
  env: Record<string, string | undefined>;
  readonly pid: number;
  readonly platform: string;
  readonly arch: string;
  /** `v` + the jsbridge version. */
  readonly version: string;
  readonly versions: { jsbridge: string };
  readonly release: { name: string };
  /** The exit code used when the script ends naturally (or `process.exit()` has no argument). */
  get exitCode(): number | undefined;
  set exitCode(code: number | string | null | undefined);
  /** Runs the `exit` listeners and ends the process at once with `code` (default `exitCode`, else 0). */
  exit(code?: number | string): never;
  cwd(): string;
  uptime(): number;
  hrtime: { (previous?: [number, number]): [number, number]; bigint(): bigint };
  memoryUsage: {
    (): { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };
    rss(): number;
  };
  /** Runs `callback` as a microtask. */
  nextTick<TArgs extends any[]>(callback: (...args: TArgs) => void, ...args: TArgs): void;
  /** Only the `exit` event is emitted. */
  on(event: "exit", listener: (code: number) => void): this;
  once(event: "exit", listener: (code: number) => void): this;
  off(event: "exit", listener: (code: number) => void): this;
  addListener(event: "exit", listener: (code: number) => void): this;
  removeListener(event: "exit", listener: (code: number) => void): this;
  readonly stdout: { write(text: unknown): boolean; readonly isTTY: boolean };
  readonly stderr: { write(text: unknown): boolean; readonly isTTY: boolean };
}

declare var process: JSBridgeProcess;
/** Node's alias of `globalThis`. */
declare var global: typeof globalThis;

// MARK: - CommonJS modules (relative and absolute paths, `.js` and `.json`; no node_modules lookup)

interface JSBridgeModule {
  id: string;
  filename: string;
  path: string;
  exports: any;
  parent: JSBridgeModule | null | undefined;
  loaded: boolean;
  children: JSBridgeModule[];
  require(id: string): any;
}

interface JSBridgeRequire {
  /** Loads `./x`, `../x`, `/abs/x` (trying `x`, `x.js`, `x.json`, `x/index.js`, `x/index.json`). */
  (id: string): any;
  resolve(id: string): string;
  cache: Record<string, JSBridgeModule>;
  main: JSBridgeModule | undefined;
}

declare var require: JSBridgeRequire;
declare var module: JSBridgeModule;
declare var exports: any;
declare var __filename: string;
declare var __dirname: string;
