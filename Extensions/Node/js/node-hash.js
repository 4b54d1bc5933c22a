// `crypto.createHash` and `crypto.createHmac` for md5, sha1, sha256, sha384 and sha512 (the digests packages use
// for ids, cache keys and request signing: uuid v3/v5, content hashes, AWS SigV4). The bytes are collected in
// JavaScript and hashed in one native call at `digest()` (swift-crypto, through web's crypto.js:
// internal.cryptoRunSync). Sets internal.createHash / internal.createHmac.

const { ArrayPrototypePush, MethodToLowerCase, ObjectKeys } = internal.primordials;
const { invalidArgType, make } = internal.nodeErrors;
const { Buffer } = internal.nodeBuiltin("buffer");

// Node's names (lower case) -> the native's.
const algorithms = { md5: "MD5", sha1: "SHA-1", sha256: "SHA-256", sha384: "SHA-384", sha512: "SHA-512" };
const aliases = {
  "sha-1": "sha1", "sha-256": "sha256", "sha-384": "sha384", "sha-512": "sha512", "rsa-sha256": "sha256",
  "rsa-sha1": "sha1", "rsa-md5": "md5", "rsa-sha384": "sha384", "rsa-sha512": "sha512",
};

function findAlgorithm(name) {
  if (typeof name !== "string") throw invalidArgType("algorithm", "string", name);
  const key = MethodToLowerCase(name);
  const algorithm = algorithms[aliases[key] ?? key];
  if (algorithm === undefined) throw make(Error, "ERR_CRYPTO_INVALID_DIGEST", "Digest method not supported");
  return algorithm;
}

function toBytes(data, encoding) {
  if (typeof data === "string") return Buffer.from(data, encoding);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw invalidArgType("data", ["string", "Buffer", "TypedArray", "DataView"], data);
}

/// The chunks as one ArrayBuffer (a copy: the caller may reuse its buffers after update()).
function joined(chunks, length) {
  const out = new Uint8Array(length);
  let offset = 0;
  for (let i = 0; i < chunks.length; i++) {
    out.set(chunks[i], offset);
    offset += chunks[i].length;
  }
  return out.buffer;
}

function output(buffer, encoding) {
  const out = Buffer.from(buffer);
  return encoding === undefined || encoding === "buffer" ? out : out.toString(encoding);
}

class Hash {
  constructor(algorithm) {
    this._algorithm = findAlgorithm(algorithm);
    this._chunks = [];
    this._length = 0;
    this._finished = false;
  }

  /// Adds `data` (a string in `encoding`, default utf8, or bytes); returns this.
  update(data, encoding) {
    if (this._finished) throw make(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
    const bytes = toBytes(data, encoding);
    ArrayPrototypePush(this._chunks, Uint8Array.from(bytes));
    this._length += bytes.length;
    return this;
  }

  /// The digest, as a Buffer or a string in `encoding` (hex, base64, base64url, latin1); once only.
  digest(encoding) {
    if (this._finished) throw make(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
    this._finished = true;
    const [digest] = internal.cryptoRunSync("digest", this._algorithm, 0, 0, [joined(this._chunks, this._length)]);
    this._chunks = [];
    return output(digest, encoding);
  }

  copy() {
    if (this._finished) throw make(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
    const copy = new Hash("sha256");
    copy._algorithm = this._algorithm;
    copy._chunks = [Uint8Array.from(new Uint8Array(joined(this._chunks, this._length)))];
    copy._length = this._length;
    return copy;
  }
}

/// HMAC (RFC 2104) over one of the hashes above.
class Hmac {
  constructor(algorithm, key) {
    this._hash = new Hash(algorithm);
    const bytes = typeof key === "string" ? Buffer.from(key) : toBytes(key);
    this._key = joined([bytes], bytes.length);
  }

  update(data, encoding) {
    this._hash.update(data, encoding);
    return this;
  }

  digest(encoding) {
    const hash = this._hash;
    if (hash._finished) throw make(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
    hash._finished = true;
    const [mac] = internal.cryptoRunSync("hmacSign", hash._algorithm, 0, 0, [this._key, joined(hash._chunks, hash._length)]);
    return output(mac, encoding);
  }
}

internal.createHash = (algorithm) => new Hash(algorithm);
internal.createHmac = (algorithm, key) => new Hmac(algorithm, key);
internal.hashNames = ObjectKeys(algorithms);
internal.Hash = Hash;
internal.Hmac = Hmac;
