// encoding.js - TextEncoder / TextDecoder (every encoding of the WHATWG Encoding Standard), btoa / atob.
// Sets internal.utf8Encode(string) -> Uint8Array and internal.utf8Decode(bytes) -> string for later files.
// UTF-8 and UTF-16 are decoded natively (EncodingNatives.swift), x-user-defined
// here, and the legacy encodings by ICU's converters (docs/encodings.md says which and why).

const {
  ArrayBufferIsView, ArrayBufferPrototypeGetByteLength, ArrayFrom, DataViewPrototypeGetBuffer,
  DataViewPrototypeGetByteLength, DataViewPrototypeGetByteOffset, FunctionPrototypeApply, FunctionPrototypeCall,
  MathFloor, MathMin, MethodCharCodeAt, MethodReplace, MethodSlice, ObjectDefineProperty, ObjectGetOwnPropertyNames,
  ObjectGetPrototypeOf, RangeError, ReflectGetOwnPropertyDescriptor, RegExpPrototypeTest, SafeMap,
  SharedArrayBufferPrototypeGetByteLength, StringFromCharCode, StringPrototypeCharCodeAt, StringPrototypeReplace,
  StringPrototypeToLowerCase, TypeError, TypedArrayPrototypeGetBuffer, TypedArrayPrototypeGetByteLength,
  TypedArrayPrototypeGetByteOffset, TypedArrayPrototypeGetSymbolToStringTag, Uint8Array,
} = internal.primordials;

const {
  textDecodeUTF8, textDecodeUTF16, textDecoderOpen, textDecode, textEncodeInto, textEncodeUTF8, textBase64Encode,
  textBase64Decode,
} = internal;

/// JavaScriptCore's longest string (`String::MaxLength`): 2^31 - 1 UTF-16 code units. A decode that could give a
/// longer one is refused before it starts (a RangeError, `ERR_STRING_TOO_LONG` as in Node): past it the engine
/// aborts the process.
const maxStringLength = 2 ** 31 - 1;

/// Throws unless a string of `units` UTF-16 code units can be made.
function checkStringLength(units) {
  if (!(units > maxStringLength)) return;
  const error = new RangeError(`Cannot create a string longer than 0x7fffffff characters (this one would need ${units})`);
  error.code = 'ERR_STRING_TOO_LONG';
  throw error;
}

// The Encoding Standard's encodings: name, the ICU converter that decodes it (null: decoded here), labels.
// GBK decodes as gb18030 (the standard's GBK decoder is the gb18030 decoder); ISO-8859-8-I maps like ISO-8859-8.
const ENCODINGS = [
  ['UTF-8', null, 'unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8'],
  ['IBM866', 'ibm-866_P100-1995', '866 cp866 csibm866 ibm866'],
  ['ISO-8859-2', 'ISO-8859-2', 'csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 iso_8859-2:1987 l2 latin2'],
  ['ISO-8859-3', 'ISO-8859-3', 'csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 iso_8859-3:1988 l3 latin3'],
  ['ISO-8859-4', 'ISO-8859-4', 'csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 iso_8859-4:1988 l4 latin4'],
  ['ISO-8859-5', 'ISO-8859-5', 'csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 iso_8859-5 iso_8859-5:1988'],
  [
    'ISO-8859-6', 'ISO-8859-6',
    'arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 iso-8859-6 iso-8859-6-e iso-8859-6-i iso-ir-127 iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987',
  ],
  [
    'ISO-8859-7', 'ISO-8859-7',
    'csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 iso8859-7 iso88597 iso_8859-7 iso_8859-7:1987 sun_eu_greek',
  ],
  [
    'ISO-8859-8', 'ISO-8859-8',
    'csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 iso8859-8 iso88598 iso_8859-8 iso_8859-8:1988 visual',
  ],
  ['ISO-8859-8-I', 'ISO-8859-8', 'csiso88598i iso-8859-8-i logical'],
  ['ISO-8859-10', 'ISO-8859-10', 'csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 l6 latin6'],
  ['ISO-8859-13', 'ISO-8859-13', 'iso-8859-13 iso8859-13 iso885913'],
  ['ISO-8859-14', 'ISO-8859-14', 'iso-8859-14 iso8859-14 iso885914'],
  ['ISO-8859-15', 'ISO-8859-15', 'csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9'],
  ['ISO-8859-16', 'ISO-8859-16', 'iso-8859-16'],
  ['KOI8-R', 'KOI8-R', 'cskoi8r koi koi8 koi8-r koi8_r'],
  ['KOI8-U', 'KOI8-U', 'koi8-ru koi8-u'],
  ['macintosh', 'macintosh', 'csmacintosh mac macintosh x-mac-roman'],
  ['windows-874', 'windows-874', 'dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874'],
  ['windows-1250', 'windows-1250', 'cp1250 windows-1250 x-cp1250'],
  ['windows-1251', 'windows-1251', 'cp1251 windows-1251 x-cp1251'],
  [
    'windows-1252', 'windows-1252',
    'ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 iso88591 iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252',
  ],
  ['windows-1253', 'windows-1253', 'cp1253 windows-1253 x-cp1253'],
  [
    'windows-1254', 'windows-1254',
    'cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 iso_8859-9:1989 l5 latin5 windows-1254 x-cp1254',
  ],
  ['windows-1255', 'windows-1255', 'cp1255 windows-1255 x-cp1255'],
  ['windows-1256', 'windows-1256', 'cp1256 windows-1256 x-cp1256'],
  ['windows-1257', 'windows-1257', 'cp1257 windows-1257 x-cp1257'],
  ['windows-1258', 'windows-1258', 'cp1258 windows-1258 x-cp1258'],
  ['x-mac-cyrillic', 'x-mac-cyrillic', 'x-mac-cyrillic x-mac-ukrainian'],
  ['GBK', 'gb18030', 'chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk'],
  ['gb18030', 'gb18030', 'gb18030'],
  ['Big5', 'Big5-HKSCS', 'big5 big5-hkscs cn-big5 csbig5 x-x-big5'],
  ['EUC-JP', 'EUC-JP', 'cseucpkdfmtjapanese euc-jp x-euc-jp'],
  ['ISO-2022-JP', 'ISO-2022-JP', 'csiso2022jp iso-2022-jp'],
  ['Shift_JIS', 'Shift_JIS', 'csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis'],
  [
    'EUC-KR', 'windows-949',
    'cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 ksc5601 ksc_5601 windows-949',
  ],
  ['replacement', null, 'csiso2022kr hz-gb-2312 iso-2022-cn iso-2022-cn-ext iso-2022-kr replacement'],
  ['UTF-16BE', null, 'unicodefffe utf-16be'],
  ['UTF-16LE', null, 'csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le'],
  ['x-user-defined', null, 'x-user-defined'],
];

let labels = null; // label -> { name, icu }, built on the first lookup

/// The encoding `label` names (ASCII whitespace trimmed, ASCII case-insensitive), or undefined.
function getEncoding(label) {
  if (labels === null) {
    labels = new SafeMap();
    for (let i = 0; i < ENCODINGS.length; i++) {
      const [name, icu, list] = ENCODINGS[i];
      const encoding = { name: StringPrototypeToLowerCase(name), icu };
      let start = 0;
      for (let k = 0; k <= list.length; k++) {
        if (k === list.length || StringPrototypeCharCodeAt(list, k) === 0x20) {
          labels.set(MethodSlice(list, start, k), encoding);
          start = k + 1;
        }
      }
    }
  }
  const trimmed = StringPrototypeReplace(label, /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  return labels.get(StringPrototypeReplace(trimmed, /[A-Z]+/g, (upper) => StringPrototypeToLowerCase(upper)));
}

// ---- Byte sources ----

/// SharedArrayBuffer's `byteLength` getter (uncurried), or null. JavaScriptCore may leave the
/// `SharedArrayBuffer` global out while a shared `WebAssembly.Memory`'s buffer still is one: its prototype is
/// then found the first time a buffer is neither an ArrayBuffer nor a view.
let sharedByteLengthGetter = SharedArrayBufferPrototypeGetByteLength;
function sharedArrayBufferByteLength() {
  if (sharedByteLengthGetter !== undefined) return sharedByteLengthGetter;
  sharedByteLengthGetter = null;
  try {
    const buffer = new internal.primordials.WebAssembly.Memory({ shared: true, initial: 0, maximum: 0 }).buffer;
    const getter = ReflectGetOwnPropertyDescriptor(ObjectGetPrototypeOf(buffer), "byteLength").get;
    sharedByteLengthGetter = (value) => FunctionPrototypeCall(getter, value);
  } catch {}
  return sharedByteLengthGetter;
}

/// `[arrayBuffer, byteOffset, byteLength]` of an AllowSharedBufferSource; throws TypeError otherwise.
function bufferSource(input, what) {
  if (ArrayBufferIsView(input)) {
    if (TypedArrayPrototypeGetSymbolToStringTag(input) !== undefined) {
      return [TypedArrayPrototypeGetBuffer(input), TypedArrayPrototypeGetByteOffset(input), TypedArrayPrototypeGetByteLength(input)];
    }
    return [DataViewPrototypeGetBuffer(input), DataViewPrototypeGetByteOffset(input), DataViewPrototypeGetByteLength(input)];
  }
  try {
    return [input, 0, ArrayBufferPrototypeGetByteLength(input)];
  } catch {}
  const sharedByteLength = sharedArrayBufferByteLength();
  if (sharedByteLength !== null) {
    try {
      return [input, 0, sharedByteLength(input)];
    } catch {}
  }
  throw new TypeError(`The "${what}" argument must be an instance of ArrayBuffer, SharedArrayBuffer or ArrayBufferView.`);
}

/// A copy of `source`'s bytes `start..<end` followed by `more` (for bytes held back between stream chunks).
function joinBytes(pending, buffer, offset, length) {
  const joined = new Uint8Array(pending.length + length);
  joined.set(pending);
  joined.set(new Uint8Array(buffer, offset, length), pending.length);
  return joined;
}

// ---- Decoders: decode(buffer, offset, length, stream, fatal) -> string, or null on a fatal error ----

const EMPTY = new Uint8Array(0);

/// How many bytes at the end of `bytes` start a UTF-8 sequence that more bytes could still complete.
function utf8IncompleteTail(bytes) {
  const n = bytes.length;
  for (let i = n - 1; i >= 0 && i >= n - 3; i--) {
    const byte = bytes[i];
    if (byte < 0x80) return 0;
    if (byte < 0xc0) continue;
    const needed = byte >= 0xc2 && byte <= 0xdf ? 1 : byte >= 0xe0 && byte <= 0xef ? 2 : byte >= 0xf0 && byte <= 0xf4 ? 3 : 0;
    const have = n - i - 1;
    if (needed <= have) return 0;
    if (have >= 1) {
      const second = bytes[i + 1];
      const lower = byte === 0xe0 ? 0xa0 : byte === 0xf0 ? 0x90 : 0x80;
      const upper = byte === 0xed ? 0x9f : byte === 0xf4 ? 0x8f : 0xbf;
      if (second < lower || second > upper) return 0;
    }
    return n - i;
  }
  return 0;
}

/// How many bytes at the end of UTF-16 `bytes` to hold back: an odd byte and a final lead surrogate.
function utf16IncompleteTail(bytes, bigEndian) {
  let tail = bytes.length % 2;
  const last = bytes.length - tail - 2;
  if (last >= 0) {
    const unit = bigEndian ? (bytes[last] << 8) | bytes[last + 1] : bytes[last] | (bytes[last + 1] << 8);
    if (unit >= 0xd800 && unit <= 0xdbff) tail += 2;
  }
  return tail;
}

// A decoder for UTF-8 or UTF-16 that holds back an unfinished sequence between streamed chunks.
class UnicodeDecoder {
  constructor(kind) {
    this.kind = kind; // 8, 16 (little-endian) or -16 (big-endian)
    this.pending = EMPTY;
  }

  reset() {
    this.pending = EMPTY;
  }

  decode(buffer, offset, length, stream, fatal) {
    let bytes = null;
    // At most one code unit per byte (UTF-8), one per two bytes (UTF-16), counting the bytes held back.
    checkStringLength(this.kind === 8 ? this.pending.length + length : MathFloor((this.pending.length + length + 1) / 2));
    if (this.pending.length > 0 || stream) {
      bytes = this.pending.length > 0 ? joinBytes(this.pending, buffer, offset, length) : new Uint8Array(buffer, offset, length);
      let tail = 0;
      if (stream) tail = this.kind === 8 ? utf8IncompleteTail(bytes) : utf16IncompleteTail(bytes, this.kind < 0);
      this.pending = tail > 0 ? MethodSlice(bytes, bytes.length - tail) : EMPTY;
      buffer = TypedArrayPrototypeGetBuffer(bytes);
      offset = TypedArrayPrototypeGetByteOffset(bytes);
      length = bytes.length - tail;
    }
    const text = this.kind === 8 ? textDecodeUTF8(buffer, offset, length, fatal) : textDecodeUTF16(buffer, offset, length, this.kind < 0, fatal);
    if (text === null) this.pending = EMPTY;
    return text;
  }
}

// x-user-defined: ASCII as is, bytes 0x80-0xFF to U+F780-U+F7FF.
class UserDefinedDecoder {
  reset() {}

  decode(buffer, offset, length) {
    checkStringLength(length);
    const bytes = new Uint8Array(buffer, offset, length);
    let text = '';
    const units = [];
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      units[units.length] = byte < 0x80 ? byte : 0xf780 + byte - 0x80;
      if (units.length === 0x2000) {
        text += FunctionPrototypeApply(StringFromCharCode, null, units);
        units.length = 0;
      }
    }
    return text + FunctionPrototypeApply(StringFromCharCode, null, units);
  }
}

// Where the standard's decoders differ from ICU's converters (flags of jsb_icu_decoder_open in jsb_text_encodings.h):
// 1 = an invalid pair with an ASCII second byte gives U+FFFD and that character; 2 = gb18030's 0x80 is U+20AC.
const ICU_FLAGS = { big5: 1, 'euc-kr': 1, 'euc-jp': 1, shift_jis: 1, gbk: 3, gb18030: 3 };

// The legacy encodings, through an ICU converter that keeps its own state between streamed chunks.
class ICUDecoder {
  constructor(encoding, fatal) {
    const icu = encoding.icu;
    this.converter = textDecoderOpen(icu, fatal, ICU_FLAGS[encoding.name] ?? 0);
    if (this.converter === null) throw new RangeError(`The "${icu}" encoding is not available.`);
  }

  // A converter is reset by every flush and every fatal error, so a new decode starts clean.
  reset() {}

  decode(buffer, offset, length, stream) {
    // The legacy encodings give at most one code unit per byte (a 4-byte gb18030 sequence: two), plus what
    // the converter holds back (at most 3 bytes).
    checkStringLength(length + 3);
    return textDecode(this.converter, buffer, offset, length, !stream);
  }
}

function makeDecoder(encoding, fatal) {
  switch (encoding.name) {
    case 'utf-8':
      return new UnicodeDecoder(8);
    case 'utf-16le':
      return new UnicodeDecoder(16);
    case 'utf-16be':
      return new UnicodeDecoder(-16);
    case 'x-user-defined':
      return new UserDefinedDecoder();
    default:
      return new ICUDecoder(encoding, fatal);
  }
}

function notSupported(label) {
  const error = new RangeError(`The "${label}" encoding is not supported`);
  error.code = 'ERR_ENCODING_NOT_SUPPORTED';
  return error;
}

function invalidData(name) {
  const error = new TypeError(`The encoded data was not valid for encoding ${name}`);
  error.code = 'ERR_ENCODING_INVALID_ENCODED_DATA';
  return error;
}

/// Reads dictionary member `key` of `options` (undefined, null or an object, else TypeError) as a boolean.
function dictionary(options, keys) {
  if (options === undefined || options === null) return [];
  if (typeof options !== 'object' && typeof options !== 'function') {
    throw new TypeError('The "options" argument must be of type object.');
  }
  const values = [];
  for (let i = 0; i < keys.length; i++) values[i] = Boolean(options[keys[i]]);
  return values;
}

const toDOMString = (value) => `${value}`;

class TextDecoder {
  #encoding;
  #fatal;
  #ignoreBOM;
  #decoder = null;
  #doNotFlush = false;
  #bomSeen = false;

  /// A decoder for encoding `label` (default "utf-8"); options: `fatal` (throw on invalid input), `ignoreBOM`.
  constructor(label = undefined, options = undefined) {
    label = label === undefined ? 'utf-8' : toDOMString(label);
    const [fatal = false, ignoreBOM = false] = dictionary(options, ['fatal', 'ignoreBOM']);
    const encoding = getEncoding(label);
    if (encoding === undefined || encoding.name === 'replacement') throw notSupported(label);
    this.#encoding = encoding;
    this.#fatal = fatal;
    this.#ignoreBOM = ignoreBOM;
  }

  get encoding() {
    return this.#encoding.name;
  }

  get fatal() {
    return this.#fatal;
  }

  get ignoreBOM() {
    return this.#ignoreBOM;
  }

  /// Decodes `input` (ArrayBuffer, SharedArrayBuffer or a view); with `{ stream: true }` an unfinished
  /// sequence at the end is kept for the next call.
  decode(input = undefined, options = undefined) {
    const [buffer, offset, length] = input === undefined ? [new ArrayBuffer(0), 0, 0] : bufferSource(input, 'input');
    const [stream = false] = dictionary(options, ['stream']);
    if (this.#decoder === null) this.#decoder = makeDecoder(this.#encoding, this.#fatal);
    if (!this.#doNotFlush) {
      this.#decoder.reset();
      this.#bomSeen = false;
    }
    this.#doNotFlush = stream;
    let text = this.#decoder.decode(buffer, offset, length, stream, this.#fatal);
    if (text === null) {
      this.#doNotFlush = false;
      throw invalidData(this.#encoding.name);
    }
    if (!this.#bomSeen && text.length > 0) {
      const name = this.#encoding.name;
      if (name === 'utf-8' || name === 'utf-16le' || name === 'utf-16be') {
        this.#bomSeen = true;
        if (!this.#ignoreBOM && StringPrototypeCharCodeAt(text, 0) === 0xfeff) text = MethodSlice(text, 1);
      }
    }
    return text;
  }
}

class TextEncoder {
  #brand = true;

  get encoding() {
    this.#brand;
    return 'utf-8';
  }

  /// UTF-8 bytes of `input` (default ''); lone surrogates become U+FFFD.
  encode(input = undefined) {
    this.#brand;
    return utf8Encode(input === undefined ? '' : `${input}`);
  }

  /// Writes as much UTF-8 of `source` as fits into the Uint8Array `destination` without splitting a
  /// character; answers `{ read, written }` (UTF-16 units read, bytes written).
  encodeInto(source, destination) {
    this.#brand;
    if (arguments.length < 2) throw new TypeError('TextEncoder.encodeInto needs 2 arguments.');
    source = `${source}`;
    if (!ArrayBufferIsView(destination) || TypedArrayPrototypeGetSymbolToStringTag(destination) !== 'Uint8Array') {
      throw new TypeError('The "destination" argument must be an instance of Uint8Array.');
    }
    const [read, written] = textEncodeInto(
      source,
      TypedArrayPrototypeGetBuffer(destination),
      TypedArrayPrototypeGetByteOffset(destination),
      TypedArrayPrototypeGetByteLength(destination),
    );
    return { read, written };
  }
}

// WebIDL shape: attributes and operations are enumerable; the class string is a data property.
for (const Class of [TextDecoder, TextEncoder]) {
  const proto = Class.prototype;
  const names = ObjectGetOwnPropertyNames(proto);
  for (let i = 0; i < names.length; i++) {
    if (names[i] === 'constructor') continue;
    const descriptor = ReflectGetOwnPropertyDescriptor(proto, names[i]);
    descriptor.enumerable = true;
    ObjectDefineProperty(proto, names[i], descriptor);
  }
  ObjectDefineProperty(proto, Symbol.toStringTag, { value: Class.name, configurable: true });
}

/// UTF-8 bytes of a string; lone surrogates become U+FFFD.
function utf8Encode(str) {
  return new Uint8Array(textEncodeUTF8(str));
}

/// Text of UTF-8 `bytes` (a Uint8Array), U+FFFD for invalid sequences, a BOM kept.
function utf8Decode(bytes) {
  checkStringLength(bytes.length);
  return textDecodeUTF8(TypedArrayPrototypeGetBuffer(bytes), TypedArrayPrototypeGetByteOffset(bytes), bytes.length, false);
}

function invalidCharacter(message) {
  // DOMException comes from events.js, which loads later; errors are only created at call time.
  return new internal.DOMException(message, 'InvalidCharacterError');
}

/// Base64 (or, with `url`, base64url without padding) of `bytes`, a Uint8Array.
function base64Encode(bytes, url = false) {
  return textBase64Encode(TypedArrayPrototypeGetBuffer(bytes), TypedArrayPrototypeGetByteOffset(bytes), bytes.length, url);
}

/// The bytes of base64 or base64url `text` as Node reads it: other characters skipped, up to the first "=".
function base64Decode(text) {
  return new Uint8Array(textBase64Decode(text));
}

/// The Infra standard's forgiving-base64 decode of `text` (atob, data: URLs): null when it is not base64.
function forgivingBase64Decode(text) {
  text = MethodReplace(text, /[\t\n\f\r ]/g, '');
  if (text.length % 4 === 0) text = MethodReplace(text, /==?$/, '');
  if (text.length % 4 === 1 || RegExpPrototypeTest(/[^A-Za-z0-9+/]/, text)) return null;
  return base64Decode(text);
}

/// Base64 of a Latin-1 string; characters above U+00FF throw InvalidCharacterError.
function btoa(data) {
  if (arguments.length === 0) throw new TypeError('The "data" argument must be specified');
  const str = `${data}`;
  if (RegExpPrototypeTest(/[^\x00-\xff]/, str)) throw invalidCharacter('Invalid character');
  const bytes = new Uint8Array(str.length);
  for (let i = 0; i < str.length; i++) bytes[i] = MethodCharCodeAt(str, i);
  return base64Encode(bytes);
}

/// Latin-1 string decoded from forgiving base64; invalid input throws InvalidCharacterError.
function atob(data) {
  if (arguments.length === 0) throw new TypeError('The "data" argument must be specified');
  const bytes = forgivingBase64Decode(`${data}`);
  if (bytes === null) throw invalidCharacter('The string to be decoded is not correctly encoded.');
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    out += FunctionPrototypeApply(StringFromCharCode, null, bytes.subarray(i, i + 8192));
  }
  return out;
}

internal.utf8Encode = utf8Encode;
internal.utf8Decode = utf8Decode;
internal.checkStringLength = checkStringLength;
internal.base64Encode = base64Encode;
internal.base64Decode = base64Decode;
internal.forgivingBase64Decode = forgivingBase64Decode;
internal.TextEncoder = TextEncoder;
internal.TextDecoder = TextDecoder;
internal.defineGlobal('TextEncoder', TextEncoder);
internal.defineGlobal('TextDecoder', TextDecoder);
internal.defineGlobal('btoa', btoa);
internal.defineGlobal('atob', atob);
