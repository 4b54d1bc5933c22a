// `crypto.createHash` and `crypto.createHmac` for md5, sha1 and sha256, in JavaScript (the digests packages
// use for ids and cache keys: uuid v3/v5, content hashes). Sets internal.createHash / internal.createHmac.

const {
  ArrayPrototypePush, MathAbs, MathFloor, MathMin, MathSqrt, MethodEvery, MethodToLowerCase,
} = internal.primordials;
const { invalidArgType, make } = internal.nodeErrors;
const { Buffer } = internal.nodeBuiltin("buffer");

const W = new Int32Array(80); // message schedule, shared (hashing never re-enters)

// MARK: - SHA-256

const sha256K = new Int32Array(64);
const sha256Init = new Int32Array(8);
{
  // The constants are the fractional parts of the primes' cube roots (K) and square roots (initial state).
  const primes = [];
  for (let n = 2; primes.length < 64; n++) if (MethodEvery(primes, (p) => n % p !== 0)) ArrayPrototypePush(primes, n);
  const fraction = (x) => MathFloor((x - MathFloor(x)) * 2 ** 32) | 0;
  for (let i = 0; i < 64; i++) sha256K[i] = fraction(Math.cbrt(primes[i]));
  for (let i = 0; i < 8; i++) sha256Init[i] = fraction(MathSqrt(primes[i]));
}

function sha256Compress(state, bytes, offset) {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    W[i] = (bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3];
  }
  for (let i = 16; i < 64; i++) {
    const a = W[i - 15], b = W[i - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
  }
  let [a, b, c, d, e, f, g, h] = state;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + sha256K[i] + W[i]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
  }
  state[0] += a; state[1] += b; state[2] += c; state[3] += d;
  state[4] += e; state[5] += f; state[6] += g; state[7] += h;
}

// MARK: - SHA-1

function sha1Compress(state, bytes, offset) {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    W[i] = (bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3];
  }
  for (let i = 16; i < 80; i++) {
    const x = W[i - 3] ^ W[i - 8] ^ W[i - 14] ^ W[i - 16];
    W[i] = (x << 1) | (x >>> 31);
  }
  let [a, b, c, d, e] = state;
  for (let i = 0; i < 80; i++) {
    let f, k;
    if (i < 20) { f = (b & c) | (~b & d); k = 0x5a827999; }
    else if (i < 40) { f = b ^ c ^ d; k = 0x6ed9eba1; }
    else if (i < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8f1bbcdc | 0; }
    else { f = b ^ c ^ d; k = 0xca62c1d6 | 0; }
    const t = (((a << 5) | (a >>> 27)) + f + e + k + W[i]) | 0;
    e = d; d = c; c = (b << 30) | (b >>> 2); b = a; a = t;
  }
  state[0] += a; state[1] += b; state[2] += c; state[3] += d; state[4] += e;
}

// MARK: - MD5

const md5K = new Int32Array(64);
for (let i = 0; i < 64; i++) md5K[i] = MathFloor(MathAbs(Math.sin(i + 1)) * 2 ** 32) | 0;
const md5Shifts = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];

function md5Compress(state, bytes, offset) {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    W[i] = bytes[j] | (bytes[j + 1] << 8) | (bytes[j + 2] << 16) | (bytes[j + 3] << 24);
  }
  let [a, b, c, d] = state;
  for (let i = 0; i < 64; i++) {
    let f, g;
    const round = i >> 4;
    if (round === 0) { f = (b & c) | (~b & d); g = i; }
    else if (round === 1) { f = (d & b) | (~d & c); g = (5 * i + 1) & 15; }
    else if (round === 2) { f = b ^ c ^ d; g = (3 * i + 5) & 15; }
    else { f = c ^ (b | ~d); g = (7 * i) & 15; }
    const s = md5Shifts[(round << 2) | (i & 3)];
    const x = (a + f + md5K[i] + W[g]) | 0;
    a = d; d = c; c = b;
    b = (b + ((x << s) | (x >>> (32 - s)))) | 0;
  }
  state[0] += a; state[1] += b; state[2] += c; state[3] += d;
}

const algorithms = {
  sha256: { init: () => Int32Array.from(sha256Init), compress: sha256Compress, bigEndian: true, size: 32 },
  sha1: {
    init: () => Int32Array.from([0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476, 0xc3d2e1f0 | 0]),
    compress: sha1Compress, bigEndian: true, size: 20,
  },
  md5: {
    init: () => Int32Array.from([0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476]),
    compress: md5Compress, bigEndian: false, size: 16,
  },
};
const aliases = { "sha-256": "sha256", "sha-1": "sha1", "rsa-sha256": "sha256", "rsa-sha1": "sha1", "rsa-md5": "md5" };

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

class Hash {
  constructor(algorithm) {
    this._algorithm = typeof algorithm === "object" ? algorithm : findAlgorithm(algorithm);
    this._state = this._algorithm.init();
    this._block = new Uint8Array(64);
    this._blockLength = 0;
    this._length = 0;
    this._finished = false;
  }

  /// Adds `data` (a string in `encoding`, default utf8, or bytes); returns this.
  update(data, encoding) {
    if (this._finished) throw make(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
    const bytes = toBytes(data, encoding);
    const { compress } = this._algorithm;
    let offset = 0;
    this._length += bytes.length;
    if (this._blockLength > 0) {
      const take = MathMin(64 - this._blockLength, bytes.length);
      this._block.set(bytes.subarray(0, take), this._blockLength);
      this._blockLength += take;
      offset = take;
      if (this._blockLength < 64) return this;
      compress(this._state, this._block, 0);
      this._blockLength = 0;
    }
    for (; offset + 64 <= bytes.length; offset += 64) compress(this._state, bytes, offset);
    if (offset < bytes.length) {
      this._block.set(bytes.subarray(offset), 0);
      this._blockLength = bytes.length - offset;
    }
    return this;
  }

  /// The digest, as a Buffer or a string in `encoding` (hex, base64, base64url, latin1); once only.
  digest(encoding) {
    if (this._finished) throw make(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
    this._finished = true;
    const { compress, bigEndian, size } = this._algorithm;
    const block = this._block;
    let used = this._blockLength;
    block[used++] = 0x80;
    if (used > 56) {
      block.fill(0, used);
      compress(this._state, block, 0);
      used = 0;
    }
    block.fill(0, used);
    // The message length in bits, as a 64-bit integer.
    const bits = this._length * 8;
    const high = MathFloor(bits / 2 ** 32), low = bits >>> 0;
    for (let i = 0; i < 4; i++) {
      if (bigEndian) {
        block[56 + i] = (high >>> (24 - 8 * i)) & 255;
        block[60 + i] = (low >>> (24 - 8 * i)) & 255;
      } else {
        block[56 + i] = (low >>> (8 * i)) & 255;
        block[60 + i] = (high >>> (8 * i)) & 255;
      }
    }
    compress(this._state, block, 0);
    const out = Buffer.alloc(size);
    for (let i = 0; i < size / 4; i++) {
      const word = this._state[i];
      for (let k = 0; k < 4; k++) out[i * 4 + k] = bigEndian ? (word >>> (24 - 8 * k)) & 255 : (word >>> (8 * k)) & 255;
    }
    return encoding === undefined || encoding === "buffer" ? out : out.toString(encoding);
  }

  copy() {
    if (this._finished) throw make(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
    const copy = new Hash(this._algorithm);
    copy._state = Int32Array.from(this._state);
    copy._block = Uint8Array.from(this._block);
    copy._blockLength = this._blockLength;
    copy._length = this._length;
    return copy;
  }
}

/// HMAC (RFC 2104) over one of the hashes above.
class Hmac {
  constructor(algorithm, key) {
    const found = findAlgorithm(algorithm);
    let keyBytes = typeof key === "string" ? Buffer.from(key) : toBytes(key);
    if (keyBytes.length > 64) keyBytes = new Hash(found).update(keyBytes).digest();
    const inner = new Uint8Array(64), outer = new Uint8Array(64);
    for (let i = 0; i < 64; i++) {
      const byte = i < keyBytes.length ? keyBytes[i] : 0;
      inner[i] = byte ^ 0x36;
      outer[i] = byte ^ 0x5c;
    }
    this._inner = new Hash(found).update(inner);
    this._outer = new Hash(found).update(outer);
  }

  update(data, encoding) {
    this._inner.update(data, encoding);
    return this;
  }

  digest(encoding) {
    return this._outer.update(this._inner.digest()).digest(encoding);
  }
}

internal.createHash = (algorithm) => new Hash(algorithm);
internal.createHmac = (algorithm, key) => new Hmac(algorithm, key);
internal.hashNames = ["md5", "sha1", "sha256"];
internal.Hash = Hash;
internal.Hmac = Hmac;
