// Storage: Web Storage (`localStorage` on SQLite through the Storage plugin's sync actions, `sessionStorage`
// in memory) and the plugin's Promise API on the same `Storage` function: groups of JSON values,
// registerDefaults, atomic transactions and change watching. See docs/storage.md.

const PLUGIN = "Storage";
const { BridgeError } = runtime;
const DEFAULT_GROUP = "default";
const LOCAL_GROUP = "";

/// Gives quota errors the Web Storage name while keeping the BridgeError code (QUOTA_EXCEEDED).
function named(error) {
  if (error !== null && typeof error === "object" && error.code === "QUOTA_EXCEEDED") {
    Object.defineProperty(error, "name", { value: "QuotaExceededError", writable: true, configurable: true });
  }
  return error;
}

function execSync(action, args) {
  try {
    return plugin.execSync(action, args);
  } catch (error) {
    throw named(error);
  }
}

function call(action, args) {
  return plugin.call(action, args).catch((error) => { throw named(error); });
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
  getItem: (key) => getItemAction(key),
  setItem: (key, value) => {
    try {
      setItemAction([key, value]);
    } catch (error) {
      throw named(error);
    }
  },
  removeItem: (key) => { execSync("removeItem", [key]); },
  clear: () => { execSync("clearItems", []); },
  key: (index) => execSync("key", [index]),
  length: () => execSync("length", []),
  keys: () => execSync("itemKeys", []),
};

let info;
function storageInfo() {
  if (info === undefined) info = plugin.execSync("info", []);
  return info;
}

/// sessionStorage: this process only, in insertion order; the quota counts UTF-16 code units.
class MemoryBackend {
  constructor() { this.map = new Map(); this.used = 0; }
  getItem(key) { const value = this.map.get(key); return value === undefined ? null : value; }
  setItem(key, value) {
    const old = this.map.get(key);
    const used = this.used - (old === undefined ? 0 : key.length + old.length) + key.length + value.length;
    const quota = storageInfo().quotaBytes;
    if (used > quota && used > this.used) {
      throw named(new BridgeError("QUOTA_EXCEEDED",
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
  keys() { return [...this.map.keys()]; }
}

const backends = new WeakMap(); // Storage object (and its proxy) -> backend
const constructing = Symbol("Storage");

function backendOf(storage) {
  const backend = backends.get(storage);
  if (backend === undefined) throw new TypeError("Illegal invocation");
  return backend;
}

/// Web Storage's interface; also the namespace of the plugin's Promise API (static members below).
class Storage {
  constructor(token) {
    if (token !== constructing) throw new TypeError("Illegal constructor");
  }
  get length() { return backendOf(this).length(); }
  key(index) {
    requireArguments(arguments.length, 1, "key");
    return backendOf(this).key(Number(index) >>> 0);
  }
  getItem(key) {
    requireArguments(arguments.length, 1, "getItem");
    return backendOf(this).getItem(String(key));
  }
  setItem(key, value) {
    requireArguments(arguments.length, 2, "setItem");
    backendOf(this).setItem(String(key), String(value));
  }
  removeItem(key) {
    requireArguments(arguments.length, 1, "removeItem");
    backendOf(this).removeItem(String(key));
  }
  clear() { backendOf(this).clear(); }
  get [Symbol.toStringTag]() { return "Storage"; }
}

const hasOwn = Object.hasOwn;

/// A Storage object whose stored keys also read and write as properties (`localStorage.theme = "dark"`).
function makeStorage(backend) {
  const target = new Storage(constructing);
  const own = (t, property) => typeof property === "symbol" || property in t;
  // The hot methods, bound to this backend: a read through the proxy then costs one lookup.
  const fast = Object.assign(Object.create(null), {
    getItem(key) {
      requireArguments(arguments.length, 1, "getItem");
      return backend.getItem(String(key));
    },
    setItem(key, value) {
      requireArguments(arguments.length, 2, "setItem");
      backend.setItem(String(key), String(value));
    },
  });
  const proxy = new Proxy(target, {
    get(t, property, receiver) {
      const method = fast[property];
      if (method !== undefined) return method;
      if (own(t, property)) return Reflect.get(t, property, receiver === proxy ? t : receiver);
      const value = backend.getItem(property);
      return value === null ? undefined : value;
    },
    // Web IDL's named setter: a string property is stored even when the prototype has that name
    // (`localStorage.toString = "t"` stores "toString"; reading it still finds the method).
    set(t, property, value, receiver) {
      if (typeof property === "symbol" || hasOwn(t, property)) {
        return Reflect.set(t, property, value, receiver === proxy ? t : receiver);
      }
      backend.setItem(property, String(value));
      return true;
    },
    has(t, property) { return own(t, property) || backend.getItem(property) !== null; },
    deleteProperty(t, property) {
      if (own(t, property)) return Reflect.deleteProperty(t, property);
      backend.removeItem(property);
      return true;
    },
    ownKeys(t) { return [...backend.keys(), ...Reflect.ownKeys(t)]; },
    getOwnPropertyDescriptor(t, property) {
      if (own(t, property)) return Reflect.getOwnPropertyDescriptor(t, property);
      const value = backend.getItem(property);
      return value === null ? undefined : { value, writable: true, enumerable: true, configurable: true };
    },
    defineProperty(t, property, descriptor) {
      if (own(t, property) || !("value" in descriptor)) return false;
      backend.setItem(property, String(descriptor.value));
      return true;
    },
  });
  backends.set(target, backend);
  backends.set(proxy, backend);
  return proxy;
}

const localStorage = makeStorage(nativeBackend);

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
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i), y = b.codePointAt(i);
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

const defaults = new Map(); // group -> Map(key -> JSON text)
const groups = new Map(); // name -> StorageGroup

function defaultOf(group, key) {
  const text = defaults.get(group)?.get(key);
  return text === undefined ? undefined : JSON.parse(text);
}

/// What `set`, `clear` and `transaction` resolve to, as Capacitor's Preferences do: nothing.
const nothing = () => undefined;

/// A named group of JSON values (Capacitor Preferences' group, a NSUserDefaults suite).
class StorageGroup {
  constructor(name) {
    Object.defineProperty(this, "name", { value: name, enumerable: true });
  }
  /// The value of `key`: the stored one, else the registered default, else `undefined`.
  get(key) {
    const group = this.name;
    checkKey(key, "get");
    return call("get", { group, key }).then((text) => text === null ? defaultOf(group, key) : JSON.parse(text));
  }
  /// Stores `value` (any JSON value; `undefined`, functions, cycles and BigInts are refused).
  set(key, value) {
    try {
      checkKey(key, "set");
      return call("set", { group: this.name, key, json: toJSON(value, "set", "value") }).then(nothing);
    } catch (error) {
      return Promise.reject(error);
    }
  }
  /// Removes `key`; resolves to whether it was stored.
  remove(key) {
    try { checkKey(key, "remove"); } catch (error) { return Promise.reject(error); }
    return call("remove", { group: this.name, key });
  }
  /// Whether `key` is stored or has a registered default.
  has(key) {
    try { checkKey(key, "has"); } catch (error) { return Promise.reject(error); }
    const group = this.name;
    return call("has", { group, key }).then((stored) => stored || defaults.get(group)?.has(key) === true);
  }
  /// Stored keys and keys with defaults, in code point order.
  keys() {
    const group = this.name;
    return call("keys", { group }).then((keys) => {
      const extra = defaults.get(group);
      if (extra === undefined) return keys;
      const all = new Set(keys);
      for (const key of extra.keys()) all.add(key);
      return [...all].sort(compareKeys);
    });
  }
  /// `[key, value]` pairs of stored values and defaults, in key order.
  entries() {
    const group = this.name;
    return call("entries", { group }).then((pairs) => {
      const result = new Map(pairs.map(([key, text]) => [key, JSON.parse(text)]));
      const extra = defaults.get(group);
      if (extra === undefined) return [...result];
      for (const [key, text] of extra) if (!result.has(key)) result.set(key, JSON.parse(text));
      return [...result].sort((a, b) => compareKeys(a[0], b[0]));
    });
  }
  /// Removes every stored key of the group (defaults stay).
  clear() { return call("clear", { group: this.name }).then(nothing); }
  /// Values returned for keys that are not stored; never written to disk (NSUserDefaults' registration domain).
  registerDefaults(values) {
    if (values === null || typeof values !== "object" || Array.isArray(values)) {
      throw invalid("registerDefaults", "", "expected an object of default values");
    }
    let map = defaults.get(this.name);
    const texts = Object.keys(values).map((key) => [key, toJSON(values[key], "registerDefaults", key)]);
    if (map === undefined) defaults.set(this.name, map = new Map());
    for (const [key, text] of texts) map.set(key, text);
  }
  /// Stores `model` under `key` as an archive of model `name` (`Model.archive`: a stable, self-describing
  /// JSON form); `unarchiveModel` restores it through the model's current schema.
  archiveModel(key, name, model) {
    try {
      checkKey(key, "archiveModel");
      const archive = modelAPI("archiveModel").archive(name, model);
      return call("set", { group: this.name, key, json: archive }).then(nothing);
    } catch (error) {
      return Promise.reject(error);
    }
  }
  /// The model archived under `key`, converted again with its model's current schema: `null` when nothing
  /// is stored; `DATA_FORMAT` with the issues when the archive no longer fits the schema, is not an archive,
  /// or (when `name` is given) holds another model.
  unarchiveModel(key, name) {
    try { checkKey(key, "unarchiveModel"); } catch (error) { return Promise.reject(error); }
    const group = this.name;
    return call("get", { group, key }).then((text) => {
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

function transaction(ops, defaultGroup = DEFAULT_GROUP) {
  try {
    if (!Array.isArray(ops)) throw invalid("transaction", "ops", "expected an array of operations");
    const wire = ops.map((op, index) => {
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
        default:
          throw invalid("transaction", `${path}.op`, `expected "set", "remove" or "clear", got ${JSON.stringify(op.op) ?? "undefined"}`);
      }
    });
    return call("transaction", { ops: wire }).then(nothing);
  } catch (error) {
    return Promise.reject(error);
  }
}

// MARK: - Watching

const watchers = new Set();
let subscription;

function onChange(change) {
  const local = change.group === LOCAL_GROUP;
  const event = {
    group: local ? null : change.group,
    storage: local ? "localStorage" : undefined,
    key: change.key,
    value: change.value === null ? (local ? null : undefined) : (local ? change.value : JSON.parse(change.value)),
    removed: change.value === null,
    origin: change.origin,
  };
  if (!local) delete event.storage;
  for (const watcher of [...watchers]) {
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
    ready: id.then(() => undefined),
    remove() {
      if (removed) return;
      removed = true;
      watchers.delete(watcher);
      id.then((n) => call("unwatch", { id: n }), () => undefined);
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
for (const [name, value] of Object.entries(statics)) {
  Object.defineProperty(Storage, name, { value, writable: true, configurable: true, enumerable: false });
}

runtime.defineGlobal("Storage", Storage);
runtime.defineGlobal("localStorage", localStorage);
runtime.defineGlobal("sessionStorage", makeStorage(new MemoryBackend()));
