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

/**
 * A node:zlib engine (ZlibNatives.swift): `(0 | 1, flush, input, offset, length, outLength)` writes on the JS
 * thread (0) or, for 1 with a large input, on a worker (undefined: the native event "zlib" with the engine's id
 * follows, and `(2)` takes the result); `(3, level, strategy)` params, `(4)` reset (each a failure or
 * undefined); `(5)` close. A result is `[availOutAfter, availInAfter, output?, message?, code?, errno?]`.
 */
type JSBridgeZlibHandle = (op: number, ...args: any[]) => any;

/**
 * A child process (ChildProcessNatives.swift): `(0, fd)` wants the next chunk of stdout or stderr, `(1, buffer,
 * offset, length)` writes to stdin (an errno name when closed), `(2)` ends stdin, `(3, signo)` signals it (0 or
 * an errno), `(4, referenced)`, `(5, fd)` closes an output, `(6)` forgets it. Its events come as the native event
 * "child" with its id.
 */
type JSBridgeChildHandle = (op: number, ...args: any[]) => any;

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

  // node-http.js
  /** The HTTP servers' events (HTTPServerNatives.swift): kind, then its arguments. */
  httpEvent(kind: number, ...args: any[]): void;

  // node-net.js
  /** The TCP servers' and sockets' events (NetNatives.swift): kind, then its arguments. */
  netEvent(kind: number, ...args: any[]): void;

  // Hooks an extension may fill.
  /** What other extensions add to `process.features` (the modules extension: `typescript`). */
  processFeatures?: Record<string, unknown>;
}
