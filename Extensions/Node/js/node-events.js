// `node:events`: EventEmitter with Node's semantics (an 'error' event nobody listens to throws; 'newListener'
// and 'removeListener' events; a one-time warning past `maxListeners`), `once(emitter, name)` as a promise
// (also for EventTargets), `on(emitter, name)` as an async iterator, and the module-level helpers.

const {
  ArrayPrototypePush, ArrayPrototypeShift, ArrayPrototypeSlice, ArrayPrototypeSplice, ArrayPrototypeUnshift, Error,
  FunctionPrototypeBind, FunctionPrototypeCall, MethodMap, NumberIsNaN, ObjectAssign, ObjectCreate,
  ObjectDefineProperty, ObjectGetPrototypeOf, Promise, PromiseReject, PromiseResolve, ReflectApply, ReflectOwnKeys,
  SymbolAsyncIterator, TypeError,
} = internal.primordials;
const { checkFunction, invalidArgType, outOfRange, make } = internal.nodeErrors;

const kCapture = Symbol("kCapture");
const errorMonitor = Symbol("events.errorMonitor");
let defaultMaxListeners = 10;

function checkListener(listener) {
  checkFunction(listener, "listener");
}

function checkMaxListeners(n, name, range = ">= 0") {
  if (typeof n !== "number") throw invalidArgType(name, "number", n);
  if (n < 0 || NumberIsNaN(n)) throw outOfRange(name, range, n);
}

function EventEmitter(options) {
  FunctionPrototypeCall(EventEmitter.init, this, options);
}

EventEmitter.init = function (options) {
  if (this._events === undefined || this._events === ObjectGetPrototypeOf(this)._events) {
    this._events = ObjectCreate(null);
    this._eventsCount = 0;
  }
  this._maxListeners = this._maxListeners || undefined;
  if (options?.captureRejections) this[kCapture] = true;
};

/** @type {any} */
const proto = EventEmitter.prototype;
proto._events = undefined;
proto._eventsCount = 0;
proto._maxListeners = undefined;

proto.setMaxListeners = function setMaxListeners(n) {
  checkMaxListeners(n, "setMaxListeners");
  this._maxListeners = n;
  return this;
};

proto.getMaxListeners = function getMaxListeners() {
  return this._maxListeners === undefined ? defaultMaxListeners : this._maxListeners;
};

function eventsOf(emitter) {
  if (emitter._events === undefined) {
    emitter._events = ObjectCreate(null);
    emitter._eventsCount = 0;
  }
  return emitter._events;
}

proto.emit = function emit(type, ...args) {
  const events = this._events;
  if (type === "error" && events !== undefined && events[errorMonitor] !== undefined) {
    this.emit(errorMonitor, ...args);
  }
  const handler = events === undefined ? undefined : events[type];
  if (handler === undefined) {
    if (type !== "error") return false;
    const error = args[0];
    if (error instanceof Error) throw error;
    const wrapped = make(Error, "ERR_UNHANDLED_ERROR",
      `Unhandled error. (${internal.inspect(error)})`);
    wrapped.context = error;
    throw wrapped;
  }
  if (typeof handler === "function") {
    callListener(this, handler, type, args);
  } else {
    const listeners = ArrayPrototypeSlice(handler);
    for (let i = 0; i < listeners.length; i++) callListener(this, listeners[i], type, args);
  }
  return true;
};

function callListener(emitter, listener, type, args) {
  const result = ReflectApply(listener, emitter, args);
  // captureRejections: a listener's rejected promise becomes an 'error' event.
  if (emitter[kCapture] && result !== undefined && result !== null && typeof result.then === "function") {
    result.then(undefined, (error) => {
      queueMicrotask(() => {
        if (type === "error") throw error;
        emitter.emit("error", error);
      });
    });
  }
}

function addListener(target, type, listener, prepend) {
  checkListener(listener);
  let events = eventsOf(target);
  if (events.newListener !== undefined) {
    target.emit("newListener", type, listener.listener ?? listener);
    events = target._events;
  }
  const existing = events[type];
  if (existing === undefined) {
    events[type] = listener;
    target._eventsCount++;
    return target;
  }
  let list;
  if (typeof existing === "function") list = events[type] = prepend ? [listener, existing] : [existing, listener];
  else {
    list = existing;
    if (prepend) ArrayPrototypeUnshift(list, listener);
    else ArrayPrototypePush(list, listener);
  }
  const max = target.getMaxListeners();
  if (max > 0 && list.length > max && !list.warned) {
    list.warned = true;
    const name = target.constructor?.name ?? "EventEmitter";
    const warning = `Possible EventEmitter memory leak detected. ${list.length} ${String(type)} listeners added to ` +
      `[${name}]. MaxListeners is ${max}. Use emitter.setMaxListeners() to increase limit`;
    if (typeof process !== "undefined" && typeof process.emitWarning === "function") {
      process.emitWarning(warning, "MaxListenersExceededWarning");
    }
  }
  return target;
}

proto.addListener = function addListenerMethod(type, listener) {
  return addListener(this, type, listener, false);
};
proto.on = proto.addListener;
proto.prependListener = function prependListener(type, listener) {
  return addListener(this, type, listener, true);
};

/** @this {any} */
function onceWrapper(...args) {
  if (!this.fired) {
    this.target.removeListener(this.type, this.wrapFn);
    this.fired = true;
    return ReflectApply(this.listener, this.target, args);
  }
}

function onceWrap(target, type, listener) {
  const state = { fired: false, wrapFn: undefined, target, type, listener };
  const wrapped = FunctionPrototypeBind(onceWrapper, state);
  wrapped.listener = listener;
  state.wrapFn = wrapped;
  return wrapped;
}

proto.once = function once(type, listener) {
  checkListener(listener);
  this.on(type, onceWrap(this, type, listener));
  return this;
};
proto.prependOnceListener = function prependOnceListener(type, listener) {
  checkListener(listener);
  this.prependListener(type, onceWrap(this, type, listener));
  return this;
};

/** @this {any} */
proto.removeListener = function removeListener(type, listener) {
  checkListener(listener);
  const events = this._events;
  if (events === undefined) return this;
  const list = events[type];
  if (list === undefined) return this;
  if (list === listener || list.listener === listener) {
    if (--this._eventsCount === 0) this._events = ObjectCreate(null);
    else delete events[type];
    if (events.removeListener !== undefined) this.emit("removeListener", type, list.listener || listener);
    return this;
  }
  if (typeof list === "function") return this;
  let position = -1;
  for (let i = list.length - 1; i >= 0; i--) {
    if (list[i] === listener || list[i].listener === listener) {
      position = i;
      break;
    }
  }
  if (position < 0) return this;
  const [removed] = ArrayPrototypeSplice(list, position, 1);
  if (list.length === 1) events[type] = list[0];
  if (events.removeListener !== undefined) this.emit("removeListener", type, removed.listener || listener);
  return this;
};
proto.off = proto.removeListener;

/** @this {any} */
proto.removeAllListeners = function removeAllListeners(type) {
  const events = this._events;
  if (events === undefined) return this;
  if (events.removeListener === undefined) {
    if (arguments.length === 0) {
      this._events = ObjectCreate(null);
      this._eventsCount = 0;
    } else if (events[type] !== undefined) {
      if (--this._eventsCount === 0) this._events = ObjectCreate(null);
      else delete events[type];
    }
    return this;
  }
  if (arguments.length === 0) {
    for (const key of ReflectOwnKeys(events)) if (key !== "removeListener") this.removeAllListeners(key);
    this.removeAllListeners("removeListener");
    this._events = ObjectCreate(null);
    this._eventsCount = 0;
    return this;
  }
  const listeners = events[type];
  if (typeof listeners === "function") this.removeListener(type, listeners);
  else if (listeners !== undefined) for (let i = listeners.length - 1; i >= 0; i--) this.removeListener(type, listeners[i]);
  return this;
};

function listenersOf(target, type, unwrap) {
  const list = target._events?.[type];
  if (list === undefined) return [];
  if (typeof list === "function") return unwrap ? [list.listener || list] : [list];
  return unwrap ? MethodMap(list, (l) => l.listener || l) : ArrayPrototypeSlice(list);
}

proto.listeners = function listeners(type) {
  return listenersOf(this, type, true);
};
proto.rawListeners = function rawListeners(type) {
  return listenersOf(this, type, false);
};
proto.listenerCount = function listenerCount(type, listener) {
  const list = this._events?.[type];
  if (list === undefined) return 0;
  if (typeof list === "function") return listener === undefined || list === listener || list.listener === listener ? 1 : 0;
  if (listener === undefined) return list.length;
  let count = 0;
  for (const l of list) if (l === listener || l.listener === listener) count++;
  return count;
};
proto.eventNames = function eventNames() {
  return this._eventsCount > 0 ? ReflectOwnKeys(this._events) : [];
};

ObjectDefineProperty(EventEmitter, "defaultMaxListeners", {
  enumerable: true,
  get() { return defaultMaxListeners; },
  set(n) {
    checkMaxListeners(n, "defaultMaxListeners", "a non-negative number");
    defaultMaxListeners = n;
  },
});

ObjectDefineProperty(EventEmitter, "captureRejections", {
  enumerable: true,
  get() { return proto[kCapture] === true; },
  set(value) {
    if (typeof value !== "boolean") throw invalidArgType("EventEmitter.captureRejections", "boolean", value);
    proto[kCapture] = value;
  },
});

/// Node's AbortError: `name` "AbortError", `code` "ABORT_ERR", the signal's reason as `cause`.
function abortError(signal) {
  const error = make(Error, "ABORT_ERR", "The operation was aborted");
  error.name = "AbortError";
  if (signal?.reason !== undefined) error.cause = signal.reason;
  return error;
}
internal.nodeAbortError = abortError;

function checkSignal(signal) {
  if (signal !== undefined && (signal === null || typeof signal !== "object" || !("aborted" in signal))) {
    throw invalidArgType("options.signal", "AbortSignal", signal);
  }
}

/// A promise of the arguments of `emitter`'s next `name` event (rejected by an 'error' event first).
function once(emitter, name, options = {}) {
  const signal = options?.signal;
  checkSignal(signal);
  if (signal?.aborted) return PromiseReject(abortError(signal));
  return new Promise((resolve, reject) => {
    if (typeof emitter.addEventListener === "function" && typeof emitter.on !== "function") {
      const listener = (event) => {
        signal?.removeEventListener("abort", onAbort);
        resolve([event]);
      };
      const onAbort = () => {
        emitter.removeEventListener(name, listener);
        reject(abortError(signal));
      };
      emitter.addEventListener(name, listener, { once: true });
      signal?.addEventListener("abort", onAbort, { once: true });
      return;
    }
    const onEvent = (...args) => {
      if (name !== "error") emitter.removeListener("error", onError);
      signal?.removeEventListener("abort", onAbort);
      resolve(args);
    };
    const onError = (error) => {
      emitter.removeListener(name, onEvent);
      signal?.removeEventListener("abort", onAbort);
      reject(error);
    };
    const onAbort = () => {
      emitter.removeListener(name, onEvent);
      emitter.removeListener("error", onError);
      reject(abortError(signal));
    };
    emitter.once(name, onEvent);
    if (name !== "error") emitter.once("error", onError);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/// An async iterator of the argument arrays of `emitter`'s `name` events; an 'error' event makes it throw.
function on(emitter, name, options = {}) {
  const signal = options?.signal;
  checkSignal(signal);
  if (signal?.aborted) throw abortError(signal);
  const queue = [];
  const waiting = [];
  let failure = null;
  let finished = false;
  const onEvent = (...args) => {
    if (waiting.length > 0) ArrayPrototypeShift(waiting).resolve({ value: args, done: false });
    else ArrayPrototypePush(queue, args);
  };
  const onError = (error) => {
    finished = true;
    if (waiting.length > 0) ArrayPrototypeShift(waiting).reject(error);
    else failure = error;
    iterator.return();
  };
  const onAbort = () => onError(abortError(signal));
  emitter.on(name, onEvent);
  if (name !== "error") emitter.on("error", onError);
  signal?.addEventListener("abort", onAbort, { once: true });
  const iterator = {
    next() {
      if (queue.length > 0) return PromiseResolve({ value: ArrayPrototypeShift(queue), done: false });
      if (failure !== null) {
        const error = failure;
        failure = null;
        return PromiseReject(error);
      }
      if (finished) return PromiseResolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => ArrayPrototypePush(waiting, { resolve, reject }));
    },
    return() {
      emitter.removeListener(name, onEvent);
      emitter.removeListener("error", onError);
      signal?.removeEventListener("abort", onAbort);
      finished = true;
      for (const waiter of ArrayPrototypeSplice(waiting, 0)) waiter.resolve({ value: undefined, done: true });
      return PromiseResolve({ value: undefined, done: true });
    },
    throw(error) {
      onError(error);
      return PromiseReject(error);
    },
    [SymbolAsyncIterator]() { return this; },
  };
  return iterator;
}

function getEventListeners(target, name) {
  if (typeof target.listeners === "function") return target.listeners(name);
  throw make(TypeError, "ERR_INVALID_ARG_TYPE", 'The "emitter" argument must be an instance of EventEmitter or EventTarget.');
}

function setMaxListeners(n = defaultMaxListeners, ...targets) {
  checkMaxListeners(n, "n");
  if (targets.length === 0) defaultMaxListeners = n;
  for (const target of targets) if (typeof target.setMaxListeners === "function") target.setMaxListeners(n);
}

function listenerCount(emitter, type) {
  return emitter.listenerCount(type);
}

ObjectAssign(EventEmitter, {
  EventEmitter, once, on, getEventListeners, setMaxListeners, listenerCount, errorMonitor,
  captureRejectionSymbol: Symbol.for("nodejs.rejection"),
  usingDomains: false,
});

internal.EventEmitter = EventEmitter;
internal.nodeExport("events", EventEmitter);
