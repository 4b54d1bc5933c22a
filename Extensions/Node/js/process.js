// `process` (Node subset) and `global`.

const {
  ArrayPrototypeFindIndex, ArrayPrototypeMap, ArrayPrototypePush, ArrayPrototypeSlice, ArrayPrototypeSplice,
  FunctionPrototypeCall, MathFloor, NumberIsInteger, ObjectAssign, ObjectDefineProperty, ReflectApply, SafeMap, String,
  SymbolToStringTag,
} = internal.primordials;
const startup = internal.startup;
const exitHandlers = [];
const nodeVersion = "20.18.0";
let exitCode;

function toExitCode(code) {
  const number = Number(code);
  return NumberIsInteger(number) ? number : 1;
}

let exiting = false;
/// Emits 'exit' once, through `process.emit` as Node does (signal-exit and others patch it).
function runExitHandlers(code) {
  if (exiting) return;
  exiting = true;
  process._exiting = true;
  const emit = typeof process.emit === "function" ? process.emit : emitEvent;
  FunctionPrototypeCall(emit, process, "exit", code);
}

/// Calls `event`'s listeners with `args`; true if there were any.
function emitEvent(event, ...args) {
  const list = event === "exit" ? exitHandlers : listenersFor(event, false);
  for (const listener of ArrayPrototypeSlice(list)) ReflectApply(listener, this, args);
  return list.length > 0;
}

const otherListeners = new SafeMap(); // event (other than 'exit') -> listeners
function listenersFor(event, create) {
  let list = otherListeners.get(event);
  if (list === undefined) {
    if (!create) return [];
    otherListeners.set(event, list = []);
  }
  return list;
}

// The signals a script can listen to (Linux numbers). With a listener, a signal only calls its listeners
// (docs/running-scripts.md, "Signals"); the runtime is told when a signal gains its first or loses its last.
const SIGNALS = { __proto__: null, SIGINT: 2, SIGTERM: 15, SIGTSTP: 20, SIGCONT: 18 };
function listenedChanged(event, before) {
  const number = SIGNALS[event];
  const now = listenersFor(event, false).length > 0;
  if (number !== undefined && now !== before) internal.signalListened(number, now);
}

/// Called by the runtime for a signal: calls its listeners with (name, number) and answers whether there
/// were any. A listener that throws is reported as an uncaught exception.
internal.emitSignal = function (name) {
  const list = listenersFor(name, false);
  if (list.length === 0) return false;
  for (const listener of ArrayPrototypeSlice(list)) {
    try {
      FunctionPrototypeCall(listener, process, name, SIGNALS[name]);
    } catch (error) {
      internal.reportUncaught(error, "exception");
    }
  }
  return true;
};

function checkListener(handler) {
  if (typeof handler !== "function") {
    const error = new TypeError(`The "listener" argument must be of type function. Received ${typeof handler}`);
    error.code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
  return handler;
}

function notImplemented(name) {
  const error = new Error(`${name} is not implemented in jsbridge.`);
  error.code = "ERR_NOT_IMPLEMENTED";
  return error;
}

let arch;
/// Node's name for the machine's architecture (x64, arm64, ...), from uname: node-os.js's rule.
function nodeArch() {
  return arch ??= internal.archName(internal.systemInfo().machine);
}

const process = {
  title: "jsbridge",
  argv: [startup.execPath, ...startup.arguments],
  argv0: "jsbridge",
  execPath: startup.execPath,
  execArgv: [],
  env: startup.env,
  pid: startup.pid,
  platform: "linux",
  // The Node version whose API the built-in modules follow (packages check it); jsbridge's own is
  // `versions.jsbridge`.
  version: "v" + nodeVersion,
  versions: { jsbridge: startup.version, node: nodeVersion },
  release: { name: "jsbridge" },
  get exitCode() { return exitCode; },
  set exitCode(code) { exitCode = code === undefined || code === null ? undefined : toExitCode(code); },
  exit(code) {
    if (code !== undefined) this.exitCode = code;
    const final = exitCode ?? 0;
    try {
      runExitHandlers(final);
    } finally {
      const reallyExit = typeof process.reallyExit === "function" ? process.reallyExit : internal.exit;
      FunctionPrototypeCall(reallyExit, process, exitCode ?? final);
    }
  },
  /// Ends the process at once with `code` (Node's; `exit()` calls it after the 'exit' listeners).
  reallyExit(code) { internal.exit(toExitCode(code ?? 0)); },
  _exiting: false,
  cwd() { return internal.cwd(); },
  uptime() { return (internal.now() - timeOrigin) / 1000; },
  hrtime: ObjectAssign(
    function hrtime(previous) {
      const ns = internal.now() * 1e6;
      let seconds = MathFloor(ns / 1e9), nanos = MathFloor(ns % 1e9);
      if (previous) {
        seconds -= previous[0];
        nanos -= previous[1];
        if (nanos < 0) { seconds -= 1; nanos += 1e9; }
      }
      return [seconds, nanos];
    },
    { bigint() { return BigInt(MathFloor(internal.now() * 1e6)); } }),
  memoryUsage: ObjectAssign(
    function memoryUsage() { return { rss: internal.rss(), heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }; },
    { rss() { return internal.rss(); } }),
  nextTick(callback, ...args) { queueMicrotask(() => callback(...args)); },
  on(event, handler) {
    checkListener(handler);
    if (event === "exit") ArrayPrototypePush(exitHandlers, handler);
    else {
      const before = listenersFor(event, false).length > 0;
      ArrayPrototypePush(listenersFor(event, true), handler);
      listenedChanged(event, before);
    }
    return this;
  },
  once(event, handler) {
    if (event === "exit") return this.on(event, checkListener(handler));
    const once = (...args) => {
      this.off(event, once);
      return ReflectApply(handler, this, args);
    };
    once.listener = checkListener(handler);
    return this.on(event, once);
  },
  off(event, handler) {
    const list = event === "exit" ? exitHandlers : listenersFor(event, false);
    const before = list.length > 0;
    const index = ArrayPrototypeFindIndex(list, (l) => l === handler || l.listener === handler);
    if (index >= 0) ArrayPrototypeSplice(list, index, 1);
    if (event !== "exit") listenedChanged(event, before);
    return this;
  },
  /// Calls `event`'s listeners (the runtime itself fires 'exit', 'warning' and signals); true if there were any.
  emit: emitEvent,
  listeners(event) {
    return ArrayPrototypeMap(event === "exit" ? exitHandlers : listenersFor(event, false), (l) => l.listener ?? l);
  },
  listenerCount(event) { return (event === "exit" ? exitHandlers : listenersFor(event, false)).length; },
  removeAllListeners(event) {
    if (event === undefined || event === "exit") exitHandlers.length = 0;
    for (const name of event === undefined ? [...otherListeners.keys()] : event === "exit" ? [] : [event]) {
      const before = listenersFor(name, false).length > 0;
      otherListeners.delete(name);
      listenedChanged(name, before);
    }
    return this;
  },
  setMaxListeners() { return this; },
  getMaxListeners() { return 10; },
  eventNames() { return [...(exitHandlers.length > 0 ? ["exit"] : []), ...otherListeners.keys()]; },
  /// Prints `(jsbridge:<pid>) <type>: <message>` on stderr (Node's format), then fires 'warning'.
  emitWarning(warning, type, code) {
    if (type !== null && typeof type === "object") ({ type, code } = type);
    const error = warning instanceof Error ? warning : new Error(String(warning));
    if (!(warning instanceof Error)) error.name = typeof type === "string" ? type : "Warning";
    if (code !== undefined) error.code = code;
    if (error.name === "DeprecationWarning" && this.noDeprecation) return;
    internal.print(2, `(jsbridge:${startup.pid}) ${code !== undefined ? `[${code}] ` : ""}${error.name}: ${error.message}\n`);
    queueMicrotask(() => this.emit("warning", error));
  },
  get arch() { return nodeArch(); },
  get stdin() {
    internal.load("node-stdin.js");
    return internal.stdin;
  },
  getuid() { return internal.systemInfo().user.uid; },
  geteuid() { return internal.systemInfo().user.uid; },
  getgid() { return internal.systemInfo().user.gid; },
  getegid() { return internal.systemInfo().user.gid; },
  umask() { return 0o22; },
  config: { variables: {} },
  features: ObjectAssign({ inspector: false, ipv6: true, tls: false }, internal.processFeatures),
  kill() { throw notImplemented("process.kill"); },
  chdir() { throw notImplemented("process.chdir"); },
  binding() { throw notImplemented("process.binding"); },
  abort() { internal.exit(134); },
  stdout: { write(text) { internal.print(1, String(text)); return true; }, isTTY: false },
  stderr: { write(text) { internal.print(2, String(text)); return true; }, isTTY: false },
};
process.removeListener = process.off;
process.addListener = process.on;
ObjectDefineProperty(process, SymbolToStringTag, { value: "process" });

/// Called by the runtime when the loop ends (naturally, or with `code` after an uncaught error);
/// runs the 'exit' listeners and returns the exit code.
internal.runExit = function (code) {
  if (code !== undefined) exitCode = code;
  runExitHandlers(exitCode ?? 0);
  return exitCode ?? 0;
};

const timeOrigin = internal.now();

internal.process = process;
internal.defineGlobal("process", process);
internal.defineGlobal("global", globalThis);
