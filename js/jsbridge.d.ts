// TypeScript typings for the globals the jsbridge engine adds to a script.
//
// Use with the standard ES and Web Worker libraries, which already describe what jsbridge implements as the
// web does (console, URL, URLSearchParams, TextEncoder/TextDecoder, AbortController/AbortSignal, EventTarget,
// structuredClone, queueMicrotask, performance, atob/btoa, the WHATWG streams with their queuing strategies,
// TextEncoderStream/TextDecoderStream, CompressionStream/DecompressionStream, MessageChannel/MessagePort/
// MessageEvent). This file declares only what
// differs or is new:
// `bridge`, `cordova`, `BridgeError`, the `process` subset, Node-style timers that return a `Timeout`, and
// CommonJS `require`/`module`.
//
// Each plugin's typings are a file of their own, written from the plugin's declaration by
// `jsbridge --typings <Plugin>` (the built-in plugins' are in js/typings/): they type its actions in
// `bridge.execSync`, `bridge.call`, `bridge.subscribe`, `bridge.on` and `bridge.plugins.<Plugin>`, and declare
// its JavaScript API (its globals).
//
//   // tsconfig.json
//   { "compilerOptions": { "target": "es2022", "lib": ["es2022", "webworker"], "types": [], "strict": true },
//     "files": ["path/to/jsbridge/js/jsbridge.d.ts", "path/to/jsbridge/js/typings/<Plugin>.d.ts", "script.ts"] }
//
// Not with the "dom" library: it declares globals that some plugins define differently (a plugin's API global
// may share a name with a browser interface). Do not combine it with @types/node: both declare `process`,
// `require` and the timers.

// MARK: - Errors

/**
 * The error codes scripts may see, as the keys of this interface: the bridge's own here; each plugin's
 * typings add its codes (`interface BridgeErrorCodes { COUNTER_LIMIT: true }`).
 */
interface BridgeErrorCodes {
  /** No plugin of that name is registered. */
  PLUGIN_NOT_FOUND: true;
  /** The plugin has no such action, or not of the kind called (sync vs async vs stream). */
  ACTION_NOT_FOUND: true;
  /** The arguments do not decode (or cannot be sent); `data.issues` lists `{path, message}` entries. */
  INVALID_ARGUMENT: true;
  /** The script was not granted the capability (`--allow-<name>`, `--allow-all`); `data.capability`. */
  PERMISSION_DENIED: true;
  /** The Swift action threw an error that has no code of its own. */
  PLUGIN_ERROR: true;
  /** The call or stream was cancelled (`AbortSignal`, `cancel()`). */
  CANCELLED: true;
  /** The call exceeded its `timeout` option. */
  TIMEOUT: true;
  /** The native side released the call without ever answering it. */
  DROPPED: true;
}

/** A code of the bridge or of a plugin whose typings are loaded, or any other plugin's own code. */
type BridgeErrorCode = keyof BridgeErrorCodes | (string & {});

/** One problem with an action's arguments: where (`rooms[2].price`, `""` for the whole value) and what. */
interface BridgeArgumentIssue {
  path: string;
  message: string;
  /** A machine-readable reason, where the plugin gives one (model conversion does). */
  code?: string;
  /** The value found there, where the plugin gives it. */
  input?: unknown;
}

/** Structured details of a `BridgeError`; which fields are present depends on the code. */
interface BridgeErrorData {
  /** `INVALID_ARGUMENT` (and a plugin's data errors): the problems, each with its path. */
  issues?: BridgeArgumentIssue[];
  /** `PERMISSION_DENIED`: the capability and what it guards. */
  capability?: string;
  permission?: string;
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

/**
 * The registered plugins' actions and events, by plugin name: each plugin's generated typings add an entry
 * (`jsbridge --typings <Plugin>`). An action is `{kind, args, result}` (`value` for streams).
 */
interface JSBridgePluginTypes {}

type BridgeKnownPlugin = keyof JSBridgePluginTypes & string;
type BridgeActions<P extends BridgeKnownPlugin> = JSBridgePluginTypes[P] extends { actions: infer A } ? A : never;
type BridgeEvents<P extends BridgeKnownPlugin> = JSBridgePluginTypes[P] extends { events: infer E } ? E : never;
/** The names of plugin `P`'s actions of the kinds `K`. */
type BridgeActionName<P extends BridgeKnownPlugin, K extends string> = {
  [A in keyof BridgeActions<P>]: BridgeActions<P>[A] extends { kind: K } ? A : never;
}[keyof BridgeActions<P>] & string;
type BridgeArgs<P extends BridgeKnownPlugin, A> = A extends keyof BridgeActions<P>
  ? BridgeActions<P>[A] extends { args: infer T } ? T : never
  : never;
type BridgeResult<P extends BridgeKnownPlugin, A> = A extends keyof BridgeActions<P>
  ? BridgeActions<P>[A] extends { result: infer T } ? T : BridgeActions<P>[A] extends { value: infer V } ? V : never
  : never;

/**
 * A plugin name without typings: the untyped overloads of `bridge` accept only those, so that a typed plugin's
 * unknown action (a typo) is an error.
 */
type BridgeUntypedPlugin<P extends string> = P extends BridgeKnownPlugin ? never : P;

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

/** The raw proxy over a plugin without typings: every name is a function (unknown ones reject). */
interface JSBridgePluginProxy {
  [action: string]: (...args: any[]) => any;
}

/**
 * The proxy over a typed plugin's actions: sync and async actions return promises, stream actions a
 * `BridgeSubscription`.
 */
type BridgeTypedProxy<P extends BridgeKnownPlugin> = {
  [A in keyof BridgeActions<P> & string]: BridgeActions<P>[A] extends { kind: "stream"; args: infer T; value: infer V }
    ? (args: T, onValue: (value: V) => void, onError?: (error: BridgeError) => void) => BridgeSubscription
    : BridgeActions<P>[A] extends { args: infer T; result: infer R }
      ? (args: T, options?: BridgeCallOptions) => Promise<R>
      : never;
};

/** `bridge.plugins`: one proxy per registered plugin. */
type JSBridgePlugins = { readonly [P in BridgeKnownPlugin]: BridgeTypedProxy<P> } & {
  readonly [plugin: string]: JSBridgePluginProxy;
};

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
  execSync<P extends BridgeKnownPlugin, A extends BridgeActionName<P, "sync">>(
    plugin: P,
    action: A,
    args?: BridgeArgs<P, A> | [BridgeArgs<P, A>],
  ): BridgeResult<P, A>;
  execSync<T = any, P extends string = string>(plugin: BridgeUntypedPlugin<P>, action: string, args?: unknown): T;
  /** Calls a sync or async action with `args` as is. */
  call<P extends BridgeKnownPlugin, A extends BridgeActionName<P, "sync" | "async">>(
    plugin: P,
    action: A,
    args?: BridgeArgs<P, A>,
    options?: BridgeCallOptions,
  ): Promise<BridgeResult<P, A>>;
  call<T = any, P extends string = string>(
    plugin: BridgeUntypedPlugin<P>,
    action: string,
    args?: unknown,
    options?: BridgeCallOptions,
  ): Promise<T>;
  /** Starts a stream action: `onValue` per value, `onError` on failure. */
  subscribe<P extends BridgeKnownPlugin, A extends BridgeActionName<P, "stream">>(
    plugin: P,
    action: A,
    args: BridgeArgs<P, A>,
    onValue: (value: BridgeResult<P, A>) => void,
    onError?: (error: BridgeError) => void,
  ): BridgeSubscription;
  subscribe<T = any, P extends string = string>(
    plugin: BridgeUntypedPlugin<P>,
    action: string,
    args: unknown,
    onValue: (value: T) => void,
    onError?: (error: BridgeError) => void,
  ): BridgeSubscription;
  /** Listens to a plugin's events. */
  on<P extends BridgeKnownPlugin, E extends keyof BridgeEvents<P> & string>(
    plugin: P,
    event: E,
    listener: (payload: BridgeEvents<P>[E]) => void,
  ): BridgeListener;
  on<T = any, P extends string = string>(
    plugin: BridgeUntypedPlugin<P>,
    event: string,
    listener: (payload: T) => void,
  ): BridgeListener;
  /** Proxies over `call` / `subscribe`: `bridge.plugins.Echo.echo(value)`. */
  readonly plugins: JSBridgePlugins;
  /** Sets every plugin up (each is otherwise set up before its first call); rejects with the failures. */
  readonly ready: Promise<void>;
  /** How many calls are waiting for an answer. */
  readonly pendingCalls: number;
  readonly BridgeError: typeof BridgeError;
}

declare var bridge: JSBridge;

// MARK: - Cordova and JSCoreBridge compatibility (docs/cordova.md)

/** A failure as `cordova.exec`'s fail callback receives it: a `BridgeError` with JSCoreBridge's fields too. */
interface CordovaExecError extends BridgeError {
  /** "4001" plugin not found, "4002" permission denied, "4003" action not found; otherwise the `code`. */
  resCode: string;
  /** The message. */
  resMsg: string;
}

/** Cordova's channel (`cordova.require("cordova/channel")`): plain, or sticky (late subscribers run at once). */
interface CordovaChannel {
  readonly type: string;
  /** 0 plain, 1 sticky not fired yet, 2 sticky fired. */
  readonly state: 0 | 1 | 2;
  readonly numHandlers: number;
  onHasSubscribersChange: (() => void) | null;
  subscribe(listener: ((...args: any[]) => void) | { handleEvent(...args: any[]): void }, context?: object): void;
  unsubscribe(listener: ((...args: any[]) => void) | { handleEvent(...args: any[]): void }): void;
  fire(...args: any[]): void;
}

/** The `cordova/channel` module: named channels and the start-up sequence. */
interface CordovaChannels {
  create(type: string): CordovaChannel;
  createSticky(type: string): CordovaChannel;
  /** Calls `handler` once every (sticky) channel has fired. */
  join(handler: () => void, channels: CordovaChannel[]): void;
  /** Makes `deviceready` wait until channel `feature` fires (created sticky if needed). */
  waitForInitialization(feature: string): void;
  initializationComplete(feature: string): void;
  deviceReadyChannelsArray: CordovaChannel[];
  deviceReadyChannelsMap: Record<string, CordovaChannel>;
  onDOMContentLoaded: CordovaChannel;
  onNativeReady: CordovaChannel;
  onPluginsReady: CordovaChannel;
  onCordovaReady: CordovaChannel;
  onDeviceReady: CordovaChannel;
  onPause: CordovaChannel;
  onResume: CordovaChannel;
  [name: string]: any;
}

/** The `cordova/argscheck` module. */
interface CordovaArgsCheck {
  enableChecks: boolean;
  /**
   * Checks `args` against `spec`, one letter per argument: A Array, D Date, N Number, S String, F Function,
   * O Object, * anything; upper case also allows null/undefined. Throws a `TypeError` naming the parameter.
   */
  checkArgs(spec: string, functionName: string, args: ArrayLike<unknown>, callee?: Function): void;
  getValue<T, D>(value: T | undefined, defaultValue: D): T | D;
}

/** `cordova.define`: registers module `id` (built on its first `require`). */
interface CordovaDefine {
  (id: string, factory: (require: (id: string) => any, exports: any, module: { id: string; exports: any }) => void): void;
  remove(id: string): void;
  readonly moduleMap: Record<string, { id: string; exports?: any }>;
}

/** `cordova/exec/proxy`: services answered in JavaScript, consulted by exec before the plugins. */
interface CordovaExecProxy {
  add(service: string, proxy: Record<string, (win: (result?: unknown, options?: { keepCallback?: boolean; status?: number; callbackId?: string }) => void, fail: (error?: unknown, options?: { keepCallback?: boolean; status?: number; callbackId?: string }) => void, args: unknown[]) => void>): typeof proxy;
  remove(service: string): any;
  get(service: string, action: string): ((...args: any[]) => void) | null | undefined;
}

/** Cordova's global, the same object as JSCoreBridge's `jsCoreBridge`. */
interface CordovaGlobal {
  /** `bridge.exec`; failures also carry `resCode` and `resMsg`. Services other than plugin names: see docs. */
  exec(success: BridgeSuccessCallback | null, fail: ((error: CordovaExecError) => void) | null, service: string, action: string, args?: unknown[]): void;
  /** JSCoreBridge's: the sync action's value, or `{resCode, resMsg}` on a failure (never throws a BridgeError). */
  execSync(plugin: string, action: string, args?: unknown): any;
  define: CordovaDefine;
  require(id: "cordova/channel"): CordovaChannels;
  require(id: "cordova/argscheck"): CordovaArgsCheck;
  require(id: "cordova/exec"): CordovaGlobal["exec"];
  require(id: "cordova/exec/proxy"): CordovaExecProxy;
  require(id: "cordova"): CordovaGlobal;
  require(id: string): any;
  readonly version: string;
  readonly platformVersion: string;
  readonly platformId: string;
  /** A plain namespace that plugins' `clobbers`/`merges` write into (native proxies: `bridge.plugins`). */
  plugins: Record<string, any>;
  /** cordova-js's callback table: JavaScript services' calls wait here. */
  callbacks: Record<string, { success?: (...args: any[]) => void; fail?: (...args: any[]) => void }>;
  callbackId: number;
  callbackStatus: Record<string, number>;
  callbackFromNative(callbackId: string, isSuccess: boolean, status: number, args: unknown[], keepCallback?: boolean): void;
  callbackSuccess(callbackId: string, args: { status: number; message?: unknown; keepCallback?: boolean }): void;
  callbackError(callbackId: string, args: { status: number; message?: unknown; keepCallback?: boolean }): void;
  /** JSCoreBridge's: a native result (`status` 0 success, else failure) for `cordova.callbacks[callbackId]`. */
  nativeCallback(callbackId: string, status: number, message: unknown, keepCallback?: boolean): void;
  /** Fires document event `type` with `data`'s fields: on a later turn, or at once with `noDetach`. */
  fireDocumentEvent(type: string, data?: object | null, noDetach?: boolean): void;
  fireWindowEvent(type: string, data?: object | null): void;
  addDocumentEventHandler(type: string): CordovaChannel;
  addStickyDocumentEventHandler(type: string): CordovaChannel;
  addWindowEventHandler(type: string): CordovaChannel;
  removeDocumentEventHandler(type: string): void;
  removeWindowEventHandler(type: string): void;
  addConstructor(func: () => void): void;
}

declare var cordova: CordovaGlobal;
declare var jsCoreBridge: CordovaGlobal;

// `document` and `window` exist only with `--cordova` (docs/cordova.md): their declarations are in cordova.d.ts,
// for scripts that run with it.

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
  /** `node`: the Node API level the built-in modules follow. */
  readonly versions: { jsbridge: string; node: string };
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
  /**
   * The runtime fires `exit`, `warning` and the signals SIGINT, SIGTERM, SIGTSTP, SIGCONT (a signal with a
   * listener only calls its listeners: docs/running-scripts.md, "Signals"; listeners do not keep the process
   * alive); other events fire only through `emit`.
   */
  on(event: "exit", listener: (code: number) => void): this;
  on(event: "warning", listener: (warning: Error) => void): this;
  on(event: JSBridgeSignal, listener: (signal: JSBridgeSignal, number: number) => void): this;
  on(event: string, listener: (...args: any[]) => void): this;
  once(event: string, listener: (...args: any[]) => void): this;
  off(event: string, listener: (...args: any[]) => void): this;
  addListener(event: string, listener: (...args: any[]) => void): this;
  removeListener(event: string, listener: (...args: any[]) => void): this;
  emit(event: string, ...args: any[]): boolean;
  listeners(event: string): Function[];
  listenerCount(event: string): number;
  /** Prints `(jsbridge:<pid>) <type>: <message>` on stderr, then fires `warning`. */
  emitWarning(warning: string | Error, type?: string, code?: string): void;
  getuid(): number;
  getgid(): number;
  /** The standard input as a readable stream (Buffers, or strings after `setEncoding`). */
  readonly stdin: JSBridgeStdin;
  readonly stdout: { write(text: unknown): boolean; readonly isTTY: boolean };
  readonly stderr: { write(text: unknown): boolean; readonly isTTY: boolean };
}

/** `process.stdin`: flowing once a `data` listener is added; keeps the process alive only while read. */
interface JSBridgeStdin extends AsyncIterable<Buffer | string> {
  readonly fd: 0;
  readonly isTTY: boolean;
  readonly readableEnded: boolean;
  on(event: "data", listener: (chunk: Buffer | string) => void): this;
  on(event: "end" | "close" | "readable" | "pause", listener: () => void): this;
  on(event: "error", listener: (error: Error) => void): this;
  once(event: string, listener: (...args: any[]) => void): this;
  off(event: string, listener: (...args: any[]) => void): this;
  setEncoding(encoding: BufferEncoding): this;
  pause(): this;
  resume(): this;
  isPaused(): boolean;
  read(size?: number): Buffer | string | null;
  pipe<T extends { write(chunk: any): unknown }>(destination: T, options?: { end?: boolean }): T;
  ref(): this;
  unref(): this;
  destroy(error?: Error): this;
}
/** The signals a script can listen to. */
type JSBridgeSignal = "SIGINT" | "SIGTERM" | "SIGTSTP" | "SIGCONT";

declare var process: JSBridgeProcess;

// MARK: - Buffer (node:buffer)

type BufferEncoding =
  | "utf8" | "utf-8" | "hex" | "base64" | "base64url" | "latin1" | "binary" | "ascii" | "utf16le" | "utf-16le"
  | "ucs2" | "ucs-2";

/** Node's Buffer: a Uint8Array with encodings and number reads and writes. */
interface Buffer extends Uint8Array {
  toString(encoding?: BufferEncoding, start?: number, end?: number): string;
  toJSON(): { type: "Buffer"; data: number[] };
  write(string: string, offset?: number, length?: number, encoding?: BufferEncoding): number;
  write(string: string, encoding?: BufferEncoding): number;
  equals(other: Uint8Array): boolean;
  compare(target: Uint8Array, targetStart?: number, targetEnd?: number, sourceStart?: number, sourceEnd?: number): number;
  copy(target: Uint8Array, targetStart?: number, sourceStart?: number, sourceEnd?: number): number;
  /** A view of the same memory (as `subarray`). */
  slice(start?: number, end?: number): Buffer;
  subarray(start?: number, end?: number): Buffer;
  fill(value: string | number | Uint8Array, offset?: number, end?: number, encoding?: BufferEncoding): this;
  indexOf(value: string | number | Uint8Array, byteOffset?: number, encoding?: BufferEncoding): number;
  lastIndexOf(value: string | number | Uint8Array, byteOffset?: number, encoding?: BufferEncoding): number;
  includes(value: string | number | Uint8Array, byteOffset?: number, encoding?: BufferEncoding): boolean;
  swap16(): this;
  swap32(): this;
  swap64(): this;
  readUInt8(offset?: number): number;
  readUInt16LE(offset?: number): number;
  readUInt16BE(offset?: number): number;
  readUInt32LE(offset?: number): number;
  readUInt32BE(offset?: number): number;
  readUIntLE(offset: number, byteLength: number): number;
  readUIntBE(offset: number, byteLength: number): number;
  readInt8(offset?: number): number;
  readInt16LE(offset?: number): number;
  readInt16BE(offset?: number): number;
  readInt32LE(offset?: number): number;
  readInt32BE(offset?: number): number;
  readIntLE(offset: number, byteLength: number): number;
  readIntBE(offset: number, byteLength: number): number;
  readFloatLE(offset?: number): number;
  readFloatBE(offset?: number): number;
  readDoubleLE(offset?: number): number;
  readDoubleBE(offset?: number): number;
  readBigInt64LE(offset?: number): bigint;
  readBigInt64BE(offset?: number): bigint;
  readBigUInt64LE(offset?: number): bigint;
  readBigUInt64BE(offset?: number): bigint;
  writeUInt8(value: number, offset?: number): number;
  writeUInt16LE(value: number, offset?: number): number;
  writeUInt16BE(value: number, offset?: number): number;
  writeUInt32LE(value: number, offset?: number): number;
  writeUInt32BE(value: number, offset?: number): number;
  writeUIntLE(value: number, offset: number, byteLength: number): number;
  writeUIntBE(value: number, offset: number, byteLength: number): number;
  writeInt8(value: number, offset?: number): number;
  writeInt16LE(value: number, offset?: number): number;
  writeInt16BE(value: number, offset?: number): number;
  writeInt32LE(value: number, offset?: number): number;
  writeInt32BE(value: number, offset?: number): number;
  writeIntLE(value: number, offset: number, byteLength: number): number;
  writeIntBE(value: number, offset: number, byteLength: number): number;
  writeFloatLE(value: number, offset?: number): number;
  writeFloatBE(value: number, offset?: number): number;
  writeDoubleLE(value: number, offset?: number): number;
  writeDoubleBE(value: number, offset?: number): number;
  writeBigInt64LE(value: bigint, offset?: number): number;
  writeBigInt64BE(value: bigint, offset?: number): number;
  writeBigUInt64LE(value: bigint, offset?: number): number;
  writeBigUInt64BE(value: bigint, offset?: number): number;
}

interface BufferConstructor {
  readonly prototype: Buffer;
  from(string: string, encoding?: BufferEncoding): Buffer;
  from(data: ArrayLike<number> | Uint8Array | { type: "Buffer"; data: number[] }): Buffer;
  /** A view of `buffer`'s memory. */
  from(buffer: ArrayBuffer, byteOffset?: number, length?: number): Buffer;
  alloc(size: number, fill?: string | number | Uint8Array, encoding?: BufferEncoding): Buffer;
  allocUnsafe(size: number): Buffer;
  allocUnsafeSlow(size: number): Buffer;
  concat(list: readonly Uint8Array[], totalLength?: number): Buffer;
  byteLength(value: string | ArrayBuffer | ArrayBufferView, encoding?: BufferEncoding): number;
  isBuffer(value: unknown): value is Buffer;
  isEncoding(encoding: string): encoding is BufferEncoding;
  compare(a: Uint8Array, b: Uint8Array): -1 | 0 | 1;
  readonly poolSize: number;
}

declare var Buffer: BufferConstructor;
/** Node's alias of `globalThis`. */
declare var global: typeof globalThis;

// MARK: - URLPattern (the WHATWG URL Pattern Standard; this TypeScript's lib does not have it yet)

interface URLPatternInit {
  protocol?: string;
  username?: string;
  password?: string;
  hostname?: string;
  port?: string;
  pathname?: string;
  search?: string;
  hash?: string;
  baseURL?: string;
}

type URLPatternInput = string | URLPatternInit;

interface URLPatternOptions {
  ignoreCase?: boolean;
}

interface URLPatternComponentResult {
  input: string;
  groups: Record<string, string | undefined>;
}

interface URLPatternResult {
  inputs: URLPatternInput[];
  protocol: URLPatternComponentResult;
  username: URLPatternComponentResult;
  password: URLPatternComponentResult;
  hostname: URLPatternComponentResult;
  port: URLPatternComponentResult;
  pathname: URLPatternComponentResult;
  search: URLPatternComponentResult;
  hash: URLPatternComponentResult;
}

/** A URL pattern: `new URLPattern("https://example.com/books/:id")`, `new URLPattern({ pathname: "/:id(\\d+)" })`. */
interface URLPattern {
  test(input?: URLPatternInput, baseURL?: string): boolean;
  exec(input?: URLPatternInput, baseURL?: string): URLPatternResult | null;
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly hostname: string;
  readonly port: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
  readonly hasRegExpGroups: boolean;
}

declare var URLPattern: {
  prototype: URLPattern;
  new (input: URLPatternInput, baseURL: string, options?: URLPatternOptions): URLPattern;
  new (input?: URLPatternInput, options?: URLPatternOptions): URLPattern;
};

// MARK: - Modules (docs/running-scripts.md, "Modules and packages")

/** `import.meta` in an ES module. */
interface ImportMeta {
  /** The module's `file:` URL (percent-encoded). */
  url: string;
  /** The module's absolute path. */
  readonly filename: string;
  /** The directory of `filename`. */
  readonly dirname: string;
  /** True in the main module (the script given to `jsbridge`). */
  readonly main: boolean;
  /** Resolves a specifier as an `import` from this module would: a `file:` URL, or `node:x` for a built-in. */
  resolve(specifier: string): string;
}

declare module "node:module" {
  /** A `require` that resolves from `filename` (an absolute path, or a `file:` URL such as `import.meta.url`). */
  export function createRequire(filename: string | URL): JSBridgeRequire;
  /** Node's built-in module names (without `node:`). */
  export const builtinModules: readonly string[];
  /** Whether `name` (with or without `node:`) is a Node built-in module name. */
  export function isBuiltin(name: string): boolean;
}

declare module "module" {
  export * from "node:module";
}

// CommonJS: relative and absolute paths (`.js`, `.json`, directories), `node:` built-ins, `jsbridge:` plugin
// modules, and packages in `node_modules`.

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
  /**
   * Loads `./x`, `../x`, `/abs/x` (trying `x`, `x.js`, `x.json`, then a directory's `main` and
   * `index.js` / `index.json`), a built-in (`node:x`), a plugin's module (`jsbridge:x`) or a package from
   * `node_modules` (its `exports` with the `require` condition, else `main`). An ES module gives its namespace.
   */
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

