// structured-clone.js - the global structuredClone(value, { transfer }) (HTML's StructuredSerializeWithTransfer
// then StructuredDeserializeWithTransfer, in one call).
// Serialising first into records (and only then transferring and deserialising) keeps the standard's order:
// a value that cannot be cloned throws a DataCloneError before any transferred buffer is detached.
// Cloned: primitives, boxed primitives, Date, RegExp (lastIndex is not kept), ArrayBuffer (resizable ones keep
// maxByteLength), typed arrays and DataView (views of one buffer share one copy), Map, Set, Error types,
// DOMException, Blob and File (when the Blob global exists), arrays (holes and non-index properties kept)
// and plain objects (own enumerable string keys; the prototype is not kept). Cycles and shared references are
// preserved. Functions, symbols, promises, weak collections and detached buffers throw a DataCloneError.

const {
  ArrayBuffer, ArrayBufferPrototypeGetByteLength, ArrayBufferPrototypeGetDetached: ArrayBufferPrototypeGetDetachedIfAny,
  ArrayBufferPrototypeGetMaxByteLength,
  ArrayBufferPrototypeGetResizable, ArrayBufferPrototypeResize, ArrayBufferPrototypeSlice,
  ArrayBufferPrototypeTransfer: ArrayBufferPrototypeTransferIfAny,
  Array, ArrayIsArray, ArrayPrototypePush, BigInt, BigIntPrototypeValueOf, Boolean, BooleanPrototypeValueOf, DataView,
  DataViewPrototypeGetBuffer, DataViewPrototypeGetByteLength, DataViewPrototypeGetByteOffset, Date,
  DatePrototypeGetTime, Error, ErrorIsError, EvalError, FunctionPrototypeCall, FunctionPrototypeToString, Map, MapPrototypeForEach,
  MapPrototypeGetSize, MapPrototypeSet, Number, NumberPrototypeValueOf, Object, ObjectCreate, ObjectDefineProperty,
  ObjectPrototypeToString, RangeError, ReferenceError, ReflectDeleteProperty, ReflectGet,
  ReflectGetOwnPropertyDescriptor, ReflectOwnKeys, RegExp, RegExpPrototypeGetFlags, RegExpPrototypeGetSource, SafeMap,
  Set, SetPrototypeAdd, SetPrototypeForEach, SetPrototypeGetSize, String, StringPrototypeSlice, StringPrototypeValueOf,
  SymbolIterator, SymbolPrototypeToString, SymbolPrototypeValueOf, SyntaxError, TypeError, TypedArrayPrototypeGetBuffer, TypedArrayPrototypeGetByteOffset,
  TypedArrayPrototypeAt, TypedArrayPrototypeGetLength, TypedArrayPrototypeGetSymbolToStringTag, TypedArrayPrototypeSet, URIError, Uint8Array,
  WeakMapPrototypeHas, WeakSetPrototypeHas, WeakRefPrototypeDeref,
} = internal.primordials;

const errorPrototypes = {
  Error: Error.prototype, EvalError: EvalError.prototype, RangeError: RangeError.prototype,
  ReferenceError: ReferenceError.prototype, SyntaxError: SyntaxError.prototype, TypeError: TypeError.prototype,
  URIError: URIError.prototype,
};
const errorConstructors = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };
// The typed array constructors, captured when this file loads (they are read from globalThis once).
const typedArrays = ObjectCreate(null);
const typedArrayNames = [
  "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
  "Float16Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array",
];
for (let i = 0; i < typedArrayNames.length; i++) {
  const name = typedArrayNames[i];
  if (typeof globalThis[name] === "function") typedArrays[name] = globalThis[name];
}
// What a fresh Error owns that its copy must not (where it was made); the copy takes the original's stack.
const freshErrorKeys = ["line", "column", "sourceURL", "stack"];
typedArrays.Uint8Array = Uint8Array;

// Engines without ArrayBuffer.prototype.detached / transfer (Node 20, which runs js/test) detach nothing.
const ArrayBufferPrototypeGetDetached = ArrayBufferPrototypeGetDetachedIfAny ?? (() => false);
const ArrayBufferPrototypeTransfer = ArrayBufferPrototypeTransferIfAny ?? ((buffer) => ArrayBufferPrototypeSlice(buffer, 0));

// Reading internal.DOMException loads events.js, which also defines internal.isDOMException.
const { DOMException } = internal;
const { isDOMException } = internal;

function dataCloneError(message) {
  return new DOMException(message, "DataCloneError");
}

function describe(value) {
  if (typeof value === "symbol") return SymbolPrototypeToString(value);
  if (typeof value === "function") return FunctionPrototypeToString(value);
  try {
    return `#<${StringPrototypeSlice(ObjectPrototypeToString(value), 8, -1)}>`;
  } catch {
    return "Value";
  }
}

const uncloneable = (value) => dataCloneError(`${describe(value)} could not be cloned.`);

// True when `check(value)` does not throw: a brand check through a built-in's own method or getter.
function is(check, value) {
  try {
    check(value);
    return true;
  } catch {
    return false;
  }
}
const isWeakMap = (v) => is((x) => WeakMapPrototypeHas(x, {}), v);
const isWeakSet = (v) => is((x) => WeakSetPrototypeHas(x, {}), v);

/// The built-in kind of object `value` is (by brand checks, never by prototype), or "Object".
function kindOf(value) {
  if (ArrayIsArray(value)) return "Array";
  const tag = TypedArrayPrototypeGetSymbolToStringTag(value);
  if (tag !== undefined) return "TypedArray";
  if (is(DataViewPrototypeGetBuffer, value)) return "DataView";
  if (is(ArrayBufferPrototypeGetByteLength, value)) return "ArrayBuffer";
  if (is(DatePrototypeGetTime, value)) return "Date";
  if (isRegExp(value)) return "RegExp";
  if (is(MapPrototypeGetSize, value)) return "Map";
  if (is(SetPrototypeGetSize, value)) return "Set";
  if (is(BooleanPrototypeValueOf, value)) return "Boolean";
  if (is(NumberPrototypeValueOf, value)) return "Number";
  if (is(StringPrototypeValueOf, value)) return "String";
  if (is(BigIntPrototypeValueOf, value)) return "BigInt";
  if (is(SymbolPrototypeValueOf, value) || isWeakMap(value) || isWeakSet(value) ||
    is(WeakRefPrototypeDeref, value)) return "Uncloneable";
  if (isDOMException(value)) return "DOMException";
  const builtinTag = StringPrototypeSlice(ObjectPrototypeToString(value), 8, -1);
  if (ErrorIsError !== undefined ? ErrorIsError(value) : builtinTag === "Error") return "Error";
  if (builtinTag === "Promise" || builtinTag === "WeakMap" || builtinTag === "WeakSet") return "Uncloneable";
  if (builtinTag === "Blob" || builtinTag === "File") return blobKind(value, builtinTag);
  // A MessagePort is transferable only: outside the transfer list it cannot be cloned.
  if (internal.messagePorts?.isPort(value)) return "Uncloneable";
  return "Object";
}

// RegExp.prototype.source answers "(?:)" for RegExp.prototype itself too; its flags getter tells them apart.
function isRegExp(value) {
  try {
    RegExpPrototypeGetSource(value);
    return value !== RegExp.prototype;
  } catch {
    return false;
  }
}

// Blob and File are cloned through their public API (the engine's Blob, when it has one).
function blobKind(value, tag) {
  const Blob = internal.Blob ?? globalThis.Blob;
  if (typeof Blob !== "function" || !(value instanceof Blob)) return "Object";
  return tag;
}

/// The serialized form of `value` (HTML's StructuredSerializeInternal): records that `deserialize` turns into
/// the copy. `memory` maps each object already seen to its record (cycles, shared references, transfers).
function serialize(value, memory) {
  if (typeof value === "symbol") throw uncloneable(value);
  if (typeof value === "function") throw uncloneable(value);
  if (value === null || typeof value !== "object") return { type: "primitive", value };
  const seen = memory.get(value);
  if (seen !== undefined) return seen;
  const kind = kindOf(value);
  /** @type {Record<string, any>} */
  let record;
  switch (kind) {
    case "Uncloneable":
      throw uncloneable(value);
    case "Boolean":
      record = { type: "Boolean", value: BooleanPrototypeValueOf(value) };
      break;
    case "Number":
      record = { type: "Number", value: NumberPrototypeValueOf(value) };
      break;
    case "String":
      record = { type: "String", value: StringPrototypeValueOf(value) };
      break;
    case "BigInt":
      record = { type: "BigInt", value: BigIntPrototypeValueOf(value) };
      break;
    case "Date":
      record = { type: "Date", value: DatePrototypeGetTime(value) };
      break;
    case "RegExp":
      record = { type: "RegExp", source: RegExpPrototypeGetSource(value), flags: RegExpPrototypeGetFlags(value) };
      break;
    case "ArrayBuffer": {
      if (ArrayBufferPrototypeGetDetached(value)) throw dataCloneError("An ArrayBuffer is detached and could not be cloned.");
      const resizable = ArrayBufferPrototypeGetResizable(value);
      record = {
        type: "ArrayBuffer",
        bytes: ArrayBufferPrototypeSlice(value, 0),
        maxByteLength: resizable ? ArrayBufferPrototypeGetMaxByteLength(value) : undefined,
      };
      break;
    }
    case "TypedArray":
    case "DataView": {
      const typed = kind === "TypedArray";
      const buffer = typed ? TypedArrayPrototypeGetBuffer(value) : DataViewPrototypeGetBuffer(value);
      if (ArrayBufferPrototypeGetDetached(buffer)) {
        if (!isTransferred(memory, buffer)) throw dataCloneError("An ArrayBuffer is detached and could not be cloned.");
      } else if (outOfBounds(value, typed)) {
        throw dataCloneError(`${describe(value)} is out of bounds of its resized ArrayBuffer and could not be cloned.`);
      }
      record = { type: "View", constructor: typed ? TypedArrayPrototypeGetSymbolToStringTag(value) : "DataView" };
      memory.set(value, record);
      record.buffer = serialize(buffer, memory);
      record.byteOffset = typed ? TypedArrayPrototypeGetByteOffset(value) : DataViewPrototypeGetByteOffset(value);
      record.length = lengthTracking(value, typed, buffer) ? undefined
        : typed ? TypedArrayPrototypeGetLength(value) : DataViewPrototypeGetByteLength(value);
      return record;
    }
    case "Map": {
      record = { type: "Map", entries: [] };
      memory.set(value, record);
      const list = [];
      MapPrototypeForEach(value, (v, k) => { ArrayPrototypePush(list, k, v); });
      for (let i = 0; i < list.length; i += 2) {
        ArrayPrototypePush(record.entries, serialize(list[i], memory), serialize(list[i + 1], memory));
      }
      return record;
    }
    case "Set": {
      record = { type: "Set", entries: [] };
      memory.set(value, record);
      const list = [];
      SetPrototypeForEach(value, (v) => { ArrayPrototypePush(list, v); });
      for (let i = 0; i < list.length; i++) ArrayPrototypePush(record.entries, serialize(list[i], memory));
      return record;
    }
    case "DOMException": {
      record = { type: "DOMException", name: value.name, message: value.message, stack: ownStack(value) };
      break;
    }
    case "Error":
      return serializeError(value, memory);
    case "Blob":
    case "File":
      record = { type: "Blob", blob: cloneBlob(value, kind) };
      break;
    case "Array": {
      record = { type: "Array", length: value.length, properties: [] };
      memory.set(value, record);
      serializeProperties(value, record.properties, memory);
      return record;
    }
    default: {
      record = { type: "Object", properties: [] };
      memory.set(value, record);
      serializeProperties(value, record.properties, memory);
      return record;
    }
  }
  memory.set(value, record);
  return record;
}

function cloneBlob(value, kind) {
  const Blob = internal.Blob ?? globalThis.Blob;
  if (kind === "File") {
    const File = internal.File ?? globalThis.File;
    return new File([value], value.name, { type: value.type, lastModified: value.lastModified });
  }
  return new Blob([value], { type: value.type });
}

// A view whose resizable buffer shrank below its range: its methods then refuse to run (ValidateTypedArray).
function outOfBounds(view, typed) {
  try {
    if (typed) TypedArrayPrototypeAt(view, 0);
    else DataViewPrototypeGetByteLength(view);
    return false;
  } catch {
    return true;
  }
}

function isTransferred(memory, buffer) {
  const record = memory.get(buffer);
  return record !== undefined && record.type === "Transfer";
}

// Whether a view on a resizable buffer follows the buffer's length ("auto" length): growing the buffer by one
// element shows it, and shrinking it back restores the buffer (the added bytes were zero).
function lengthTracking(view, typed, buffer) {
  if (!ArrayBufferPrototypeGetResizable(buffer)) return false;
  const size = ArrayBufferPrototypeGetByteLength(buffer);
  const step = typed ? (typedArrays[TypedArrayPrototypeGetSymbolToStringTag(view)].BYTES_PER_ELEMENT ?? 1) : 1;
  if (size + step > ArrayBufferPrototypeGetMaxByteLength(buffer)) {
    // No room to grow: a view reaching the end of a full buffer is taken as length-tracking.
    const end = typed
      ? TypedArrayPrototypeGetByteOffset(view) + TypedArrayPrototypeGetLength(view) * step
      : DataViewPrototypeGetByteOffset(view) + DataViewPrototypeGetByteLength(view);
    return end === size;
  }
  const before = typed ? TypedArrayPrototypeGetLength(view) : DataViewPrototypeGetByteLength(view);
  ArrayBufferPrototypeResize(buffer, size + step);
  const after = typed ? TypedArrayPrototypeGetLength(view) : DataViewPrototypeGetByteLength(view);
  ArrayBufferPrototypeResize(buffer, size);
  return after !== before;
}

/// An error's own `stack` (a data property, or the accessor Node-style errors have) when it is a string.
function ownStack(object) {
  const desc = ReflectGetOwnPropertyDescriptor(object, "stack");
  if (desc === undefined) return undefined;
  const value = "value" in desc ? desc.value : ReflectGet(object, "stack");
  return typeof value === "string" ? value : undefined;
}

function ownString(object, key) {
  const desc = ReflectGetOwnPropertyDescriptor(object, key);
  return desc !== undefined && "value" in desc && typeof desc.value === "string" ? desc.value : undefined;
}

// HTML: the name is read with [[Get]] (unknown names become "Error"); the message only from an own data
// property. The stack and an own `cause` are kept as well (as V8 does).
function serializeError(value, memory) {
  let name = ReflectGet(value, "name");
  if (typeof name !== "string" || errorPrototypes[name] === undefined) name = "Error";
  const messageDesc = ReflectGetOwnPropertyDescriptor(value, "message");
  const message = messageDesc !== undefined && "value" in messageDesc ? String(messageDesc.value) : undefined;
  const record = { type: "Error", name, message, stack: ownStack(value), cause: undefined };
  memory.set(value, record);
  const causeDesc = ReflectGetOwnPropertyDescriptor(value, "cause");
  if (causeDesc !== undefined && "value" in causeDesc) record.cause = serialize(causeDesc.value, memory);
  return record;
}

// Own enumerable string keys as they are when serialization starts; a key a getter removed is skipped, and
// each value is read once.
function serializeProperties(value, properties, memory) {
  const keys = [];
  const all = ReflectOwnKeys(value);
  for (let i = 0; i < all.length; i++) {
    const key = all[i];
    if (typeof key !== "string") continue;
    const desc = ReflectGetOwnPropertyDescriptor(value, key);
    if (desc !== undefined && desc.enumerable) ArrayPrototypePush(keys, key);
  }
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (ReflectGetOwnPropertyDescriptor(value, key) === undefined) continue;
    const input = ReflectGet(value, key);
    ArrayPrototypePush(properties, key, serialize(input, memory));
  }
}

function define(object, key, value) {
  ObjectDefineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/// The value a record stands for (HTML's StructuredDeserialize); `memory` maps records to values made.
function deserialize(record, memory) {
  if (record.type === "primitive") return record.value;
  const made = memory.get(record);
  if (made !== undefined) return made;
  let value;
  switch (record.type) {
    case "Boolean": value = Object(record.value); break;
    case "Number": value = Object(record.value); break;
    case "String": value = Object(record.value); break;
    case "BigInt": value = Object(record.value); break;
    case "Date": value = new Date(record.value); break;
    case "RegExp": value = new RegExp(record.source, record.flags); break;
    case "ArrayBuffer":
      if (record.maxByteLength === undefined) {
        value = record.bytes;
      } else {
        value = new ArrayBuffer(ArrayBufferPrototypeGetByteLength(record.bytes), { maxByteLength: record.maxByteLength });
        TypedArrayPrototypeSet(new Uint8Array(value), new Uint8Array(record.bytes));
      }
      break;
    case "Transfer": value = record.value; break;
    case "View": {
      const buffer = deserialize(record.buffer, memory);
      const Constructor = record.constructor === "DataView" ? DataView : typedArrays[record.constructor];
      value = record.length === undefined
        ? new Constructor(buffer, record.byteOffset)
        : new Constructor(buffer, record.byteOffset, record.length);
      break;
    }
    case "Map": {
      value = new Map();
      memory.set(record, value);
      const { entries } = record;
      for (let i = 0; i < entries.length; i += 2) {
        MapPrototypeSet(value, deserialize(entries[i], memory), deserialize(entries[i + 1], memory));
      }
      return value;
    }
    case "Set": {
      value = new Set();
      memory.set(record, value);
      const { entries } = record;
      for (let i = 0; i < entries.length; i++) SetPrototypeAdd(value, deserialize(entries[i], memory));
      return value;
    }
    case "DOMException":
      value = new DOMException(record.message, record.name);
      if (record.stack !== undefined) {
        ObjectDefineProperty(value, "stack", { value: record.stack, writable: true, enumerable: false, configurable: true });
      }
      break;
    case "Error": {
      value = new errorConstructors[record.name]();
      // A fresh error carries where it was made; the copy keeps the original's stack instead.
      for (let i = 0; i < freshErrorKeys.length; i++) ReflectDeleteProperty(value, freshErrorKeys[i]);
      memory.set(record, value);
      if (record.message !== undefined) {
        ObjectDefineProperty(value, "message", { value: record.message, writable: true, enumerable: false, configurable: true });
      }
      if (record.stack !== undefined) {
        ObjectDefineProperty(value, "stack", { value: record.stack, writable: true, enumerable: false, configurable: true });
      }
      if (record.cause !== undefined) {
        ObjectDefineProperty(value, "cause", {
          value: deserialize(record.cause, memory), writable: true, enumerable: false, configurable: true,
        });
      }
      return value;
    }
    case "Blob": value = record.blob; break;
    case "Array": {
      value = new Array(record.length);
      memory.set(record, value);
      deserializeProperties(value, record.properties, memory);
      return value;
    }
    default: {
      value = {};
      memory.set(record, value);
      deserializeProperties(value, record.properties, memory);
      return value;
    }
  }
  memory.set(record, value);
  return value;
}

function deserializeProperties(value, properties, memory) {
  for (let i = 0; i < properties.length; i += 2) define(value, properties[i], deserialize(properties[i + 1], memory));
}

/// The `transfer` member of StructuredSerializeOptions (Web IDL: a dictionary holding `sequence<object>`).
function transferList(options) {
  if (options === undefined || options === null) return [];
  if (typeof options !== "object" && typeof options !== "function") {
    throw new TypeError("Failed to execute 'structuredClone': The provided value is not of type 'StructuredSerializeOptions'.");
  }
  const transfer = options.transfer;
  if (transfer === undefined) return [];
  if (transfer === null || (typeof transfer !== "object" && typeof transfer !== "function")) {
    throw new TypeError("Failed to execute 'structuredClone': The provided value cannot be converted to a sequence.");
  }
  const iteratorMethod = transfer[SymbolIterator];
  if (typeof iteratorMethod !== "function") {
    throw new TypeError("Failed to execute 'structuredClone': The object must have a callable @@iterator property.");
  }
  const list = [];
  const iterator = FunctionPrototypeCall(iteratorMethod, transfer);
  const next = iterator.next;
  for (;;) {
    const step = FunctionPrototypeCall(next, iterator);
    if (step === null || typeof step !== "object") throw new TypeError("Iterator result is not an object.");
    if (step.done) break;
    const item = step.value;
    if (item === null || (typeof item !== "object" && typeof item !== "function")) {
      throw new TypeError("Failed to execute 'structuredClone': Value in the transfer list is not an object.");
    }
    ArrayPrototypePush(list, item);
  }
  return list;
}

/// A deep copy of `value` by the structured clone algorithm, moving the ArrayBuffers listed in
/// `options.transfer` (they are detached); throws a DataCloneError DOMException for what cannot be cloned.
function structuredClone(value, options = undefined) {
  if (arguments.length === 0) {
    throw new TypeError("Failed to execute 'structuredClone': 1 argument required, but only 0 present.");
  }
  const transfer = transferList(options);
  const memory = new SafeMap();
  const ports = internal.messagePorts; // set once message-channel.js has loaded (no port exists before)
  const isPort = (item) => ports !== undefined && ports.isPort(item);
  for (let i = 0; i < transfer.length; i++) {
    const item = transfer[i];
    if (!isPort(item) && !is(ArrayBufferPrototypeGetByteLength, item)) {
      throw dataCloneError(`Value at index ${i} of the transfer list is not transferable.`);
    }
    if (memory.has(item)) throw dataCloneError(`Value at index ${i} is a duplicate of an earlier one in the transfer list.`);
    memory.set(item, { type: "Transfer", value: undefined });
  }
  const record = serialize(value, memory);
  for (let i = 0; i < transfer.length; i++) {
    const item = transfer[i];
    if (isPort(item) ? ports.isDetached(item) : ArrayBufferPrototypeGetDetached(item)) {
      throw dataCloneError(`${isPort(item) ? "MessagePort" : "ArrayBuffer"} at index ${i} is already detached.`);
    }
  }
  // Only now, with everything serialized, are buffers and ports moved (transfer() keeps resizability).
  for (let i = 0; i < transfer.length; i++) {
    const item = transfer[i];
    memory.get(item).value = isPort(item) ? ports.transfer(item) : ArrayBufferPrototypeTransfer(item);
  }
  return deserialize(record, new SafeMap());
}

internal.structuredClone = structuredClone;
internal.defineGlobal("structuredClone", structuredClone);
