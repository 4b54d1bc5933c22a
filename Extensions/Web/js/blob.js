// blob.js - Blob and File (W3C File API). A Blob holds its bytes in one Uint8Array that no script can reach
// (slices share it), so reads are copies and a Blob never changes after construction. Lazy: it loads the
// first time a script (or fetch) uses Blob or File.

const {
  ArrayBufferIsView, ArrayPrototypePush, MathFloor, MathMax, MathMin, MathTrunc, MethodToWellFormed, NumberIsNaN,
  ObjectFreeze, PromiseReject, PromiseResolve, ReflectGetPrototypeOf, StringPrototypeCharCodeAt,
  StringPrototypeReplace, StringPrototypeToLowerCase, SymbolIterator, TypeError, Uint8Array,
} = internal.primordials;

const ArrayBufferCtor = ArrayBuffer;
const SharedArrayBufferCtor = typeof SharedArrayBuffer === "function" ? SharedArrayBuffer : undefined;
const DateNow = Date.now;
const TypedArrayPrototype = ReflectGetPrototypeOf(Uint8Array.prototype);
const TypedArraySet = TypedArrayPrototype.set;
const TypedArraySubarray = TypedArrayPrototype.subarray;
const TypedArraySlice = TypedArrayPrototype.slice;
const { ReflectApply: apply } = internal.primordials;

const u8Set = (target, source, offset) => apply(TypedArraySet, target, [source, offset]);
const u8Subarray = (bytes, start, end) => apply(TypedArraySubarray, bytes, [start, end]);
const u8Slice = (bytes, start, end) => apply(TypedArraySlice, bytes, [start, end]);

/// WebIDL `[Clamp] long long`: NaN is 0, infinities clamp, halves round to even.
function clampLongLong(value) {
  let n = +value;
  if (NumberIsNaN(n)) return 0;
  n = MathMin(MathMax(n, -9007199254740991), 9007199254740991);
  const floor = MathFloor(n);
  const diff = n - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/// WebIDL `long long` (no clamp): ToNumber, truncate, wrap modulo 2^64 into the signed range.
function toLongLong(value) {
  const n = +value;
  if (NumberIsNaN(n) || n === Infinity || n === -Infinity) return 0;
  let x = MathTrunc(n);
  if (x === 0) return 0;
  if (x >= -9007199254740991 && x <= 9007199254740991) return x;
  const big = BigInt.asIntN(64, BigInt(x));
  return Number(big);
}

/// The type rule for Blob/File constructors and slice(): any code point outside U+0020-U+007E makes the
/// type "", else it is lower-cased.
function normalizeType(type) {
  for (let i = 0; i < type.length; i++) {
    const c = StringPrototypeCharCodeAt(type, i);
    if (c < 0x20 || c > 0x7e) return "";
  }
  return StringPrototypeToLowerCase(type);
}

/// WebIDL USVString: lone surrogates become U+FFFD.
const toUSVString = (value) => {
  const text = `${value}`;
  return typeof text.toWellFormed === "function" ? MethodToWellFormed(text) : text;
};

/// Reads a `BlobPropertyBag` (members in WebIDL's order: endings, then type).
function readOptions(options) {
  if (options === undefined || options === null) return { endings: "transparent", type: "" };
  if (typeof options !== "object" && typeof options !== "function") {
    throw new TypeError("Failed to construct 'Blob': The provided value is not of type 'BlobPropertyBag'.");
  }
  let endings = options.endings;
  if (endings === undefined) {
    endings = "transparent";
  } else {
    endings = `${endings}`;
    if (endings !== "transparent" && endings !== "native") {
      throw new TypeError(`Failed to construct 'Blob': The provided value '${endings}' is not a valid enum value of type EndingType.`);
    }
  }
  const type = options.type === undefined ? "" : normalizeType(`${options.type}`);
  return { endings, type };
}

let utf8Encode;

/// The bytes of `blobParts` (a sequence of BufferSource, Blob or USVString), endings converted to "\n"
/// (this platform's native line ending) when `endings` is "native".
function processParts(blobParts, endings) {
  if (blobParts === undefined) return new Uint8Array(0);
  if (blobParts === null || (typeof blobParts !== "object" && typeof blobParts !== "function")) {
    throw new TypeError("Failed to construct 'Blob': The provided value cannot be converted to a sequence.");
  }
  const iteratorMethod = blobParts[SymbolIterator];
  if (typeof iteratorMethod !== "function") {
    throw new TypeError("Failed to construct 'Blob': The object must have a callable @@iterator property.");
  }
  utf8Encode ??= internal.utf8Encode;
  const chunks = [];
  let total = 0;
  // WebIDL converts the whole sequence first (each element to the union), then the algorithm reads them.
  const iterator = apply(iteratorMethod, blobParts, []);
  const next = iterator.next;
  for (;;) {
    const step = apply(next, iterator, []);
    if (step === null || (typeof step !== "object" && typeof step !== "function")) {
      throw new TypeError("Iterator result is not an object");
    }
    if (step.done) break;
    const element = step.value;
    let bytes;
    if (element !== null && typeof element === "object" && bytesOf(element) !== undefined) {
      bytes = bytesOf(element);
    } else if (element instanceof ArrayBufferCtor) {
      bytes = new Uint8Array(u8Slice(new Uint8Array(element), 0));
    } else if (ArrayBufferIsView(element) && !(SharedArrayBufferCtor !== undefined && element.buffer instanceof SharedArrayBufferCtor)) {
      bytes = u8Slice(new Uint8Array(element.buffer, element.byteOffset, element.byteLength), 0);
    } else {
      let text = toUSVString(element);
      if (endings === "native") text = StringPrototypeReplace(text, /\r\n|\r/g, "\n");
      bytes = utf8Encode(text);
    }
    ArrayPrototypePush(chunks, bytes);
    total += bytes.length;
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (let i = 0; i < chunks.length; i++) {
    u8Set(out, chunks[i], offset);
    offset += chunks[i].length;
  }
  return out;
}

let bytesOf;
let setBlob;

/// A Blob over `bytes` (not copied) of type `type` (already normalised).
const makeBlob = (bytes, type) => setBlob(new Blob(), bytes, type);

/// `bytes` as a fresh ArrayBuffer (a copy: the Blob's bytes never change).
function bufferCopy(bytes) {
  return u8Slice(bytes, 0).buffer;
}

let ReadableStreamCtor;

class Blob {
  #bytes;
  #type;

  static {
    bytesOf = (blob) => (#bytes in blob ? blob.#bytes : undefined);
    setBlob = (blob, bytes, type) => {
      blob.#bytes = bytes;
      blob.#type = type;
      return blob;
    };
  }

  constructor(blobParts = undefined, options = undefined) {
    const { endings, type } = readOptions(options);
    this.#bytes = processParts(blobParts, endings);
    this.#type = type;
  }

  get size() {
    return checkBlob(this).#bytes.length;
  }

  get type() {
    return checkBlob(this).#type;
  }

  /// Bytes [start, end) (negative indices count from the end) as a new Blob of type `contentType`.
  slice(start = undefined, end = undefined, contentType = undefined) {
    const bytes = checkBlob(this).#bytes;
    const size = bytes.length;
    let from = start === undefined ? 0 : clampLongLong(start);
    let to = end === undefined ? size : clampLongLong(end);
    from = from < 0 ? MathMax(size + from, 0) : MathMin(from, size);
    to = to < 0 ? MathMax(size + to, 0) : MathMin(to, size);
    const type = contentType === undefined ? "" : normalizeType(`${contentType}`);
    return makeBlob(u8Subarray(bytes, from, MathMax(to, from)), type);
  }

  /// The bytes decoded as UTF-8 (a leading BOM dropped, bad sequences replaced).
  text() {
    let bytes;
    try {
      bytes = checkBlob(this).#bytes;
    } catch (error) {
      return PromiseReject(error);
    }
    return PromiseResolve(decodeUTF8(bytes));
  }

  arrayBuffer() {
    let bytes;
    try {
      bytes = checkBlob(this).#bytes;
    } catch (error) {
      return PromiseReject(error);
    }
    return PromiseResolve(bufferCopy(bytes));
  }

  bytes() {
    let bytes;
    try {
      bytes = checkBlob(this).#bytes;
    } catch (error) {
      return PromiseReject(error);
    }
    return PromiseResolve(new Uint8Array(bufferCopy(bytes)));
  }

  /// A ReadableStream of the bytes, in chunks of at most 64 KiB.
  stream() {
    const bytes = checkBlob(this).#bytes;
    // Reading `internal.streams` loads streams.js, which sets `internal.ReadableStream`.
    if (ReadableStreamCtor === undefined && internal.streams !== undefined) ReadableStreamCtor = internal.ReadableStream;
    if (typeof ReadableStreamCtor !== "function") throw new TypeError("Blob.stream(): ReadableStream is not implemented");
    let offset = 0;
    return new ReadableStreamCtor({
      type: "bytes",
      pull(controller) {
        if (offset >= bytes.length) {
          controller.close();
          controller.byobRequest?.respond(0);
          return;
        }
        const end = MathMin(offset + 65536, bytes.length);
        controller.enqueue(u8Slice(bytes, offset, end));
        offset = end;
      },
    });
  }

  get [Symbol.toStringTag]() {
    return "Blob";
  }
}

function checkBlob(value) {
  if (value === null || (typeof value !== "object" && typeof value !== "function") || bytesOf(value) === undefined) {
    throw new TypeError("Illegal invocation");
  }
  return value;
}

let utf8Decode;
function decodeUTF8(bytes) {
  utf8Decode ??= internal.utf8Decode;
  let start = 0;
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  return utf8Decode(start === 0 ? bytes : u8Subarray(bytes, start, bytes.length));
}

class File extends Blob {
  #name;
  #lastModified;

  constructor(fileBits, fileName, options = undefined) {
    if (arguments.length < 2) {
      throw new TypeError(`Failed to construct 'File': 2 arguments required, but only ${arguments.length} present.`);
    }
    // FilePropertyBag members in WebIDL's order: endings, lastModified, type (Blob reads endings and type).
    if (options !== undefined && options !== null && typeof options !== "object" && typeof options !== "function") {
      throw new TypeError("Failed to construct 'File': The provided value is not of type 'FilePropertyBag'.");
    }
    const bag = options ?? undefined;
    let endings;
    let lastModified;
    let type;
    if (bag !== undefined) {
      endings = bag.endings;
      lastModified = bag.lastModified;
      type = bag.type;
    }
    super(fileBits, { endings, type });
    this.#name = toUSVString(fileName);
    this.#lastModified = lastModified === undefined ? DateNow() : toLongLong(lastModified);
  }

  get name() {
    if (!(#name in this)) throw new TypeError("Illegal invocation");
    return this.#name;
  }

  get lastModified() {
    if (!(#name in this)) throw new TypeError("Illegal invocation");
    return this.#lastModified;
  }

  get webkitRelativePath() {
    if (!(#name in this)) throw new TypeError("Illegal invocation");
    return "";
  }

  get [Symbol.toStringTag]() {
    return "File";
  }
}

/// A File over `bytes` (not copied) without running the constructor's conversions.
function makeFile(bytes, name, type, lastModified = DateNow()) {
  return setBlob(new File([], name, { lastModified }), bytes, type);
}

const isFile = (value) => value instanceof File;

internal.Blob = Blob;
internal.File = File;
internal.blobInternals = ObjectFreeze({
  /// The Blob's bytes (shared: callers must not write to them), or undefined when `value` is not a Blob.
  bytesOf: (value) => (value !== null && typeof value === "object" ? bytesOf(value) : undefined),
  makeBlob,
  makeFile,
  isFile,
  decodeUTF8,
  normalizeType,
  toUSVString,
});
internal.defineGlobal("Blob", Blob);
internal.defineGlobal("File", File);
