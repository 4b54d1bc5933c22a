// `node:crypto`: randomBytes, randomFillSync, randomFill, randomInt, randomUUID, getRandomValues, timingSafeEqual,
// createHash/createHmac (md5, sha1, sha256, sha384, sha512: node-hash.js), and Web Crypto as `webcrypto` and
// `subtle` (the global `crypto` of the web extension's crypto.js). Random bytes come from the kernel (getrandom,
// the `randomFill` native). createCipheriv/createDecipheriv for AES-CBC/CTR/GCM (below). KeyObject, signing and
// other ciphers are not implemented.

const {
  ArrayPrototypePush, MathFloor, MethodToLowerCase, NumberIsSafeInteger, RangeError, RegExpPrototypeExec, TypeError,
} = internal.primordials;
const { invalidArgType, outOfRange, make } = internal.nodeErrors;
const { randomFill: fillNative, getRandomValues } = internal;

/// A version 4 UUID (Web Crypto's, after Node's check of `options`).
function randomUUID(options) {
  if (options !== undefined && (options === null || typeof options !== "object")) {
    throw invalidArgType("options", "object", options);
  }
  return internal.randomUUID();
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

// MARK: - Ciphers

// createCipheriv/createDecipheriv for aes-{128,192,256}-{cbc,ctr,gcm}, with Node's output per call. Each
// update runs swift-crypto's AES-CBC or AES-CTR (internal.cryptoRunSync) on what can be processed now: CBC
// whole blocks, chained through the last ciphertext block (the next call's iv) and, when decrypting with
// padding, holding back the last block for final(); CTR at the stream's offset (the counter advanced by its
// blocks). GCM's ciphertext is CTR from the counter block after iv || 1 with a 32-bit counter (its definition,
// NIST SP 800-38D), so update answers it at once; final() seals or opens the whole input with AES-GCM for the
// tag. GCM takes a 12-byte iv and a 16-byte tag here.

const cipherPattern = /^aes-(128|192|256)-(cbc|ctr|gcm)$/;

function cipherBytes(value, name) {
  if (typeof value === "string") return internal.nodeBuiltin("buffer").Buffer.from(value);
  if (ArrayBuffer.isView(value)) return Uint8Array.from(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  if (value instanceof ArrayBuffer) return Uint8Array.from(new Uint8Array(value));
  throw invalidArgType(name, ["string", "ArrayBuffer", "Buffer", "TypedArray", "DataView"], value);
}

function joinBytes(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/// `counter` (16 bytes) plus `blocks`, carrying through its last `width` bytes.
function addCounter(counter, blocks, width) {
  const out = Uint8Array.from(counter);
  let carry = blocks;
  for (let i = 15; i >= 16 - width && carry > 0; i--) {
    const sum = out[i] + (carry % 256);
    out[i] = sum & 255;
    carry = MathFloor(carry / 256) + (sum > 255 ? 1 : 0);
  }
  return out;
}

function runCipher(operation, first, second, inputs) {
  const buffers = [];
  for (let i = 0; i < inputs.length; i++) buffers[i] = Uint8Array.from(inputs[i]).buffer;
  try {
    return new Uint8Array(internal.cryptoRunSync(operation, "", first, second, buffers)[0]);
  } catch (error) {
    if (operation === "aesCbcDecrypt") throw make(Error, "ERR_OSSL_BAD_DECRYPT", "bad decrypt");
    throw error;
  }
}

class Cipheriv {
  constructor(algorithm, key, iv, options, decrypt) {
    if (typeof algorithm !== "string") throw invalidArgType("cipher", "string", algorithm);
    const match = RegExpPrototypeExec(cipherPattern, MethodToLowerCase(algorithm));
    if (match === null) throw make(Error, "ERR_CRYPTO_UNKNOWN_CIPHER", "Unknown cipher");
    const keyBytes = cipherBytes(key, "key");
    if (keyBytes.length * 8 !== +match[1]) throw make(RangeError, "ERR_CRYPTO_INVALID_KEYLEN", "Invalid key length");
    const mode = match[2];
    const ivBytes = cipherBytes(iv, "iv");
    if (ivBytes.length !== (mode === "gcm" ? 12 : 16)) {
      throw make(TypeError, "ERR_CRYPTO_INVALID_IV", "Invalid initialization vector");
    }
    if (mode === "gcm" && options?.authTagLength !== undefined && options.authTagLength !== 16) {
      throw make(TypeError, "ERR_CRYPTO_INVALID_AUTH_TAG", `Invalid authentication tag length: ${options.authTagLength}`);
    }
    this._mode = mode;
    this._decrypt = decrypt;
    this._key = keyBytes;
    this._iv = ivBytes;
    this._padding = true;
    this._pending = new Uint8Array(0); // CBC: bytes not yet processed
    this._offset = 0; // CTR, GCM: bytes processed
    this._seen = []; // GCM: every input chunk, for the tag
    this._aad = new Uint8Array(0);
    this._tag = undefined;
    this._finished = false;
  }

  _process(bytes) {
    if (this._mode === "cbc") {
      const all = joinBytes(this._pending, bytes);
      let whole = all.length - (all.length % 16);
      if (this._decrypt && this._padding && whole === all.length && whole > 0) whole -= 16;
      this._pending = all.subarray(whole);
      if (whole === 0) return new Uint8Array(0);
      const input = all.subarray(0, whole);
      const output = runCipher(this._decrypt ? "aesCbcDecrypt" : "aesCbcEncrypt", 0, 1, [this._key, this._iv, input]);
      this._iv = Uint8Array.from((this._decrypt ? input : output).subarray(whole - 16));
      return output;
    }
    if (this._mode === "gcm") ArrayPrototypePush(this._seen, bytes);
    if (bytes.length === 0) return bytes;
    const skip = this._offset % 16;
    const blocks = MathFloor(this._offset / 16);
    const gcm = this._mode === "gcm";
    // GCM's first data block counts from iv || 2 (iv || 1 masks the tag).
    const start = gcm ? addCounter(joinBytes(this._iv, new Uint8Array([0, 0, 0, 2])), blocks, 4)
      : addCounter(this._iv, blocks, 16);
    const output = runCipher("aesCtr", gcm ? 32 : 128, 0, [this._key, start, joinBytes(new Uint8Array(skip), bytes)]);
    this._offset += bytes.length;
    return output.subarray(skip);
  }

  update(data, inputEncoding, outputEncoding) {
    if (this._finished) throw make(Error, "ERR_CRYPTO_INVALID_STATE", "Invalid state for operation update");
    const { Buffer } = internal.nodeBuiltin("buffer");
    const bytes = typeof data === "string" ? Buffer.from(data, inputEncoding) : cipherBytes(data, "data");
    return encodeOutput(this._process(bytes), outputEncoding);
  }

  final(outputEncoding) {
    if (this._finished) throw make(Error, "ERR_CRYPTO_INVALID_STATE", "Invalid state for operation final");
    this._finished = true;
    let output = new Uint8Array(0);
    if (this._mode === "cbc") {
      const rest = this._pending;
      if (!this._padding || this._decrypt) {
        if (rest.length % 16 !== 0 || (this._decrypt && this._padding && rest.length === 0)) {
          throw make(Error, "ERR_OSSL_WRONG_FINAL_BLOCK_LENGTH", "wrong final block length");
        }
      }
      if (rest.length > 0 || (this._padding && !this._decrypt)) {
        output = runCipher(this._decrypt ? "aesCbcDecrypt" : "aesCbcEncrypt", 0, this._padding ? 0 : 1,
          [this._key, this._iv, rest]);
      }
    } else if (this._mode === "gcm") {
      let all = new Uint8Array(0);
      for (let i = 0; i < this._seen.length; i++) all = joinBytes(all, this._seen[i]);
      if (this._decrypt) {
        if (this._tag === undefined) {
          throw make(Error, "ERR_CRYPTO_INVALID_STATE", "Unsupported state or unable to authenticate data");
        }
        try {
          runCipher("aesGcmDecrypt", 128, 0, [this._key, this._iv, joinBytes(all, this._tag), this._aad]);
        } catch {
          throw new Error("Unsupported state or unable to authenticate data");
        }
      } else {
        const sealed = runCipher("aesGcmEncrypt", 128, 0, [this._key, this._iv, all, this._aad]);
        this._tag = sealed.subarray(sealed.length - 16);
      }
    }
    return encodeOutput(output, outputEncoding);
  }

  setAutoPadding(autoPadding = true) {
    this._padding = !!autoPadding;
    return this;
  }

  setAAD(buffer) {
    if (this._mode !== "gcm" || this._offset > 0) {
      throw make(Error, "ERR_CRYPTO_INVALID_STATE", "Invalid state for operation setAAD");
    }
    this._aad = cipherBytes(buffer, "buffer");
    return this;
  }

  getAuthTag() {
    if (this._mode !== "gcm" || this._decrypt || !this._finished) {
      throw make(Error, "ERR_CRYPTO_INVALID_STATE", "Invalid state for operation getAuthTag");
    }
    return internal.nodeBuiltin("buffer").Buffer.from(this._tag);
  }

  setAuthTag(tag) {
    if (this._mode !== "gcm" || !this._decrypt || this._finished) {
      throw make(Error, "ERR_CRYPTO_INVALID_STATE", "Invalid state for operation setAuthTag");
    }
    const bytes = cipherBytes(tag, "buffer");
    if (bytes.length !== 16) {
      throw make(TypeError, "ERR_CRYPTO_INVALID_AUTH_TAG", `Invalid authentication tag length: ${bytes.length}`);
    }
    this._tag = bytes;
    return this;
  }
}

function encodeOutput(bytes, encoding) {
  const out = internal.nodeBuiltin("buffer").Buffer.from(bytes);
  return encoding === undefined || encoding === "buffer" ? out : out.toString(encoding);
}

const cipherNames = [];
for (const bits of ["128", "192", "256"]) {
  for (const mode of ["cbc", "ctr", "gcm"]) ArrayPrototypePush(cipherNames, `aes-${bits}-${mode}`);
}

const webcrypto = internal.webcrypto;

const crypto = {
  randomBytes, pseudoRandomBytes: randomBytes, randomFillSync, randomFill, randomInt, randomUUID, getRandomValues,
  webcrypto, subtle: webcrypto.subtle,
  /// md5, sha1, sha256, sha384 and sha512 (node-hash.js); other algorithms throw ERR_CRYPTO_INVALID_DIGEST.
  createHash(algorithm, options) {
    internal.load("node-hash.js");
    return internal.createHash(algorithm);
  },
  createHmac(algorithm, key, options) {
    internal.load("node-hash.js");
    return internal.createHmac(algorithm, key);
  },
  /// aes-128/192/256 in cbc, ctr and gcm (update, final, setAutoPadding, setAAD, getAuthTag, setAuthTag).
  createCipheriv: (algorithm, key, iv, options) => new Cipheriv(algorithm, key, iv, options, false),
  createDecipheriv: (algorithm, key, iv, options) => new Cipheriv(algorithm, key, iv, options, true),
  getHashes: () => ["md5", "sha1", "sha256", "sha384", "sha512"],
  getCiphers: () => [...cipherNames],
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
