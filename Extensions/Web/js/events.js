// events.js - DOMException, Event, CustomEvent, EventTarget, AbortController, AbortSignal (WHATWG DOM).
// Also set on `internal` for later runtime files. A listener that throws is reported through
// internal.reportUncaught (errors.js), like an uncaught exception in Node.

// Web IDL's DOMException: a platform object whose prototype's prototype is Error.prototype. `name`, `message`
// and `code` are accessors on the prototype (instances own no `message`); the legacy code constants are on
// both the constructor and the prototype. Built from the primordials: a script that replaces Error or
// Object.defineProperty before the first DOMException is made does not change it.
const {
  ArrayPrototypePush, ArrayPrototypeSplice, Error: OriginalError, FunctionPrototypeCall, MethodFilter, MethodFind,
  MethodForEach, NumberIsFinite, ObjectAssign, ObjectCreate, ObjectDefineProperty, ObjectEntries,
  ObjectSetPrototypeOf, ReflectConstruct, ReflectGetPrototypeOf, SafeMap, SafeSet, SafeWeakMap,
  String: OriginalString, StringPrototypeIndexOf, StringPrototypeSlice, StringPrototypeStartsWith,
  TypeError: OriginalTypeError,
} = internal.primordials;

// Legacy codes, indexed by code - 1; names that are not error names are kept only for their constants.
const legacyCodes = [
  ['IndexSizeError', 'INDEX_SIZE_ERR'], [null, 'DOMSTRING_SIZE_ERR'], ['HierarchyRequestError', 'HIERARCHY_REQUEST_ERR'],
  ['WrongDocumentError', 'WRONG_DOCUMENT_ERR'], ['InvalidCharacterError', 'INVALID_CHARACTER_ERR'],
  [null, 'NO_DATA_ALLOWED_ERR'], ['NoModificationAllowedError', 'NO_MODIFICATION_ALLOWED_ERR'],
  ['NotFoundError', 'NOT_FOUND_ERR'], ['NotSupportedError', 'NOT_SUPPORTED_ERR'], ['InUseAttributeError', 'INUSE_ATTRIBUTE_ERR'],
  ['InvalidStateError', 'INVALID_STATE_ERR'], ['SyntaxError', 'SYNTAX_ERR'], ['InvalidModificationError', 'INVALID_MODIFICATION_ERR'],
  ['NamespaceError', 'NAMESPACE_ERR'], ['InvalidAccessError', 'INVALID_ACCESS_ERR'], [null, 'VALIDATION_ERR'],
  ['TypeMismatchError', 'TYPE_MISMATCH_ERR'], ['SecurityError', 'SECURITY_ERR'], ['NetworkError', 'NETWORK_ERR'],
  ['AbortError', 'ABORT_ERR'], ['URLMismatchError', 'URL_MISMATCH_ERR'], ['QuotaExceededError', 'QUOTA_EXCEEDED_ERR'],
  ['TimeoutError', 'TIMEOUT_ERR'], ['InvalidNodeTypeError', 'INVALID_NODE_TYPE_ERR'], ['DataCloneError', 'DATA_CLONE_ERR'],
];
const codeOfName = ObjectCreate(null);
MethodForEach(legacyCodes, ([name], i) => {
  if (name !== null) codeOfName[name] = i + 1;
});

const domExceptions = new SafeWeakMap(); // DOMException -> { name, message }

function exceptionState(receiver, member) {
  const state = receiver !== null && typeof receiver === 'object' ? domExceptions.get(receiver) : undefined;
  if (state === undefined) {
    throw new OriginalTypeError(`'get ${member}' called on an object that is not a valid instance of DOMException.`);
  }
  return state;
}

/// new DOMException(message = "", name = "Error"), or new DOMException(message, { name, cause }) as Node's.
/** @constructor */
function DOMException(message = undefined, options = undefined) {
  if (new.target === undefined) throw new OriginalTypeError("Class constructor DOMException cannot be invoked without 'new'");
  const text = message === undefined ? '' : OriginalString(message);
  let name = 'Error';
  let cause, hasCause = false;
  if (options !== null && typeof options === 'object') {
    if (options.name !== undefined) name = OriginalString(options.name);
    if ('cause' in options) {
      hasCause = true;
      cause = options.cause;
    }
  } else if (options !== undefined) {
    name = OriginalString(options);
  }
  // An Error object (so it has a stack and Error.isError answers true) with DOMException's prototype.
  const exception = ReflectConstruct(OriginalError, [], new.target);
  domExceptions.set(exception, { name, message: text });
  // The stack starts at the caller, without Reflect.construct's frame and this constructor's.
  const stack = exception.stack;
  if (typeof stack === 'string') {
    let start = 0;
    for (const frame of ['construct@', 'DOMException@']) {
      if (!StringPrototypeStartsWith(stack, frame, start)) continue;
      const end = StringPrototypeIndexOf(stack, '\n', start);
      start = end === -1 ? stack.length : end + 1;
    }
    if (start > 0) {
      ObjectDefineProperty(exception, 'stack', { value: StringPrototypeSlice(stack, start), writable: true, enumerable: false, configurable: true });
    }
  }
  if (hasCause) ObjectDefineProperty(exception, 'cause', { value: cause, writable: true, enumerable: false, configurable: true });
  return exception;
}
ObjectSetPrototypeOf(DOMException, ReflectGetPrototypeOf(OriginalError)); // Function.prototype
const DOMExceptionPrototype = ObjectCreate(OriginalError.prototype);
ObjectDefineProperty(DOMException, 'prototype', { value: DOMExceptionPrototype, writable: false, enumerable: false, configurable: false });
ObjectDefineProperty(DOMExceptionPrototype, 'constructor', { value: DOMException, writable: true, enumerable: false, configurable: true });
const accessors = {
  name() { return exceptionState(this, 'name').name; },
  message() { return exceptionState(this, 'message').message; },
  code() { return codeOfName[exceptionState(this, 'code').name] ?? 0; },
};
for (const key of ['name', 'message', 'code']) {
  const get = accessors[key];
  ObjectDefineProperty(get, 'name', { value: `get ${key}` });
  ObjectDefineProperty(DOMExceptionPrototype, key, { get, set: undefined, enumerable: true, configurable: true });
}
ObjectDefineProperty(DOMExceptionPrototype, Symbol.toStringTag, { value: 'DOMException', writable: false, enumerable: false, configurable: true });
MethodForEach(legacyCodes, ([, constant], i) => {
  for (const target of [DOMException, DOMExceptionPrototype]) {
    ObjectDefineProperty(target, constant, { value: i + 1, writable: false, enumerable: true, configurable: false });
  }
});
/// Whether `value` was made by the DOMException constructor (a brand check).
internal.isDOMException = (value) => value !== null && typeof value === 'object' && domExceptions.has(value);

const NONE = 0;
const AT_TARGET = 2;
const phases = { NONE, CAPTURING_PHASE: 1, AT_TARGET, BUBBLING_PHASE: 3 };
const eventState = new SafeWeakMap(); // Event -> internal flags

class Event {
  #type;
  #init;
  #timeStamp = internal.now();

  constructor(type, init = {}) {
    if (arguments.length === 0) throw new TypeError('The "type" argument must be specified');
    this.#type = `${type}`;
    this.#init = { bubbles: Boolean(init?.bubbles), cancelable: Boolean(init?.cancelable), composed: Boolean(init?.composed) };
    eventState.set(this, { target: null, currentTarget: null, phase: NONE, canceled: false, stop: false, stopNow: false, passive: false, dispatching: false, trusted: false });
  }

  get type() { return this.#type; }
  get bubbles() { return this.#init.bubbles; }
  get cancelable() { return this.#init.cancelable; }
  get composed() { return this.#init.composed; }
  get timeStamp() { return this.#timeStamp; }
  get target() { return eventState.get(this).target; }
  get srcElement() { return this.target; }
  get currentTarget() { return eventState.get(this).currentTarget; }
  get eventPhase() { return eventState.get(this).phase; }
  get isTrusted() { return eventState.get(this).trusted; }
  get defaultPrevented() { return eventState.get(this).canceled; }
  get returnValue() { return !this.defaultPrevented; }
  set returnValue(value) { if (!value) this.preventDefault(); }
  get cancelBubble() { return eventState.get(this).stop; }
  set cancelBubble(value) { if (value) this.stopPropagation(); }

  composedPath() {
    const state = eventState.get(this);
    return state.dispatching ? [state.currentTarget] : [];
  }

  preventDefault() {
    const state = eventState.get(this);
    if (this.cancelable && !state.passive) state.canceled = true;
  }

  stopPropagation() {
    eventState.get(this).stop = true;
  }

  /// The legacy initializer (DOM): sets type, bubbles and cancelable; does nothing while dispatching.
  initEvent(type, bubbles = false, cancelable = false) {
    const state = eventState.get(this);
    if (state === undefined) throw new TypeError('Illegal invocation');
    if (arguments.length === 0) throw new TypeError("Failed to execute 'initEvent' on 'Event': 1 argument required, but only 0 present.");
    type = `${type}`;
    if (state.dispatching) return;
    this.#type = type;
    this.#init = { bubbles: Boolean(bubbles), cancelable: Boolean(cancelable), composed: this.#init.composed };
    ObjectAssign(state, { stop: false, stopNow: false, canceled: false, trusted: false, target: null });
  }

  stopImmediatePropagation() {
    const state = eventState.get(this);
    state.stop = true;
    state.stopNow = true;
  }

  get [Symbol.toStringTag]() {
    return 'Event';
  }
}
for (const target of [Event, Event.prototype]) {
  for (const [name, value] of ObjectEntries(phases)) ObjectDefineProperty(target, name, { value, enumerable: true });
}

class CustomEvent extends Event {
  #detail;

  constructor(type, init = {}) {
    super(type, init);
    this.#detail = init?.detail ?? null;
  }

  get detail() {
    return this.#detail;
  }

  get [Symbol.toStringTag]() {
    return 'CustomEvent';
  }
}

class EventTarget {
  #listeners = null; // type -> [{ callback, capture, once, passive, removed }]; made with the first listener

  /// Adds a listener (a function or an object with handleEvent); options: capture, once, passive, signal.
  addEventListener(type, callback, options) {
    // Plain loops and locals, no closures or option objects: AbortSignals take two listeners per bridge call.
    let capture = false, once = false, passive = false, signal;
    if (typeof options === 'boolean') {
      capture = options;
    } else if (options !== undefined && options !== null) {
      capture = Boolean(options.capture);
      once = Boolean(options.once);
      passive = Boolean(options.passive);
      signal = options.signal;
    }
    if (callback === null || callback === undefined) return;
    if (signal !== undefined && signal.aborted) return;
    type = `${type}`;
    const listeners = this.#listeners ??= new SafeMap();
    let list = listeners.get(type);
    if (list === undefined) {
      listeners.set(type, list = []);
    } else {
      for (let i = 0; i < list.length; i++) if (list[i].callback === callback && list[i].capture === capture) return;
    }
    ArrayPrototypePush(list, { callback, capture, once, passive, removed: false });
    if (signal !== undefined) {
      signal.addEventListener('abort', () => this.removeEventListener(type, callback, { capture }), { once: true });
    }
  }

  removeEventListener(type, callback, options) {
    const capture = typeof options === 'boolean' ? options : Boolean(options?.capture);
    type = `${type}`;
    const list = this.#listeners?.get(type);
    if (list === undefined) return;
    for (let i = 0; i < list.length; i++) {
      const listener = list[i];
      if (listener.callback !== callback || listener.capture !== capture) continue;
      listener.removed = true;
      ArrayPrototypeSplice(list, i, 1);
      if (list.length === 0) this.#listeners.delete(type);
      return;
    }
  }

  /// Calls the listeners for event.type in order; returns false if a listener called preventDefault().
  dispatchEvent(event) {
    if (!(event instanceof Event)) throw new TypeError('The "event" argument must be an instance of Event.');
    const state = eventState.get(event);
    if (state.dispatching) throw new DOMException('The event is already being dispatched.', 'InvalidStateError');
    ObjectAssign(state, { target: this, currentTarget: this, phase: AT_TARGET, dispatching: true, stop: false, stopNow: false });
    try {
      for (const listener of [...(this.#listeners?.get(event.type) ?? [])]) {
        if (listener.removed) continue;
        if (listener.once) this.removeEventListener(event.type, listener.callback, { capture: listener.capture });
        state.passive = listener.passive;
        try {
          const { callback } = listener;
          if (typeof callback === 'function') FunctionPrototypeCall(callback, this, event);
          else if (typeof callback.handleEvent === 'function') callback.handleEvent(event);
        } catch (err) {
          internal.reportUncaught(err, 'exception');
        }
        state.passive = false;
        if (state.stopNow) break;
      }
    } finally {
      ObjectAssign(state, { currentTarget: null, phase: NONE, dispatching: false });
    }
    return !state.canceled;
  }

  get [Symbol.toStringTag]() {
    return 'EventTarget';
  }
}

const signalToken = Symbol('AbortSignal');
const signalState = new SafeWeakMap(); // AbortSignal -> { aborted, reason, onabort, dependents (a Set or null), sources }
const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

const abortError = () => new DOMException('This operation was aborted', 'AbortError');

// Marks the signal aborted, aborts signals created by AbortSignal.any from it, then fires 'abort'.
function abortSignal(signal, reason) {
  const state = signalState.get(signal);
  if (state.aborted) return;
  state.aborted = true;
  state.reason = reason === undefined ? abortError() : reason;
  const dependents = state.dependents === null ? [] : MethodFilter([...state.dependents], (dependent) => !dependent.aborted);
  state.dependents = null;
  for (const dependent of dependents) ObjectAssign(signalState.get(dependent), { aborted: true, reason: state.reason });
  fireAbort(signal);
  MethodForEach(dependents, fireAbort);
}

function fireAbort(signal) {
  const event = new Event('abort');
  eventState.get(event).trusted = true;
  signal.dispatchEvent(event);
}

const createSignal = () => new AbortSignal(signalToken);

class AbortSignal extends EventTarget {
  constructor(token) {
    if (token !== signalToken) throw new TypeError('Illegal constructor');
    super();
    signalState.set(this, { aborted: false, reason: undefined, onabort: null, dependents: null, sources: null });
  }

  get aborted() {
    return signalState.get(this).aborted;
  }

  get reason() {
    return signalState.get(this).reason;
  }

  throwIfAborted() {
    if (this.aborted) throw this.reason;
  }

  get onabort() {
    return signalState.get(this).onabort;
  }

  set onabort(handler) {
    const state = signalState.get(this);
    if (state.onabortListener === undefined) {
      state.onabortListener = (event) => { if (state.onabort !== null) FunctionPrototypeCall(state.onabort, this, event); };
      this.addEventListener('abort', state.onabortListener);
    }
    state.onabort = typeof handler === 'function' ? handler : null;
  }

  /// A signal that is already aborted with `reason`.
  static abort(reason) {
    const signal = createSignal();
    abortSignal(signal, reason);
    return signal;
  }

  /// A signal that aborts with a TimeoutError DOMException after `ms` milliseconds (does not keep the process alive).
  static timeout(ms) {
    ms = Number(ms);
    if (!NumberIsFinite(ms) || ms < 0) throw new RangeError(`The value of "delay" is out of range. Received ${ms}`);
    const signal = createSignal();
    // The engine's setTimeout answers a Timeout (timers.js), not lib.webworker's number.
    const timer = /** @type {any} */ (setTimeout(() => abortSignal(signal, new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms));
    timer?.unref?.();
    return signal;
  }

  /// A signal that aborts when any of `signals` aborts, with that signal's reason.
  /// Sources hold their dependents strongly until they abort (simpler than the spec's weak references).
  static any(signals) {
    const result = createSignal();
    const inputs = [...signals];
    const aborted = MethodFind(inputs, (s) => s.aborted);
    if (aborted !== undefined) {
      abortSignal(result, aborted.reason);
      return result;
    }
    const sources = new SafeSet(inputs.flatMap((s) => signalState.get(s).sources ?? [s]));
    signalState.get(result).sources = [...sources];
    for (const source of sources) (signalState.get(source).dependents ??= new SafeSet()).add(result);
    return result;
  }

  [inspectCustom](depth, options, inspect) {
    return `AbortSignal ${inspect({ aborted: this.aborted }, options)}`;
  }

  get [Symbol.toStringTag]() {
    return 'AbortSignal';
  }
}

class AbortController {
  #signal = createSignal();

  get signal() {
    return this.#signal;
  }

  /// Aborts the signal with `reason` (default: an AbortError DOMException).
  abort(reason) {
    abortSignal(this.#signal, reason);
  }

  [inspectCustom](depth, options, inspect) {
    return `AbortController ${inspect({ signal: this.#signal }, options)}`;
  }

  get [Symbol.toStringTag]() {
    return 'AbortController';
  }
}

ObjectAssign(internal, { DOMException, Event, CustomEvent, EventTarget, AbortSignal, AbortController, abortSignal });
for (const [name, value] of ObjectEntries({ DOMException, Event, CustomEvent, EventTarget, AbortSignal, AbortController })) {
  internal.defineGlobal(name, value);
}
