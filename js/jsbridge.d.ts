// TypeScript typings for the globals jsbridge adds to a script.
//
// Use with the standard ES and Web Worker libraries, which already describe what jsbridge implements as the
// web does (console, URL, URLSearchParams, TextEncoder/TextDecoder, AbortController/AbortSignal, EventTarget,
// structuredClone, queueMicrotask, performance, atob/btoa). This file declares only what differs or is new:
// `bridge`, `cordova`, `BridgeError`, the `process` subset, Node-style timers that return a `Timeout`,
// CommonJS `require`/`module`, and the built-in plugins' globals: `Storage`, `localStorage`, `sessionStorage`,
// `Model`, `Location`, `navigator.geolocation` and `GeolocationPositionError`.
//
//   // tsconfig.json
//   { "compilerOptions": { "target": "es2022", "lib": ["es2022", "webworker"], "types": [], "strict": true },
//     "files": ["path/to/jsbridge/js/jsbridge.d.ts", "script.ts"] }
//
// Not with the "dom" library: it declares `Storage`, `Location` and `navigator` as the browser's, which
// conflicts with jsbridge's `Storage` (also the Promise API) and `Location` (the plugin's namespace).
// Either library declares more than jsbridge has (e.g. `self`, `fetch`, `location`, most of `navigator`,
// whose only members here are `geolocation` and `userAgent`).
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

/** The codes of the built-in plugins (besides `PERMISSION_DENIED`, `TIMEOUT` and `INVALID_ARGUMENT`). */
type BridgePluginErrorCode =
  /** Storage: a write would take the app id over its quota (`name` is `"QuotaExceededError"`). */
  | "QUOTA_EXCEEDED"
  /** Storage: the database file is damaged; `data.path`, and `data.movedTo` where it was kept. */
  | "STORAGE_CORRUPT"
  /** Storage: any other storage failure (directory, disk full, lock held too long); `data.path`. */
  | "STORAGE_ERROR"
  /** Model: the value does not convert; `data.model` and `data.issues` (`ModelIssue`s). */
  | "DATA_FORMAT"
  /** Model: no model of that name is defined; `data.model`. */
  | "UNKNOWN_MODEL"
  /** Model: a schema names an unknown type (`"strng"`); `data.path` in the schema. */
  | "UNKNOWN_TYPE"
  /** Model: a malformed schema or option; `data.path` in the schema. */
  | "INVALID_SCHEMA"
  /** Model: a different schema under an existing name without `replace: true`. */
  | "REDEFINITION"
  /** Location: no position could be had (gpsd unreachable, a source that ended without a fix, …). */
  | "POSITION_UNAVAILABLE"
  /** Location: the offline GeoNames index is missing or damaged (run `scripts/setup.sh`); `data.path`. */
  | "GEOCODER_UNAVAILABLE";

/** A core code, a built-in plugin's code, or any plugin's own code. */
type BridgeErrorCode = BridgeCoreErrorCode | BridgePluginErrorCode | (string & {});

/** One problem with an action's arguments: where (`rooms[2].price`, `""` for the whole value) and what. */
interface BridgeArgumentIssue {
  path: string;
  message: string;
}

/** Structured details of a `BridgeError`; which fields are present depends on the code. */
interface BridgeErrorData {
  /** `INVALID_ARGUMENT`: `{path, message}` entries; `DATA_FORMAT`: `ModelIssue`s, which add `code` and `input`. */
  issues?: Array<BridgeArgumentIssue & Partial<ModelIssue>>;
  /** `QUOTA_EXCEEDED`: the quota, the bytes in use and the bytes the write needed. */
  quotaBytes?: number;
  usedBytes?: number;
  requiredBytes?: number;
  /** The file (`STORAGE_CORRUPT`, `STORAGE_ERROR`, `GEOCODER_UNAVAILABLE`); where in the schema (`INVALID_SCHEMA`, …). */
  path?: string;
  /** `STORAGE_CORRUPT`: where the damaged file was moved (null if it could not be). */
  movedTo?: string | null;
  /** `DATA_FORMAT`, `UNKNOWN_MODEL`: the model. */
  model?: string;
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

// MARK: - Storage (the Storage plugin: docs/storage.md)

/**
 * Web Storage: `localStorage` (SQLite, per app id, synchronous and durable once a call returns) and
 * `sessionStorage` (in memory, this process only). Keys and values are converted with `String(…)`; stored
 * keys are also properties (`localStorage.theme = "dark"`), the interface's own members win over keys.
 * A write over the quota throws a `BridgeError` named `"QuotaExceededError"` (code `QUOTA_EXCEEDED`).
 */
interface Storage {
  /** How many keys are stored. */
  readonly length: number;
  /** The `index`th key (code point order for localStorage, insertion order for sessionStorage), or null. */
  key(index: number): string | null;
  /** The value, or null when the key is not stored. */
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  /** Removes every key of this storage (localStorage: of this app id only, not the Promise API's groups). */
  clear(): void;
  [name: string]: any;
}

/** JSON values that `Storage` can store: anything `JSON.stringify` keeps, but not `undefined` itself. */
type StorageValue = {} | null;

/** The Promise API of one group: on `Storage.group(name)`, and on `Storage` itself for the default group. */
interface StorageGroupMethods {
  /** The stored value, else the registered default, else `undefined`. */
  get<T = any>(key: string): Promise<T | undefined>;
  /** Stores `value` as JSON text; `undefined`, functions, symbols, BigInts and cycles reject (`INVALID_ARGUMENT`). */
  set(key: string, value: StorageValue): Promise<void>;
  /** Removes `key`; resolves to whether it was stored. */
  remove(key: string): Promise<boolean>;
  /** Whether `key` is stored or has a registered default. */
  has(key: string): Promise<boolean>;
  /** Stored keys and keys with defaults, in code point order. */
  keys(): Promise<string[]>;
  /** `[key, value]` pairs of stored values and defaults, in key order. */
  entries<T = any>(): Promise<Array<[string, T]>>;
  /** Removes every stored key of the group (registered defaults stay). */
  clear(): Promise<void>;
  /** Values returned for keys that are not stored: per process, never written (NSUserDefaults' registration domain). */
  registerDefaults(values: { readonly [key: string]: StorageValue }): void;
  /** Stores `model` as an archive of model `name` (`Model.archive`'s stable form; needs the Model plugin). */
  archiveModel(key: string, name: string, model: object): Promise<void>;
  /**
   * The archived model converted again with its model's current schema; `null` when nothing is stored.
   * Rejects with `DATA_FORMAT` (and `data.issues`) when it no longer fits, or holds another model than `name`.
   */
  unarchiveModel<T = any>(key: string, name?: string): Promise<T | null>;
}

/** A group of JSON values of the Promise API (`Storage.group(name)`); every call runs off the JS thread. */
interface StorageGroup extends StorageGroupMethods {
  /** The group's name (`"default"` for `Storage.defaultGroup`). */
  readonly name: string;
  /** Applies `ops` atomically, all or none (ops without a `group` act on this group). */
  transaction(ops: readonly StorageOperation[]): Promise<void>;
  /** Watches one key of the group. */
  watch(key: string, listener: (change: StorageChange) => void): StorageWatch;
  /** Watches the whole group. */
  watch(listener: (change: StorageChange) => void): StorageWatch;
}

/** One operation of `Storage.transaction`; without a `group`, the default group (or the group's own). */
type StorageOperation =
  | { op: "set"; key: string; value: StorageValue; group?: string | StorageGroup }
  | { op: "remove"; key: string; group?: string | StorageGroup }
  | { op: "clear"; group?: string | StorageGroup };

/** What a watch listener receives, for writes of this process (after they commit) and of other processes. */
type StorageChange = StorageGroupChange | LocalStorageChange;

interface StorageGroupChange {
  /** The group written. */
  group: string;
  storage?: undefined;
  /** The key written; null when the group was cleared. */
  key: string | null;
  /** The new value (parsed JSON); `undefined` when removed. */
  value: any;
  removed: boolean;
  /** `"local"`: this process; `"external"`: another process on the same database. */
  origin: "local" | "external";
}

interface LocalStorageChange {
  group: null;
  storage: "localStorage";
  /** The key written; null when localStorage was cleared. */
  key: string | null;
  /** The new string; null when removed. */
  value: string | null;
  removed: boolean;
  origin: "local" | "external";
}

/** A `watch` registration. Watches do not keep the process alive. */
interface StorageWatch {
  /** Resolves once the watch is registered natively. */
  readonly ready: Promise<void>;
  remove(): void;
}

/** What `Storage.watch` can watch: a key of the default group, a group, `localStorage`, or `{group?, key?}`. */
type StorageWatchTarget =
  | string
  | StorageGroup
  | Storage
  | { group?: string | StorageGroup | Storage | null; key?: string | null };

/**
 * The `Storage` global: Web Storage's interface (`localStorage instanceof Storage`) and the Promise API,
 * whose `get`/`set`/`remove`/`has`/`keys`/`entries`/`clear`/`registerDefaults` act on the group `"default"`.
 */
interface StorageConstructor extends StorageGroupMethods {
  readonly prototype: Storage;
  /** Throws `TypeError: Illegal constructor`: the Storage objects are `localStorage` and `sessionStorage`. */
  new (): never;
  /** The group `name` (a non-empty string; none or null: the default group); the same object for the same name. */
  group(name?: string | StorageGroup | null): StorageGroup;
  /** Applies `ops` (across groups) atomically, all or none (the quota included). */
  transaction(ops: readonly StorageOperation[]): Promise<void>;
  /**
   * Calls `listener` on changes of a key of the default group (`"key"`), of `{group, key}`, of a whole group
   * (`Storage.group(name)`, `{group}`) or of `localStorage` (sessionStorage cannot be watched).
   */
  watch(target: StorageWatchTarget, listener: (change: StorageChange) => void): StorageWatch;
  /** The bytes used by this app id (localStorage and every group) and its quota (null without one). */
  usage(): Promise<{ usedBytes: number; quotaBytes: number | null }>;
  /** The names of the groups holding values. */
  groups(): Promise<string[]>;
  /** The group `"default"`. */
  readonly defaultGroup: StorageGroup;
  /** The class of groups (for `instanceof`; get groups with `Storage.group(name)`). */
  readonly StorageGroup: { readonly prototype: StorageGroup; new (name: string): StorageGroup };
}

declare var Storage: StorageConstructor;
declare var localStorage: Storage;
declare var sessionStorage: Storage;

// MARK: - Model (the Model plugin: docs/model-conversion.md)

/** Scalar type names. Other names are models (`"Room"`); `"[T]"`, `"T[]"`, `"Set<T>"`, `"{T}"`, `"T?"`, … compose. */
type ModelScalarType =
  | "string"
  | "int"
  | "integer"
  | "double"
  | "number"
  | "float"
  | "bool"
  | "boolean"
  | "date"
  | "url"
  | "any"
  | "raw"
  | "json";

/** A type: a name (scalar or model, composable), `[T]` (an array), `{set: T}`, `{map: T}` or `{optional: T}`. */
type ModelType =
  | ModelScalarType
  | (string & {})
  | [ModelType]
  | { set: ModelType }
  | { map: ModelType }
  | { optional: ModelType };

/** A field with options. */
interface ModelFieldOptions {
  type: ModelType;
  /** The JSON key (a dotted key path is allowed). */
  key?: string;
  /** Candidate JSON keys, tried in order: the first present with a non-null value wins. */
  keys?: string[];
  optional?: boolean;
  /** Fields are required unless optional, with a `default`, or `required: false`. */
  required?: boolean;
  /** The value for a missing or null key. */
  default?: unknown;
  /** The allowed values, compared after conversion (`oneOf` and `scope` are aliases). */
  enum?: unknown[];
  oneOf?: unknown[];
  scope?: unknown[];
  /** Numbers: the value; strings: the length; arrays, sets, maps: the count (`minimum`/`maximum` are aliases). */
  min?: number;
  max?: number;
  minimum?: number;
  maximum?: number;
  /** `"default"` (alias `"null"`): an invalid value becomes the `default` (or null) and a warning. */
  onInvalid?: "fail" | "default" | "null";
  strict?: boolean;
}

/** A field of `Model.define`'s schema: a type name, `[T]`, or a type with options. */
type ModelFieldSpec = ModelScalarType | (string & {}) | [ModelType] | ModelFieldOptions;

/** `Model.define`'s third argument. */
interface ModelDefineOptions<M = any> {
  /** Only the exact JSON types convert (see the conversion table). */
  strict?: boolean;
  /** `"snake_case"` (alias `"snake"`): `avatarURL` reads `avatar_url` first, then `avatarURL`. */
  keyStrategy?: "none" | "snake_case" | "snake";
  onInvalid?: "fail" | "default" | "null";
  /** Fields to convert (the others are left out); `whitelist` is an alias. */
  only?: string[];
  whitelist?: string[];
  /** Fields to leave out; `blacklist` is an alias. */
  ignore?: string[];
  blacklist?: string[];
  /** The input's `key` picks the concrete model: `{ key: "kind", mapping: { circle: "Circle" } }`. */
  discriminator?: { key: string; mapping: { [value: string]: string } };
  /** Allows a different schema under an existing name. */
  replace?: boolean;
  /** Runs on each converted model, innermost first; modifies it in place (e.g. adds back-references). */
  after?(model: M, parent: any): void;
}

/** A field as `Model.define` and `Model.schema` describe it (only the options that were given). */
interface ModelFieldDescription {
  /** The normalized type (`"int"`, `"[Room]"`, `"Set<string>?"`, …). */
  type: string;
  keys?: string[];
  required?: boolean;
  default?: unknown;
  enum?: unknown[];
  min?: number;
  max?: number;
  onInvalid?: "fail" | "default";
  strict?: boolean;
}

/** A model's schema: what `Model.define` returns and `Model.schema` gives. */
interface ModelSchemaDescription {
  name: string;
  fields: { [field: string]: ModelFieldDescription };
  options: {
    strict?: boolean;
    keyStrategy?: "snake_case";
    onInvalid?: "default";
    only?: string[];
    ignore?: string[];
    discriminator?: { key: string; mapping: { [value: string]: string } };
  };
}

/** Options of `convert`, `convertAsync` and `validate`. */
interface ModelConversionOptions {
  strict?: boolean;
  /** Strings that count as null in lenient mode (default `"null"`, `"<null>"`, `"nil"`, `"undefined"`, …). */
  nullLikes?: string[];
  /** How deep conversion descends (1…500, default 200); deeper is `TOO_DEEP`. */
  maxDepth?: number;
  /** How many issues are collected (default 1000), then `TOO_MANY_ISSUES`. */
  maxIssues?: number;
}

/** The codes of `ModelIssue`s (Swift transforms can add their own). */
type ModelIssueCode =
  | "REQUIRED"
  | "NULL"
  | "TYPE"
  | "NOT_INTEGER"
  | "OUT_OF_RANGE"
  | "NOT_FINITE"
  | "NOT_IN_ENUM"
  | "DATE_FORMAT"
  | "URL_FORMAT"
  | "UNKNOWN_MODEL"
  | "UNKNOWN_DISCRIMINATOR"
  | "TOO_DEEP"
  | "JSON_PARSE"
  | "INVALID_UNICODE"
  | "TOO_MANY_ISSUES"
  | (string & {});

/** One problem converting a value: where in the input (`rooms[2].price`, `""` for the root), what, and the input. */
interface ModelIssue {
  path: string;
  code: ModelIssueCode;
  message: string;
  /** The offending input value (large containers summarized); absent for a missing key. */
  input?: unknown;
}

/** The `Model` global: schema-driven JSON ⇄ model conversion. Failures throw `BridgeError`s. */
interface JSBridgeModel {
  /** Defines a model (names start with an uppercase letter); redefining the same schema is accepted. */
  define<M = any>(
    name: string,
    schema: { [field: string]: ModelFieldSpec },
    options?: ModelDefineOptions<M> | null,
  ): ModelSchemaDescription;
  /** Converts synchronously; throws `DATA_FORMAT` with `data.issues`, `UNKNOWN_MODEL`. */
  convert<T = any>(name: string, value: unknown, options?: ModelConversionOptions | null): T;
  /** Converts off the JS thread (large payloads); rejects as `convert` throws. */
  convertAsync<T = any>(name: string, value: unknown, options?: ModelConversionOptions | null): Promise<T>;
  /** Model → JSON: the first keys, key paths rebuilt, dates as ISO 8601 (`Date` objects accepted). */
  toJSON(name: string, model: unknown): any;
  /** The issues `value` has as model `name` (`[]` when it converts). */
  validate(name: string, value: unknown, options?: ModelConversionOptions | null): ModelIssue[];
  /** Plausible data guessed from field names and types; `{ json: true }` gives the JSON (wire) form. */
  sample<T = any>(name: string, options?: { json?: boolean }): T;
  /** The schema as defined. */
  schema(name: string): ModelSchemaDescription;
  /** The names of the defined models. */
  names(): string[];
  /** A stable text form `{"$model", "$version": 1, "value"}` (same model → same text), e.g. for `Storage`. */
  archive(name: string, model: unknown): string;
  /** Converts an archive again: `{model, value}`. */
  unarchive<T = any>(text: string): { model: string; value: T };
  /** Field-wise equality of the declared fields (null = missing). */
  equals(name: string, a: unknown, b: unknown): boolean;
  /** A hash consistent with `equals` (a non-negative integer). */
  hash(name: string, model: unknown): number;
  /** A deep copy (converted again, so `after` hooks run). */
  copy<T = any>(name: string, model: T): T;
  /** A readable form: `Room(number: 1, price: 2)`. */
  describe(name: string, model: unknown): string;
}

declare var Model: Readonly<JSBridgeModel>;

// MARK: - Location (the Location plugin: docs/location.md)

/** W3C `PositionOptions` (milliseconds). */
interface PositionOptions {
  /** Accepted; it has no effect (each source has one accuracy). */
  enableHighAccuracy?: boolean;
  /** Default `Infinity`; the clock starts when the native plugin receives the request. */
  timeout?: number;
  /** Default 0: a fix received at most this long ago is returned at once. */
  maximumAge?: number;
}

/** W3C `GeolocationCoordinates`: unknown values are null; `heading` is `NaN` when `speed` is 0. */
interface GeolocationCoordinates {
  readonly latitude: number;
  readonly longitude: number;
  /** Metres above the WGS 84 ellipsoid. */
  readonly altitude: number | null;
  /** Metres. */
  readonly accuracy: number;
  readonly altitudeAccuracy: number | null;
  /** Degrees clockwise from true north. */
  readonly heading: number | null;
  /** Metres per second. */
  readonly speed: number | null;
  toJSON(): Omit<GeolocationCoordinates, "toJSON">;
}

/** W3C `GeolocationPosition`. (Its class becomes a global only once `Location` or `navigator` was read.) */
interface GeolocationPosition {
  readonly coords: GeolocationCoordinates;
  /** Milliseconds since the epoch (the receiver's time for gpsd and NMEA). */
  readonly timestamp: number;
  toJSON(): { coords: Omit<GeolocationCoordinates, "toJSON">; timestamp: number };
}

/** W3C `GeolocationPositionError` (not an `Error`): `code` 1, 2 or 3, and the bridge's own code. */
interface GeolocationPositionError {
  readonly code: number;
  readonly message: string;
  /** The `BridgeError` code behind it (`PERMISSION_DENIED`, `POSITION_UNAVAILABLE`, `TIMEOUT`, …). */
  readonly bridgeCode?: BridgeErrorCode;
  readonly PERMISSION_DENIED: 1;
  readonly POSITION_UNAVAILABLE: 2;
  readonly TIMEOUT: 3;
}

declare var GeolocationPositionError: {
  readonly prototype: GeolocationPositionError;
  new (code: number, message: string, bridgeCode?: BridgeErrorCode): GeolocationPositionError;
  readonly PERMISSION_DENIED: 1;
  readonly POSITION_UNAVAILABLE: 2;
  readonly TIMEOUT: 3;
};

type PositionCallback = (position: GeolocationPosition) => void;
type PositionErrorCallback = (positionError: GeolocationPositionError) => void;

/** W3C `navigator.geolocation` (needs `--allow-location`; otherwise errors with code 1). */
interface Geolocation {
  getCurrentPosition(
    successCallback: PositionCallback,
    errorCallback?: PositionErrorCallback | null,
    options?: PositionOptions,
  ): void;
  /** Calls back per fix (and with code 3 per `timeout` without one) until `clearWatch`; keeps the script alive. */
  watchPosition(
    successCallback: PositionCallback,
    errorCallback?: PositionErrorCallback | null,
    options?: PositionOptions,
  ): number;
  /** Stops the watch: the native stream is cancelled. */
  clearWatch(watchId: number): void;
}

/** jsbridge's `navigator` (with the Location plugin) has only `geolocation` and `userAgent` (`"jsbridge/<version>"`). */
interface WorkerNavigator {
  readonly geolocation: Geolocation;
}

/** Coordinates as the Location namespace accepts them: `{latitude, longitude}`, a position, or `[lat, lon]`. */
type LocationCoordinates =
  | { latitude: number; longitude: number }
  | { coords: { latitude: number; longitude: number } }
  | [latitude: number, longitude: number];

/** Options of `getCity`, `getAddress` and `getPositionAndAddress`. */
interface LocationPlaceOptions {
  /** Localized city names: `zh`, `ja`, `ko`, `ru`, `ar`, `he`, `el`, `th`, `hi`, `ka`, `hy`. */
  lang?: string;
  /** How far from a city's centre (km, default 50, or the configuration's). */
  maxDistanceKm?: number;
  /** For the current position (when no coordinates are given): ms, default none. */
  timeout?: number;
  /** For the current position: ms, default 60000. */
  maximumAge?: number;
}

/** A city found by offline reverse geocoding (GeoNames). */
interface LocationCity {
  /** Localized when `lang` asked for it and the data has it. */
  city: string;
  /** The first-level division's name (the data names them for the US only). */
  state: string | null;
  /** GeoNames' first-level division code (`CA`, `11`, …). */
  stateCode: string | null;
  /** English name. */
  country: string | null;
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  /** IANA time zone. */
  timezone: string;
  population: number;
  /** From the queried point to the city's centre. */
  distanceKm: number;
  /** The nearest place when it is a part of `city`, else null. */
  district: string | null;
  /** The language of `city`, null for GeoNames' default name. */
  lang: string | null;
  latitude: number;
  longitude: number;
  geonameId: number;
}

/** The `Location` global (IPHLocationManager-style, promises). Reading the device needs `--allow-location`. */
interface JSBridgeLocation {
  /** Whether the script was given `--allow-location` (or `--allow-all`). */
  checkPermission(): Promise<"granted" | "denied">;
  /** Rejects with a `BridgeError`: `PERMISSION_DENIED`, `POSITION_UNAVAILABLE`, `TIMEOUT`. */
  getCurrentPosition(options?: PositionOptions | null): Promise<GeolocationPosition>;
  /**
   * Calls `listener` per fix until `cancel()`; each `timeout` without a fix and failures go to `onError`
   * (without one, a failure is reported as an unhandled rejection). `done` resolves when the watch ends.
   */
  watch(
    options: PositionOptions | null | undefined,
    listener: (position: GeolocationPosition) => void,
    onError?: (error: BridgeError) => void,
  ): BridgeSubscription;
  watch(listener: (position: GeolocationPosition) => void, onError?: (error: BridgeError) => void): BridgeSubscription;
  /** IPH's cached results (null until known); needs the permission. */
  lastKnown(): Promise<{
    location: GeolocationPosition | null;
    coordinate: { latitude: number; longitude: number } | null;
    city: string | null;
    address: string | null;
  }>;
  /** The city at `coords` (no permission needed), or at the current position; null when none is near. */
  getCity(coords?: LocationCoordinates | null, options?: LocationPlaceOptions): Promise<LocationCity | null>;
  /** `"city, state, country"` (no street level offline), or null. */
  getAddress(coords?: LocationCoordinates | null, options?: LocationPlaceOptions): Promise<string | null>;
  /** The current position and its city and address (IPH `requestCoordinateAndAddress`). */
  getPositionAndAddress(options?: LocationPlaceOptions): Promise<{
    position: GeolocationPosition;
    city: LocationCity | null;
    address: string | null;
  }>;
  /** Great-circle (haversine) distance in metres; synchronous. */
  distance(a: LocationCoordinates, b: LocationCoordinates): number;
  /** Initial bearing from `a` to `b`, degrees clockwise from true north (0 ≤ bearing < 360); synchronous. */
  bearing(a: LocationCoordinates, b: LocationCoordinates): number;
  /** The source, the permission, the geocoding index; `nmea` for an NMEA replay. */
  status(): Promise<{
    source: string | null;
    permission: "granted" | "denied";
    geonamesIndex: string | null;
    indexLoaded: boolean;
    nmea?: { sentences: number; skipped: number; fixes: number; lastProblem: string | null };
  }>;
}

declare var Location: JSBridgeLocation;

// MARK: - HTTP

/** Options of `HTTP.queue(name, options)`. */
interface HTTPQueueOptions {
  /** At most this many tasks in flight (a positive integer or `Infinity`; default 4 for a new queue). */
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
  | { data: string | ArrayBuffer | ArrayBufferView; path?: undefined }
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
