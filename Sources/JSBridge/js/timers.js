// Timers with Node's conventions: setTimeout/setInterval/setImmediate return Timeout objects
// (ref/unref/hasRef/refresh, usable as numbers), extra arguments are passed to the callback,
// delays outside 1..2^31-1 ms become 1 ms. The native side keeps a deadline heap; callbacks live here.

const { Number, PromisePrototypeThen, PromiseResolve, ReflectApply, SafeMap, String, TypeError } = internal.primordials;

const callbacks = new SafeMap(); // id -> Timeout
let lastId = 0;

function checkCallback(callback) {
  if (typeof callback !== "function") {
    const error = new TypeError(
      `The "callback" argument must be of type function. Received ${internal.inspect ? internal.inspect(callback) : String(callback)}`);
    error.code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
}

function normalizeDelay(delay) {
  delay = Number(delay);
  return delay >= 1 && delay <= 2147483647 ? delay : 1;
}

class Timeout {
  constructor(callback, delay, args, repeats) {
    this._id = ++lastId;
    this._callback = callback;
    this._delay = delay;
    this._args = args;
    this._repeats = repeats;
    this._ref = true;
    // The AsyncLocalStorage context the callback runs in (node:async_hooks sets the hooks once loaded).
    this._context = internal.captureAsyncContext === undefined ? undefined : internal.captureAsyncContext();
    callbacks.set(this._id, this);
    internal.timerStart(this._id, delay, repeats);
  }
  ref() { this._ref = true; internal.timerRef(this._id, true); return this; }
  unref() { this._ref = false; internal.timerRef(this._id, false); return this; }
  hasRef() { return this._ref; }
  refresh() {
    if (callbacks.has(this._id) || !this._repeats) {
      callbacks.set(this._id, this);
      internal.timerStart(this._id, this._delay, this._repeats);
      if (!this._ref) internal.timerRef(this._id, false);
    }
    return this;
  }
  close() { clear(this); return this; }
  [Symbol.toPrimitive]() { return this._id; }
}

function clear(timer) {
  if (timer === undefined || timer === null) return;
  const id = typeof timer === "object" ? timer._id : Number(timer);
  if (callbacks.delete(id)) internal.timerClear(id);
}

function setTimeout(callback, delay, ...args) {
  checkCallback(callback);
  return new Timeout(callback, normalizeDelay(delay), args, false);
}

function setInterval(callback, delay, ...args) {
  checkCallback(callback);
  return new Timeout(callback, normalizeDelay(delay), args, true);
}

function setImmediate(callback, ...args) {
  checkCallback(callback);
  return new Timeout(callback, 0, args, false);
}

/// Called by the loop when timer `id` is due.
internal.fireTimer = function (id) {
  const timer = callbacks.get(id);
  if (timer === undefined) return;
  if (!timer._repeats) callbacks.delete(id);
  const callback = timer._callback, args = timer._args;
  if (timer._context !== undefined) internal.runInAsyncContext(timer._context, callback, undefined, args);
  else args.length === 0 ? callback() : ReflectApply(callback, undefined, args);
};

function queueMicrotask(callback) {
  checkCallback(callback);
  const context = internal.captureAsyncContext === undefined ? undefined : internal.captureAsyncContext();
  PromisePrototypeThen(PromiseResolve(), () => {
    try {
      if (context !== undefined) internal.runInAsyncContext(context, callback, undefined, []);
      else callback();
    } catch (error) { internal.reportUncaught(error, "exception"); }
  });
}

internal.Timeout = Timeout;
internal.defineGlobal("setTimeout", setTimeout);
internal.defineGlobal("setInterval", setInterval);
internal.defineGlobal("setImmediate", setImmediate);
internal.defineGlobal("clearTimeout", clear);
internal.defineGlobal("clearInterval", clear);
internal.defineGlobal("clearImmediate", clear);
internal.defineGlobal("queueMicrotask", queueMicrotask);
