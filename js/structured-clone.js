// structured-clone.js - the global structuredClone(value) (HTML structured serialize + deserialize in one pass).
// Supported: primitives, plain objects and arrays (own enumerable string keys), Date, RegExp, boxed
// primitives, Map, Set, ArrayBuffer, typed arrays, DataView, Error types; cycles and shared references are
// preserved. Class instances are cloned as plain objects (the prototype is not kept); functions, symbols,
// promises and weak collections throw a DataCloneError. A `transfer` list is ignored: buffers are copied.

const errorConstructors = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };
const typedArrayTag = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
const typedArrayConstructors = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array,
};

function dataCloneError(value) {
  let text;
  try {
    text = typeof value === 'function' || typeof value === 'symbol' ? String(value) : `#<${Object.prototype.toString.call(value).slice(8, -1)}>`;
  } catch {
    text = 'Value';
  }
  return new internal.DOMException(`${text} could not be cloned.`, 'DataCloneError');
}

// Calls `check` with `value` as receiver; true when it does not throw (a brand check).
function hasBrand(check, value) {
  try {
    check.call(value);
    return true;
  } catch {
    return false;
  }
}

const getter = (proto, key) => Object.getOwnPropertyDescriptor(proto, key).get;
const brands = {
  Date: Date.prototype.getTime,
  RegExp: getter(RegExp.prototype, 'source'),
  Map: getter(Map.prototype, 'size'),
  Set: getter(Set.prototype, 'size'),
  ArrayBuffer: getter(ArrayBuffer.prototype, 'byteLength'),
  DataView: getter(DataView.prototype, 'byteLength'),
  Boolean: Boolean.prototype.valueOf,
  Number: Number.prototype.valueOf,
  String: String.prototype.valueOf,
  BigInt: BigInt.prototype.valueOf,
  Symbol: Symbol.prototype.valueOf,
  WeakMap: function () { return WeakMap.prototype.has.call(this, {}); },
  WeakSet: function () { return WeakSet.prototype.has.call(this, {}); },
  WeakRef: WeakRef.prototype.deref,
};
const uncloneable = new Set(['Symbol', 'Promise', 'WeakMap', 'WeakSet', 'WeakRef']);

// The kind of object to clone: the built-in type named by its toString tag, confirmed by a brand check.
function kindOf(value) {
  if (Array.isArray(value)) return 'Array';
  if (ArrayBuffer.isView(value)) return typedArrayTag.call(value) ?? 'DataView';
  const tag = Object.prototype.toString.call(value).slice(8, -1);
  if (tag === 'Error' || value instanceof Error) return 'Error';
  if (tag === 'Promise' || value instanceof Promise) return 'Promise';
  const check = Object.hasOwn(brands, tag) ? brands[tag] : undefined;
  return check !== undefined && hasBrand(check, value) ? tag : 'Object';
}

// Copies own enumerable string-keyed properties, cloning each value.
function copyProperties(source, target, clone) {
  for (const key of Object.keys(source)) target[key] = clone(source[key]);
  return target;
}

function cloneError(error, clone, remember) {
  const name = error.name;
  const Ctor = Object.hasOwn(errorConstructors, name) ? errorConstructors[name] : Error;
  const copy = remember(Object.create(Ctor.prototype));
  for (const key of ['message', 'stack', 'cause']) {
    const desc = Object.getOwnPropertyDescriptor(error, key);
    if (desc === undefined || !('value' in desc)) continue;
    const value = key === 'cause' ? clone(desc.value) : `${desc.value}`;
    Object.defineProperty(copy, key, { value, writable: true, configurable: true, enumerable: false });
  }
  return copy;
}

/// A deep copy of `value` using the structured clone algorithm; throws a DataCloneError DOMException.
function structuredClone(value) {
  if (arguments.length === 0) throw new TypeError('The "value" argument must be specified');
  const memory = new Map();
  const clone = (v) => {
    if (typeof v === 'symbol' || typeof v === 'function') throw dataCloneError(v);
    if (v === null || typeof v !== 'object') return v;
    if (memory.has(v)) return memory.get(v);
    const kind = kindOf(v);
    if (uncloneable.has(kind)) throw dataCloneError(v);
    const remember = (copy) => (memory.set(v, copy), copy);
    switch (kind) {
      case 'Array': return copyProperties(v, remember(new Array(v.length)), clone);
      case 'Date': return remember(new Date(v.getTime()));
      case 'RegExp': return remember(new RegExp(v.source, v.flags));
      case 'Boolean':
      case 'Number':
      case 'String':
      case 'BigInt': return remember(Object(brands[kind].call(v)));
      case 'ArrayBuffer': return remember(v.slice(0));
      case 'DataView': return remember(new DataView(clone(v.buffer), v.byteOffset, v.byteLength));
      case 'Map': {
        const copy = remember(new Map());
        for (const [k, val] of v) copy.set(clone(k), clone(val));
        return copy;
      }
      case 'Set': {
        const copy = remember(new Set());
        for (const item of v) copy.add(clone(item));
        return copy;
      }
      case 'Error': return cloneError(v, clone, remember);
      case 'Object': return copyProperties(v, remember({}), clone);
      default: return remember(new typedArrayConstructors[kind](clone(v.buffer), v.byteOffset, v.length));
    }
  };
  return clone(value);
}

internal.structuredClone = structuredClone;
internal.defineGlobal('structuredClone', structuredClone);
