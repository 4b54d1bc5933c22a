// `process` (Node subset) and `performance`.

const startup = internal.startup;
const exitHandlers = [];
let exitCode;

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
    return this;
  },
  once(event, handler) { return this.on(event, handler); },
  off(event, handler) {
    const index = exitHandlers.indexOf(handler);
    if (event === "exit" && index >= 0) exitHandlers.splice(index, 1);
    return this;
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
