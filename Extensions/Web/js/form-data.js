// form-data.js - FormData (XHR standard) and the one home of its wire forms: `multipart/form-data`
// serialisation (HTML's multipart/form-data encoding algorithm) and parsing, `application/x-www-form-urlencoded`
// parsing, and the MIME type parser/serialiser (MIME Sniffing standard) the body readers need. Lazy: loads the
// first time a script uses FormData or a body needs it.

const {
  ArrayPrototypePush, ArrayPrototypeSplice, JSONStringify, MathFloor, MathRandom, MethodIndexOf, MethodSlice,
  MethodSplit, MethodTrim, ObjectCreate, ObjectDefineProperty, ObjectFreeze, ReflectApply, ReflectGetPrototypeOf,
  RegExpPrototypeExec, RegExpPrototypeTest, SafeMap, StringPrototypeIndexOf, StringPrototypeReplace,
  StringPrototypeSlice, StringPrototypeToLowerCase, SymbolIterator, TypeError, Uint8Array,
} = internal.primordials;

const { Blob } = internal;
const { bytesOf, makeFile, isFile, toUSVString, decodeUTF8 } = internal.blobInternals;

// MARK: - FormData

/// An entry's value: a USVString or a File (a Blob is converted when the entry is created).
function makeValue(value, filename, hasFilename) {
  if (!(value instanceof Blob)) return toUSVString(value);
  if (!isFile(value) || hasFilename) {
    const name = hasFilename ? toUSVString(filename) : "blob";
    const lastModified = isFile(value) ? value.lastModified : undefined;
    return makeFile(bytesOf(value), name, value.type, lastModified);
  }
  return value;
}

let entriesOf;

function checkFormData(value) {
  const entries = value !== null && typeof value === "object" ? entriesOf(value) : undefined;
  if (entries === undefined) throw new TypeError("Illegal invocation");
  return entries;
}

function argumentCount(method, given, needed) {
  if (given < needed) {
    throw new TypeError(`Failed to execute '${method}' on 'FormData': ${needed} arguments required, but only ${given} present.`);
  }
}

/// The three-argument overloads take a Blob; anything else is a TypeError (WebIDL overload resolution).
function entryFrom(method, args) {
  argumentCount(method, args.length, 2);
  const name = toUSVString(args[0]);
  const value = args[1];
  if (args.length > 2 && !(value instanceof Blob)) {
    throw new TypeError(`Failed to execute '${method}' on 'FormData': parameter 2 is not of type 'Blob'.`);
  }
  return [name, makeValue(value, args[2], args.length > 2 && args[2] !== undefined)];
}

class FormData {
  #entries = [];

  static {
    entriesOf = (value) => (#entries in value ? value.#entries : undefined);
  }

  constructor(form = undefined, submitter = undefined) {
    if (form !== undefined) {
      throw new TypeError("Failed to construct 'FormData': parameter 1 is not of type 'HTMLFormElement'.");
    }
  }

  // Two declared parameters: WebIDL gives an overloaded operation the length of its shortest overload.
  append(name, value) {
    const entries = checkFormData(this);
    ArrayPrototypePush(entries, entryFrom("append", arguments));
  }

  delete(name) {
    const entries = checkFormData(this);
    argumentCount("delete", arguments.length, 1);
    name = toUSVString(name);
    for (let i = entries.length - 1; i >= 0; i--) if (entries[i][0] === name) ArrayPrototypeSplice(entries, i, 1);
  }

  get(name) {
    const entries = checkFormData(this);
    argumentCount("get", arguments.length, 1);
    name = toUSVString(name);
    for (let i = 0; i < entries.length; i++) if (entries[i][0] === name) return entries[i][1];
    return null;
  }

  getAll(name) {
    const entries = checkFormData(this);
    argumentCount("getAll", arguments.length, 1);
    name = toUSVString(name);
    const out = [];
    for (let i = 0; i < entries.length; i++) if (entries[i][0] === name) ArrayPrototypePush(out, entries[i][1]);
    return out;
  }

  has(name) {
    const entries = checkFormData(this);
    argumentCount("has", arguments.length, 1);
    name = toUSVString(name);
    for (let i = 0; i < entries.length; i++) if (entries[i][0] === name) return true;
    return false;
  }

  /// Replaces the first entry named `name` and removes the others (appends when there is none).
  set(name, value) {
    const entries = checkFormData(this);
    const entry = entryFrom("set", arguments);
    let found = -1;
    for (let i = 0; i < entries.length; i++) {
      if (entries[i][0] !== entry[0]) continue;
      if (found === -1) {
        found = i;
        entries[i] = entry;
      } else {
        ArrayPrototypeSplice(entries, i, 1);
        i--;
      }
    }
    if (found === -1) ArrayPrototypePush(entries, entry);
  }

  forEach(callback, thisArg = undefined) {
    const entries = checkFormData(this);
    if (typeof callback !== "function") {
      throw new TypeError("Failed to execute 'forEach' on 'FormData': The callback provided as parameter 1 is not a function.");
    }
    // Index-based over the live list, as WebIDL's iterable forEach.
    for (let i = 0; i < entries.length; i++) {
      const [name, value] = entries[i];
      ReflectApply(callback, thisArg, [value, name, this]);
    }
  }

  entries() {
    return makeIterator(checkFormData(this), "key+value");
  }

  keys() {
    return makeIterator(checkFormData(this), "key");
  }

  values() {
    return makeIterator(checkFormData(this), "value");
  }

  get [Symbol.toStringTag]() {
    return "FormData";
  }
}
ObjectDefineProperty(FormData.prototype, SymbolIterator, {
  value: FormData.prototype.entries, writable: true, enumerable: false, configurable: true,
});

/// `%IteratorPrototype%`, which WebIDL iterator prototypes inherit from.
const IteratorPrototype = ReflectGetPrototypeOf(ReflectGetPrototypeOf([][Symbol.iterator]()));

let iteratorState;
class FormDataIterator {
  #entries;
  #kind;
  #index = 0;

  static {
    iteratorState = (value) => (value !== null && typeof value === "object" && #entries in value ? value : undefined);
  }

  constructor(entries, kind) {
    this.#entries = entries;
    this.#kind = kind;
  }

  next() {
    if (iteratorState(this) === undefined) throw new TypeError("Illegal invocation");
    // The live list, read at each step: entries added later are reached, removed ones are not.
    if (this.#index >= this.#entries.length) return { value: undefined, done: true };
    const [name, value] = this.#entries[this.#index++];
    const result = this.#kind === "key" ? name : this.#kind === "value" ? value : [name, value];
    return { value: result, done: false };
  }
}
Reflect.setPrototypeOf(FormDataIterator.prototype, IteratorPrototype);
ObjectDefineProperty(FormDataIterator.prototype, Symbol.toStringTag, { value: "FormData Iterator", configurable: true });
ObjectDefineProperty(FormDataIterator.prototype, "next", { enumerable: true });
const makeIterator = (entries, kind) => new FormDataIterator(entries, kind);

// MARK: - multipart/form-data

/// HTML's escaping of names and filenames in part headers: LF, CR and `"` percent-encoded.
const escapeName = (text) => StringPrototypeReplace(text, /[\n\r"]/g, (c) => (c === "\n" ? "%0A" : c === "\r" ? "%0D" : "%22"));
/// Lone CR and lone LF become CRLF (names and string values, not files).
const normalizeNewlines = (text) => StringPrototypeReplace(text, /\r\n|\r|\n/g, "\r\n");

/// A boundary as browsers make one: printable, unlikely to occur in the data.
function makeBoundary() {
  let text = "----formdata-jsbridge-";
  for (let i = 0; i < 24; i++) text += "0123456789abcdefghijklmnopqrstuvwxyz"[MathFloor(MathRandom() * 36)];
  return text;
}

/// The parts of `entries` (`[name, string | File]` pairs) as `multipart/form-data` with `boundary`: an array of
/// segments, each a string (to be UTF-8 encoded) or a `{ file, index }` placeholder for a File's bytes, so that a
/// caller can stream files instead of copying them. `serializeMultipart` joins them into bytes.
function multipartSegments(entries, boundary) {
  const segments = [];
  for (let i = 0; i < entries.length; i++) {
    const [rawName, value] = entries[i];
    const name = escapeName(normalizeNewlines(rawName));
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"`;
    if (typeof value === "string") {
      ArrayPrototypePush(segments, `${head}\r\n\r\n${normalizeNewlines(value)}\r\n`);
    } else {
      head += `; filename="${escapeName(value.name)}"\r\nContent-Type: ${value.type || "application/octet-stream"}\r\n\r\n`;
      ArrayPrototypePush(segments, head, { file: value, index: i }, "\r\n");
    }
  }
  ArrayPrototypePush(segments, `--${boundary}--\r\n`);
  return segments;
}

/// FormData (or its entry list) as `{ bytes, contentType }` in `multipart/form-data`.
function serializeMultipart(formData, boundary = makeBoundary()) {
  const entries = formData instanceof FormData ? checkFormData(formData) : formData;
  const utf8Encode = internal.utf8Encode;
  const chunks = [];
  let total = 0;
  for (const segment of multipartSegments(entries, boundary)) {
    const bytes = typeof segment === "string" ? utf8Encode(segment) : bytesOf(segment.file);
    ArrayPrototypePush(chunks, bytes);
    total += bytes.length;
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { bytes, contentType: `multipart/form-data; boundary=${boundary}` };
}

function indexOfBytes(bytes, pattern, from) {
  const first = pattern[0];
  const last = bytes.length - pattern.length;
  outer: for (let i = MethodIndexOf(bytes, first, from); i !== -1 && i <= last; i = MethodIndexOf(bytes, first, i + 1)) {
    for (let j = 1; j < pattern.length; j++) if (bytes[i + j] !== pattern[j]) continue outer;
    return i;
  }
  return -1;
}

const parseFailure = (why) => new TypeError(`Failed to parse body as FormData: ${why}`);

/// A `Content-Disposition` header's parameters (`name`, `filename`), quoted or not. A quoted value ends at the
/// next `"`: HTML's encoding escapes `"` as `%22` and leaves `\` as it is, so a backslash is not an escape.
function dispositionParameters(value) {
  const out = ObjectCreate(null);
  const pattern = /;\s*([^=;\s]+)\s*=\s*(?:"([^"]*)"|([^;]*))/g;
  let match;
  while ((match = RegExpPrototypeExec(pattern, value)) !== null) {
    const key = StringPrototypeToLowerCase(match[1]);
    if (key in out) continue;
    out[key] = match[2] !== undefined ? match[2] : MethodTrim(match[3]);
  }
  return out;
}

/// The entries of a `multipart/form-data` body (RFC 7578) delimited by `boundary`; a TypeError when it is
/// malformed.
function parseMultipart(bytes, boundary) {
  const utf8Encode = internal.utf8Encode;
  const delimiter = utf8Encode(`--${boundary}`);
  const crlfDelimiter = utf8Encode(`\r\n--${boundary}`);
  // The body starts with the first delimiter: no preamble.
  if (indexOfBytes(bytes, delimiter, 0) !== 0) throw parseFailure("the body does not start with the boundary");
  let position = delimiter.length;
  const formData = new FormData();
  const entries = entriesOf(formData);
  for (;;) {
    if (bytes[position] === 0x2d && bytes[position + 1] === 0x2d) {
      // The close delimiter: transport padding, then the end or CRLF and an epilogue, which is ignored.
      position += 2;
      while (bytes[position] === 0x20 || bytes[position] === 0x09) position++;
      if (position < bytes.length && (bytes[position] !== 0x0d || bytes[position + 1] !== 0x0a)) {
        throw parseFailure("data after the close delimiter");
      }
      return formData;
    }
    // Transport padding, then CRLF.
    while (bytes[position] === 0x20 || bytes[position] === 0x09) position++;
    if (bytes[position] !== 0x0d || bytes[position + 1] !== 0x0a) throw parseFailure("boundary not followed by CRLF");
    position += 2;
    const headerEnd = indexOfBytes(bytes, [0x0d, 0x0a, 0x0d, 0x0a], position);
    let headersText;
    let bodyStart;
    if (bytes[position] === 0x0d && bytes[position + 1] === 0x0a) {
      headersText = "";
      bodyStart = position + 2;
    } else {
      if (headerEnd === -1) throw parseFailure("part headers do not end");
      headersText = decodeUTF8(bytes.subarray(position, headerEnd));
      bodyStart = headerEnd + 4;
    }
    let name;
    let filename;
    let contentType; // undefined: no Content-Type header
    for (const line of MethodSplit(headersText, "\r\n")) {
      if (line === "") continue;
      // Header lines end with CRLF: a bare CR or LF, or a NUL, makes the part malformed.
      if (RegExpPrototypeTest(/[\r\n\0]/, line)) throw parseFailure(`bad part header ${JSONStringify(line)}`);
      const colon = StringPrototypeIndexOf(line, ":");
      if (colon <= 0) throw parseFailure(`bad part header ${JSONStringify(line)}`);
      const field = StringPrototypeToLowerCase(MethodTrim(StringPrototypeSlice(line, 0, colon)));
      if (!RegExpPrototypeTest(TOKEN_CODE, field)) throw parseFailure(`bad part header name ${JSONStringify(field)}`);
      const value = MethodTrim(StringPrototypeSlice(line, colon + 1));
      if (field === "content-disposition") {
        if (!RegExpPrototypeTest(/^form-data\s*(;|$)/i, value)) throw parseFailure("part is not form-data");
        const parameters = dispositionParameters(value);
        name = parameters.name;
        filename = parameters.filename;
      } else if (field === "content-type") {
        contentType = value;
      }
    }
    if (name === undefined) throw parseFailure("part has no name");
    const bodyEnd = indexOfBytes(bytes, crlfDelimiter, bodyStart - 2 >= 0 ? bodyStart - 2 : 0);
    if (bodyEnd === -1 || bodyEnd < bodyStart - 2) throw parseFailure("part does not end with the boundary");
    const body = bodyEnd < bodyStart ? new Uint8Array(0) : MethodSlice(bytes, bodyStart, bodyEnd);
    if (filename !== undefined) {
      // A parsed file has no modification time: lastModified 0, as the multipart parsing tests require.
      const type = contentType === undefined ? "text/plain" : extractMimeType(contentType);
      ArrayPrototypePush(entries, [name, makeFile(body, filename, normalizeBlobType(type), 0)]);
    } else {
      ArrayPrototypePush(entries, [name, decodeUTF8(body)]);
    }
    position = bodyEnd + crlfDelimiter.length;
    if (position > bytes.length) throw parseFailure("truncated");
  }
}

const normalizeBlobType = (type) => internal.blobInternals.normalizeType(type);

/// The entries of an `application/x-www-form-urlencoded` body.
/// The URL Standard's application/x-www-form-urlencoded parser, on bytes: split on `&` and the first `=`, `+`
/// as a space, percent-decoded, then each name and value UTF-8 decoded *without* BOM handling (a leading
/// U+FEFF is kept, as WPT's urlencoded-parser expects), invalid sequences as U+FFFD.
function parseURLEncoded(bytes) {
  const formData = new FormData();
  const entries = entriesOf(formData);
  const utf8Decode = internal.utf8Decode;
  const hex = (c) => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1);
  /// bytes[start, end) with `+` as a space, percent-decoded.
  const escaped = (i, end) => bytes[i] === 0x25 && i + 2 < end && hex(bytes[i + 1]) >= 0 && hex(bytes[i + 2]) >= 0;
  const decode = (start, end) => {
    let length = 0;
    for (let i = start; i < end; i++, length++) if (escaped(i, end)) i += 2;
    const out = new Uint8Array(length);
    length = 0;
    for (let i = start; i < end; i++) {
      const c = bytes[i];
      if (escaped(i, end)) {
        out[length++] = hex(bytes[i + 1]) * 16 + hex(bytes[i + 2]);
        i += 2;
      } else {
        out[length++] = c === 0x2b ? 0x20 : c;
      }
    }
    return utf8Decode(out);
  };
  let start = 0;
  while (start <= bytes.length) {
    let end = start;
    while (end < bytes.length && bytes[end] !== 0x26) end++;
    if (end > start) {
      let equals = start;
      while (equals < end && bytes[equals] !== 0x3d) equals++;
      ArrayPrototypePush(entries, [decode(start, equals), equals < end ? decode(equals + 1, end) : ""]);
    }
    start = end + 1;
  }
  return formData;
}

/// A body as FormData by its Content-Type (`multipart/form-data` with a boundary, or
/// `application/x-www-form-urlencoded`); a TypeError otherwise (the Fetch standard's `formData()`).
function parseFormDataBody(bytes, contentTypeValue) {
  const mime = contentTypeValue === null ? null : parseMimeType(contentTypeValue);
  if (mime !== null && mime.essence === "multipart/form-data") {
    const boundary = mime.parameters.get("boundary");
    if (boundary === undefined || boundary === "") throw parseFailure("multipart/form-data without a boundary");
    return parseMultipart(bytes, boundary);
  }
  if (mime !== null && mime.essence === "application/x-www-form-urlencoded") return parseURLEncoded(bytes);
  throw new TypeError(`Failed to parse body as FormData: the Content-Type is ${contentTypeValue === null ? "missing" : JSONStringify(contentTypeValue)}`);
}

// MARK: - MIME types (MIME Sniffing standard)

const TOKEN_CODE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const QUOTED_CODE = /^[\t\u0020-\u007e\u0080-\u00ff]*$/;
const HTTP_WS = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/// `{ type, subtype, essence, parameters: Map }`, or null when `input` is not a valid MIME type.
function parseMimeType(input) {
  input = StringPrototypeReplace(`${input}`, HTTP_WS, "");
  let position = StringPrototypeIndexOf(input, "/");
  if (position === -1) return null;
  const type = StringPrototypeSlice(input, 0, position);
  if (type === "" || !RegExpPrototypeTest(TOKEN_CODE, type)) return null;
  position++;
  let end = StringPrototypeIndexOf(input, ";", position);
  if (end === -1) end = input.length;
  const subtype = StringPrototypeReplace(StringPrototypeSlice(input, position, end), /[\t\n\r ]+$/, "");
  if (subtype === "" || !RegExpPrototypeTest(TOKEN_CODE, subtype)) return null;
  const result = {
    type: StringPrototypeToLowerCase(type), subtype: StringPrototypeToLowerCase(subtype), essence: "",
    parameters: new SafeMap(),
  };
  result.essence = `${result.type}/${result.subtype}`;
  position = end;
  while (position < input.length) {
    position++; // past ";"
    while (position < input.length && RegExpPrototypeTest(/[\t\n\r ]/, input[position])) position++;
    let nameEnd = position;
    while (nameEnd < input.length && input[nameEnd] !== ";" && input[nameEnd] !== "=") nameEnd++;
    const name = StringPrototypeToLowerCase(StringPrototypeSlice(input, position, nameEnd));
    position = nameEnd;
    if (position < input.length) {
      if (input[position] === ";") continue;
      position++; // past "="
    }
    if (position >= input.length) break;
    let value;
    if (input[position] === '"') {
      value = "";
      position++;
      for (;;) {
        while (position < input.length && input[position] !== '"' && input[position] !== "\\") value += input[position++];
        if (position < input.length && input[position] === "\\") {
          position++;
          if (position >= input.length) {
            value += "\\";
            break;
          }
          value += input[position++];
          continue;
        }
        position++; // past the closing quote (or the end)
        break;
      }
      while (position < input.length && input[position] !== ";") position++;
    } else {
      let valueEnd = StringPrototypeIndexOf(input, ";", position);
      if (valueEnd === -1) valueEnd = input.length;
      value = StringPrototypeReplace(StringPrototypeSlice(input, position, valueEnd), /[\t\n\r ]+$/, "");
      position = valueEnd;
      if (value === "") continue;
    }
    if (name !== "" && RegExpPrototypeTest(TOKEN_CODE, name) && RegExpPrototypeTest(QUOTED_CODE, value) && !result.parameters.has(name)) {
      result.parameters.set(name, value);
    }
  }
  return result;
}

/// Fetch's "extract a MIME type" from a header value: of its comma-separated values (commas in quoted
/// strings do not separate), the last that parses as a MIME type other than `*/*`, serialised; "" when none does.
function extractMimeType(value) {
  let found = "";
  for (const part of value.match(/(?:[^,"]|"(?:[^"\\]|\\.)*"?)+/g) ?? []) {
    const mime = parseMimeType(part);
    if (mime !== null && mime.essence !== "*/*") found = serializeMimeType(mime);
  }
  return found;
}

/// A parsed MIME type as text (parameters quoted when they need it).
function serializeMimeType(mime) {
  let text = mime.essence;
  for (const [name, value] of mime.parameters) {
    text += `;${name}=`;
    text += value !== "" && RegExpPrototypeTest(TOKEN_CODE, value) ? value : `"${StringPrototypeReplace(value, /["\\]/g, "\\$&")}"`;
  }
  return text;
}

internal.FormData = FormData;
internal.formDataInternals = ObjectFreeze({
  entriesOf: (value) => (value !== null && typeof value === "object" ? entriesOf(value) : undefined),
  multipartSegments,
  serializeMultipart,
  parseFormDataBody,
  parseMimeType,
  serializeMimeType,
  makeBoundary,
});
internal.defineGlobal("FormData", FormData);
