// crypto.js - Web Crypto: the global `crypto` (a `Crypto`: getRandomValues, randomUUID, subtle), `SubtleCrypto`
// and `CryptoKey`. Also sets internal.webcrypto, internal.getRandomValues, internal.randomUUID and
// internal.cryptoRunSync for node:crypto (node-crypto.js, node-hash.js).
//
// JavaScript here checks the arguments as the Web Crypto spec orders them (TypeError for a bad argument,
// NotSupportedError for an unknown algorithm, SyntaxError for bad usages, InvalidAccessError for a key that
// does not fit the operation, DataError for bad key data) and keeps the keys; every primitive runs in Swift on
// swift-crypto (CryptoNatives.swift): at once for small inputs, on a worker thread above `largeInput` bytes.

const {
  ArrayBufferPrototypeSlice, ArrayIsArray, ArrayPrototypeConcat, ArrayPrototypeIncludes, ArrayPrototypePush,
  ReflectApply, JSONParse, JSONStringify, MethodFilter, MethodForEach, MethodSlice, ObjectDefineProperty,
  ObjectFreeze, PromiseReject, PromiseResolve, SafeMap, SafeSet, SafeWeakMap, StringPrototypeToUpperCase,
  TypeError, TypedArrayPrototypeGetBuffer, TypedArrayPrototypeGetByteLength, TypedArrayPrototypeGetByteOffset,
  TypedArrayPrototypeGetSymbolToStringTag, TypedArrayPrototypeSubarray, Uint8Array, DataViewPrototypeGetBuffer, DataViewPrototypeGetByteLength,
  DataViewPrototypeGetByteOffset, Promise, SymbolIterator, SymbolToStringTag,
} = internal.primordials;
const { DOMException, cryptoRun, cryptoStart, cryptoTake, randomFill } = internal;

/// Inputs larger than this (all byte inputs together) run on a worker thread rather than the JS thread.
const largeInput = 64 * 1024;

// MARK: - Running operations

const domExceptionNames = new SafeSet([
  "OperationError", "DataError", "NotSupportedError", "InvalidAccessError", "SyntaxError",
]);

/// The DOMException for a native's failure (its `code` names it), or the error itself.
function nativeError(error) {
  if (error !== null && typeof error === "object" && domExceptionNames.has(error.code)) {
    return new DOMException(error.message, error.code);
  }
  return error;
}

const pending = new SafeMap(); // id -> { resolve, reject }
let listening = false;

function settle(payload) {
  const entry = pending.get(payload.id);
  if (entry === undefined) return;
  pending.delete(payload.id);
  let outputs;
  try {
    outputs = cryptoTake(payload.id);
  } catch (error) {
    entry.reject(nativeError(error));
    return;
  }
  entry.resolve(outputs);
}

/// Runs a native request: a promise of its outputs (ArrayBuffers). `slow` requests (RSA key generation,
/// PBKDF2's iterations) go to a worker thread whatever their size.
function run(operation, name, first, second, inputs, slow = false) {
  let size = 0;
  MethodForEach(inputs, (input) => { size += input.byteLength; });
  if (size <= largeInput && !slow) {
    try {
      return PromiseResolve(ReflectApply(cryptoRun, undefined, ArrayPrototypeConcat([operation, name, first, second], inputs)));
    } catch (error) {
      return PromiseReject(nativeError(error));
    }
  }
  if (!listening) {
    listening = true;
    internal.onNativeEvent("", "crypto", settle);
  }
  const id = ReflectApply(cryptoStart, undefined, ArrayPrototypeConcat([operation, name, first, second], inputs));
  return new Promise((resolve, reject) => { pending.set(id, { resolve, reject }); });
}

/// Runs a native request on the JS thread: its outputs, or throws its DOMException.
function runSync(operation, name, first, second, inputs) {
  try {
    return ReflectApply(cryptoRun, undefined, ArrayPrototypeConcat([operation, name, first, second], inputs));
  } catch (error) {
    throw nativeError(error);
  }
}

// MARK: - Arguments

const emptyBuffer = new ArrayBuffer(0);

/// A copy of a BufferSource's bytes as an ArrayBuffer, or a TypeError.
function bufferSource(value, what) {
  if (value instanceof ArrayBuffer) return ArrayBufferPrototypeSlice(value, 0);
  if (ArrayBuffer.isView(value)) {
    if (TypedArrayPrototypeGetSymbolToStringTag(value) !== undefined) {
      const offset = TypedArrayPrototypeGetByteOffset(value);
      return ArrayBufferPrototypeSlice(TypedArrayPrototypeGetBuffer(value), offset,
        offset + TypedArrayPrototypeGetByteLength(value));
    }
    const offset = DataViewPrototypeGetByteOffset(value);
    return ArrayBufferPrototypeSlice(DataViewPrototypeGetBuffer(value), offset,
      offset + DataViewPrototypeGetByteLength(value));
  }
  throw new TypeError(`Failed to execute '${what}': the data is not an ArrayBuffer or ArrayBufferView.`);
}

function requireArguments(args, count, method) {
  if (args.length < count) {
    throw new TypeError(
      `Failed to execute '${method}' on 'SubtleCrypto': ${count} arguments required, but only ${args.length} present.`);
  }
}

const bytesOf = (buffer) => new Uint8Array(buffer);
const base64url = (buffer) => internal.base64Encode(new Uint8Array(buffer), true);

/// A JWK member that is base64url text, as an ArrayBuffer (DataError when absent or not text).
function jwkBytes(jwk, member) {
  const text = jwk[member];
  if (typeof text !== "string") throw new DOMException(`The JWK's "${member}" is missing or not a string`, "DataError");
  const bytes = internal.base64Decode(text);
  return ArrayBufferPrototypeSlice(TypedArrayPrototypeGetBuffer(bytes), TypedArrayPrototypeGetByteOffset(bytes),
    TypedArrayPrototypeGetByteOffset(bytes) + TypedArrayPrototypeGetByteLength(bytes));
}

function concat(a, b) {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(bytesOf(a), 0);
  out.set(bytesOf(b), a.byteLength);
  return TypedArrayPrototypeGetBuffer(out);
}

// MARK: - Algorithms

const hashes = { "SHA-1": 512, "SHA-256": 512, "SHA-384": 1024, "SHA-512": 1024 }; // name -> block size in bits
const curves = { "P-256": 32, "P-384": 48, "P-521": 66 }; // name -> coordinate size in bytes

// The algorithms each operation knows, by upper-cased name -> canonical name.
const canonical = new SafeMap();
MethodForEach([
  "SHA-1", "SHA-256", "SHA-384", "SHA-512", "HMAC", "AES-GCM", "AES-CBC", "AES-CTR", "AES-KW", "ECDSA", "ECDH",
  "Ed25519", "X25519", "PBKDF2", "HKDF", "RSA-OAEP", "RSA-PSS", "RSASSA-PKCS1-v1_5",
], (name) => canonical.set(StringPrototypeToUpperCase(name), name));
const supported = {
  digest: ["SHA-1", "SHA-256", "SHA-384", "SHA-512"],
  sign: ["HMAC", "ECDSA", "Ed25519", "RSASSA-PKCS1-v1_5", "RSA-PSS"],
  encrypt: ["AES-GCM", "AES-CBC", "AES-CTR", "RSA-OAEP"],
  generateKey: [
    "HMAC", "AES-GCM", "AES-CBC", "AES-CTR", "AES-KW", "ECDSA", "ECDH", "Ed25519", "X25519", "RSASSA-PKCS1-v1_5",
    "RSA-PSS", "RSA-OAEP",
  ],
  importKey: [
    "HMAC", "AES-GCM", "AES-CBC", "AES-CTR", "AES-KW", "ECDSA", "ECDH", "Ed25519", "X25519", "PBKDF2", "HKDF",
    "RSASSA-PKCS1-v1_5", "RSA-PSS", "RSA-OAEP",
  ],
  deriveBits: ["ECDH", "X25519", "PBKDF2", "HKDF"],
  wrapKey: ["AES-KW", "AES-GCM", "AES-CBC", "AES-CTR", "RSA-OAEP"],
  // The algorithms deriveKey can make (their key length comes from the algorithm).
  derivedKey: ["HMAC", "AES-GCM", "AES-CBC", "AES-CTR", "AES-KW"],
};

/// Web Crypto's "normalize an algorithm": a dictionary with a canonical `name` that `operation` supports.
function normalize(algorithm, operation) {
  // Web IDL's (object or DOMString): anything but an object is converted to a string name.
  if (algorithm === null || (typeof algorithm !== "object" && typeof algorithm !== "function")) {
    algorithm = { name: `${algorithm}` };
  }
  if (algorithm.name === undefined) throw new TypeError("The algorithm's name is required.");
  const name = canonical.get(StringPrototypeToUpperCase(`${algorithm.name}`));
  if (name === undefined || !ArrayPrototypeIncludes(supported[operation], name)) {
    throw new DOMException("Unrecognized algorithm name", "NotSupportedError");
  }
  const result = { __proto__: null, name };
  for (const key in algorithm) if (key !== "name") result[key] = algorithm[key];
  if (result.hash !== undefined) result.hash = normalize(result.hash, "digest").name;
  return result;
}

/// The algorithm's hash, which it must have (TypeError).
function requireHash(algorithm) {
  if (algorithm.hash === undefined) throw new TypeError(`${algorithm.name} needs a hash.`);
  return algorithm.hash;
}

const blockBits = (hash) => hashes[hash];

// MARK: - CryptoKey

const keys = new SafeWeakMap(); // CryptoKey -> { type, extractable, algorithm, usages, material, public }
let constructing = false;

/// Web Crypto's CryptoKey: made only by SubtleCrypto.
class CryptoKey {
  constructor() {
    if (!constructing) throw new TypeError("Illegal constructor");
  }

  get type() { return slots(this).type; }
  get extractable() { return slots(this).extractable; }
  get algorithm() { return slots(this).algorithm; }
  // A copy: a script that changes the array does not change what the key may do.
  get usages() { return slots(this).exposedUsages; }
}
ObjectDefineProperty(CryptoKey.prototype, SymbolToStringTag, { value: "CryptoKey", configurable: true });

function slots(key) {
  const state = key !== null && typeof key === "object" ? keys.get(key) : undefined;
  if (state === undefined) throw new TypeError("The receiver is not a CryptoKey.");
  return state;
}

function isKey(value) {
  return value !== null && typeof value === "object" && keys.get(value) !== undefined;
}

const usageOrder = ["encrypt", "decrypt", "sign", "verify", "deriveKey", "deriveBits", "wrapKey", "unwrapKey"];

function makeKey(type, extractable, algorithm, usages, material, publicMaterial) {
  constructing = true;
  let key;
  try {
    key = new CryptoKey();
  } finally {
    constructing = false;
  }
  const sorted = MethodFilter(usageOrder, (usage) => ArrayPrototypeIncludes(usages, usage));
  if (algorithm.hash !== undefined) ObjectFreeze(algorithm.hash);
  keys.set(key, {
    type, extractable, algorithm: ObjectFreeze(algorithm), usages: sorted, exposedUsages: MethodSlice(sorted),
    material, public: publicMaterial,
  });
  return key;
}

/// The usages as a list of Web Crypto's usage names (TypeError for another), checked against `allowed`
/// (SyntaxError).
function checkUsages(usages, allowed) {
  if (usages === null || typeof usages !== "object" || typeof usages[SymbolIterator] !== "function") {
    throw new TypeError("The key usages must be a sequence.");
  }
  const list = [];
  for (const usage of usages) {
    const text = `${usage}`;
    if (!ArrayPrototypeIncludes(usageOrder, text)) throw new TypeError(`'${text}' is not a valid key usage.`);
    if (!ArrayPrototypeIncludes(allowed, text)) {
      throw new DOMException(`Unsupported key usage for this key: ${text}`, "SyntaxError");
    }
    if (!ArrayPrototypeIncludes(list, text)) ArrayPrototypePush(list, text);
  }
  return list;
}

function requireUsage(key, usage, name) {
  const state = slots(key);
  if (state.algorithm.name !== name) {
    throw new DOMException("The key's algorithm does not match the requested operation", "InvalidAccessError");
  }
  if (!ArrayPrototypeIncludes(state.usages, usage)) {
    throw new DOMException(`The key does not support the '${usage}' operation`, "InvalidAccessError");
  }
  return state;
}

// Per algorithm: the usages of its secret key, or of its private and public keys.
const secretUsages = {
  HMAC: ["sign", "verify"], "AES-GCM": ["encrypt", "decrypt", "wrapKey", "unwrapKey"],
  "AES-CBC": ["encrypt", "decrypt", "wrapKey", "unwrapKey"], "AES-CTR": ["encrypt", "decrypt", "wrapKey", "unwrapKey"],
  "AES-KW": ["wrapKey", "unwrapKey"], PBKDF2: ["deriveKey", "deriveBits"], HKDF: ["deriveKey", "deriveBits"],
};
const pairUsages = {
  ECDSA: [["sign"], ["verify"]], Ed25519: [["sign"], ["verify"]],
  ECDH: [["deriveKey", "deriveBits"], []], X25519: [["deriveKey", "deriveBits"], []],
  "RSASSA-PKCS1-v1_5": [["sign"], ["verify"]], "RSA-PSS": [["sign"], ["verify"]],
  "RSA-OAEP": [["decrypt", "unwrapKey"], ["encrypt", "wrapKey"]],
};
const isRSA = (name) => name === "RSASSA-PKCS1-v1_5" || name === "RSA-PSS" || name === "RSA-OAEP";
// JWK `alg` names by algorithm and hash.
const rsaJwkAlg = {
  "RSASSA-PKCS1-v1_5": { "SHA-1": "RS1", "SHA-256": "RS256", "SHA-384": "RS384", "SHA-512": "RS512" },
  "RSA-PSS": { "SHA-1": "PS1", "SHA-256": "PS256", "SHA-384": "PS384", "SHA-512": "PS512" },
  "RSA-OAEP": { "SHA-1": "RSA-OAEP", "SHA-256": "RSA-OAEP-256", "SHA-384": "RSA-OAEP-384", "SHA-512": "RSA-OAEP-512" },
};

/// An RSA key's algorithm from the native's import or generation outputs [pkcs8, spki, modulus, exponent].
function rsaAlgorithm(name, hash, outputs) {
  let exponent = bytesOf(outputs[3]);
  let start = 0;
  while (start < exponent.length - 1 && exponent[start] === 0) start++;
  exponent = TypedArrayPrototypeSubarray(exponent, start);
  let modulus = bytesOf(outputs[2]);
  let bits = modulus.length * 8;
  for (let i = 0; i < modulus.length && modulus[i] === 0; i++) bits -= 8;
  const top = modulus[modulus.length - bits / 8];
  if (top !== undefined) for (let bit = 0x80; bit > 0 && (top & bit) === 0; bit >>= 1) bits--;
  return { name, modulusLength: bits, publicExponent: Uint8Array.from(exponent), hash: { name: hash } };
}

function rsaPairKeys(algorithm, outputs, extractable, usages, privateAllowed, publicAllowed) {
  const keyAlgorithm = rsaAlgorithm(algorithm.name, algorithm.hash, outputs);
  const rsa = { modulus: outputs[2], exponent: outputs[3] };
  if (outputs[0].byteLength > 0) {
    MethodForEach(usages, (usage) => {
      if (!ArrayPrototypeIncludes(privateAllowed, usage)) {
        throw new DOMException(`Unsupported key usage for a private key: ${usage}`, "SyntaxError");
      }
    });
    if (usages.length === 0) throw new DOMException("Usages cannot be empty when creating a key.", "SyntaxError");
    const key = makeKey("private", extractable, keyAlgorithm, usages, outputs[0], outputs[1]);
    slots(key).rsa = rsa;
    return key;
  }
  MethodForEach(usages, (usage) => {
    if (!ArrayPrototypeIncludes(publicAllowed, usage)) {
      throw new DOMException(`Unsupported key usage for a public key: ${usage}`, "SyntaxError");
    }
  });
  const key = makeKey("public", extractable, keyAlgorithm, usages, undefined, outputs[1]);
  slots(key).rsa = rsa;
  return key;
}

const isEC = (name) => name === "ECDSA" || name === "ECDH";
const isOKP = (name) => name === "Ed25519" || name === "X25519";
const isAES = (name) => name === "AES-GCM" || name === "AES-CBC" || name === "AES-CTR" || name === "AES-KW";

// MARK: - generateKey

function randomBytes(count) {
  const buffer = new ArrayBuffer(count);
  if (count > 0) randomFill(buffer, 0, count);
  return buffer;
}

function checkNamedCurve(algorithm) {
  if (algorithm.namedCurve === undefined) throw new TypeError("The algorithm's namedCurve is required.");
  const curve = `${algorithm.namedCurve}`;
  if (curves[curve] === undefined) throw new DOMException("Unrecognized namedCurve", "NotSupportedError");
  return curve;
}

function hmacLength(algorithm, bytes) {
  requireHash(algorithm);
  if (algorithm.length === undefined) return bytes === undefined ? blockBits(algorithm.hash) : bytes * 8;
  const length = +algorithm.length;
  if (length === 0 || length !== length) throw new DOMException("HMAC's length must not be zero", "DataError");
  if (bytes !== undefined && (length > bytes * 8 || length <= bytes * 8 - 8)) {
    throw new DOMException("HMAC's length does not match the key data", "DataError");
  }
  return length;
}

function aesLength(algorithm) {
  if (algorithm.length === undefined) throw new TypeError("The AES algorithm's length is required.");
  const length = +algorithm.length;
  if (length !== 128 && length !== 192 && length !== 256) {
    throw new DOMException("AES key length must be 128, 192 or 256 bits", "OperationError");
  }
  return length;
}

async function generateKey(algorithm, extractable, usages) {
  requireArguments(arguments, 3, "generateKey");
  algorithm = normalize(algorithm, "generateKey");
  extractable = !!extractable;
  const { name } = algorithm;
  if (name === "HMAC" || isAES(name)) {
    const list = checkUsages(usages, secretUsages[name]);
    const length = name === "HMAC" ? hmacLength(algorithm) : aesLength(algorithm);
    if (list.length === 0) throw new DOMException("Usages cannot be empty when creating a key.", "SyntaxError");
    // Property order as Node's (scripts compare JSON.stringify of it).
    const keyAlgorithm = name === "HMAC" ? { name, length, hash: { name: algorithm.hash } } : { name, length };
    return makeKey("secret", extractable, keyAlgorithm, list, randomBytes((length + 7) >> 3));
  }
  const [privateAllowed, publicAllowed] = pairUsages[name];
  const list = checkUsages(usages, ArrayPrototypeConcat(privateAllowed, publicAllowed));
  let outputs, keyAlgorithm;
  if (isRSA(name)) {
    requireHash(algorithm);
    if (algorithm.modulusLength === undefined || algorithm.publicExponent === undefined) {
      throw new TypeError(`${name} needs a modulusLength and a publicExponent.`);
    }
    const exponent = bytesOf(bufferSource(algorithm.publicExponent, "generateKey"));
    let value = 0;
    for (let i = 0; i < exponent.length; i++) value = value * 256 + exponent[i];
    if (value !== 65537) throw new DOMException("Only the public exponent 65537 is supported", "NotSupportedError");
    const bits = +algorithm.modulusLength >>> 0;
    if (bits < 1024 || bits > 8192 || bits % 8 !== 0) {
      throw new DOMException("The modulusLength must be a multiple of 8 from 1024 to 8192", "OperationError");
    }
    outputs = await run("rsaGenerate", "", bits, 0, [], true);
    const privateUsages = MethodFilter(list, (usage) => ArrayPrototypeIncludes(privateAllowed, usage));
    if (privateUsages.length === 0) throw new DOMException("Usages cannot be empty when creating a key.", "SyntaxError");
    const publicUsages = MethodFilter(list, (usage) => ArrayPrototypeIncludes(publicAllowed, usage));
    const privateKey = rsaPairKeys(algorithm, outputs, extractable, privateUsages, privateAllowed, publicAllowed);
    const publicKey = rsaPairKeys(algorithm, [emptyBuffer, outputs[1], outputs[2], outputs[3]], true, publicUsages,
      privateAllowed, publicAllowed);
    return { publicKey, privateKey };
  }
  if (isEC(name)) {
    const curve = checkNamedCurve(algorithm);
    keyAlgorithm = { name, namedCurve: curve };
    outputs = await run("ecGenerate", curve, 0, 0, []);
  } else {
    keyAlgorithm = { name };
    outputs = await run("okpGenerate", name, 0, 0, []);
  }
  const privateUsages = MethodFilter(list, (usage) => ArrayPrototypeIncludes(privateAllowed, usage));
  if (privateUsages.length === 0) throw new DOMException("Usages cannot be empty when creating a key.", "SyntaxError");
  const publicUsages = MethodFilter(list, (usage) => ArrayPrototypeIncludes(publicAllowed, usage));
  return {
    publicKey: makeKey("public", true, { ...keyAlgorithm }, publicUsages, undefined, outputs[1]),
    privateKey: makeKey("private", extractable, { ...keyAlgorithm }, privateUsages, outputs[0], outputs[1]),
  };
}

// MARK: - importKey and exportKey

const formats = ["raw", "spki", "pkcs8", "jwk"];
const formatCodes = { raw: 0, spki: 1, pkcs8: 2, jwk: 3 };

function checkFormat(format) {
  const text = `${format}`;
  if (!ArrayPrototypeIncludes(formats, text)) throw new TypeError(`'${text}' is not a valid key format.`);
  return text;
}

const jwkHashSuffix = { "SHA-1": "1", "SHA-256": "256", "SHA-384": "384", "SHA-512": "512" };
const aesJwkSuffix = { "AES-GCM": "GCM", "AES-CBC": "CBC", "AES-CTR": "CTR", "AES-KW": "KW" };
const ecdsaJwkAlg = { "P-256": "ES256", "P-384": "ES384", "P-521": "ES512" };

/// The common checks of a JWK: its `kty`, `use`, `key_ops` and `ext` against the import's arguments.
function checkJwk(jwk, kty, extractable, usages) {
  if (jwk === null || typeof jwk !== "object") throw new TypeError("A JWK must be an object.");
  if (jwk.kty !== kty) throw new DOMException(`The JWK's "kty" must be "${kty}"`, "DataError");
  if (jwk.ext === false && extractable) {
    throw new DOMException("The JWK is not extractable but an extractable key was asked for", "DataError");
  }
  if (jwk.key_ops !== undefined) {
    if (!ArrayIsArray(jwk.key_ops)) throw new DOMException("The JWK's \"key_ops\" must be an array", "DataError");
    MethodForEach(usages, (usage) => {
      if (!ArrayPrototypeIncludes(jwk.key_ops, usage)) {
        throw new DOMException("The JWK's \"key_ops\" does not allow the requested usages", "DataError");
      }
    });
  }
}

async function importKey(format, keyData, algorithm, extractable, usages) {
  requireArguments(arguments, 5, "importKey");
  format = checkFormat(format);
  if (format === "jwk") {
    if (keyData === null || typeof keyData !== "object" || ArrayBuffer.isView(keyData) || keyData instanceof ArrayBuffer) {
      throw new TypeError("A JWK must be an object.");
    }
  } else {
    keyData = bufferSource(keyData, "importKey");
  }
  algorithm = normalize(algorithm, "importKey");
  return importNormalized(format, keyData, algorithm, !!extractable, usages);
}

function importNormalized(format, keyData, algorithm, extractable, usages) {
  const { name } = algorithm;
  if (secretUsages[name] !== undefined) {
    const list = checkUsages(usages, secretUsages[name]);
    if (list.length === 0) throw new DOMException("Usages cannot be empty when creating a key.", "SyntaxError");
    return importSecret(format, keyData, algorithm, extractable, list);
  }
  const [privateAllowed, publicAllowed] = pairUsages[name];
  const list = checkUsages(usages, ArrayPrototypeConcat(privateAllowed, publicAllowed));
  return importPair(format, keyData, algorithm, extractable, list, privateAllowed, publicAllowed);
}

function importSecret(format, keyData, algorithm, extractable, usages) {
  const { name } = algorithm;
  if (name === "PBKDF2" || name === "HKDF") {
    if (format !== "raw") throw new DOMException(`${name} keys are imported as raw bytes only`, "NotSupportedError");
    if (extractable) throw new DOMException(`${name} keys cannot be extractable`, "SyntaxError");
    return makeKey("secret", false, { name }, usages, keyData);
  }
  if (format !== "raw" && format !== "jwk") {
    throw new DOMException(`${name} keys are imported as raw bytes or a JWK`, "NotSupportedError");
  }
  if (format === "jwk") {
    checkJwk(keyData, "oct", extractable, usages);
    const bytes = jwkBytes(keyData, "k");
    if (keyData.alg !== undefined) {
      const expected = name === "HMAC" ? `HS${jwkHashSuffix[algorithm.hash]}`
        : `A${bytes.byteLength * 8}${aesJwkSuffix[name]}`;
      if (keyData.alg !== expected) throw new DOMException(`The JWK's "alg" must be "${expected}"`, "DataError");
    }
    if (keyData.use !== undefined && keyData.use !== (name === "HMAC" ? "sig" : "enc")) {
      throw new DOMException("The JWK's \"use\" does not fit the algorithm", "DataError");
    }
    keyData = bytes;
  }
  if (name === "HMAC") {
    if (keyData.byteLength === 0) throw new DOMException("An HMAC key cannot be empty", "DataError");
    const length = hmacLength(algorithm, keyData.byteLength);
    return makeKey("secret", extractable, { name, hash: { name: algorithm.hash }, length }, usages, keyData);
  }
  const length = keyData.byteLength * 8;
  if (length !== 128 && length !== 192 && length !== 256) {
    throw new DOMException("AES key data must be 128, 192 or 256 bits", "DataError");
  }
  return makeKey("secret", extractable, { name, length }, usages, keyData);
}

async function importPair(format, keyData, algorithm, extractable, usages, privateAllowed, publicAllowed) {
  const { name } = algorithm;
  if (isRSA(name)) return importRSA(format, keyData, algorithm, extractable, usages, privateAllowed, publicAllowed);
  const ec = isEC(name);
  const curve = ec ? checkNamedCurve(algorithm) : undefined;
  let code = formatCodes[format];
  if (format === "raw" && keyData.byteLength === 0) throw new DOMException("The key data is empty", "DataError");
  if (format === "jwk") {
    checkJwk(keyData, ec ? "EC" : "OKP", extractable, usages);
    const crv = ec ? curve : name;
    if (keyData.crv !== crv) throw new DOMException(`The JWK's "crv" must be "${crv}"`, "DataError");
    if (ec && name === "ECDSA" && keyData.alg !== undefined && keyData.alg !== ecdsaJwkAlg[curve]) {
      throw new DOMException(`The JWK's "alg" must be "${ecdsaJwkAlg[curve]}"`, "DataError");
    }
    const x = jwkBytes(keyData, "x");
    const jwkPoint = ec ? concat(concat(new Uint8Array([4]).buffer, x), jwkBytes(keyData, "y")) : x;
    if (keyData.d !== undefined) {
      keyData = jwkBytes(keyData, "d");
      code = 3;
    } else {
      keyData = jwkPoint;
      code = 0;
    }
    // A private JWK's public part must be the one its `d` makes.
    const [secret, point] = await run(ec ? "ecImport" : "okpImport", ec ? curve : name, code, 0, [keyData]);
    if (!sameBytes(point, jwkPoint)) {
      throw new DOMException("The JWK's private and public parts do not match", "DataError");
    }
    return pairKey(name, curve, extractable, usages, privateAllowed, publicAllowed, secret, point);
  }
  const [secret, point] = await run(ec ? "ecImport" : "okpImport", ec ? curve : name, code, 0, [keyData]);
  return pairKey(name, curve, extractable, usages, privateAllowed, publicAllowed, secret, point);
}

function pairKey(name, curve, extractable, usages, privateAllowed, publicAllowed, secret, point) {
  const keyAlgorithm = curve !== undefined ? { name, namedCurve: curve } : { name };
  if (secret.byteLength > 0) {
    MethodForEach(usages, (usage) => {
      if (!ArrayPrototypeIncludes(privateAllowed, usage)) {
        throw new DOMException(`Unsupported key usage for a private key: ${usage}`, "SyntaxError");
      }
    });
    if (usages.length === 0) throw new DOMException("Usages cannot be empty when creating a key.", "SyntaxError");
    return makeKey("private", extractable, keyAlgorithm, usages, secret, point);
  }
  MethodForEach(usages, (usage) => {
    if (!ArrayPrototypeIncludes(publicAllowed, usage)) {
      throw new DOMException(`Unsupported key usage for a public key: ${usage}`, "SyntaxError");
    }
  });
  return makeKey("public", extractable, keyAlgorithm, usages, undefined, point);
}

async function importRSA(format, keyData, algorithm, extractable, usages, privateAllowed, publicAllowed) {
  const { name } = algorithm;
  const hash = requireHash(algorithm);
  let outputs;
  if (format === "spki" || format === "pkcs8") {
    outputs = await run("rsaImport", "", formatCodes[format], 0, [keyData]);
  } else if (format === "jwk") {
    checkJwk(keyData, "RSA", extractable, usages);
    if (keyData.alg !== undefined && keyData.alg !== rsaJwkAlg[name][hash]) {
      throw new DOMException(`The JWK's "alg" must be "${rsaJwkAlg[name][hash]}"`, "DataError");
    }
    const publicParts = [jwkBytes(keyData, "n"), jwkBytes(keyData, "e")];
    outputs = keyData.d === undefined ? await run("rsaImport", "", 0, 0, publicParts)
      : await run("rsaImport", "", 3, 0,
        ArrayPrototypeConcat(publicParts, [jwkBytes(keyData, "d"), jwkBytes(keyData, "p"), jwkBytes(keyData, "q")]));
  } else {
    throw new DOMException(`${name} keys are imported as spki, pkcs8 or a JWK`, "NotSupportedError");
  }
  return rsaPairKeys(algorithm, outputs, extractable, usages, privateAllowed, publicAllowed);
}

function sameBytes(a, b) {
  if (a.byteLength !== b.byteLength) return false;
  const x = bytesOf(a), y = bytesOf(b);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

async function exportKey(format, key) {
  requireArguments(arguments, 2, "exportKey");
  format = checkFormat(format);
  const state = slots(key);
  if (!state.extractable) throw new DOMException("The key is not extractable", "InvalidAccessError");
  return exportSlots(format, state);
}

async function exportSlots(format, state) {
  const { name } = state.algorithm;
  if (name === "PBKDF2" || name === "HKDF") {
    throw new DOMException(`${name} keys cannot be exported`, "NotSupportedError");
  }
  if (state.type === "secret") {
    if (format === "raw") return ArrayBufferPrototypeSlice(state.material, 0);
    if (format !== "jwk") throw new DOMException("Secret keys export as raw bytes or a JWK", "NotSupportedError");
    const alg = name === "HMAC" ? `HS${jwkHashSuffix[state.algorithm.hash.name]}`
      : `A${state.algorithm.length}${aesJwkSuffix[name]}`;
    return { key_ops: MethodSlice(state.usages), ext: state.extractable, kty: "oct", k: base64url(state.material), alg };
  }
  if (isRSA(name)) {
    if (format === "spki" || format === "pkcs8") {
      const wanted = format === "spki" ? "public" : "private";
      if (state.type !== wanted) throw new DOMException(`Only ${wanted} keys export as ${format}`, "InvalidAccessError");
      return ArrayBufferPrototypeSlice(format === "spki" ? state.public : state.material, 0);
    }
    if (format !== "jwk") throw new DOMException("RSA keys export as spki, pkcs8 or a JWK", "NotSupportedError");
    const jwk = {
      key_ops: MethodSlice(state.usages), ext: state.extractable, kty: "RSA", n: base64url(state.rsa.modulus),
      e: base64url(state.rsa.exponent), alg: rsaJwkAlg[name][state.algorithm.hash.name],
    };
    if (state.type === "private") {
      const [d, p, q, dp, dq, qi] = await run("rsaPrivateParts", "", 0, 0, [state.material]);
      jwk.d = base64url(d);
      jwk.p = base64url(p);
      jwk.q = base64url(q);
      jwk.dp = base64url(dp);
      jwk.dq = base64url(dq);
      jwk.qi = base64url(qi);
    }
    return jwk;
  }
  const ec = isEC(name);
  const curve = ec ? state.algorithm.namedCurve : name;
  if (format === "raw") {
    if (state.type !== "public") throw new DOMException("Only public keys export as raw bytes", "InvalidAccessError");
    return ArrayBufferPrototypeSlice(state.public, 0);
  }
  if (format === "spki" || format === "pkcs8") {
    const wanted = format === "spki" ? "public" : "private";
    if (state.type !== wanted) throw new DOMException(`Only ${wanted} keys export as ${format}`, "InvalidAccessError");
    const [der] = await run(ec ? "ecExport" : "okpExport", curve, formatCodes[format], 0,
      [format === "spki" ? state.public : state.material]);
    return der;
  }
  const jwk = { key_ops: MethodSlice(state.usages), ext: state.extractable };
  if (ec) {
    const size = curves[curve];
    jwk.kty = "EC";
    jwk.crv = curve;
    jwk.x = base64url(ArrayBufferPrototypeSlice(state.public, 1, 1 + size));
    jwk.y = base64url(ArrayBufferPrototypeSlice(state.public, 1 + size));
  } else {
    jwk.kty = "OKP";
    jwk.crv = name;
    jwk.x = base64url(state.public);
  }
  if (state.type === "private") jwk.d = base64url(state.material);
  return jwk;
}

// MARK: - sign, verify, encrypt, decrypt

function signRequest(algorithm, state) {
  const { name } = algorithm;
  if (name === "HMAC") return ["hmac", state.algorithm.hash.name];
  if (name === "ECDSA") {
    if (algorithm.hash === undefined) throw new TypeError("ECDSA needs a hash.");
    return ["ecdsa", `${state.algorithm.namedCurve} ${algorithm.hash}`];
  }
  if (name === "RSA-PSS") {
    if (algorithm.saltLength === undefined) throw new TypeError("RSA-PSS needs a saltLength.");
    return ["rsa", `PSS ${state.algorithm.hash.name}`, +algorithm.saltLength >>> 0];
  }
  if (name === "RSASSA-PKCS1-v1_5") return ["rsa", `PKCS1 ${state.algorithm.hash.name}`, 0];
  return ["ed25519", name];
}

async function sign(algorithm, key, data) {
  requireArguments(arguments, 3, "sign");
  algorithm = normalize(algorithm, "sign");
  data = bufferSource(data, "sign");
  const state = requireUsage(key, "sign", algorithm.name);
  const [prefix, name, salt = 0] = signRequest(algorithm, state);
  const [signature] = await run(`${prefix}Sign`, name, 0, salt, [state.material, data]);
  return signature;
}

async function verify(algorithm, key, signature, data) {
  requireArguments(arguments, 4, "verify");
  algorithm = normalize(algorithm, "sign");
  signature = bufferSource(signature, "verify");
  data = bufferSource(data, "verify");
  const state = requireUsage(key, "verify", algorithm.name);
  const [prefix, name, salt = 0] = signRequest(algorithm, state);
  const material = algorithm.name === "HMAC" ? state.material : state.public;
  const [verdict] = await run(`${prefix}Verify`, name, 0, salt, [material, data, signature]);
  return bytesOf(verdict)[0] === 1;
}

/// The native request of an AES encryption or decryption: [operation, first, inputs after the key].
function cipherRequest(algorithm, data, encrypt) {
  const { name } = algorithm;
  if (name === "AES-GCM") {
    if (algorithm.iv === undefined) throw new TypeError("AES-GCM needs an iv.");
    const iv = bufferSource(algorithm.iv, encrypt ? "encrypt" : "decrypt");
    const aad = algorithm.additionalData === undefined ? emptyBuffer
      : bufferSource(algorithm.additionalData, encrypt ? "encrypt" : "decrypt");
    const tagLength = algorithm.tagLength === undefined ? 128 : +algorithm.tagLength;
    if (!ArrayPrototypeIncludes([32, 64, 96, 104, 112, 120, 128], tagLength)) {
      throw new DOMException("AES-GCM's tagLength is not valid", "OperationError");
    }
    if (iv.byteLength === 0) throw new DOMException("AES-GCM's iv cannot be empty", "OperationError");
    return [encrypt ? "aesGcmEncrypt" : "aesGcmDecrypt", tagLength, [iv, data, aad]];
  }
  if (name === "AES-CBC") {
    if (algorithm.iv === undefined) throw new TypeError("AES-CBC needs an iv.");
    const iv = bufferSource(algorithm.iv, encrypt ? "encrypt" : "decrypt");
    if (iv.byteLength !== 16) throw new DOMException("AES-CBC's iv must be 16 bytes", "OperationError");
    return [encrypt ? "aesCbcEncrypt" : "aesCbcDecrypt", 0, [iv, data]];
  }
  if (algorithm.counter === undefined) throw new TypeError("AES-CTR needs a counter.");
  if (algorithm.length === undefined) throw new TypeError("AES-CTR needs a length.");
  const counter = bufferSource(algorithm.counter, encrypt ? "encrypt" : "decrypt");
  const length = +algorithm.length;
  if (counter.byteLength !== 16) throw new DOMException("AES-CTR's counter must be 16 bytes", "OperationError");
  if (!(length >= 1 && length <= 128)) throw new DOMException("AES-CTR's length must be 1 to 128", "OperationError");
  return ["aesCtr", length, [counter, data]];
}

async function cipher(algorithm, key, data, encrypt) {
  const usage = encrypt ? "encrypt" : "decrypt";
  algorithm = normalize(algorithm, "encrypt");
  data = bufferSource(data, usage);
  const state = requireUsage(key, usage, algorithm.name);
  return cipherWith(algorithm, state, data, encrypt);
}

async function cipherWith(algorithm, state, data, encrypt) {
  if (algorithm.name === "RSA-OAEP") {
    if (algorithm.label !== undefined && bufferSource(algorithm.label, "encrypt").byteLength > 0) {
      throw new DOMException("RSA-OAEP labels are not supported", "NotSupportedError");
    }
    const [output] = await run(encrypt ? "rsaEncrypt" : "rsaDecrypt", state.algorithm.hash.name, 0, 0,
      [encrypt ? state.public : state.material, data]);
    return output;
  }
  const [operation, first, inputs] = cipherRequest(algorithm, data, encrypt);
  const [output] = await run(operation, "", first, 0, ArrayPrototypeConcat([state.material], inputs));
  return output;
}

async function encrypt(algorithm, key, data) {
  requireArguments(arguments, 3, "encrypt");
  return cipher(algorithm, key, data, true);
}

async function decrypt(algorithm, key, data) {
  requireArguments(arguments, 3, "decrypt");
  return cipher(algorithm, key, data, false);
}

// MARK: - deriveBits and deriveKey

async function deriveBitsWith(algorithm, state, length) {
  const { name } = algorithm;
  if (name === "ECDH" || name === "X25519") {
    const peer = algorithm.public;
    if (!isKey(peer)) throw new TypeError(`${name} needs the peer's public CryptoKey.`);
    const other = slots(peer);
    if (other.type !== "public") throw new DOMException("The peer's key must be a public key", "InvalidAccessError");
    if (other.algorithm.name !== name || (name === "ECDH" && other.algorithm.namedCurve !== state.algorithm.namedCurve)) {
      throw new DOMException("The peer's key is not of the same algorithm", "InvalidAccessError");
    }
    const [secret] = await run(name === "ECDH" ? "ecdhDerive" : "x25519Derive",
      name === "ECDH" ? state.algorithm.namedCurve : name, 0, 0, [state.material, other.public]);
    if (length === null) return secret;
    if (length > secret.byteLength * 8) {
      throw new DOMException("The length is longer than the derived secret", "OperationError");
    }
    const bytes = new Uint8Array(ArrayBufferPrototypeSlice(secret, 0, (length + 7) >> 3));
    if (length % 8 !== 0) bytes[bytes.length - 1] &= 0xff << (8 - (length % 8));
    return TypedArrayPrototypeGetBuffer(bytes);
  }
  if (length === null || length % 8 !== 0) {
    throw new DOMException("The length must be a multiple of 8", "OperationError");
  }
  requireHash(algorithm);
  if (algorithm.salt === undefined) throw new TypeError(`${name} needs a salt.`);
  const salt = bufferSource(algorithm.salt, "deriveBits");
  if (name === "PBKDF2") {
    if (algorithm.iterations === undefined) throw new TypeError("PBKDF2 needs iterations.");
    const iterations = +algorithm.iterations;
    if (!(iterations > 0)) throw new DOMException("PBKDF2's iterations must not be zero", "OperationError");
    if (length === 0) throw new DOMException("The length must not be zero", "OperationError");
    const [bits] = await run("pbkdf2", algorithm.hash, iterations, length, [state.material, salt], iterations > 1000);
    return bits;
  }
  if (algorithm.info === undefined) throw new TypeError("HKDF needs info.");
  const info = bufferSource(algorithm.info, "deriveBits");
  if (length === 0) return new ArrayBuffer(0);
  const [bits] = await run("hkdf", algorithm.hash, 0, length, [state.material, salt, info]);
  return bits;
}

async function deriveBits(algorithm, baseKey, length) {
  requireArguments(arguments, 2, "deriveBits");
  algorithm = normalize(algorithm, "deriveBits");
  // Web IDL's unsigned long (modulo 2^32), or null.
  length = length === undefined || length === null ? null : +length >>> 0;
  const state = requireUsage(baseKey, "deriveBits", algorithm.name);
  return deriveBitsWith(algorithm, state, length);
}

async function deriveKey(algorithm, baseKey, derivedKeyAlgorithm, extractable, usages) {
  requireArguments(arguments, 5, "deriveKey");
  algorithm = normalize(algorithm, "deriveBits");
  const target = normalize(derivedKeyAlgorithm, "derivedKey");
  const length = target.name === "HMAC" ? hmacLength(target) : aesLength(target);
  const state = requireUsage(baseKey, "deriveKey", algorithm.name);
  const bits = await deriveBitsWith(algorithm, state, length);
  return importNormalized("raw", bits, target, !!extractable, usages);
}

// MARK: - wrapKey and unwrapKey

async function wrapKey(format, key, wrappingKey, wrapAlgorithm) {
  requireArguments(arguments, 4, "wrapKey");
  format = checkFormat(format);
  wrapAlgorithm = normalize(wrapAlgorithm, "wrapKey");
  const wrapping = requireUsage(wrappingKey, "wrapKey", wrapAlgorithm.name);
  const state = slots(key);
  if (!state.extractable) throw new DOMException("The key is not extractable", "InvalidAccessError");
  let bytes = await exportSlots(format, state);
  if (format === "jwk") bytes = bufferSource(internal.utf8Encode(JSONStringify(bytes)), "wrapKey");
  if (wrapAlgorithm.name === "AES-KW") {
    const [wrapped] = await run("aesKwWrap", "", 0, 0, [wrapping.material, bytes]);
    return wrapped;
  }
  return cipherWith(wrapAlgorithm, wrapping, bytes, true);
}

async function unwrapKey(format, wrappedKey, unwrappingKey, unwrapAlgorithm, unwrappedKeyAlgorithm, extractable,
  usages) {
  requireArguments(arguments, 7, "unwrapKey");
  format = checkFormat(format);
  wrappedKey = bufferSource(wrappedKey, "unwrapKey");
  unwrapAlgorithm = normalize(unwrapAlgorithm, "wrapKey");
  const algorithm = normalize(unwrappedKeyAlgorithm, "importKey");
  const unwrapping = requireUsage(unwrappingKey, "unwrapKey", unwrapAlgorithm.name);
  let bytes;
  if (unwrapAlgorithm.name === "AES-KW") {
    [bytes] = await run("aesKwUnwrap", "", 0, 0, [unwrapping.material, wrappedKey]);
  } else {
    bytes = await cipherWith(unwrapAlgorithm, unwrapping, wrappedKey, false);
  }
  let keyData = bytes;
  if (format === "jwk") {
    try {
      keyData = JSONParse(internal.utf8Decode(new Uint8Array(bytes)));
    } catch {
      throw new DOMException("The unwrapped key is not a JWK", "DataError");
    }
  }
  return importNormalized(format, keyData, algorithm, !!extractable, usages);
}

// MARK: - digest

async function digest(algorithm, data) {
  requireArguments(arguments, 2, "digest");
  algorithm = normalize(algorithm, "digest");
  data = bufferSource(data, "digest");
  const [output] = await run("digest", algorithm.name, 0, 0, [data]);
  return output;
}

// MARK: - SubtleCrypto and Crypto

/// Web Crypto's SubtleCrypto: one instance, `crypto.subtle`.
class SubtleCrypto {
  constructor() {
    if (!constructing) throw new TypeError("Illegal constructor");
  }
}
const subtleMethods = {
  encrypt, decrypt, sign, verify, digest, generateKey, deriveKey, deriveBits, importKey, exportKey, wrapKey,
  unwrapKey,
};
for (const name in subtleMethods) {
  const method = subtleMethods[name];
  // Methods check their receiver like Web IDL operations (a rejected promise, as the others' errors).
  const wrapped = {
    [name](...args) {
      if (!(this instanceof SubtleCrypto)) return PromiseReject(new TypeError("Illegal invocation"));
      return ReflectApply(method, undefined, args);
    },
  }[name];
  ObjectDefineProperty(SubtleCrypto.prototype, name, { value: wrapped, writable: true, configurable: true });
}
ObjectDefineProperty(SubtleCrypto.prototype, SymbolToStringTag, { value: "SubtleCrypto", configurable: true });

const integerTypes = new SafeSet(["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
  "Int32Array", "Uint32Array", "BigInt64Array", "BigUint64Array"]);

/// Web Crypto's getRandomValues: integer typed arrays only, at most 65536 bytes.
function getRandomValues(array) {
  const tag = ArrayBuffer.isView(array) ? TypedArrayPrototypeGetSymbolToStringTag(array) : undefined;
  if (!integerTypes.has(tag)) {
    throw new DOMException("The data argument must be an integer-type TypedArray", "TypeMismatchError");
  }
  const length = TypedArrayPrototypeGetByteLength(array);
  if (length > 65536) {
    throw new DOMException(
      `The ArrayBufferView's byte length (${length}) exceeds the number of bytes of entropy available via this API (65536)`,
      "QuotaExceededError");
  }
  randomFill(TypedArrayPrototypeGetBuffer(array), TypedArrayPrototypeGetByteOffset(array), length);
  return array;
}

const hex = [];
for (let i = 0; i < 256; i++) ArrayPrototypePush(hex, (i < 16 ? "0" : "") + i.toString(16));

/// A version 4 UUID from 16 random bytes.
function randomUUID() {
  const b = new Uint8Array(16);
  randomFill(TypedArrayPrototypeGetBuffer(b), 0, 16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  return `${hex[b[0]]}${hex[b[1]]}${hex[b[2]]}${hex[b[3]]}-${hex[b[4]]}${hex[b[5]]}-${hex[b[6]]}${hex[b[7]]}-` +
    `${hex[b[8]]}${hex[b[9]]}-${hex[b[10]]}${hex[b[11]]}${hex[b[12]]}${hex[b[13]]}${hex[b[14]]}${hex[b[15]]}`;
}

/// Web Crypto's Crypto: one instance, the global `crypto`.
class Crypto {
  constructor() {
    if (!constructing) throw new TypeError("Illegal constructor");
  }

  get subtle() {
    if (!(this instanceof Crypto)) throw new TypeError("Illegal invocation");
    return subtle;
  }

  getRandomValues(array) {
    if (!(this instanceof Crypto)) throw new TypeError("Illegal invocation");
    if (arguments.length < 1) throw new TypeError("Failed to execute 'getRandomValues' on 'Crypto': 1 argument required.");
    return getRandomValues(array);
  }

  randomUUID() {
    if (!(this instanceof Crypto)) throw new TypeError("Illegal invocation");
    return randomUUID();
  }
}
ObjectDefineProperty(Crypto.prototype, SymbolToStringTag, { value: "Crypto", configurable: true });

constructing = true;
const subtle = new SubtleCrypto();
const crypto = new Crypto();
constructing = false;

internal.webcrypto = crypto;
internal.getRandomValues = getRandomValues;
internal.randomUUID = randomUUID;
internal.cryptoRunSync = runSync;
internal.defineGlobal("crypto", crypto);
internal.defineGlobal("Crypto", Crypto);
internal.defineGlobal("CryptoKey", CryptoKey);
internal.defineGlobal("SubtleCrypto", SubtleCrypto);
