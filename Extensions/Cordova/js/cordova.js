// Cordova and JSCoreBridge compatibility: `cordova` (= `jsCoreBridge`), Cordova's module system
// (`cordova.define`/`cordova.require`) with the modules plugin `www/` files use (`cordova`, `cordova/exec`,
// `cordova/channel`, `cordova/utils`, `cordova/argscheck`, `cordova/builder`, `cordova/modulemapper`), and a
// minimal `document` for `deviceready`, `pause` and `resume`. Lazy: it loads the first time a script reads
// `cordova` or `jsCoreBridge` (or, with `--cordova`, `document` or `window`). The behaviour follows cordova-js as its documentation and
// plugins rely on it; see docs/cordova.md.

const {
  ArrayIsArray, ArrayPrototypeIndexOf, ArrayPrototypeJoin, ArrayPrototypePush, ArrayPrototypeSlice,
  ArrayPrototypeSplice, Error, FunctionPrototypeCall, MathFloor, MethodJoin, MethodToUpperCase, Number,
  ObjectCreate,
  ObjectDefineProperty, ObjectHasOwn, ObjectKeys, ObjectPrototypeToString, ReflectApply, RegExpPrototypeExec,
  StringPrototypeIndexOf, StringPrototypeLastIndexOf, StringPrototypeSlice, StringPrototypeSplit,
  StringPrototypeStartsWith, String, TypeError, Uint8Array,
} = internal.primordials;

// The runtime's version (a custom runtime's own), as a Cordova platform's.
const version = internal.startup.runtime.version;

function codedError(ErrorType, code, message) {
  const error = new ErrorType(message);
  error.code = code;
  return error;
}

/// Runs `callback` on a later turn of the loop (Cordova's `setTimeout(..., 0)`), untouched by a script's timers.
function later(callback) {
  new internal.Timeout(callback, 1, [], false);
}

// MARK: - Module system (cordova.define / cordova.require)

const modules = ObjectCreate(null); // id -> {id, factory?, exports?}
const requireStack = [];
const inProgress = ObjectCreate(null); // id -> index in requireStack

/// The id `request` names from inside module `fromId`: "./x" and "../x" are relative to `fromId`'s last
/// segment (segments end at "." as in plugin ids like "cordova-plugin-device.device", or at "/").
function resolveId(fromId, request) {
  if (typeof request !== "string" || request[0] !== ".") return request;
  const separator = StringPrototypeIndexOf(fromId, "/") >= 0 && StringPrototypeIndexOf(fromId, ".") < 0 ? "/" : ".";
  let base = StringPrototypeSlice(fromId, 0, StringPrototypeLastIndexOf(fromId, separator));
  let rest = request;
  while (true) {
    if (StringPrototypeSlice(rest, 0, 2) === "./") {
      rest = StringPrototypeSlice(rest, 2);
    } else if (StringPrototypeSlice(rest, 0, 3) === "../") {
      rest = StringPrototypeSlice(rest, 3);
      const cut = StringPrototypeLastIndexOf(base, separator);
      base = cut < 0 ? "" : StringPrototypeSlice(base, 0, cut);
    } else {
      break;
    }
  }
  return base === "" ? rest : base + separator + rest;
}

function build(module) {
  const factory = module.factory;
  const localRequire = (request) => requireModule(resolveId(module.id, request));
  module.exports = {};
  delete module.factory;
  FunctionPrototypeCall(factory, undefined, localRequire, module.exports, module);
  return module.exports;
}

/// `cordova.require(id)`: the module's exports, building it on first use. A module required while it is
/// being built (a cycle) throws, as in Cordova, naming the cycle.
function requireModule(id) {
  if (typeof id !== "string" || !ObjectHasOwn(modules, id)) {
    throw codedError(Error, "CORDOVA_MODULE_NOT_FOUND", `module ${id} not found`);
  }
  if (id in inProgress) {
    const cycle = ArrayPrototypeJoin(ArrayPrototypeSlice(requireStack, inProgress[id]), "->") + "->" + id;
    throw codedError(Error, "CORDOVA_MODULE_CYCLE", `Cycle in require graph: ${cycle}`);
  }
  const module = modules[id];
  if (module.factory === undefined) return module.exports;
  inProgress[id] = requireStack.length;
  ArrayPrototypePush(requireStack, id);
  try {
    return build(module);
  } finally {
    delete inProgress[id];
    requireStack.length -= 1;
  }
}

/// `cordova.define(id, factory(require, exports, module))`.
function define(id, factory) {
  if (typeof id !== "string" || id === "") {
    throw codedError(TypeError, "CORDOVA_INVALID_MODULE", "cordova.define needs a module id (a non-empty string).");
  }
  if (typeof factory !== "function") {
    throw codedError(TypeError, "CORDOVA_INVALID_MODULE", `cordova.define('${id}') needs a factory function.`);
  }
  if (ObjectHasOwn(modules, id)) throw codedError(Error, "CORDOVA_MODULE_DEFINED", `module ${id} already defined`);
  modules[id] = { id, factory };
  if (id === "cordova/plugin_list") pluginListDirectory = callerDirectory();
}

/// The directory of the file that defined `cordova/plugin_list` (the Cordova CLI's `cordova_plugins.js`),
/// ending in "/": its entries' files are relative to it, as cordova-js resolves them against its own
/// folder. Null when no file defined it (`-e` code): the working directory is used.
let pluginListDirectory = null;

/// The directory of the first file on the stack outside the runtime (`name@/path/file.js:line:column`).
function callerDirectory() {
  // The engine's own constructor and text (`fn@file:line:column`), all frames (the global `Error` may be
  // the node extension's, whose stack is Node's text).
  const EngineError = internal.primordials.Error;
  const limit = EngineError.stackTraceLimit;
  let stack;
  try {
    EngineError.stackTraceLimit = 100;
    stack = new EngineError().stack;
  } catch {
    return null;
  } finally {
    EngineError.stackTraceLimit = limit;
  }
  if (typeof stack !== "string") return null;
  for (const line of StringPrototypeSplit(stack, "\n")) {
    const location = StringPrototypeSlice(line, StringPrototypeIndexOf(line, "@") + 1);
    if (location === "" || StringPrototypeStartsWith(location, "jsbridge:internal/") || location === "[native code]") continue;
    const match = RegExpPrototypeExec(/^(\/.*?)(?::\d+){1,2}$/, location);
    return match ? StringPrototypeSlice(match[1], 0, StringPrototypeLastIndexOf(match[1], "/") + 1) : null;
  }
  return null;
}
define.remove = function (id) { delete modules[id]; };
define.moduleMap = modules;

/// Defines a module whose exports are ready-made (the engine's own modules).
function defineValue(id, exports) {
  modules[id] = { id, exports };
}

// MARK: - cordova/utils

const utils = {};
utils.defineGetterSetter = function (obj, key, getFunc, opt_setFunc) {
  ObjectDefineProperty(obj, key, { get: getFunc, set: opt_setFunc, configurable: true, enumerable: true });
};
utils.defineGetter = utils.defineGetterSetter;
utils.arrayIndexOf = (a, item) => ArrayPrototypeIndexOf(a, item);
utils.arrayRemove = function (a, item) {
  const index = ArrayPrototypeIndexOf(a, item);
  if (index !== -1) ArrayPrototypeSplice(a, index, 1);
  return index !== -1;
};
/// The `[[Class]]` name: "Array", "Date", "Null", "Undefined", "Object", ...
utils.typeName = (value) => StringPrototypeSlice(ObjectPrototypeToString(value), 8, -1);
utils.isArray = ArrayIsArray;
utils.isDate = (d) => d instanceof Date;
utils.clone = function clone(obj) {
  if (!obj || typeof obj === "function" || utils.isDate(obj) || typeof obj !== "object") return obj;
  if (ArrayIsArray(obj)) {
    const copy = [];
    for (let i = 0; i < obj.length; i++) ArrayPrototypePush(copy, clone(obj[i]));
    return copy;
  }
  const copy = {};
  for (const key in obj) {
    if (!(key in copy) || copy[key] !== obj[key]) copy[key] = clone(obj[key]);
  }
  return copy;
};
utils.close = function (context, func, params) {
  return function (...args) {
    return ReflectApply(func, context, params || args);
  };
};
utils.createUUID = function () {
  const hex = (n) => {
    let text = "";
    for (let i = 0; i < n; i++) text += "0123456789abcdef"[MathFloor(Math.random() * 16)];
    return text;
  };
  return `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
};
utils.extend = function (Child, Parent) {
  function F() {}
  F.prototype = Parent.prototype;
  Child.prototype = new F();
  Child.__super__ = Parent.prototype;
  Child.prototype.constructor = Child;
};
utils.alert = function (msg) { internal.console.log(msg); };

// MARK: - cordova/channel

let nextGuid = 1;

function requireFunction(f) {
  if (typeof f !== "function") throw codedError(TypeError, "CORDOVA_INVALID_ARGUMENT", "Function required as first argument!");
}

/// A Cordova channel: state 0 = plain, 1 = sticky not fired, 2 = sticky fired (late subscribers run at once).
function Channel(type, sticky) {
  this.type = type;
  this.handlers = {};
  this.state = sticky ? 1 : 0;
  this.fireArgs = null;
  this.numHandlers = 0;
  this.onHasSubscribersChange = null;
}

Channel.prototype.subscribe = function (eventListenerOrFunction, eventListener) {
  let handleEvent;
  if (eventListenerOrFunction !== null && typeof eventListenerOrFunction === "object") {
    handleEvent = eventListenerOrFunction.handleEvent;
    eventListener = eventListenerOrFunction;
  } else {
    handleEvent = eventListenerOrFunction;
  }
  requireFunction(handleEvent);
  if (this.state === 2) {
    ReflectApply(handleEvent, eventListener || this, this.fireArgs);
    return;
  }
  let guid = eventListenerOrFunction.observer_guid;
  if (typeof eventListener === "object") handleEvent = utils.close(eventListener, handleEvent);
  if (!guid) guid = "" + nextGuid++;
  handleEvent.observer_guid = guid;
  eventListenerOrFunction.observer_guid = guid;
  if (!this.handlers[guid]) {
    this.handlers[guid] = handleEvent;
    this.numHandlers++;
    if (this.numHandlers === 1 && this.onHasSubscribersChange) this.onHasSubscribersChange();
  }
};

Channel.prototype.unsubscribe = function (eventListenerOrFunction) {
  const handleEvent = eventListenerOrFunction !== null && typeof eventListenerOrFunction === "object"
    ? eventListenerOrFunction.handleEvent : eventListenerOrFunction;
  requireFunction(handleEvent);
  const guid = handleEvent.observer_guid;
  if (guid !== undefined && this.handlers[guid]) {
    delete this.handlers[guid];
    this.numHandlers--;
    if (this.numHandlers === 0 && this.onHasSubscribersChange) this.onHasSubscribersChange();
  }
};

/// Calls every handler with the arguments; a sticky channel remembers them and drops its handlers.
Channel.prototype.fire = function (...fireArgs) {
  if (this.state === 1) {
    this.state = 2;
    this.fireArgs = fireArgs;
  }
  if (this.numHandlers) {
    const toCall = [];
    for (const guid in this.handlers) ArrayPrototypePush(toCall, this.handlers[guid]);
    for (let i = 0; i < toCall.length; i++) ReflectApply(toCall[i], this, fireArgs);
    if (this.state === 2 && this.numHandlers) {
      this.numHandlers = 0;
      this.handlers = {};
      if (this.onHasSubscribersChange) this.onHasSubscribersChange();
    }
  }
};

const channel = {
  /// Calls `h` once every (sticky) channel in `c` has fired.
  join(h, c) {
    const length = c.length;
    let remaining = length;
    const f = function () { if (!(--remaining)) h(); };
    for (let i = 0; i < length; i++) {
      if (c[i].state === 0) throw codedError(Error, "CORDOVA_INVALID_ARGUMENT", "Can only use join with sticky channels.");
      c[i].subscribe(f);
    }
    if (!length) h();
  },
  create(type) { return (channel[type] = new Channel(type, false)); },
  createSticky(type) { return (channel[type] = new Channel(type, true)); },
  /// The channels `deviceready` waits for.
  deviceReadyChannelsArray: [],
  deviceReadyChannelsMap: {},
  /// Makes `deviceready` wait until channel `feature` fires (it is created sticky if needed).
  waitForInitialization(feature) {
    if (feature) {
      const c = channel[feature] || channel.createSticky(feature);
      channel.deviceReadyChannelsMap[feature] = c;
      ArrayPrototypePush(channel.deviceReadyChannelsArray, c);
    }
  },
  /// Fires the channel `feature` that `deviceready` waits for.
  initializationComplete(feature) {
    const c = channel.deviceReadyChannelsMap[feature];
    if (c) c.fire();
  },
  Channel,
};

channel.createSticky("onDOMContentLoaded");
channel.createSticky("onNativeReady");
channel.createSticky("onCordovaReady");
channel.createSticky("onPluginsReady");
channel.createSticky("onDeviceReady");
channel.create("onResume");
channel.create("onPause");
channel.waitForInitialization("onCordovaReady");
channel.waitForInitialization("onDOMContentLoaded");

// MARK: - cordova/argscheck

const typeMap = { A: "Array", D: "Date", N: "Number", S: "String", F: "Function", O: "Object" };

/// The name of parameter `index` in `callee`'s source, or its position when the source does not tell.
function parameterName(callee, index) {
  try {
    const match = RegExpPrototypeExec(/\(\s*([^)]*?)\s*\)/, String(callee));
    const name = match && StringPrototypeSplit(match[1], /\s*,\s*/)[index];
    if (name) return name;
  } catch {
    // A callee that cannot be printed: fall back to the position.
  }
  return `#${index + 1}`;
}

const argscheck = {
  enableChecks: true,
  /// Checks `args` against `spec`: one letter per argument (A Array, D Date, N Number, S String, F Function,
  /// O Object, * anything); upper case = may also be null or undefined. Throws Cordova's TypeError.
  checkArgs(spec, functionName, args, opt_callee) {
    if (!argscheck.enableChecks) return;
    let message = null, typeName, i;
    for (i = 0; i < spec.length; i++) {
      const c = spec[i], upper = MethodToUpperCase(c), arg = args[i];
      if (c === "*") continue;
      typeName = utils.typeName(arg);
      if ((arg === null || arg === undefined) && c === upper) continue;
      if (typeName !== typeMap[upper]) {
        message = "Expected " + typeMap[upper];
        break;
      }
    }
    if (message === null) return;
    let callee = opt_callee;
    if (callee === undefined) {
      try {
        callee = args.callee;
      } catch {
        // Strict-mode `arguments` have no callee.
      }
    }
    message += ", but got " + typeName + ".";
    message = 'Wrong type for parameter "' + parameterName(callee, i) + '" of ' + functionName + ": " + message;
    internal.console.error(message);
    const error = new TypeError(message);
    error.code = "CORDOVA_INVALID_ARGUMENT";
    throw error;
  },
  getValue(value, defaultValue) { return value === undefined ? defaultValue : value; },
};

// MARK: - cordova/builder and cordova/modulemapper

function each(objects, func, context) {
  for (const key in objects) {
    if (ObjectHasOwn(objects, key)) ReflectApply(func, context, [objects[key], key]);
  }
}

function clobber(obj, key, value) {
  builder.replaceHookForTesting(obj, key);
  let needsProperty = false;
  try {
    obj[key] = value;
  } catch {
    // A non-writable property of a frozen or sealed object: strict code throws.
    needsProperty = true;
  }
  // A read-only property (a getter, a non-writable value) is replaced by a getter.
  if (needsProperty || obj[key] !== value) utils.defineGetter(obj, key, () => value);
}

/// cordova-js's `builder.buildInto*`: puts each of `objects` (`{path?, children?, deprecated?}` by key) on
/// `parent` - the module at `path` (or `{}`), then its children into it. `clobberIt`: replace what is there
/// when a path is given (`merge`: merge into it instead); otherwise only fill what is undefined.
function include(parent, objects, clobberIt, merge) {
  each(objects, (obj, key) => {
    try {
      let result = obj.path ? requireModule(obj.path) : {};
      if (clobberIt) {
        if (typeof parent[key] === "undefined") {
          builder.assignOrWrapInDeprecateGetter(parent, key, result, obj.deprecated);
        } else if (typeof obj.path !== "undefined") {
          if (merge) recursiveMerge(parent[key], result);
          else builder.assignOrWrapInDeprecateGetter(parent, key, result, obj.deprecated);
        }
        result = parent[key];
      } else if (typeof parent[key] === "undefined") {
        builder.assignOrWrapInDeprecateGetter(parent, key, result, obj.deprecated);
      } else {
        // What is there stays; the children are built into it.
        result = parent[key];
      }
      if (obj.children) include(result, obj.children, clobberIt, merge);
    } catch (error) {
      utils.alert(`Exception building Cordova JS globals: ${error} for key "${key}"`);
    }
  });
}

function recursiveMerge(target, src) {
  for (const prop in src) {
    if (!ObjectHasOwn(src, prop)) continue;
    if (target.prototype && target.prototype.constructor === target) {
      clobber(target.prototype, prop, src[prop]);
    } else if (typeof src[prop] === "object" && src[prop] !== null && typeof target[prop] === "object" && target[prop] !== null) {
      recursiveMerge(target[prop], src[prop]);
    } else {
      clobber(target, prop, src[prop]);
    }
  }
}

const builder = {
  each,
  assignOrWrapInDeprecateGetter(obj, key, value, message) {
    if (!message) return clobber(obj, key, value);
    utils.defineGetter(obj, key, () => {
      internal.console.log(message);
      delete obj[key];
      clobber(obj, key, value);
      return value;
    });
  },
  recursiveMerge,
  buildIntoButDoNotClobber(objects, target) { include(target, objects, false, false); },
  buildIntoAndClobber(objects, target) { include(target, objects, true, false); },
  buildIntoAndMerge(objects, target) { include(target, objects, true, true); },
  /// A hook cordova-js's own tests replace to watch every clobber.
  replaceHookForTesting(obj, key) {},
};

// MARK: - cordova/base64 and cordova/urlutil

const base64 = {
  /// The base64 text of an ArrayBuffer's bytes (how Cordova passes binary arguments and results).
  fromArrayBuffer(arrayBuffer) {
    return internal.base64Encode(new Uint8Array(arrayBuffer));
  },
  /// The ArrayBuffer of base64 text; text that is not base64 throws, as `atob` does.
  toArrayBuffer(text) {
    const bytes = internal.forgivingBase64Decode(String(text));
    if (bytes === null) {
      throw new internal.DOMException("The string to be decoded is not correctly encoded.", "InvalidCharacterError");
    }
    return new Uint8Array(bytes).buffer;
  },
};

const urlutil = {
  /// `url` made absolute, as a page resolves a link: against `--base-url` when the run has one, else the
  /// working directory (a file: URL).
  makeAbsolute(url) {
    const base = internal.startup.baseURL ?? new internal.URL("file://" + internal.cwd() + "/").href;
    return new internal.URL(String(url), base).href;
  },
};

const symbolList = [];
const deprecations = ObjectCreate(null);

function addEntry(strategy, moduleName, symbolPath, deprecationMessage) {
  if (!ObjectHasOwn(modules, moduleName)) {
    throw codedError(Error, "CORDOVA_MODULE_NOT_FOUND", `Module ${moduleName} does not exist.`);
  }
  ArrayPrototypePush(symbolList, strategy, moduleName, symbolPath);
  if (deprecationMessage) deprecations[symbolPath] = deprecationMessage;
}

function prepareNamespace(symbolPath, context) {
  if (!symbolPath) return context;
  let current = context;
  for (const part of StringPrototypeSplit(symbolPath, ".")) current = current[part] = current[part] || {};
  return current;
}

const modulemapper = {
  clobbers: (moduleName, symbolPath, message) => addEntry("c", moduleName, symbolPath, message),
  merges: (moduleName, symbolPath, message) => addEntry("m", moduleName, symbolPath, message),
  defaults: (moduleName, symbolPath, message) => addEntry("d", moduleName, symbolPath, message),
  runs: (moduleName) => addEntry("r", moduleName, null),
  /// Applies the entries to `context` (the global object): requires each module and puts its exports at
  /// its symbol path (clobbers), merges them into what is there (merges), or only where nothing is (defaults).
  mapModules(context) {
    const original = {};
    context.CDV_origSymbols = original;
    for (let i = 0; i < symbolList.length; i += 3) {
      const strategy = symbolList[i], moduleName = symbolList[i + 1];
      const module = requireModule(moduleName);
      if (strategy === "r") continue;
      const symbolPath = symbolList[i + 2];
      const lastDot = StringPrototypeLastIndexOf(symbolPath, ".");
      const namespace = lastDot < 0 ? "" : StringPrototypeSlice(symbolPath, 0, lastDot);
      const lastName = StringPrototypeSlice(symbolPath, lastDot + 1);
      const parent = prepareNamespace(namespace, context);
      const target = parent[lastName];
      if (strategy === "m" && target) {
        recursiveMerge(target, module);
      } else if (strategy !== "d" || !target) {
        if (!(symbolPath in original)) original[symbolPath] = target;
        builder.assignOrWrapInDeprecateGetter(parent, lastName, module, deprecations[symbolPath]);
      }
    }
  },
  getOriginalSymbol(context, symbolPath) {
    const original = context.CDV_origSymbols;
    if (original && symbolPath in original) return original[symbolPath];
    let value = context;
    for (const part of StringPrototypeSplit(symbolPath, ".")) value = value && value[part];
    return value;
  },
  reset() {
    symbolList.length = 0;
    for (const key of ObjectKeys(deprecations)) delete deprecations[key];
  },
};

// MARK: - document and window events

const documentEventHandlers = ObjectCreate(null); // type -> Channel
const windowEventHandlers = ObjectCreate(null);

function channelFor(handlers, type) {
  return handlers[type] || (handlers[type] = new Channel(type, false));
}

/// An event object for `type` carrying `data`'s fields (Cordova's createEvent).
function createEvent(type, data) {
  const event = new internal.Event(type);
  if (data) {
    for (const key in data) {
      if (ObjectHasOwn(data, key)) ObjectDefineProperty(event, key, { value: data[key], enumerable: true, configurable: true, writable: true });
    }
  }
  return event;
}

/// The global `document`: an event target for Cordova's lifecycle events (nothing of the DOM).
const documentObject = {
  addEventListener(type, listener) {
    if (listener === null || listener === undefined) return;
    channelFor(documentEventHandlers, String(type)).subscribe(listener);
  },
  removeEventListener(type, listener) {
    if (listener === null || listener === undefined) return;
    const c = documentEventHandlers[String(type)];
    if (c !== undefined) c.unsubscribe(listener);
  },
  /// An event to `initEvent` and dispatch (the legacy DOM way JSCoreBridge's and older plugins' code fires
  /// events): every kind ("Events", "HTMLEvents", ...) is an `Event`.
  createEvent(kind) {
    if (arguments.length === 0) throw codedError(TypeError, "ERR_MISSING_ARGS", "Failed to execute 'createEvent' on 'Document': 1 argument required, but only 0 present.");
    return new internal.Event("");
  },
  /// Delivers `event` to the listeners of `event.type`; always true (events here cannot be cancelled).
  dispatchEvent(event) {
    if (event === null || typeof event !== "object" || typeof event.type !== "string") {
      throw codedError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "event" argument must be an Event (an object with a type).');
    }
    const c = documentEventHandlers[event.type];
    if (c !== undefined) c.fire(event);
    return true;
  },
};
ObjectDefineProperty(documentObject, Symbol.toStringTag, { value: "Document" });

// MARK: - JSCoreBridge

/// JSCoreBridge's execSync: the action's value, or on a bridge failure JSCoreBridge's `{resCode, resMsg}`
/// dictionary instead of a thrown error, as JSCoreBridge's apps test for (`bridge.execSync` still throws).
function jscExecSync(plugin, action, args) {
  try {
    return internal.bridgeExecSync(plugin, action, args);
  } catch (error) {
    if (!(error instanceof internal.BridgeError)) throw error;
    return { resCode: internal.resultCode(error.code), resMsg: error.message };
  }
}

/// JSCoreBridge's `jscorebridge.js` sends each ArrayBuffer argument as `{CDVType: "ArrayBuffer", data: base64}`
/// (its massageArgsJsToNative): the plugin gets the bytes, as JSCoreBridge's native side decodes them.
function jscArguments(args) {
  if (!ArrayIsArray(args)) return args;
  const result = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const isBuffer = arg !== null && typeof arg === "object" && arg.CDVType === "ArrayBuffer" && typeof arg.data === "string";
    ArrayPrototypePush(result, isBuffer ? base64.toArrayBuffer(arg.data) : arg);
  }
  return result;
}

/// JSCoreBridge's transport, which an app's own `jscorebridge.js` calls: `command` is `[callbackId, plugin,
/// method, args]`. "EXECSYNC" runs a sync action and returns its value (or `{resCode, resMsg}`); "INVALID"
/// calls without callbacks; any other id is answered through `jsCoreBridge.nativeCallback(callbackId, status
/// (0 success, 1 failure), message, keepCallback)` on the global `jsCoreBridge` of the moment, as
/// JSCoreBridge's native side calls it (the app's script has replaced ours by then).
function jscExecuteCommand(command) {
  if (!ArrayIsArray(command) || command.length < 3) {
    throw codedError(TypeError, "CORDOVA_INVALID_ARGUMENT", "jscExecuteCommand needs [callbackId, plugin, method, args].");
  }
  const callbackId = command[0], plugin = command[1], method = command[2], args = jscArguments(command[3]);
  if (callbackId === "EXECSYNC") return jscExecSync(plugin, method, args);
  if (callbackId === "INVALID") return internal.bridgeExec(null, null, plugin, method, args);
  // A stream action's values keep the callback (JSCoreBridge's keepCallback), as a JSCPlugin's would.
  const keep = internal.execKind(plugin, method) === 2;
  const answer = (status, message, keepCallback) => {
    const target = globalThis.jsCoreBridge;
    if (target !== null && target !== undefined && typeof target.nativeCallback === "function") {
      target.nativeCallback(callbackId, status, message, keepCallback);
    }
  };
  internal.bridgeExec((value) => answer(0, value, keep), (error) => answer(1, error, false), plugin, method, args);
}

/// `window`'s listeners (`window` is `globalThis` with `--cordova`): Cordova's window events (`online`,
/// `offline`, `cordovacallbackerror`, and any a plugin fires with `fireWindowEvent`) on the same channels
/// as `cordova.addWindowEventHandler`'s.
const windowEvents = {
  addEventListener(type, listener) {
    if (listener === null || listener === undefined) return;
    channelFor(windowEventHandlers, String(type)).subscribe(listener);
  },
  removeEventListener(type, listener) {
    if (listener === null || listener === undefined) return;
    const c = windowEventHandlers[String(type)];
    if (c !== undefined) c.unsubscribe(listener);
  },
  /// Delivers `event` to `window`'s listeners of `event.type`; always true.
  dispatchEvent(event) {
    if (event === null || typeof event !== "object" || typeof event.type !== "string") {
      throw codedError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "event" argument must be an Event (an object with a type).');
    }
    const c = windowEventHandlers[event.type];
    if (c !== undefined) c.fire(event);
    return true;
  },
};

// MARK: - cordova/exec/proxy

/// JavaScript services (cordova-js's `cordova/exec/proxy`): `add(service, {action(win, fail, args)})`. Cordova's
/// browser-platform files (`src/browser/*Proxy.js`) answer their service this way; exec consults them before
/// the plugins.
const commandProxies = ObjectCreate(null);
const execProxy = {
  add(id, proxyObj) {
    commandProxies[id] = proxyObj;
    return proxyObj;
  },
  remove(id) {
    const proxy = commandProxies[id];
    commandProxies[id] = null;
    return proxy;
  },
  get(service, action) {
    const proxy = commandProxies[service];
    return proxy ? proxy[action] : null;
  },
};

/// Exec through a JavaScript service, as cordova-js's browser platform does: the callbacks go in
/// `cordova.callbacks`, the proxy gets `(win(result, {keepCallback, status, callbackId}), fail(error, ...),
/// args)`. A callback that throws is reported by `callbackFromNative` (`cordovacallbackerror`); the run goes on.
internal.execHooks.proxy = function (success, fail, service, action, args) {
  const proxy = execProxy.get(service, action);
  if (typeof proxy !== "function") return false;
  const callbackId = String(service) + cordova.callbackId++;
  internal.traceNote(`exec ${String(service)}.${String(action)} id=${callbackId} by its JavaScript proxy`);
  if (typeof success === "function" || typeof fail === "function") cordova.callbacks[callbackId] = { success, fail };
  const answer = (deliver, defaultStatus) => (message, options) => {
    options = options || {};
    const status = options.status !== undefined && options.status !== null ? options.status : defaultStatus;
    try {
      deliver(options.callbackId || callbackId, { status, message, keepCallback: options.keepCallback || false });
    } catch {
      // callbackFromNative logged it and fired cordovacallbackerror.
    }
  };
  try {
    proxy(answer(cordova.callbackSuccess, cordova.callbackStatus.OK),
      answer(cordova.callbackError, cordova.callbackStatus.ERROR), args || []);
  } catch (error) {
    internal.print(2, `Exception calling native with command :: ${String(service)} :: ${String(action)} ::exception=${error}\n`);
  }
  return true;
};

/// `cordova` (the same object as `jsCoreBridge`).
const cordova = {
  define,
  require: requireModule,
  version,
  platformVersion: version,
  platformId: "linux",
  /// Cordova's exec (the same function as `bridge.exec`): failures carry JSCoreBridge's `resCode`/`resMsg`.
  exec: internal.bridgeExec,
  execSync: jscExecSync,
  /// A plain namespace that plugins' `clobbers`/`merges` write into (`cordova.plugins.diagnostic`); the
  /// native plugins' proxies are `bridge.plugins`.
  plugins: {},
  /// cordova-js's callback table, used by JavaScript services (`cordova/exec/proxy`) and
  /// `callbackFromNative`; native calls keep theirs in the bridge.
  callbackId: MathFloor(Math.random() * 2000000000),
  callbacks: {},
  /// cordova-js's: delivers a success (`args`: `{status, message, keepCallback}`) to callback `callbackId`.
  callbackSuccess(callbackId, args) {
    cordova.callbackFromNative(callbackId, true, args.status, [args.message], args.keepCallback);
  },
  /// cordova-js's: delivers a failure to callback `callbackId`.
  callbackError(callbackId, args) {
    cordova.callbackFromNative(callbackId, false, args.status, [args.message], args.keepCallback);
  },
  /// cordova-js's: calls `cordova.callbacks[callbackId]`'s success (with status OK) or fail with `args`, and
  /// forgets it unless `keepCallback`. A callback that throws fires `cordovacallbackerror` and is rethrown.
  callbackFromNative(callbackId, isSuccess, status, args, keepCallback) {
    try {
      const callback = cordova.callbacks[callbackId];
      if (callback) {
        if (isSuccess && status === cordova.callbackStatus.OK) {
          if (callback.success) ReflectApply(callback.success, null, args);
        } else if (!isSuccess) {
          if (callback.fail) ReflectApply(callback.fail, null, args);
        }
        if (!keepCallback) delete cordova.callbacks[callbackId];
      }
    } catch (error) {
      const message = `Error in ${isSuccess ? "Success" : "Error"} callbackId: ${callbackId} : ${error}`;
      internal.print(2, message + "\n");
      cordova.fireWindowEvent("cordovacallbackerror", { message, error });
      throw error;
    }
  },
  /// JSCoreBridge's: a result from the native side (`status` 0 success, else failure) for `callbackId`.
  nativeCallback(callbackId, status, message, keepCallback) {
    const ok = status === 0;
    cordova.callbackFromNative(callbackId, ok, ok ? 1 : 9, [message], keepCallback);
  },
  callbackStatus: {
    NO_RESULT: 0, OK: 1, CLASS_NOT_FOUND_EXCEPTION: 2, ILLEGAL_ACCESS_EXCEPTION: 3, INSTANTIATION_EXCEPTION: 4,
    MALFORMED_URL_EXCEPTION: 5, IO_EXCEPTION: 6, INVALID_ACTION: 7, JSON_EXCEPTION: 8, ERROR: 9,
  },
  addWindowEventHandler: (type) => (windowEventHandlers[type] = new Channel(type, false)),
  addDocumentEventHandler: (type) => (documentEventHandlers[type] = new Channel(type, false)),
  addStickyDocumentEventHandler: (type) => (documentEventHandlers[type] = new Channel(type, true)),
  removeWindowEventHandler(type) { delete windowEventHandlers[type]; },
  removeDocumentEventHandler(type) { delete documentEventHandlers[type]; },
  getOriginalHandlers() {
    return { document: { addEventListener: documentObject.addEventListener, removeEventListener: documentObject.removeEventListener } };
  },
  /// Fires document event `type` with `data`'s fields: on a later turn, or at once with `bNoDetach`.
  fireDocumentEvent(type, data, bNoDetach) {
    const event = createEvent(type, data);
    const c = documentEventHandlers[type];
    if (c === undefined) return;
    if (bNoDetach) c.fire(event);
    else later(() => c.fire(event));
  },
  /// Fires window event `type` at once.
  fireWindowEvent(type, data) {
    const event = createEvent(type, data);
    const c = windowEventHandlers[type];
    if (c !== undefined) c.fire(event);
    // A `window` of the script's own (not ours, whose listeners are these channels) hears it too.
    const target = globalThis.window;
    if (target !== undefined && target !== null && typeof target.dispatchEvent === "function" &&
      target.dispatchEvent !== windowEvents.dispatchEvent) target.dispatchEvent(event);
  },
  /// Calls `func` once Cordova is ready (plugins mapped) with no arguments.
  addConstructor(func) {
    channel.onCordovaReady.subscribe(() => {
      try {
        func();
      } catch (error) {
        internal.console.error("Failed to run constructor: " + error);
      }
    });
  },
};

channel.onPause = cordova.addDocumentEventHandler("pause");
channel.onResume = cordova.addDocumentEventHandler("resume");
channel.onActivated = cordova.addDocumentEventHandler("activated");
channel.onDeviceReady = cordova.addStickyDocumentEventHandler("deviceready");

defineValue("cordova", cordova);
defineValue("cordova/exec", cordova.exec);
defineValue("cordova/exec/proxy", execProxy);
defineValue("cordova/base64", base64);
defineValue("cordova/urlutil", urlutil);
defineValue("cordova/channel", channel);
defineValue("cordova/utils", utils);
defineValue("cordova/argscheck", argscheck);
defineValue("cordova/builder", builder);
defineValue("cordova/modulemapper", modulemapper);
defineValue("cordova/platform", { id: "linux", bootstrap() {} });

// MARK: - cordova/pluginloader

/// Loads plugin file `url` (cordova-js injects a `<script>`): as a CommonJS file, read under the run's rule
/// for source files; `onload` after it ran, `onerror(error)` when it could not be read or threw.
function injectScript(url, onload, onerror) {
  try {
    if (typeof internal.loadCommonJS !== "function") {
      throw codedError(Error, "CORDOVA_NO_LOADER", "this runtime has no module loader (the modules extension)");
    }
    internal.loadCommonJS(url, undefined);
  } catch (error) {
    onerror(error);
    return;
  }
  onload();
}

/// What a thrown value says, without trusting it.
function describeError(error) {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "a value that cannot be printed";
  }
}

const pluginloader = {
  injectScript,
  /// cordova-js's plugin loading: each entry of `cordova/plugin_list` whose module is not defined yet has
  /// its file loaded, relative to `cordova_plugins.js`, in the list's order; then each entry's `clobbers`,
  /// `merges` and `runs` are registered with the module mapper, and `callback` runs. A file that cannot be
  /// loaded (or does not define its module) is logged on stderr and its entry left out: start-up goes on.
  load(callback) {
    if (!ObjectHasOwn(modules, "cordova/plugin_list")) return callback();
    const list = requireModule("cordova/plugin_list");
    const base = pluginListDirectory ?? internal.cwd() + "/";
    const failed = (entry, path, reason) =>
      internal.print(2, `Failed to load plugin file ${path} for module ${entry.id} (cordova_plugins.js): ${reason}\n`);
    for (let i = 0; i < list.length; i++) {
      const entry = list[i];
      if (ObjectHasOwn(modules, entry.id)) continue;
      if (typeof entry.file !== "string") {
        failed(entry, "(none)", "the entry names no file");
        continue;
      }
      const path = entry.file[0] === "/" ? entry.file : base + entry.file;
      injectScript(path, () => {
        if (!ObjectHasOwn(modules, entry.id)) failed(entry, path, `it does not define module ${entry.id}`);
      }, (error) => failed(entry, path, describeError(error)));
    }
    for (let i = 0; i < list.length; i++) {
      const entry = list[i];
      if (!ObjectHasOwn(modules, entry.id)) continue;
      for (const path of entry.clobbers || []) modulemapper.clobbers(entry.id, path);
      for (const path of entry.merges || []) modulemapper.merges(entry.id, path);
      if (entry.runs) modulemapper.runs(entry.id);
    }
    return callback();
  },
};
defineValue("cordova/pluginloader", pluginloader);

// MARK: - Start-up sequence

/// Cordova's start-up, on the turn after the script's own code (as a page's `DOMContentLoaded` follows its
/// scripts): the native side and the DOM are ready; the modules listed in `cordova/plugin_list` are mapped
/// onto the global object (clobbers, merges, runs); then `onPluginsReady`, `onCordovaReady`, and `deviceready`
/// once every channel passed to `waitForInitialization` has fired.
function bootstrap() {
  channel.onDOMContentLoaded.fire();
  channel.onNativeReady.fire();
  pluginloader.load(() => {});
  modulemapper.mapModules(globalThis);
  channel.onPluginsReady.fire();
  // The host's hook before deviceready: the native plugins that hear lifecycle events (`onLifecycle`) are
  // told `beforeDeviceReady`, and deviceready waits until every one has returned.
  if (internal.cordovaPluginLifecycle("beforeDeviceReady")) channel.waitForInitialization("onNativeLifecycleReady");
  // Plugins' modules ran by now: the channels they asked `deviceready` to wait for are all in the array.
  MethodJoin(channel, fireDeviceReady, channel.deviceReadyChannelsArray);
  channel.onCordovaReady.fire();
}

/// A lifecycle broadcast to the native plugins ended: `beforeDeviceReady` lets deviceready fire.
internal.onNativeEvent("", "cordova.pluginLifecycleDone", (event) => {
  internal.cordovaPluginLifecycleHeard();
  if (event === "beforeDeviceReady") channel.initializationComplete("onNativeLifecycleReady");
});

/// `deviceready`: through an app's own `jscorebridge.js` when it replaced `jsCoreBridge` (as JSCoreBridge's
/// native side fires it, calling `jsCoreBridge.fireDocumentEvent`), which dispatches it on `document`.
function fireDeviceReady() {
  const own = globalThis.jsCoreBridge;
  if (own !== cordova && own !== null && typeof own === "object" && typeof own.fireDocumentEvent === "function") {
    own.fireDocumentEvent("deviceready");
  } else {
    cordova.fireDocumentEvent("deviceready");
  }
  // The host's hook after deviceready (the listeners ran: the event fires on a later turn, as this does).
  later(() => internal.cordovaPluginLifecycle("afterDeviceReady"));
}

later(bootstrap);

// MARK: - Nothing silent

/// The channels `deviceready` still waits for, each as cordova-js's "Channel not fired: onXYZ" line.
function unfiredChannels() {
  let text = "";
  const lists = [[channel.onNativeReady, channel.onPluginsReady], channel.deviceReadyChannelsArray];
  for (const list of lists) {
    for (let i = 0; i < list.length; i++) {
      if (list[i].state !== 2) text += `Channel not fired: ${list[i].type}\n`;
    }
  }
  return text;
}

let readyWarningPrinted = false;

/// cordova-js's warning when `deviceready` has not fired `delay` ms after Cordova loaded, naming the channels
/// it waits for (on stderr: it is a diagnostic). The timer does not keep the run alive; a run that ends first
/// gets the warning at its end (`cordovaRunEnd`). JSBRIDGE_CORDOVA_READY_WARNING_MS sets the delay (tests).
function warnIfNotReady(header) {
  if (readyWarningPrinted || channel.onDeviceReady.state === 2) return;
  readyWarningPrinted = true;
  internal.print(2, header + "\n" + unfiredChannels());
}
const givenDelay = Number(internal.startup.env.JSBRIDGE_CORDOVA_READY_WARNING_MS);
const readyWarningDelay = givenDelay >= 1 ? givenDelay : 5000;
const readyWarningTimer = new internal.Timeout(
  () => warnIfNotReady(`deviceready has not fired after ${readyWarningDelay / 1000} seconds.`),
  readyWarningDelay, [], false);
internal.timerRef(readyWarningTimer._id, false);

/// At the run's natural end: the warning, when `deviceready` never fired (a plugin waits for a service that
/// does not answer) and the timer has not printed it.
internal.cordovaRunEnd = function () {
  warnIfNotReady("deviceready has not fired before the run ended.");
};

/// Cordova's answer to an exec callback that throws (cordova-js's callbackFromNative): the error is logged,
/// `cordovacallbackerror` fires with `message` and `error` - on window, as in Cordova, and on document - and
/// the run goes on (a page's script would too).
internal.execHooks.callbackError = function (error, isSuccess, callbackId) {
  let text;
  try {
    text = String(error);
  } catch {
    text = "a value that cannot be printed";
  }
  const message = `Error in ${isSuccess ? "Success" : "Error"} callbackId: ${callbackId} : ${text}`;
  internal.print(2, message + "\n" + internal.formatError(error) + "\n");
  try {
    cordova.fireWindowEvent("cordovacallbackerror", { message, error });
    cordova.fireDocumentEvent("cordovacallbackerror", { message, error }, true);
  } catch (listenerError) {
    internal.reportUncaught(listenerError, "exception");
  }
};

/// Events a native plugin fires in the page (`PluginContext.fireDocumentEvent` / `fireWindowEvent`, as a
/// CDVPlugin's `[self.commandDelegate evalJs:@"cordova.fireDocumentEvent(...)"]`).
internal.onNativeEvent("", "cordova.documentEvent", (payload) =>
  cordova.fireDocumentEvent(String(payload.type), payload.data === null ? undefined : payload.data));
internal.onNativeEvent("", "cordova.windowEvent", (payload) =>
  cordova.fireWindowEvent(String(payload.type), payload.data === null ? undefined : payload.data));

/// The signals' lifecycle events (SIGTSTP: `pause`, SIGCONT: `resume`), fired at once.
internal.cordovaLifecycle = function (type) {
  cordova.fireDocumentEvent(type, null, true);
};

internal.defineGlobal("cordova", cordova);
internal.defineGlobal("jsCoreBridge", cordova);
// `document` and `window` only with the cordova switch (`--cordova`): without it they stay undefined, as in Node
// and Deno, and libraries that tell a browser by them take their non-browser branch.
if (internal.startup.options.cordova) {
  if (globalThis.window === undefined) internal.defineGlobal("window", globalThis);
  for (const name of ["addEventListener", "removeEventListener", "dispatchEvent"]) {
    if (globalThis[name] === undefined) internal.defineGlobal(name, windowEvents[name]);
  }
  internal.defineGlobal("document", documentObject);
  internal.defineGlobal("jscExecuteCommand", jscExecuteCommand);
}
