// The JS half of the command queue: `bridge`, `BridgeError` (and the exec that the cordova extension offers as `cordova.exec`).
// JS owns the callback table (`pending`); ids are never reused; every entry is removed when its call
// ends (result, error, cancel, timeout), so a million completed calls leave it empty.
// Lazy: it runs when a script first reads `bridge`, `BridgeError` or a plugin's global, or another runtime
// file one of its `internal` names (HostNatives.swift lists them); a script that calls no plugin never parses it.

const {
  ArrayBufferIsView, ArrayIsArray, ArrayPrototypeIncludes, ArrayPrototypeJoin, ArrayPrototypeMap, ArrayPrototypePop,
  ArrayPrototypePush, ArrayPrototypeReverse, FunctionPrototypeApply, FunctionPrototypeCall, JSONParse, JSONStringify, MethodSlice,
  ObjectCreate, ObjectDefineProperty, ObjectEntries, ObjectFreeze, ObjectGetPrototypeOf, ObjectHasOwn, ObjectIsFrozen,
  ObjectKeys, ObjectPrototypeToString, Promise, PromiseReject, PromiseResolve, RegExpPrototypeTest, SafeMap, SafeSet,
  SafeWeakMap, TypeError, TypedArrayPrototypeGetSymbolToStringTag, Uint8Array,
} = internal.primordials;
// This file runs on first use, after the script has run: what it captures at load comes from the primordials.
const { Array: EngineArray, Object: EngineObject, Proxy: EngineProxy, eval: globalEval } = internal.primordials;

const SYNC = 0, ASYNC = 1, STREAM = 2;
const VALUE = 0, ITEM = 1, FINISHED = 2, FAILED = 3, EVENT = 4;
const KIND_NAMES = ["a sync", "an async", "a stream"];

/// The engine's `Error` (the primordial): reading the global would load node-errors.js at every start-up.
const EngineError = /** @type {ErrorConstructor} */ (internal.primordials.Error);

/// An error from the bridge or a plugin: `code`, `message`, `plugin`, `action`, optional `data`.
class BridgeError extends EngineError {
  constructor(code, message, details) {
    super(message);
    this.code = code;
    if (details !== undefined) {
      if (details.plugin !== undefined) this.plugin = details.plugin;
      if (details.action !== undefined) this.action = details.action;
      if (details.data !== undefined && details.data !== null) this.data = details.data;
    }
  }
}
ObjectDefineProperty(BridgeError.prototype, "name", { value: "BridgeError", writable: true, configurable: true });

// plugin -> action -> [index, kind, syncFunction, private]
const manifest = ObjectCreate(null);
for (const [plugin, actions] of ObjectEntries(internal.manifest())) {
  manifest[plugin] = ObjectCreate(null);
  for (const [action, [index, kind, isPrivate]] of ObjectEntries(actions)) {
    manifest[plugin][action] = [index, kind, kind === 0 ? internal.syncFunctions[index] : undefined, isPrivate === 1];
  }
}

const pending = new SafeMap(); // id -> call entry
let lastId = 0;

/// The manifest entry of `plugin`'s `action`, for a call made by `owner` (a plugin's own JavaScript, through
/// its handle) or by a script (`owner` null): a private action is the plugin's own glue, which only its own
/// JavaScript may call; for anyone else it does not exist.
function lookup(plugin, action, owner) {
  const entry = manifest[plugin]?.[action];
  // The registry words the error (with a "did you mean" suggestion) and throws it.
  if (entry === undefined || (entry[3] && owner !== plugin)) internal.notFound(String(plugin), String(action));
  return entry;
}

function wrongKind(plugin, action, kind, how) {
  return new BridgeError("ACTION_NOT_FOUND",
    `Plugin '${plugin}' has no ${how} action '${action}': it is ${KIND_NAMES[kind]} action.`, { plugin, action });
}

// MARK: - Arguments

/// Finds the path of the first value JSON cannot carry (functions, symbols, BigInts, cycles).
function findUnserializable(value, path, seen) {
  const type = typeof value;
  if (type === "function") return { path, message: "a function cannot be sent to a plugin" };
  if (type === "symbol") return { path, message: "a symbol cannot be sent to a plugin" };
  if (type === "bigint") return { path, message: "a BigInt cannot be sent to a plugin (convert it to a string or number)" };
  if (type !== "object" || value === null) return null;
  if (ArrayPrototypeIncludes(seen, value)) return { path, message: "a cyclic reference cannot be sent to a plugin" };
  try {
    const toJSON = value.toJSON;
    if (typeof toJSON === "function") {
      FunctionPrototypeCall(toJSON, value, "");
      return null;
    }
  } catch (error) {
    return { path, message: `its toJSON threw ${describeThrown(error)}` };
  }
  ArrayPrototypePush(seen, value);
  const array = ArrayIsArray(value);
  let keys;
  try {
    keys = ObjectKeys(value);
  } catch (error) {
    return { path, message: `listing its keys threw ${describeThrown(error)}` };
  }
  for (const key of keys) {
    const childPath = array ? `${path}[${key}]` : RegExpPrototypeTest(/^[A-Za-z_$][\w$]*$/, key)
      ? (path ? `${path}.${key}` : key) : `${path}[${JSONStringify(key)}]`;
    let child;
    try {
      child = value[key];
    } catch (error) {
      return { path: childPath, message: `reading it threw ${describeThrown(error)}` };
    }
    const found = findUnserializable(child, childPath, seen);
    if (found) return found;
  }
  ArrayPrototypePop(seen);
  return null;
}

// MARK: - Bytes beside the JSON

/// Whether `value` crosses as bytes: an ArrayBuffer or a view of one (typed arrays, DataView, Buffer).
function isBytes(value) {
  return ArrayBufferIsView(value) || ObjectPrototypeToString(value) === "[object ArrayBuffer]";
}

// The bytes the last `serialize` found, beside its JSON text (null: none): each one's path (an array of keys
// and indices) and the value, in the same order. The JSON holds `{}` at each path.
let bytesPaths = null;
let bytesValues = null;

function addBytes(path, value) {
  const view = ArrayBufferIsView(value);
  // A large buffer is lent to the plugin rather than copied: one that can shrink is copied here first.
  const buffer = view ? value.buffer : value;
  if (buffer.resizable === true || buffer.growable === true) {
    value = view ? new Uint8Array(buffer, value.byteOffset, value.byteLength).slice() : MethodSlice(value, 0);
  } else if (view && TypedArrayPrototypeGetSymbolToStringTag(value) === undefined) {
    // The engine reads typed arrays and ArrayBuffers; a DataView is read through a Uint8Array over its bytes.
    value = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  }
  if (bytesPaths === null) {
    bytesPaths = [];
    bytesValues = [];
  }
  ArrayPrototypePush(bytesPaths, path);
  ArrayPrototypePush(bytesValues, value);
}

/// A `JSON.stringify` replacer that refuses functions and symbols and sets bytes aside (`addBytes`) with
/// their paths, worked out from each object's holder and key.
function checkingReplacer() {
  const holders = new SafeMap(); // object -> [holder, key]
  return function (key, value) {
    const type = typeof value;
    if (type === "function" || type === "symbol") throw new TypeError(`a ${type} cannot be sent to a plugin`);
    if (type !== "object" || value === null) return value;
    // `toJSON` (a Buffer's) has already replaced the value: the holder still has the original.
    const original = this[key];
    if (original !== null && typeof original === "object" && isBytes(original)) {
      const path = [];
      for (let holder = this, k = key; holders.has(holder); [holder, k] = holders.get(holder)) {
        ArrayPrototypePush(path, ArrayIsArray(holder) ? +k : k);
      }
      addBytes(ArrayPrototypeReverse(path), original);
      return {};
    }
    holders.set(value, [this, key]);
    return value;
  };
}

const OBJECT_PROTOTYPE = EngineObject.prototype;
const ARRAY_PROTOTYPE = EngineArray.prototype;

/// Whether `JSONStringify(value)` needs no replacer to be exact: only strings, numbers, booleans, null,
/// undefined, and plain objects and arrays (no `toJSON`) of them, at most 32 levels deep - so nothing the
/// replacer would refuse is reachable. Anything else (class instances, dates, symbols, functions, BigInts,
/// cycles, deep values) answers false and takes the checked path. A replacer function costs JSC a call back
/// into JavaScript per value: measured ~1.7 us vs ~0.5 us (this walk + a plain stringify) for a small object.
/// (A getter of a plain object runs once here and once in stringify.)
function isPlainData(value, depth) {
  const type = typeof value;
  if (type !== "object") return type === "string" || type === "number" || type === "boolean" || type === "undefined";
  if (value === null) return true;
  if (depth > 32) return false;
  const proto = ObjectGetPrototypeOf(value);
  if (proto === ARRAY_PROTOTYPE) {
    if (value.toJSON !== undefined) return false;
    for (let i = 0; i < value.length; i++) if (!isPlainData(value[i], depth + 1)) return false;
    return true;
  }
  if ((proto !== OBJECT_PROTOTYPE && proto !== null) || value.toJSON !== undefined) return false;
  const keys = ObjectKeys(value);
  for (let i = 0; i < keys.length; i++) if (!isPlainData(value[keys[i]], depth + 1)) return false;
  return true;
}

/// What a thrown value says, without trusting it: its message when it is an Error, else its text.
function describeThrown(error) {
  try {
    return error instanceof EngineError ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return "a value that cannot be printed";
  }
}

/// `JSON.stringify` that refuses what it would otherwise drop or fail on, with the path of the problem.
/// `ArrayBuffer`s and views in `args` are set aside with their paths (`bytesPaths`, `bytesValues`).
function serialize(args, basePath) {
  bytesPaths = null;
  bytesValues = null;
  if (args === undefined) return "null";
  try {
    if (isPlainData(args, 0)) return JSONStringify(args) ?? "null";
    return JSONStringify(args, checkingReplacer()) ?? "null";
  } catch (error) {
    bytesPaths = null;
    bytesValues = null;
    let issue;
    try {
      issue = findUnserializable(args, basePath || "", []);
    } catch {
      // Reading the value threw again (a throwing getter, a Proxy trap): its own error tells why.
    }
    issue ??= { path: basePath || "", message: `reading the arguments threw ${describeThrown(error)}` };
    throw new BridgeError("INVALID_ARGUMENT",
      `Arguments cannot be sent to a plugin: ${issue.message}` + (issue.path ? ` (at '${issue.path}')` : "") + ".",
      { data: { issues: [issue] } });
  }
}
internal.serialize = serialize;
/// For the engine's sync calls: the JSON text, or `[text, paths, bytes]` when the value holds bytes.
internal.serializeNative = function (value, basePath) {
  const text = serialize(value, basePath);
  return bytesPaths === null ? text : [text, JSONStringify(bytesPaths), bytesValues];
};

/// Starts call `id` of action `index` with the JSON text `json` of the last `serialize` (and its bytes).
function callNative(index, id, json) {
  if (bytesPaths === null) internal.callAsync(index, id, json);
  else internal.callAsync(index, id, json, JSONStringify(bytesPaths), bytesValues);
}

function execArguments(args) {
  if (!ArrayIsArray(args)) return args;
  return args.length === 0 ? null : args.length === 1 ? args[0] : args;
}

// MARK: - Calls

function withCall(error, plugin, action) {
  if (error instanceof BridgeError) {
    if (error.plugin === undefined) error.plugin = plugin;
    if (error.action === undefined) error.action = action;
  }
  return error;
}

/// `callback` bound to the AsyncLocalStorage context of the code that handed it over (node:async_hooks sets
/// the hooks once loaded; before that, and outside any store, the callback itself).
function inCallersContext(callback) {
  if (typeof callback !== "function" || internal.captureAsyncContext === undefined) return callback;
  const context = internal.captureAsyncContext();
  if (context === undefined) return callback;
  return (...values) => internal.runInAsyncContext(context, callback, undefined, values);
}

function invokeUserCallback(callback, value) {
  if (typeof callback !== "function") return;
  try {
    callback(value);
  } catch (error) {
    internal.reportUncaught(error, "exception");
  }
}

/// Starts an async/stream call whose outcomes go to `entry` ({plugin, action, resolve, reject, onItem}).
function start(index, plugin, action, args, entry, options) {
  const json = serialize(args);
  checkOptions(options);
  const id = ++lastId;
  entry.plugin = plugin;
  entry.action = action;
  entry.timer = undefined;
  entry.signal = undefined;
  pending.set(id, entry);
  callNative(index, id, json);
  if (options !== undefined && options !== null) watch(id, entry, options);
  return id;
}

function checkOptions(options) {
  if (options === undefined || options === null) return;
  const ms = options.timeout;
  if (ms !== undefined && ms !== null && !(Number(ms) >= 0)) {
    throw new RangeError(`The "timeout" option must be a non-negative number of milliseconds. Received ${ms}`);
  }
}

/// The calls under way that each signal ends: one "abort" listener per signal however many calls share it
/// (a DAO's calls share one), so starting and ending a call costs a set insertion and deletion.
const callsBySignal = new SafeWeakMap();

function watchSignal(signal, id) {
  let ids = callsBySignal.get(signal);
  if (ids === undefined) {
    callsBySignal.set(signal, ids = new SafeSet());
    signal.addEventListener("abort", () => {
      for (const id of ids) end(id, "CANCELLED", "The call was cancelled.");
    }, { once: true });
  }
  ids.add(id);
}

function watch(id, entry, options) {
  const { timeout, signal } = options;
  if (signal !== undefined && signal !== null) {
    if (signal.aborted) return end(id, "CANCELLED", "The call was cancelled.");
    entry.id = id;
    entry.signal = signal;
    watchSignal(signal, id);
  }
  if (timeout !== undefined && timeout !== null) {
    const ms = Number(timeout);
    entry.timer = setTimeout(() => end(id, "TIMEOUT", `${entry.plugin}.${entry.action} did not finish within ${ms} ms.`), ms);
  }
}

function release(entry) {
  if (entry.timer !== undefined) clearTimeout(entry.timer);
  if (entry.signal !== undefined) callsBySignal.get(entry.signal).delete(entry.id);
}

/// Ends call `id` from the JS side (cancel, timeout): the native side is told and its answer ignored.
function end(id, code, message) {
  const entry = pending.get(id);
  if (entry === undefined) return;
  pending.delete(id);
  release(entry);
  internal.cancel(id);
  if (code === null) entry.resolve(undefined);
  else entry.reject(new BridgeError(code, message, { plugin: entry.plugin, action: entry.action }));
}

function makeFailure(payload, entry) {
  return new BridgeError(payload.code, payload.message, { plugin: entry.plugin, action: entry.action, data: payload.data });
}

/// `payload` with `count` of the batch's `bytes` from `start` placed at `paths` (a path `[]` is the payload).
function placeBytes(payload, paths, bytes, start) {
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i];
    const array = bytes[start + i];
    if (path.length === 0) {
      payload = array;
      continue;
    }
    let holder = payload;
    for (let j = 0; j < path.length - 1; j++) holder = holder[path[j]];
    ObjectDefineProperty(holder, path[path.length - 1], { value: array, writable: true, enumerable: true, configurable: true });
  }
  return payload;
}

/// Called by the runtime with a JSON batch of `[id, kind, payload]` (events: `[0, 4, plugin, event, payload]`);
/// a value or item with bytes is `[id, kind, payload, paths]` (an event `[0, 4, plugin, event, payload, paths]`),
/// its bytes the next ones of `bytes` (Uint8Arrays).
internal.dispatch = function (text, bytes) {
  const batch = JSONParse(text);
  let nextBytes = 0;
  for (let i = 0; i < batch.length; i++) {
    const message = batch[i];
    const kind = message[1];
    if (kind === EVENT) {
      if (message.length === 6) {
        message[4] = placeBytes(message[4], message[5], bytes, nextBytes);
        nextBytes += message[5].length;
      }
      emit(message[2], message[3], message[4]);
      continue;
    }
    if (message.length === 4) {
      message[2] = placeBytes(message[2], message[3], bytes, nextBytes);
      nextBytes += message[3].length;
    }
    const id = message[0];
    const entry = pending.get(id);
    if (entry === undefined) continue;
    if (kind === ITEM) {
      invokeUserCallback(entry.onItem, message[2]);
      continue;
    }
    pending.delete(id);
    release(entry);
    if (kind === VALUE) entry.resolve(message[2]);
    else if (kind === FINISHED) entry.resolve(undefined);
    else entry.reject(makeFailure(message[2], entry));
  }
};

function execSync(plugin, action, args) {
  return execSyncAs(null, plugin, action, args);
}

function execSyncAs(owner, plugin, action, args) {
  const entry = lookup(plugin, action, owner);
  if (entry[1] !== SYNC) throw wrongKind(plugin, action, entry[1], "synchronous");
  try {
    return entry[2](execArguments(args));
  } catch (error) {
    throw withCall(error, plugin, action);
  }
}

function call(plugin, action, args, options) {
  return callAs(null, plugin, action, args, options);
}

function callAs(owner, plugin, action, args, options) {
  let id;
  try {
    const entry = lookup(plugin, action, owner);
    const kind = entry[1];
    if (kind === SYNC) return PromiseResolve(entry[2](args));
    if (kind === STREAM) throw wrongKind(plugin, action, kind, "promise (async)");
    const json = serialize(args);
    checkOptions(options);
    id = ++lastId;
    callNative(entry[0], id, json);
  } catch (error) {
    return PromiseReject(withCall(error, plugin, action));
  }
  return new Promise((resolve, reject) => {
    pending.set(id, { plugin, action, resolve, reject, onItem: undefined, timer: undefined, signal: undefined, id: undefined });
    if (options !== undefined && options !== null) watch(id, pending.get(id), options);
  });
}

// JSCoreBridge's result codes for exec failures (`resCode`, with the message as `resMsg`).
const RES_CODES = ObjectFreeze({ PLUGIN_NOT_FOUND: "4001", PERMISSION_DENIED: "4002", ACTION_NOT_FOUND: "4003" });

/// `error` with JSCoreBridge's `resCode` (the code's number, else the code itself) and `resMsg`.
function withResultCode(error) {
  if (error instanceof BridgeError) {
    /** @type {any} */ (error).resCode = RES_CODES[error.code] ?? error.code;
    /** @type {any} */ (error).resMsg = error.message;
  }
  return error;
}

/// Cordova service names that are not plugin names: a plugin answering Cordova's exec service `X` declares
/// the constant `cordovaService: "X"` (Location answers `Geolocation`). Worked out on the first exec of a
/// name no plugin has.
let services;
function serviceName(service) {
  if (typeof service !== "string" || service in manifest) return service;
  if (services === undefined) {
    services = ObjectCreate(null);
    for (const plugin of ObjectKeys(manifest)) {
      const alias = internal.pluginConstants(plugin).cordovaService;
      if (typeof alias === "string" && !(alias in manifest)) services[alias] = plugin;
    }
  }
  return services[service] ?? service;
}

/// What the cordova extension adds to exec once its JavaScript has loaded (docs/cordova.md): its JavaScript
/// services (`cordova/exec/proxy`), consulted before the plugins (`proxy` answers true when one took the
/// call), and Cordova's answer to a callback that throws (`callbackError`: the `cordovacallbackerror` event,
/// and the run goes on). Until then a throwing callback is an uncaught exception, as any other.
const execHooks = { proxy: undefined, callbackError: undefined };
internal.execHooks = execHooks;

/// Calls exec's `callback` with `value` (`isSuccess`: the success callback; `callbackId`: Cordova's name of
/// the call, service and number).
function invokeExecCallback(callback, value, isSuccess, callbackId) {
  if (typeof callback !== "function") return;
  try {
    if (isSuccess && isMultipart(value)) FunctionPrototypeApply(callback, undefined, value.cordovaMultipart);
    else callback(value);
  } catch (error) {
    if (execHooks.callbackError === undefined) internal.reportUncaught(error, "exception");
    else execHooks.callbackError(error, isSuccess, callbackId);
  }
}

/// A Cordova MultiPart result (`CordovaMultipart` in Swift, CDVPluginResult's `messageAsMultipart:`):
/// `{cordovaMultipart: [parts]}`, which exec's success callback receives as separate arguments.
function isMultipart(value) {
  return value !== null && typeof value === "object" && ArrayIsArray(value.cordovaMultipart) &&
    ObjectKeys(value).length === 1;
}

const reportedMissing = new SafeSet(); // services (and "service\0action") already reported

/// An exec no plugin answers is never silent, even without a fail callback: Cordova iOS's log line on stderr
/// (once per service, or per service and action) and, with `--trace`, a line for each such exec.
function reportNotFound(service, action, error) {
  const code = error instanceof BridgeError ? error.code : undefined;
  if (code !== "PLUGIN_NOT_FOUND" && code !== "ACTION_NOT_FOUND") return;
  const name = String(service);
  internal.traceNote(`exec ${name}.${String(action)} not started: ${code}`);
  const missingPlugin = code === "PLUGIN_NOT_FOUND";
  const key = missingPlugin ? name : name + "\0" + String(action);
  if (reportedMissing.has(key)) return;
  reportedMissing.add(key);
  internal.print(2, missingPlugin
    ? `ERROR: Plugin '${name}' not found, or is not a CDVPlugin. Check your plugin mapping in config.xml.\n`
    : `ERROR: Method '${String(action)}:' not defined in Plugin '${name}'\n`);
}

/// `error` with the code Cordova's `www/` code compares, for an exec made under a Cordova service name that a
/// plugin answers (`cordovaService`): the plugin's constant `cordovaErrorCodes` maps the text code to it
/// (Geolocation's PositionError codes: `PERMISSION_DENIED` -> 1); the text code stays as `bridgeCode`.
function withServiceCode(error, service) {
  if (!(error instanceof BridgeError) || typeof service !== "string" || service in manifest) return error;
  const plugin = serviceName(service);
  if (plugin === service) return error;
  const codes = internal.pluginConstants(plugin).cordovaErrorCodes;
  if (codes !== null && typeof codes === "object" && ObjectHasOwn(codes, error.code)) {
    /** @type {any} */ (error).bridgeCode = error.code;
    error.code = codes[error.code];
  }
  return error;
}

/// What a Cordova exec's fail callback gets for `error`: the payload the plugin gave for Cordova
/// (`BridgeError.cordova(code:message:payload:)` in Swift: cordova-plugin-file's FileError number), else the error.
function cordovaFailure(error) {
  const data = error instanceof BridgeError ? error.data : undefined;
  return data !== null && typeof data === "object" && ObjectHasOwn(data, "cordovaPayload") ? data.cordovaPayload : error;
}

const reportedUnhandled = new SafeSet(); // "service\0action\0code" already reported

/// An exec that fails with no fail callback is never silent (Cordova's `www/` files often pass none, as
/// cordova-plugin-dialogs' do): its error on stderr, once per service, action and code. Services nobody
/// answers have their own line (reportNotFound); a cancelled call is no failure.
function reportUnhandled(service, action, error) {
  const code = error instanceof BridgeError ? error.code : undefined;
  if (code === "PLUGIN_NOT_FOUND" || code === "ACTION_NOT_FOUND" || code === "CANCELLED") return;
  const key = String(service) + "\0" + String(action) + "\0" + String(code);
  if (reportedUnhandled.has(key)) return;
  reportedUnhandled.add(key);
  let text;
  try {
    text = error instanceof BridgeError ? `[${error.code}] ${error.message}` : String(error);
  } catch {
    text = "a value that cannot be printed";
  }
  internal.print(2, `ERROR: ${String(service)}.${String(action)} failed and the exec has no fail callback: ${text}\n`);
}

/// Cordova's exec: `success` gets each result (repeatedly for stream actions), `fail` the BridgeError
/// (carrying JSCoreBridge's `resCode` and `resMsg` too), or the payload the plugin gave for Cordova.
function exec(success, fail, plugin, action, args) {
  if (execHooks.proxy !== undefined && execHooks.proxy(success, fail, plugin, action, args)) return;
  success = inCallersContext(success);
  const hasFail = typeof fail === "function";
  fail = inCallersContext(fail);
  let id = 0;
  const callbackId = () => String(plugin) + id;
  const failWith = (error) => {
    error = withServiceCode(withResultCode(withCall(error, plugin, action)), plugin);
    if (!hasFail) return reportUnhandled(plugin, action, error);
    invokeExecCallback(fail, cordovaFailure(error), false, callbackId());
  };
  try {
    const entry = lookup(serviceName(plugin), action, null);
    const kind = entry[1];
    args = execArguments(args);
    if (kind === SYNC) {
      const value = entry[2](args);
      id = ++lastId;
      queueMicrotask(() => invokeExecCallback(success, value, true, callbackId()));
      return;
    }
    id = start(entry[0], plugin, action, args, {
      resolve: (value) => { if (kind === ASYNC) invokeExecCallback(success, value, true, callbackId()); },
      reject: failWith,
      onItem: (value) => invokeExecCallback(success, value, true, callbackId()),
    });
  } catch (error) {
    if (id === 0) id = ++lastId;
    reportNotFound(plugin, action, error);
    queueMicrotask(() => failWith(error));
  }
}

/// Subscribes to a stream action: `onValue` per value, `onError` on failure; `cancel()` stops the native side.
function subscribe(plugin, action, args, onValue, onError) {
  return subscribeAs(null, plugin, action, args, onValue, onError);
}

function subscribeAs(owner, plugin, action, args, onValue, onError) {
  if (typeof onValue !== "function") throw new TypeError("bridge.subscribe needs an onValue function.");
  onValue = inCallersContext(onValue);
  onError = inCallersContext(onError);
  let id = 0, resolveDone, rejectDone;
  const done = new Promise((resolve, reject) => { resolveDone = resolve; rejectDone = reject; });
  const fail = (error) => {
    error = withCall(error, plugin, action);
    if (typeof onError === "function") {
      invokeUserCallback(onError, error);
      resolveDone(undefined);
    } else {
      rejectDone(error);
    }
  };
  try {
    const entry = lookup(plugin, action, owner);
    if (entry[1] !== STREAM) throw wrongKind(plugin, action, entry[1], "stream");
    id = start(entry[0], plugin, action, args, { resolve: resolveDone, reject: fail, onItem: onValue });
  } catch (error) {
    queueMicrotask(() => fail(error));
  }
  return { id, done, cancel() { end(id, null); } };
}

// MARK: - Events

const listeners = new SafeMap(); // "plugin\0event" -> Set of listeners

function on(plugin, event, listener) {
  if (typeof listener !== "function") throw new TypeError("bridge.on needs a listener function.");
  const key = plugin + "\0" + event;
  let set = listeners.get(key);
  if (set === undefined) listeners.set(key, set = new SafeSet());
  const bound = inCallersContext(listener);
  const wrapped = (payload) => bound(payload);
  set.add(wrapped);
  return { remove() { set.delete(wrapped); if (set.size === 0 && listeners.get(key) === set) listeners.delete(key); } };
}

/// For the runtime's own files: listens to native events (`plugin` "" is the engine's own, e.g. stdin).
internal.onNativeEvent = on;

/// Script a plugin runs in the page (`PluginContext.evaluateScript`, CDVCommandDelegate's `evalJs:`): in the
/// global scope; what it throws is printed, naming the plugin, and the run goes on.
on("", "evaluate", (payload) => {
  try {
    globalEval(String(payload.source));
  } catch (error) {
    internal.print(2, `Error in JavaScript evaluated by plugin ${String(payload.plugin)}: ${internal.formatError(error)}\n`);
  }
});

function emit(plugin, event, payload) {
  const set = listeners.get(plugin + "\0" + event);
  if (set === undefined) return;
  for (const listener of [...set]) invokeUserCallback(listener, payload);
}

// MARK: - Plugin proxies

function pluginProxy(plugin) {
  return new EngineProxy(ObjectCreate(null), {
    get(_, action) {
      if (typeof action !== "string" || action === "then") return undefined;
      const entry = manifest[plugin]?.[action];
      if (entry !== undefined && !entry[3] && entry[1] === STREAM) {
        return (args, onValue, onError) => subscribe(plugin, action, args, onValue, onError);
      }
      return (args, options) => call(plugin, action, args, options);
    },
  });
}

const plugins = new EngineProxy(ObjectCreate(null), {
  get(_, plugin) {
    if (typeof plugin !== "string" || plugin === "then") return undefined;
    return pluginProxy(plugin);
  },
  has(_, plugin) { return typeof plugin === "string" && plugin in manifest; },
  ownKeys() { return ObjectKeys(manifest); },
  getOwnPropertyDescriptor(_, plugin) {
    return plugin in manifest ? { value: pluginProxy(plugin), enumerable: true, configurable: true } : undefined;
  },
});

// MARK: - Globals

let ready;
const bridge = {
  exec, execSync, call, subscribe, on, plugins,
  /// Sets every plugin up (plugins are otherwise set up before their first call); resolves once all are,
  /// rejects with the failures, if any.
  get ready() {
    if (ready === undefined) {
      ready = new Promise((resolve, reject) => {
        const id = ++lastId;
        const settle = (failures) => {
          if (failures.length === 0) return resolve();
          reject(new BridgeError(failures[0].code, ArrayPrototypeJoin(ArrayPrototypeMap(failures, (f) => f.message), "\n"), { data: { failures } }));
        };
        pending.set(id, { plugin: "bridge", action: "ready", resolve: settle, reject, onItem: undefined, timer: undefined, signal: undefined, id: undefined });
        internal.setUpAll(id);
      });
    }
    return ready;
  },
  /// The number of calls waiting for an answer (the JS callback table's size).
  get pendingCalls() { return pending.size; },
  BridgeError,
};

internal.BridgeError = BridgeError;

/// For the runtime's plugin JS files: `plugin`'s sync `action` (private ones too) as a function of its
/// argument (no lookup or argument array per call), throwing BridgeErrors that name the call.
internal.syncAction = function (plugin, action) {
  const entry = lookup(plugin, action, plugin);
  if (entry[1] !== SYNC) throw wrongKind(plugin, action, entry[1], "synchronous");
  const fn = entry[2];
  return (args) => {
    try {
      return fn(args);
    } catch (error) {
      throw withCall(error, plugin, action);
    }
  };
};

internal.defineGlobal("bridge", bridge);
// For cordova.js (`cordova`, `jsCoreBridge`), which loads when a script first uses one of them.
internal.bridgeExec = exec;
internal.bridgeExecSync = execSync;
/// The kind (0 sync, 1 async, 2 stream) of the action exec would call for Cordova service `service`, or -1.
internal.execKind = function (service, action) {
  const entry = manifest[serviceName(String(service))]?.[String(action)];
  return entry === undefined || entry[3] ? -1 : entry[1];
};
/// JSCoreBridge's `resCode` for a BridgeError's code (the code's number, else the code itself).
internal.resultCode = (code) => RES_CODES[code] ?? code;
internal.bridgePlugins = plugins;
internal.defineGlobal("BridgeError", BridgeError);

// MARK: - Plugins' JavaScript files

/// What the engine offers plugins' JavaScript files (their first parameter, `runtime`): the bridge's own
/// pieces, and the `internal` names the runtime's extensions expose to plugins (their `exposeToPlugins`: the
/// web APIs as the runtime loaded them, so a script's reassignment of a global does not reach a plugin).
const pluginRuntime = {
  version: internal.startup.version,
  defineGlobal: internal.defineGlobal,
  /// The built-ins as the runtime captured them before the script ran (primordials.js): a plugin's
  /// JavaScript that uses these keeps working when a script replaces `JSON.parse` or `Map.prototype.get`.
  primordials: internal.primordials,
  /// Reports an error nobody handles (`kind`: "exception" or "rejection"): the run ends with exit code 1.
  reportError: (error, kind = "exception") => internal.reportUncaught(error, kind),
  serialize,
  BridgeError,
  get inspect() { return internal.inspect; },
  /// The base URL of relative URLs in fetch (`--base-url`), or null.
  baseURL: internal.startup.baseURL ?? null,
};
for (const name of internal.startup.pluginRuntimeNames) {
  ObjectDefineProperty(pluginRuntime, name, { get: () => internal[name], enumerable: true });
}
ObjectFreeze(pluginRuntime);

/// `value` with every object in it frozen.
function deepFreeze(value) {
  if (value !== null && typeof value === "object" && !ObjectIsFrozen(value)) {
    ObjectFreeze(value);
    for (const key of ObjectKeys(value)) deepFreeze(value[key]);
  }
  return value;
}

/// Each plugin's own handle (its files' second parameter, `plugin`).
const pluginHandles = ObjectCreate(null);
function pluginHandle(name) {
  let handle = pluginHandles[name];
  if (handle === undefined) {
    let constants;
    handle = pluginHandles[name] = ObjectFreeze({
      name,
      shared: ObjectCreate(null),
      /// The values the plugin's Swift declaration gives its JavaScript (`PluginDeclaration.constant`).
      get constants() { return constants ??= deepFreeze(internal.pluginConstants(name)); },
      // The plugin's own actions, private ones included.
      call: (action, args, options) => callAs(name, name, action, args, options),
      execSync: (action, args) => execSyncAs(name, name, action, args),
      syncAction: (action) => internal.syncAction(name, action),
      subscribe: (action, args, onValue, onError) => subscribeAs(name, name, action, args, onValue, onError),
      on: (event, listener) => on(name, event, listener),
    });
  }
  return handle;
}

const pluginFileExports = new SafeMap(); // "plugin/file" -> what the file returned
function loadPluginFile(plugin, file) {
  const key = plugin + "/" + file;
  if (pluginFileExports.has(key)) return pluginFileExports.get(key);
  pluginFileExports.set(key, undefined);
  const exports = internal.evaluatePluginFile(plugin, file, pluginRuntime, pluginHandle(plugin));
  pluginFileExports.set(key, exports);
  return exports;
}

internal.loadPluginFile = loadPluginFile;

/// `require("jsbridge:<module>")`: module name -> loader. (The plugins' globals are loader.js's: they exist
/// before this file runs.)
const pluginModules = ObjectCreate(null);
for (const { plugin, file, shares, module } of internal.startup.pluginFiles) {
  const load = () => loadPluginFile(plugin, file);
  for (const name of shares) internal.defineLazy(pluginHandle(plugin).shared, name, load);
  if (module !== null) pluginModules[module] = load;
}

/// The exports of plugin module `name`, or undefined when no plugin provides it.
internal.pluginModule = function (name) {
  const load = pluginModules[name];
  return load === undefined ? undefined : load();
};
