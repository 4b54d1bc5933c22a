// `node:buffer` and the global `Buffer`: a Uint8Array subclass with Node's API. UTF-8 goes through the web
// extension's natives (textEncodeUTF8, textEncodeInto, textDecodeUTF8, textBase64Encode/Decode: the one UTF-8 and
// base64 codecs), latin1, UTF-16LE and hex through Buffer's own (NodeNatives.swift).
// As in Node, `Buffer.prototype` is the prototype of a plain Uint8Array subclass (`FastBuffer`), so
// `new FastBuffer(...)` makes Buffers and `instanceof Buffer` holds for them.

const {
  ArrayIsArray, ArrayPrototypePush, Error, FunctionPrototypeCall, MathFloor, MathMax, MathMin, MethodIncludes,
  MethodIndexOf, MethodReplace, MethodSlice, NumberIsInteger, NumberPrototypeToString, ObjectAssign, ObjectCreate,
  ObjectDefineProperty, ObjectGetPrototypeOf, ObjectKeys, ObjectSetPrototypeOf, RangeError, ReflectApply, String,
  StringFromCharCode, StringPrototypeCharCodeAt, StringPrototypeToLowerCase, TypeError, TypedArrayPrototypeFill,
  TypedArrayPrototypeIndexOf, TypedArrayPrototypeLastIndexOf, TypedArrayPrototypeSet,
} = internal.primordials;
const { invalidArgType, invalidArgValue, outOfRange, make } = internal.nodeErrors;
const {
  textEncodeUTF8, textEncodeInto, textDecodeUTF8, textBase64Encode, textBase64Decode, bufferLatin1Encode,
  bufferUTF16LEEncode, bufferHexDecode,
} = internal;

const kMaxLength = 2 ** 32;
/// The longest string the engine makes (JavaScriptCore's `String::MaxLength`; Node reports V8's): a decode that
/// could give a longer one throws `ERR_STRING_TOO_LONG` before it starts.
const kStringMaxLength = 2 ** 31 - 1;
const INSPECT_MAX_BYTES = 50;
const TypedArrayPrototype = ObjectGetPrototypeOf(Uint8Array.prototype);

class FastBuffer extends Uint8Array {
  constructor(bufferOrLength, byteOffset, length) {
    super(bufferOrLength, byteOffset, length);
  }
}

// MARK: - Encodings

const encodings = {
  "utf8": "utf8", "utf-8": "utf8", "hex": "hex", "base64": "base64", "base64url": "base64url", "latin1": "latin1",
  "binary": "latin1", "ascii": "ascii", "utf16le": "utf16le", "utf-16le": "utf16le", "ucs2": "utf16le",
  "ucs-2": "utf16le",
};

/// The canonical name of `encoding` (default utf8); ERR_UNKNOWN_ENCODING for others.
function normalizeEncoding(encoding) {
  if (encoding === undefined || encoding === null || encoding === "utf8" || encoding === "") return "utf8";
  const known = encodings[encoding] ?? (typeof encoding === "string" ? encodings[StringPrototypeToLowerCase(encoding)] : undefined);
  if (known === undefined) throw make(TypeError, "ERR_UNKNOWN_ENCODING", `Unknown encoding: ${encoding}`);
  return known;
}

const hexDigits = [];
for (let i = 0; i < 256; i++) ArrayPrototypePush(hexDigits, (i < 16 ? "0" : "") + NumberPrototypeToString(i, 16));

const ASCII_CODES = ObjectCreate(null);
for (let code = 0; code < 128; code++) ASCII_CODES[StringFromCharCode(code)] = code;

/// The bytes of `string` in `encoding`, as a Buffer.
function encode(string, encoding) {
  switch (encoding) {
    case "utf8": {
      // Short ASCII strings stay in JavaScript: a native call costs more than the loop. `ASCII_CODES[ch]`
      // reads a code unit without calling a built-in (an uncurried `charCodeAt` costs more than the call).
      if (string.length <= SHORT) {
        const bytes = new FastBuffer(string.length);
        let i = 0;
        for (; i < string.length; i++) {
          const code = ASCII_CODES[string[i]];
          if (code === undefined) break;
          bytes[i] = code;
        }
        if (i === string.length) return bytes;
      }
      return new FastBuffer(textEncodeUTF8(string));
    }
    case "base64": case "base64url": return new FastBuffer(textBase64Decode(string));
    case "hex": return new FastBuffer(bufferHexDecode(string));
    case "utf16le": return new FastBuffer(bufferUTF16LEEncode(string));
    default: return new FastBuffer(bufferLatin1Encode(string)); // latin1, ascii
  }
}

/// The most UTF-16 code units decoding `length` bytes from `encoding` gives.
function decodedUnits(encoding, length) {
  switch (encoding) {
    case "hex": return length * 2;
    case "base64": case "base64url": return MathFloor((length + 2) / 3) * 4;
    case "utf16le": return MathFloor(length / 2);
    default: return length;
  }
}

/// `bytes[start..<end]` decoded from `encoding`; `ERR_STRING_TOO_LONG` (a RangeError) up front when the string
/// could be longer than the engine makes them.
function decode(bytes, encoding, start, end) {
  const units = decodedUnits(encoding, end - start);
  if (units > kStringMaxLength) {
    throw make(RangeError, "ERR_STRING_TOO_LONG", `Cannot create a string longer than 0x${NumberPrototypeToString(kStringMaxLength, 16)} characters`);
  }
  switch (encoding) {
    case "utf8": return utf8Slice(bytes, start, end);
    case "base64": return textBase64Encode(bytes.buffer, bytes.byteOffset + start, end - start, false);
    case "base64url": return textBase64Encode(bytes.buffer, bytes.byteOffset + start, end - start, true);
    case "hex": {
      let text = "";
      for (let i = start; i < end; i++) text += hexDigits[bytes[i]];
      return text;
    }
    case "utf16le": {
      let text = "";
      for (let i = start; i + 1 < end; i += 2) text += StringFromCharCode(bytes[i] | (bytes[i + 1] << 8));
      return text;
    }
    case "ascii": case "latin1": {
      let text = "";
      for (let i = start; i < end; i += 4096) {
        const chunk = new Uint8Array(bytes.buffer, bytes.byteOffset + i, MathMin(4096, end - i));
        text += encoding === "ascii" ? asciiChunk(chunk) : ReflectApply(StringFromCharCode, null, chunk);
      }
      return text;
    }
  }
}

/// Strings up to this length are encoded and decoded in JavaScript when they are ASCII.
const SHORT = 32;

function utf8Slice(bytes, start, end) {
  if (end - start <= SHORT) {
    let text = "";
    let i = start;
    for (; i < end && bytes[i] < 0x80; i++) text += StringFromCharCode(bytes[i]);
    if (i === end) return text;
  }
  return textDecodeUTF8(bytes.buffer, bytes.byteOffset + start, end - start, false);
}

function asciiChunk(chunk) {
  const codes = new Uint8Array(chunk.length);
  for (let k = 0; k < chunk.length; k++) codes[k] = chunk[k] & 0x7f;
  return ReflectApply(StringFromCharCode, null, codes);
}

function utf8Length(string) {
  // Code units compared as one-unit strings: operators only (no call per character; see ASCII_CODES).
  let length = 0;
  for (let i = 0; i < string.length; i++) {
    const c = string[i];
    if (c < "\u0080") length += 1;
    else if (c < "\u0800") length += 2;
    else if (c >= "\uD800" && c <= "\uDBFF" && i + 1 < string.length) {
      const next = string[i + 1];
      if (next >= "\uDC00" && next <= "\uDFFF") {
        length += 4;
        i++;
      } else {
        length += 3;
      }
    } else length += 3;
  }
  return length;
}

function base64Length(string) {
  let length = string.length;
  while (length > 0 && string[length - 1] === "=") length--;
  return (length * 3) >>> 2;
}

function byteLength(value, encoding) {
  if (typeof value !== "string") {
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || (typeof SharedArrayBuffer === "function" && value instanceof SharedArrayBuffer)) {
      return value.byteLength;
    }
    throw invalidArgType("string", ["string", "Buffer", "ArrayBuffer"], value);
  }
  switch (normalizeEncodingLoose(encoding)) {
    case "utf8": return utf8Length(value);
    case "utf16le": return value.length * 2;
    case "base64": case "base64url": return base64Length(value);
    case "hex": return value.length >>> 1;
    default: return value.length;
  }
}

/// As normalizeEncoding, but an unknown encoding means utf8 (Buffer.byteLength's rule).
function normalizeEncodingLoose(encoding) {
  try {
    return normalizeEncoding(encoding);
  } catch {
    return "utf8";
  }
}

// MARK: - Constructors

function Buffer(arg, encodingOrOffset, length) {
  if (typeof arg === "number") {
    if (typeof encodingOrOffset === "string") {
      throw invalidArgType("string", "string", arg);
    }
    return alloc(arg);
  }
  return from(arg, encodingOrOffset, length);
}
Buffer.prototype = FastBuffer.prototype;
ObjectDefineProperty(FastBuffer.prototype, "constructor", { value: Buffer, writable: true, configurable: true });
ObjectSetPrototypeOf(Buffer, Uint8Array);

function checkSize(size) {
  if (typeof size !== "number") throw invalidArgType("size", "number", size);
  if (!(size >= 0 && size <= kMaxLength)) throw outOfRange("size", `>= 0 && <= ${kMaxLength}`, size);
}

function alloc(size, fill, encoding) {
  checkSize(size);
  /** @type {any} */
  const buffer = new FastBuffer(MathFloor(size));
  if (fill !== undefined && fill !== 0 && size > 0) buffer.fill(fill, 0, buffer.length, encoding);
  return buffer;
}

function allocUnsafe(size) {
  checkSize(size);
  return new FastBuffer(MathFloor(size));
}

function from(value, encodingOrOffset, length) {
  if (typeof value === "string") return encode(value, normalizeEncoding(encodingOrOffset));
  if (typeof value === "object" && value !== null) {
    if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer === "function" && value instanceof SharedArrayBuffer)) {
      const offset = encodingOrOffset === undefined ? 0 : +encodingOrOffset || 0;
      if (offset > value.byteLength) throw make(RangeError, "ERR_BUFFER_OUT_OF_BOUNDS", '"offset" is outside of buffer bounds');
      const max = value.byteLength - offset;
      const count = length === undefined ? max : +length || 0;
      if (count > max) throw make(RangeError, "ERR_BUFFER_OUT_OF_BOUNDS", '"length" is outside of buffer bounds');
      return new FastBuffer(value, offset, count);
    }
    if (ArrayBuffer.isView(value)) {
      if (value instanceof Uint8Array) {
        const copy = new FastBuffer(value.length);
        TypedArrayPrototypeSet(copy, value);
        return copy;
      }
      // Other views copy their elements (each truncated to a byte), as Node.
      const copy = new FastBuffer(/** @type {any} */ (value).length);
      for (let i = 0; i < /** @type {any} */ (value).length; i++) copy[i] = value[i];
      return copy;
    }
    const primitive = value.valueOf?.();
    if (primitive !== undefined && primitive !== null && primitive !== value) return from(primitive, encodingOrOffset, length);
    if (typeof value.length === "number" || ArrayIsArray(value)) return fromArrayLike(value);
    if (value.type === "Buffer" && ArrayIsArray(value.data)) return fromArrayLike(value.data);
    if (typeof value[Symbol.toPrimitive] === "function") {
      const text = value[Symbol.toPrimitive]("string");
      if (typeof text === "string") return from(text, encodingOrOffset);
    }
  }
  const error = invalidArgType("x", "string", value);
  error.message = "The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an " +
    `Array-like Object.${MethodSlice(error.message, MethodIndexOf(error.message, " Received"))}`;
  throw error;
}

function fromArrayLike(array) {
  const length = array.length > 0 ? array.length >>> 0 : 0;
  const buffer = new FastBuffer(length);
  for (let i = 0; i < length; i++) buffer[i] = array[i];
  return buffer;
}

function isBuffer(value) {
  return value instanceof Buffer;
}

function checkBytes(value, name) {
  if (!(value instanceof Uint8Array)) throw invalidArgType(name, ["Buffer", "Uint8Array"], value);
}

function compareBytes(a, aStart, aEnd, b, bStart, bEnd) {
  const length = MathMin(aEnd - aStart, bEnd - bStart);
  for (let i = 0; i < length; i++) {
    const x = a[aStart + i], y = b[bStart + i];
    if (x !== y) return x < y ? -1 : 1;
  }
  const aLength = aEnd - aStart, bLength = bEnd - bStart;
  return aLength < bLength ? -1 : aLength > bLength ? 1 : 0;
}

function concat(list, totalLength) {
  if (!ArrayIsArray(list)) throw invalidArgType("list", "Array", list);
  if (list.length === 0) return new FastBuffer(0);
  if (totalLength === undefined) {
    totalLength = 0;
    for (let i = 0; i < list.length; i++) {
      if (!(list[i] instanceof Uint8Array)) throw invalidArgType(`list[${i}]`, ["Buffer", "Uint8Array"], list[i]);
      totalLength += list[i].length;
    }
  } else if (typeof totalLength !== "number") {
    throw invalidArgType("length", "number", totalLength);
  }
  const result = new FastBuffer(totalLength);
  let position = 0;
  for (let i = 0; i < list.length && position < totalLength; i++) {
    const item = list[i];
    if (!(item instanceof Uint8Array)) throw invalidArgType(`list[${i}]`, ["Buffer", "Uint8Array"], item);
    const part = item.length <= totalLength - position ? item : item.subarray(0, totalLength - position);
    TypedArrayPrototypeSet(result, part, position);
    position += part.length;
  }
  return result;
}

ObjectAssign(Buffer, {
  from, alloc, allocUnsafe, allocUnsafeSlow: allocUnsafe, isBuffer, byteLength, concat,
  compare(a, b) {
    checkBytes(a, "buf1");
    checkBytes(b, "buf2");
    return compareBytes(a, 0, a.length, b, 0, b.length);
  },
  isEncoding(encoding) {
    return typeof encoding === "string" && encoding !== "" && (encodings[StringPrototypeToLowerCase(encoding)] !== undefined);
  },
  /** @param {ArrayBufferView & ArrayLike<number> & { BYTES_PER_ELEMENT?: number }} view a TypedArray */
  copyBytesFrom(view, offset = 0, length) {
    if (!ArrayBuffer.isView(view)) throw invalidArgType("view", "TypedArray", view);
    const size = view.BYTES_PER_ELEMENT ?? 1;
    const end = length === undefined ? view.length : MathMin(view.length, offset + length);
    const bytes = new Uint8Array(view.buffer, view.byteOffset + offset * size, MathMax(0, end - offset) * size);
    return from(bytes);
  },
  poolSize: 8192,
});

// MARK: - Instance methods

/** @type {any} */
const proto = FastBuffer.prototype;

/// Clamps a start/end argument as Node's toString/slice do.
function clampIndex(value, length, fallback) {
  if (value === undefined) return fallback;
  value = +value;
  if (value !== value) return 0;
  if (value < 0) return MathMax(length + value, 0);
  return MathMin(MathFloor(value), length);
}

proto.toString = function toString(encoding, start, end) {
  if (arguments.length === 0) return decode(this, "utf8", 0, this.length);
  const length = this.length;
  start = start === undefined || start < 0 ? 0 : MathMin(MathFloor(+start) || 0, length);
  end = end === undefined || end > length ? length : MathFloor(+end) || 0;
  if (end <= start) return "";
  return decode(this, normalizeEncoding(encoding), start, end);
};
proto.toLocaleString = proto.toString;

proto.toJSON = function toJSON() {
  const data = new Array(this.length);
  for (let i = 0; i < this.length; i++) data[i] = this[i];
  return { type: "Buffer", data };
};

proto.equals = function equals(other) {
  checkBytes(other, "otherBuffer");
  if (this === other) return true;
  return this.length === other.length && compareBytes(this, 0, this.length, other, 0, other.length) === 0;
};

proto.compare = function compare(target, targetStart = 0, targetEnd = target?.length, sourceStart = 0, sourceEnd = this.length) {
  checkBytes(target, "target");
  for (const [name, value, max] of [["targetStart", targetStart, target.length], ["targetEnd", targetEnd, target.length],
    ["sourceStart", sourceStart, this.length], ["sourceEnd", sourceEnd, this.length]]) {
    if (typeof value !== "number") throw invalidArgType(name, "number", value);
    if (value < 0 || value > max) throw outOfRange(name, `>= 0 && <= ${max}`, value);
  }
  if (sourceStart >= sourceEnd) return targetStart >= targetEnd ? 0 : -1;
  if (targetStart >= targetEnd) return 1;
  return compareBytes(this, sourceStart, sourceEnd, target, targetStart, targetEnd);
};

proto.copy = function copy(target, targetStart = 0, sourceStart = 0, sourceEnd = this.length) {
  checkBytes(target, "target");
  targetStart = toInteger(targetStart, "targetStart");
  sourceStart = toInteger(sourceStart, "sourceStart");
  sourceEnd = MathMin(toInteger(sourceEnd, "sourceEnd"), this.length);
  if (sourceStart < 0) throw outOfRange("sourceStart", `>= 0 && <= ${this.length}`, sourceStart);
  if (targetStart >= target.length || sourceStart >= sourceEnd) return 0;
  const count = MathMin(sourceEnd - sourceStart, target.length - targetStart);
  TypedArrayPrototypeSet(target, this.subarray(sourceStart, sourceStart + count), targetStart);
  return count;
};

function toInteger(value, name) {
  if (typeof value !== "number") {
    if (value === undefined) return 0;
    throw invalidArgType(name, "number", value);
  }
  if (value < 0) throw outOfRange(name, ">= 0", value);
  return MathFloor(value) || 0;
}

proto.slice = function slice(start, end) {
  const length = this.length;
  start = clampIndex(start, length, 0);
  end = clampIndex(end, length, length);
  return new FastBuffer(this.buffer, this.byteOffset + start, MathMax(0, end - start));
};
proto.subarray = function subarray(start, end) {
  return FunctionPrototypeCall(proto.slice, this, start, end);
};

/** @this {any} */
proto.fill = function fill(value, offset, end, encoding) {
  if (typeof offset === "string") {
    encoding = offset;
    offset = 0;
    end = this.length;
  } else if (typeof end === "string") {
    encoding = end;
    end = this.length;
  }
  offset = offset === undefined ? 0 : offset;
  end = end === undefined ? this.length : end;
  if (typeof offset !== "number") throw invalidArgType("offset", "number", offset);
  if (typeof end !== "number") throw invalidArgType("end", "number", end);
  if (offset < 0 || offset > this.length) throw outOfRange("offset", `>= 0 && <= ${this.length}`, offset);
  if (end < 0 || end > this.length) throw outOfRange("end", `>= 0 && <= ${this.length}`, end);
  if (end <= offset) return this;
  if (typeof value === "number" || typeof value === "boolean") {
    TypedArrayPrototypeFill(this, /** @type {number} */ (value) & 255, offset, end); // true & 255 is 1
    return this;
  }
  let bytes;
  if (typeof value === "string") {
    const normalized = normalizeEncoding(encoding);
    if (value.length === 1 && normalized === "utf8" && StringPrototypeCharCodeAt(value, 0) < 128) {
      TypedArrayPrototypeFill(this, StringPrototypeCharCodeAt(value, 0), offset, end);
      return this;
    }
    bytes = encode(value, normalized);
    if (bytes.length === 0) {
      if (value.length === 0) {
        TypedArrayPrototypeFill(this, 0, offset, end);
        return this;
      }
      throw invalidArgValue("value", value);
    }
  } else if (value instanceof Uint8Array) {
    bytes = value;
  } else {
    TypedArrayPrototypeFill(this, Number(value) & 255, offset, end);
    return this;
  }
  for (let i = offset, k = 0; i < end; i++, k = (k + 1) % bytes.length) this[i] = bytes[k];
  return this;
};

proto.write = function write(string, offset, length, encoding) {
  if (typeof string !== "string") throw invalidArgType("argument", "string", string);
  if (offset === undefined) {
    offset = 0;
    length = this.length;
  } else if (typeof offset === "string") {
    encoding = offset;
    offset = 0;
    length = this.length;
  } else {
    if (typeof offset !== "number") throw invalidArgType("offset", "number", offset);
    if (offset < 0 || offset > this.length) throw outOfRange("offset", `>= 0 && <= ${this.length}`, offset);
    if (typeof length === "string") {
      encoding = length;
      length = this.length - offset;
    } else if (length === undefined) {
      length = this.length - offset;
    } else {
      if (typeof length !== "number") throw invalidArgType("length", "number", length);
      if (length < 0 || length > this.length) throw outOfRange("length", `>= 0 && <= ${this.length}`, length);
      length = MathMin(length, this.length - offset);
    }
  }
  const normalized = normalizeEncoding(encoding);
  if (normalized === "utf8") return textEncodeInto(string, this.buffer, this.byteOffset + offset, length)[1];
  let bytes = encode(string, normalized);
  if (normalized === "utf16le" && length % 2 === 1) length -= 1;
  const count = MathMin(bytes.length, length);
  TypedArrayPrototypeSet(this, count === bytes.length ? bytes : bytes.subarray(0, count), offset);
  return count;
};

/// The bytes to search for and where to start (Node's rules for indexOf/lastIndexOf/includes).
function searchArguments(buffer, value, byteOffset, encoding, last) {
  if (typeof byteOffset === "string") {
    encoding = byteOffset;
    byteOffset = undefined;
  }
  let start = byteOffset === undefined || byteOffset === null ? (last ? buffer.length : 0) : +byteOffset;
  if (start !== start) start = last ? buffer.length : 0;
  if (start < 0) start = buffer.length + start;
  let needle;
  if (typeof value === "number") needle = value & 255;
  else if (typeof value === "string") needle = encode(value, normalizeEncoding(encoding));
  else if (value instanceof Uint8Array) needle = value;
  else throw invalidArgType("value", ["number", "string", "Buffer", "Uint8Array"], value);
  return { needle, start: MathFloor(start) };
}

function matchesAt(buffer, needle, position) {
  for (let k = 0; k < needle.length; k++) if (buffer[position + k] !== needle[k]) return false;
  return true;
}

proto.indexOf = function indexOf(value, byteOffset, encoding) {
  let { needle, start } = searchArguments(this, value, byteOffset, encoding, false);
  if (start < 0) start = 0;
  if (typeof needle === "number") return TypedArrayPrototypeIndexOf(this, needle, start);
  if (needle.length === 0) return start <= this.length ? start : this.length;
  if (needle.length === 1) return TypedArrayPrototypeIndexOf(this, needle[0], start);
  const first = needle[0];
  for (let i = TypedArrayPrototypeIndexOf(this, first, start); i >= 0 && i + needle.length <= this.length;
    i = TypedArrayPrototypeIndexOf(this, first, i + 1)) {
    if (matchesAt(this, needle, i)) return i;
  }
  return -1;
};

proto.lastIndexOf = function lastIndexOf(value, byteOffset, encoding) {
  let { needle, start } = searchArguments(this, value, byteOffset, encoding, true);
  if (start < 0) return -1;
  if (typeof needle === "number") return TypedArrayPrototypeLastIndexOf(this, needle, MathMin(start, this.length - 1));
  if (needle.length === 0) return MathMin(start, this.length);
  for (let i = MathMin(start, this.length - needle.length); i >= 0; i--) if (matchesAt(this, needle, i)) return i;
  return -1;
};

proto.includes = function includes(value, byteOffset, encoding) {
  return MethodIndexOf(this, value, byteOffset, encoding) !== -1;
};

function swap(buffer, size) {
  if (buffer.length % size !== 0) {
    throw make(RangeError, "ERR_INVALID_BUFFER_SIZE", `Buffer size must be a multiple of ${size * 8}-bits`);
  }
  for (let i = 0; i < buffer.length; i += size) {
    for (let a = i, b = i + size - 1; a < b; a++, b--) {
      const t = buffer[a];
      buffer[a] = buffer[b];
      buffer[b] = t;
    }
  }
  return buffer;
}
proto.swap16 = function swap16() { return swap(this, 2); };
proto.swap32 = function swap32() { return swap(this, 4); };
proto.swap64 = function swap64() { return swap(this, 8); };

ObjectDefineProperty(proto, "parent", { get() { return this.buffer; }, enumerable: true, configurable: true });
ObjectDefineProperty(proto, "offset", { get() { return this.byteOffset; }, enumerable: true, configurable: true });

proto[Symbol.for("nodejs.util.inspect.custom")] = function inspectBuffer(depth, options) {
  const max = INSPECT_MAX_BYTES;
  let text = "";
  const shown = MathMin(max, this.length);
  for (let i = 0; i < shown; i++) text += (i > 0 ? " " : "") + hexDigits[this[i]];
  if (this.length > max) text += ` ... ${this.length - max} more byte${this.length - max > 1 ? "s" : ""}`;
  return `<${this.constructor?.name ?? "Buffer"} ${text}>`;
};

// MARK: - Reading and writing numbers

function checkOffset(buffer, offset, size) {
  if (offset === undefined) offset = 0;
  if (typeof offset !== "number") throw invalidArgType("offset", "number", offset);
  if (!NumberIsInteger(offset)) throw outOfRange("offset", "an integer", offset);
  if (offset < 0 || offset + size > buffer.length) {
    if (buffer.length - size < 0) throw make(RangeError, "ERR_BUFFER_OUT_OF_BOUNDS", "Attempt to access memory outside buffer bounds");
    throw outOfRange("offset", `>= 0 and <= ${buffer.length - size}`, offset);
  }
  return offset;
}

function checkValue(value, min, max, size, bigint) {
  if (bigint ? typeof value !== "bigint" : typeof value !== "number") {
    throw invalidArgType("value", bigint ? "bigint" : "number", value);
  }
  if (value < min || value > max) {
    const n = bigint ? "n" : "";
    let range;
    if (size > 4 || bigint) {
      range = min === 0 || min === 0n ? `>= 0${n} and < 2${n} ** ${size * 8}${n}` : `>= -(2${n} ** ${size * 8 - 1}${n}) and < 2${n} ** ${size * 8 - 1}${n}`;
    } else {
      range = `>= ${min} and <= ${max}`;
    }
    throw outOfRange("value", range, value);
  }
}

const float32 = new Float32Array(1), float32Bytes = new Uint8Array(float32.buffer);
const float64 = new Float64Array(1), float64Bytes = new Uint8Array(float64.buffer);
const littleEndianHost = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function readUnsigned(buffer, offset, size, little) {
  offset = checkOffset(buffer, offset, size);
  let value = 0;
  if (little) for (let i = size - 1; i >= 0; i--) value = value * 256 + buffer[offset + i];
  else for (let i = 0; i < size; i++) value = value * 256 + buffer[offset + i];
  return value;
}

function readSigned(buffer, offset, size, little) {
  const value = readUnsigned(buffer, offset, size, little);
  const limit = 2 ** (size * 8 - 1);
  return value >= limit ? value - limit * 2 : value;
}

function writeInteger(buffer, value, offset, size, little, signed) {
  const limit = 2 ** (size * 8 - (signed ? 1 : 0));
  checkValue(value, signed ? -limit : 0, limit - 1, size, false);
  offset = checkOffset(buffer, offset, size);
  let rest = value < 0 ? value + 2 ** (size * 8) : value;
  rest = MathFloor(rest);
  for (let i = 0; i < size; i++) {
    const byte = rest % 256;
    buffer[little ? offset + i : offset + size - 1 - i] = byte;
    rest = (rest - byte) / 256;
  }
  return offset + size;
}

function readFloat(buffer, offset, little, bytes, view, size) {
  offset = checkOffset(buffer, offset, size);
  for (let i = 0; i < size; i++) bytes[little === littleEndianHost ? i : size - 1 - i] = buffer[offset + i];
  return view[0];
}

function writeFloat(buffer, value, offset, little, bytes, view, size) {
  if (typeof value !== "number") throw invalidArgType("value", "number", value);
  offset = checkOffset(buffer, offset, size);
  view[0] = value;
  for (let i = 0; i < size; i++) buffer[offset + i] = bytes[little === littleEndianHost ? i : size - 1 - i];
  return offset + size;
}

function readBig(buffer, offset, little, signed) {
  offset = checkOffset(buffer, offset, 8);
  let value = 0n;
  for (let i = 0; i < 8; i++) value = (value << 8n) | BigInt(buffer[little ? offset + 7 - i : offset + i]);
  return signed ? BigInt.asIntN(64, value) : value;
}

function writeBig(buffer, value, offset, little, signed) {
  checkValue(value, signed ? -(2n ** 63n) : 0n, signed ? 2n ** 63n - 1n : 2n ** 64n - 1n, 8, true);
  offset = checkOffset(buffer, offset, 8);
  let rest = BigInt.asUintN(64, value);
  for (let i = 0; i < 8; i++) {
    buffer[little ? offset + i : offset + 7 - i] = Number(rest & 255n);
    rest >>= 8n;
  }
  return offset + 8;
}

function checkByteLength(byteLength) {
  if (typeof byteLength !== "number") throw invalidArgType("byteLength", "number", byteLength);
  if (!NumberIsInteger(byteLength) || byteLength < 1 || byteLength > 6) throw outOfRange("byteLength", ">= 1 and <= 6", byteLength);
}

const methods = {
  readUInt8(offset) { return readUnsigned(this, offset, 1, true); },
  readUInt16LE(offset) { return readUnsigned(this, offset, 2, true); },
  readUInt16BE(offset) { return readUnsigned(this, offset, 2, false); },
  readUInt32LE(offset) { return readUnsigned(this, offset, 4, true); },
  readUInt32BE(offset) { return readUnsigned(this, offset, 4, false); },
  readUIntLE(offset, byteLength) { checkByteLength(byteLength); return readUnsigned(this, offset, byteLength, true); },
  readUIntBE(offset, byteLength) { checkByteLength(byteLength); return readUnsigned(this, offset, byteLength, false); },
  readInt8(offset) { return readSigned(this, offset, 1, true); },
  readInt16LE(offset) { return readSigned(this, offset, 2, true); },
  readInt16BE(offset) { return readSigned(this, offset, 2, false); },
  readInt32LE(offset) { return readSigned(this, offset, 4, true); },
  readInt32BE(offset) { return readSigned(this, offset, 4, false); },
  readIntLE(offset, byteLength) { checkByteLength(byteLength); return readSigned(this, offset, byteLength, true); },
  readIntBE(offset, byteLength) { checkByteLength(byteLength); return readSigned(this, offset, byteLength, false); },
  readFloatLE(offset) { return readFloat(this, offset, true, float32Bytes, float32, 4); },
  readFloatBE(offset) { return readFloat(this, offset, false, float32Bytes, float32, 4); },
  readDoubleLE(offset) { return readFloat(this, offset, true, float64Bytes, float64, 8); },
  readDoubleBE(offset) { return readFloat(this, offset, false, float64Bytes, float64, 8); },
  readBigUInt64LE(offset) { return readBig(this, offset, true, false); },
  readBigUInt64BE(offset) { return readBig(this, offset, false, false); },
  readBigInt64LE(offset) { return readBig(this, offset, true, true); },
  readBigInt64BE(offset) { return readBig(this, offset, false, true); },
  writeUInt8(value, offset) { return writeInteger(this, value, offset, 1, true, false); },
  writeUInt16LE(value, offset) { return writeInteger(this, value, offset, 2, true, false); },
  writeUInt16BE(value, offset) { return writeInteger(this, value, offset, 2, false, false); },
  writeUInt32LE(value, offset) { return writeInteger(this, value, offset, 4, true, false); },
  writeUInt32BE(value, offset) { return writeInteger(this, value, offset, 4, false, false); },
  writeUIntLE(value, offset, byteLength) { checkByteLength(byteLength); return writeInteger(this, value, offset, byteLength, true, false); },
  writeUIntBE(value, offset, byteLength) { checkByteLength(byteLength); return writeInteger(this, value, offset, byteLength, false, false); },
  writeInt8(value, offset) { return writeInteger(this, value, offset, 1, true, true); },
  writeInt16LE(value, offset) { return writeInteger(this, value, offset, 2, true, true); },
  writeInt16BE(value, offset) { return writeInteger(this, value, offset, 2, false, true); },
  writeInt32LE(value, offset) { return writeInteger(this, value, offset, 4, true, true); },
  writeInt32BE(value, offset) { return writeInteger(this, value, offset, 4, false, true); },
  writeIntLE(value, offset, byteLength) { checkByteLength(byteLength); return writeInteger(this, value, offset, byteLength, true, true); },
  writeIntBE(value, offset, byteLength) { checkByteLength(byteLength); return writeInteger(this, value, offset, byteLength, false, true); },
  writeFloatLE(value, offset) { return writeFloat(this, value, offset, true, float32Bytes, float32, 4); },
  writeFloatBE(value, offset) { return writeFloat(this, value, offset, false, float32Bytes, float32, 4); },
  writeDoubleLE(value, offset) { return writeFloat(this, value, offset, true, float64Bytes, float64, 8); },
  writeDoubleBE(value, offset) { return writeFloat(this, value, offset, false, float64Bytes, float64, 8); },
  writeBigUInt64LE(value, offset) { return writeBig(this, value, offset, true, false); },
  writeBigUInt64BE(value, offset) { return writeBig(this, value, offset, false, false); },
  writeBigInt64LE(value, offset) { return writeBig(this, value, offset, true, true); },
  writeBigInt64BE(value, offset) { return writeBig(this, value, offset, false, true); },
};
for (const name of ObjectKeys(methods)) {
  const method = methods[name];
  ObjectDefineProperty(proto, name, { value: method, writable: true, configurable: true });
  // Node's lower-case aliases: readUint8, writeUint32LE, readBigUint64LE, ...
  if (MethodIncludes(name, "UInt")) {
    ObjectDefineProperty(proto, MethodReplace(name, "UInt", "Uint"), { value: method, writable: true, configurable: true });
  }
}

// MARK: - Module

function isUtf8(input) {
  const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function isAscii(input) {
  const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  for (let i = 0; i < bytes.length; i++) if (bytes[i] > 127) return false;
  return true;
}

function SlowBuffer(size) {
  return allocUnsafe(size);
}

const buffer = {
  Buffer, SlowBuffer, kMaxLength, kStringMaxLength, INSPECT_MAX_BYTES,
  constants: { MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: kStringMaxLength },
  isUtf8, isAscii,
  get atob() { return globalThis.atob; },
  get btoa() { return globalThis.btoa; },
  get Blob() { return globalThis.Blob; },
  transcode() {
    throw make(Error, "ERR_NOT_IMPLEMENTED", "buffer.transcode is not implemented in jsbridge.");
  },
};

internal.Buffer = Buffer;
internal.nodeExport("buffer", buffer);
internal.defineGlobal("Buffer", Buffer);
