// The built-ins the runtime's own JavaScript uses, captured before any script runs (as Node's and Deno's
// primordials): a script that replaces `JSON.parse`, `Map.prototype.get` or `Array.prototype.push` changes
// its own world, not the bridge's, the console's or the timers'. Methods are uncurried -
// `ArrayPrototypePush(array, value)` - and `SafeMap`/`SafeSet`/`SafeWeakMap` are the collections with their
// own copies of the methods. Files loaded later (lazily, after the script ran) take them from here too.

const { bind, call } = Function.prototype;
/// `fn` as a function of its receiver and arguments, bound now: later changes to `call` do not reach it.
const uncurryThis = bind.bind(call);

const primordials = Object.create(null);
const upperFirst = (name) => name[0].toUpperCase() + name.slice(1);

function copyStatics(prefix, source, names) {
  for (const name of names) primordials[prefix + upperFirst(name)] = source[name];
}
function copyMethods(prefix, prototype, names) {
  for (const name of names) primordials[prefix + upperFirst(name)] = uncurryThis(prototype[name]);
}
/// An accessor as a function of its receiver: `MapPrototypeGetSize(map)`.
function copyGetter(name, prototype, key) {
  primordials[name] = uncurryThis(Reflect.getOwnPropertyDescriptor(prototype, key).get);
}

copyStatics("JSON", JSON, ["parse", "stringify"]);
copyStatics("Object", Object, [
  "assign", "create", "defineProperty", "entries", "freeze", "fromEntries", "getOwnPropertyDescriptor",
  "getOwnPropertyNames", "getOwnPropertySymbols", "getPrototypeOf", "hasOwn", "is", "isFrozen", "keys",
  "preventExtensions", "setPrototypeOf", "values",
]);
copyMethods("ObjectPrototype", Object.prototype, ["hasOwnProperty", "propertyIsEnumerable", "toString"]);
copyStatics("Array", Array, ["from", "isArray"]);
copyMethods("ArrayPrototype", Array.prototype, [
  "concat", "every", "filter", "find", "findIndex", "forEach", "includes", "indexOf", "join", "map", "pop", "push",
  "reduce", "reverse", "shift", "slice", "some", "sort", "splice", "unshift",
]);
copyMethods("StringPrototype", String.prototype, [
  "charCodeAt", "codePointAt", "endsWith", "includes", "indexOf", "lastIndexOf", "padEnd", "padStart", "repeat",
  "replace", "replaceAll", "slice", "split", "startsWith", "toLowerCase", "toUpperCase", "trim", "valueOf",
]);
copyMethods("RegExpPrototype", RegExp.prototype, ["exec", "test", "toString"]);
copyMethods("NumberPrototype", Number.prototype, ["toFixed", "toString", "valueOf"]);
copyMethods("BooleanPrototype", Boolean.prototype, ["valueOf"]);
copyMethods("SymbolPrototype", Symbol.prototype, ["toString", "valueOf"]);
copyMethods("BigIntPrototype", BigInt.prototype, ["valueOf"]);
copyStatics("Date", Date, ["now"]);
copyMethods("DatePrototype", Date.prototype, ["getTime", "toISOString"]);
copyMethods("MapPrototype", Map.prototype, ["entries"]);
copyMethods("SetPrototype", Set.prototype, ["values"]);
copyMethods("WeakMapPrototype", WeakMap.prototype, ["has"]);
copyMethods("WeakSetPrototype", WeakSet.prototype, ["has"]);
copyStatics("ArrayBuffer", ArrayBuffer, ["isView"]);
copyGetter("MapPrototypeGetSize", Map.prototype, "size");
copyGetter("SetPrototypeGetSize", Set.prototype, "size");
copyGetter("RegExpPrototypeGetSource", RegExp.prototype, "source");
copyGetter("ArrayBufferPrototypeGetByteLength", ArrayBuffer.prototype, "byteLength");
copyGetter("DataViewPrototypeGetByteLength", DataView.prototype, "byteLength");
if (typeof SharedArrayBuffer === "function") {
  copyGetter("SharedArrayBufferPrototypeGetByteLength", SharedArrayBuffer.prototype, "byteLength");
}
copyGetter("TypedArrayPrototypeGetSymbolToStringTag", Reflect.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag);
copyStatics("Reflect", Reflect, [
  "apply", "construct", "defineProperty", "deleteProperty", "get", "getOwnPropertyDescriptor", "getPrototypeOf", "has",
  "ownKeys", "set",
]);
copyMethods("FunctionPrototype", Function.prototype, ["apply", "bind", "call", "toString"]);
// Promise's statics use their receiver as the constructor.
primordials.PromiseResolve = Promise.resolve.bind(Promise);
primordials.PromiseReject = Promise.reject.bind(Promise);
copyMethods("PromisePrototype", Promise.prototype, ["then"]);
copyStatics("Number", Number, ["isFinite", "isInteger", "isNaN", "isSafeInteger", "parseFloat", "parseInt"]);
copyStatics("String", String, ["fromCharCode"]);
copyStatics("Math", Math, ["abs", "floor", "max", "min", "random", "round", "sqrt", "trunc"]);
copyStatics("Symbol", Symbol, ["asyncIterator", "for", "iterator", "toStringTag"]);
for (const Constructor of [
  Array, Error, Map, Number, Object, Promise, RangeError, Set, String, TypeError, Uint8Array, WeakMap,
]) {
  primordials[Constructor.name] = Constructor;
}

// For structuredClone (structured-clone.js) and DOMException (events.js).
for (const Constructor of [
  ArrayBuffer, BigInt, Boolean, DataView, Date, EvalError, ReferenceError, RegExp, SyntaxError, URIError,
]) {
  primordials[Constructor.name] = Constructor;
}
// For node-errors.js (Node's error constructors are proxies of the engine's).
for (const Constructor of [Proxy]) {
  primordials[Constructor.name] = Constructor;
}
primordials.ErrorIsError = Error.isError;
// The engine's own: webassembly.js replaces its promise-returning functions (the global is then lazy).
primordials.WebAssembly = WebAssembly;
primordials.decodeURIComponent = decodeURIComponent;
// Indirect eval (the global scope), for JavaScript a plugin runs in the page (bridge.js).
primordials.eval = eval;
// Newer built-ins that JavaScriptCore has but Node 20 (which runs js/test) lacks: undefined when missing.
const optional = (name, fn) => { primordials[name] = typeof fn === "function" ? uncurryThis(fn) : undefined; };
copyMethods("ArrayBufferPrototype", ArrayBuffer.prototype, ["slice", "resize"]);
optional("ArrayBufferPrototypeTransfer", ArrayBuffer.prototype.transfer);
optional("ArrayBufferPrototypeGetDetached", Reflect.getOwnPropertyDescriptor(ArrayBuffer.prototype, "detached")?.get);
copyGetter("ArrayBufferPrototypeGetResizable", ArrayBuffer.prototype, "resizable");
copyGetter("ArrayBufferPrototypeGetMaxByteLength", ArrayBuffer.prototype, "maxByteLength");
copyGetter("DataViewPrototypeGetBuffer", DataView.prototype, "buffer");
copyGetter("DataViewPrototypeGetByteOffset", DataView.prototype, "byteOffset");
for (const key of ["buffer", "byteOffset", "byteLength", "length"]) {
  copyGetter(`TypedArrayPrototypeGet${upperFirst(key)}`, Reflect.getPrototypeOf(Uint8Array.prototype), key);
}
copyMethods("TypedArrayPrototype", Reflect.getPrototypeOf(Uint8Array.prototype), [
  "at", "fill", "indexOf", "lastIndexOf", "set", "subarray",
]);
copyGetter("RegExpPrototypeGetFlags", RegExp.prototype, "flags");
copyMethods("MapPrototype", Map.prototype, ["forEach", "set"]);
copyMethods("SetPrototype", Set.prototype, ["forEach", "add"]);
copyMethods("WeakRefPrototype", WeakRef.prototype, ["deref"]);
copyMethods("StringPrototype", String.prototype, ["isWellFormed", "toWellFormed"]);

// Methods that strings and arrays share with other receivers (a Map's forEach, a typed array's slice, a
// Buffer's indexOf, a user's object): `MethodSlice(x, 0, 2)` runs the captured String.prototype.slice when `x`
// is a string, the captured Array.prototype.slice when it is an array, and `x`'s own `slice` otherwise. The
// rule is mechanical: converting `x.slice(0, 2)` needs no knowledge of `x`'s type.
const stringMethods = new Set([
  "at", "charAt", "charCodeAt", "codePointAt", "endsWith", "includes", "indexOf", "isWellFormed", "lastIndexOf",
  "padEnd", "padStart", "repeat", "replace", "replaceAll", "slice", "split", "startsWith", "toLowerCase",
  "toUpperCase", "toWellFormed", "trim", "trimEnd", "trimStart",
]);
const arrayMethods = new Set([
  "at", "every", "filter", "find", "findIndex", "forEach", "includes", "indexOf", "join", "lastIndexOf", "map",
  "reduce", "reverse", "slice", "some", "sort",
]);
const { isArray } = Array;
const { apply } = Reflect;
function makeMethod(name) {
  const ofString = stringMethods.has(name) ? String.prototype[name] : undefined;
  const ofArray = arrayMethods.has(name) ? Array.prototype[name] : undefined;
  const forString = ofString && uncurryThis(ofString);
  const forArray = ofArray && uncurryThis(ofArray);
  return function (receiver, a, b) {
    const captured = typeof receiver === "string" ? forString : isArray(receiver) ? forArray : undefined;
    // The caller's arity is kept: `reduce(fn)` and `lastIndexOf(x)` differ from passing undefined.
    if (captured !== undefined && arguments.length <= 3) {
      return arguments.length === 3 ? captured(receiver, a, b)
        : arguments.length === 2 ? captured(receiver, a) : captured(receiver);
    }
    const args = [];
    for (let i = 1; i < arguments.length; i++) args[i - 1] = arguments[i];
    const method = captured === undefined ? receiver[name] : typeof receiver === "string" ? ofString : ofArray;
    return apply(method, receiver, args);
  };
}
for (const name of stringMethods) primordials["Method" + upperFirst(name)] = makeMethod(name);
for (const name of arrayMethods) primordials["Method" + upperFirst(name)] ??= makeMethod(name);

/// `Safe` with its own copies of `Base`'s prototype members, frozen.
function makeSafe(Base, Safe) {
  for (const key of Reflect.ownKeys(Base.prototype)) {
    if (key === "constructor") continue;
    Reflect.defineProperty(Safe.prototype, key, Reflect.getOwnPropertyDescriptor(Base.prototype, key));
  }
  Object.freeze(Safe.prototype);
  return Object.freeze(Safe);
}
primordials.SafeMap = makeSafe(Map, class SafeMap extends Map {
  constructor(entries) { super(entries); }
});
primordials.SafeSet = makeSafe(Set, class SafeSet extends Set {
  constructor(values) { super(values); }
});
primordials.SafeWeakMap = makeSafe(WeakMap,
  // The type arguments tell TypeScript which of WeakMap's constructor signatures (they differ) is the base.
  /** @extends {WeakMap<object, any>} */
  class SafeWeakMap extends WeakMap {
    constructor(entries) { super(entries); }
  });
// `new SafeRegExp(/.../)`: a regex whose `test`, `exec` and `Symbol.replace`/`split`/... are the captured ones, so
// that a hot path can call `re.test(s)` as a method (JavaScriptCore inlines it; an uncurried
// `RegExpPrototypeTest` costs a bound call) without reaching a script's replacement.
primordials.SafeRegExp = makeSafe(RegExp, class SafeRegExp extends RegExp {
  constructor(pattern, flags) { super(pattern, flags); }
});

internal.primordials = Object.freeze(primordials);
