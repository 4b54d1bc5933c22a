// message-channel.js - MessageChannel, MessagePort and MessageEvent (HTML's channel messaging) within one
// runtime. A posted message is structured-cloned at once (what its transfer list names is moved then) and
// delivered to the entangled port as a task, in order, once that port is started (`start()`, or setting
// `onmessage`). A port can itself be transferred (by `postMessage` or `structuredClone`): the new port takes
// over the old one's entanglement and queued messages, and the old one no longer sends or receives.
// A queued message keeps the process running until it is delivered; an idle port does not.

const {
  ArrayPrototypePush,
} = internal.primordials;
const { ObjectDefineProperty, ObjectFreeze, SafeWeakMap, SymbolIterator, SymbolToStringTag, TypeError } =
  internal.primordials;
const { DOMException, Event, EventTarget, Timeout } = internal;

// MARK: - MessageEvent

class MessageEvent extends Event {
  #data;
  #origin;
  #lastEventId;
  #source;
  #ports;

  constructor(type, init = undefined) {
    if (arguments.length === 0) {
      throw new TypeError("Failed to construct 'MessageEvent': 1 argument required, but only 0 present.");
    }
    super(type, init);
    const options = init ?? {};
    this.#data = options.data === undefined ? null : options.data;
    this.#origin = options.origin === undefined ? "" : `${options.origin}`;
    this.#lastEventId = options.lastEventId === undefined ? "" : `${options.lastEventId}`;
    this.#source = options.source ?? null;
    this.#ports = ObjectFreeze(options.ports === undefined ? [] : [...options.ports]);
  }

  get data() { return this.#data; }
  get origin() { return this.#origin; }
  get lastEventId() { return this.#lastEventId; }
  get source() { return this.#source; }
  get ports() { return this.#ports; }
}

// MARK: - MessagePort

const constructing = Symbol("MessagePort");
/// Each port's state: { port, other (the entangled port's state, or null), queue, started, closed, detached
/// (transferred away), scheduled, onmessage }.
const states = new SafeWeakMap();

function stateOf(port) {
  const state = states.get(port);
  if (state === undefined) throw new TypeError("Illegal invocation");
  return state;
}

function makePort() {
  const port = new MessagePort(constructing);
  const state = {
    port, other: null, queue: [], started: false, closed: false, detached: false, scheduled: false, onmessage: null,
  };
  states.set(port, state);
  return state;
}

/// Delivers `state`'s queued messages as a task once it is started.
function schedule(state) {
  if (!state.started || state.scheduled || state.closed || state.queue.length === 0) return;
  state.scheduled = true;
  new Timeout(() => {
    state.scheduled = false;
    // Messages queued by a listener wait for the next task; a transfer in between moves them with the port.
    const batch = state.queue;
    state.queue = [];
    for (let i = 0; i < batch.length; i++) {
      if (state.closed) break;
      state.port.dispatchEvent(new MessageEvent("message", { data: batch[i] }));
    }
  }, 0, [], false);
}

/// The transfer list of postMessage's second argument: a sequence, or StructuredSerializeOptions.
function transferOf(argument) {
  if (argument === undefined || argument === null) return [];
  if (typeof argument !== "object" && typeof argument !== "function") {
    throw new TypeError("Failed to execute 'postMessage' on 'MessagePort': The transfer argument is not an object.");
  }
  if (typeof argument[SymbolIterator] === "function") return [...argument];
  return argument.transfer === undefined ? [] : [...argument.transfer];
}

class MessagePort extends EventTarget {
  constructor(token = undefined) {
    if (token !== constructing) throw new TypeError("Illegal constructor");
    super();
  }

  postMessage(message, transfer = undefined) {
    const state = stateOf(this);
    if (arguments.length === 0) {
      throw new TypeError("Failed to execute 'postMessage' on 'MessagePort': 1 argument required, but only 0 present.");
    }
    const list = transferOf(transfer);
    for (let i = 0; i < list.length; i++) {
      if (list[i] === this) throw new DOMException("A MessagePort cannot transfer itself.", "DataCloneError");
    }
    // Cloned (and transferred) even when nobody will receive it, as the standard says.
    const data = internal.structuredClone(message, { transfer: list });
    const target = state.closed ? null : state.other;
    if (target === null || target.closed) return;
    ArrayPrototypePush(target.queue, data);
    schedule(target);
  }

  start() {
    const state = stateOf(this);
    state.started = true;
    schedule(state);
  }

  close() {
    const state = stateOf(this);
    state.closed = true;
    state.queue = [];
    if (state.other !== null) state.other.other = null;
    state.other = null;
  }

  get onmessage() { return stateOf(this).onmessage; }
  set onmessage(handler) {
    const state = stateOf(this);
    if (state.onmessage !== null) this.removeEventListener("message", state.onmessage);
    state.onmessage = typeof handler === "function" ? handler : null;
    if (state.onmessage !== null) {
      this.addEventListener("message", state.onmessage);
      this.start(); // setting onmessage starts the port
    }
  }
}
ObjectDefineProperty(MessagePort.prototype, SymbolToStringTag, { value: "MessagePort", configurable: true });
ObjectDefineProperty(MessageEvent.prototype, SymbolToStringTag, { value: "MessageEvent", configurable: true });

class MessageChannel {
  #port1;
  #port2;

  constructor() {
    const one = makePort();
    const two = makePort();
    one.other = two;
    two.other = one;
    this.#port1 = one.port;
    this.#port2 = two.port;
  }

  get port1() { return this.#port1; }
  get port2() { return this.#port2; }
}
ObjectDefineProperty(MessageChannel.prototype, SymbolToStringTag, { value: "MessageChannel", configurable: true });

// For structured-clone.js: ports are transferable, and only transferable (a port outside the transfer list
// cannot be cloned).
internal.messagePorts = {
  isPort: (value) => states.has(value),
  /// Whether `port` was already transferred (it cannot be transferred again; a closed port can).
  isDetached: (port) => states.get(port).detached,
  /// A new port that takes over `port`'s entanglement and queue (not started, as HTML's transfer-receiving
  /// steps say); `port` is left detached and closed.
  transfer(port) {
    const old = states.get(port);
    const moved = makePort();
    moved.other = old.other;
    if (moved.other !== null) moved.other.other = moved;
    moved.queue = old.queue;
    old.other = null;
    old.queue = [];
    old.closed = true;
    old.detached = true;
    return moved.port;
  },
};

internal.defineGlobal("MessageChannel", MessageChannel);
internal.defineGlobal("MessagePort", MessagePort);
internal.defineGlobal("MessageEvent", MessageEvent);
internal.MessageEvent = MessageEvent;
