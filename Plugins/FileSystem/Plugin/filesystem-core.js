// filesystem-core.js - what the FileSystem global and the node:fs modules share (`plugin.shared.fs`): calls
// with Node-shaped errors, contents crossing the bridge, paths, Stats, Dirent, file handles and streams.
//
// Bytes cross beside the JSON (the bridge's bytes lane): `data` given as a Uint8Array, Buffer, other view or
// ArrayBuffer reaches Swift as bytes, and reads without an encoding answer a Uint8Array over the buffer Swift
// read into. Text crosses as strings; large text goes through the sync `stage`/`take` actions (a string
// argument or result of a sync action crosses without JSON text).

const { BridgeError, utf8Decode } = runtime;
const {
  ArrayPrototypePush, ArrayPrototypeShift, ArrayPrototypeSplice, Date, Error, MathMin, MethodFindIndex,
  MethodIncludes, MethodJoin, MethodMap, MethodSlice, MethodToLowerCase, NumberPrototypeToString, PromisePrototypeThen,
  RangeError, ReflectApply, SafeMap, String, TypeError, Uint8Array,
} = runtime.primordials;
const INLINE = plugin.constants.inlineLimit;
const take = plugin.syncAction("take");
const stage = plugin.syncAction("stage");
const {
  StringFromCharCode: fromCharCode, ReflectApply: apply, ObjectFreeze: freeze, ObjectDefineProperty: defineProperty,
  ArrayBufferIsView: isView,
} = runtime.primordials;
const PromiseCtor = Promise;

// MARK: - Errors

/// Puts a file-system failure's `errno`, `syscall`, `path` and `dest` on the error itself, as Node has them.
function nodeError(error) {
  const data = error !== null && typeof error === "object" ? error.data : undefined;
  // A file too large for one buffer or string is a RangeError (as Node's and the runtime's Buffer limits).
  if (error?.code === "ERR_FS_FILE_TOO_LARGE" || error?.code === "ERR_STRING_TOO_LONG") {
    const range = new RangeError(error.message);
    range.code = error.code;
    return range;
  }
  if (data !== null && typeof data === "object" && typeof data.syscall === "string") {
    error.errno = data.errno;
    error.syscall = data.syscall;
    if (data.path !== "") error.path = data.path;
    if (data.dest !== undefined) error.dest = data.dest;
  }
  return error;
}

function invalidArgType(name, expected, value) {
  const error = new TypeError(`The "${name}" argument must be ${expected}. Received ${describe(value)}`);
  error.code = "ERR_INVALID_ARG_TYPE";
  return error;
}

function invalidArgValue(name, value, reason) {
  const error = new TypeError(`The argument '${name}' ${reason}. Received ${describe(value)}`);
  error.code = "ERR_INVALID_ARG_VALUE";
  return error;
}

function describe(value) {
  if (value === null || value === undefined) return `${value}`;
  if (typeof value === "function") return `function ${value.name}`;
  if (typeof value === "object") return `an instance of ${value.constructor?.name ?? "Object"}`;
  if (typeof value === "string") return `type string ('${value.length > 28 ? MethodSlice(value, 0, 25) + "..." : value}')`;
  return `type ${typeof value} (${String(value)})`;
}

/// Runs async `action`; failures carry Node's fields.
function call(action, args) {
  return PromisePrototypeThen(plugin.call(action, args), undefined, (error) => { throw nodeError(error); });
}

/// Runs the sync twin of `action`.
function callSync(action, args) {
  try {
    return plugin.execSync(action + "Sync", args);
  } catch (error) {
    throw nodeError(error);
  }
}

// MARK: - Paths and contents

/// A path argument: a string, a `file:` URL or bytes (UTF-8).
function toPath(value, name = "path") {
  if (typeof value === "string") {
    if (MethodIncludes(value, "\u0000")) throw invalidArgValue(name, value, "must be a string without null bytes");
    return value;
  }
  if (value instanceof runtime.URL) return runtime.fileURLToPath(value);
  if (isView(value)) return utf8Decode(bytesOf(value));
  throw invalidArgType(name, "of type string or an instance of Buffer or URL", value);
}

/// The bytes of a view or buffer, without copying.
function bytesOf(value) {
  if (value instanceof Uint8Array) return value;
  if (isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return new Uint8Array(value);
}

/// Bytes as a latin1 string (in slices: `fromCharCode` takes its arguments on the stack).
function bytesToLatin1(bytes) {
  const n = bytes.length;
  if (n <= 8192) return apply(fromCharCode, null, bytes);
  const parts = [];
  for (let i = 0; i < n; i += 8192) ArrayPrototypePush(parts, apply(fromCharCode, null, bytes.subarray(i, i + 8192)));
  return MethodJoin(parts, "");
}

/// Bytes as the script's `Buffer` when the runtime has one (node:fs answers with Buffers), else as they are.
function asBuffer(bytes) {
  const B = globalThis.Buffer;
  return typeof B === "function" && typeof B.from === "function" ? B.from(bytes.buffer, bytes.byteOffset, bytes.length) : bytes;
}

/// Contents to write into `options`: bytes as they are (they cross beside the JSON), text in `encoding`
/// (default utf8) inside the call, or staged first when large; `sync` calls take text as `[options, text]`.
function withData(options, data, encoding, sync, name = "data") {
  const textEncoding = checkEncoding(encoding) ?? "utf8";
  if (typeof data === "string") {
    options.encoding = textEncoding;
    if (sync) return [options, data];
    if (data.length > INLINE) options.token = stage(data);
    else options.data = data;
    return options;
  }
  if (isView(data) || data instanceof ArrayBuffer) {
    options.data = data;
    return options;
  }
  throw invalidArgType(name, "of type string or an instance of Buffer, TypedArray, or DataView", data);
}

/// The text of an answer holding contents: the string itself (sync calls), inline, or staged for `take`.
function answerText(answer) {
  if (typeof answer === "string") return answer;
  return answer.data !== undefined ? answer.data : take(answer.token);
}

/// Contents as the caller asked: a string in `encoding`, or bytes (a Uint8Array from Swift) when it is null.
function decodeAnswer(answer, encoding, buffers) {
  if (encoding !== null && encoding !== undefined) return answerText(answer);
  return buffers ? asBuffer(answer) : answer;
}

/// Bytes as text in `encoding` (for contents read through a file handle; whole files are encoded in Swift).
function encodeBytes(bytes, encoding) {
  if (encoding === "utf8") return utf8Decode(bytes);
  if (encoding === "latin1") return bytesToLatin1(bytes);
  if (encoding === "hex") {
    let out = "";
    for (let i = 0; i < bytes.length; i++) out += (bytes[i] < 16 ? "0" : "") + NumberPrototypeToString(bytes[i], 16);
    return out;
  }
  return runtime.base64Encode(bytes, encoding === "base64url");
}

function checkEncoding(encoding) {
  if (encoding === undefined || encoding === null || encoding === "buffer") return null;
  if (typeof encoding !== "string") throw invalidArgType("encoding", "of type string", encoding);
  const name = MethodToLowerCase(encoding);
  if (name === "utf8" || name === "utf-8") return "utf8";
  if (name === "base64" || name === "base64url" || name === "hex" || name === "latin1") return name;
  if (name === "binary") return "latin1";
  const error = new TypeError(`Unknown encoding: ${encoding}`);
  error.code = "ERR_UNKNOWN_ENCODING";
  throw error;
}

// MARK: - Whole files

function readArgs(path, encoding) {
  return { path: toPath(path), encoding: encoding === null ? undefined : encoding };
}

function readFile(path, encoding = null, buffers = false) {
  let args;
  try {
    args = readArgs(path, checkEncoding(encoding));
  } catch (error) {
    return PromiseCtor.reject(error);
  }
  return PromisePrototypeThen(call("readFile", args), (answer) => decodeAnswer(answer, args.encoding, buffers));
}

function readFileSync(path, encoding = null, buffers = false) {
  const args = readArgs(path, checkEncoding(encoding));
  return decodeAnswer(callSync("readFile", args), args.encoding, buffers);
}

/// Write arguments: bytes beside the JSON, small text inside the call, large text staged first.
function writeArgs(path, data, { encoding, flag, mode } = {}, sync = false) {
  return withData({ path: toPath(path), encoding: undefined, flag, mode }, data, encoding, sync);
}

function writeFile(path, data, options) {
  let args;
  try {
    args = writeArgs(path, data, options);
  } catch (error) {
    return PromiseCtor.reject(error);
  }
  return PromisePrototypeThen(call("writeFile", args), () => undefined);
}

function writeFileSync(path, data, options) {
  callSync("writeFile", writeArgs(path, data, options, true));
}

// MARK: - Stats and directory entries

const TYPE_BITS = { file: 0o100000, directory: 0o040000, symlink: 0o120000, fifo: 0o010000, socket: 0o140000,
  charDevice: 0o020000, blockDevice: 0o060000 };

/// Node's `fs.Stats`: the numbers, Dates from the `...Ms` fields, and the `is...()` tests.
class Stats {
  constructor(fields) {
    for (const key of ["dev", "mode", "nlink", "uid", "gid", "rdev", "blksize", "ino", "size", "blocks",
      "atimeMs", "mtimeMs", "ctimeMs", "birthtimeMs"]) this[key] = fields[key];
    this.atime = new Date(fields.atimeMs);
    this.mtime = new Date(fields.mtimeMs);
    this.ctime = new Date(fields.ctimeMs);
    this.birthtime = new Date(fields.birthtimeMs);
  }
  #type() { return this.mode & 0o170000; }
  isFile() { return this.#type() === TYPE_BITS.file; }
  isDirectory() { return this.#type() === TYPE_BITS.directory; }
  isSymbolicLink() { return this.#type() === TYPE_BITS.symlink; }
  isFIFO() { return this.#type() === TYPE_BITS.fifo; }
  isSocket() { return this.#type() === TYPE_BITS.socket; }
  isCharacterDevice() { return this.#type() === TYPE_BITS.charDevice; }
  isBlockDevice() { return this.#type() === TYPE_BITS.blockDevice; }
}

/// Node's `fs.Dirent`: a name, the directory it is in, and its type.
class Dirent {
  #type;
  constructor(name, type, parentPath) {
    this.name = name;
    this.parentPath = parentPath;
    this.path = parentPath;
    this.#type = type;
  }
  isFile() { return this.#type === "file"; }
  isDirectory() { return this.#type === "directory"; }
  isSymbolicLink() { return this.#type === "symlink"; }
  isFIFO() { return this.#type === "fifo"; }
  isSocket() { return this.#type === "socket"; }
  isCharacterDevice() { return this.#type === "charDevice"; }
  isBlockDevice() { return this.#type === "blockDevice"; }
}

function entries(list, path, withFileTypes) {
  return withFileTypes ? MethodMap(list, ([name, type]) => new Dirent(name, type, path)) : MethodMap(list, ([name]) => name);
}

// MARK: - Open files

/// Reads up to `length` bytes of open file `fd` at `position` (null: its current position).
function readBytes(fd, length, position, sync) {
  const args = { fd, length, position: position ?? undefined };
  return sync ? callSync("read", args) : call("read", args);
}

/// Writes `data` (a string in `encoding`, or bytes) to open file `fd`; resolves to the count written.
function writeBytes(fd, data, encoding, position, sync) {
  const args = withData({ fd, encoding: undefined, position: position ?? undefined }, data, encoding, sync);
  return sync ? callSync("write", args) : call("write", args);
}

// MARK: - Streams

/// The few EventEmitter methods streams need (node:events is another module's; streams must not depend on it).
class Emitter {
  #listeners = new SafeMap();
  on(event, listener) {
    const list = this.#listeners.get(event) ?? [];
    ArrayPrototypePush(list, listener);
    this.#listeners.set(event, list);
    this._listening?.(event);
    return this;
  }
  addListener(event, listener) { return this.on(event, listener); }
  once(event, listener) {
    const wrapper = (...args) => { this.off(event, wrapper); ReflectApply(listener, this, args); };
    wrapper.listener = listener;
    return this.on(event, wrapper);
  }
  off(event, listener) {
    const list = this.#listeners.get(event);
    if (list) {
      const index = MethodFindIndex(list, (l) => l === listener || l.listener === listener);
      if (index >= 0) ArrayPrototypeSplice(list, index, 1);
    }
    return this;
  }
  removeListener(event, listener) { return this.off(event, listener); }
  listenerCount(event) { return this.#listeners.get(event)?.length ?? 0; }
  emit(event, ...args) {
    const list = this.#listeners.get(event);
    if (!list || list.length === 0) {
      if (event === "error") runtime.reportError(args[0]);
      return false;
    }
    for (const listener of [...list]) ReflectApply(listener, this, args);
    return true;
  }
}

/// `createReadStream`: reads `highWaterMark` bytes at a time, the next read only once the previous chunk was
/// handed on and the stream is not paused (so a slow consumer holds the file's reading back).
class ReadStream extends Emitter {
  #fd = null;
  #flowing = null;
  #reading = false;
  #ended = false;
  #position;
  #end;
  #encoding;
  #highWaterMark;
  #buffers;
  #opening;
  #decoder;

  constructor(path, options = {}, buffers = false) {
    super();
    if (typeof options === "string") options = { encoding: options };
    this.path = path === null ? undefined : toPath(path);
    this.bytesRead = 0;
    this.#encoding = checkEncoding(options.encoding);
    this.#highWaterMark = options.highWaterMark ?? 64 * 1024;
    this.#position = options.start ?? 0;
    this.#end = options.end ?? Infinity;
    this.#buffers = buffers;
    this.#opening = PromisePrototypeThen((options.fd !== undefined && options.fd !== null
      ? PromiseCtor.resolve(typeof options.fd === "number" ? options.fd : options.fd.fd)
      : call("open", { path: this.path, flags: options.flags ?? "r" })
    ), (fd) => {
      this.#fd = fd;
      this.fd = fd;
      this.emit("open", fd);
      this.emit("ready");
      return fd;
    }, (error) => this.#fail(error));
  }

  _listening(event) {
    if (event === "data" && this.#flowing !== false) this.resume();
  }

  get readableFlowing() { return this.#flowing; }
  setEncoding(encoding) { this.#encoding = checkEncoding(encoding); return this; }
  pause() { this.#flowing = false; return this; }

  resume() {
    this.#flowing = true;
    queueMicrotask(() => this.#pump());
    return this;
  }

  pipe(destination, { end = true } = {}) {
    this.on("data", (chunk) => {
      if (destination.write(chunk) === false) {
        this.pause();
        destination.once("drain", () => this.resume());
      }
    });
    if (end) this.once("end", () => destination.end());
    return destination;
  }

  destroy(error) {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.#ended = true;
    PromisePrototypeThen(this.#close(), () => {
      if (error) this.emit("error", error);
      this.emit("close");
    });
    return this;
  }

  close(callback) {
    if (callback) this.once("close", callback);
    return this.destroy();
  }

  async #close() {
    await this.#opening;
    if (this.#fd !== null) {
      const fd = this.#fd;
      this.#fd = null;
      await PromisePrototypeThen(call("close", { fd }), undefined, () => {});
    }
  }

  #fail(error) {
    this.#ended = true;
    this.destroyed = true;
    this.emit("error", error);
    this.emit("close");
  }

  /// The next chunk, or null at the end of the range or the file.
  async #next() {
    const fd = await this.#opening;
    if (this.#ended || fd === undefined) return null;
    const want = MathMin(this.#highWaterMark, this.#end + 1 - this.#position);
    if (want <= 0) return null;
    const bytes = await readBytes(fd, want, this.#position, false);
    if (bytes.length === 0) return null;
    this.#position += bytes.length;
    this.bytesRead += bytes.length;
    if (this.#encoding === null) return this.#buffers ? asBuffer(bytes) : bytes;
    if (this.#encoding === "utf8") {
      // A character split between chunks is held back until the next one.
      this.#decoder ??= new TextDecoder();
      return this.#decoder.decode(bytes, { stream: true });
    }
    return encodeBytes(bytes, this.#encoding);
  }

  async #pump() {
    if (this.#reading) return;
    this.#reading = true;
    try {
      while (this.#flowing && !this.#ended) {
        const chunk = await this.#next();
        if (chunk === null) {
          this.#ended = true;
          await this.#close();
          this.emit("end");
          this.emit("close");
          break;
        }
        this.emit("data", chunk);
      }
    } catch (error) {
      await this.#close();
      this.#fail(nodeError(error));
    } finally {
      this.#reading = false;
    }
  }

  /// Async iteration pulls one chunk per step: reading waits for the consumer.
  async *[Symbol.asyncIterator]() {
    this.#flowing = false;
    try {
      while (true) {
        const chunk = await this.#next();
        if (chunk === null) break;
        yield chunk;
      }
    } finally {
      this.#ended = true;
      await this.#close();
    }
  }
}

/// `createWriteStream`: chunks are written in order, one call at a time; `write` answers false once
/// `highWaterMark` bytes wait, and `drain` is emitted when they are written.
class WriteStream extends Emitter {
  #fd = null;
  #opening;
  #queue = [];
  #queued = 0;
  #writing = false;
  #needDrain = false;
  #ending = false;
  #highWaterMark;
  #position;
  #encoding;

  constructor(path, options = {}) {
    super();
    if (typeof options === "string") options = { encoding: options };
    this.path = path === null ? undefined : toPath(path);
    this.bytesWritten = 0;
    this.#highWaterMark = options.highWaterMark ?? 16 * 1024;
    this.#position = options.start;
    this.#encoding = checkEncoding(options.encoding) ?? "utf8";
    this.#opening = PromisePrototypeThen((options.fd !== undefined && options.fd !== null
      ? PromiseCtor.resolve(typeof options.fd === "number" ? options.fd : options.fd.fd)
      : call("open", { path: this.path, flags: options.flags ?? "w", mode: options.mode })
    ), (fd) => {
      this.#fd = fd;
      this.fd = fd;
      this.emit("open", fd);
      this.emit("ready");
      return fd;
    }, (error) => {
      this.destroyed = true;
      this.emit("error", error);
      this.emit("close");
    });
  }

  get writableLength() { return this.#queued; }
  get writableNeedDrain() { return this.#needDrain; }

  write(chunk, encoding, callback) {
    if (typeof encoding === "function") [callback, encoding] = [encoding, undefined];
    if (this.#ending) {
      const error = new Error("write after end");
      error.code = "ERR_STREAM_WRITE_AFTER_END";
      queueMicrotask(() => { callback?.(error); this.emit("error", error); });
      return false;
    }
    const size = typeof chunk === "string" ? chunk.length : chunk.byteLength;
    ArrayPrototypePush(this.#queue, [chunk, encoding ?? this.#encoding, callback]);
    this.#queued += size;
    this.#flush();
    const ok = this.#queued < this.#highWaterMark;
    if (!ok) this.#needDrain = true;
    return ok;
  }

  end(chunk, encoding, callback) {
    if (typeof chunk === "function") [callback, chunk] = [chunk, undefined];
    if (typeof encoding === "function") [callback, encoding] = [encoding, undefined];
    if (chunk !== undefined && chunk !== null) this.write(chunk, encoding);
    if (callback) this.once("finish", callback);
    this.#ending = true;
    this.#flush();
    return this;
  }

  destroy(error) {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.#queue.length = 0;
    PromisePrototypeThen(this.#opening, async (fd) => {
      if (fd !== undefined) await PromisePrototypeThen(call("close", { fd }), undefined, () => {});
      if (error) this.emit("error", error);
      this.emit("close");
    });
    return this;
  }

  close(callback) {
    if (callback) this.once("close", callback);
    this.end();
    return this;
  }

  async #flush() {
    if (this.#writing) return;
    this.#writing = true;
    try {
      const fd = await this.#opening;
      if (fd === undefined) return;
      while (this.#queue.length > 0 && !this.destroyed) {
        const [chunk, encoding, callback] = ArrayPrototypeShift(this.#queue);
        const size = typeof chunk === "string" ? chunk.length : chunk.byteLength;
        const written = await writeBytes(fd, chunk, encoding, this.#position, false);
        if (this.#position !== undefined) this.#position += written;
        this.bytesWritten += written;
        this.#queued -= size;
        callback?.(null);
        if (this.#queue.length === 0 && this.#needDrain) {
          this.#needDrain = false;
          this.emit("drain");
        }
      }
      if (this.#ending && this.#queue.length === 0 && !this.destroyed) {
        this.destroyed = true;
        await call("close", { fd });
        this.emit("finish");
        this.emit("close");
      }
    } catch (error) {
      this.destroyed = true;
      if (this.#fd !== null) await PromisePrototypeThen(call("close", { fd: this.#fd }), undefined, () => {});
      this.emit("error", nodeError(error));
      this.emit("close");
    } finally {
      this.#writing = false;
    }
  }
}

plugin.shared.fs = freeze({
  call, callSync, nodeError, toPath, bytesOf, asBuffer, bytesToLatin1, checkEncoding,
  invalidArgType, encodeBytes, readFile, readFileSync, writeFile, writeFileSync, Stats, Dirent, entries, readBytes, writeBytes,
  ReadStream, WriteStream,
});
