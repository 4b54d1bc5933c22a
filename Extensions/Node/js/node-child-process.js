// `node:child_process`: `spawn`, `exec`, `execFile` and their sync forms `spawnSync`, `execSync`,
// `execFileSync`, and `ChildProcess` (an EventEmitter with `pid`, `stdin`/`stdout`/`stderr` as Node streams,
// `kill(signal)`, `ref()`/`unref()`, and 'spawn', 'exit', 'close' and 'error' in Node's order), behind the `run`
// capability (`--allow-run[=programs]`): a program not granted is refused with a `PERMISSION_DENIED`
// BridgeError naming the flag. Options: `cwd`, `env`, `argv0`, `stdio` ('pipe', 'inherit', 'ignore' or a file
// descriptor, per stream), `detached`, `shell`, `timeout`, `killSignal`, `signal`, `encoding`, `maxBuffer`,
// `input`. Written for jsbridge from Node's documentation.
//
// The natives (ChildProcessNatives.swift) start the child with posix_spawn; a thread per child reads a chunk of
// its output each time a stream asks for one (so a paused stream holds the child back), writes its stdin and
// reaps it, and posts each as the native event "child". `fork`, IPC ('ipc' stdio) and `uid`/`gid` are absent.

const {
  ArrayBufferIsView, ArrayIsArray, ArrayPrototypeJoin, ArrayPrototypePush, ArrayPrototypeSlice, ArrayPrototypeUnshift,
  DataViewPrototypeGetBuffer, DataViewPrototypeGetByteLength, DataViewPrototypeGetByteOffset, Error,
  FunctionPrototypeCall, JSONStringify, MethodIncludes, MethodSlice, MethodToUpperCase, NumberIsInteger,
  ObjectAssign, ObjectDefineProperty, ObjectKeys, ObjectSetPrototypeOf, Promise, RangeError, SafeMap, SymbolFor,
  TypeError, TypedArrayPrototypeGetBuffer, TypedArrayPrototypeGetByteLength, TypedArrayPrototypeGetByteOffset,
} = internal.primordials;
const { checkFunction, invalidArgType, invalidArgValue, make, outOfRange } = internal.nodeErrors;
const EventEmitter = internal.nodeBuiltin("events");
const { Readable, Writable } = internal.nodeBuiltin("stream");
const { Buffer } = internal.nodeBuiltin("buffer");
const { signals, errno: errnoNumbers } = internal.nodeBuiltin("os").constants;
const { childSpawn, childSpawnSync } = internal;

const nextTick = (fn, ...args) => queueMicrotask(() => fn(...args));
const maxBufferDefault = 1024 * 1024;

// Signal numbers to names (the first name of each number: SIGABRT, not SIGIOT).
const signalNames = [];
for (const name of ObjectKeys(signals)) signalNames[signals[name]] ??= name;

// MARK: - Errors and arguments

/// Node's errno exception: `${syscall} ${code}`, with negative `errno`, `code` and `syscall`.
function errnoException(errno, code, syscall) {
  const error = internal.nodeStack(new Error(`${syscall} ${code}`));
  error.errno = errno;
  error.code = code;
  error.syscall = syscall;
  return error;
}

/// An Error whose message is `message` and whose own properties are `properties`' (Node's genericNodeError).
function genericError(message, properties) {
  const error = internal.nodeStack(new Error(message));
  ObjectAssign(error, properties);
  return error;
}

function unknownSignal(signal) {
  return make(TypeError, "ERR_UNKNOWN_SIGNAL", `Unknown signal: ${signal}`);
}

/// A signal name or number as its number; ERR_UNKNOWN_SIGNAL otherwise.
function toSignal(signal) {
  if (typeof signal === "number" && signalNames[signal] !== undefined) return signal;
  if (typeof signal === "string") {
    const number = signals[MethodToUpperCase(signal)];
    if (number !== undefined) return number;
  }
  throw unknownSignal(signal);
}

function sanitizeKillSignal(killSignal) {
  if (typeof killSignal === "string" || typeof killSignal === "number") return toSignal(killSignal);
  if (killSignal !== null && killSignal !== undefined) {
    throw invalidArgType("options.killSignal", ["string", "number"], killSignal);
  }
  return undefined;
}

function validateTimeout(timeout) {
  if (timeout !== null && timeout !== undefined && !(NumberIsInteger(timeout) && timeout >= 0)) {
    throw outOfRange("timeout", "an unsigned integer", timeout);
  }
}

function validateMaxBuffer(maxBuffer) {
  if (maxBuffer !== null && maxBuffer !== undefined && !(typeof maxBuffer === "number" && maxBuffer >= 0)) {
    throw outOfRange("options.maxBuffer", "a positive number", maxBuffer);
  }
}

function validateObject(value, name) {
  if (value === null || typeof value !== "object" || ArrayIsArray(value)) throw invalidArgType(name, "object", value);
}

function checkNoNull(value, name) {
  if (typeof value === "string" && MethodIncludes(value, "\u0000")) {
    throw invalidArgValue(name, value, "must be a string without null bytes");
  }
}

function validatedPath(value, name) {
  if (typeof value === "object" && value !== null && typeof value.href === "string" && value.protocol !== undefined) {
    value = internal.nodeBuiltin("url").fileURLToPath(value);
  } else if (Buffer.isBuffer(value)) {
    value = value.toString();
  }
  if (typeof value !== "string") throw invalidArgType(name, ["string", "Buffer", "URL"], value);
  checkNoNull(value, name);
  return value;
}

/// Node's spawn options, checked: the program and argv (through the shell when `shell`), the environment as
/// `NAME=value` pairs.
function normalizeSpawnArguments(file, args, options) {
  if (typeof file !== "string") throw invalidArgType("file", "string", file);
  checkNoNull(file, "file");
  if (file.length === 0) throw invalidArgValue("file", file, "cannot be empty");
  if (ArrayIsArray(args)) {
    args = ArrayPrototypeSlice(args);
  } else if (args === null || args === undefined) {
    args = [];
  } else if (typeof args !== "object") {
    throw invalidArgType("args", "object", args);
  } else {
    options = args;
    args = [];
  }
  for (let i = 0; i < args.length; i++) checkNoNull(args[i], `args[${i}]`);
  if (options === undefined) options = {};
  else validateObject(options, "options");
  options = { ...options };
  let cwd = options.cwd;
  if (cwd !== null && cwd !== undefined) cwd = validatedPath(cwd, "options.cwd");
  if (options.detached !== null && options.detached !== undefined && typeof options.detached !== "boolean") {
    throw invalidArgType("options.detached", "boolean", options.detached);
  }
  for (const id of ["uid", "gid"]) {
    if (options[id] !== null && options[id] !== undefined) {
      throw make(Error, "ERR_NOT_IMPLEMENTED", `child_process's options.${id} is not implemented in jsbridge.`);
    }
  }
  if (options.shell !== null && options.shell !== undefined && typeof options.shell !== "boolean" &&
    typeof options.shell !== "string") {
    throw invalidArgType("options.shell", ["boolean", "string"], options.shell);
  }
  if (options.argv0 !== null && options.argv0 !== undefined) {
    if (typeof options.argv0 !== "string") throw invalidArgType("options.argv0", "string", options.argv0);
    checkNoNull(options.argv0, "options.argv0");
  }
  if (options.shell) {
    checkNoNull(options.shell, "options.shell");
    const command = ArrayPrototypeJoin([file, ...args], " ");
    file = typeof options.shell === "string" ? options.shell : "/bin/sh";
    args = ["-c", command];
  }
  ArrayPrototypeUnshift(args, typeof options.argv0 === "string" ? options.argv0 : file);
  const env = options.env || process.env;
  const envPairs = [];
  // Inherited (prototype) values are included, as Node's.
  for (const key in env) {
    const value = env[key];
    if (value === undefined) continue;
    checkNoNull(key, `options.env['${key}']`);
    checkNoNull(String(value), `options.env['${key}']`);
    ArrayPrototypePush(envPairs, `${key}=${value}`);
  }
  return { ...options, args, cwd, detached: !!options.detached, envPairs, file };
}

/// The three stdio entries as the natives take them: 'pipe', 'inherit', 'ignore' or a descriptor number.
function validStdio(stdio, sync) {
  if (typeof stdio === "string") {
    if (stdio !== "ignore" && stdio !== "pipe" && stdio !== "overlapped" && stdio !== "inherit") {
      throw invalidArgValue("stdio", stdio);
    }
    stdio = [stdio, stdio, stdio];
  } else if (ArrayIsArray(stdio)) {
    stdio = ArrayPrototypeSlice(stdio);
  } else {
    throw invalidArgValue("stdio", stdio);
  }
  while (stdio.length < 3) ArrayPrototypePush(stdio, undefined);
  const modes = [];
  for (let i = 0; i < stdio.length; i++) {
    let entry = stdio[i];
    if (entry === null || entry === undefined) entry = i < 3 ? "pipe" : "ignore";
    let mode;
    if (entry === "pipe" || entry === "overlapped") mode = "pipe";
    else if (entry === "ignore") mode = "ignore";
    else if (entry === "inherit") mode = i < 3 ? "inherit" : "ignore";
    else if (typeof entry === "number") mode = entry;
    else if (entry === process.stdin) mode = 0;
    else if (entry === process.stdout) mode = 1;
    else if (entry === process.stderr) mode = 2;
    else if (typeof entry === "object" && typeof entry.fd === "number") mode = entry.fd;
    else if (entry === "ipc") {
      throw make(Error, sync ? "ERR_IPC_SYNC_FORK" : "ERR_NOT_IMPLEMENTED",
        sync ? "IPC cannot be used with synchronous forks" : "IPC channels are not implemented in jsbridge.");
    } else throw invalidArgValue("stdio", entry);
    if (i >= 3) {
      if (mode !== "ignore") {
        throw make(Error, "ERR_NOT_IMPLEMENTED", "stdio entries beyond the third are not implemented in jsbridge.");
      }
      continue;
    }
    ArrayPrototypePush(modes, mode);
  }
  return modes;
}

/// [ArrayBuffer, offset, length] of a view.
/** @returns {[any, number, number]} */
function rangeOf(view) {
  let dataView = true;
  try {
    DataViewPrototypeGetByteLength(view);
  } catch {
    dataView = false;
  }
  return dataView
    ? [DataViewPrototypeGetBuffer(view), DataViewPrototypeGetByteOffset(view), DataViewPrototypeGetByteLength(view)]
    : [TypedArrayPrototypeGetBuffer(view), TypedArrayPrototypeGetByteOffset(view),
      TypedArrayPrototypeGetByteLength(view)];
}

// MARK: - ChildProcess

const running = new SafeMap(); // id -> the child's stream state, until its 'close'
let listening = false;
let nextID = 1;
const kEntry = Symbol("kEntry");

/// What the thread of child `id` reports.
function onChildEvent(event) {
  const entry = running.get(event.id);
  if (entry === undefined) return;
  if (event.data !== undefined) {
    const stream = event.fd === 1 ? entry.stdout : entry.stderr;
    if (stream && !stream.destroyed) stream.push(Buffer.from(event.data.buffer, event.data.byteOffset, event.data.byteLength));
  } else if (event.end !== undefined) {
    const stream = event.fd === 1 ? entry.stdout : entry.stderr;
    if (stream && !stream.destroyed) stream.push(null);
  } else if (event.written !== undefined || event.writeError !== undefined) {
    const callback = entry.writeCallback;
    entry.writeCallback = null;
    if (callback) callback(event.writeError ? errnoException(event.errno, event.writeError, "write") : undefined);
  } else if (event.exit !== undefined || event.signal !== undefined) {
    onExit(entry.child, event.exit ?? null, event.signal !== undefined ? signalNames[event.signal] ?? null : null);
  }
}

/** @type {any} */
const ChildProcess = function ChildProcess() {
  FunctionPrototypeCall(EventEmitter, this);
  this._closesNeeded = 1;
  this._closesGot = 0;
  this.connected = false;
  this.signalCode = null;
  this.exitCode = null;
  this.killed = false;
  this.spawnfile = null;
  this._handle = null;
};
ObjectSetPrototypeOf(ChildProcess.prototype, EventEmitter.prototype);
ObjectSetPrototypeOf(ChildProcess, EventEmitter);

function outputStream(entry, fd) {
  return new Readable({
    read() {
      if (entry.native !== undefined) entry.native(0, fd);
    },
    destroy(error, callback) {
      if (entry.native !== undefined) entry.native(5, fd);
      callback(error);
    },
  });
}

function inputStream(entry) {
  return new Writable({
    write(chunk, encoding, callback) {
      const [buffer, offset, length] = rangeOf(chunk);
      entry.writeCallback = callback;
      const failure = entry.native === undefined ? "EPIPE" : entry.native(1, buffer, offset, length);
      if (failure !== undefined) {
        entry.writeCallback = null;
        callback(errnoException(-errnoNumbers[failure], failure, "write"));
      }
    },
    final(callback) {
      if (entry.native !== undefined) entry.native(2);
      callback();
    },
    destroy(error, callback) {
      if (entry.native !== undefined) entry.native(5, 0);
      callback(error);
    },
  });
}

ChildProcess.prototype.spawn = function (options) {
  validateObject(options, "options");
  const stdio = validStdio(options.stdio || "pipe", false);
  if (typeof options.file !== "string") throw invalidArgType("options.file", "string", options.file);
  this.spawnfile = options.file;
  if (options.args === undefined) {
    this.spawnargs = [];
  } else {
    if (!ArrayIsArray(options.args)) throw invalidArgType("options.args", "Array", options.args);
    this.spawnargs = options.args;
  }
  const id = nextID++;
  const [native, pidOrCode, errno] = childSpawn(id, JSONStringify({
    file: options.file, args: this.spawnargs, envPairs: options.envPairs ?? [], cwd: options.cwd ?? undefined,
    stdio, detached: !!options.detached,
  }));
  const entry = { id, child: this, native, stdout: null, stderr: null, writeCallback: null };
  ObjectDefineProperty(this, kEntry, { value: entry, enumerable: false });
  if (native === undefined) {
    const code = pidOrCode;
    if (code !== "EACCES" && code !== "EAGAIN" && code !== "EMFILE" && code !== "ENFILE" && code !== "ENOENT") {
      throw errnoException(errno, code, "spawn");
    }
    // The program could not start: 'error', then 'close' (-errno) once the streams closed, as Node's.
    nextTick(() => onExit(this, errno, null));
  } else {
    if (!listening) {
      listening = true;
      internal.onNativeEvent("", "child", onChildEvent);
    }
    running.set(id, entry);
    this._handle = entry;
    nextTick(() => this.emit("spawn"));
  }
  this.pid = native === undefined ? undefined : pidOrCode;
  const streams = [null, null, null];
  for (let i = 0; i < 3; i++) {
    if (stdio[i] !== "pipe") continue;
    if (i === 0) {
      streams[0] = inputStream(entry);
      if (native === undefined) streams[0].destroy();
      continue;
    }
    const stream = outputStream(entry, i);
    streams[i] = stream;
    if (i === 1) entry.stdout = stream;
    else entry.stderr = stream;
    if (native === undefined) {
      stream.push(null);
    } else {
      // As a socket does: start reading at once, up to the high-water mark.
      stream.read(0);
    }
    this._closesNeeded++;
    stream.on("close", () => maybeClose(this));
  }
  this.stdin = streams[0];
  this.stdout = streams[1];
  this.stderr = streams[2];
  this.stdio = streams;
  return native === undefined ? -errno : 0;
};

function onExit(child, exitCode, signalCode) {
  if (signalCode) child.signalCode = signalCode;
  else child.exitCode = exitCode;
  if (child.stdin) child.stdin.destroy();
  child._handle = null;
  if (exitCode < 0) {
    const syscall = child.spawnfile ? `spawn ${child.spawnfile}` : "spawn";
    const error = errnoException(exitCode, codeOf(exitCode), syscall);
    if (child.spawnfile) error.path = child.spawnfile;
    error.spawnargs = ArrayPrototypeSlice(child.spawnargs, 1);
    child.emit("error", error);
  } else {
    child.emit("exit", child.exitCode, child.signalCode);
  }
  // Streams nobody read are drained, so that they end and 'close' comes.
  nextTick(() => {
    for (const stream of child.stdio ?? []) {
      if (!stream || !stream.readable || stream.readableFlowing !== null || stream.listenerCount("readable") > 0) {
        continue;
      }
      stream.resume();
    }
  });
  maybeClose(child);
}

function codeOf(errno) {
  for (const name of ObjectKeys(errnoNumbers)) if (errnoNumbers[name] === -errno) return name;
  return `E${-errno}`;
}

function maybeClose(child) {
  child._closesGot++;
  if (child._closesGot !== child._closesNeeded) return;
  const entry = child[kEntry];
  if (entry !== undefined && entry.native !== undefined) {
    running.delete(entry.id);
    entry.native(6);
    entry.native = undefined;
  }
  child.emit("close", child.exitCode, child.signalCode);
}

ChildProcess.prototype.kill = function (sig) {
  const signal = sig === 0 ? sig : toSignal(sig === undefined ? "SIGTERM" : sig);
  const entry = this._handle;
  if (entry && entry.native !== undefined) {
    const error = entry.native(3, signal);
    if (error === 0) {
      this.killed = true;
      return true;
    }
    const code = codeOf(-error);
    if (code === "EINVAL" || code === "ENOSYS") throw errnoException(-error, code, "kill");
    if (code !== "ESRCH") this.emit("error", errnoException(-error, code, "kill"));
  }
  return false;
};

ChildProcess.prototype.ref = function () {
  if (this._handle && this._handle.native !== undefined) this._handle.native(4, true);
};

ChildProcess.prototype.unref = function () {
  if (this._handle && this._handle.native !== undefined) this._handle.native(4, false);
};

for (const name of ["send", "disconnect"]) {
  ChildProcess.prototype[name] = function () {
    throw make(Error, "ERR_IPC_CHANNEL_CLOSED", "Channel closed");
  };
}

// MARK: - spawn, exec, execFile

function spawn(file, args, options) {
  options = normalizeSpawnArguments(file, args, options);
  validateTimeout(options.timeout);
  const signal = options.signal;
  if (signal !== undefined && (signal === null || typeof signal !== "object" || !("aborted" in signal))) {
    throw invalidArgType("options.signal", "AbortSignal", signal);
  }
  const killSignal = sanitizeKillSignal(options.killSignal);
  const child = new ChildProcess();
  child.spawn(options);
  if (options.timeout > 0) {
    let timer = setTimeout(() => {
      if (!timer) return;
      try {
        child.kill(killSignal);
      } catch (error) {
        child.emit("error", error);
      }
      timer = null;
    }, options.timeout);
    child.once("exit", () => {
      if (timer) clearTimeout(timer);
      timer = null;
    });
  }
  if (signal !== undefined) {
    const onAbort = () => {
      try {
        if (child.kill(killSignal)) child.emit("error", internal.nodeAbortError(signal));
      } catch (error) {
        child.emit("error", error);
      }
    };
    if (signal.aborted) {
      nextTick(onAbort);
    } else {
      signal.addEventListener("abort", onAbort, { once: true });
      child.once("exit", () => signal.removeEventListener("abort", onAbort));
    }
  }
  return child;
}

function normalizeExecFileArgs(file, args, options, callback) {
  if (ArrayIsArray(args)) {
    args = ArrayPrototypeSlice(args);
  } else if (args !== null && args !== undefined && typeof args === "object") {
    callback = options;
    options = args;
    args = null;
  } else if (typeof args === "function") {
    callback = args;
    options = null;
    args = null;
  }
  if (args === null || args === undefined) args = [];
  if (typeof options === "function") callback = options;
  else if (options !== null && options !== undefined) validateObject(options, "options");
  if (options === null || options === undefined || typeof options === "function") options = {};
  if (callback !== null && callback !== undefined) checkFunction(callback, "callback");
  if (options.argv0 !== null && options.argv0 !== undefined) {
    if (typeof options.argv0 !== "string") throw invalidArgType("options.argv0", "string", options.argv0);
    checkNoNull(options.argv0, "options.argv0");
  }
  return { file, args, options, callback };
}

function normalizeExecArgs(command, options, callback) {
  if (typeof command !== "string") throw invalidArgType("command", "string", command);
  checkNoNull(command, "command");
  if (typeof options === "function") {
    callback = options;
    options = undefined;
  }
  options = { ...options };
  options.shell = typeof options.shell === "string" ? options.shell : true;
  return { file: command, options, callback };
}

function maxBufferExceeded(name) {
  return make(RangeError, "ERR_CHILD_PROCESS_STDIO_MAXBUFFER", `${name} maxBuffer length exceeded`);
}

function execFile(file, args, options, callback) {
  ({ file, args, options, callback } = normalizeExecFileArgs(file, args, options, callback));
  options = {
    encoding: "utf8", timeout: 0, maxBuffer: maxBufferDefault, killSignal: "SIGTERM", cwd: null, env: null,
    shell: false, ...options,
  };
  validateTimeout(options.timeout);
  validateMaxBuffer(options.maxBuffer);
  options.killSignal = sanitizeKillSignal(options.killSignal);
  const child = spawn(file, args, {
    cwd: options.cwd, env: options.env, shell: options.shell, signal: options.signal, argv0: options.argv0,
  });
  const encoding = options.encoding !== "buffer" && Buffer.isEncoding(options.encoding) ? options.encoding : null;
  const stdout = [], stderr = [];
  const lengths = { stdout: 0, stderr: 0 };
  let killed = false, exited = false, timer = null, failure = null;
  let command = file;
  const exitHandler = (code, signal) => {
    if (exited) return;
    exited = true;
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (!callback) return;
    const join = (chunks, stream) =>
      encoding || stream?.readableEncoding ? ArrayPrototypeJoin(chunks, "") : Buffer.concat(chunks);
    const out = join(stdout, child.stdout), err = join(stderr, child.stderr);
    if (!failure && code === 0 && signal === null) {
      callback(null, out, err);
      return;
    }
    if (args.length > 0) command += ` ${ArrayPrototypeJoin(args, " ")}`;
    if (!failure) {
      failure = genericError(`Command failed: ${command}\n${err}`, {
        code: code < 0 ? codeOf(code) : code, killed: child.killed || killed, signal,
      });
    }
    failure.cmd = command;
    callback(failure, out, err);
  };
  const kill = () => {
    if (child.stdout) child.stdout.destroy();
    if (child.stderr) child.stderr.destroy();
    killed = true;
    try {
      child.kill(options.killSignal);
    } catch (error) {
      failure = error;
      exitHandler();
    }
  };
  if (options.timeout > 0) {
    timer = setTimeout(() => {
      kill();
      timer = null;
    }, options.timeout);
  }
  for (const [name, stream, chunks] of [["stdout", child.stdout, stdout], ["stderr", child.stderr, stderr]]) {
    if (!stream) continue;
    if (encoding) stream.setEncoding(encoding);
    stream.on("data", (chunk) => {
      if (options.maxBuffer === Infinity) {
        ArrayPrototypePush(chunks, chunk);
        return;
      }
      const streamEncoding = stream.readableEncoding;
      const length = streamEncoding ? Buffer.byteLength(chunk, streamEncoding) : chunk.length;
      lengths[name] += length;
      if (lengths[name] > options.maxBuffer) {
        const kept = options.maxBuffer - (lengths[name] - length);
        ArrayPrototypePush(chunks, MethodSlice(chunk, 0, kept));
        failure = maxBufferExceeded(name);
        kill();
      } else {
        ArrayPrototypePush(chunks, chunk);
      }
    });
  }
  child.addListener("close", exitHandler);
  child.addListener("error", (error) => {
    failure = error;
    if (child.stdout) child.stdout.destroy();
    if (child.stderr) child.stderr.destroy();
    exitHandler();
  });
  return child;
}

function exec(command, options, callback) {
  const normalized = normalizeExecArgs(command, options, callback);
  return execFile(normalized.file, normalized.options, normalized.callback);
}

/// `util.promisify(exec)` and `(execFile)`: a promise of `{ stdout, stderr }` with the child as `.child`.
function promisifiedExec(original) {
  return (...args) => {
    let resolve, reject;
    const promise = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // @ts-ignore
    promise.child = original(...args, (error, stdout, stderr) => {
      if (error !== null) {
        error.stdout = stdout;
        error.stderr = stderr;
        reject(error);
      } else {
        resolve({ stdout, stderr });
      }
    });
    return promise;
  };
}
const promisifyCustom = SymbolFor("nodejs.util.promisify.custom");
ObjectDefineProperty(exec, promisifyCustom, { enumerable: false, value: promisifiedExec(exec) });
ObjectDefineProperty(execFile, promisifyCustom, { enumerable: false, value: promisifiedExec(execFile) });

// MARK: - The sync forms

function spawnSync(file, args, options) {
  options = { maxBuffer: maxBufferDefault, ...normalizeSpawnArguments(file, args, options) };
  validateTimeout(options.timeout);
  validateMaxBuffer(options.maxBuffer);
  const killSignal = sanitizeKillSignal(options.killSignal) ?? signals.SIGTERM;
  const stdio = validStdio(options.stdio || "pipe", true);
  let input = options.input;
  if (input === undefined && ArrayIsArray(options.stdio) && options.stdio[0] && options.stdio[0].input !== undefined) {
    input = options.stdio[0].input;
  }
  /** @type {[any, number, number]} */
  let range = [undefined, 0, 0];
  if (input !== null && input !== undefined) {
    if (typeof input === "string") input = Buffer.from(input, options.encoding);
    else if (!ArrayBufferIsView(input)) {
      throw invalidArgType("options.stdio[0]", ["Buffer", "TypedArray", "DataView", "string"], input);
    }
    range = rangeOf(input);
  }
  const [pid, status, signal, stdout, stderr, code, errno] = childSpawnSync(JSONStringify({
    file: options.file, args: options.args, envPairs: options.envPairs, cwd: options.cwd ?? undefined, stdio,
    detached: options.detached,
  }), range[0], range[1], range[2], options.timeout ?? 0, options.maxBuffer ?? maxBufferDefault, killSignal);
  const result = {};
  if (code !== null) {
    const error = errnoException(errno, code, `spawnSync ${options.file}`);
    error.path = options.file;
    error.spawnargs = ArrayPrototypeSlice(options.args, 1);
    result.error = error;
  }
  result.status = status;
  result.signal = signal === null ? null : signalNames[signal] ?? null;
  const started = !(code !== null && pid === 0);
  let output = started ? [null, stdout && Buffer.from(stdout), stderr && Buffer.from(stderr)] : null;
  if (output && options.encoding && options.encoding !== "buffer") {
    output = [null, output[1] && output[1].toString(options.encoding), output[2] && output[2].toString(options.encoding)];
  }
  result.output = output;
  result.pid = pid;
  result.stdout = output && output[1];
  result.stderr = output && output[2];
  return result;
}

function checkExecSyncError(result, args, command) {
  if (result.error) return ObjectAssign(result.error, result);
  if (result.status === 0) return undefined;
  let message = `Command failed: ${command || ArrayPrototypeJoin(args, " ")}`;
  if (result.stderr && result.stderr.length > 0) message += `\n${result.stderr.toString()}`;
  return genericError(message, result);
}

function execSync(command, options) {
  const normalized = normalizeExecArgs(command, options, null);
  const inheritStderr = !normalized.options.stdio;
  const result = spawnSync(normalized.file, normalized.options);
  if (inheritStderr && result.stderr) process.stderr.write(result.stderr);
  const error = checkExecSyncError(result, undefined, command);
  if (error) throw error;
  return result.stdout;
}

function execFileSync(file, args, options) {
  ({ file, args, options } = normalizeExecFileArgs(file, args, options));
  const inheritStderr = !options.stdio;
  const result = spawnSync(file, args, options);
  if (inheritStderr && result.stderr) process.stderr.write(result.stderr);
  const error = checkExecSyncError(result, [options.argv0 || file, ...args]);
  if (error) throw error;
  return result.stdout;
}

function fork() {
  throw make(Error, "ERR_NOT_IMPLEMENTED", "child_process.fork is not implemented in jsbridge.");
}

internal.nodeExport("child_process", {
  _forkChild: fork, ChildProcess, exec, execFile, execFileSync, execSync, fork, spawn, spawnSync,
});
