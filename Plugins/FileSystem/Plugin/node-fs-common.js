// node-fs-common.js - the promise API of `node:fs/promises` (and `fs.promises`) over the FileSystem plugin's
// actions, shared by both node modules (`plugin.shared.fsPromises`): a thin layer giving argument shapes as
// Node takes them, Buffers when the runtime has them, errors with Node's fields.

const fs = plugin.shared.fs;
const {
  ArrayPrototypePush, MathFloor, NumberIsInteger, ObjectFreeze, PromisePrototypeThen, PromiseReject, RangeError,
  RegExpPrototypeTest, Uint8Array,
} = runtime.primordials;
const { call, toPath, checkEncoding } = fs;

const constants = ObjectFreeze({
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, COPYFILE_EXCL: 1, COPYFILE_FICLONE: 2, COPYFILE_FICLONE_FORCE: 4,
  O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 0o100, O_EXCL: 0o200, O_TRUNC: 0o1000, O_APPEND: 0o2000,
  S_IFMT: 0o170000, S_IFREG: 0o100000, S_IFDIR: 0o040000, S_IFLNK: 0o120000,
});

/// `options` as Node takes them: a string is the encoding.
function options(value, defaults = {}) {
  if (value === undefined || value === null) return { ...defaults };
  if (typeof value === "string") return { ...defaults, encoding: value };
  if (typeof value !== "object") throw fs.invalidArgType("options", "of type string or an instance of Object", value);
  return { ...defaults, ...value };
}

/// Runs `body`, turning a synchronous throw (a bad argument) into a rejection, as Node's promises do.
function attempt(body) {
  try {
    return body();
  } catch (error) {
    return PromiseReject(error);
  }
}

const unit = () => undefined;

/// A file mode as Node takes it (an unsigned 32-bit integer or an octal string), as the permission bits the
/// plugin takes: Node hands the whole number to the system, which ignores the rest (fs-extra's copy passes a
/// `stat().mode` with its file-type bits).
function fileMode(value, name = "mode") {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") {
    if (!RegExpPrototypeTest(/^[0-7]+$/, value)) {
      const error = new TypeError(
        `The argument '${name}' must be a 32-bit unsigned integer or an octal string. Received '${value}'`);
      error.code = "ERR_INVALID_ARG_VALUE";
      throw error;
    }
    value = parseInt(value, 8);
  }
  if (typeof value !== "number") throw fs.invalidArgType(name, "of type number", value);
  if (!NumberIsInteger(value) || value < 0 || value > 0xffffffff) {
    const error = new RangeError(
      `The value of "${name}" is out of range. It must be >= 0 && <= 4294967295. Received ${value}`);
    error.code = "ERR_OUT_OF_RANGE";
    throw error;
  }
  return value & 0o7777;
}

/// Node's flags for `open` from a string or the O_* numbers.
function flagString(flags) {
  if (flags === undefined || flags === null) return "r";
  if (typeof flags === "string") return flags;
  const access = flags & 3, create = flags & 0o100, excl = flags & 0o200, append = flags & 0o2000;
  const plus = access === 2 ? "+" : "";
  if (access === 0) return "r";
  if (append) return "a" + (excl ? "x" : "") + plus;
  if (create) return "w" + (excl ? "x" : "") + plus;
  return "r+";
}

/// `fs.promises.open`'s FileHandle.
class FileHandle {
  #fd;
  #position = null;
  constructor(fd) { this.#fd = fd; }
  get fd() { return this.#fd; }

  /// `read(buffer, offset?, length?, position?)` or `read({buffer, offset, length, position})`.
  async read(buffer, offset, length, position) {
    if (buffer !== null && typeof buffer === "object" && !ArrayBuffer.isView(buffer)) {
      ({ buffer, offset, length, position } = buffer);
    }
    buffer ??= new Uint8Array(16384);
    const target = fs.bytesOf(buffer);
    offset ??= 0;
    length ??= target.length - offset;
    const bytes = await fs.readBytes(this.#fd, length, position, false);
    target.set(bytes, offset);
    return { bytesRead: bytes.length, buffer };
  }

  /// `write(buffer, offset?, length?, position?)` or `write(string, position?, encoding?)`.
  async write(data, offset, length, position) {
    if (typeof data === "string") {
      const bytesWritten = await fs.writeBytes(this.#fd, data, length, offset, false);
      return { bytesWritten, buffer: data };
    }
    const bytes = fs.bytesOf(data);
    const start = offset ?? 0;
    const slice = bytes.subarray(start, length === undefined || length === null ? bytes.length : start + length);
    const bytesWritten = await fs.writeBytes(this.#fd, slice, null, position, false);
    return { bytesWritten, buffer: data };
  }

  async readFile(opts) {
    const { encoding } = options(opts);
    const chunks = [];
    let total = 0;
    while (true) {
      const bytes = await fs.readBytes(this.#fd, 1 << 20, null, false);
      if (bytes.length === 0) break;
      ArrayPrototypePush(chunks, bytes);
      total += bytes.length;
    }
    const all = new Uint8Array(total);
    let at = 0;
    for (const chunk of chunks) { all.set(chunk, at); at += chunk.length; }
    const enc = checkEncoding(encoding);
    return enc === null ? fs.asBuffer(all) : fs.encodeBytes(all, enc);
  }

  writeFile(data, opts) {
    const { encoding } = options(opts);
    return PromisePrototypeThen(fs.writeBytes(this.#fd, data, encoding, null, false), unit);
  }
  appendFile(data, opts) { return this.writeFile(data, opts); }
  stat() { return PromisePrototypeThen(call("fstat", { fd: this.#fd }), (stats) => new fs.Stats(stats)); }
  truncate(length = 0) { return PromisePrototypeThen(call("ftruncate", { fd: this.#fd, length }), unit); }
  close() { return PromisePrototypeThen(call("close", { fd: this.#fd }), unit); }
  createReadStream(opts) { return new fs.ReadStream(null, { ...options(opts), fd: this.#fd }, true); }
  createWriteStream(opts) { return new fs.WriteStream(null, { ...options(opts), fd: this.#fd }); }
  [Symbol.asyncDispose]() { return this.close(); }
}

const promises = {
  constants,
  readFile: (path, opts) => attempt(() => {
    const { encoding, flag } = options(opts);
    if (flag !== undefined && flag !== "r") throw fs.invalidArgType("flag", "'r'", flag);
    return fs.readFile(path, encoding ?? null, true);
  }),
  writeFile: (path, data, opts) => fs.writeFile(path, data, options(opts, { flag: "w" })),
  appendFile: (path, data, opts) => fs.writeFile(path, data, options(opts, { flag: "a" })),
  readdir: (path, opts) => attempt(() => {
    const { withFileTypes = false } = options(opts);
    const dir = toPath(path);
    return PromisePrototypeThen(call("readdir", { path: dir }), (list) => fs.entries(list, dir, withFileTypes));
  }),
  stat: (path) => attempt(() => PromisePrototypeThen(call("stat", { path: toPath(path) }), (s) => new fs.Stats(s))),
  lstat: (path) => attempt(() => PromisePrototypeThen(call("lstat", { path: toPath(path) }), (s) => new fs.Stats(s))),
  mkdir: (path, opts) => attempt(() => {
    const { recursive = false, mode } = typeof opts === "number" ? { mode: opts } : options(opts);
    return PromisePrototypeThen(call("mkdir", { path: toPath(path), recursive, mode: fileMode(mode) }), (first) => first ?? undefined);
  }),
  mkdtemp: (prefix) => attempt(() => {
    const base = toPath(prefix, "prefix");
    const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    const tryOnce = (left) => {
      let name = base;
      for (let i = 0; i < 6; i++) name += letters[MathFloor(Math.random() * letters.length)];
      return PromisePrototypeThen(call("mkdir", { path: name, mode: 0o700 }), () => name, (error) => {
        if (error.code === "EEXIST" && left > 0) return tryOnce(left - 1);
        throw error;
      });
    };
    return tryOnce(100);
  }),
  rm: (path, opts) => attempt(() => {
    const { recursive = false, force = false } = options(opts);
    return PromisePrototypeThen(call("rm", { path: toPath(path), recursive, force }), unit);
  }),
  rmdir: (path) => attempt(() => PromisePrototypeThen(call("rmdir", { path: toPath(path) }), unit)),
  unlink: (path) => attempt(() => PromisePrototypeThen(call("unlink", { path: toPath(path) }), unit)),
  rename: (from, to) => attempt(() => PromisePrototypeThen(call("rename", { from: toPath(from, "oldPath"), to: toPath(to, "newPath") }), unit)),
  copyFile: (from, to, mode = 0) => attempt(() =>
    PromisePrototypeThen(call("copyFile", { from: toPath(from, "src"), to: toPath(to, "dest"), exclusive: (mode & 1) !== 0 }), unit)),
  access: (path, mode = 0) => attempt(() => PromisePrototypeThen(call("access", { path: toPath(path), mode }), unit)),
  realpath: (path) => attempt(() => call("realpath", { path: toPath(path) })),
  symlink: (target, path) => attempt(() =>
    PromisePrototypeThen(call("symlink", { target: toPath(target, "target"), path: toPath(path) }), unit)),
  readlink: (path) => attempt(() => call("readlink", { path: toPath(path) })),
  chmod: (path, mode) => attempt(() =>
    PromisePrototypeThen(call("chmod", { path: toPath(path), mode: fileMode(mode) }), unit)),
  truncate: (path, length = 0) => attempt(() => PromisePrototypeThen(call("truncate", { path: toPath(path), length }), unit)),
  open: (path, flags, mode) => attempt(() =>
    PromisePrototypeThen(call("open", { path: toPath(path), flags: flagString(flags), mode: fileMode(mode) }),
      (fd) => new FileHandle(fd))),
};
promises.default = promises;

// `exported` is the module object scripts get (`fs.promises`, `node:fs/promises`): mutable, as Node's, while the
// runtime's own code keeps calling the frozen `promises`.
plugin.shared.fsPromises = ObjectFreeze({
  promises: ObjectFreeze({ ...promises }), exported: promises, options, attempt, flagString, fileMode, constants, FileHandle,
});
