// `process` (Node subset) and `performance`.

const { ArrayPrototypeIndexOf, ArrayPrototypePush, ArrayPrototypeSlice, ArrayPrototypeSplice, FunctionPrototypeCall, ObjectCreate } =
  internal.primordials;
const startup = internal.startup;
const exitHandlers = [];
// The signals a script can listen to (Linux numbers); with a listener, the signal only calls the listeners.
const SIGNALS = { __proto__: null, SIGINT: 2, SIGTERM: 15, SIGTSTP: 20, SIGCONT: 18 };
const signalListeners = ObjectCreate(null); // name -> [{handler, once}]

function addSignalListener(name, handler, once) {
  const list = signalListeners[name] ??= [];
  ArrayPrototypePush(list, { handler, once });
  internal.signalListened(SIGNALS[name], true);
}

function removeSignalListener(name, handler) {
  const list = signalListeners[name];
  if (list === undefined) return;
  for (let i = list.length - 1; i >= 0; i--) {
    if (list[i].handler === handler) {
      ArrayPrototypeSplice(list, i, 1);
      break;
    }
  }
  if (list.length === 0) internal.signalListened(SIGNALS[name], false);
}

/// Called by the runtime for a signal: calls its listeners (name, number) and answers whether there were any.
internal.emitSignal = function (name) {
  const list = signalListeners[name];
  if (list === undefined || list.length === 0) return false;
  for (const { handler, once } of ArrayPrototypeSlice(list)) {
    if (once) removeSignalListener(name, handler);
    try {
      FunctionPrototypeCall(handler, process, name, SIGNALS[name]);
    } catch (error) {
      internal.reportUncaught(error, "exception");
    }
  }
  return true;
};
let exitCode;

function checkListener(handler) {
  if (typeof handler !== "function") {
    const error = new TypeError(`The "listener" argument must be of type function. Received ${typeof handler}`);
    error.code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
  return handler;
}

function toExitCode(code) {
  const number = Number(code);
  return Number.isInteger(number) ? number : 1;
}

function runExitHandlers(code) {
  for (const handler of exitHandlers.splice(0)) handler.call(process, code);
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
  arch: "x64",
  version: "v" + startup.version,
  versions: { jsbridge: startup.version },
  release: { name: "jsbridge" },
  get exitCode() { return exitCode; },
  set exitCode(code) { exitCode = code === undefined || code === null ? undefined : toExitCode(code); },
  exit(code) {
    if (code !== undefined) this.exitCode = code;
    const final = exitCode ?? 0;
    try { runExitHandlers(final); } finally { internal.exit(exitCode ?? final); }
  },
  cwd() { return internal.cwd(); },
  uptime() { return (internal.now() - timeOrigin) / 1000; },
  hrtime: Object.assign(
    function hrtime(previous) {
      const ns = internal.now() * 1e6;
      let seconds = Math.floor(ns / 1e9), nanos = Math.floor(ns % 1e9);
      if (previous) {
        seconds -= previous[0];
        nanos -= previous[1];
        if (nanos < 0) { seconds -= 1; nanos += 1e9; }
      }
      return [seconds, nanos];
    },
    { bigint() { return BigInt(Math.floor(internal.now() * 1e6)); } }),
  memoryUsage: Object.assign(
    function memoryUsage() { return { rss: internal.rss(), heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }; },
    { rss() { return internal.rss(); } }),
  nextTick(callback, ...args) { queueMicrotask(() => callback(...args)); },
  on(event, handler) {
    if (event === "exit") exitHandlers.push(handler);
    else if (event in SIGNALS) addSignalListener(event, checkListener(handler), false);
    return this;
  },
  once(event, handler) {
    if (event in SIGNALS) addSignalListener(event, checkListener(handler), true);
    else this.on(event, handler);
    return this;
  },
  off(event, handler) {
    const index = ArrayPrototypeIndexOf(exitHandlers, handler);
    if (event === "exit" && index >= 0) ArrayPrototypeSplice(exitHandlers, index, 1);
    else if (event in SIGNALS) removeSignalListener(event, handler);
    return this;
  },
  /// The number of listeners for `event` ("exit" or a signal).
  listenerCount(event) {
    if (event === "exit") return exitHandlers.length;
    return event in SIGNALS ? signalListeners[event]?.length ?? 0 : 0;
  },
  stdout: { write(text) { internal.print(1, String(text)); return true; }, isTTY: false },
  stderr: { write(text) { internal.print(2, String(text)); return true; }, isTTY: false },
};
process.removeListener = process.off;
process.addListener = process.on;
Object.defineProperty(process, Symbol.toStringTag, { value: "process" });

/// Called by the runtime when the loop ends (naturally, or with `code` after an uncaught error);
/// runs the 'exit' listeners and returns the exit code.
internal.runExit = function (code) {
  if (code !== undefined) exitCode = code;
  runExitHandlers(exitCode ?? 0);
  return exitCode ?? 0;
};

const timeOrigin = internal.now();
const performance = {
  timeOrigin: Date.now(),
  now() { return internal.now() - timeOrigin; },
  toJSON() { return { timeOrigin: this.timeOrigin }; },
};

internal.defineGlobal("process", process);
internal.defineGlobal("performance", performance);
internal.defineGlobal("global", globalThis);
