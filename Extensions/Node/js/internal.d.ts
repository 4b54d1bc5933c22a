// The node extension's part of `internal`: the names its files provide, beside its natives (natives.d.ts).
// docs/architecture.md, "Engine extensions".

/** What `internal.systemInfo()` reports: uname, the user, memory, uptime and load averages. */
interface JSBridgeSystemInfo {
  sysname: string;
  nodename: string;
  release: string;
  version: string;
  machine: string;
  totalmem: number;
  freemem: number;
  uptime: number;
  loadavg: [number, number, number];
  user: { uid: number; gid: number; username?: string; homedir?: string; shell?: string };
}

/** The global `process` (process.js defines it; files read the global as Node's own code does). */
declare var process: any;

interface JSBridgeInternal {
  // process.js
  process: any;
  /** Runs the 'exit' listeners (with `code` after an uncaught error or a signal) and answers the exit code. */
  runExit(code?: number): number;
  /** Calls the listeners of signal `name`; whether there were any. */
  emitSignal(name: string): boolean;

  // node-builtins.js
  /** The exports of built-in module `name` (`node:` prefix optional), or undefined. */
  nodeBuiltin(name: string): any;
  /** Registers the exports of the built-in module a file implements. */
  nodeExport(name: string, exports: unknown): void;
  /** Node's `ERR_*` error makers. */
  nodeErrors: Record<string, any>;

  // node-errors.js (lazy: the first read of a global error constructor runs it)
  /** Gives an error the runtime made a Node-style `stack` (`Name: message`, then `    at ...` frames). */
  nodeStack<T>(error: T, code?: string): T;
  // node-path.js
  /** The `path` functions as the runtime loaded them (the module object itself is mutable). */
  posixPath: Record<string, any>;

  // node-buffer.js, node-events.js, node-util.js, node-os.js, node-hash.js, node-stdin.js
  Buffer: any;
  EventEmitter: any;
  nodeAbortError: any;
  isDeepEqual(a: unknown, b: unknown, strict: boolean): boolean;
  /** Node's name (`x64`, `arm64`, ...) of a uname machine name. */
  archName(machine: string): string;
  Hash: any;
  Hmac: any;
  createHash: (algorithm: string, options?: unknown) => any;
  createHmac: (algorithm: string, key: unknown, options?: unknown) => any;
  hashNames: string[];
  stdin: any;

  // Hooks an extension may fill.
  /** What other extensions add to `process.features` (the modules extension: `typescript`). */
  processFeatures?: Record<string, unknown>;
}
