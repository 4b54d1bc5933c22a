// node-fs.js - the `node:fs` module: the sync calls (through the plugin's sync actions), the callback forms
// (over the promise API), `fs.promises`, streams and constants. A thin layer over the FileSystem plugin.

const fs = plugin.shared.fs;
const {
  ArrayPrototypePop, ArrayPrototypePush, PromisePrototypeThen, Uint8Array,
} = runtime.primordials;
const { promises, exported, options, flagString, fileMode, constants } = plugin.shared.fsPromises;
const { callSync, toPath } = fs;

/// The callback form of promise function `fn`: the last argument is `(error, value)`.
function callbackified(fn, name) {
  return function (...args) {
    const callback = ArrayPrototypePop(args);
    if (typeof callback !== "function") throw fs.invalidArgType("cb", "of type function", callback);
    PromisePrototypeThen(fn(...args), (value) => callback(null, value), (error) => callback(error));
  };
}

const sync = {
  readFileSync(path, opts) {
    const { encoding, flag } = options(opts);
    if (typeof path === "number") return readAllSync(path, encoding);
    if (flag !== undefined && flag !== "r") throw fs.invalidArgType("flag", "'r'", flag);
    return fs.readFileSync(path, encoding ?? null, true);
  },
  writeFileSync(path, data, opts) {
    if (typeof path === "number") return void writeSync(path, data, undefined, options(opts).encoding);
    fs.writeFileSync(path, data, options(opts, { flag: "w" }));
  },
  appendFileSync(path, data, opts) { fs.writeFileSync(path, data, options(opts, { flag: "a" })); },
  existsSync(path) {
    try {
      return callSync("exists", { path: toPath(path) });
    } catch (error) {
      if (error.code === "PERMISSION_DENIED") throw error;
      return false;
    }
  },
  readdirSync(path, opts) {
    const { withFileTypes = false } = options(opts);
    const dir = toPath(path);
    return fs.entries(callSync("readdir", { path: dir }), dir, withFileTypes);
  },
  statSync(path, opts) {
    try {
      return new fs.Stats(callSync("stat", { path: toPath(path) }));
    } catch (error) {
      if (opts?.throwIfNoEntry === false && error.code === "ENOENT") return undefined;
      throw error;
    }
  },
  lstatSync(path, opts) {
    try {
      return new fs.Stats(callSync("lstat", { path: toPath(path) }));
    } catch (error) {
      if (opts?.throwIfNoEntry === false && error.code === "ENOENT") return undefined;
      throw error;
    }
  },
  fstatSync: (fd) => new fs.Stats(callSync("fstat", { fd })),
  mkdirSync(path, opts) {
    const { recursive = false, mode } = typeof opts === "number" ? { mode: opts } : options(opts);
    return callSync("mkdir", { path: toPath(path), recursive, mode: fileMode(mode) }) ?? undefined;
  },
  rmSync(path, opts) {
    const { recursive = false, force = false } = options(opts);
    callSync("rm", { path: toPath(path), recursive, force });
  },
  rmdirSync(path) { callSync("rmdir", { path: toPath(path) }); },
  unlinkSync(path) { callSync("unlink", { path: toPath(path) }); },
  renameSync(from, to) { callSync("rename", { from: toPath(from, "oldPath"), to: toPath(to, "newPath") }); },
  copyFileSync(from, to, mode = 0) {
    callSync("copyFile", { from: toPath(from, "src"), to: toPath(to, "dest"), exclusive: (mode & 1) !== 0 });
  },
  accessSync(path, mode = 0) { callSync("access", { path: toPath(path), mode }); },
  realpathSync(path) { return callSync("realpath", { path: toPath(path) }); },
  symlinkSync(target, path) { callSync("symlink", { target: toPath(target, "target"), path: toPath(path) }); },
  readlinkSync(path) { return callSync("readlink", { path: toPath(path) }); },
  chmodSync(path, mode) {
    callSync("chmod", { path: toPath(path), mode: fileMode(mode) });
  },
  truncateSync(path, length = 0) { callSync("truncate", { path: toPath(path), length }); },
  openSync(path, flags, mode) {
    return callSync("open", { path: toPath(path), flags: flagString(flags), mode: fileMode(mode) });
  },
  closeSync(fd) { callSync("close", { fd }); },
  ftruncateSync(fd, length = 0) { callSync("ftruncate", { fd, length }); },
  readSync,
  writeSync,
};
sync.realpathSync.native = sync.realpathSync;

/// `readSync(fd, buffer, offset?, length?, position?)` or `readSync(fd, buffer, {offset, length, position})`.
function readSync(fd, buffer, offset, length, position) {
  if (offset !== null && typeof offset === "object") ({ offset, length, position } = offset);
  const target = fs.bytesOf(buffer);
  offset ??= 0;
  length ??= target.length - offset;
  const bytes = fs.readBytes(fd, length, position, true);
  target.set(bytes, offset);
  return bytes.length;
}

/// `writeSync(fd, buffer, offset?, length?, position?)` or `writeSync(fd, string, position?, encoding?)`.
function writeSync(fd, data, offset, length, position) {
  if (typeof data === "string") return fs.writeBytes(fd, data, length, offset, true);
  const bytes = fs.bytesOf(data);
  const start = offset ?? 0;
  const slice = bytes.subarray(start, length === undefined || length === null ? bytes.length : start + length);
  return fs.writeBytes(fd, slice, null, position, true);
}

/// The rest of an open file, from its position.
function readAllSync(fd, encoding) {
  const chunks = [];
  let total = 0;
  while (true) {
    const bytes = fs.readBytes(fd, 1 << 20, null, true);
    if (bytes.length === 0) break;
    ArrayPrototypePush(chunks, bytes);
    total += bytes.length;
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) { all.set(chunk, at); at += chunk.length; }
  const enc = fs.checkEncoding(encoding);
  return enc === null ? fs.asBuffer(all) : fs.encodeBytes(all, enc);
}

const callbacks = {};
for (const name of ["readFile", "writeFile", "appendFile", "readdir", "stat", "lstat", "mkdir", "mkdtemp", "rm",
  "rmdir", "unlink", "rename", "copyFile", "access", "realpath", "symlink", "readlink", "chmod", "truncate"]) {
  callbacks[name] = callbackified(promises[name], name);
}
callbacks.open = callbackified((path, flags, mode) => PromisePrototypeThen(promises.open(path, flags, mode), (handle) => handle.fd));
callbacks.close = callbackified((fd) => PromisePrototypeThen(fs.call("close", { fd }), () => undefined));
callbacks.fstat = callbackified((fd) => PromisePrototypeThen(fs.call("fstat", { fd }), (s) => new fs.Stats(s)));
callbacks.read = function (fd, buffer, offset, length, position, callback) {
  if (typeof offset === "function") [callback, offset] = [offset, undefined];
  if (offset !== null && typeof offset === "object") ({ offset, length, position } = offset);
  const target = fs.bytesOf(buffer);
  offset ??= 0;
  length ??= target.length - offset;
  PromisePrototypeThen(fs.readBytes(fd, length, position, false), (bytes) => {
    target.set(bytes, offset);
    callback(null, bytes.length, buffer);
  }, (error) => callback(error));
};
callbacks.write = function (fd, data, ...rest) {
  const callback = ArrayPrototypePop(rest);
  let written;
  if (typeof data === "string") {
    const [position, encoding] = rest;
    written = fs.writeBytes(fd, data, encoding, position, false);
  } else {
    const [offset = 0, length, position] = rest;
    const bytes = fs.bytesOf(data);
    written = fs.writeBytes(fd, bytes.subarray(offset, length === undefined ? bytes.length : offset + length), null,
      position, false);
  }
  PromisePrototypeThen(written, (count) => callback(null, count, data), (error) => callback(error));
};
/// The deprecated `exists(path, callback)`: the callback gets only a boolean.
callbacks.exists = function (path, callback) {
  PromisePrototypeThen(fs.call("exists", { path: toPath(path) }), (value) => callback(value), () => callback(false));
};

const nodeFs = {
  ...callbacks,
  ...sync,
  promises: exported,
  constants,
  ...constants,
  Stats: fs.Stats,
  Dirent: fs.Dirent,
  ReadStream: fs.ReadStream,
  WriteStream: fs.WriteStream,
  createReadStream: (path, opts) => new fs.ReadStream(path, options(opts), true),
  createWriteStream: (path, opts) => new fs.WriteStream(path, options(opts)),
};
nodeFs.default = nodeFs;
// Mutable, as Node's (bluebird's promisifyAll and graceful-fs patch it); this file's own calls do not go
// through it.
return nodeFs;
