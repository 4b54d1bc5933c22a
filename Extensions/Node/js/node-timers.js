// `node:timers` (the global timer functions) and `node:timers/promises` (setTimeout/setImmediate as
// promises, setInterval as an async iterator; each takes `{ signal, ref }`).

const { Promise, PromiseReject, PromiseResolve, SymbolAsyncIterator } = internal.primordials;
const { invalidArgType } = internal.nodeErrors;

// The global timer functions as they are when the module is first required.
const timerGlobals = ["setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate"];
const engine = {};
for (const name of timerGlobals) engine[name] = globalThis[name];

function abortError(signal) {
  const error = internal.nodeErrors.make(Error, "ABORT_ERR", "The operation was aborted");
  error.name = "AbortError";
  if (signal?.reason !== undefined) error.cause = signal.reason;
  return error;
}

function checkOptions(options) {
  if (options === null || typeof options !== "object") throw invalidArgType("options", "object", options);
  const { signal, ref } = options;
  if (signal !== undefined && (signal === null || typeof signal !== "object" || !("aborted" in signal))) {
    throw invalidArgType("options.signal", "AbortSignal", signal);
  }
  if (ref !== undefined && typeof ref !== "boolean") throw invalidArgType("options.ref", "boolean", ref);
  return { signal, ref: ref !== false };
}

/// A promise settled by a timer made with `start(callback)`, cancelled by `options.signal`.
function timerPromise(start, value, options) {
  let checked;
  try {
    checked = checkOptions(options);
  } catch (error) {
    return PromiseReject(error);
  }
  const { signal, ref } = checked;
  if (signal?.aborted) return PromiseReject(abortError(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      engine.clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = start(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(value);
    });
    if (!ref) timer.unref();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const promises = {
  setTimeout(delay, value, options = {}) {
    return timerPromise((callback) => engine.setTimeout(callback, delay), value, options);
  },
  setImmediate(value, options = {}) {
    return timerPromise((callback) => engine.setImmediate(callback), value, options);
  },
  /// An async iterator that yields `value` every `delay` ms (ticks that pass unread are counted, not queued).
  setInterval(delay, value, options = {}) {
    const { signal, ref } = checkOptions(options);
    let pendingTicks = 0;
    let waiter = null;
    let done = false;
    let timer;
    const onAbort = () => {
      stop();
      if (waiter !== null) {
        waiter.reject(abortError(signal));
        waiter = null;
      }
    };
    const stop = () => {
      if (timer !== undefined) engine.clearInterval(timer);
      signal?.removeEventListener("abort", onAbort);
      done = true;
    };
    if (!signal?.aborted) {
      timer = engine.setInterval(() => {
        if (waiter !== null) {
          waiter.resolve({ value, done: false });
          waiter = null;
        } else {
          pendingTicks++;
        }
      }, delay);
      if (!ref) timer.unref();
      signal?.addEventListener("abort", onAbort, { once: true });
    }
    return {
      next() {
        if (signal?.aborted) return PromiseReject(abortError(signal));
        if (pendingTicks > 0) {
          pendingTicks--;
          return PromiseResolve({ value, done: false });
        }
        if (done) return PromiseResolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => { waiter = { resolve, reject }; });
      },
      return() {
        stop();
        if (waiter !== null) {
          waiter.resolve({ value: undefined, done: true });
          waiter = null;
        }
        return PromiseResolve({ value: undefined, done: true });
      },
      [SymbolAsyncIterator]() { return this; },
    };
  },
  scheduler: {
    wait: (delay, options) => promises.setTimeout(delay, undefined, options),
    yield: () => promises.setImmediate(),
  },
};

const timers = { ...engine, promises };

internal.nodeExport("timers", timers);
internal.nodeExport("timers/promises", promises);
