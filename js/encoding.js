// encoding.js - TextEncoder / TextDecoder (UTF-8 only, per the WHATWG Encoding Standard), btoa / atob.
// Sets internal.utf8Encode(string) -> Uint8Array and internal.utf8Decode(bytes) -> string for later files.

const utf8Labels = new Set(['unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'utf-8', 'utf8', 'x-unicode20utf8']);
const CHUNK = 0x2000; // code units per String.fromCharCode call

/// UTF-8 bytes of a string; lone surrogates become U+FFFD.
function utf8Encode(str) {
  let length = 0;
  let ascii = true;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c < 0x80) length += 1;
    else {
      ascii = false;
      length += c < 0x800 ? 2 : 3;
      if (c >= 0xd800 && c <= 0xdbff && isTrail(str.charCodeAt(i + 1))) i++, length++;
    }
  }
  const bytes = new Uint8Array(length);
  if (ascii) {
    for (let i = 0; i < length; i++) bytes[i] = str.charCodeAt(i);
  } else {
    encodeInto(str, bytes);
  }
  return bytes;
}

const isTrail = (c) => c >= 0xdc00 && c <= 0xdfff;

// Encodes as much of `str` as fits into `dest` without splitting a character; returns { read, written }.
function encodeInto(str, dest) {
  let read = 0;
  let written = 0;
  const capacity = dest.length;
  while (read < str.length) {
    let cp = str.charCodeAt(read);
    let units = 1;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      const next = str.charCodeAt(read + 1);
      if (cp <= 0xdbff && isTrail(next)) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
        units = 2;
      } else {
        cp = 0xfffd;
      }
    }
    const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (written + size > capacity) break;
    if (size === 1) dest[written] = cp;
    else {
      const lead = [0, 0, 0xc0, 0xe0, 0xf0][size];
      dest[written] = lead | (cp >> (6 * (size - 1)));
      for (let k = 1; k < size; k++) dest[written + k] = 0x80 | ((cp >> (6 * (size - 1 - k))) & 0x3f);
    }
    written += size;
    read += units;
  }
  return { read, written };
}

class TextEncoder {
  get encoding() {
    return 'utf-8';
  }

  /// UTF-8 bytes of `input` (default '').
  encode(input = '') {
    return utf8Encode(`${input}`);
  }

  /// Writes UTF-8 of `source` into the Uint8Array `destination`.
  encodeInto(source, destination) {
    if (!(destination instanceof Uint8Array)) throw new TypeError('The "dest" argument must be an instance of Uint8Array.');
    return encodeInto(`${source}`, destination);
  }

  get [Symbol.toStringTag]() {
    return 'TextEncoder';
  }
}

function toBytes(input) {
  if (input === undefined) return new Uint8Array(0);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (isArrayBuffer(input)) return new Uint8Array(input);
  throw new TypeError('The "input" argument must be an instance of ArrayBuffer or ArrayBufferView.');
}

const bufferByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
const sharedByteLength = typeof SharedArrayBuffer === 'function' ? Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, 'byteLength').get : undefined;

function isArrayBuffer(value) {
  for (const getter of [bufferByteLength, sharedByteLength]) {
    try {
      if (getter !== undefined) return getter.call(value), true;
    } catch {}
  }
  return false;
}

// A streaming UTF-8 decoder following the WHATWG algorithm (maximal subparts become U+FFFD).
class Utf8Decoder {
  constructor(fatal) {
    this.fatal = fatal;
    this.reset();
  }

  reset() {
    this.codePoint = 0;
    this.needed = 0;
    this.seen = 0;
    this.lower = 0x80;
    this.upper = 0xbf;
  }

  // Returns the decoded text of `bytes`; with `flush`, an unfinished sequence at the end is an error.
  decode(bytes, flush) {
    const units = [];
    let text = '';
    const emit = (cp) => {
      if (cp > 0xffff) {
        cp -= 0x10000;
        units.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
      } else units.push(cp);
      if (units.length >= CHUNK) text += String.fromCharCode.apply(null, units.splice(0));
    };
    const error = () => {
      if (this.fatal) {
        this.reset();
        throw new TypeError('The encoded data was not valid for encoding utf-8');
      }
      emit(0xfffd);
    };
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      if (this.needed === 0) {
        if (byte < 0x80) {
          let end = i + 1;
          while (end < bytes.length && bytes[end] < 0x80 && end - i < CHUNK) end++;
          if (units.length > 0) text += String.fromCharCode.apply(null, units.splice(0));
          text += String.fromCharCode.apply(null, bytes.subarray(i, end));
          i = end - 1;
        } else if (byte >= 0xc2 && byte <= 0xdf) {
          this.needed = 1;
          this.codePoint = byte & 0x1f;
        } else if (byte >= 0xe0 && byte <= 0xef) {
          if (byte === 0xe0) this.lower = 0xa0;
          if (byte === 0xed) this.upper = 0x9f;
          this.needed = 2;
          this.codePoint = byte & 0xf;
        } else if (byte >= 0xf0 && byte <= 0xf4) {
          if (byte === 0xf0) this.lower = 0x90;
          if (byte === 0xf4) this.upper = 0x8f;
          this.needed = 3;
          this.codePoint = byte & 0x7;
        } else error();
        continue;
      }
      if (byte < this.lower || byte > this.upper) {
        this.reset();
        error();
        i--; // reprocess this byte as the start of a new sequence
        continue;
      }
      this.lower = 0x80;
      this.upper = 0xbf;
      this.codePoint = (this.codePoint << 6) | (byte & 0x3f);
      if (++this.seen === this.needed) {
        const cp = this.codePoint;
        this.reset();
        emit(cp);
      }
    }
    if (flush && this.needed !== 0) {
      this.reset();
      error();
    }
    return text + String.fromCharCode.apply(null, units);
  }
}

class TextDecoder {
  #decoder;
  #ignoreBOM;
  #bomChecked = false;
  #streaming = false;

  constructor(label = 'utf-8', options = {}) {
    if (!utf8Labels.has(`${label}`.trim().toLowerCase())) {
      throw new RangeError(`The "${label}" encoding is not supported`);
    }
    this.#decoder = new Utf8Decoder(Boolean(options?.fatal));
    this.#ignoreBOM = Boolean(options?.ignoreBOM);
  }

  get encoding() {
    return 'utf-8';
  }

  get fatal() {
    return this.#decoder.fatal;
  }

  get ignoreBOM() {
    return this.#ignoreBOM;
  }

  /// Decodes `input` (ArrayBuffer or view); with `{ stream: true }` an incomplete sequence is kept for the next call.
  decode(input, options = {}) {
    const bytes = toBytes(input);
    if (!this.#streaming) {
      this.#decoder.reset();
      this.#bomChecked = false;
    }
    this.#streaming = Boolean(options?.stream);
    let text;
    try {
      text = this.#decoder.decode(bytes, !this.#streaming);
    } catch (e) {
      this.#streaming = false;
      throw e;
    }
    if (!this.#bomChecked && text.length > 0) {
      this.#bomChecked = true;
      if (!this.#ignoreBOM && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    return text;
  }

  get [Symbol.toStringTag]() {
    return 'TextDecoder';
  }
}

function invalidCharacter(message) {
  // DOMException comes from events.js, which loads later; errors are only created at call time.
  return new internal.DOMException(message, 'InvalidCharacterError');
}

const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const base64Values = new Map(Array.from(base64Alphabet, (c, i) => [c, i]));

/// Base64 of a Latin-1 string; characters above U+00FF throw InvalidCharacterError.
function btoa(data) {
  if (arguments.length === 0) throw new TypeError('The "data" argument must be specified');
  const str = `${data}`;
  if (/[^\x00-\xff]/.test(str)) throw invalidCharacter('Invalid character');
  let out = '';
  for (let i = 0; i < str.length; i += 3) {
    const n = (str.charCodeAt(i) << 16) | ((str.charCodeAt(i + 1) || 0) << 8) | (str.charCodeAt(i + 2) || 0);
    const count = Math.min(3, str.length - i);
    for (let k = 0; k < 4; k++) out += k <= count ? base64Alphabet[(n >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

/// Latin-1 string decoded from forgiving base64; invalid input throws InvalidCharacterError.
function atob(data) {
  if (arguments.length === 0) throw new TypeError('The "data" argument must be specified');
  let str = `${data}`.replace(/[\t\n\f\r ]/g, '');
  if (str.length % 4 === 0) str = str.replace(/==?$/, '');
  if (str.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(str)) {
    throw invalidCharacter('The string to be decoded is not correctly encoded.');
  }
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const c of str) {
    buffer = (buffer << 6) | base64Values.get(c);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((buffer >> bits) & 0xff);
    }
  }
  return out;
}

internal.utf8Encode = utf8Encode;
internal.utf8Decode = (bytes) => new Utf8Decoder(false).decode(bytes, true);
internal.defineGlobal('TextEncoder', TextEncoder);
internal.defineGlobal('TextDecoder', TextDecoder);
internal.defineGlobal('btoa', btoa);
internal.defineGlobal('atob', atob);
