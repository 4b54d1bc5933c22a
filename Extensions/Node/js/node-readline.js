// `node:readline` and `node:readline/promises`: `createInterface({ input, output, prompt })` over any readable
// stream (process.stdin, a stream.Readable, anything emitting 'data' and 'end'), with 'line', 'close', 'pause'
// and 'resume' events, `question` (a callback, or a promise in readline/promises), `prompt`, `write`, `close`,
// and `for await (const line of rl)`. Lines end at \n, \r\n or \r. No terminal editing: input is read as lines
// (a TTY's keys are not interpreted), and the cursor helpers write ANSI sequences to the stream they are given.

const {
  ArrayPrototypePush, ArrayPrototypeShift, FunctionPrototypeCall, MethodSlice, ObjectSetPrototypeOf,
  Promise, PromiseReject, PromiseResolve, SymbolAsyncIterator,
} = internal.primordials;
const { checkFunction, invalidArgType, make } = internal.nodeErrors;
const EventEmitter = internal.nodeBuiltin("events");
const { StringDecoder } = internal.nodeBuiltin("string_decoder");

function closedError() {
  return make(Error, "ERR_USE_AFTER_CLOSE", "readline was closed");
}

/** @type {any} */
const Interface = function Interface(input, output, completer, terminal) {
  if (!(this instanceof Interface)) return new Interface(input, output, completer, terminal);
  FunctionPrototypeCall(EventEmitter, this);
  let options = input;
  if (input === null || typeof input !== "object" || typeof input.on !== "function") {
    options = input ?? {};
  } else {
    options = { input, output, completer, terminal };
  }
  if (!options.input || typeof options.input.on !== "function") {
    throw invalidArgType("input", "ReadableStream", options.input);
  }
  this.input = options.input;
  this.output = options.output;
  this.terminal = !!options.terminal && !!this.output?.isTTY;
  this.line = "";
  this.cursor = 0;
  this.history = [];
  this.closed = false;
  this.crlfDelay = options.crlfDelay ?? 100;
  this._prompt = options.prompt ?? "> ";
  this._questionCallback = null;
  this._paused = false;
  this._pending = "";
  this._sawReturn = false;
  const decoder = new StringDecoder("utf8");
  this._onData = (chunk) => {
    this._feed(typeof chunk === "string" ? chunk : decoder.write(chunk));
  };
  this._onEnd = () => {
    const rest = decoder.end();
    if (rest) this._feed(rest);
    if (this._pending !== "") {
      const line = this._pending;
      this._pending = "";
      this._emitLine(line);
    }
    this.close();
  };
  this.input.on("data", this._onData);
  this.input.on("end", this._onEnd);
  if (typeof this.input.resume === "function") this.input.resume();
};
ObjectSetPrototypeOf(Interface.prototype, EventEmitter.prototype);
ObjectSetPrototypeOf(Interface, EventEmitter);

Interface.prototype._feed = function (text) {
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n" && this._sawReturn && i === start && this._pending === "") {
      // The \n of a \r\n whose \r ended the previous line.
      this._sawReturn = false;
      start = i + 1;
      continue;
    }
    this._sawReturn = false;
    if (c === "\n" || c === "\r") {
      const line = this._pending + MethodSlice(text, start, i);
      this._pending = "";
      if (c === "\r") {
        if (text[i + 1] === "\n") i++;
        else this._sawReturn = true;
      }
      start = i + 1;
      this._emitLine(line);
      if (this.closed) return;
    }
  }
  this._pending += MethodSlice(text, start);
};

Interface.prototype._emitLine = function (line) {
  if (this._questionCallback !== null) {
    const callback = this._questionCallback;
    this._questionCallback = null;
    callback(line);
    return;
  }
  this.emit("line", line);
};

Interface.prototype.setPrompt = function (prompt) {
  this._prompt = prompt;
};
Interface.prototype.getPrompt = function () {
  return this._prompt;
};
Interface.prototype.prompt = function () {
  if (this.closed) throw closedError();
  if (this._paused) this.resume();
  if (this.output && typeof this.output.write === "function") this.output.write(this._prompt);
};

Interface.prototype.question = function (query, options, callback) {
  if (typeof options === "function") callback = options;
  checkFunction(callback, "cb");
  if (this.closed) throw closedError();
  if (this._questionCallback !== null) {
    this.prompt();
    return;
  }
  const signal = options?.signal;
  if (signal?.aborted) return;
  this._questionCallback = callback;
  if (signal) {
    signal.addEventListener("abort", () => {
      if (this._questionCallback === callback) this._questionCallback = null;
    }, { once: true });
  }
  if (this._paused) this.resume();
  if (this.output && typeof this.output.write === "function") this.output.write(query);
};

Interface.prototype.write = function (data) {
  if (this.closed) throw closedError();
  if (typeof data === "string") this._feed(data);
};

Interface.prototype.pause = function () {
  if (this._paused) return this;
  if (typeof this.input.pause === "function") this.input.pause();
  this._paused = true;
  this.emit("pause");
  return this;
};

Interface.prototype.resume = function () {
  if (!this._paused) return this;
  if (typeof this.input.resume === "function") this.input.resume();
  this._paused = false;
  this.emit("resume");
  return this;
};

Interface.prototype.close = function () {
  if (this.closed) return;
  this.pause();
  this.closed = true;
  this.input.removeListener("data", this._onData);
  this.input.removeListener("end", this._onEnd);
  this.emit("close");
};

Interface.prototype.getCursorPos = function () {
  return { rows: 0, cols: this.cursor };
};

/// The lines as an async iterator (lines that arrive while the loop body runs are queued).
Interface.prototype[SymbolAsyncIterator] = function () {
  const queue = [];
  let waiting = null;
  let done = this.closed;
  const onLine = (line) => {
    if (waiting !== null) {
      const resolve = waiting;
      waiting = null;
      resolve({ value: line, done: false });
    } else {
      ArrayPrototypePush(queue, line);
    }
  };
  const onClose = () => {
    done = true;
    if (waiting !== null) {
      const resolve = waiting;
      waiting = null;
      resolve({ value: undefined, done: true });
    }
  };
  this.on("line", onLine);
  this.on("close", onClose);
  const rl = this;
  return {
    next() {
      if (queue.length > 0) return PromiseResolve({ value: ArrayPrototypeShift(queue), done: false });
      if (done) return PromiseResolve({ value: undefined, done: true });
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    return() {
      rl.removeListener("line", onLine);
      rl.removeListener("close", onClose);
      rl.close();
      return PromiseResolve({ value: undefined, done: true });
    },
    [SymbolAsyncIterator]() {
      return this;
    },
  };
};

function createInterface(input, output, completer, terminal) {
  return new Interface(input, output, completer, terminal);
}

// MARK: - The cursor helpers (ANSI sequences)

function writeTo(stream, text, callback) {
  if (!stream || typeof stream.write !== "function") {
    if (typeof callback === "function") queueMicrotask(callback);
    return true;
  }
  return stream.write(text, callback);
}
function cursorTo(stream, x, y, callback) {
  if (typeof y === "function") {
    callback = y;
    y = undefined;
  }
  if (typeof x !== "number") throw invalidArgType("x", "number", x);
  return writeTo(stream, typeof y === "number" ? `\x1b[${y + 1};${x + 1}H` : `\x1b[${x + 1}G`, callback);
}
function moveCursor(stream, dx, dy, callback) {
  let text = "";
  if (dx < 0) text += `\x1b[${-dx}D`;
  else if (dx > 0) text += `\x1b[${dx}C`;
  if (dy < 0) text += `\x1b[${-dy}A`;
  else if (dy > 0) text += `\x1b[${dy}B`;
  return writeTo(stream, text, callback);
}
function clearLine(stream, dir, callback) {
  return writeTo(stream, dir < 0 ? "\x1b[1K" : dir > 0 ? "\x1b[0K" : "\x1b[2K", callback);
}
function clearScreenDown(stream, callback) {
  return writeTo(stream, "\x1b[0J", callback);
}

const readline = {
  Interface, createInterface, cursorTo, moveCursor, clearLine, clearScreenDown,
  emitKeypressEvents() {},
};

// MARK: - readline/promises

const BaseInterface = Interface;
/** @type {any} */
const PromisesInterface = function Interface(input, output, completer, terminal) {
  if (!(this instanceof PromisesInterface)) return new PromisesInterface(input, output, completer, terminal);
  FunctionPrototypeCall(BaseInterface, this, input, output, completer, terminal);
};
ObjectSetPrototypeOf(PromisesInterface.prototype, Interface.prototype);
ObjectSetPrototypeOf(PromisesInterface, Interface);
PromisesInterface.prototype.question = function (query, options) {
  if (this.closed) return PromiseReject(closedError());
  const signal = options?.signal;
  if (signal?.aborted) return PromiseReject(internal.nodeAbortError(signal));
  return new Promise((resolve, reject) => {
    FunctionPrototypeCall(BaseInterface.prototype.question, this, query, options ?? {}, resolve);
    if (signal) signal.addEventListener("abort", () => reject(internal.nodeAbortError(signal)), { once: true });
  });
};

const promises = {
  Interface: PromisesInterface,
  createInterface: (input, output, completer, terminal) => new PromisesInterface(input, output, completer, terminal),
};
readline.promises = promises;

internal.nodeExport("readline", readline);
internal.nodeExport("readline/promises", promises);
