// `node:stream` and `node:stream/promises`: Readable, Writable, Duplex, Transform, PassThrough, pipeline,
// finished, Readable.from, addAbortSignal, Readable.toWeb/fromWeb, following Node's documented semantics
// (docs/running-scripts.md, "Node built-in modules"): byte streams buffer up to `highWaterMark` bytes (16 KiB)
// and object streams `highWaterMark` objects (16); `push()` and `write()` answer false past it, and a writer
// that saw false waits for 'drain'; 'end', 'finish', 'error' and 'close' come in Node's order, asynchronously.
// Written for jsbridge from Node's documentation; `process.nextTick` is a microtask here.

const {
  ArrayBufferIsView, ArrayBufferPrototypeSlice, ArrayIsArray, ArrayPrototypeIncludes, ArrayPrototypeIndexOf,
  ArrayPrototypeJoin, ArrayPrototypePop,
  ArrayPrototypePush, ArrayPrototypeShift, ArrayPrototypeSplice, ArrayPrototypeUnshift, Error, FunctionPrototypeCall,
  JSONParse,
  MethodSlice, MethodToLowerCase, ObjectDefineProperty, ObjectHasOwn, ObjectSetPrototypeOf, Promise,
  PromisePrototypeThen, PromiseResolve, ReflectGetOwnPropertyDescriptor, ReflectOwnKeys, SafeSet, SymbolAsyncIterator,
  SymbolFor, SymbolIterator, TypeError, Uint8Array,
} = internal.primordials;
const { invalidArgType, invalidArgValue, make } = internal.nodeErrors;
const EventEmitter = internal.nodeBuiltin("events");
const { Buffer } = internal.nodeBuiltin("buffer");
const { StringDecoder } = internal.nodeBuiltin("string_decoder");

const nextTick = (fn, ...args) => queueMicrotask(() => fn(...args));
const nop = () => {};
const defaultHighWaterMark = { bytes: 16384, objects: 16 };

function streamError(Kind, code, message) {
  return make(Kind, code, message);
}
const prematureClose = () => streamError(Error, "ERR_STREAM_PREMATURE_CLOSE", "Premature close");

function highWaterMarkOf(options, key, objectMode) {
  const value = options?.highWaterMark ?? options?.[key];
  if (value === undefined || value === null) {
    return objectMode ? defaultHighWaterMark.objects : defaultHighWaterMark.bytes;
  }
  if (typeof value !== "number" || !(value >= 0) || value % 1 !== 0) {
    throw invalidArgValue(options.highWaterMark !== undefined ? "options.highWaterMark" : `options.${key}`, value);
  }
  return value;
}

function isUint8Array(value) {
  return value instanceof Uint8Array;
}

/// A Buffer over any ArrayBufferView's bytes (Node 20 takes typed arrays and DataViews as byte chunks).
function toBuffer(chunk) {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

// MARK: - Stream (legacy base)

/** @type {any} */
const Stream = function Stream(options) {
  FunctionPrototypeCall(EventEmitter, this, options);
};

ObjectSetPrototypeOf(Stream.prototype, EventEmitter.prototype);
ObjectSetPrototypeOf(Stream, EventEmitter);

/// The old `Stream.prototype.pipe`, for streams that are only EventEmitters with 'data' and 'end'.
Stream.prototype.pipe = function (dest, options) {
  const source = this;
  const ondata = (chunk) => {
    if (dest.writable && dest.write(chunk) === false && typeof source.pause === "function") source.pause();
  };
  const ondrain = () => {
    if (source.readable && typeof source.resume === "function") source.resume();
  };
  source.on("data", ondata);
  dest.on("drain", ondrain);
  if (options?.end !== false) source.on("end", () => dest.end());
  dest.emit("pipe", source);
  return dest;
};

// MARK: - Shared: destroy, errors

/// Ends `stream` (Readable, Writable or Duplex) with `error`: `_destroy`, then 'error' (if any) and 'close'.
function destroyStream(stream, error, callback) {
  const r = stream._readableState, w = stream._writableState;
  const state = w ?? r;
  if (state.destroyed) {
    if (typeof callback === "function") callback(error);
    return stream;
  }
  if (error) {
    if (r && !r.errored) r.errored = error;
    if (w && !w.errored) w.errored = error;
  }
  if (r) r.destroyed = true;
  if (w) w.destroyed = true;
  if (w && w.onFinished.length > 0) {
    const reason = error ?? prematureClose();
    for (const callback of ArrayPrototypeSplice(w.onFinished, 0)) nextTick(callback, reason);
  }
  const finish = (err) => {
    if (err) {
      if (r && !r.errored) r.errored = err;
      if (w && !w.errored) w.errored = err;
    }
    if (r) r.closed = true;
    if (w) w.closed = true;
    if (typeof callback === "function") callback(err);
    nextTick(() => {
      if (err && !state.errorEmitted) {
        state.errorEmitted = true;
        if (r) r.errorEmitted = true;
        if (w) w.errorEmitted = true;
        stream.emit("error", err);
      }
      if (!state.closeEmitted && (r?.emitClose ?? w?.emitClose ?? true)) {
        if (r) r.closeEmitted = true;
        if (w) w.closeEmitted = true;
        stream.emit("close");
      }
    });
  };
  try {
    stream._destroy(error ?? null, (err) => finish(err ?? error));
  } catch (thrown) {
    finish(thrown);
  }
  return stream;
}

/// An error while running: destroys the stream when it auto-destroys, else just emits 'error'.
function errorOrDestroy(stream, error) {
  const r = stream._readableState, w = stream._writableState;
  if ((w ?? r).destroyed) return;
  if ((r?.autoDestroy ?? true) && (w?.autoDestroy ?? true)) {
    destroyStream(stream, error);
    return;
  }
  if (r && !r.errored) r.errored = error;
  if (w && !w.errored) w.errored = error;
  nextTick(() => {
    if ((w ?? r).errorEmitted) return;
    if (r) r.errorEmitted = true;
    if (w) w.errorEmitted = true;
    stream.emit("error", error);
  });
}

// MARK: - Readable

class ReadableState {
  constructor(options, isDuplex) {
    this.readable = true;
    this.constructed = true;
    this.objectMode = !!(options?.objectMode || (isDuplex && options?.readableObjectMode));
    this.highWaterMark = highWaterMarkOf(options, isDuplex ? "readableHighWaterMark" : "readableHighWaterMark",
      this.objectMode);
    this.buffer = [];
    this.length = 0;
    this.pipes = [];
    this.flowing = null;
    this.ended = false;
    this.endEmitted = false;
    this.reading = false;
    this.sync = true;
    this.needReadable = false;
    this.emittedReadable = false;
    this.readableListening = false;
    this.resumeScheduled = false;
    this.paused = true;
    this.destroyed = false;
    this.errored = null;
    this.closed = false;
    this.closeEmitted = false;
    this.errorEmitted = false;
    this.emitClose = options?.emitClose !== false;
    this.autoDestroy = options?.autoDestroy !== false;
    this.defaultEncoding = options?.defaultEncoding ?? "utf8";
    this.awaitDrainWriters = null;
    this.multiAwaitDrain = false;
    this.readingMore = false;
    this.dataEmitted = false;
    this.decoder = null;
    this.encoding = null;
    if (options?.encoding) {
      this.decoder = new StringDecoder(options.encoding);
      this.encoding = options.encoding;
    }
  }
}

/** @type {any} */
const Readable = function Readable(options) {
  if (!(this instanceof Readable)) return new Readable(options);
  const isDuplex = this instanceof Duplex;
  this._readableState = new ReadableState(options, isDuplex);
  if (options) {
    if (typeof options.read === "function") this._read = options.read;
    if (typeof options.destroy === "function") this._destroy = options.destroy;
    if (typeof options.construct === "function") this._construct = options.construct;
    if (options.signal !== undefined && !isDuplex) addAbortSignal(options.signal, this);
  }
  FunctionPrototypeCall(Stream, this, options);
  constructStream(this);
};

ObjectSetPrototypeOf(Readable.prototype, Stream.prototype);
ObjectSetPrototypeOf(Readable, Stream);

/// Runs `_construct` (when given) before any `_read`/`_write`.
function constructStream(stream) {
  if (typeof stream._construct !== "function") return;
  const r = stream._readableState, w = stream._writableState;
  if (r) r.constructed = false;
  if (w) w.constructed = false;
  nextTick(() => {
    let called = false;
    const done = (error) => {
      if (called) {
        errorOrDestroy(stream, streamError(Error, "ERR_MULTIPLE_CALLBACK", "Callback called multiple times"));
        return;
      }
      called = true;
      if (r) r.constructed = true;
      if (w) w.constructed = true;
      if (error) {
        destroyStream(stream, error);
        return;
      }
      if (r && (r.needReadable || r.flowing)) maybeReadMore(stream, r);
      if (w) {
        clearBuffer(stream, w);
        finishMaybe(stream, w);
      }
    };
    try {
      stream._construct(done);
    } catch (error) {
      done(error);
    }
  });
}

Readable.prototype._read = function () {
  throw streamError(Error, "ERR_METHOD_NOT_IMPLEMENTED", "The _read() method is not implemented");
};
Readable.prototype._destroy = function (error, callback) {
  callback(error);
};
Readable.prototype.destroy = function (error, callback) {
  return destroyStream(this, error, callback);
};

Readable.prototype.push = function (chunk, encoding) {
  return addChunk(this, chunk, encoding, false);
};
Readable.prototype.unshift = function (chunk, encoding) {
  return addChunk(this, chunk, encoding, true);
};

function addChunk(stream, chunk, encoding, front) {
  const state = stream._readableState;
  if (chunk === null) {
    state.reading = false;
    if (!state.ended) {
      if (state.decoder) {
        const rest = state.decoder.end();
        if (rest) {
          ArrayPrototypePush(state.buffer, rest);
          state.length += state.objectMode ? 1 : rest.length;
        }
      }
      state.ended = true;
      if (state.sync) emitReadable(stream);
      else {
        state.needReadable = false;
        state.emittedReadable = true;
        emitReadableNow(stream);
      }
    }
    return false;
  }
  if (!state.objectMode) {
    if (typeof chunk === "string") {
      encoding ??= state.defaultEncoding;
      if (state.encoding !== encoding) {
        chunk = front && state.encoding ? Buffer.from(chunk, encoding).toString(state.encoding)
          : Buffer.from(chunk, encoding);
      }
    } else if (ArrayBufferIsView(chunk)) {
      chunk = toBuffer(chunk);
    } else if (chunk !== undefined) {
      errorOrDestroy(stream, invalidArgType("chunk", ["string", "Buffer", "TypedArray", "DataView"], chunk));
      return false;
    }
  }
  if (chunk === undefined) {
    state.reading = false;
    return state.length < state.highWaterMark;
  }
  if (front) {
    if (state.endEmitted) {
      errorOrDestroy(stream, streamError(Error, "ERR_STREAM_UNSHIFT_AFTER_END_EVENT", "stream.unshift() after end event"));
      return false;
    }
  } else {
    if (state.ended) {
      errorOrDestroy(stream, streamError(Error, "ERR_STREAM_PUSH_AFTER_EOF", "stream.push() after EOF"));
      return false;
    }
    if (state.destroyed || state.errored) return false;
    state.reading = false;
    if (state.decoder && typeof chunk !== "string") {
      chunk = state.decoder.write(chunk);
      if (!state.objectMode && chunk.length === 0) {
        maybeReadMore(stream, state);
        return state.length < state.highWaterMark;
      }
    }
  }
  if (state.flowing && state.length === 0 && !state.sync && stream.listenerCount("data") > 0 && !front) {
    state.dataEmitted = true;
    stream.emit("data", chunk);
  } else {
    state.length += state.objectMode ? 1 : chunk.length;
    if (front) ArrayPrototypeUnshift(state.buffer, chunk);
    else ArrayPrototypePush(state.buffer, chunk);
    if (state.needReadable) emitReadable(stream);
  }
  maybeReadMore(stream, state);
  return !state.ended && (state.length < state.highWaterMark || state.length === 0);
}

/// How much `read(n)` may take now.
function howMuchToRead(n, state) {
  if (n <= 0 || (state.length === 0 && state.ended)) return 0;
  if (state.objectMode) return 1;
  if (n !== n) {
    // read() with no size: the first chunk when flowing, else everything.
    return state.flowing && state.length ? state.buffer[0].length : state.length;
  }
  if (n <= state.length) return n;
  return state.ended ? state.length : 0;
}

/// Takes `n` bytes (or characters, or one object) from the front of the buffer.
function takeFromBuffer(n, state) {
  if (state.length === 0) return null;
  if (state.objectMode) return ArrayPrototypeShift(state.buffer);
  if (n >= state.length) {
    const all = state.decoder ? ArrayPrototypeJoin(state.buffer, "")
      : state.buffer.length === 1 ? state.buffer[0] : Buffer.concat(state.buffer, state.length);
    state.buffer = [];
    return all;
  }
  const first = state.buffer[0];
  if (n < first.length) {
    state.buffer[0] = MethodSlice(first, n);
    return MethodSlice(first, 0, n);
  }
  if (n === first.length) return ArrayPrototypeShift(state.buffer);
  const parts = [];
  let left = n;
  while (left > 0) {
    const head = state.buffer[0];
    if (head.length <= left) {
      ArrayPrototypePush(parts, ArrayPrototypeShift(state.buffer));
      left -= head.length;
    } else {
      ArrayPrototypePush(parts, MethodSlice(head, 0, left));
      state.buffer[0] = MethodSlice(head, left);
      left = 0;
    }
  }
  return state.decoder ? ArrayPrototypeJoin(parts, "") : Buffer.concat(parts, n);
}

Readable.prototype.read = function (n) {
  const state = this._readableState;
  n = n === undefined ? NaN : typeof n === "string" ? Number(n) : n;
  const requested = n;
  if (n > state.highWaterMark) {
    // Raise the mark to the next power of two at or above n (Node's rule).
    let mark = 1;
    while (mark < n) mark *= 2;
    state.highWaterMark = mark;
  }
  if (n !== 0) state.emittedReadable = false;
  if (n === 0 && state.needReadable &&
    ((state.highWaterMark !== 0 ? state.length >= state.highWaterMark : state.length > 0) || state.ended)) {
    if (state.length === 0 && state.ended) endReadable(this);
    else emitReadable(this);
    return null;
  }
  n = howMuchToRead(n, state);
  if (n === 0 && state.ended) {
    if (state.length === 0) endReadable(this);
    return null;
  }
  let doRead = state.needReadable;
  if (state.length === 0 || state.length - n < state.highWaterMark) doRead = true;
  if (state.ended || state.reading || state.destroyed || state.errored || state.constructed === false) doRead = false;
  else if (doRead) {
    state.reading = true;
    state.sync = true;
    if (state.length === 0) state.needReadable = true;
    try {
      this._read(state.highWaterMark);
    } catch (error) {
      errorOrDestroy(this, error);
    }
    state.sync = false;
    if (!state.reading) n = howMuchToRead(requested, state);
  }
  let result = n > 0 ? takeFromBuffer(n, state) : null;
  if (result === null) {
    state.needReadable = state.length <= state.highWaterMark;
    n = 0;
  } else {
    state.length -= state.objectMode ? 1 : n;
    if (state.multiAwaitDrain) state.awaitDrainWriters.clear();
    else state.awaitDrainWriters = null;
  }
  if (state.length === 0) {
    if (!state.ended) state.needReadable = true;
    if (requested !== n && state.ended) endReadable(this);
  }
  if (result !== null && !state.errorEmitted && !state.closeEmitted) {
    state.dataEmitted = true;
    this.emit("data", result);
  }
  return result;
};

function emitReadable(stream) {
  const state = stream._readableState;
  state.needReadable = false;
  if (!state.emittedReadable) {
    state.emittedReadable = true;
    nextTick(emitReadableNow, stream);
  }
}

function emitReadableNow(stream) {
  const state = stream._readableState;
  if (!state.destroyed && !state.errored && (state.length || state.ended)) {
    stream.emit("readable");
    state.emittedReadable = false;
  }
  state.needReadable = !state.flowing && !state.ended && state.length <= state.highWaterMark;
  flow(stream);
}

function maybeReadMore(stream, state) {
  if (!state.readingMore && state.constructed !== false) {
    state.readingMore = true;
    nextTick(() => {
      while (!state.reading && !state.ended &&
        (state.length < state.highWaterMark || (state.flowing && state.length === 0))) {
        const before = state.length;
        stream.read(0);
        if (before === state.length) break;
      }
      state.readingMore = false;
    });
  }
}

function flow(stream) {
  const state = stream._readableState;
  while (state.flowing && stream.read() !== null);
}

function endReadable(stream) {
  const state = stream._readableState;
  if (!state.endEmitted) {
    state.ended = true;
    nextTick(() => {
      if (!state.errorEmitted && !state.closeEmitted && !state.endEmitted && state.length === 0) {
        state.endEmitted = true;
        stream.emit("end");
        const w = stream._writableState;
        if (w !== undefined && !w.ending && stream.allowHalfOpen === false) stream.end();
        else if (state.autoDestroy &&
          (w === undefined || (w.autoDestroy && (w.finished || w.writable === false)))) {
          stream.destroy();
        }
      }
    });
  }
}

Readable.prototype.on = function (event, listener) {
  const result = FunctionPrototypeCall(EventEmitter.prototype.on, this, event, listener);
  const state = this._readableState;
  if (event === "data") {
    state.readableListening = this.listenerCount("readable") > 0;
    if (state.flowing !== false) this.resume();
  } else if (event === "readable") {
    if (!state.endEmitted && !state.readableListening) {
      state.readableListening = state.needReadable = true;
      state.flowing = false;
      state.emittedReadable = false;
      if (state.length) emitReadable(this);
      else if (!state.reading) nextTick(() => this.read(0));
    }
  }
  return result;
};
Readable.prototype.addListener = Readable.prototype.on;

Readable.prototype.removeListener = function (event, listener) {
  const result = FunctionPrototypeCall(EventEmitter.prototype.removeListener, this, event, listener);
  if (event === "readable") nextTick(updateReadableListening, this);
  return result;
};
Readable.prototype.off = Readable.prototype.removeListener;

Readable.prototype.removeAllListeners = function (event) {
  const result = FunctionPrototypeCall(EventEmitter.prototype.removeAllListeners, this, event);
  if (event === "readable" || event === undefined) nextTick(updateReadableListening, this);
  return result;
};

function updateReadableListening(stream) {
  const state = stream._readableState;
  state.readableListening = stream.listenerCount("readable") > 0;
  if (state.resumeScheduled && state.paused === false) state.flowing = true;
  else if (stream.listenerCount("data") > 0) stream.resume();
  else if (!state.readableListening) state.flowing = null;
}

Readable.prototype.resume = function () {
  const state = this._readableState;
  if (!state.flowing) {
    state.flowing = !state.readableListening;
    if (!state.resumeScheduled) {
      state.resumeScheduled = true;
      nextTick(() => {
        if (!state.reading) this.read(0);
        state.resumeScheduled = false;
        this.emit("resume");
        flow(this);
        if (state.flowing && !state.reading) this.read(0);
      });
    }
  }
  state.paused = false;
  return this;
};

Readable.prototype.pause = function () {
  const state = this._readableState;
  if (state.flowing !== false) {
    state.flowing = false;
    this.emit("pause");
  }
  state.paused = true;
  return this;
};

Readable.prototype.isPaused = function () {
  const state = this._readableState;
  return state.paused === true || state.flowing === false;
};

Readable.prototype.setEncoding = function (encoding) {
  const state = this._readableState;
  const decoder = new StringDecoder(encoding);
  state.decoder = decoder;
  state.encoding = decoder.encoding;
  let text = "";
  for (const chunk of state.buffer) text += decoder.write(chunk);
  state.buffer = text === "" ? [] : [text];
  state.length = text.length;
  return this;
};

Readable.prototype.pipe = function (dest, options) {
  const source = this;
  const state = this._readableState;
  ArrayPrototypePush(state.pipes, dest);
  const doEnd = options?.end !== false && dest !== globalThis.process?.stdout && dest !== globalThis.process?.stderr;
  const isEmitter = typeof dest.on === "function";
  let cleanedUp = false;
  function onend() {
    if (typeof dest.end === "function") dest.end();
  }
  const endFn = doEnd ? onend : unpipe;
  if (state.endEmitted) nextTick(endFn);
  else source.once("end", endFn);

  let ondrain;
  function pause() {
    if (!cleanedUp) {
      if (state.pipes.length === 1 && state.pipes[0] === dest) {
        state.awaitDrainWriters = dest;
        state.multiAwaitDrain = false;
      } else if (state.pipes.length > 1 && ArrayPrototypeIncludes(state.pipes, dest)) {
        if (!state.multiAwaitDrain) {
          state.multiAwaitDrain = true;
          state.awaitDrainWriters = new SafeSet(state.awaitDrainWriters ? [state.awaitDrainWriters] : []);
        }
        state.awaitDrainWriters.add(dest);
      }
      source.pause();
    }
    if (!ondrain && isEmitter) {
      ondrain = () => {
        if (state.multiAwaitDrain) state.awaitDrainWriters.delete(dest);
        else if (state.awaitDrainWriters === dest) state.awaitDrainWriters = null;
        if ((!state.awaitDrainWriters || state.awaitDrainWriters.size === 0) && source.listenerCount("data")) {
          source.resume();
        }
      };
      dest.on("drain", ondrain);
    }
  }
  function ondata(chunk) {
    if (dest.write(chunk) === false) pause();
  }
  source.on("data", ondata);
  function onerror(error) {
    unpipe();
    if (isEmitter) dest.removeListener("error", onerror);
    if (isEmitter && dest.listenerCount("error") === 0) {
      const w = dest._writableState || dest._readableState;
      if (w && !w.errorEmitted) errorOrDestroy(dest, error);
      else dest.emit("error", error);
    }
  }
  function onclose() {
    dest.removeListener("finish", onfinish);
    unpipe();
  }
  function onfinish() {
    dest.removeListener("close", onclose);
    unpipe();
  }
  function unpipe() {
    source.unpipe(dest);
  }
  function cleanup() {
    cleanedUp = true;
    if (isEmitter) {
      dest.removeListener("close", onclose);
      dest.removeListener("finish", onfinish);
      if (ondrain) dest.removeListener("drain", ondrain);
      dest.removeListener("error", onerror);
      dest.removeListener("unpipe", onunpipe);
    }
    source.removeListener("end", onend);
    source.removeListener("end", unpipe);
    source.removeListener("data", ondata);
  }
  function onunpipe(readable, info) {
    if (readable === source && info && info.hasUnpiped === false) {
      info.hasUnpiped = true;
      cleanup();
    }
  }
  if (isEmitter) {
    dest.on("unpipe", onunpipe);
    if (typeof dest.prependListener === "function") dest.prependListener("error", onerror);
    else dest.on("error", onerror);
    dest.once("close", onclose);
    dest.once("finish", onfinish);
    dest.emit("pipe", source);
  }
  if (dest.writableNeedDrain === true) pause();
  else if (!state.flowing) source.resume();
  return dest;
};

Readable.prototype.unpipe = function (dest) {
  const state = this._readableState;
  if (state.pipes.length === 0) return this;
  const targets = dest === undefined ? ArrayPrototypeSplice(state.pipes, 0) : [];
  if (dest !== undefined) {
    const index = ArrayPrototypeIndexOf(state.pipes, dest);
    if (index === -1) return this;
    ArrayPrototypeSplice(state.pipes, index, 1);
    ArrayPrototypePush(targets, dest);
  }
  if (state.pipes.length === 0) this.pause();
  for (const target of targets) {
    if (typeof target.emit === "function") target.emit("unpipe", this, { hasUnpiped: false });
  }
  return this;
};

Readable.prototype.wrap = function (old) {
  let paused = false;
  old.on("data", (chunk) => {
    if (!this.push(chunk) && typeof old.pause === "function") {
      paused = true;
      old.pause();
    }
  });
  old.on("end", () => this.push(null));
  old.on("error", (error) => errorOrDestroy(this, error));
  old.on("close", () => this.destroy());
  this._read = () => {
    if (paused && typeof old.resume === "function") {
      paused = false;
      old.resume();
    }
  };
  return this;
};

/// The stream's chunks as an async iterator; leaving the loop early destroys the stream.
async function* readableIterator(stream, destroyOnReturn) {
  let wake = nop;
  const onReadable = () => {
    const next = wake;
    wake = nop;
    next();
  };
  stream.on("readable", onReadable);
  let error;
  const cleanup = finished(stream, { writable: false }, (err) => {
    error = err ? err : null;
    onReadable();
  });
  try {
    while (true) {
      const chunk = stream.destroyed ? null : stream.read();
      if (chunk !== null) yield chunk;
      else if (error) throw error;
      else if (error === null) return;
      else await new Promise((resolve) => { wake = resolve; });
    }
  } catch (err) {
    error = err;
    throw err;
  } finally {
    cleanup();
    stream.removeListener("readable", onReadable);
    if ((error || destroyOnReturn !== false) && (error === undefined || stream._readableState.autoDestroy)) {
      destroyStream(stream, null);
    }
  }
}

Readable.prototype[SymbolAsyncIterator] = function () {
  return readableIterator(this, true);
};
Readable.prototype.iterator = function (options) {
  return readableIterator(this, options?.destroyOnReturn);
};

// Node 20's iterator helpers on Readable (those packages use): each answers a promise or a new Readable.
Readable.prototype.toArray = async function (options) {
  const result = [];
  for await (const chunk of this) {
    if (options?.signal?.aborted) throw internal.nodeAbortError(options.signal);
    ArrayPrototypePush(result, chunk);
  }
  return result;
};
Readable.prototype.forEach = async function (fn) {
  for await (const chunk of this) await fn(chunk);
};
Readable.prototype.map = function (fn, options) {
  const source = this;
  return Readable.from((async function* () {
    for await (const chunk of source) yield await fn(chunk, options);
  })());
};
Readable.prototype.filter = function (fn, options) {
  const source = this;
  return Readable.from((async function* () {
    for await (const chunk of source) if (await fn(chunk, options)) yield chunk;
  })());
};

/// `Readable.from(iterable)`: an object-mode stream (by default) of an iterable's or async iterable's items;
/// a string or Buffer is one chunk.
Readable.from = function (iterable, options) {
  if (typeof iterable === "string" || isUint8Array(iterable)) {
    return new Readable({
      objectMode: true, ...options,
      read() {
        this.push(iterable);
        this.push(null);
      },
    });
  }
  let iterator, isAsync;
  if (iterable && typeof iterable[SymbolAsyncIterator] === "function") {
    iterator = iterable[SymbolAsyncIterator]();
    isAsync = true;
  } else if (iterable && typeof iterable[SymbolIterator] === "function") {
    iterator = iterable[SymbolIterator]();
    isAsync = false;
  } else {
    throw invalidArgType("iterable", "Iterable", iterable);
  }
  let reading = false;
  const readable = new Readable({
    objectMode: true, highWaterMark: 1, ...options,
    read() {
      if (reading) return;
      reading = true;
      next();
    },
    destroy(error, callback) {
      const close = typeof iterator.return === "function" ? iterator.return() : undefined;
      PromisePrototypeThen(PromiseResolve(close), () => callback(error), (err) => callback(err ?? error));
    },
  });
  async function next() {
    for (;;) {
      try {
        const { value, done } = isAsync ? await iterator.next() : iterator.next();
        if (done) {
          readable.push(null);
        } else {
          const chunk = value && typeof value.then === "function" ? await value : value;
          if (chunk === null) {
            reading = false;
            throw streamError(TypeError, "ERR_STREAM_NULL_VALUES", "May not write null values to stream");
          }
          if (readable.push(chunk)) continue;
          reading = false;
        }
      } catch (error) {
        destroyStream(readable, error);
      }
      break;
    }
  }
  return readable;
};

function defineState(proto, name, get) {
  ObjectDefineProperty(proto, name, { get, configurable: true, enumerable: false });
}
ObjectDefineProperty(Readable.prototype, "readable", {
  get() {
    const r = this._readableState;
    return !!r && r.readable !== false && !r.destroyed && !r.errorEmitted && !r.endEmitted;
  },
  set(value) {
    if (this._readableState) this._readableState.readable = !!value;
  },
  configurable: true,
});
defineState(Readable.prototype, "readableEnded", function () { return this._readableState?.endEmitted ?? false; });
defineState(Readable.prototype, "readableFlowing", function () { return this._readableState?.flowing ?? null; });
defineState(Readable.prototype, "readableLength", function () { return this._readableState?.length ?? 0; });
defineState(Readable.prototype, "readableHighWaterMark", function () { return this._readableState?.highWaterMark; });
defineState(Readable.prototype, "readableObjectMode", function () { return this._readableState?.objectMode ?? false; });
defineState(Readable.prototype, "readableEncoding", function () { return this._readableState?.encoding ?? null; });
defineState(Readable.prototype, "readableDidRead", function () { return this._readableState?.dataEmitted ?? false; });
defineState(Readable.prototype, "readableAborted", function () {
  const r = this._readableState;
  return !!r && (r.destroyed || !!r.errored) && !r.endEmitted;
});
defineState(Readable.prototype, "errored", function () {
  return this._readableState?.errored ?? this._writableState?.errored ?? null;
});
defineState(Readable.prototype, "closed", function () { return this._readableState?.closed ?? false; });
ObjectDefineProperty(Readable.prototype, "destroyed", {
  get() { return this._readableState?.destroyed ?? false; },
  set(value) {
    if (this._readableState) this._readableState.destroyed = value;
    if (this._writableState) this._writableState.destroyed = value;
  },
  configurable: true,
});

// MARK: - Writable

class WritableState {
  constructor(options, isDuplex) {
    this.writable = true;
    this.constructed = true;
    this.objectMode = !!(options?.objectMode || (isDuplex && options?.writableObjectMode));
    this.highWaterMark = highWaterMarkOf(options, "writableHighWaterMark", this.objectMode);
    this.decodeStrings = options?.decodeStrings !== false;
    this.defaultEncoding = options?.defaultEncoding ?? "utf8";
    this.length = 0;
    this.writing = false;
    this.corked = 0;
    this.sync = true;
    this.buffered = [];
    this.writeLength = 0;
    this.writeCallback = null;
    this.pendingCallbacks = 0;
    this.needDrain = false;
    this.ending = false;
    this.ended = false;
    this.finished = false;
    this.finalCalled = false;
    this.prefinished = false;
    this.destroyed = false;
    this.errored = null;
    this.closed = false;
    this.closeEmitted = false;
    this.errorEmitted = false;
    this.emitClose = options?.emitClose !== false;
    this.autoDestroy = options?.autoDestroy !== false;
    this.afterWriteTick = null;
    /// `end(callback)`'s callbacks: called before 'finish', or with the error that ends the stream first.
    this.onFinished = [];
  }
}

/** @type {any} */
const Writable = function Writable(options) {
  const isDuplex = this instanceof Duplex;
  if (!isDuplex && !(this instanceof Writable)) return new Writable(options);
  this._writableState = new WritableState(options, isDuplex);
  if (options) {
    if (typeof options.write === "function") this._write = options.write;
    if (typeof options.writev === "function") this._writev = options.writev;
    if (typeof options.destroy === "function") this._destroy = options.destroy;
    if (typeof options.final === "function") this._final = options.final;
    if (typeof options.construct === "function") this._construct = options.construct;
    if (options.signal !== undefined) addAbortSignal(options.signal, this);
  }
  FunctionPrototypeCall(Stream, this, options);
  if (!isDuplex) constructStream(this);
};

ObjectSetPrototypeOf(Writable.prototype, Stream.prototype);
ObjectSetPrototypeOf(Writable, Stream);

const functionHasInstance = Function.prototype[Symbol.hasInstance];
// A Duplex is a Writable too (it copies Writable's methods rather than inheriting them).
ObjectDefineProperty(Writable, Symbol.hasInstance, {
  value(object) {
    if (FunctionPrototypeCall(functionHasInstance, this, object)) return true;
    if (this !== Writable) return false;
    return !!object && object._writableState instanceof WritableState;
  },
});

Writable.prototype._write = function (chunk, encoding, callback) {
  if (typeof this._writev === "function") this._writev([{ chunk, encoding }], callback);
  else throw streamError(Error, "ERR_METHOD_NOT_IMPLEMENTED", "The _write() method is not implemented");
};
Writable.prototype._destroy = function (error, callback) {
  callback(error);
};
Writable.prototype.destroy = function (error, callback) {
  const state = this._writableState;
  if (!state.destroyed && (state.buffered.length || state.writing)) {
    const aborted = streamError(Error, "ERR_STREAM_DESTROYED", "Cannot call write after a stream was destroyed");
    for (const entry of ArrayPrototypeSplice(state.buffered, 0)) nextTick(entry.callback, error ?? aborted);
  }
  return destroyStream(this, error, callback);
};

function checkChunk(stream, state, chunk) {
  if (chunk === null) {
    throw streamError(TypeError, "ERR_STREAM_NULL_VALUES", "May not write null values to stream");
  }
  if (!state.objectMode && typeof chunk !== "string" && !ArrayBufferIsView(chunk)) {
    throw invalidArgType("chunk", ["string", "Buffer", "TypedArray", "DataView"], chunk);
  }
}

Writable.prototype.write = function (chunk, encoding, callback) {
  const state = this._writableState;
  if (typeof encoding === "function") {
    callback = encoding;
    encoding = state.defaultEncoding;
  } else {
    if (!encoding) encoding = state.defaultEncoding;
    else if (encoding !== "buffer" && !Buffer.isEncoding(encoding)) {
      throw make(TypeError, "ERR_UNKNOWN_ENCODING", `Unknown encoding: ${encoding}`);
    }
    if (typeof callback !== "function") callback = nop;
  }
  checkChunk(this, state, chunk);
  if (!state.objectMode) {
    if (typeof chunk === "string") {
      if (state.decodeStrings !== false) {
        chunk = Buffer.from(chunk, encoding);
        encoding = "buffer";
      }
    } else {
      chunk = toBuffer(chunk);
      encoding = "buffer";
    }
  }
  let error;
  if (state.ending) {
    error = streamError(Error, "ERR_STREAM_WRITE_AFTER_END", "write after end");
  } else if (state.destroyed) {
    error = streamError(Error, "ERR_STREAM_DESTROYED", "Cannot call write after a stream was destroyed");
  }
  if (error) {
    nextTick(callback, error);
    errorOrDestroy(this, error);
    return false;
  }
  state.pendingCallbacks++;
  const length = state.objectMode ? 1 : chunk.length;
  state.length += length;
  const belowMark = state.length < state.highWaterMark;
  if (!belowMark) state.needDrain = true;
  if (state.writing || state.corked || state.errored || state.constructed === false) {
    ArrayPrototypePush(state.buffered, { chunk, encoding, callback });
  } else {
    doWrite(this, state, false, length, chunk, encoding, callback);
  }
  return belowMark && !state.errored && !state.destroyed;
};

function doWrite(stream, state, writev, length, chunk, encoding, callback) {
  state.writeLength = length;
  state.writeCallback = callback;
  state.writing = true;
  state.sync = true;
  const done = (error) => onWrite(stream, error);
  if (state.destroyed) done(streamError(Error, "ERR_STREAM_DESTROYED", "Cannot call write after a stream was destroyed"));
  else if (writev) stream._writev(chunk, done);
  else stream._write(chunk, encoding, done);
  state.sync = false;
}

function onWrite(stream, error) {
  const state = stream._writableState;
  const callback = state.writeCallback;
  if (typeof callback !== "function") {
    errorOrDestroy(stream, streamError(Error, "ERR_MULTIPLE_CALLBACK", "Callback called multiple times"));
    return;
  }
  const sync = state.sync;
  state.writing = false;
  state.writeCallback = null;
  state.length -= state.writeLength;
  state.writeLength = 0;
  if (error) {
    if (!state.errored) state.errored = error;
    const fail = () => {
      state.pendingCallbacks--;
      callback(error);
      for (const entry of ArrayPrototypeSplice(state.buffered, 0)) {
        state.pendingCallbacks--;
        entry.callback(error);
      }
      errorOrDestroy(stream, error);
    };
    if (sync) nextTick(fail);
    else fail();
    return;
  }
  if (state.buffered.length > 0) clearBuffer(stream, state);
  if (sync) {
    // Writes that finish synchronously share one tick for their callbacks.
    if (state.afterWriteTick !== null && state.afterWriteTick.callback === callback) {
      state.afterWriteTick.count++;
    } else {
      state.afterWriteTick = { count: 1, callback };
      nextTick(() => {
        const tick = state.afterWriteTick;
        state.afterWriteTick = null;
        afterWrite(stream, state, tick.count, tick.callback);
      });
    }
  } else {
    afterWrite(stream, state, 1, callback);
  }
}

function afterWrite(stream, state, count, callback) {
  if (!state.ending && !stream.destroyed && state.length === 0 && state.needDrain) {
    state.needDrain = false;
    stream.emit("drain");
  }
  while (count-- > 0) {
    state.pendingCallbacks--;
    callback(null);
  }
  if (state.destroyed) return;
  finishMaybe(stream, state);
}

function clearBuffer(stream, state) {
  if (state.corked || state.destroyed || state.writing || state.constructed === false) return;
  const buffered = state.buffered;
  if (buffered.length === 0) return;
  if (buffered.length > 1 && typeof stream._writev === "function" && stream._writev !== Writable.prototype._writev) {
    const entries = ArrayPrototypeSplice(buffered, 0);
    state.pendingCallbacks -= entries.length - 1;
    const callbacks = [];
    let length = 0;
    for (const entry of entries) {
      ArrayPrototypePush(callbacks, entry.callback);
      length += state.objectMode ? 1 : entry.chunk.length;
    }
    const all = (error) => {
      for (const cb of callbacks) cb(error);
    };
    doWrite(stream, state, true, length, entries, "", all);
    return;
  }
  do {
    const { chunk, encoding, callback } = ArrayPrototypeShift(buffered);
    const length = state.objectMode ? 1 : chunk.length;
    doWrite(stream, state, false, length, chunk, encoding, callback);
  } while (buffered.length > 0 && !state.writing);
}

Writable.prototype.cork = function () {
  this._writableState.corked++;
};
Writable.prototype.uncork = function () {
  const state = this._writableState;
  if (state.corked) {
    state.corked--;
    if (!state.writing) clearBuffer(this, state);
  }
};
Writable.prototype.setDefaultEncoding = function (encoding) {
  if (typeof encoding === "string") encoding = MethodToLowerCase(encoding);
  if (!Buffer.isEncoding(encoding)) throw make(TypeError, "ERR_UNKNOWN_ENCODING", `Unknown encoding: ${encoding}`);
  this._writableState.defaultEncoding = encoding;
  return this;
};

Writable.prototype.end = function (chunk, encoding, callback) {
  const state = this._writableState;
  if (typeof chunk === "function") {
    callback = chunk;
    chunk = null;
    encoding = null;
  } else if (typeof encoding === "function") {
    callback = encoding;
    encoding = null;
  }
  let error;
  if (chunk !== null && chunk !== undefined) {
    const ok = this.write(chunk, encoding);
    if (ok === false && state.errored && !state.ending) error = state.errored;
  }
  if (state.corked) {
    state.corked = 1;
    this.uncork();
  }
  if (error) {
    // the write's error is reported by write itself
  } else if (!state.errored && !state.ending) {
    state.ending = true;
    finishMaybe(this, state, true);
    state.ended = true;
  } else if (state.finished) {
    error = streamError(Error, "ERR_STREAM_ALREADY_FINISHED", "Cannot call end after a stream was finished");
  } else if (state.destroyed) {
    error = streamError(Error, "ERR_STREAM_DESTROYED", "Cannot call end after a stream was destroyed");
  }
  if (typeof callback === "function") {
    if (error || state.finished) nextTick(callback, error);
    else ArrayPrototypePush(state.onFinished, callback);
  }
  return this;
};

function needsFinish(state) {
  return state.ending && !state.destroyed && state.constructed !== false && state.length === 0 && !state.errored &&
    state.buffered.length === 0 && !state.finished && !state.writing && !state.errorEmitted && !state.closeEmitted;
}

function prefinish(stream, state) {
  if (state.prefinished || state.finalCalled) return;
  if (typeof stream._final === "function" && !state.destroyed) {
    state.finalCalled = true;
    state.sync = true;
    state.pendingCallbacks++;
    let called = false;
    const onFinal = (error) => {
      if (called) {
        errorOrDestroy(stream, streamError(Error, "ERR_MULTIPLE_CALLBACK", "Callback called multiple times"));
        return;
      }
      called = true;
      state.pendingCallbacks--;
      if (error) {
        errorOrDestroy(stream, error);
        return;
      }
      if (needsFinish(state)) {
        state.prefinished = true;
        stream.emit("prefinish");
        state.pendingCallbacks++;
        nextTick(finish, stream, state);
      }
    };
    try {
      stream._final(onFinal);
    } catch (error) {
      onFinal(error);
    }
    state.sync = false;
  } else {
    state.prefinished = true;
    stream.emit("prefinish");
  }
}

function finishMaybe(stream, state, sync) {
  if (!needsFinish(state)) return;
  prefinish(stream, state);
  if (state.pendingCallbacks === 0 && needsFinish(state)) {
    state.pendingCallbacks++;
    if (sync) nextTick(finish, stream, state);
    else finish(stream, state);
  }
}

function finish(stream, state) {
  state.pendingCallbacks--;
  if (state.destroyed || state.errored) return;
  state.finished = true;
  for (const callback of ArrayPrototypeSplice(state.onFinished, 0)) callback(null);
  stream.emit("finish");
  if (state.autoDestroy) {
    const r = stream._readableState;
    if (!r || (r.autoDestroy && (r.endEmitted || r.readable === false))) stream.destroy();
  }
}

ObjectDefineProperty(Writable.prototype, "writable", {
  get() {
    const w = this._writableState;
    return !!w && w.writable !== false && !w.destroyed && !w.errored && !w.ending && !w.ended;
  },
  set(value) {
    if (this._writableState) this._writableState.writable = !!value;
  },
  configurable: true,
});
defineState(Writable.prototype, "writableEnded", function () { return this._writableState?.ending ?? false; });
defineState(Writable.prototype, "writableFinished", function () { return this._writableState?.finished ?? false; });
defineState(Writable.prototype, "writableLength", function () { return this._writableState?.length ?? 0; });
defineState(Writable.prototype, "writableHighWaterMark", function () { return this._writableState?.highWaterMark; });
defineState(Writable.prototype, "writableObjectMode", function () { return this._writableState?.objectMode ?? false; });
defineState(Writable.prototype, "writableCorked", function () { return this._writableState?.corked ?? 0; });
defineState(Writable.prototype, "writableNeedDrain", function () {
  const w = this._writableState;
  return !!w && !w.destroyed && !w.ending && w.needDrain;
});
defineState(Writable.prototype, "writableAborted", function () {
  const w = this._writableState;
  return !!w && (w.destroyed || !!w.errored) && !w.finished;
});
defineState(Writable.prototype, "errored", function () { return this._writableState?.errored ?? null; });
defineState(Writable.prototype, "closed", function () { return this._writableState?.closed ?? false; });
ObjectDefineProperty(Writable.prototype, "destroyed", {
  get() { return this._writableState?.destroyed ?? false; },
  set(value) {
    if (this._writableState) this._writableState.destroyed = value;
  },
  configurable: true,
});

// MARK: - Duplex, Transform, PassThrough

/** @type {any} */
const Duplex = function Duplex(options) {
  if (!(this instanceof Duplex)) return new Duplex(options);
  this._readableState = new ReadableState(options, true);
  this._writableState = new WritableState(options, true);
  if (options) {
    if (typeof options.read === "function") this._read = options.read;
    if (typeof options.write === "function") this._write = options.write;
    if (typeof options.writev === "function") this._writev = options.writev;
    if (typeof options.final === "function") this._final = options.final;
    if (typeof options.destroy === "function") this._destroy = options.destroy;
    if (typeof options.construct === "function") this._construct = options.construct;
    if (options.readable === false) this._readableState.readable = false;
    if (options.writable === false) this._writableState.writable = false;
    if (options.signal !== undefined) addAbortSignal(options.signal, this);
  }
  this.allowHalfOpen = options?.allowHalfOpen !== false;
  FunctionPrototypeCall(Stream, this, options);
  constructStream(this);
};

ObjectSetPrototypeOf(Duplex.prototype, Readable.prototype);
ObjectSetPrototypeOf(Duplex, Readable);
for (const key of ReflectOwnKeys(Writable.prototype)) {
  if (key === "constructor" || key === "destroy" || key === "_destroy" || key === "destroyed" || key === "errored" ||
    key === "closed" || ObjectHasOwn(Duplex.prototype, key)) continue;
  ObjectDefineProperty(Duplex.prototype, key, ReflectGetOwnPropertyDescriptor(Writable.prototype, key));
}
Duplex.prototype.destroy = Writable.prototype.destroy;
ObjectDefineProperty(Duplex.prototype, "destroyed", {
  get() {
    return (this._readableState?.destroyed ?? false) && (this._writableState?.destroyed ?? false);
  },
  set(value) {
    if (this._readableState) this._readableState.destroyed = value;
    if (this._writableState) this._writableState.destroyed = value;
  },
  configurable: true,
});
defineState(Duplex.prototype, "errored", function () {
  return this._readableState?.errored ?? this._writableState?.errored ?? null;
});
defineState(Duplex.prototype, "closed", function () {
  return (this._readableState?.closed ?? false) && (this._writableState?.closed ?? false);
});

const kCallback = Symbol("kCallback");

/** @type {any} */
const Transform = function Transform(options) {
  if (!(this instanceof Transform)) return new Transform(options);
  FunctionPrototypeCall(Duplex, this, options);
  // A pushed chunk goes straight to 'data' listeners when the readable side flows.
  const self = /** @type {any} */ (this);
  self._readableState.sync = false;
  self[kCallback] = null;
  if (options) {
    if (typeof options.transform === "function") self._transform = options.transform;
    if (typeof options.flush === "function") self._flush = options.flush;
  }
  self.on("prefinish", transformPrefinish);
};

ObjectSetPrototypeOf(Transform.prototype, Duplex.prototype);
ObjectSetPrototypeOf(Transform, Duplex);

/// Runs `_flush` (when given) before the readable side ends.
function transformFinal(callback) {
  if (typeof this._flush === "function" && !this.destroyed) {
    this._flush((error, data) => {
      if (error) {
        if (callback) callback(error);
        else this.destroy(error);
        return;
      }
      if (data !== null && data !== undefined) this.push(data);
      this.push(null);
      if (callback) callback();
    });
  } else {
    this.push(null);
    if (callback) callback();
  }
}
function transformPrefinish() {
  if (this._final !== transformFinal) FunctionPrototypeCall(transformFinal, this);
}
Transform.prototype._final = transformFinal;

Transform.prototype._transform = function () {
  throw streamError(Error, "ERR_METHOD_NOT_IMPLEMENTED", "The _transform() method is not implemented");
};

Transform.prototype._write = function (chunk, encoding, callback) {
  const r = this._readableState;
  const w = this._writableState;
  const length = r.length;
  this._transform(chunk, encoding, (error, value) => {
    if (error) {
      callback(error);
      return;
    }
    if (value !== null && value !== undefined) this.push(value);
    if (w.ended || length === r.length || r.length < r.highWaterMark) callback();
    else this[kCallback] = callback;
  });
};

Transform.prototype._read = function () {
  if (this[kCallback]) {
    const callback = this[kCallback];
    this[kCallback] = null;
    callback();
  }
};

/** @type {any} */
const PassThrough = function PassThrough(options) {
  if (!(this instanceof PassThrough)) return new PassThrough(options);
  FunctionPrototypeCall(Transform, this, options);
};

ObjectSetPrototypeOf(PassThrough.prototype, Transform.prototype);
ObjectSetPrototypeOf(PassThrough, Transform);
PassThrough.prototype._transform = function (chunk, encoding, callback) {
  callback(null, chunk);
};

// MARK: - finished, pipeline, addAbortSignal

function isReadableStream(stream) {
  return !!stream && typeof stream.pipe === "function" && typeof stream.on === "function" &&
    (!stream._writableState || stream._readableState?.readable !== false) && (!stream._writableState || !!stream._readableState);
}
function isWritableStream(stream) {
  return !!stream && typeof stream.write === "function" && typeof stream.on === "function";
}

/// `finished(stream, options, callback)`: calls back once the stream ended, finished, errored or closed too
/// early (ERR_STREAM_PREMATURE_CLOSE); answers a function that removes its listeners.
function finished(stream, options, callback) {
  if (typeof options === "function") {
    callback = options;
    options = {};
  }
  options ??= {};
  if (typeof callback !== "function") throw invalidArgType("callback", "function", callback);
  if (!stream || typeof stream.on !== "function") throw invalidArgType("stream", ["ReadableStream", "WritableStream", "Stream"], stream);
  let done = false;
  const call = (error) => {
    if (done) return;
    done = true;
    FunctionPrototypeCall(callback, stream, error);
  };
  const r = stream._readableState, w = stream._writableState;
  const readable = options.readable ?? (r !== undefined ? r.readable !== false : isReadableStream(stream));
  const writable = options.writable ?? (w !== undefined ? w.writable !== false : isWritableStream(stream) && !r);
  let readableFinished = r?.endEmitted ?? false;
  let writableFinished = w?.finished ?? false;
  const onend = () => {
    readableFinished = true;
    if (!writable || writableFinished) call();
  };
  const onfinish = () => {
    writableFinished = true;
    if (!readable || readableFinished) call();
  };
  const onerror = (error) => call(error);
  const onclose = () => {
    const errored = r?.errored ?? w?.errored;
    if (errored) return call(errored);
    if (readable && !readableFinished) return call(prematureClose());
    if (writable && !writableFinished) return call(prematureClose());
    call();
  };
  stream.on("end", onend);
  stream.on("finish", onfinish);
  if (options.error !== false) stream.on("error", onerror);
  stream.on("close", onclose);
  const closed = (w ?? r)?.closed;
  if (closed || (r?.closeEmitted ?? w?.closeEmitted)) nextTick(onclose);
  else if ((!readable || readableFinished) && (!writable || writableFinished)) nextTick(call);
  const cleanup = () => {
    callback = nop;
    stream.removeListener("end", onend);
    stream.removeListener("finish", onfinish);
    stream.removeListener("error", onerror);
    stream.removeListener("close", onclose);
  };
  if (options.signal) {
    const abort = () => {
      cleanup();
      FunctionPrototypeCall(callback, stream, internal.nodeAbortError(options.signal));
    };
    if (options.signal.aborted) nextTick(abort);
    else options.signal.addEventListener("abort", abort, { once: true });
  }
  return cleanup;
}

function isIterable(value) {
  return value !== null && value !== undefined &&
    (typeof value[SymbolAsyncIterator] === "function" || typeof value[SymbolIterator] === "function");
}

/// `pipeline(source, ...transforms, destination, callback)`: pipes each stream into the next, destroys them all
/// on the first error, and calls back once the destination finished (or with that error). A source may be an
/// iterable or a function answering one; a middle step may be an async generator function of its input; the
/// destination may be an async function of its input (its result becomes the callback's value).
/** @param {any[]} streams */
function pipeline(...streams) {
  const callback = typeof streams[streams.length - 1] === "function" ? ArrayPrototypePop(streams) : undefined;
  if (typeof callback !== "function") throw invalidArgType("streams[stream.length - 1]", "function", callback);
  if (streams.length === 1 && ArrayIsArray(streams[0])) streams = streams[0];
  if (streams.length < 2) {
    throw make(TypeError, "ERR_MISSING_ARGS", 'The "streams" argument must be specified');
  }
  const signal = /** @type {any} */ (streams).signal;
  const destroys = [];
  let error, value, pending = 0, done = false;
  function finish(err, final) {
    if (err && !error) error = err;
    if (!error && !final) return;
    while (destroys.length) ArrayPrototypeShift(destroys)(error);
    if (!done) {
      done = true;
      nextTick(() => callback(error, value));
    }
  }
  let previous;
  for (let i = 0; i < streams.length; i++) {
    let step = streams[i];
    let fromFunction = false;
    const isLast = i === streams.length - 1;
    if (i === 0) {
      if (typeof step === "function") step = step({ signal });
      if (!step || (typeof step.pipe !== "function" && !isIterable(step))) {
        throw invalidArgType("source", ["Stream", "Iterable", "AsyncIterable", "Function"], step);
      }
    } else if (typeof step === "function") {
      const input = previous && typeof previous.pipe === "function" ? previous : Readable.from(previous);
      const output = step(input, { signal });
      if (isLast) {
        pending++;
        PromisePrototypeThen(PromiseResolve(output), (result) => {
          value = result;
          pending--;
          finish(null, pending === 0);
        }, (err) => {
          pending--;
          finish(err, true);
        });
        previous = output;
        continue;
      }
      step = output;
      fromFunction = true;
    }
    if (step && typeof step.pipe !== "function" && isIterable(step)) step = Readable.from(step);
    if (previous !== undefined && !fromFunction && typeof previous.pipe === "function") previous.pipe(step);
    if (isLast && step && typeof step.on !== "function" && typeof step.write === "function" &&
      previous && typeof previous.on === "function") {
      // A destination that only writes (process.stdout here): done when its source has ended.
      pending++;
      finished(previous, { readable: true, writable: false }, (err) => {
        pending--;
        finish(err, pending === 0);
      });
    } else if (step && typeof step.on === "function") {
      const stream = step;
      const reading = i < streams.length - 1;
      const writing = i > 0;
      if (isLast) pending++;
      const stop = finished(stream, { readable: reading, writable: writing }, (err) => {
        if (isLast) pending--;
        if (err && err.code === "ERR_STREAM_PREMATURE_CLOSE" && reading && !isLast && stream.readableEnded) err = null;
        finish(err, isLast && pending === 0);
      });
      ArrayPrototypePush(destroys, (err) => {
        stop();
        // The pipeline reports the error: the streams it destroys with it need no listener of their own.
        stream.on("error", nop);
        if (err && !stream.destroyed && typeof stream.destroy === "function") stream.destroy(err);
      });
      if (reading && !isLast) {
        stream.on("error", (err) => finish(err, false));
      }
    }
    previous = step;
  }
  if (signal) {
    const abort = () => finish(internal.nodeAbortError(signal), true);
    if (signal.aborted) nextTick(abort);
    else signal.addEventListener("abort", abort, { once: true });
  }
  return previous;
}

/// Destroys `stream` with an AbortError when `signal` aborts.
function addAbortSignal(signal, stream) {
  if (signal === null || typeof signal !== "object" || !("aborted" in signal)) {
    throw invalidArgType("signal", "AbortSignal", signal);
  }
  const abort = () => stream.destroy(internal.nodeAbortError(signal));
  if (signal.aborted) abort();
  else {
    signal.addEventListener("abort", abort, { once: true });
    finished(stream, () => signal.removeEventListener("abort", abort));
  }
  return stream;
}

// MARK: - Web streams

/// A web ReadableStream of `readable`'s chunks (back-pressure through pause/resume).
Readable.toWeb = function (readable, options) {
  const ReadableStream = internal.ReadableStream;
  const objectMode = readable.readableObjectMode;
  let controller;
  const onData = (chunk) => {
    controller.enqueue(objectMode || typeof chunk === "string" ? chunk
      : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (controller.desiredSize <= 0) readable.pause();
  };
  return new ReadableStream({
    start(c) {
      controller = c;
      readable.on("data", onData);
      finished(readable, (error) => {
        if (error) controller.error(error);
        else controller.close();
      });
    },
    pull() {
      readable.resume();
    },
    cancel(reason) {
      readable.destroy(reason);
    },
  }, options?.strategy ?? { highWaterMark: objectMode ? 16 : 1 });
};

/// A Readable of a web ReadableStream's chunks.
Readable.fromWeb = function (stream, options) {
  if (!(stream instanceof internal.ReadableStream)) {
    throw invalidArgType("readableStream", "ReadableStream", stream);
  }
  const reader = stream.getReader();
  let closed = false;
  const readable = new Readable({
    ...options,
    read() {
      PromisePrototypeThen(reader.read(), ({ value, done }) => {
        if (done) {
          closed = true;
          this.push(null);
        } else {
          this.push(value);
        }
      }, (error) => destroyStream(this, error));
    },
    destroy(error, callback) {
      if (closed) return callback(error);
      PromisePrototypeThen(reader.cancel(error ?? undefined), () => callback(error), () => callback(error));
    },
  });
  PromisePrototypeThen(reader.closed, undefined, (error) => destroyStream(readable, error));
  return readable;
};

// MARK: - The module

const promises = {
  /** @param {any[]} streams */
  pipeline(...streams) {
    let options;
    const last = streams[streams.length - 1];
    if (last && typeof last === "object" && typeof last.pipe !== "function" && !isIterable(last) &&
      typeof last.on !== "function") {
      options = ArrayPrototypePop(streams);
    }
    return new Promise((resolve, reject) => {
      /** @type {any} */
      const all = streams.length === 1 && ArrayIsArray(streams[0]) ? [...streams[0]] : streams;
      if (options?.signal) all.signal = options.signal;
      pipeline(all, (error, value) => (error ? reject(error) : resolve(value)));
    });
  },
  finished(stream, options) {
    return new Promise((resolve, reject) => {
      finished(stream, options ?? {}, (error) => (error ? reject(error) : resolve()));
    });
  },
};

Stream.Stream = Stream;
Stream.Readable = Readable;
Stream.Writable = Writable;
Stream.Duplex = Duplex;
Stream.Transform = Transform;
Stream.PassThrough = PassThrough;
Stream.pipeline = pipeline;
Stream.finished = finished;
Stream.addAbortSignal = addAbortSignal;
Stream.promises = promises;
Stream.destroy = (stream, error) => stream.destroy(error);
Stream.isErrored = (stream) => !!(stream?._readableState?.errored ?? stream?._writableState?.errored);
Stream.isReadable = (stream) => !!stream?.readable;
Stream.isDisturbed = (stream) => !!stream?._readableState?.dataEmitted;
Stream.getDefaultHighWaterMark = (objectMode) => (objectMode ? defaultHighWaterMark.objects : defaultHighWaterMark.bytes);
Stream.setDefaultHighWaterMark = (objectMode, value) => {
  if (objectMode) defaultHighWaterMark.objects = value;
  else defaultHighWaterMark.bytes = value;
};
pipeline[SymbolFor("nodejs.util.promisify.custom")] = promises.pipeline;
finished[SymbolFor("nodejs.util.promisify.custom")] = promises.finished;

// MARK: - stream/consumers, stream/web

/// The chunks of a Node or web stream (any async iterable), as bytes or strings.
async function collect(stream) {
  const chunks = [];
  for await (const chunk of stream) ArrayPrototypePush(chunks, chunk);
  return chunks;
}

async function consumeBuffer(stream) {
  const chunks = await collect(stream);
  const parts = [];
  for (const chunk of chunks) {
    ArrayPrototypePush(parts, typeof chunk === "string" ? Buffer.from(chunk)
      : isUint8Array(chunk) ? toBuffer(chunk) : Buffer.from(chunk));
  }
  return Buffer.concat(parts);
}

const consumers = {
  buffer: consumeBuffer,
  async arrayBuffer(stream) {
    const bytes = await consumeBuffer(stream);
    return ArrayBufferPrototypeSlice(bytes.buffer, bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  },
  async text(stream) {
    const decoder = new StringDecoder("utf8");
    let text = "";
    for await (const chunk of stream) text += typeof chunk === "string" ? chunk : decoder.write(toBuffer(chunk));
    return text + decoder.end();
  },
  async json(stream) {
    return JSONParse(await consumers.text(stream));
  },
  async blob(stream) {
    return new globalThis.Blob(await collect(stream));
  },
};

/// `node:stream/web`: the web stream classes (the globals as the runtime loaded them).
const web = {};
for (const name of [
  "ReadableStream", "ReadableStreamDefaultReader", "ReadableStreamBYOBReader", "ReadableStreamBYOBRequest",
  "ReadableByteStreamController", "ReadableStreamDefaultController", "TransformStream",
  "TransformStreamDefaultController", "WritableStream", "WritableStreamDefaultWriter",
  "WritableStreamDefaultController", "ByteLengthQueuingStrategy", "CountQueuingStrategy", "TextEncoderStream",
  "TextDecoderStream", "CompressionStream", "DecompressionStream",
]) {
  if (globalThis[name] !== undefined) web[name] = globalThis[name];
}

internal.nodeExport("stream", Stream);
internal.nodeExport("stream/promises", promises);
internal.nodeExport("stream/consumers", consumers);
internal.nodeExport("stream/web", web);
