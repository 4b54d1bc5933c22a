// `process.stdin`: a readable stream of fd 0 (Buffers, or strings after setEncoding) with Node's
// flowing/paused modes: a 'data' listener or resume() starts the flow, pause() stops it, 'end' follows the
// last chunk, and `for await` reads it. A native thread reads the fd (stdinStart); the process stays
// alive for stdin only while something consumes it (stdinRef), so a script that never reads it ends.

const {
  ArrayPrototypePush, ArrayPrototypeShift, ArrayPrototypeSplice, Promise, PromiseReject, PromiseResolve,
  SymbolAsyncIterator,
} = internal.primordials;
const EventEmitter = internal.nodeBuiltin("events");
const { Buffer } = internal.nodeBuiltin("buffer");

class Stdin extends EventEmitter {
  constructor() {
    super();
    this.fd = 0;
    this.isTTY = internal.isatty(0);
    this.readable = true;
    this.readableEnded = false;
    this.readableFlowing = null;
    this.readableEncoding = null;
    this.destroyed = false;
    this._decoder = null;
    this._queue = []; // chunks read but not yet delivered
    this._ended = false; // the native reader reached the end
    this._referenced = true;
    this._iterators = 0;
    this._readableWanted = false;
  }

  setEncoding(encoding) {
    const { StringDecoder } = internal.nodeBuiltin("string_decoder");
    this._decoder = new StringDecoder(encoding);
    this.readableEncoding = this._decoder.encoding;
    return this;
  }

  on(event, listener) {
    super.on(event, listener);
    if (event === "data" && this.readableFlowing !== false) this.resume();
    else if (event === "readable") {
      this._readableWanted = true;
      this.readableFlowing = false;
      start(this);
    }
    return this;
  }

  removeListener(event, listener) {
    super.removeListener(event, listener);
    updateRef(this);
    return this;
  }

  off(event, listener) {
    return this.removeListener(event, listener);
  }

  addListener(event, listener) {
    return this.on(event, listener);
  }

  resume() {
    this.readableFlowing = true;
    start(this);
    queueMicrotask(() => flow(this));
    return this;
  }

  pause() {
    if (this.readableFlowing !== false) {
      this.readableFlowing = false;
      this.emit("pause");
    }
    updateRef(this);
    return this;
  }

  isPaused() {
    return this.readableFlowing === false;
  }

  /// Paused mode: the buffered data (all of it, or `size` bytes), or null when none is buffered.
  read(size) {
    if (this._queue.length === 0) {
      if (this._ended) finish(this);
      return null;
    }
    const chunk = Buffer.concat(ArrayPrototypeSplice(this._queue, 0));
    let result = chunk;
    if (size !== undefined && size < chunk.length) {
      result = chunk.subarray(0, size);
      ArrayPrototypePush(this._queue, chunk.subarray(size));
    }
    if (this._queue.length === 0 && this._ended) queueMicrotask(() => finish(this));
    return this._decoder !== null ? this._decoder.write(result) : result;
  }

  pipe(destination, options) {
    this.on("data", (chunk) => {
      if (destination.write(chunk) === false && typeof destination.once === "function") {
        this.pause();
        destination.once("drain", () => this.resume());
      }
    });
    if (options?.end !== false && typeof destination.end === "function") this.once("end", () => destination.end());
    return destination;
  }

  unpipe() {
    this.removeAllListeners("data");
    return this;
  }

  ref() {
    this._referenced = true;
    updateRef(this);
    return this;
  }

  unref() {
    this._referenced = false;
    updateRef(this);
    return this;
  }

  destroy(error) {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.readable = false;
    this._queue = [];
    updateRef(this);
    queueMicrotask(() => {
      if (error) this.emit("error", error);
      this.emit("close");
    });
    return this;
  }

  [SymbolAsyncIterator]() {
    const stream = this;
    const chunks = [];
    const waiting = [];
    let failure = null;
    let done = false;
    const onData = (chunk) => {
      if (waiting.length > 0) ArrayPrototypeShift(waiting).resolve({ value: chunk, done: false });
      else ArrayPrototypePush(chunks, chunk);
    };
    const onEnd = () => {
      done = true;
      for (const waiter of ArrayPrototypeSplice(waiting, 0)) waiter.resolve({ value: undefined, done: true });
    };
    const onError = (error) => {
      failure = error;
      for (const waiter of ArrayPrototypeSplice(waiting, 0)) waiter.reject(error);
    };
    const cleanup = () => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
    };
    stream.on("end", onEnd);
    stream.on("error", onError);
    stream.on("data", onData);
    return {
      next() {
        if (chunks.length > 0) return PromiseResolve({ value: ArrayPrototypeShift(chunks), done: false });
        if (failure !== null) return PromiseReject(failure);
        if (done) {
          cleanup();
          return PromiseResolve({ value: undefined, done: true });
        }
        return new Promise((resolve, reject) => ArrayPrototypePush(waiting, { resolve, reject }));
      },
      return() {
        cleanup();
        stream.pause();
        return PromiseResolve({ value: undefined, done: true });
      },
      [SymbolAsyncIterator]() { return this; },
    };
  }
}

let started = false;
function start(stream) {
  if (!started) {
    started = true;
    internal.onNativeEvent("", "stdin", (payload) => receive(stream, payload));
    internal.stdinStart();
  }
  updateRef(stream);
}

function updateRef(stream) {
  const consuming = !stream._ended && !stream.destroyed && stream._referenced &&
    ((stream.readableFlowing === true && stream.listenerCount("data") > 0) || stream._readableWanted);
  internal.stdinRef(consuming);
}

function receive(stream, payload) {
  if (stream.destroyed) return;
  if (payload.error !== undefined) {
    stream._ended = true;
    updateRef(stream);
    const error = new Error(payload.error);
    error.code = "EIO";
    stream.emit("error", error);
    return;
  }
  if (payload.end) {
    stream._ended = true;
    updateRef(stream);
  } else {
    ArrayPrototypePush(stream._queue, Buffer.from(payload.data.buffer, payload.data.byteOffset, payload.data.byteLength));
  }
  if (stream.readableFlowing === true) flow(stream);
  else if (stream._readableWanted) stream.emit("readable");
}

/// Delivers the buffered chunks as 'data' events while flowing, then 'end' once the input ended.
function flow(stream) {
  while (stream.readableFlowing === true && stream._queue.length > 0) {
    const chunk = ArrayPrototypeShift(stream._queue);
    stream.emit("data", stream._decoder !== null ? stream._decoder.write(chunk) : chunk);
  }
  if (stream.readableFlowing === true && stream._queue.length === 0 && stream._ended) finish(stream);
}

function finish(stream) {
  if (stream.readableEnded) return;
  if (stream._decoder !== null) {
    const rest = stream._decoder.end();
    if (rest.length > 0) stream.emit("data", rest);
  }
  stream.readableEnded = true;
  stream.readable = false;
  updateRef(stream);
  stream.emit("end");
  queueMicrotask(() => stream.emit("close"));
}

internal.stdin = new Stdin();
