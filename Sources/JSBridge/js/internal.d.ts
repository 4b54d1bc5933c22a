// The host's part of `internal`, the object the engine's JavaScript files share: the names the host's own
// files provide, the hooks extensions may fill, and the types of the host's natives (natives.d.ts, written
// from the Swift declarations). Each engine extension adds its own names beside its files (its
// internal.d.ts and natives.d.ts), and the TypeScript check of an extension's files sees only its own
// declarations and those of the extensions it requires (docs/architecture.md, "Engine extensions").

/** `internal`: each engine file is the body of a function of it. */
declare const internal: JSBridgeInternal;

/** What `internal.startup` holds: the data the runtime's JavaScript reads first. */
interface JSBridgeStartup {
  arguments: string[];
  execPath: string;
  env: Record<string, string>;
  /** jsbridge's version (the engine's: `process.versions.jsbridge`, a plugin's `runtime.version`). */
  version: string;
  /** The runtime's name and version: jsbridge's, or a custom runtime's own. */
  runtime: { name: string; version: string };
  pid: number;
  lazyFiles: { file: string; globals: string[]; internals: string[] }[];
  pluginFiles: { plugin: string; file: string; globals: string[]; shares: string[]; module: string | null }[];
  pluginRuntimeNames: string[];
  /** The engine extensions' switches that were given (`{cordova: true}`). */
  options: Record<string, unknown>;
  baseURL: string | null;
}

interface JSBridgeInternal {
  /** The engine's own `console` (JavaScriptCore's, which a debugger hears), set only when a debugger is on
   *  (`--inspect`): console.js passes every message to it as well. */
  engineConsole?: Record<string, (...args: unknown[]) => void>;

  // primordials.js
  /** The built-ins captured before any script ran (`ObjectKeys`, `ArrayPrototypePush`, `SafeMap`, …); set once, frozen. */
  primordials: { readonly [name: string]: any };

  // loader.js
  /** Runs runtime file `name` once (any extension's). */
  load(name: string): void;
  /** Defines `target[name]` as an accessor that runs `load` on first read. */
  defineLazy(target: object, name: string, load: () => void): void;

  // errors.js
  /** Thrown by `process.exit()` to unwind the JS stack; never reported. */
  exitSentinel: object;
  /** Reports an uncaught error (`kind`: "exception", "rejection", or what a plugin's `reportError` passed); true
   *  when a REPL session took it and the run goes on. */
  reportUncaught(error: unknown, kind: string): boolean;
  onUnhandledRejection(promise: Promise<unknown>, reason: unknown): void;
  makeError(kind: string, message: string, code: unknown, plugin: unknown, action: unknown, data: unknown): Error;

  // bridge.js (lazy: these names load it)
  serialize(args: unknown, basePath?: string): string;
  serializeNative(value: unknown, basePath?: string): string | [string, string, unknown[]];
  dispatch(text: string, bytes?: Uint8Array[]): void;
  BridgeError: new (code: string, message: string, details?: { plugin?: string; action?: string; data?: unknown }) => Error & { code: string };
  /** Listens to native events (`plugin` "" is the engine's own, e.g. stdin). */
  onNativeEvent(plugin: string, event: string, listener: (payload: any) => void): { remove(): void };
  syncAction(plugin: string, action: string): (args?: unknown) => any;
  bridgeExec(success: unknown, fail: unknown, plugin: string, action: string, args?: unknown): void;
  bridgeExecSync(plugin: string, action: string, args?: unknown): any;
  bridgePlugins: Record<string, any>;
  /** The kind (0 sync, 1 async, 2 stream) of the action exec calls for a Cordova service, or -1 when none. */
  execKind(service: unknown, action: unknown): number;
  /** JSCoreBridge's `resCode` for a BridgeError's `code`. */
  resultCode(code: string): string;
  /** What the cordova extension adds to exec: its JavaScript services, and Cordova's answer to a throwing callback. */
  execHooks: {
    proxy: ((success: unknown, fail: unknown, service: unknown, action: unknown, args: unknown) => boolean) | undefined;
    callbackError: ((error: unknown, isSuccess: boolean, callbackId: string) => void) | undefined;
  };
  /** The exports of plugin module `name` (`require("jsbridge:<name>")`, `node:fs`), or undefined. */
  pluginModule(name: string): any;
  /** Runs plugin `plugin`'s JavaScript file `file` once; what it returned. */
  loadPluginFile(plugin: string, file: string): any;

  // timers.js
  fireTimer(id: number): void;
  Timeout: new (callback: () => void, delay: number, args: unknown[], repeats: boolean) => { readonly _id: number };

  // inspect.js
  /** Node's util.inspect, with its `custom` symbol and `defaultOptions`. */
  inspect: ((value: unknown, options?: object) => string) & { custom: symbol; defaultOptions: Record<string, any> };
  format(...args: unknown[]): string;
  formatWithOptions(options: object | undefined, ...args: unknown[]): string;
  formatError(error: unknown, ...rest: unknown[]): string;
  errorStack(error: unknown): string;

  // console.js
  console: Record<string, any>;

  // Hooks an extension may fill.
  /** Runs the main script (the modules extension); without it the host runs a classic script. */
  runMain?(kind: "file" | "eval", text: string): void;
  /** Starts a REPL session (the repl extension). */
  startRepl?(): void;
  /** Takes uncaught errors while a REPL session runs. */
  replUncaught?(error: unknown, kind: string): void;
  /** Maps `file:line:column` in compiled module code to the source file's (the modules extension). */
  sourcePosition?(position: string): string;
  /** The AsyncLocalStorage context to carry into a callback scheduled now (node:async_hooks, once loaded). */
  captureAsyncContext?(): unknown;
  /** Runs `fn` with `args` in a context `captureAsyncContext` gave. */
  runInAsyncContext?(context: unknown, fn: Function, self: unknown, args: unknown[]): unknown;
}
