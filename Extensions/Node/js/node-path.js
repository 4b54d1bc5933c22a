// `node:path`: POSIX paths, as Node's `path.posix`, and `path.win32` in part (its separators, roots and
// component functions, which packages use to strip Windows roots from archive paths; `relative` is absent).

const {
  ArrayPrototypeJoin, ArrayPrototypePop, ArrayPrototypePush, MethodEndsWith, MethodSlice, ObjectFreeze,
  StringPrototypeCharCodeAt,
  StringPrototypeLastIndexOf, StringPrototypeSlice, StringPrototypeSplit,
} = internal.primordials;
const { checkString, invalidArgType } = internal.nodeErrors;

/// Resolves `.` and `..` segments; `absolute` keeps `..` from climbing above the root.
function normalizeSegments(path, absolute) {
  const out = [];
  for (const part of StringPrototypeSplit(path, "/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") ArrayPrototypePop(out);
      else if (!absolute) ArrayPrototypePush(out, "..");
    } else {
      ArrayPrototypePush(out, part);
    }
  }
  return ArrayPrototypeJoin(out, "/");
}

function normalize(path) {
  checkString(path, "path");
  if (path === "") return ".";
  const absolute = path[0] === "/";
  const trailing = path[path.length - 1] === "/";
  let result = normalizeSegments(path, absolute);
  if (result === "" && !absolute) result = ".";
  if (result !== "" && trailing) result += "/";
  return absolute ? "/" + result : result;
}

function resolve(...paths) {
  let resolved = "";
  let absolute = false;
  for (let i = paths.length - 1; i >= -1 && !absolute; i--) {
    const path = i >= 0 ? paths[i] : internal.cwd();
    checkString(path, `paths[${i}]`);
    if (path === "") continue;
    resolved = path + "/" + resolved;
    absolute = path[0] === "/";
  }
  resolved = normalizeSegments(resolved, absolute);
  return absolute ? "/" + resolved : resolved || ".";
}

function join(...paths) {
  let joined;
  for (const path of paths) {
    checkString(path, "path");
    if (path !== "") joined = joined === undefined ? path : joined + "/" + path;
  }
  return joined === undefined ? "." : normalize(joined);
}

function relative(from, to) {
  checkString(from, "from");
  checkString(to, "to");
  if (from === to) return "";
  from = resolve(from);
  to = resolve(to);
  if (from === to) return "";
  const fromParts = from === "/" ? [] : StringPrototypeSplit(StringPrototypeSlice(from, 1), "/");
  const toParts = to === "/" ? [] : StringPrototypeSplit(StringPrototypeSlice(to, 1), "/");
  let common = 0;
  while (common < fromParts.length && common < toParts.length && fromParts[common] === toParts[common]) common++;
  const up = [];
  for (let i = common; i < fromParts.length; i++) ArrayPrototypePush(up, "..");
  return ArrayPrototypeJoin([...up, ...MethodSlice(toParts, common)], "/");
}

/// The end of `path` without trailing slashes (0 when it is all slashes).
function trimmedEnd(path) {
  let end = path.length;
  while (end > 1 && path[end - 1] === "/") end--;
  return end;
}

function dirname(path) {
  checkString(path, "path");
  if (path === "") return ".";
  const hasRoot = path[0] === "/";
  // The last slash before the final segment (trailing slashes skipped); the slashes before it are kept.
  let end = -1;
  let inTrailingSlashes = true;
  for (let i = path.length - 1; i >= 1; i--) {
    if (path[i] === "/") {
      if (!inTrailingSlashes) {
        end = i;
        break;
      }
    } else {
      inTrailingSlashes = false;
    }
  }
  if (end === -1) return hasRoot ? "/" : ".";
  if (hasRoot && end === 1) return "//";
  return StringPrototypeSlice(path, 0, end);
}

function basename(path, suffix) {
  checkString(path, "path");
  if (suffix !== undefined) checkString(suffix, "ext");
  const end = trimmedEnd(path);
  if (end === 1 && path[0] === "/") return "";
  let base = StringPrototypeSlice(path, StringPrototypeLastIndexOf(StringPrototypeSlice(path, 0, end), "/") + 1, end);
  if (suffix !== undefined && MethodEndsWith(base, suffix)) {
    // Node removes a suffix equal to the whole name only when the path is that name alone.
    if (suffix !== base || path === suffix) base = StringPrototypeSlice(base, 0, base.length - suffix.length);
  }
  return base;
}

function extname(path) {
  checkString(path, "path");
  const base = basename(path);
  const dot = StringPrototypeLastIndexOf(base, ".");
  // A leading dot names a hidden file, not an extension ('.bashrc'); '..' has none either.
  if (dot <= 0 || base === "..") return "";
  let leadingDots = 0;
  while (base[leadingDots] === ".") leadingDots++;
  return dot < leadingDots ? "" : StringPrototypeSlice(base, dot);
}

function isAbsolute(path) {
  checkString(path, "path");
  return path.length > 0 && path[0] === "/";
}

function parse(path) {
  checkString(path, "path");
  const root = path[0] === "/" ? "/" : "";
  if (path === "") return { root: "", dir: "", base: "", ext: "", name: "" };
  const base = basename(path);
  const ext = extname(path);
  const end = trimmedEnd(path);
  const index = StringPrototypeLastIndexOf(StringPrototypeSlice(path, 0, end), "/");
  let dir = index === -1 ? "" : index === 0 ? "/" : StringPrototypeSlice(path, 0, index);
  if (root === "/" && base === "") dir = "/";
  return { root, dir, base, ext, name: ext ? StringPrototypeSlice(base, 0, base.length - ext.length) : base };
}

function format(object) {
  if (object === null || typeof object !== "object") throw invalidArgType("pathObject", "object", object);
  const dir = object.dir || object.root;
  const ext = object.ext ? (object.ext[0] === "." ? object.ext : "." + object.ext) : "";
  const base = object.base || `${object.name ?? ""}${ext}`;
  if (!dir) return base;
  return dir === object.root ? dir + base : dir + "/" + base;
}

function toNamespacedPath(path) {
  return path;
}

function matchesGlob() {
  throw internal.nodeErrors.make(Error, "ERR_NOT_IMPLEMENTED", "path.matchesGlob is not implemented in jsbridge.");
}

// MARK: - win32

const isSeparator = (character) => character === "/" || character === "\\";
const isDriveLetter = (code) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/// The root of a Windows path, as written: `C:\\`, `C:`, `\\\\server\\share\\`, `\\` or "".
function win32Root(path) {
  if (path.length === 0) return "";
  if (isSeparator(path[0])) {
    // A UNC root: two separators, a server, a separator, a share (and the separator after it).
    if (path.length > 2 && isSeparator(path[1]) && !isSeparator(path[2])) {
      let index = 2;
      while (index < path.length && !isSeparator(path[index])) index++;
      if (index < path.length - 1) {
        let end = index + 1;
        while (end < path.length && !isSeparator(path[end])) end++;
        if (end > index + 1) return StringPrototypeSlice(path, 0, end < path.length ? end + 1 : end);
      }
    }
    return path[0];
  }
  if (path.length >= 2 && path[1] === ":" && isDriveLetter(StringPrototypeCharCodeAt(path, 0))) {
    return path.length >= 3 && isSeparator(path[2]) ? StringPrototypeSlice(path, 0, 3) : StringPrototypeSlice(path, 0, 2);
  }
  return "";
}

/// The index after the last non-separator character of `path` from `start` (trailing separators dropped).
function win32TrimmedEnd(path, start) {
  let end = path.length;
  while (end > start && isSeparator(path[end - 1])) end--;
  return end;
}

function win32LastSeparator(path, start, end) {
  for (let index = end - 1; index >= start; index--) if (isSeparator(path[index])) return index;
  return -1;
}

function win32Basename(path, suffix) {
  checkString(path, "path");
  const start = win32Root(path).length;
  const end = win32TrimmedEnd(path, start);
  const base = StringPrototypeSlice(path, win32LastSeparator(path, start, end) + 1 || start, end);
  if (suffix !== undefined && suffix !== base && MethodEndsWith(base, suffix)) {
    return StringPrototypeSlice(base, 0, base.length - suffix.length);
  }
  return base;
}

function win32Extname(path) {
  checkString(path, "path");
  const base = win32Basename(path);
  const dot = StringPrototypeLastIndexOf(base, ".");
  if (dot <= 0 || base === "..") return "";
  let leadingDots = 0;
  while (base[leadingDots] === ".") leadingDots++;
  return dot < leadingDots ? "" : StringPrototypeSlice(base, dot);
}

function win32Dirname(path) {
  checkString(path, "path");
  if (path === "") return ".";
  const root = win32Root(path);
  const end = win32TrimmedEnd(path, root.length);
  const separator = win32LastSeparator(path, root.length, end);
  if (separator === -1) return root || ".";
  return separator <= root.length ? root : StringPrototypeSlice(path, 0, separator);
}

function win32Parse(path) {
  checkString(path, "path");
  const root = win32Root(path);
  if (path === "") return { root: "", dir: "", base: "", ext: "", name: "" };
  const base = win32Basename(path);
  const ext = win32Extname(path);
  const dir = root.length === path.length || base === "" ? root
    : win32LastSeparator(path, root.length, win32TrimmedEnd(path, root.length)) === -1 ? root : win32Dirname(path);
  return { root, dir, base, ext, name: ext ? StringPrototypeSlice(base, 0, base.length - ext.length) : base };
}

function win32IsAbsolute(path) {
  checkString(path, "path");
  const root = win32Root(path);
  return isSeparator(path[0]) || (root.length > 0 && isSeparator(root[root.length - 1]));
}

function win32Normalize(path) {
  checkString(path, "path");
  if (path === "") return ".";
  const root = win32Root(path);
  const absolute = root.length > 0 && isSeparator(root[root.length - 1]);
  const rest = StringPrototypeSlice(path, root.length);
  const segments = normalizeSegments(ArrayPrototypeJoin(StringPrototypeSplit(rest, "\\"), "/"), absolute);
  let result = ArrayPrototypeJoin(StringPrototypeSplit(segments, "/"), "\\");
  if (result !== "" && rest.length > 0 && isSeparator(rest[rest.length - 1])) result += "\\";
  const prefix = ArrayPrototypeJoin(StringPrototypeSplit(root, "/"), "\\");
  if (prefix === "" && result === "") return ".";
  return prefix + result;
}

function win32Join(...paths) {
  const parts = [];
  for (const part of paths) {
    checkString(part, "path");
    if (part !== "") ArrayPrototypePush(parts, part);
  }
  return parts.length === 0 ? "." : win32Normalize(ArrayPrototypeJoin(parts, "\\"));
}

function win32Resolve(...paths) {
  let resolved = "";
  for (let i = paths.length - 1; i >= 0; i--) {
    checkString(paths[i], `paths[${i}]`);
    if (paths[i] === "") continue;
    resolved = resolved === "" ? paths[i] : paths[i] + "\\" + resolved;
    if (win32IsAbsolute(paths[i])) return win32Normalize(resolved);
  }
  return win32Normalize(resolved === "" ? internal.cwd() : internal.cwd() + "\\" + resolved);
}

function win32Format(object) {
  if (object === null || typeof object !== "object") throw invalidArgType("pathObject", "object", object);
  const dir = object.dir || object.root;
  const ext = object.ext ? (object.ext[0] === "." ? object.ext : "." + object.ext) : "";
  const base = object.base || `${object.name ?? ""}${ext}`;
  if (!dir) return base;
  return dir === object.root ? dir + base : dir + "\\" + base;
}

const win32 = {
  sep: "\\", delimiter: ";", normalize: win32Normalize, resolve: win32Resolve, join: win32Join,
  dirname: win32Dirname, basename: win32Basename, extname: win32Extname, isAbsolute: win32IsAbsolute,
  parse: win32Parse, format: win32Format, toNamespacedPath,
};

const path = {
  sep: "/", delimiter: ":", normalize, resolve, join, relative, dirname, basename, extname, isAbsolute, parse,
  format, toNamespacedPath, matchesGlob,
};
path.posix = path;
path.win32 = win32;
win32.posix = path;
win32.win32 = win32;
// The module object is mutable, as Node's (packages patch it); the runtime's own code uses this frozen copy.
internal.posixPath = ObjectFreeze({ ...path });

internal.nodeExport("path", path);
internal.nodeExport("path/posix", path);
internal.nodeExport("path/win32", win32);
