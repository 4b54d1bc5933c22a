// filesystem.js - the `FileSystem` global: files and directories for scripts granted --allow-read and
// --allow-write (docs/running-scripts.md, "Files and capabilities"). Deno-like names; every method returns
// a promise, and the `...Sync` ones answer at once. Errors are BridgeErrors with Node's codes (ENOENT, EEXIST,
// ...) and `errno`, `syscall`, `path`; a path not granted is PERMISSION_DENIED naming the flag to use.

const fs = plugin.shared.fs;
const {
  MethodMap, ObjectFreeze, PromisePrototypeThen,
} = runtime.primordials;
const { call, callSync, toPath } = fs;

/// What `stat` answers: Deno's FileInfo fields.
function fileInfo(stats) {
  const s = new fs.Stats(stats);
  return ObjectFreeze({
    isFile: s.isFile(), isDirectory: s.isDirectory(), isSymlink: s.isSymbolicLink(), size: s.size,
    mtime: s.mtime, atime: s.atime, birthtime: s.birthtime, ctime: s.ctime, mode: s.mode & 0o7777, dev: s.dev,
    ino: s.ino, nlink: s.nlink, uid: s.uid, gid: s.gid, blksize: s.blksize, blocks: s.blocks,
  });
}

function dirEntries(list) {
  return MethodMap(list, ([name, type]) => ObjectFreeze({
    name, isFile: type === "file", isDirectory: type === "directory", isSymlink: type === "symlink",
  }));
}

/// `{append, createNew, mode}` as a write flag.
function writeOptions({ append = false, createNew = false, mode } = {}) {
  return { flag: (append ? "a" : "w") + (createNew ? "x" : ""), mode };
}

/// An open file: `read(length)` gives bytes (null at the end), `write(data)` the count written.
class FsFile {
  #fd;
  constructor(fd) { this.#fd = fd; }
  get rid() { return this.#fd; }
  async read(length = 65536, position) {
    const bytes = await fs.readBytes(this.#fd, length, position, false);
    return bytes.length === 0 && length > 0 ? null : bytes;
  }
  write(data, position) { return fs.writeBytes(this.#fd, data, "utf8", position, false); }
  async stat() { return fileInfo(await call("fstat", { fd: this.#fd })); }
  truncate(length = 0) { return PromisePrototypeThen(call("ftruncate", { fd: this.#fd, length }), () => undefined); }
  close() { return PromisePrototypeThen(call("close", { fd: this.#fd }), () => undefined); }
  [Symbol.asyncDispose]() { return this.close(); }
}

/// `{read, write, append, create, truncate, createNew}` (Deno's open options) as Node's flags.
function openFlags({ read = true, write = false, append = false, truncate = false, create = false,
  createNew = false } = {}) {
  if (append) return createNew ? "ax+" : (read ? "a+" : "a");
  if (!write) return "r";
  if (createNew) return "wx+";
  if (truncate || create) return read ? "w+" : "w";
  return "r+";
}

const unit = () => undefined;

const FileSystem = ObjectFreeze({
  readFile: (path) => fs.readFile(path, null),
  readTextFile: (path) => fs.readFile(path, "utf8"),
  writeFile: (path, data, options) => fs.writeFile(path, data, writeOptions(options)),
  writeTextFile: (path, text, options) => fs.writeFile(path, `${text}`, writeOptions(options)),
  readDir: (path) => PromisePrototypeThen(call("readdir", { path: toPath(path) }), dirEntries),
  stat: (path) => PromisePrototypeThen(call("stat", { path: toPath(path) }), fileInfo),
  lstat: (path) => PromisePrototypeThen(call("lstat", { path: toPath(path) }), fileInfo),
  exists: (path) => call("exists", { path: toPath(path) }),
  mkdir: (path, { recursive = false, mode } = {}) =>
    PromisePrototypeThen(call("mkdir", { path: toPath(path), recursive, mode }), unit),
  remove: (path, { recursive = false } = {}) => {
    const target = toPath(path);
    // Without `recursive`, an empty directory goes too (as Deno's remove), a full one is ENOTEMPTY.
    return PromisePrototypeThen(call("rm", { path: target, recursive }), unit, (error) => {
      if (error.code !== "EISDIR" || recursive) throw error;
      return PromisePrototypeThen(call("rmdir", { path: target }), unit);
    });
  },
  rename: (from, to) => PromisePrototypeThen(call("rename", { from: toPath(from), to: toPath(to) }), unit),
  copyFile: (from, to) => PromisePrototypeThen(call("copyFile", { from: toPath(from), to: toPath(to) }), unit),
  realPath: (path) => call("realpath", { path: toPath(path) }),
  symlink: (target, path) => PromisePrototypeThen(call("symlink", { target: toPath(target), path: toPath(path) }), unit),
  readLink: (path) => call("readlink", { path: toPath(path) }),
  chmod: (path, mode) => PromisePrototypeThen(call("chmod", { path: toPath(path), mode }), unit),
  truncate: (path, length = 0) => PromisePrototypeThen(call("truncate", { path: toPath(path), length }), unit),
  open: (path, options) =>
    PromisePrototypeThen(call("open", { path: toPath(path), flags: openFlags(options), mode: options?.mode }), (fd) => new FsFile(fd)),

  readFileSync: (path) => fs.readFileSync(path, null),
  readTextFileSync: (path) => fs.readFileSync(path, "utf8"),
  writeFileSync: (path, data, options) => fs.writeFileSync(path, data, writeOptions(options)),
  writeTextFileSync: (path, text, options) => fs.writeFileSync(path, `${text}`, writeOptions(options)),
  readDirSync: (path) => dirEntries(callSync("readdir", { path: toPath(path) })),
  statSync: (path) => fileInfo(callSync("stat", { path: toPath(path) })),
  lstatSync: (path) => fileInfo(callSync("lstat", { path: toPath(path) })),
  existsSync: (path) => callSync("exists", { path: toPath(path) }),
  mkdirSync: (path, { recursive = false, mode } = {}) => { callSync("mkdir", { path: toPath(path), recursive, mode }); },
  removeSync: (path, { recursive = false } = {}) => {
    const target = toPath(path);
    try {
      callSync("rm", { path: target, recursive });
    } catch (error) {
      if (error.code !== "EISDIR" || recursive) throw error;
      callSync("rmdir", { path: target });
    }
  },
  renameSync: (from, to) => { callSync("rename", { from: toPath(from), to: toPath(to) }); },
  realPathSync: (path) => callSync("realpath", { path: toPath(path) }),
});

runtime.defineGlobal("FileSystem", FileSystem);
