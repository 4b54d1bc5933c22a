// `node:zlib`: Deflate, Inflate, Gzip, Gunzip, DeflateRaw, InflateRaw, Unzip, BrotliCompress and
// BrotliDecompress as Transform streams (node:stream's), their `create...` functions, the convenience forms
// (`gzip(buffer, [options], callback)`, promisify-compatible, and `gzipSync(buffer, [options])`), `constants`,
// `codes` and `crc32`, following Node's documented behaviour: options `level`, `windowBits`, `memLevel`,
// `strategy`, `dictionary`, `chunkSize`, `flush`, `finishFlush`, `maxOutputLength`, `info` and brotli's
// `params`; `flush()`, `params()`, `reset()`, `close()`; errors with zlib's messages and Node's codes
// (`Z_DATA_ERROR`, `Z_BUF_ERROR`, ...). Written for jsbridge from Node's documentation.
//
// The engines are natives (ZlibNatives.swift over the zlib and brotli libraries): each write is one library
// call that fills at most the rest of a `chunkSize` output chunk, as Node's binding does, so the chunks a
// stream pushes have Node's sizes and a reader's back-pressure stops the engine between chunks. A write of
// more than 64 KiB of input (and any brotli compression) runs on a worker thread; the others on the JS
// thread, their results delivered in a later microtask. The `...Sync` forms run on the JS thread.

const {
  ArrayBufferIsView, ArrayPrototypePush, DataViewPrototypeGetBuffer,
  DataViewPrototypeGetByteLength, DataViewPrototypeGetByteOffset, Error, FunctionPrototypeCall, JSONStringify,
  MethodSlice, MethodStartsWith, NumberIsFinite, NumberIsInteger, NumberIsNaN, ObjectCreate, ObjectDefineProperty, ObjectFreeze, ObjectKeys,
  ObjectSetPrototypeOf, RangeError, SafeMap, TypedArrayPrototypeGetBuffer, TypedArrayPrototypeGetByteLength,
  TypedArrayPrototypeGetByteOffset, Uint8Array,
} = internal.primordials;
const { checkFunction, invalidArgType, make, outOfRange } = internal.nodeErrors;
const { Transform, finished } = internal.nodeBuiltin("stream");
const { Buffer, kMaxLength } = internal.nodeBuiltin("buffer");
const { isAnyArrayBuffer, isArrayBuffer, isDataView } = internal.nodeBuiltin("util").types;
const { brotliOpen, zlibCrc32, zlibOpen } = internal;

const nextTick = (fn, ...args) => queueMicrotask(() => fn(...args));

// MARK: - Constants

const constants = ObjectCreate(null);
for (const [name, value] of [
  ["Z_NO_FLUSH", 0], ["Z_PARTIAL_FLUSH", 1], ["Z_SYNC_FLUSH", 2], ["Z_FULL_FLUSH", 3], ["Z_FINISH", 4], ["Z_BLOCK", 5],
  ["Z_OK", 0], ["Z_STREAM_END", 1], ["Z_NEED_DICT", 2], ["Z_ERRNO", -1], ["Z_STREAM_ERROR", -2],
  ["Z_DATA_ERROR", -3], ["Z_MEM_ERROR", -4], ["Z_BUF_ERROR", -5], ["Z_VERSION_ERROR", -6],
  ["Z_NO_COMPRESSION", 0], ["Z_BEST_SPEED", 1], ["Z_BEST_COMPRESSION", 9], ["Z_DEFAULT_COMPRESSION", -1],
  ["Z_FILTERED", 1], ["Z_HUFFMAN_ONLY", 2], ["Z_RLE", 3], ["Z_FIXED", 4], ["Z_DEFAULT_STRATEGY", 0],
  ["ZLIB_VERNUM", internal.zlibVersionNumber()],
  ["DEFLATE", 1], ["INFLATE", 2], ["GZIP", 3], ["GUNZIP", 4], ["DEFLATERAW", 5], ["INFLATERAW", 6], ["UNZIP", 7],
  ["BROTLI_DECODE", 8], ["BROTLI_ENCODE", 9],
  ["Z_MIN_WINDOWBITS", 8], ["Z_MAX_WINDOWBITS", 15], ["Z_DEFAULT_WINDOWBITS", 15], ["Z_MIN_CHUNK", 64],
  ["Z_MAX_CHUNK", Infinity], ["Z_DEFAULT_CHUNK", 16384], ["Z_MIN_MEMLEVEL", 1], ["Z_MAX_MEMLEVEL", 9],
  ["Z_DEFAULT_MEMLEVEL", 8], ["Z_MIN_LEVEL", -1], ["Z_MAX_LEVEL", 9], ["Z_DEFAULT_LEVEL", -1],
  ["BROTLI_OPERATION_PROCESS", 0], ["BROTLI_OPERATION_FLUSH", 1], ["BROTLI_OPERATION_FINISH", 2],
  ["BROTLI_OPERATION_EMIT_METADATA", 3], ["BROTLI_PARAM_MODE", 0], ["BROTLI_MODE_GENERIC", 0],
  ["BROTLI_MODE_TEXT", 1], ["BROTLI_MODE_FONT", 2], ["BROTLI_DEFAULT_MODE", 0], ["BROTLI_PARAM_QUALITY", 1],
  ["BROTLI_MIN_QUALITY", 0], ["BROTLI_MAX_QUALITY", 11], ["BROTLI_DEFAULT_QUALITY", 11], ["BROTLI_PARAM_LGWIN", 2],
  ["BROTLI_MIN_WINDOW_BITS", 10], ["BROTLI_MAX_WINDOW_BITS", 24], ["BROTLI_LARGE_MAX_WINDOW_BITS", 30],
  ["BROTLI_DEFAULT_WINDOW", 22], ["BROTLI_PARAM_LGBLOCK", 3], ["BROTLI_MIN_INPUT_BLOCK_BITS", 16],
  ["BROTLI_MAX_INPUT_BLOCK_BITS", 24], ["BROTLI_PARAM_DISABLE_LITERAL_CONTEXT_MODELING", 4],
  ["BROTLI_PARAM_SIZE_HINT", 5], ["BROTLI_PARAM_LARGE_WINDOW", 6], ["BROTLI_PARAM_NPOSTFIX", 7],
  ["BROTLI_PARAM_NDIRECT", 8], ["BROTLI_DECODER_RESULT_ERROR", 0], ["BROTLI_DECODER_RESULT_SUCCESS", 1],
  ["BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT", 2], ["BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT", 3],
  ["BROTLI_DECODER_PARAM_DISABLE_RING_BUFFER_REALLOCATION", 0], ["BROTLI_DECODER_PARAM_LARGE_WINDOW", 1],
  ["BROTLI_DECODER_NO_ERROR", 0], ["BROTLI_DECODER_SUCCESS", 1], ["BROTLI_DECODER_NEEDS_MORE_INPUT", 2],
  ["BROTLI_DECODER_NEEDS_MORE_OUTPUT", 3], ["BROTLI_DECODER_ERROR_FORMAT_EXUBERANT_NIBBLE", -1],
  ["BROTLI_DECODER_ERROR_FORMAT_RESERVED", -2], ["BROTLI_DECODER_ERROR_FORMAT_EXUBERANT_META_NIBBLE", -3],
  ["BROTLI_DECODER_ERROR_FORMAT_SIMPLE_HUFFMAN_ALPHABET", -4], ["BROTLI_DECODER_ERROR_FORMAT_SIMPLE_HUFFMAN_SAME", -5],
  ["BROTLI_DECODER_ERROR_FORMAT_CL_SPACE", -6], ["BROTLI_DECODER_ERROR_FORMAT_HUFFMAN_SPACE", -7],
  ["BROTLI_DECODER_ERROR_FORMAT_CONTEXT_MAP_REPEAT", -8], ["BROTLI_DECODER_ERROR_FORMAT_BLOCK_LENGTH_1", -9],
  ["BROTLI_DECODER_ERROR_FORMAT_BLOCK_LENGTH_2", -10], ["BROTLI_DECODER_ERROR_FORMAT_TRANSFORM", -11],
  ["BROTLI_DECODER_ERROR_FORMAT_DICTIONARY", -12], ["BROTLI_DECODER_ERROR_FORMAT_WINDOW_BITS", -13],
  ["BROTLI_DECODER_ERROR_FORMAT_PADDING_1", -14], ["BROTLI_DECODER_ERROR_FORMAT_PADDING_2", -15],
  ["BROTLI_DECODER_ERROR_FORMAT_DISTANCE", -16], ["BROTLI_DECODER_ERROR_DICTIONARY_NOT_SET", -19],
  ["BROTLI_DECODER_ERROR_INVALID_ARGUMENTS", -20], ["BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MODES", -21],
  ["BROTLI_DECODER_ERROR_ALLOC_TREE_GROUPS", -22], ["BROTLI_DECODER_ERROR_ALLOC_CONTEXT_MAP", -25],
  ["BROTLI_DECODER_ERROR_ALLOC_RING_BUFFER_1", -26], ["BROTLI_DECODER_ERROR_ALLOC_RING_BUFFER_2", -27],
  ["BROTLI_DECODER_ERROR_ALLOC_BLOCK_TYPE_TREES", -30], ["BROTLI_DECODER_ERROR_UNREACHABLE", -31],
]) {
  constants[name] = value;
}
const {
  Z_NO_FLUSH, Z_BLOCK, Z_PARTIAL_FLUSH, Z_SYNC_FLUSH, Z_FULL_FLUSH, Z_FINISH, Z_DEFAULT_COMPRESSION,
  Z_DEFAULT_STRATEGY, Z_FIXED, Z_MIN_WINDOWBITS, Z_MAX_WINDOWBITS, Z_DEFAULT_WINDOWBITS, Z_MIN_CHUNK, Z_DEFAULT_CHUNK,
  Z_MIN_MEMLEVEL, Z_MAX_MEMLEVEL, Z_DEFAULT_MEMLEVEL, Z_MIN_LEVEL, Z_MAX_LEVEL, DEFLATE, INFLATE, GZIP, GUNZIP,
  DEFLATERAW, INFLATERAW, UNZIP, BROTLI_DECODE, BROTLI_ENCODE, BROTLI_OPERATION_PROCESS, BROTLI_OPERATION_FLUSH,
  BROTLI_OPERATION_FINISH, BROTLI_OPERATION_EMIT_METADATA,
} = constants;
/// The highest brotli parameter key (BROTLI_PARAM_NDIRECT).
const maxBrotliParam = 8;

const codes = {
  Z_OK: 0, Z_STREAM_END: 1, Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2, Z_DATA_ERROR: -3, Z_MEM_ERROR: -4,
  Z_BUF_ERROR: -5, Z_VERSION_ERROR: -6,
};
for (const name of ObjectKeys(codes)) codes[codes[name]] = name;

// How much each flush flag flushes: a stream's last write uses the more of its flag and `finishFlush`.
const flushiness = [];
const flushOrder = [Z_NO_FLUSH, Z_BLOCK, Z_PARTIAL_FLUSH, Z_SYNC_FLUSH, Z_FULL_FLUSH, Z_FINISH];
for (let rank = 0; rank < flushOrder.length; rank++) flushiness[flushOrder[rank]] = rank;
const maxFlush = (a, b) => flushiness[a] > flushiness[b] ? a : b;

// Empty writes that carry a flush flag from `flush()` to the engine.
const kFlushFlag = Symbol("kFlushFlag");
const flushBuffers = [];
for (let flag = 0; flag <= Z_BLOCK; flag++) {
  flushBuffers[flag] = Buffer.alloc(0);
  flushBuffers[flag][kFlushFlag] = flag;
}

const kError = Symbol("kError");
const kOwner = Symbol("kOwner");

// MARK: - Arguments

/// Whether `value` is a number to use (false: undefined or NaN, the default applies); throws for other types
/// and infinities.
function isFiniteNumber(value, name) {
  if (value === undefined) return false;
  if (NumberIsFinite(value)) return true;
  if (NumberIsNaN(value)) return false;
  if (typeof value !== "number") throw invalidArgType(name, "number", value);
  throw outOfRange(name, "a finite number", value);
}

/// `value` when given and within [lower, upper]; `fallback` when undefined or NaN; else ERR_OUT_OF_RANGE.
function rangeOrDefault(value, name, lower, upper, fallback) {
  if (!isFiniteNumber(value, name)) return fallback;
  if (value < lower || value > upper) throw outOfRange(name, `>= ${lower} and <= ${upper}`, value);
  return value;
}

/// [ArrayBuffer, offset, length] of a view (a view on a SharedArrayBuffer is copied: the natives read
/// ArrayBuffers).
/** @returns {[any, number, number]} */
function rangeOf(view) {
  const dataView = isDataView(view);
  const buffer = dataView ? DataViewPrototypeGetBuffer(view) : TypedArrayPrototypeGetBuffer(view);
  const offset = dataView ? DataViewPrototypeGetByteOffset(view) : TypedArrayPrototypeGetByteOffset(view);
  const length = dataView ? DataViewPrototypeGetByteLength(view) : TypedArrayPrototypeGetByteLength(view);
  if (isArrayBuffer(buffer)) return [buffer, offset, length];
  const copy = new Uint8Array(length);
  copy.set(new Uint8Array(buffer, offset, length));
  return [copy.buffer, 0, length];
}

function bufferTooLarge(max) {
  return make(RangeError, "ERR_BUFFER_TOO_LARGE", `Cannot create a Buffer larger than ${max} bytes`);
}

function bindingClosed() {
  return make(Error, "ERR_INTERNAL_ASSERTION",
    "zlib binding closed\nThis is caused by either a bug in Node.js or incorrect usage of Node.js internals.\n" +
    "Please open an issue with this stack trace at https://github.com/nodejs/node/issues\n");
}

// MARK: - The binding: one native engine

const running = new SafeMap(); // id -> handle whose write runs on a worker thread
let listening = false;
let nextID = 1;

/// A worker's write ended: take its result (always: the loop waits until it is taken) and go on.
function onWorkerDone(payload) {
  const handle = running.get(payload.id);
  if (handle === undefined) return;
  running.delete(payload.id);
  afterWrite(handle, handle.native(2));
}

/// What a stream's `_handle` is: the native engine and the write in progress.
class ZlibHandle {
  constructor(native, id) {
    this.native = native;
    this.id = id;
    this[kOwner] = null;
    this.cb = null;
    this.availInBefore = 0;
    this.availOutBefore = 0;
    this.flushFlag = 0;
  }

  /// One engine call on the JS thread: [availOutAfter, availInAfter, output?, message?, code?, errno?].
  writeSync(flushFlag, chunk, outLength) {
    const [buffer, offset, length] = chunk === undefined ? [undefined, 0, 0] : rangeOf(chunk);
    return this.native(0, flushFlag, buffer, offset, length, outLength);
  }

  /// One engine call whose result reaches `processCallback` later (on a worker when the input is large).
  write(flushFlag, chunk, outLength) {
    const [buffer, offset, length] = chunk === undefined ? [undefined, 0, 0] : rangeOf(chunk);
    const result = this.native(1, flushFlag, buffer, offset, length, outLength);
    if (result !== undefined) {
      nextTick(afterWrite, this, result);
      return;
    }
    if (!listening) {
      listening = true;
      internal.onNativeEvent("", "zlib", onWorkerDone);
    }
    running.set(this.id, this);
  }

  params(level, strategy) {
    const failure = this.native(3, level, strategy);
    if (failure !== undefined) onError(this, failure[0], failure[1], failure[2]);
  }

  reset() {
    const failure = this.native(4);
    if (failure !== undefined) onError(this, failure[0], failure[1], failure[2]);
  }

  close() {
    this.native(5);
  }
}

/// The code of a brotli decoding error as Node names it: "ERR_" and the constant's name after
/// "BROTLI_DECODER" ("ERR__ERROR_FORMAT_PADDING_1"), whatever the linked library's own string says.
function brotliErrorCode(errno, fallback) {
  for (const name of ObjectKeys(constants)) {
    if (constants[name] === errno && MethodStartsWith(name, "BROTLI_DECODER_ERROR_")) {
      return `ERR_${MethodSlice(name, "BROTLI_DECODER".length)}`;
    }
  }
  return fallback;
}

/// An engine failure: the stream is destroyed with zlib's message and Node's `errno` and `code`.
function onError(handle, message, code, errno) {
  if (message === "Decompression failed") code = brotliErrorCode(errno, code);
  const self = handle[kOwner];
  const error = internal.nodeStack(new Error(message));
  error.errno = errno;
  error.code = code;
  self.destroy(error);
  self[kError] = error;
}

function afterWrite(handle, result) {
  if (result.length > 3) {
    onError(handle, result[3], result[4], result[5]);
    return;
  }
  processCallback(handle, result);
}

// MARK: - ZlibBase: the Transform over an engine

const zlibFlushes = { flush: Z_NO_FLUSH, finishFlush: Z_FINISH, fullFlush: Z_FULL_FLUSH };
const brotliFlushes = {
  flush: BROTLI_OPERATION_PROCESS, finishFlush: BROTLI_OPERATION_FINISH, fullFlush: BROTLI_OPERATION_FLUSH,
};

/** @type {any} */
const ZlibBase = function ZlibBase(opts, mode, handle, flushes) {
  let chunkSize = Z_DEFAULT_CHUNK;
  let maxOutputLength = kMaxLength;
  let { flush, finishFlush } = flushes;
  const [lowestFlush, highestFlush] = mode === BROTLI_ENCODE || mode === BROTLI_DECODE
    ? [BROTLI_OPERATION_PROCESS, BROTLI_OPERATION_EMIT_METADATA] : [Z_NO_FLUSH, Z_BLOCK];
  if (opts) {
    chunkSize = opts.chunkSize;
    if (!isFiniteNumber(chunkSize, "options.chunkSize")) {
      chunkSize = Z_DEFAULT_CHUNK;
    } else if (chunkSize < Z_MIN_CHUNK) {
      throw outOfRange("options.chunkSize", `>= ${Z_MIN_CHUNK}`, chunkSize);
    }
    flush = rangeOrDefault(opts.flush, "options.flush", lowestFlush, highestFlush, flush);
    finishFlush = rangeOrDefault(opts.finishFlush, "options.finishFlush", lowestFlush, highestFlush, finishFlush);
    maxOutputLength = rangeOrDefault(opts.maxOutputLength, "options.maxOutputLength", 1, kMaxLength, kMaxLength);
    if (opts.encoding || opts.objectMode || opts.writableObjectMode) {
      opts = { ...opts, encoding: null, objectMode: false, writableObjectMode: false };
    }
  }
  FunctionPrototypeCall(Transform, this, { autoDestroy: true, ...opts });
  this[kError] = null;
  this.bytesWritten = 0;
  this._handle = handle;
  handle[kOwner] = this;
  this._outOffset = 0;
  this._chunkSize = chunkSize;
  this._defaultFlushFlag = flush;
  this._finishFlushFlag = finishFlush;
  this._defaultFullFlushFlag = flushes.fullFlush;
  this._info = opts && opts.info;
  this._maxOutputLength = maxOutputLength;
};
ObjectSetPrototypeOf(ZlibBase.prototype, Transform.prototype);
ObjectSetPrototypeOf(ZlibBase, Transform);

ObjectDefineProperty(ZlibBase.prototype, "_closed", {
  configurable: true, enumerable: true,
  get() {
    return !this._handle;
  },
});

let bytesReadWarned = false;
function warnBytesRead(message) {
  if (bytesReadWarned) return;
  bytesReadWarned = true;
  process.emitWarning(message, "DeprecationWarning", "DEP0108");
}
ObjectDefineProperty(ZlibBase.prototype, "bytesRead", {
  configurable: true, enumerable: true,
  get() {
    warnBytesRead(
      "zlib.bytesRead is deprecated and will change its meaning in the future. Use zlib.bytesWritten instead.");
    return this.bytesWritten;
  },
  set(value) {
    warnBytesRead("Setting zlib.bytesRead is deprecated. This feature will be removed in the future.");
    this.bytesWritten = value;
  },
});

ZlibBase.prototype.reset = function () {
  if (!this._handle) throw bindingClosed();
  return this._handle.reset();
};

// The readable side ends after the last write, made with `finishFlush` (Transform calls `_flush` then).
ZlibBase.prototype._flush = function (callback) {
  this._transform(Buffer.alloc(0), "", callback);
};

// The writable side finishes at once; the output is flushed through `_flush` (at 'prefinish').
ZlibBase.prototype._final = function (callback) {
  callback();
};

ZlibBase.prototype.flush = function (kind, callback) {
  if (typeof kind === "function" || (kind === undefined && !callback)) {
    callback = kind;
    kind = this._defaultFullFlushFlag;
  }
  if (this.writableFinished) {
    if (callback) nextTick(callback);
  } else if (this.writableEnded) {
    if (callback) this.once("end", callback);
  } else {
    this.write(flushBuffers[kind], "", callback);
  }
};

ZlibBase.prototype.close = function (callback) {
  if (callback) finished(this, callback);
  this.destroy();
};

ZlibBase.prototype._destroy = function (error, callback) {
  closeEngine(this);
  callback(error);
};

ZlibBase.prototype._transform = function (chunk, encoding, callback) {
  let flushFlag = this._defaultFlushFlag;
  if (typeof chunk[kFlushFlag] === "number") flushFlag = chunk[kFlushFlag];
  // The last chunk also flushes as `finishFlush` says.
  if (this.writableEnded && this.writableLength === chunk.byteLength) {
    flushFlag = maxFlush(flushFlag, this._finishFlushFlag);
  }
  processChunk(this, chunk, flushFlag, callback);
};

ZlibBase.prototype._processChunk = function (chunk, flushFlag, callback) {
  if (typeof callback === "function") processChunk(this, chunk, flushFlag, callback);
  else return processChunkSync(this, chunk, flushFlag);
};

function closeEngine(stream) {
  if (!stream._handle) return;
  stream._handle.close();
  stream._handle = null;
}

/// Runs `chunk` through the engine on the JS thread: every output chunk, joined.
function processChunkSync(self, chunk, flushFlag) {
  let availInBefore = chunk.byteLength;
  let availOutBefore = self._chunkSize - self._outOffset;
  let offset = self._outOffset;
  const chunkSize = self._chunkSize;
  const handle = self._handle;
  if (!handle) throw bindingClosed();
  const buffers = [];
  let nread = 0;
  let inputRead = 0;
  let error;
  self.on("error", (e) => {
    error = e;
  });
  let input = chunk;
  while (true) {
    const result = handle.writeSync(flushFlag, input, availOutBefore);
    input = undefined; // later calls go on with what the engine holds
    if (result.length > 3) onError(handle, result[3], result[4], result[5]);
    if (error) throw error;
    if (self[kError]) throw self[kError];
    const [availOutAfter, availInAfter, output] = result;
    inputRead += availInBefore - availInAfter;
    const have = availOutBefore - availOutAfter;
    if (have > 0) {
      ArrayPrototypePush(buffers, Buffer.from(output, 0, have));
      offset += have;
      nread += have;
      if (nread > self._maxOutputLength) {
        closeEngine(self);
        throw bufferTooLarge(self._maxOutputLength);
      }
    }
    if (availOutAfter === 0 || offset >= chunkSize) {
      availOutBefore = chunkSize;
      offset = 0;
    }
    if (availOutAfter !== 0) break;
    // The output filled up: go on with the input left.
    availInBefore = availInAfter;
  }
  self.bytesWritten = inputRead;
  closeEngine(self);
  if (nread === 0) return Buffer.alloc(0);
  return buffers.length === 1 ? buffers[0] : Buffer.concat(buffers, nread);
}

/// Starts `chunk` through the engine; `processCallback` goes on with each output chunk, then calls `callback`.
function processChunk(self, chunk, flushFlag, callback) {
  const handle = self._handle;
  if (!handle) {
    nextTick(callback);
    return;
  }
  handle.cb = callback;
  handle.availOutBefore = self._chunkSize - self._outOffset;
  handle.availInBefore = chunk.byteLength;
  handle.flushFlag = flushFlag;
  handle.write(flushFlag, chunk, handle.availOutBefore);
}

function processCallback(handle, result) {
  const self = handle[kOwner];
  if (self.destroyed) {
    handle.cb();
    return;
  }
  const [availOutAfter, availInAfter, output] = result;
  self.bytesWritten += handle.availInBefore - availInAfter;
  const have = handle.availOutBefore - availOutAfter;
  let readerIsFull = false;
  if (have > 0) {
    self._outOffset += have;
    readerIsFull = !self.push(Buffer.from(output, 0, have));
  }
  if (self.destroyed) {
    handle.cb();
    return;
  }
  if (availOutAfter === 0 || self._outOffset >= self._chunkSize) {
    handle.availOutBefore = self._chunkSize;
    self._outOffset = 0;
  }
  if (availOutAfter === 0) {
    // The output chunk filled: the engine goes on with the input left, once the reader wants more.
    handle.availInBefore = availInAfter;
    if (!readerIsFull) {
      handle.write(handle.flushFlag, undefined, self._chunkSize);
    } else {
      const read = self._read;
      self._read = (n) => {
        self._read = read;
        handle.write(handle.flushFlag, undefined, self._chunkSize);
        self._read(n);
      };
    }
    return;
  }
  // Input left with output space to spare: the compressed stream ended before the input did.
  if (availInAfter > 0) self.push(null);
  handle.cb();
}

// MARK: - Zlib and brotli streams

/** @type {any} */
const Zlib = function Zlib(opts, mode) {
  let windowBits = Z_DEFAULT_WINDOWBITS;
  let level = Z_DEFAULT_COMPRESSION;
  let memLevel = Z_DEFAULT_MEMLEVEL;
  let strategy = Z_DEFAULT_STRATEGY;
  let dictionary;
  if (opts) {
    // 0 lets an inflate read the window size from the header; compression needs 8...15 (gzip 9...15).
    if ((opts.windowBits === null || opts.windowBits === undefined || opts.windowBits === 0) &&
      (mode === INFLATE || mode === GUNZIP || mode === UNZIP)) {
      windowBits = 0;
    } else {
      const lowest = Z_MIN_WINDOWBITS + (mode === GZIP ? 1 : 0);
      windowBits = rangeOrDefault(opts.windowBits, "options.windowBits", lowest, Z_MAX_WINDOWBITS,
        Z_DEFAULT_WINDOWBITS);
    }
    level = rangeOrDefault(opts.level, "options.level", Z_MIN_LEVEL, Z_MAX_LEVEL, Z_DEFAULT_COMPRESSION);
    memLevel = rangeOrDefault(opts.memLevel, "options.memLevel", Z_MIN_MEMLEVEL, Z_MAX_MEMLEVEL, Z_DEFAULT_MEMLEVEL);
    strategy = rangeOrDefault(opts.strategy, "options.strategy", Z_DEFAULT_STRATEGY, Z_FIXED, Z_DEFAULT_STRATEGY);
    dictionary = opts.dictionary;
    if (dictionary !== undefined && !ArrayBufferIsView(dictionary)) {
      if (!isAnyArrayBuffer(dictionary)) {
        throw invalidArgType("options.dictionary", ["Buffer", "TypedArray", "DataView", "ArrayBuffer"], dictionary);
      }
      dictionary = Buffer.from(dictionary);
    }
  }
  const id = nextID++;
  const [buffer, offset, length] = dictionary === undefined ? [undefined, 0, 0] : rangeOf(dictionary);
  const handle = new ZlibHandle(
    zlibOpen(id, mode, windowBits, level, memLevel, strategy, buffer, offset, length), id);
  FunctionPrototypeCall(ZlibBase, this, opts, mode, handle, zlibFlushes);
  this._level = level;
  this._strategy = strategy;
};
ObjectSetPrototypeOf(Zlib.prototype, ZlibBase.prototype);
ObjectSetPrototypeOf(Zlib, ZlibBase);

Zlib.prototype.params = function params(level, strategy, callback) {
  rangeOrDefault(level, "level", Z_MIN_LEVEL, Z_MAX_LEVEL);
  rangeOrDefault(strategy, "strategy", Z_DEFAULT_STRATEGY, Z_FIXED);
  if (this._level !== level || this._strategy !== strategy) {
    // After a sync flush: the new parameters apply from a block boundary.
    this.flush(Z_SYNC_FLUSH, () => {
      if (!this._handle) throw bindingClosed();
      this._handle.params(level, strategy);
      if (!this.destroyed) {
        this._level = level;
        this._strategy = strategy;
        if (callback) callback();
      }
    });
  } else {
    checkFunction(callback, "callback");
    nextTick(callback);
  }
};

/** @type {any} */
const Brotli = function Brotli(opts, mode) {
  const params = [];
  for (let key = 0; key <= maxBrotliParam; key++) params[key] = 0xffffffff;
  if (opts?.params) {
    const given = [];
    for (const name of ObjectKeys(opts.params)) {
      const key = +name;
      if (NumberIsNaN(key) || key < 0 || key > maxBrotliParam || given[key]) {
        throw make(RangeError, "ERR_BROTLI_INVALID_PARAM", `${name} is not a valid Brotli parameter`);
      }
      given[key] = true;
      const value = opts.params[name];
      if (typeof value !== "number" && typeof value !== "boolean") {
        throw invalidArgType("options.params[key]", "number", value);
      }
      params[key] = +value >>> 0;
    }
  }
  const id = nextID++;
  const native = brotliOpen(id, mode, JSONStringify(params));
  if (native === undefined) throw make(Error, "ERR_ZLIB_INITIALIZATION_FAILED", "Initialization failed");
  FunctionPrototypeCall(ZlibBase, this, opts, mode, new ZlibHandle(native, id), brotliFlushes);
};
ObjectSetPrototypeOf(Brotli.prototype, ZlibBase.prototype);
ObjectSetPrototypeOf(Brotli, ZlibBase);

/// The public classes: callable without `new`, as Node's.
function streamClass(name, Base, mode, adjust) {
  /** @type {any} */
  const Class = {
    [name]: function (opts) {
      if (!(this instanceof Class)) return new Class(opts);
      if (adjust !== undefined) adjust(opts);
      FunctionPrototypeCall(Base, this, opts, mode);
    },
  }[name];
  ObjectSetPrototypeOf(Class.prototype, Base.prototype);
  ObjectSetPrototypeOf(Class, Base);
  return Class;
}

const Deflate = streamClass("Deflate", Zlib, DEFLATE);
const Inflate = streamClass("Inflate", Zlib, INFLATE);
const Gzip = streamClass("Gzip", Zlib, GZIP);
const Gunzip = streamClass("Gunzip", Zlib, GUNZIP);
// zlib turns a raw window of 8 bits into 9; Node asks for 9 at once.
const DeflateRaw = streamClass("DeflateRaw", Zlib, DEFLATERAW, (opts) => {
  if (opts && opts.windowBits === 8) opts.windowBits = 9;
});
const InflateRaw = streamClass("InflateRaw", Zlib, INFLATERAW);
const Unzip = streamClass("Unzip", Zlib, UNZIP);
const BrotliCompress = streamClass("BrotliCompress", Brotli, BROTLI_ENCODE);
const BrotliDecompress = streamClass("BrotliDecompress", Brotli, BROTLI_DECODE);

// MARK: - Convenience forms

/// Feeds `buffer` to `engine` and calls back with the whole output (or the first error).
function zlibBuffer(engine, buffer, callback) {
  checkFunction(callback, "callback");
  if (ArrayBufferIsView(buffer) && !(buffer instanceof Uint8Array)) {
    const [arrayBuffer, offset, length] = rangeOf(buffer);
    buffer = Buffer.from(arrayBuffer, offset, length);
  } else if (isAnyArrayBuffer(buffer)) {
    buffer = Buffer.from(buffer);
  }
  const buffers = [];
  let nread = 0;
  const onEnd = () => {
    const output = nread === 0 ? Buffer.alloc(0) : buffers.length === 1 ? buffers[0] : Buffer.concat(buffers, nread);
    engine.close();
    if (engine._info) callback(null, { buffer: output, engine });
    else callback(null, output);
  };
  engine.on("data", (chunk) => {
    ArrayPrototypePush(buffers, chunk);
    nread += chunk.length;
    if (nread > engine._maxOutputLength) {
      engine.close();
      engine.removeAllListeners("end");
      callback(bufferTooLarge(engine._maxOutputLength));
    }
  });
  engine.on("error", (error) => {
    engine.removeAllListeners("end");
    callback(error);
  });
  engine.on("end", onEnd);
  engine.end(buffer);
}

function zlibBufferSync(engine, buffer) {
  if (typeof buffer === "string") {
    buffer = Buffer.from(buffer);
  } else if (!ArrayBufferIsView(buffer)) {
    if (!isAnyArrayBuffer(buffer)) {
      throw invalidArgType("buffer", ["string", "Buffer", "TypedArray", "DataView", "ArrayBuffer"], buffer);
    }
    buffer = Buffer.from(buffer);
  }
  const output = processChunkSync(engine, buffer, engine._finishFlushFlag);
  return engine._info ? { buffer: output, engine } : output;
}

function convenience(Class, sync) {
  if (sync) {
    return function syncBufferWrapper(buffer, opts) {
      return zlibBufferSync(new Class(opts), buffer);
    };
  }
  return function asyncBufferWrapper(buffer, opts, callback) {
    if (typeof opts === "function") {
      callback = opts;
      opts = {};
    }
    return zlibBuffer(new Class(opts), buffer, callback);
  };
}

function crc32(data, value = 0) {
  if (typeof data !== "string" && !ArrayBufferIsView(data)) {
    throw invalidArgType("data", ["Buffer", "TypedArray", "DataView", "string"], data);
  }
  if (typeof value !== "number") throw invalidArgType("value", "number", value);
  if (!NumberIsInteger(value)) throw outOfRange("value", "an integer", value);
  if (value < 0 || value > 0xffffffff) throw outOfRange("value", ">= 0 && <= 4294967295", value);
  const [buffer, offset, length] = rangeOf(typeof data === "string" ? Buffer.from(data) : data);
  return zlibCrc32(value, buffer, offset, length);
}

// MARK: - Exports

const zlib = {
  crc32, Deflate, Inflate, Gzip, Gunzip, DeflateRaw, InflateRaw, Unzip, BrotliCompress, BrotliDecompress,
  deflate: convenience(Deflate, false), deflateSync: convenience(Deflate, true),
  gzip: convenience(Gzip, false), gzipSync: convenience(Gzip, true),
  deflateRaw: convenience(DeflateRaw, false), deflateRawSync: convenience(DeflateRaw, true),
  unzip: convenience(Unzip, false), unzipSync: convenience(Unzip, true),
  inflate: convenience(Inflate, false), inflateSync: convenience(Inflate, true),
  gunzip: convenience(Gunzip, false), gunzipSync: convenience(Gunzip, true),
  inflateRaw: convenience(InflateRaw, false), inflateRawSync: convenience(InflateRaw, true),
  brotliCompress: convenience(BrotliCompress, false), brotliCompressSync: convenience(BrotliCompress, true),
  brotliDecompress: convenience(BrotliDecompress, false), brotliDecompressSync: convenience(BrotliDecompress, true),
};
for (const [name, Class] of /** @type {[string, any][]} */ ([
  ["createDeflate", Deflate], ["createInflate", Inflate], ["createDeflateRaw", DeflateRaw],
  ["createInflateRaw", InflateRaw], ["createGzip", Gzip], ["createGunzip", Gunzip], ["createUnzip", Unzip],
  ["createBrotliCompress", BrotliCompress], ["createBrotliDecompress", BrotliDecompress],
])) {
  ObjectDefineProperty(zlib, name, {
    configurable: true, enumerable: true, writable: false, value: { [name]: (options) => new Class(options) }[name],
  });
}
ObjectDefineProperty(zlib, "constants", { configurable: false, enumerable: true, writable: false, value: constants });
ObjectDefineProperty(zlib, "codes", { configurable: false, enumerable: true, writable: false, value: ObjectFreeze(codes) });
// The old names of the constants (not brotli's), as Node keeps them: not enumerable.
for (const name of ObjectKeys(constants)) {
  if (name[0] === "B") continue;
  ObjectDefineProperty(zlib, name, { enumerable: false, writable: false, configurable: false, value: constants[name] });
}

internal.nodeExport("zlib", zlib);
