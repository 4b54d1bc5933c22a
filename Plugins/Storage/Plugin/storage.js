// Storage: Web Storage (`localStorage` on SQLite through the Storage plugin's sync actions, `sessionStorage`
// in memory) and the plugin's Promise API on the same `Storage` function: groups of JSON values,
// registerDefaults, atomic transactions and change watching. See docs/storage.md.

const PLUGIN = "Storage";
const { BridgeError } = runtime;
// The built-ins as captured before the script ran: a script's `Map.prototype.get = ...` does not reach here.
const {
  ArrayFrom, ArrayIsArray, ArrayPrototypeFilter, ArrayPrototypeMap, ArrayPrototypeSort, JSONParse, JSONStringify,
  MathMin, NumberParseInt, NumberPrototypeToString, ObjectAssign, ObjectDefineProperty, ObjectEntries, ObjectHasOwn,
  ObjectFreeze, ObjectKeys, PromisePrototypeThen, PromiseReject, PromiseResolve, ReflectApply, ReflectDefineProperty, ReflectDeleteProperty,
  ReflectGet, ReflectGetOwnPropertyDescriptor, ReflectHas, ReflectOwnKeys, ReflectSet, SafeMap, SafeSet,
  SafeWeakMap, StringFromCharCode, StringPrototypeCharCodeAt, StringPrototypeCodePointAt, StringPrototypeIncludes,
  StringPrototypeIsWellFormed, StringPrototypePadStart, StringPrototypeReplace, StringPrototypeToUpperCase,
  StringPrototypeToWellFormed,
} = runtime.primordials;
const DEFAULT_GROUP = "default";
const LOCAL_GROUP = "";

/// Gives quota errors the Web Storage name while keeping the BridgeError code (QUOTA_EXCEEDED): the Promise API.
function named(error) {
  if (error !== null && typeof error === "object" && error.code === "QUOTA_EXCEEDED") {
    ObjectDefineProperty(error, "name", { value: "QuotaExceededError", writable: true, configurable: true });
  }
  return error;
}

/// Web Storage's error over quota: a DOMException named QuotaExceededError (legacy code 22) whose `data` keeps
/// the BridgeError's details ({quotaBytes, usedBytes, requiredBytes}).
function quotaExceeded(error) {
  if (error === null || typeof error !== "object" || error.code !== "QUOTA_EXCEEDED") return error;
  const exception = new runtime.DOMException(error.message, "QuotaExceededError");
  ObjectDefineProperty(exception, "data", { value: error.data, writable: true, enumerable: false, configurable: true });
  return exception;
}

// Keys and values cross to the native store in its escaped form (docs/storage.md): a lone surrogate, which
// JSON and Swift strings cannot carry, travels as U+FFFF plus four uppercase hex digits; so does a U+FFFF
// that such digits follow (any other U+FFFF stands for itself).
const ESCAPE = "\uFFFF";
const MUST_ESCAPE = /[\uD800-\uDFFF]|\uFFFF(?=[0-9A-F]{4})/gu;
const ESCAPED = /\uFFFF([0-9A-F]{4})/g;
const hex4 = (unit) => StringPrototypePadStart(StringPrototypeToUpperCase(NumberPrototypeToString(unit, 16)), 4, "0");

/// `text` in the store's escaped form.
function toStore(text) {
  if (StringPrototypeIsWellFormed(text) && !StringPrototypeIncludes(text, ESCAPE)) return text;
  return StringPrototypeReplace(text, MUST_ESCAPE, (c) => ESCAPE + hex4(StringPrototypeCharCodeAt(c, 0)));
}

/// The string a stored (escaped) text stands for; null stays null.
function fromStore(text) {
  if (typeof text !== "string" || !StringPrototypeIncludes(text, ESCAPE)) return text;
  return StringPrototypeReplace(text, ESCAPED, (_, digits) => StringFromCharCode(NumberParseInt(digits, 16)));
}

function execSync(action, args) {
  try {
    return plugin.execSync(action, args);
  } catch (error) {
    throw named(error);
  }
}

/// Strings anywhere in `value` (arguments, results: plain objects and arrays) mapped with `map`.
function mapStrings(value, map) {
  if (typeof value === "string") return map(value);
  if (ArrayIsArray(value)) return ArrayPrototypeMap(value, (item) => mapStrings(item, map));
  if (value !== null && typeof value === "object") {
    const copy = {};
    for (const key of ObjectKeys(value)) copy[key] = mapStrings(value[key], map);
    return copy;
  }
  return value;
}

function call(action, args) {
  return PromisePrototypeThen(plugin.call(action, mapStrings(args, toStore)),
    (result) => mapStrings(result, fromStore),
    (error) => { throw named(error); });
}

function invalid(action, path, message) {
  return new BridgeError("INVALID_ARGUMENT", `Invalid arguments: ${path ? `at '${path}': ` : ""}${message}`,
    { plugin: PLUGIN, action, data: { issues: [{ path, message }] } });
}

function requireArguments(count, needed, method) {
  if (count < needed) {
    throw new TypeError(`Failed to execute '${method}' on 'Storage': ${needed} argument${needed > 1 ? "s" : ""} required, but only ${count} present.`);
  }
}

// MARK: - Web Storage

/// localStorage: every call reads or writes the database (other processes' writes are seen at once).
const getItemAction = plugin.syncAction("getItem");
const setItemAction = plugin.syncAction("setItem");
const nativeBackend = {
  getItem: (key) => fromStore(getItemAction(toStore(key))),
  setItem: (key, value) => {
    try {
      setItemAction([toStore(key), toStore(value)]);
    } catch (error) {
      throw quotaExceeded(error);
    }
  },
  removeItem: (key) => { execSync("removeItem", [toStore(key)]); },
  clear: () => { execSync("clearItems", []); },
  key: (index) => fromStore(execSync("key", [index])),
  length: () => execSync("length", []),
  keys: () => ArrayPrototypeMap(execSync("itemKeys", []), fromStore),
};

let info;
function storageInfo() {
  if (info === undefined) info = plugin.execSync("info", []);
  return info;
}

/// sessionStorage: this process only, in insertion order; the quota counts UTF-16 code units.
class MemoryBackend {
  constructor() { this.map = new SafeMap(); this.used = 0; }
  getItem(key) { const value = this.map.get(key); return value === undefined ? null : value; }
  setItem(key, value) {
    const old = this.map.get(key);
    const used = this.used - (old === undefined ? 0 : key.length + old.length) + key.length + value.length;
    const quota = storageInfo().quotaBytes;
    if (used > quota && used > this.used) {
      throw quotaExceeded(new BridgeError("QUOTA_EXCEEDED",
        `The storage quota of ${quota} bytes would be exceeded: ${this.used} bytes are used and the write needs ${used - this.used} more.`,
        { plugin: PLUGIN, action: "setItem", data: { quotaBytes: quota, usedBytes: this.used, requiredBytes: used - this.used } }));
    }
    this.map.set(key, value);
    this.used = used;
  }
  removeItem(key) {
    const old = this.map.get(key);
    if (old !== undefined) { this.map.delete(key); this.used -= key.length + old.length; }
  }
  clear() { this.map.clear(); this.used = 0; }
  key(index) { if (index >= this.map.size) return null; let i = 0; for (const key of this.map.keys()) if (i++ === index) return key; return null; }
  length() { return this.map.size; }
  keys() { return ArrayFrom(this.map.keys()); }
}

const backends = new SafeWeakMap(); // Storage object (and its proxy) -> backend
const constructing = Symbol("Storage");

function backendOf(storage) {
  const backend = backends.get(storage);
  if (backend === undefined) throw new TypeError("Illegal invocation");
  return backend;
}

/// Web IDL's DOMString conversion (a Symbol throws a TypeError).
const domString = (value) => `${value}`;

/// Web IDL's `unsigned long` conversion (without [EnforceRange]): modulo 2^32; a BigInt or Symbol throws.
const unsignedLong = (value) => +value >>> 0;

/// Web Storage's interface; also the namespace of the plugin's Promise API (static members below).
class Storage {
  constructor(token = undefined) { // length 0, as Web IDL gives an interface without a constructor
    if (token !== constructing) throw new TypeError("Illegal constructor");
  }
  get length() { return backendOf(this).length(); }
  key(index) {
    const backend = this === localStorage ? nativeBackend : backendOf(this);
    requireArguments(arguments.length, 1, "key");
    return backend.key(unsignedLong(index));
  }
  getItem(key) {
    const backend = this === localStorage ? nativeBackend : backendOf(this);
    requireArguments(arguments.length, 1, "getItem");
    return backend.getItem(domString(key));
  }
  setItem(key, value) {
    const backend = this === localStorage ? nativeBackend : backendOf(this);
    requireArguments(arguments.length, 2, "setItem");
    backend.setItem(domString(key), domString(value));
  }
  removeItem(key) {
    const backend = this === localStorage ? nativeBackend : backendOf(this);
    requireArguments(arguments.length, 1, "removeItem");
    backend.removeItem(domString(key));
  }
  clear() { backendOf(this).clear(); }
}
// Web IDL: attributes and operations are enumerable; the class string is a data property.
for (const name of ["length", "key", "getItem", "setItem", "removeItem", "clear"]) {
  ObjectDefineProperty(Storage.prototype, name, { enumerable: true });
}
ObjectDefineProperty(Storage.prototype, Symbol.toStringTag, { value: "Storage", configurable: true });


/// A Storage object with Web IDL's named properties (a legacy platform object): stored keys read, write,
/// delete and enumerate as properties (`localStorage.theme = "dark"`). A key also found on the prototype
/// chain (`getItem`, `toString`) is stored by assignment but is not a visible property: reading it finds the
/// prototype's member.
function makeStorage(backend) {
  const target = new Storage(constructing);
  // Whether `property` resolves on the object itself or its prototype chain rather than as a stored item.
  const ordinary = (t, property) => typeof property === "symbol" || property in t;
  const proxy = new Proxy(target, {
    get(t, property, receiver) {
      if (ordinary(t, property)) return ReflectGet(t, property, receiver);
      const value = backend.getItem(property);
      return value === null ? undefined : value;
    },
    // Web IDL's named setter: a string property is stored even when the prototype has that name.
    set(t, property, value, receiver) {
      if (typeof property === "symbol" || receiver !== proxy) return ReflectSet(t, property, value, receiver);
      backend.setItem(property, domString(value));
      return true;
    },
    has(t, property) {
      if (typeof property === "symbol" || property in t) return ReflectHas(t, property);
      return backend.getItem(property) !== null;
    },
    deleteProperty(t, property) {
      if (ordinary(t, property)) return ReflectDeleteProperty(t, property);
      backend.removeItem(property);
      return true;
    },
    // Visible stored keys (in the store's order), then the object's own properties.
    ownKeys(t) { return [...ArrayPrototypeFilter(backend.keys(), (key) => !(key in t)), ...ReflectOwnKeys(t)]; },
    getOwnPropertyDescriptor(t, property) {
      if (ordinary(t, property)) return ReflectGetOwnPropertyDescriptor(t, property);
      const value = backend.getItem(property);
      return value === null ? undefined : { value, writable: true, enumerable: true, configurable: true };
    },
    // Web IDL's [[DefineOwnProperty]] for named properties: a data descriptor stores its value; an accessor
    // is refused (Object.defineProperty then throws a TypeError).
    defineProperty(t, property, descriptor) {
      if (typeof property === "symbol" || ObjectHasOwn(t, property)) return ReflectDefineProperty(t, property, descriptor);
      if (!("value" in descriptor) && !("writable" in descriptor)) return false;
      backend.setItem(property, domString(descriptor.value));
      return true;
    },
  });
  backends.set(target, backend);
  backends.set(proxy, backend);
  return proxy;
}

const localStorage = makeStorage(nativeBackend);

// MARK: - StorageEvent

const { Event } = runtime;
const initEvent = Event.prototype.initEvent;
const storageEvents = new SafeWeakMap(); // StorageEvent -> { key, oldValue, newValue, url, storageArea }

const nullableString = (value) => (value === null || value === undefined ? null : domString(value));
/// Web IDL's USVString: a DOMString whose lone surrogates become U+FFFD.
const usvString = (value) => StringPrototypeToWellFormed(domString(value));
function storageAreaOf(value, method) {
  if (value === null || value === undefined) return null;
  if (!backends.has(value)) {
    throw new TypeError(`Failed to ${method}: The provided value is not of type 'Storage'.`);
  }
  return value;
}

function eventState(event, member) {
  const state = storageEvents.get(event);
  if (state === undefined) throw new TypeError(`'get ${member}' called on an object that is not a valid instance of StorageEvent.`);
  return state;
}

/// HTML's StorageEvent. The runtime runs one script, so no other document receives storage events: they are
/// only made and dispatched by scripts (docs/storage.md).
class StorageEvent extends Event {
  constructor(type, eventInitDict = undefined) {
    if (arguments.length === 0) {
      throw new TypeError("Failed to construct 'StorageEvent': 1 argument required, but only 0 present.");
    }
    const init = eventInitDict ?? {};
    if (typeof init !== "object" && typeof init !== "function") {
      throw new TypeError("Failed to construct 'StorageEvent': The provided value is not of type 'StorageEventInit'.");
    }
    super(type, init);
    // Web IDL reads dictionary members in name order (after Event's own: bubbles, cancelable, composed).
    const key = nullableString(init.key);
    const newValue = nullableString(init.newValue);
    const oldValue = nullableString(init.oldValue);
    const storageArea = storageAreaOf(init.storageArea, "construct 'StorageEvent'");
    const url = init.url === undefined ? "" : usvString(init.url);
    storageEvents.set(this, { key, oldValue, newValue, url, storageArea });
  }
  get key() { return eventState(this, "key").key; }
  get oldValue() { return eventState(this, "oldValue").oldValue; }
  get newValue() { return eventState(this, "newValue").newValue; }
  get url() { return eventState(this, "url").url; }
  get storageArea() { return eventState(this, "storageArea").storageArea; }

  /// The legacy initializer: does nothing while the event is being dispatched.
  initStorageEvent(type, bubbles = false, cancelable = false, key = null, oldValue = null, newValue = null, url = "",
    storageArea = null) {
    const state = eventState(this, "initStorageEvent");
    if (arguments.length === 0) {
      throw new TypeError("Failed to execute 'initStorageEvent' on 'StorageEvent': 1 argument required, but only 0 present.");
    }
    const values = {
      key: nullableString(key), oldValue: nullableString(oldValue), newValue: nullableString(newValue),
      url: usvString(url), storageArea: storageAreaOf(storageArea, "execute 'initStorageEvent' on 'StorageEvent'"),
    };
    if (this.eventPhase !== Event.NONE) return;
    ReflectApply(initEvent, this, [domString(type), Boolean(bubbles), Boolean(cancelable)]);
    ObjectAssign(state, values);
  }
}
for (const name of ["key", "oldValue", "newValue", "url", "storageArea", "initStorageEvent"]) {
  ObjectDefineProperty(StorageEvent.prototype, name, { enumerable: true });
}
ObjectDefineProperty(StorageEvent.prototype, Symbol.toStringTag, { value: "StorageEvent", configurable: true });

// MARK: - Promise API

/// JSON text of `value`, or INVALID_ARGUMENT with the path of what cannot be stored.
function toJSON(value, action, path) {
  if (value === undefined) {
    throw invalid(action, path, "undefined cannot be stored (use remove() to delete a key)");
  }
  try {
    return runtime.serialize(value, path);
  } catch (error) {
    if (error instanceof BridgeError) { error.plugin = PLUGIN; error.action = action; }
    throw error;
  }
}

function checkKey(key, action, path = "key") {
  if (typeof key !== "string") throw invalid(action, path, `expected a string, got ${key === null ? "null" : typeof key}`);
  return key;
}

function groupName(group, action, path = "group") {
  if (group === undefined || group === null) return DEFAULT_GROUP;
  if (group instanceof StorageGroup) return group.name;
  if (typeof group !== "string" || group === "") throw invalid(action, path, "expected a non-empty string");
  return group;
}

/// Code point order (= UTF-8 byte order, the order of the native store).
function compareKeys(a, b) {
  const n = MathMin(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = StringPrototypeCodePointAt(a, i), y = StringPrototypeCodePointAt(b, i);
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

const defaults = new SafeMap(); // group -> SafeMap(key -> JSON text)
const groups = new SafeMap(); // name -> StorageGroup

function defaultOf(group, key) {
  const text = defaults.get(group)?.get(key);
  return text === undefined ? undefined : JSONParse(text);
}

/// What `set`, `clear` and `transaction` resolve to, as Capacitor's Preferences do: nothing.
const nothing = () => undefined;

/// A named group of JSON values (Capacitor Preferences' group, a NSUserDefaults suite).
class StorageGroup {
  constructor(name) {
    ObjectDefineProperty(this, "name", { value: name, enumerable: true });
  }
  /// The value of `key`: the stored one, else the registered default, else `undefined`.
  get(key) {
    const group = this.name;
    checkKey(key, "get");
    return PromisePrototypeThen(call("get", { group, key }),
      (text) => text === null ? defaultOf(group, key) : JSONParse(text));
  }
  /// Stores `value` (any JSON value; `undefined`, functions, cycles and BigInts are refused).
  set(key, value) {
    try {
      checkKey(key, "set");
      return PromisePrototypeThen(call("set", { group: this.name, key, json: toJSON(value, "set", "value") }), nothing);
    } catch (error) {
      return PromiseReject(error);
    }
  }
  /// Removes `key`; resolves to whether it was stored.
  remove(key) {
    try { checkKey(key, "remove"); } catch (error) { return PromiseReject(error); }
    return call("remove", { group: this.name, key });
  }
  /// Whether `key` is stored or has a registered default.
  has(key) {
    try { checkKey(key, "has"); } catch (error) { return PromiseReject(error); }
    const group = this.name;
    return PromisePrototypeThen(call("has", { group, key }),
      (stored) => stored || defaults.get(group)?.has(key) === true);
  }
  /// Stored keys and keys with defaults, in code point order.
  keys() {
    const group = this.name;
    return PromisePrototypeThen(call("keys", { group }), (keys) => {
      const extra = defaults.get(group);
      if (extra === undefined) return keys;
      const all = new SafeSet(keys);
      for (const key of extra.keys()) all.add(key);
      return ArrayPrototypeSort(ArrayFrom(all), compareKeys);
    });
  }
  /// `[key, value]` pairs of stored values and defaults, in key order.
  entries() {
    const group = this.name;
    return PromisePrototypeThen(call("entries", { group }), (pairs) => {
      const result = new SafeMap(ArrayPrototypeMap(pairs, ([key, text]) => [key, JSONParse(text)]));
      const extra = defaults.get(group);
      if (extra === undefined) return ArrayFrom(result);
      for (const [key, text] of extra) if (!result.has(key)) result.set(key, JSONParse(text));
      return ArrayPrototypeSort(ArrayFrom(result), (a, b) => compareKeys(a[0], b[0]));
    });
  }
  /// Removes every stored key of the group (defaults stay).
  clear() { return PromisePrototypeThen(call("clear", { group: this.name }), nothing); }
  /// Values returned for keys that are not stored; never written to disk (NSUserDefaults' registration domain).
  registerDefaults(values) {
    if (values === null || typeof values !== "object" || ArrayIsArray(values)) {
      throw invalid("registerDefaults", "", "expected an object of default values");
    }
    let map = defaults.get(this.name);
    const texts = ArrayPrototypeMap(ObjectKeys(values), (key) => [key, toJSON(values[key], "registerDefaults", key)]);
    if (map === undefined) defaults.set(this.name, map = new SafeMap());
    for (const [key, text] of texts) map.set(key, text);
  }
  /// Stores `model` under `key` as an archive of model `name` (`Model.archive`: a stable, self-describing
  /// JSON form); `unarchiveModel` restores it through the model's current schema.
  archiveModel(key, name, model) {
    try {
      checkKey(key, "archiveModel");
      const archive = modelAPI("archiveModel").archive(name, model);
      return PromisePrototypeThen(call("set", { group: this.name, key, json: archive }), nothing);
    } catch (error) {
      return PromiseReject(error);
    }
  }
  /// The model archived under `key`, converted again with its model's current schema: `null` when nothing
  /// is stored; `DATA_FORMAT` with the issues when the archive no longer fits the schema, is not an archive,
  /// or (when `name` is given) holds another model.
  unarchiveModel(key, name) {
    try { checkKey(key, "unarchiveModel"); } catch (error) { return PromiseReject(error); }
    const group = this.name;
    return PromisePrototypeThen(call("get", { group, key }), (text) => {
      if (text === null) return null;
      const model = modelAPI("unarchiveModel");
      let restored;
      try {
        restored = model.unarchive(text);
      } catch (error) {
        if (error instanceof BridgeError) {
          error.message = `The value stored at '${key}' (group '${group}') does not restore: ${error.message}`;
        }
        throw error;
      }
      if (name !== undefined && restored.model !== name) {
        throw new BridgeError("DATA_FORMAT",
          `The value stored at '${key}' (group '${group}') is a '${restored.model}' archive, not '${name}'.`,
          { plugin: PLUGIN, action: "unarchiveModel", data: { issues: [{ path: "", code: "MODEL_MISMATCH",
            message: `expected a '${name}' archive, got '${restored.model}'` }] } });
      }
      return restored.value;
    });
  }
  /// Applies `ops` atomically (ops without a group apply to this group).
  transaction(ops) { return transaction(ops, this.name); }
  /// Calls `listener` on changes of `key`, or of the whole group without a key.
  watch(key, listener) {
    if (typeof key === "function") return watch({ group: this.name }, key);
    return watch({ group: this.name, key: checkKey(key, "watch") }, listener);
  }
  get [Symbol.toStringTag]() { return "StorageGroup"; }
}

/// The `Model` API, which archiving needs: the Model plugin must be registered.
function modelAPI(action) {
  if (!("Model" in bridge.plugins)) {
    throw new BridgeError("PLUGIN_NOT_FOUND", "Archiving models needs the Model plugin, which is not registered.",
      { plugin: PLUGIN, action });
  }
  return globalThis.Model;
}

function group(name) {
  name = groupName(name, "group", "name");
  let found = groups.get(name);
  if (found === undefined) groups.set(name, found = new StorageGroup(name));
  return found;
}

/// `{op: "enqueue", queue, payload, delayMs?, key?, attempts?, backoff?}` on the wire: the Queue plugin's job,
/// committed in the same database transaction as the storage ops (docs/queues.md).
function enqueueOp(op, path) {
  if (!("Queue" in bridge.plugins)) {
    throw new BridgeError("PLUGIN_NOT_FOUND", "Enqueuing in a transaction needs the Queue plugin, which is not registered.",
      { plugin: PLUGIN, action: "transaction" });
  }
  if (typeof op.queue !== "string" || op.queue === "") throw invalid("transaction", `${path}.queue`, "expected a non-empty string");
  let json;
  try {
    json = JSONStringify(op.payload === undefined ? null : op.payload);
  } catch (error) {
    throw invalid("transaction", `${path}.payload`, `cannot be stored as JSON: ${error?.message}`);
  }
  return { op: "enqueue", queue: op.queue, json, delayMs: op.delayMs, key: op.key, attempts: op.attempts, backoff: op.backoff };
}

/// `Storage.transaction(fn)`: the ops `fn(tx)` records, applied once it returned (or its promise resolved);
/// nothing when it throws. `tx` records `set`, `remove`, `clear` and `enqueue`; reads do not see them.
function transactionOf(fn, defaultGroup) {
  const ops = [];
  let open = true;
  const record = (op) => {
    if (!open) throw new TypeError("This Storage transaction has ended: record ops before its function returns.");
    ops[ops.length] = op;
  };
  const tx = ObjectFreeze({
    set(key, value, group) { record({ op: "set", key, value, group: groupOrDefault(group, defaultGroup) }); },
    remove(key, group) { record({ op: "remove", key, group: groupOrDefault(group, defaultGroup) }); },
    clear(group) { record({ op: "clear", group: groupOrDefault(group, defaultGroup) }); },
    enqueue(queue, payload, options = undefined) {
      const o = options === undefined || options === null ? {} : options;
      if (typeof o !== "object") throw invalid("transaction", "options", "must be an object");
      record({ op: "enqueue", queue, payload, delayMs: o.delayMs, key: o.key, attempts: o.attempts, backoff: o.backoff });
    },
  });
  let result;
  try {
    result = PromiseResolve(fn(tx));
  } catch (error) {
    open = false;
    return PromiseReject(error);
  }
  return PromisePrototypeThen(result, () => {
    open = false;
    return transaction(ops, defaultGroup);
  }, (error) => {
    open = false;
    throw error;
  });
}

function groupOrDefault(group, defaultGroup) {
  return group === undefined || group === null ? defaultGroup : group;
}

function transaction(ops, defaultGroup = DEFAULT_GROUP) {
  if (typeof ops === "function") return transactionOf(ops, defaultGroup);
  try {
    if (!ArrayIsArray(ops)) throw invalid("transaction", "ops", "expected an array of operations or a function");
    const wire = ArrayPrototypeMap(ops, (op, index) => {
      const path = `ops[${index}]`;
      if (op === null || typeof op !== "object") throw invalid("transaction", path, "expected an operation object");
      const group = op.group === undefined ? defaultGroup : groupName(op.group, "transaction", `${path}.group`);
      switch (op.op) {
        case "set":
          return { op: "set", group, key: checkKey(op.key, "transaction", `${path}.key`), json: toJSON(op.value, "transaction", `${path}.value`) };
        case "remove":
          return { op: "remove", group, key: checkKey(op.key, "transaction", `${path}.key`) };
        case "clear":
          return { op: "clear", group };
        case "enqueue":
          return enqueueOp(op, path);
        default:
          throw invalid("transaction", `${path}.op`, `expected "set", "remove", "clear" or "enqueue", got ${JSONStringify(op.op) ?? "undefined"}`);
      }
    });
    return PromisePrototypeThen(call("transaction", { ops: wire }), nothing);
  } catch (error) {
    return PromiseReject(error);
  }
}

// MARK: - Watching

const watchers = new SafeSet();
let subscription;

function onChange(stored) {
  const change = mapStrings(stored, fromStore);
  const local = change.group === LOCAL_GROUP;
  const event = {
    group: local ? null : change.group,
    storage: local ? "localStorage" : undefined,
    key: change.key,
    value: change.value === null ? (local ? null : undefined) : (local ? change.value : JSONParse(change.value)),
    removed: change.value === null,
    origin: change.origin,
  };
  if (!local) delete event.storage;
  for (const watcher of ArrayFrom(watchers)) {
    if (watcher.group !== change.group) continue;
    if (watcher.key !== null && change.key !== null && watcher.key !== change.key) continue;
    try {
      watcher.listener(event);
    } catch (error) {
      runtime.reportError(error);
    }
  }
}

/// Watches a key (`"key"` in the default group, `{group, key}`), a group (`Storage.group(name)`,
/// `{group}`) or `localStorage`; returns `{ready, remove()}`.
function watch(target, listener) {
  if (typeof listener !== "function") throw new TypeError("Storage.watch needs a listener function.");
  let group, key = null;
  if (typeof target === "string") {
    group = DEFAULT_GROUP;
    key = target;
  } else if (target instanceof StorageGroup) {
    group = target.name;
  } else if (target === localStorage) {
    group = LOCAL_GROUP;
  } else if (target !== null && typeof target === "object") {
    group = target.group === localStorage ? LOCAL_GROUP : groupName(target.group, "watch");
    if (target.key !== undefined && target.key !== null) key = checkKey(target.key, "watch");
  } else {
    throw invalid("watch", "", "expected a key, a group or localStorage");
  }
  if (subscription === undefined) subscription = plugin.on("change", onChange);
  const watcher = { group, key, listener };
  watchers.add(watcher);
  const id = call("watch", key === null ? { group } : { group, key });
  let removed = false;
  return {
    ready: PromisePrototypeThen(id, () => undefined),
    remove() {
      if (removed) return;
      removed = true;
      watchers.delete(watcher);
      PromisePrototypeThen(id, (n) => call("unwatch", { id: n }), () => undefined);
    },
  };
}

// MARK: - Globals

const defaultGroup = group(DEFAULT_GROUP);
const statics = {
  group,
  get: (key) => defaultGroup.get(key),
  set: (key, value) => defaultGroup.set(key, value),
  remove: (key) => defaultGroup.remove(key),
  has: (key) => defaultGroup.has(key),
  keys: () => defaultGroup.keys(),
  entries: () => defaultGroup.entries(),
  clear: () => defaultGroup.clear(),
  registerDefaults: (values) => defaultGroup.registerDefaults(values),
  transaction: (ops) => transaction(ops),
  archiveModel: (key, name, model) => defaultGroup.archiveModel(key, name, model),
  unarchiveModel: (key, name) => defaultGroup.unarchiveModel(key, name),
  watch,
  /// `{usedBytes, quotaBytes}` of this app id (localStorage and every group).
  usage: () => call("usage", null),
  /// The names of the groups holding values.
  groups: () => call("groups", null),
  defaultGroup,
  StorageGroup,
};
for (const [name, value] of ObjectEntries(statics)) {
  ObjectDefineProperty(Storage, name, { value, writable: true, configurable: true, enumerable: false });
}

runtime.defineGlobal("Storage", Storage);
runtime.defineGlobal("StorageEvent", StorageEvent);
runtime.defineGlobal("localStorage", localStorage);
runtime.defineGlobal("sessionStorage", makeStorage(new MemoryBackend()));
