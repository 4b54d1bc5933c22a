// Small Node modules: `node:async_hooks` (AsyncLocalStorage, AsyncResource), `node:diagnostics_channel`,
// `node:perf_hooks` and `node:console`.
//
// AsyncLocalStorage's context is carried where the runtime hands a callback on: timers (setTimeout,
// setInterval, setImmediate), queueMicrotask and process.nextTick (timers.js asks `internal.captureAsyncContext`
// when one is scheduled and runs it through `internal.runInAsyncContext`), the callbacks of `then`, `catch` and
// `finally` (`Promise.prototype.then` is wrapped once this module loads), the bridge's callbacks (bridge.js binds
// `bridge.subscribe`'s, `bridge.on` listeners and `cordova.exec`'s the same way), AsyncResource and
// AsyncLocalStorage.bind/snapshot. JavaScriptCore has no promise hooks: the code after an `await` inside
// `als.run()` runs without the store (docs/running-scripts.md).

const {
  ArrayPrototypeIndexOf, ArrayPrototypePush, ArrayPrototypeSlice, ArrayPrototypeSplice,
  FunctionPrototypeCall, MethodFilter, MethodJoin, MethodSlice, MethodSome, MethodSplit, NumberPrototypeToFixed,
  ObjectDefineProperty, Promise, PromisePrototypeThen, ReflectApply, SafeMap, SyntaxError,
} = internal.primordials;
const { checkFunction, invalidArgType, make } = internal.nodeErrors;

// MARK: - The async context

/// The current context: a map of AsyncLocalStorage -> store, replaced (never changed) when a store is set.
let current;

function runIn(context, fn, self, args) {
  const previous = current;
  current = context;
  try {
    return ReflectApply(fn, self, args);
  } finally {
    current = previous;
  }
}

function withStore(context, storage, store) {
  const next = new SafeMap(context);
  next.set(storage, store);
  return next;
}

function withoutStore(context, storage) {
  if (context === undefined || !context.has(storage)) return context;
  const next = new SafeMap(context);
  next.delete(storage);
  return next.size === 0 ? undefined : next;
}

internal.captureAsyncContext = () => current;
internal.runInAsyncContext = runIn;

// The callbacks given to then/catch/finally run in the context they were given in (the engine's own `then`
// underneath, as the runtime captured it).
function wrapCallback(context, callback) {
  if (typeof callback !== "function") return callback;
  return function (value) {
    return runIn(context, callback, this, [value]);
  };
}
ObjectDefineProperty(Promise.prototype, "then", {
  value: function then(onFulfilled, onRejected) {
    const context = current;
    if (context === undefined) return PromisePrototypeThen(this, onFulfilled, onRejected);
    return PromisePrototypeThen(this, wrapCallback(context, onFulfilled), wrapCallback(context, onRejected));
  },
  writable: true,
  configurable: true,
  enumerable: false,
});

class AsyncLocalStorage {
  static bind(fn) {
    checkFunction(fn, "fn");
    const context = current;
    return function (...args) {
      return runIn(context, fn, this, args);
    };
  }
  static snapshot() {
    const context = current;
    return (fn, ...args) => runIn(context, fn, undefined, args);
  }
  getStore() {
    return current?.get(this);
  }
  run(store, callback, ...args) {
    return runIn(withStore(current, this, store), callback, undefined, args);
  }
  exit(callback, ...args) {
    return runIn(withoutStore(current, this), callback, undefined, args);
  }
  enterWith(store) {
    current = withStore(current, this, store);
  }
  disable() {
    current = withoutStore(current, this);
  }
}

let nextAsyncId = 1;

class AsyncResource {
  #context;
  #asyncId;
  #triggerAsyncId;
  constructor(type, options) {
    if (typeof type !== "string") throw invalidArgType("type", "string", type);
    this.#context = current;
    this.#asyncId = ++nextAsyncId;
    this.#triggerAsyncId = typeof options === "number" ? options : options?.triggerAsyncId ?? 1;
  }
  static bind(fn, type, thisArg) {
    return new AsyncResource(type ?? (fn.name || "bound-anonymous-fn")).bind(fn, thisArg);
  }
  runInAsyncScope(fn, thisArg, ...args) {
    return runIn(this.#context, fn, thisArg, args);
  }
  bind(fn, thisArg) {
    checkFunction(fn, "fn");
    const resource = this;
    const bound = function (...args) {
      return runIn(resource.#context, fn, thisArg === undefined ? this : thisArg, args);
    };
    ObjectDefineProperty(bound, "length", { value: fn.length, configurable: true });
    ObjectDefineProperty(bound, "asyncResource", { value: this, configurable: true, writable: true });
    return bound;
  }
  emitDestroy() {
    return this;
  }
  asyncId() {
    return this.#asyncId;
  }
  triggerAsyncId() {
    return this.#triggerAsyncId;
  }
}

/// `createHook` answers a hook that can be enabled and disabled; jsbridge calls none of its callbacks.
function createHook(callbacks) {
  if (callbacks === null || typeof callbacks !== "object") throw invalidArgType("options", "object", callbacks);
  return {
    enable() { return this; },
    disable() { return this; },
  };
}

internal.nodeExport("async_hooks", {
  AsyncLocalStorage, AsyncResource, createHook,
  executionAsyncId: () => 1,
  triggerAsyncId: () => 0,
  executionAsyncResource: () => ({}),
  asyncWrapProviders: {},
});

// MARK: - diagnostics_channel

const channels = new SafeMap();

class Channel {
  #subscribers = [];
  #stores = new SafeMap();
  constructor(name) {
    this.name = name;
  }
  get hasSubscribers() {
    return this.#subscribers.length > 0 || this.#stores.size > 0;
  }
  subscribe(onMessage) {
    checkFunction(onMessage, "subscription");
    ArrayPrototypePush(this.#subscribers, onMessage);
  }
  unsubscribe(onMessage) {
    const index = ArrayPrototypeIndexOf(this.#subscribers, onMessage);
    if (index === -1) return false;
    ArrayPrototypeSplice(this.#subscribers, index, 1);
    return true;
  }
  publish(message) {
    for (const subscriber of ArrayPrototypeSlice(this.#subscribers)) {
      try {
        subscriber(message, this.name);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
  bindStore(store, transform) {
    this.#stores.set(store, transform);
  }
  unbindStore(store) {
    return this.#stores.delete(store);
  }
  runStores(data, fn, thisArg, ...args) {
    let context = current;
    for (const [store, transform] of this.#stores) {
      context = withStore(context, store, typeof transform === "function" ? transform(data) : data);
    }
    return runIn(context, () => {
      this.publish(data);
      return ReflectApply(fn, thisArg, args);
    }, undefined, []);
  }
}

function channel(name) {
  if (typeof name !== "string" && typeof name !== "symbol") throw invalidArgType("channel", ["string", "symbol"], name);
  let found = channels.get(name);
  if (found === undefined) channels.set(name, found = new Channel(name));
  return found;
}

/// `tracingChannel(name)`: the start/end/asyncStart/asyncEnd/error channels of `tracing:<name>:<event>`.
function tracingChannel(name) {
  const events = ["start", "end", "asyncStart", "asyncEnd", "error"];
  const tracing = {};
  for (const event of events) tracing[event] = typeof name === "string" ? channel(`tracing:${name}:${event}`) : name[event];
  tracing.subscribe = (handlers) => {
    for (const event of events) if (typeof handlers[event] === "function") tracing[event].subscribe(handlers[event]);
  };
  tracing.unsubscribe = (handlers) => {
    let all = true;
    for (const event of events) {
      if (typeof handlers[event] === "function" && !tracing[event].unsubscribe(handlers[event])) all = false;
    }
    return all;
  };
  tracing.traceSync = (fn, context = {}, thisArg, ...args) => {
    tracing.start.publish(context);
    try {
      const result = ReflectApply(fn, thisArg, args);
      context.result = result;
      return result;
    } catch (error) {
      context.error = error;
      tracing.error.publish(context);
      throw error;
    } finally {
      tracing.end.publish(context);
    }
  };
  tracing.tracePromise = (fn, context = {}, thisArg, ...args) => {
    tracing.start.publish(context);
    try {
      const promise = ReflectApply(fn, thisArg, args);
      return PromisePrototypeThen(promise, (result) => {
        context.result = result;
        tracing.asyncStart.publish(context);
        tracing.asyncEnd.publish(context);
        return result;
      }, (error) => {
        context.error = error;
        tracing.error.publish(context);
        tracing.asyncStart.publish(context);
        tracing.asyncEnd.publish(context);
        throw error;
      });
    } catch (error) {
      context.error = error;
      tracing.error.publish(context);
      throw error;
    } finally {
      tracing.end.publish(context);
    }
  };
  tracing.hasSubscribers = MethodSome(events, (event) => tracing[event].hasSubscribers);
  return tracing;
}

internal.nodeExport("diagnostics_channel", {
  channel, Channel, tracingChannel,
  hasSubscribers: (name) => channels.get(name)?.hasSubscribers ?? false,
  subscribe: (name, onMessage) => channel(name).subscribe(onMessage),
  unsubscribe: (name, onMessage) => channel(name).unsubscribe(onMessage),
});

// MARK: - perf_hooks

/// `PerformanceObserver`: observes the marks and measures made through `performance.mark`/`measure` after
/// `observe({ entryTypes })` (or `{ type }`); entries are delivered together in a microtask, as a list.
class PerformanceObserver {
  #callback;
  #types = [];
  #queued = [];
  constructor(callback) {
    checkFunction(callback, "callback");
    this.#callback = callback;
  }
  static get supportedEntryTypes() {
    return ["mark", "measure"];
  }
  observe(options = {}) {
    this.#types = options.entryTypes ?? (options.type !== undefined ? [options.type] : []);
    if (ArrayPrototypeIndexOf(observers, this) === -1) ArrayPrototypePush(observers, this);
  }
  disconnect() {
    const index = ArrayPrototypeIndexOf(observers, this);
    if (index !== -1) ArrayPrototypeSplice(observers, index, 1);
    this.#queued = [];
  }
  takeRecords() {
    return ArrayPrototypeSplice(this.#queued, 0);
  }
  /// Queues `entry` if this observer wants its type.
  queue(entry) {
    if (ArrayPrototypeIndexOf(this.#types, entry.entryType) === -1) return;
    const first = this.#queued.length === 0;
    ArrayPrototypePush(this.#queued, entry);
    if (!first) return;
    queueMicrotask(() => {
      const entries = ArrayPrototypeSplice(this.#queued, 0);
      if (entries.length === 0) return;
      const list = {
        getEntries: () => entries,
        getEntriesByType: (type) => MethodFilter(entries, (e) => e.entryType === type),
        getEntriesByName: (name, type) =>
          MethodFilter(entries, (e) => e.name === name && (type === undefined || e.entryType === type)),
      };
      FunctionPrototypeCall(this.#callback, this, list, this);
    });
  }
}
const observers = [];

class PerformanceEntry {
  constructor(name, entryType, startTime, duration, detail) {
    this.name = name;
    this.entryType = entryType;
    this.startTime = startTime;
    this.duration = duration;
    this.detail = detail ?? null;
  }
  toJSON() {
    return { name: this.name, entryType: this.entryType, startTime: this.startTime, duration: this.duration,
      detail: this.detail };
  }
}
class PerformanceMark extends PerformanceEntry {}
class PerformanceMeasure extends PerformanceEntry {}

/** @type {any} */
const performance = globalThis.performance;
const entries = [];

function record(entry) {
  ArrayPrototypePush(entries, entry);
  for (const observer of ArrayPrototypeSlice(observers)) observer.queue(entry);
  return entry;
}

/// The time of mark `name` (its latest), or a number as given.
function markTime(name, what) {
  if (typeof name === "number") return name;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].entryType === "mark" && entries[i].name === name) return entries[i].startTime;
  }
  throw make(SyntaxError, "ERR_INVALID_PERFORMANCE_MARK", `The "${name}" performance mark has not been set`);
}

// User timing on the global `performance` (the web extension's has the clock only).
if (typeof performance.mark !== "function") {
  performance.mark = function mark(name, options) {
    return record(new PerformanceMark(String(name), "mark", options?.startTime ?? performance.now(), 0,
      options?.detail));
  };
  performance.measure = function measure(name, start, end) {
    let detail, startTime = 0, endTime = performance.now();
    if (start !== null && typeof start === "object") {
      detail = start.detail;
      if (start.start !== undefined) startTime = markTime(start.start);
      if (start.end !== undefined) endTime = markTime(start.end);
      else if (start.duration !== undefined) endTime = startTime + start.duration;
    } else {
      if (start !== undefined) startTime = markTime(start);
      if (end !== undefined) endTime = markTime(end);
    }
    return record(new PerformanceMeasure(String(name), "measure", startTime, endTime - startTime, detail));
  };
  performance.getEntries = () => ArrayPrototypeSlice(entries);
  performance.getEntriesByType = (type) => MethodFilter(entries, (e) => e.entryType === type);
  performance.getEntriesByName = (name, type) =>
    MethodFilter(entries, (e) => e.name === name && (type === undefined || e.entryType === type));
  const clear = (type) => (name) => {
    for (let i = entries.length - 1; i >= 0; i--) {
      if (entries[i].entryType === type && (name === undefined || entries[i].name === name)) {
        ArrayPrototypeSplice(entries, i, 1);
      }
    }
  };
  performance.clearMarks = clear("mark");
  performance.clearMeasures = clear("measure");
}

internal.nodeExport("perf_hooks", {
  performance,
  PerformanceObserver,
  PerformanceEntry, PerformanceMark, PerformanceMeasure,
  constants: { NODE_PERFORMANCE_GC_MAJOR: 4, NODE_PERFORMANCE_GC_MINOR: 1, NODE_PERFORMANCE_GC_INCREMENTAL: 8,
    NODE_PERFORMANCE_GC_WEAKCB: 16 },
});

// MARK: - console

/// `new Console(stdout, stderr)` or `new Console({ stdout, stderr })`: a console writing Node's formatted lines
/// to those streams (anything with `write(text)`).
function Console(stdout, stderr) {
  if (!(this instanceof Console)) return new Console(stdout, stderr);
  const options = stdout !== null && typeof stdout === "object" && typeof stdout.write !== "function"
    ? stdout : { stdout, stderr };
  if (!options.stdout || typeof options.stdout.write !== "function") {
    throw invalidArgType("stdout", "WritableStream", options.stdout);
  }
  const out = options.stdout;
  const err = options.stderr ?? out;
  const counts = new SafeMap();
  const timers = new SafeMap();
  let indent = "";
  const print = (stream, args) => {
    let text = internal.format(...args);
    if (indent !== "") text = indent + MethodJoin(MethodSplit(text, "\n"), "\n" + indent);
    stream.write(text + "\n");
  };
  this.log = (...args) => print(out, args);
  this.info = this.log;
  this.debug = this.log;
  this.error = (...args) => print(err, args);
  this.warn = this.error;
  this.trace = (...args) => {
    const error = new Error(internal.format(...args));
    error.name = "Trace";
    print(err, [error.stack]);
  };
  this.dir = (value, opts) => print(out, [internal.inspect(value, opts)]);
  this.assert = (value, ...args) => {
    if (!value) print(err, args.length ? [`Assertion failed: ${internal.format(...args)}`] : ["Assertion failed"]);
  };
  this.count = (label = "default") => {
    const count = (counts.get(label) ?? 0) + 1;
    counts.set(label, count);
    print(out, [`${label}: ${count}`]);
  };
  this.countReset = (label = "default") => counts.delete(label);
  this.group = (...args) => {
    if (args.length) print(out, args);
    indent += "  ";
  };
  this.groupCollapsed = this.group;
  this.groupEnd = () => {
    indent = MethodSlice(indent, 2);
  };
  this.time = (label = "default") => timers.set(label, performance.now());
  const elapsed = (label) => `${label}: ${NumberPrototypeToFixed(performance.now() - timers.get(label), 3)}ms`;
  this.timeLog = (label = "default", ...args) => print(out, [elapsed(label), ...args]);
  this.timeEnd = (label = "default") => {
    print(out, [elapsed(label)]);
    timers.delete(label);
  };
  this.table = (data) => print(out, [internal.inspect(data)]);
}

/** @type {any} */
const consoleModule = globalThis.console;
internal.nodeExport("console", consoleModule);
if (consoleModule.Console === undefined) {
  ObjectDefineProperty(consoleModule, "Console", { value: Console, writable: true, configurable: true });
}
