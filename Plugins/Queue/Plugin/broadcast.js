// BroadcastChannel (HTML's broadcasting to other browsing contexts), across processes and hosts: a message
// goes to every other BroadcastChannel of the same name and app id - in this process at once (as a task),
// and in other processes through the Queue plugin's stored log (the SQLite file beside Storage's, or Storage's
// PostgreSQL). Each process reads the log after the last message it delivered, so messages arrive once, in
// each sender's order, and a short disconnection loses nothing. See docs/queues.md.

const PLUGIN = "Queue";
const {
  ArrayBuffer, ArrayBufferIsView, ArrayIsArray, DataView, TypedArrayPrototypeGetSymbolToStringTag, ArrayPrototypeIndexOf, ArrayPrototypePush, ArrayPrototypeSplice, BigInt,
  Date, DatePrototypeGetTime, Error, JSONParse, JSONStringify, Map, NumberIsFinite, ObjectDefineProperty, ObjectIs,
  ObjectKeys, ObjectPrototypeToString, PromisePrototypeThen, RegExp, RegExpPrototypeGetSource, SafeMap, Set,
  String, SymbolToStringTag, TypeError, Uint8Array,
} = runtime.primordials;
const { DOMException, EventTarget, MessageEvent, structuredClone, base64Encode, base64Decode } = runtime;

// MARK: - The wire form: structured-cloneable values as JSON text

const typedArrayNames = [
  "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
  "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array",
];
const typedArrays = { __proto__: null };
for (const name of typedArrayNames) if (typeof globalThis[name] === "function") typedArrays[name] = globalThis[name];

function uncloneable(what) {
  return new DOMException(`${what} could not be sent to other processes.`, "DataCloneError");
}

function bytesOf(buffer, offset, length) {
  return base64Encode(new Uint8Array(buffer, offset, length));
}

/// `value` (already checked by structuredClone) as a JSON-safe tree: primitives as themselves (strings,
/// finite numbers other than -0, booleans, null), everything else as `[tag, ...]`; objects seen before as
/// `["@", index]` (cycles and shared references survive).
function encode(value, seen) {
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (value === undefined) return ["u"];
  if (typeof value === "number") {
    if (ObjectIs(value, -0)) return ["n", "-0"];
    return NumberIsFinite(value) ? value : ["n", String(value)];
  }
  if (typeof value === "bigint") return ["b", String(value)];
  const index = seen.get(value);
  if (index !== undefined) return ["@", index];
  seen.set(value, seen.size);
  const tag = ObjectPrototypeToString(value);
  if (ArrayIsArray(value)) {
    const items = [];
    for (const key of ObjectKeys(value)) ArrayPrototypePush(items, key, encode(value[key], seen));
    return ["a", value.length, items];
  }
  switch (tag) {
    case "[object Date]": return ["d", DatePrototypeGetTime(value)];
    case "[object RegExp]": return ["r", RegExpPrototypeGetSource(value), value.flags];
    case "[object Map]": {
      const entries = [];
      for (const [k, v] of value) ArrayPrototypePush(entries, encode(k, seen), encode(v, seen));
      return ["m", entries];
    }
    case "[object Set]": {
      const entries = [];
      for (const v of value) ArrayPrototypePush(entries, encode(v, seen));
      return ["s", entries];
    }
    case "[object ArrayBuffer]": return ["ab", bytesOf(value, 0, value.byteLength)];
    case "[object Error]":
      return ["e", String(value.name), String(value.message), typeof value.stack === "string" ? value.stack : ""];
    case "[object Boolean]": case "[object Number]": case "[object String]": case "[object BigInt]":
      throw uncloneable("A boxed primitive");
    default: break;
  }
  if (ArrayBufferIsView(value)) {
    const name = TypedArrayPrototypeGetSymbolToStringTag(value);
    if (name === undefined) return ["dv", bytesOf(value.buffer, value.byteOffset, value.byteLength)];
    if (typedArrays[name] === undefined) throw uncloneable(`A ${name}`);
    return ["t", name, bytesOf(value.buffer, value.byteOffset, value.byteLength)];
  }
  if (tag !== "[object Object]") throw uncloneable(`A ${tag.slice(8, -1)}`);
  const properties = [];
  for (const key of ObjectKeys(value)) ArrayPrototypePush(properties, key, encode(value[key], seen));
  return ["o", properties];
}

function buffer(base64) {
  const bytes = base64Decode(base64);
  const copy = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(copy).set(bytes);
  return copy;
}

function define(object, key, value) {
  ObjectDefineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

function decode(node, objects) {
  if (node === null || typeof node !== "object") return node;
  const [tag] = node;
  let value;
  switch (tag) {
    case "u": return undefined;
    case "n": return +node[1];
    case "b": return BigInt(node[1]);
    case "@": return objects[node[1]];
    case "a": {
      value = new Array(node[1]);
      ArrayPrototypePush(objects, value);
      const items = node[2];
      for (let i = 0; i < items.length; i += 2) define(value, items[i], decode(items[i + 1], objects));
      return value;
    }
    case "o": {
      value = {};
      ArrayPrototypePush(objects, value);
      const items = node[1];
      for (let i = 0; i < items.length; i += 2) define(value, items[i], decode(items[i + 1], objects));
      return value;
    }
    case "m": {
      value = new Map();
      ArrayPrototypePush(objects, value);
      const items = node[1];
      for (let i = 0; i < items.length; i += 2) value.set(decode(items[i], objects), decode(items[i + 1], objects));
      return value;
    }
    case "s": {
      value = new Set();
      ArrayPrototypePush(objects, value);
      for (const item of node[1]) value.add(decode(item, objects));
      return value;
    }
    case "d": value = new Date(node[1]); break;
    case "r": value = new RegExp(node[1], node[2]); break;
    case "ab": value = buffer(node[1]); break;
    case "dv": value = new DataView(buffer(node[1])); break;
    case "t": {
      const Constructor = typedArrays[node[1]];
      value = new Constructor(buffer(node[2]));
      break;
    }
    case "e": {
      const Constructor = globalThis[node[1]] ?? Error;
      value = new (typeof Constructor === "function" ? Constructor : Error)(node[2]);
      define(value, "stack", node[3]);
      break;
    }
    default: throw new TypeError(`BroadcastChannel: unknown wire tag ${tag}`);
  }
  ArrayPrototypePush(objects, value);
  return value;
}

/// `message` checked and cloned as the standard says (a DataCloneError for what cannot be cloned), as text.
function serialize(message) {
  const clone = structuredClone(message);
  return JSONStringify(encode(clone, new SafeMap()));
}

function deserialize(text) {
  return decode(JSONParse(text), []);
}

// MARK: - Channels

const byName = new SafeMap(); // name -> { channels: [BroadcastChannel], subscription }
let deliver; // (channel, wire text) => void: set by the class's static block

function listen(name, entry) {
  const after = plugin.execSync("channelCursor", []);
  entry.subscription = plugin.subscribe("channelListen", { channel: name, after }, (message) => {
    for (const channel of [...entry.channels]) deliver(channel, message.data);
  }, (error) => runtime.reportError(error));
}

class BroadcastChannel extends EventTarget {
  #name;
  #closed = false;
  #onmessage = null;
  #onmessageerror = null;

  constructor(name) {
    if (arguments.length === 0) {
      throw new TypeError("Failed to construct 'BroadcastChannel': 1 argument required, but only 0 present.");
    }
    super();
    this.#name = `${name}`;
    let entry = byName.get(this.#name);
    if (entry === undefined) {
      entry = { channels: [], subscription: undefined };
      byName.set(this.#name, entry);
      listen(this.#name, entry);
    }
    ArrayPrototypePush(entry.channels, this);
  }

  get name() { return this.#name; }

  get onmessage() { return this.#onmessage; }
  set onmessage(handler) { this.#setHandler("message", handler); }
  get onmessageerror() { return this.#onmessageerror; }
  set onmessageerror(handler) { this.#setHandler("messageerror", handler); }

  #setHandler(type, handler) {
    const current = type === "message" ? this.#onmessage : this.#onmessageerror;
    if (current !== null) this.removeEventListener(type, current);
    const next = typeof handler === "function" ? handler : null;
    if (next !== null) this.addEventListener(type, next);
    if (type === "message") this.#onmessage = next; else this.#onmessageerror = next;
  }

  postMessage(message) {
    if (arguments.length === 0) {
      throw new TypeError("Failed to execute 'postMessage' on 'BroadcastChannel': 1 argument required, but only 0 present.");
    }
    if (this.#closed) throw new DOMException("BroadcastChannel is closed.", "InvalidStateError");
    const data = serialize(message);
    const entry = byName.get(this.#name);
    // This process's other channels: a task each, in order.
    for (const channel of [...entry.channels]) {
      if (channel !== this) setTimeout(() => deliver(channel, data), 0);
    }
    // Other processes: appended to the log, in this process's order (the action runs on a serial queue).
    PromisePrototypeThen(plugin.call("channelPost", { channel: this.#name, data }), undefined,
      (error) => runtime.reportError(error));
  }

  close() {
    if (this.#closed) return;
    this.#closed = true;
    const entry = byName.get(this.#name);
    const at = ArrayPrototypeIndexOf(entry.channels, this);
    if (at >= 0) ArrayPrototypeSplice(entry.channels, at, 1);
    if (entry.channels.length === 0) {
      byName.delete(this.#name);
      entry.subscription.cancel();
    }
  }

  static {
    deliver = (channel, text) => channel.#deliver(text);
  }

  /// Delivers one message (wire text) unless the channel was closed.
  #deliver(text) {
    if (this.#closed) return;
    let data;
    try {
      data = deserialize(text);
    } catch {
      this.dispatchEvent(new MessageEvent("messageerror"));
      return;
    }
    this.dispatchEvent(new MessageEvent("message", { data }));
  }

  get [SymbolToStringTag]() { return "BroadcastChannel"; }
}

runtime.defineGlobal("BroadcastChannel", BroadcastChannel);
