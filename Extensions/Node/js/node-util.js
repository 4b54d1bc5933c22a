// `node:util` and `node:util/types`: format/inspect (the engine's inspector), promisify/callbackify,
// inherits, deprecate, debuglog, types.isXxx, isDeepStrictEqual (the comparison `node:assert` uses too).

const {
  ArrayIsArray, ArrayPrototypePop, JSONStringify, MethodIndexOf, MethodSlice, MethodStartsWith, ArrayPrototypePush, ArrayPrototypeSplice, Error, FunctionPrototypeCall,
  MethodFilter, MethodFindIndex, MethodReplace, MethodToUpperCase, ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor, ObjectGetOwnPropertySymbols, ObjectGetPrototypeOf, ObjectIs, ObjectKeys,
  ObjectPrototypePropertyIsEnumerable, ObjectPrototypeToString, ObjectSetPrototypeOf, Promise, PromiseResolve,
  ReflectApply, ReflectConstruct, RegExpPrototypeTest, SafeMap, SafeSet, WeakMapPrototypeHas, WeakSetPrototypeHas,
} = internal.primordials;
const { checkFunction, invalidArgType, make } = internal.nodeErrors;

const inspect = internal.inspect;
const customPromisify = Symbol.for("nodejs.util.promisify.custom");

// MARK: - types

const tagOf = (value) => ObjectPrototypeToString(value);
const typedArrayTag = ObjectGetOwnPropertyDescriptor(ObjectGetPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
const tryBrand = (method) => (value) => {
  if (value === null || typeof value !== "object") return false;
  try {
    FunctionPrototypeCall(method, value);
    return true;
  } catch {
    return false;
  }
};
const getter = (prototype, key) => ObjectGetOwnPropertyDescriptor(prototype, key).get;
const isTypedArrayOf = (name) => (value) => ArrayBuffer.isView(value) && FunctionPrototypeCall(typedArrayTag, value) === name;
const functionKind = (value) => (typeof value === "function" ? tagOf(value) : "");

const types = {
  isAnyArrayBuffer: (v) => types.isArrayBuffer(v) || types.isSharedArrayBuffer(v),
  isArrayBuffer: tryBrand(getter(ArrayBuffer.prototype, "byteLength")),
  isSharedArrayBuffer: typeof SharedArrayBuffer === "function"
    ? tryBrand(getter(SharedArrayBuffer.prototype, "byteLength")) : () => false,
  isArrayBufferView: (v) => ArrayBuffer.isView(v),
  isTypedArray: (v) => ArrayBuffer.isView(v) && FunctionPrototypeCall(typedArrayTag, v) !== undefined,
  isDataView: tryBrand(getter(DataView.prototype, "byteLength")),
  isMap: tryBrand(getter(Map.prototype, "size")),
  isSet: tryBrand(getter(Set.prototype, "size")),
  isWeakMap: tryBrand(function () { return WeakMapPrototypeHas(this, {}); }),
  isWeakSet: tryBrand(function () { return WeakSetPrototypeHas(this, {}); }),
  isDate: tryBrand(Date.prototype.getTime),
  isRegExp: tryBrand(getter(RegExp.prototype, "source")),
  isPromise: (v) => v instanceof Promise || (v !== null && typeof v === "object" && tagOf(v) === "[object Promise]"),
  isNativeError: (v) => v instanceof Error || (v !== null && typeof v === "object" && tagOf(v) === "[object Error]"),
  isAsyncFunction: (v) => functionKind(v) === "[object AsyncFunction]" || functionKind(v) === "[object AsyncGeneratorFunction]",
  isGeneratorFunction: (v) => functionKind(v) === "[object GeneratorFunction]" || functionKind(v) === "[object AsyncGeneratorFunction]",
  isGeneratorObject: (v) => v !== null && typeof v === "object" && tagOf(v) === "[object Generator]",
  isMapIterator: (v) => v !== null && typeof v === "object" && tagOf(v) === "[object Map Iterator]",
  isSetIterator: (v) => v !== null && typeof v === "object" && tagOf(v) === "[object Set Iterator]",
  isBoxedPrimitive: (v) => types.isNumberObject(v) || types.isStringObject(v) || types.isBooleanObject(v) ||
    types.isBigIntObject(v) || types.isSymbolObject(v),
  isNumberObject: tryBrand(Number.prototype.valueOf),
  isStringObject: tryBrand(String.prototype.valueOf),
  isBooleanObject: tryBrand(Boolean.prototype.valueOf),
  isBigIntObject: tryBrand(BigInt.prototype.valueOf),
  isSymbolObject: tryBrand(Symbol.prototype.valueOf),
  isProxy: () => false,
  isModuleNamespaceObject: (v) => v !== null && typeof v === "object" && tagOf(v) === "[object Module]",
  isKeyObject: () => false,
  isCryptoKey: () => false,
  isExternal: () => false,
  isArgumentsObject: (v) => v !== null && typeof v === "object" && tagOf(v) === "[object Arguments]",
};
for (const name of ["Uint8Array", "Uint8ClampedArray", "Uint16Array", "Uint32Array", "Int8Array", "Int16Array",
  "Int32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"]) {
  types[`is${name}`] = isTypedArrayOf(name);
}

// MARK: - Deep equality

/// Node's deep comparison: `strict` as assert.deepStrictEqual / util.isDeepStrictEqual (prototypes and
/// types count, Object.is for primitives), else assert.deepEqual's loose rules (== for primitives).
function isDeepEqual(a, b, strict, memo) {
  if (a === b) return a !== 0 || !strict || ObjectIs(a, b);
  if (strict) {
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
      return typeof a === "number" && typeof b === "number" && NumberIsNaNBoth(a, b);
    }
    if (ObjectGetPrototypeOf(a) !== ObjectGetPrototypeOf(b)) return false;
  } else {
    if (a === null || typeof a !== "object") {
      if (b === null || typeof b !== "object") return a == b || (a !== a && b !== b); // eslint-disable-line eqeqeq
      return false;
    }
    if (b === null || typeof b !== "object") return false;
  }
  const tag = tagOf(a);
  if (tag !== tagOf(b)) return false;
  if (ArrayIsArray(a) !== ArrayIsArray(b)) return false;
  if (types.isDate(a)) {
    if (!types.isDate(b) || a.getTime() !== b.getTime()) return false;
  } else if (types.isRegExp(a)) {
    if (!types.isRegExp(b) || a.source !== b.source || a.flags !== b.flags || a.lastIndex !== b.lastIndex) return false;
  } else if (types.isNativeError(a) || a instanceof Error) {
    if (a.message !== b.message || a.name !== b.name) return false;
  } else if (ArrayBuffer.isView(a)) {
    if (!ArrayBuffer.isView(b) || a.byteLength !== b.byteLength) return false;
    if (types.isTypedArray(a) && !types.isFloat32Array(a) && !types.isFloat64Array(a)) {
      const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
      // Keys past the indices still count (a Buffer's own properties are none).
      return compareKeys(a, b, strict, memo, true);
    }
  } else if (types.isBoxedPrimitive(a)) {
    if (!types.isBoxedPrimitive(b) || !ObjectIs(a.valueOf(), b.valueOf())) return false;
  } else if (types.isAnyArrayBuffer(a)) {
    if (!types.isAnyArrayBuffer(b) || a.byteLength !== b.byteLength) return false;
    const x = new Uint8Array(a), y = new Uint8Array(b);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  }
  return compareKeys(a, b, strict, memo, false);
}

const NumberIsNaNBoth = (a, b) => a !== a && b !== b;

function compareKeys(a, b, strict, memo, skipIndices) {
  const filter = (object) => {
    let keys = ObjectKeys(object);
    if (skipIndices) keys = MethodFilter(keys, (key) => !RegExpPrototypeTest(/^\d+$/, key));
    if (strict) {
      for (const symbol of ObjectGetOwnPropertySymbols(object)) {
        if (ObjectPrototypePropertyIsEnumerable(object, symbol)) ArrayPrototypePush(keys, symbol);
      }
    }
    return keys;
  };
  const keysA = filter(a), keysB = filter(b);
  if (keysA.length !== keysB.length) return false;
  for (const key of keysA) if (!ObjectPrototypePropertyIsEnumerable(b, key)) return false;
  if (ArrayIsArray(a) && a.length !== b.length) return false;
  // Cycles: a pair already under comparison is taken as equal (Node compares the cycle's shape the same way).
  memo ??= { a: new SafeMap(), b: new SafeMap(), position: 0 };
  const seenA = memo.a.get(a);
  if (seenA !== undefined) {
    const seenB = memo.b.get(b);
    if (seenB !== undefined) return seenA === seenB;
  }
  memo.position++;
  memo.a.set(a, memo.position);
  memo.b.set(b, memo.position);
  let equal = true;
  for (const key of keysA) {
    if (!isDeepEqual(a[key], b[key], strict, memo)) {
      equal = false;
      break;
    }
  }
  if (equal && types.isSet(a)) equal = types.isSet(b) && compareSets(a, b, strict, memo);
  else if (equal && types.isMap(a)) equal = types.isMap(b) && compareMaps(a, b, strict, memo);
  memo.a.delete(a);
  memo.b.delete(b);
  return equal;
}

function compareSets(a, b, strict, memo) {
  if (a.size !== b.size) return false;
  const pending = [];
  for (const value of a) {
    if (typeof value === "object" && value !== null) ArrayPrototypePush(pending, value);
    else if (!b.has(value)) {
      if (strict) return false;
      ArrayPrototypePush(pending, value);
    }
  }
  if (pending.length === 0) return true;
  const candidates = [];
  for (const value of b) if (typeof value === "object" && value !== null || !a.has(value)) ArrayPrototypePush(candidates, value);
  for (const value of pending) {
    const index = MethodFindIndex(candidates, (candidate) => isDeepEqual(value, candidate, strict, memo));
    if (index < 0) return false;
    ArrayPrototypeSplice(candidates, index, 1);
  }
  return true;
}

function compareMaps(a, b, strict, memo) {
  if (a.size !== b.size) return false;
  const pending = [];
  for (const [key, value] of a) {
    if (typeof key !== "object" || key === null) {
      if (!b.has(key) || !isDeepEqual(value, b.get(key), strict, memo)) return false;
    } else {
      ArrayPrototypePush(pending, [key, value]);
    }
  }
  if (pending.length === 0) return true;
  const candidates = [];
  for (const entry of b) if (typeof entry[0] === "object" && entry[0] !== null) ArrayPrototypePush(candidates, entry);
  for (const [key, value] of pending) {
    const index = MethodFindIndex(candidates, ([k, v]) => isDeepEqual(key, k, strict, memo) && isDeepEqual(value, v, strict, memo));
    if (index < 0) return false;
    ArrayPrototypeSplice(candidates, index, 1);
  }
  return true;
}

internal.isDeepEqual = (a, b, strict) => isDeepEqual(a, b, strict, undefined);

// MARK: - Functions

function promisify(original) {
  checkFunction(original, "original");
  const custom = original[customPromisify];
  if (custom !== undefined) {
    checkFunction(custom, "util.promisify.custom");
    return custom;
  }
  function promisified(...args) {
    return new Promise((resolve, reject) => {
      ReflectApply(original, this, [...args, (error, ...values) => {
        if (error) reject(error);
        else resolve(values.length > 1 && original[customPromisifyArgs] ? values : values[0]);
      }]);
    });
  }
  ObjectSetPrototypeOf(promisified, ObjectGetPrototypeOf(original));
  ObjectDefineProperty(promisified, customPromisify, { value: promisified, configurable: true });
  return Object.defineProperties(promisified, Object.getOwnPropertyDescriptors(original));
}
const customPromisifyArgs = Symbol("customPromisifyArgs");
promisify.custom = customPromisify;

function callbackify(original) {
  checkFunction(original, "original");
  function callbackified(...args) {
    const callback = ArrayPrototypePop(args);
    checkFunction(callback, "last argument");
    ReflectApply(original, this, args).then(
      (value) => queueMicrotask(() => callback(null, value)),
      (reason) => {
        if (!reason) {
          const error = make(Error, "ERR_FALSY_VALUE_REJECTION", "Promise was rejected with falsy value");
          error.reason = reason;
          reason = error;
        }
        queueMicrotask(() => callback(reason));
      });
  }
  ObjectDefineProperty(callbackified, "name", { value: `${original.name}Callbackified` });
  return callbackified;
}

function inherits(constructor, superConstructor) {
  if (constructor === undefined || constructor === null) throw invalidArgType("ctor", "function", constructor);
  if (superConstructor === undefined || superConstructor === null) throw invalidArgType("superCtor", "function", superConstructor);
  if (superConstructor.prototype === undefined) throw invalidArgType("superCtor.prototype", "object", superConstructor.prototype);
  ObjectDefineProperty(constructor, "super_", { value: superConstructor, writable: true, configurable: true });
  ObjectSetPrototypeOf(constructor.prototype, superConstructor.prototype);
}

const warnedCodes = new SafeSet();
function deprecate(fn, message, code) {
  checkFunction(fn, "fn");
  let warned = false;
  function deprecated(...args) {
    if (!warned && !(typeof process !== "undefined" && process.noDeprecation)) {
      warned = true;
      if (code === undefined || !warnedCodes.has(code)) {
        if (code !== undefined) warnedCodes.add(code);
        process.emitWarning(message, "DeprecationWarning", code);
      }
    }
    return new.target ? ReflectConstruct(fn, args, new.target) : ReflectApply(fn, this, args);
  }
  ObjectSetPrototypeOf(deprecated, fn);
  if (fn.prototype) deprecated.prototype = fn.prototype;
  return deprecated;
}

/// `NODE_DEBUG`-gated logging: `debuglog("http")` prints `HTTP <pid>: message` on stderr when enabled.
function debuglog(section, callback) {
  const pattern = MethodReplace(MethodReplace(MethodReplace((internal.startup.env.NODE_DEBUG ?? ""), /[|\\{}()[\]^$+?.]/g, "\\$&"), /\*/g, ".*"), /,/g, "$|^");
  const enabled = pattern !== "" && new RegExp(`^(${pattern})$`, "i").test(section);
  const tag = MethodToUpperCase(section);
  let announced = false;
  const log = (...args) => {
    if (!enabled) return;
    if (!announced && typeof callback === "function") {
      announced = true;
      callback(log);
    }
    internal.print(2, `${tag} ${internal.startup.pid}: ${internal.format(...args)}\n`);
  };
  ObjectDefineProperty(log, "enabled", { get: () => enabled });
  return log;
}

function stripVTControlCharacters(text) {
  internal.nodeErrors.checkString(text, "str");
  return MethodReplace(text, /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g, "");
}

function toUSVString(text) {
  return MethodReplace(`${text}`, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

function aborted(signal, resource) {
  if (signal?.aborted) return PromiseResolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

// MARK: - parseArgs

function parseArgsError(code, message) {
  return make(TypeError, code, message);
}

/// `util.parseArgs({ args, options, strict, allowPositionals, tokens })`, as Node 20 parses: long options
/// (`--name`, `--name=value`, `--name value`), short ones (`-n`, `-abc` for booleans, `-fvalue`), `--` ending
/// the options, `multiple`, `default`; in strict mode unknown options, missing or unexpected values and
/// positionals (unless allowed) throw Node's ERR_PARSE_ARGS_* errors.
/** @param {any} [config] */
function parseArgs(config = {}) {
  if (config === null || typeof config !== "object") throw invalidArgType("config", "object", config);
  const args = config.args ?? MethodSlice(process.argv, process.argv[1] === "[eval]" ? 1 : 2);
  if (!ArrayIsArray(args)) throw invalidArgType("args", "Array", args);
  const strict = config.strict ?? true;
  const allowPositionals = config.allowPositionals ?? !strict;
  const options = config.options ?? {};
  if (options === null || typeof options !== "object") throw invalidArgType("options", "object", options);
  const shortNames = new SafeMap();
  for (const name of ObjectKeys(options)) {
    const option = options[name];
    if (option === null || typeof option !== "object") throw invalidArgType(`options.${name}`, "object", option);
    if (option.type !== "string" && option.type !== "boolean") {
      throw make(TypeError, "ERR_INVALID_ARG_VALUE",
        `The property 'options.${name}.type' must be one of: 'string', 'boolean'. Received ${inspect(option.type)}`);
    }
    if (option.short !== undefined) {
      if (typeof option.short !== "string") throw invalidArgType(`options.${name}.short`, "string", option.short);
      if (option.short.length !== 1) {
        throw make(TypeError, "ERR_INVALID_ARG_VALUE",
          `The property 'options.${name}.short' must be a single character. Received ${inspect(option.short)}`);
      }
      shortNames.set(option.short, name);
    }
  }
  const values = { __proto__: null };
  const positionals = [];
  const tokens = [];
  const describe = (name) => {
    const short = options[name]?.short;
    return short === undefined ? `--${name}` : `-${short}, --${name}`;
  };
  function store(name, rawName, value, inlineValue, index) {
    const option = options[name];
    ArrayPrototypePush(tokens, { kind: "option", name, rawName, index, value, inlineValue });
    if (strict) {
      if (option === undefined) {
        const shown = MethodStartsWith(rawName, "--") ? rawName : rawName;
        throw parseArgsError("ERR_PARSE_ARGS_UNKNOWN_OPTION", `Unknown option '${shown}'` +
          (allowPositionals ? `. To specify a positional argument starting with a '-', place it at the end of the ` +
            `command after '--', as in '-- ${JSONStringify(shown)}` : ""));
      }
      if (option.type === "string" && typeof value !== "string") {
        throw parseArgsError("ERR_PARSE_ARGS_INVALID_OPTION_VALUE", `Option '${describe(name)} <value>' argument missing`);
      }
      if (option.type === "boolean" && value !== undefined) {
        throw parseArgsError("ERR_PARSE_ARGS_INVALID_OPTION_VALUE", `Option '${describe(name)}' does not take an argument`);
      }
    }
    const stored = value ?? true;
    if (option?.multiple) {
      if (values[name] === undefined) values[name] = [];
      ArrayPrototypePush(values[name], stored);
    } else {
      values[name] = stored;
    }
  }
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === "--") {
      ArrayPrototypePush(tokens, { kind: "option-terminator", index });
      for (let rest = index + 1; rest < args.length; rest++) {
        ArrayPrototypePush(positionals, args[rest]);
        ArrayPrototypePush(tokens, { kind: "positional", index: rest, value: args[rest] });
      }
      break;
    }
    if (MethodStartsWith(arg, "--")) {
      const equals = MethodIndexOf(arg, "=");
      if (equals !== -1) {
        store(MethodSlice(arg, 2, equals), MethodSlice(arg, 0, equals), MethodSlice(arg, equals + 1), true, index);
        continue;
      }
      const name = MethodSlice(arg, 2);
      if (options[name]?.type === "string" && index + 1 < args.length) {
        store(name, arg, args[index + 1], false, index);
        index++;
      } else {
        store(name, arg, undefined, undefined, index);
      }
      continue;
    }
    if (MethodStartsWith(arg, "-") && arg !== "-") {
      for (let at = 1; at < arg.length; at++) {
        const letter = arg[at];
        const name = shortNames.get(letter) ?? letter;
        if (options[name]?.type === "string") {
          if (at + 1 < arg.length) store(name, "-" + letter, MethodSlice(arg, at + 1), true, index);
          else if (index + 1 < args.length) {
            store(name, "-" + letter, args[index + 1], false, index);
            index++;
          } else store(name, "-" + letter, undefined, undefined, index);
          break;
        }
        store(name, "-" + letter, undefined, undefined, index);
      }
      continue;
    }
    if (strict && !allowPositionals) {
      throw parseArgsError("ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL",
        `Unexpected argument '${arg}'. This command does not take positional arguments`);
    }
    ArrayPrototypePush(positionals, arg);
    ArrayPrototypePush(tokens, { kind: "positional", index, value: arg });
  }
  for (const name of ObjectKeys(options)) {
    if (values[name] === undefined && options[name].default !== undefined) values[name] = options[name].default;
  }
  const result = { values, positionals };
  if (config.tokens) result.tokens = tokens;
  return result;
}

const util = {
  format: internal.format,
  formatWithOptions(options, ...args) {
    if (options === null || typeof options !== "object") throw invalidArgType("inspectOptions", "object", options);
    return internal.formatWithOptions(options, ...args);
  },
  inspect,
  promisify, callbackify, inherits, deprecate, debuglog, debug: debuglog, stripVTControlCharacters, toUSVString,
  aborted, parseArgs,
  isDeepStrictEqual: (a, b) => isDeepEqual(a, b, true, undefined),
  types,
  get TextEncoder() { return internal.TextEncoder ?? globalThis.TextEncoder; },
  get TextDecoder() { return internal.TextDecoder ?? globalThis.TextDecoder; },
  // Legacy predicates some packages still call.
  isArray: ArrayIsArray,
  isBoolean: (v) => typeof v === "boolean",
  isNull: (v) => v === null,
  isNullOrUndefined: (v) => v === null || v === undefined,
  isNumber: (v) => typeof v === "number",
  isString: (v) => typeof v === "string",
  isSymbol: (v) => typeof v === "symbol",
  isUndefined: (v) => v === undefined,
  isRegExp: types.isRegExp,
  isObject: (v) => v !== null && typeof v === "object",
  isDate: types.isDate,
  isError: (v) => types.isNativeError(v),
  isFunction: (v) => typeof v === "function",
  isPrimitive: (v) => v === null || (typeof v !== "object" && typeof v !== "function"),
  isBuffer: (v) => internal.nodeBuiltin("buffer").Buffer.isBuffer(v),
};
if (inspect.custom === undefined) inspect.custom = Symbol.for("nodejs.util.inspect.custom");

internal.nodeExport("util", util);
internal.nodeExport("util/types", types);
