// `node:crypto` (randomBytes, randomFillSync, randomFill, randomInt, randomUUID, getRandomValues, webcrypto)
// createHash/createHmac (md5, sha1, sha256) and the global `crypto` (Web Crypto's shape: getRandomValues,
// randomUUID; `subtle` is absent). Random bytes come from the kernel (getrandom, the `randomFill` native).
// Other digests, ciphers and keys are not implemented.

const {
  ArrayPrototypePush, FunctionPrototypeCall, MathFloor, NumberIsSafeInteger, ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor, ObjectGetPrototypeOf, RangeError, SafeSet, TypeError,
} = internal.primordials;
const { invalidArgType, outOfRange, make } = internal.nodeErrors;
const { randomFill: fillNative } = internal;

const integerTypes = new SafeSet(["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
  "Int32Array", "Uint32Array", "BigInt64Array", "BigUint64Array"]);
const typedArrayTag = ObjectGetOwnPropertyDescriptor(ObjectGetPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;

/// Web Crypto's getRandomValues: integer typed arrays only, at most 65536 bytes.
function getRandomValues(array) {
  const tag = ArrayBuffer.isView(array) ? FunctionPrototypeCall(typedArrayTag, array) : undefined;
  if (!integerTypes.has(tag)) {
    const error = new internal.DOMException(
      "The data argument must be an integer-type TypedArray", "TypeMismatchError");
    throw error;
  }
  if (array.byteLength > 65536) {
    throw new internal.DOMException(
      `The ArrayBufferView's byte length (${array.byteLength}) exceeds the number of bytes of entropy available via this API (65536)`,
      "QuotaExceededError");
  }
  fillNative(array.buffer, array.byteOffset, array.byteLength);
  return array;
}

const hex = [];
for (let i = 0; i < 256; i++) ArrayPrototypePush(hex, (i < 16 ? "0" : "") + i.toString(16));

/// A version 4 UUID from 16 random bytes.
function randomUUID(options) {
  if (options !== undefined && (options === null || typeof options !== "object")) {
    throw invalidArgType("options", "object", options);
  }
  const b = new Uint8Array(16);
  fillNative(b.buffer, 0, 16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  return `${hex[b[0]]}${hex[b[1]]}${hex[b[2]]}${hex[b[3]]}-${hex[b[4]]}${hex[b[5]]}-${hex[b[6]]}${hex[b[7]]}-` +
    `${hex[b[8]]}${hex[b[9]]}-${hex[b[10]]}${hex[b[11]]}${hex[b[12]]}${hex[b[13]]}${hex[b[14]]}${hex[b[15]]}`;
}

function checkSize(size, name = "size") {
  if (typeof size !== "number") throw invalidArgType(name, "number", size);
  if (!(size >= 0 && size <= 2 ** 31 - 1) || MathFloor(size) !== size) throw outOfRange(name, `>= 0 && <= ${2 ** 31 - 1}`, size);
}

function randomBytes(size, callback) {
  checkSize(size);
  if (callback !== undefined && typeof callback !== "function") throw invalidArgType("callback", "function", callback);
  const bytes = internal.nodeBuiltin("buffer").Buffer.alloc(size);
  fillNative(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (callback === undefined) return bytes;
  queueMicrotask(() => callback(null, bytes));
}

function checkView(buffer) {
  if (!ArrayBuffer.isView(buffer) && !(buffer instanceof ArrayBuffer)) {
    throw invalidArgType("buf", ["ArrayBuffer", "ArrayBufferView"], buffer);
  }
}

function randomFillSync(buffer, offset = 0, size) {
  checkView(buffer);
  const view = buffer instanceof ArrayBuffer ? new Uint8Array(buffer) : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const elementSize = buffer.BYTES_PER_ELEMENT ?? 1;
  checkSize(offset, "offset");
  const start = offset * elementSize;
  if (start > view.length) throw outOfRange("offset", `<= ${view.length / elementSize}`, offset);
  const count = size === undefined ? view.length - start : (checkSize(size), size * elementSize);
  if (start + count > view.length) throw outOfRange("size + offset", `<= ${view.length / elementSize}`, size + offset);
  fillNative(view.buffer, view.byteOffset + start, count);
  return buffer;
}

function randomFill(buffer, offset, size, callback) {
  if (typeof offset === "function") [callback, offset, size] = [offset, 0, undefined];
  else if (typeof size === "function") [callback, size] = [size, undefined];
  if (typeof callback !== "function") throw invalidArgType("callback", "function", callback);
  randomFillSync(buffer, offset, size);
  queueMicrotask(() => callback(null, buffer));
}

/// A uniform integer in [min, max) without modulo bias (rejection sampling over 48-bit draws).
function randomInt(min, max, callback) {
  if (max === undefined || typeof max === "function") [min, max, callback] = [0, min, max];
  for (const [name, value] of [["min", min], ["max", max]]) {
    if (!NumberIsSafeInteger(value)) {
      throw make(TypeError, "ERR_INVALID_ARG_TYPE", `The "${name}" argument must be a safe integer. Received ${internal.inspect(value)}`);
    }
  }
  if (max <= min) throw outOfRange("max", `greater than the value of "min" (${min})`, max);
  const range = max - min;
  if (range > 2 ** 48 - 1) throw outOfRange("max - min", `<= ${2 ** 48 - 1}`, range);
  const bytes = new Uint8Array(6);
  const limit = 2 ** 48 - (2 ** 48 % range);
  let value;
  do {
    fillNative(bytes.buffer, 0, 6);
    value = bytes[0] * 2 ** 40 + bytes[1] * 2 ** 32 + bytes[2] * 2 ** 24 + bytes[3] * 2 ** 16 + bytes[4] * 2 ** 8 + bytes[5];
  } while (value >= limit);
  const result = min + (value % range);
  if (typeof callback === "function") {
    queueMicrotask(() => callback(null, result));
    return;
  }
  return result;
}

function notImplemented(name) {
  return () => {
    throw make(Error, "ERR_NOT_IMPLEMENTED", `crypto.${name} is not implemented in jsbridge.`);
  };
}

const webcrypto = { getRandomValues, randomUUID };
ObjectDefineProperty(webcrypto, Symbol.toStringTag, { value: "Crypto" });

const crypto = {
  randomBytes, pseudoRandomBytes: randomBytes, randomFillSync, randomFill, randomInt, randomUUID, getRandomValues,
  webcrypto,
  /// md5, sha1 and sha256 (node-hash.js); other algorithms throw ERR_CRYPTO_INVALID_DIGEST.
  createHash(algorithm, options) {
    internal.load("node-hash.js");
    return internal.createHash(algorithm);
  },
  createHmac(algorithm, key, options) {
    internal.load("node-hash.js");
    return internal.createHmac(algorithm, key);
  },
  createCipheriv: notImplemented("createCipheriv"),
  createDecipheriv: notImplemented("createDecipheriv"),
  getHashes: () => ["md5", "sha1", "sha256"],
  getCiphers: () => [],
  timingSafeEqual(a, b) {
    if (!ArrayBuffer.isView(a)) throw invalidArgType("buf1", ["ArrayBuffer", "Buffer", "TypedArray", "DataView"], a);
    if (!ArrayBuffer.isView(b)) throw invalidArgType("buf2", ["ArrayBuffer", "Buffer", "TypedArray", "DataView"], b);
    if (a.byteLength !== b.byteLength) {
      throw make(RangeError, "ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH", "Input buffers must have the same byte length");
    }
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength), y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    let difference = 0;
    for (let i = 0; i < x.length; i++) difference |= x[i] ^ y[i];
    return difference === 0;
  },
};

internal.nodeExport("crypto", crypto);
internal.defineGlobal("crypto", webcrypto);
