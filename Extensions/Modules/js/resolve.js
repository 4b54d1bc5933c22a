// Resolution of bare specifiers for both module loaders (loaded on first use): `node:` names and Node's
// built-in names (through `internal.nodeBuiltin`), `jsbridge:` plugin modules, then packages found in
// `node_modules` folders up the directory tree, through their package.json `exports` (subpaths, `*`
// patterns, nested conditions) or `main`. See docs/running-scripts.md, "Modules and packages".

const { ArrayIsArray, ArrayPrototypeIncludes, JSONStringify, ObjectHasOwn, ArrayPrototypeJoin, ArrayPrototypeSlice, ObjectCreate,
  ObjectFreeze, ObjectKeys, SafeSet, StringPrototypeEndsWith, StringPrototypeIncludes, StringPrototypeIndexOf,
  StringPrototypeLastIndexOf, StringPrototypeSlice, StringPrototypeSplit, StringPrototypeStartsWith } =
  internal.primordials;

/// Node's built-in module names (without `node:`), as `require("node:module").builtinModules` lists them.
const builtinNames = ObjectFreeze([
  "assert", "assert/strict", "async_hooks", "buffer", "child_process", "cluster", "console", "constants",
  "crypto", "dgram", "diagnostics_channel", "dns", "dns/promises", "domain", "events", "fs", "fs/promises",
  "http", "http2", "https", "inspector", "inspector/promises", "module", "net", "os", "path", "path/posix",
  "path/win32", "perf_hooks", "process", "punycode", "querystring", "readline", "readline/promises", "repl",
  "stream", "stream/consumers", "stream/promises", "stream/web", "string_decoder", "sys", "timers",
  "timers/promises", "tls", "trace_events", "tty", "url", "util", "util/types", "v8", "vm", "wasi",
  "worker_threads", "zlib",
]);
const builtinSet = new SafeSet(builtinNames);

function codedError(message, code, Type = Error) {
  const error = new Type(message);
  error.code = code;
  return error;
}

// MARK: - node:module

/** @type {Record<string, any>} */
let nodeModuleExports;

/// `node:module`: `createRequire`, `builtinModules`, `isBuiltin`.
function nodeModule() {
  if (nodeModuleExports !== undefined) return nodeModuleExports;
  const Module = internal.CommonJSModule;
  function createRequire(from) {
    let filename = from instanceof internal.URL || (from !== null && typeof from === "object" && "href" in from)
      ? String(from.href) : from;
    if (typeof filename === "string" && StringPrototypeStartsWith(filename, "file:")) {
      filename = internal.fileURLToPath(filename);
    }
    if (typeof filename !== "string" || !StringPrototypeStartsWith(filename, "/")) {
      throw codedError(`The argument 'filename' must be a file URL object, file URL string, or absolute path string. ` +
        `Received ${internal.inspect(from)}`, "ERR_INVALID_ARG_VALUE", TypeError);
    }
    // A directory path ends with "/": its modules resolve from the directory itself.
    const module = new Module(StringPrototypeEndsWith(filename, "/") ? filename + "[require]" : filename, null);
    return internal.makeRequire(module);
  }
  function isBuiltin(name) {
    if (typeof name !== "string") return false;
    return builtinSet.has(StringPrototypeStartsWith(name, "node:") ? StringPrototypeSlice(name, 5) : name);
  }
  nodeModuleExports = { createRequire, builtinModules: builtinNames, isBuiltin };
  nodeModuleExports.Module = Module;
  // Node's module cache, as packages that patch the loader read it (the same object as `require.cache`).
  nodeModuleExports._cache = internal.commonJSCache;
  Module._cache = internal.commonJSCache;
  Module.builtinModules = builtinNames;
  Module.createRequire = createRequire;
  Module.isBuiltin = isBuiltin;
  return nodeModuleExports;
}

/// The exports of built-in `name` (without `node:`), or undefined. `module` is this file's own; the others
/// come from `internal.nodeBuiltin` (node-builtins.js, the node extension), which falls back to a plugin's module of that
/// name (a plugin may declare `node:fs`).
function builtinExports(name) {
  return name === "module" ? nodeModule() : internal.nodeBuiltin(name);
}

// MARK: - Packages

/// Splits a bare specifier into its package name and subpath ("." or "./..."); null when invalid.
function parsePackageName(specifier) {
  let end = StringPrototypeIndexOf(specifier, "/");
  if (StringPrototypeStartsWith(specifier, "@")) {
    if (end === -1) return null;
    end = StringPrototypeIndexOf(specifier, "/", end + 1);
  }
  const name = end === -1 ? specifier : StringPrototypeSlice(specifier, 0, end);
  if (name === "" || StringPrototypeStartsWith(name, ".") || StringPrototypeIncludes(name, "\\") ||
    StringPrototypeIncludes(name, "%")) return null;
  return { name, subpath: end === -1 ? "." : "." + StringPrototypeSlice(specifier, end) };
}

/// Resolves `subpath` through a package's `exports` with `conditions`; the target path, null when the
/// subpath is not exported, or throws ERR_INVALID_PACKAGE_TARGET.
function resolveExports(packageDirectory, exports, subpath, conditions) {
  let map = exports;
  if (typeof exports === "string" || ArrayIsArray(exports) || !isSubpathMap(exports)) map = { ".": exports };
  if (ObjectHasOwn(map, subpath) && !StringPrototypeIncludes(subpath, "*")) {
    return resolveTarget(packageDirectory, map[subpath], undefined, conditions);
  }
  // The most specific `*` pattern (longest prefix) wins.
  let bestKey, bestMatch;
  for (const key of ObjectKeys(map)) {
    const star = StringPrototypeIndexOf(key, "*");
    if (star === -1) continue;
    const prefix = StringPrototypeSlice(key, 0, star), suffix = StringPrototypeSlice(key, star + 1);
    if (!StringPrototypeStartsWith(subpath, prefix) || subpath === prefix) continue;
    if (suffix !== "" && (!StringPrototypeEndsWith(subpath, suffix) || subpath.length < key.length)) continue;
    if (bestKey === undefined || prefix.length > StringPrototypeIndexOf(bestKey, "*")) {
      bestKey = key;
      bestMatch = StringPrototypeSlice(subpath, prefix.length, subpath.length - suffix.length);
    }
  }
  if (bestKey === undefined) return null;
  return resolveTarget(packageDirectory, map[bestKey], bestMatch, conditions);
}

function isSubpathMap(exports) {
  if (exports === null || typeof exports !== "object") return false;
  const keys = ObjectKeys(exports);
  return keys.length > 0 && StringPrototypeStartsWith(keys[0], ".");
}

function resolveTarget(packageDirectory, target, patternMatch, conditions) {
  if (typeof target === "string") {
    if (!StringPrototypeStartsWith(target, "./")) {
      throw codedError(`Invalid "exports" target ${JSONStringify(target)} in ${packageDirectory}/package.json: ` +
        `targets start with "./"`, "ERR_INVALID_PACKAGE_TARGET");
    }
    const filled = patternMatch === undefined ? target : ArrayPrototypeJoin(StringPrototypeSplit(target, "*"), patternMatch);
    const path = internal.normalizePath(packageDirectory + "/" + filled);
    if (!StringPrototypeStartsWith(path, packageDirectory + "/")) {
      throw codedError(`Invalid "exports" target ${JSONStringify(target)} in ${packageDirectory}/package.json: ` +
        `it leaves the package`, "ERR_INVALID_PACKAGE_TARGET");
    }
    return path;
  }
  if (ArrayIsArray(target)) {
    let lastError;
    for (const item of target) {
      try {
        const resolved = resolveTarget(packageDirectory, item, patternMatch, conditions);
        if (resolved !== null) return resolved;
      } catch (error) {
        lastError = error;
      }
    }
    if (lastError !== undefined) throw lastError;
    return null;
  }
  if (target !== null && typeof target === "object") {
    for (const key of ObjectKeys(target)) {
      if (key !== "default" && !ArrayPrototypeIncludes(conditions, key)) continue;
      const resolved = resolveTarget(packageDirectory, target[key], patternMatch, conditions);
      if (resolved !== null) return resolved;
    }
    return null;
  }
  return null;
}

/// `main`, or index.js, for a package without `exports` (an ES import tries the same files as require).
function resolveMain(packageDirectory, json) {
  return internal.resolveCommonJSFile(packageDirectory);
}

/// Resolves a bare specifier (not relative, not absolute) from `fromDirectory`. `mode` is "require" or
/// "import". Returns `{exports}` for a built-in or plugin module, `{path}` for a file.
internal.resolveBare = function (specifier, fromDirectory, parent, mode) {
  const importing = mode === "import";
  if (StringPrototypeStartsWith(specifier, "#")) return resolveImports(specifier, fromDirectory, parent, mode);
  if (StringPrototypeStartsWith(specifier, "node:")) {
    const name = StringPrototypeSlice(specifier, 5);
    const exports = builtinExports(name);
    if (exports === undefined) {
      throw codedError(`No such built-in module: ${specifier}` +
        (builtinSet.has(name) ? " (jsbridge does not provide it)" : ""), "ERR_UNKNOWN_BUILTIN_MODULE");
    }
    return { exports, builtin: name };
  }
  if (StringPrototypeStartsWith(specifier, "jsbridge:")) {
    const exports = internal.pluginModule(StringPrototypeSlice(specifier, 9));
    if (exports === undefined) throw notFound(specifier, parent, mode);
    return { exports, builtin: specifier };
  }
  if (builtinSet.has(specifier)) {
    const exports = builtinExports(specifier);
    if (exports !== undefined) return { exports, builtin: specifier };
    // Not provided here: a package of that name (a polyfill in node_modules) may stand in for it.
  }
  const parsed = parsePackageName(specifier);
  if (parsed === null) {
    throw codedError(`Invalid module specifier '${specifier}'` + (parent ? ` imported from ${parent}` : ""),
      importing ? "ERR_INVALID_MODULE_SPECIFIER" : "MODULE_NOT_FOUND", TypeError);
  }
  const conditions = importing ? ["node", "import"] : ["node", "require"];
  for (let directory = fromDirectory; ; directory = internal.dirname(directory)) {
    if (!StringPrototypeEndsWith(directory, "/node_modules")) {
      const packageDirectory = (directory === "/" ? "" : directory) + "/node_modules/" + parsed.name;
      if (internal.stat(packageDirectory) === 2) {
        return { path: resolveInPackage(packageDirectory, parsed, specifier, parent, conditions, mode) };
      }
    }
    if (directory === "/") break;
  }
  // One of Node's names that jsbridge lacks, and no package stands in for it.
  if (builtinSet.has(specifier)) throw unknownBuiltin(specifier);
  throw notFound(specifier, parent, mode, true);
};

function unknownBuiltin(name) {
  return codedError(`No such built-in module: node:${name} (jsbridge does not provide it)`,
    "ERR_UNKNOWN_BUILTIN_MODULE");
}

/// A package's private import `#name` (its package.json `"imports"`), resolved from the package that holds
/// the importing file: a `./` target is a file of that package, any other a package or built-in.
function resolveImports(specifier, fromDirectory, parent, mode) {
  const scope = internal.packageScope(parent !== undefined && parent !== null && StringPrototypeStartsWith(parent, "/")
    ? parent : fromDirectory + "/[file]");
  const imports = scope?.json.imports;
  const conditions = mode === "import" ? ["node", "import"] : ["node", "require"];
  let target = null;
  if (specifier !== "#" && !StringPrototypeStartsWith(specifier, "#/") && imports !== null &&
    typeof imports === "object" && !ArrayIsArray(imports)) {
    target = matchImports(scope.directory, imports, specifier, conditions);
  }
  if (target === null) {
    const where = scope === null ? "" : ` in package ${scope.directory === "/" ? "" : scope.directory}/package.json`;
    throw codedError(`Package import specifier "${specifier}" is not defined${where}` +
      (parent ? ` imported from ${parent}` : ""), "ERR_PACKAGE_IMPORT_NOT_DEFINED", TypeError);
  }
  if (StringPrototypeStartsWith(target, "/")) {
    if (internal.stat(target) !== 1) throw notFound(target, parent, mode);
    return { path: internal.realpath(target) };
  }
  return internal.resolveBare(target, scope.directory, parent, mode);
}

/// The target of `specifier` in an `"imports"` map: an absolute path, a bare specifier, or null.
function matchImports(packageDirectory, imports, specifier, conditions) {
  let key = specifier, match;
  if (!ObjectHasOwn(imports, specifier) || StringPrototypeIncludes(specifier, "*")) {
    key = undefined;
    for (const candidate of ObjectKeys(imports)) {
      const star = StringPrototypeIndexOf(candidate, "*");
      if (star === -1) continue;
      const prefix = StringPrototypeSlice(candidate, 0, star), suffix = StringPrototypeSlice(candidate, star + 1);
      if (!StringPrototypeStartsWith(specifier, prefix) || specifier === prefix) continue;
      if (suffix !== "" && (!StringPrototypeEndsWith(specifier, suffix) || specifier.length < candidate.length)) continue;
      if (key === undefined || prefix.length > StringPrototypeIndexOf(key, "*")) {
        key = candidate;
        match = StringPrototypeSlice(specifier, prefix.length, specifier.length - suffix.length);
      }
    }
    if (key === undefined) return null;
  }
  return importTarget(packageDirectory, imports[key], match, conditions);
}

function importTarget(packageDirectory, target, match, conditions) {
  if (typeof target === "string") {
    const filled = match === undefined ? target : ArrayPrototypeJoin(StringPrototypeSplit(target, "*"), match);
    if (StringPrototypeStartsWith(target, "./")) return resolveTarget(packageDirectory, target, match, conditions);
    return filled;
  }
  if (ArrayIsArray(target)) {
    for (const item of target) {
      const resolved = importTarget(packageDirectory, item, match, conditions);
      if (resolved !== null) return resolved;
    }
    return null;
  }
  if (target !== null && typeof target === "object") {
    for (const key of ObjectKeys(target)) {
      if (key !== "default" && !ArrayPrototypeIncludes(conditions, key)) continue;
      const resolved = importTarget(packageDirectory, target[key], match, conditions);
      if (resolved !== null) return resolved;
    }
  }
  return null;
}

function resolveInPackage(packageDirectory, parsed, specifier, parent, conditions, mode) {
  const json = internal.readPackageJson(packageDirectory) ?? {};
  let path;
  if (json.exports !== undefined && json.exports !== null) {
    path = resolveExports(packageDirectory, json.exports, parsed.subpath, conditions);
    if (path === null) {
      const error = codedError(parsed.subpath === "."
        ? `No "exports" main defined in ${packageDirectory}/package.json`
        : `Package subpath '${parsed.subpath}' is not defined by "exports" in ${packageDirectory}/package.json` +
          (parent ? ` imported from ${parent}` : ""), "ERR_PACKAGE_PATH_NOT_EXPORTED");
      throw error;
    }
    if (internal.stat(path) !== 1) throw notFound(path, parent, mode);
    return internal.realpath(path);
  }
  path = parsed.subpath === "."
    ? resolveMain(packageDirectory, json)
    : internal.resolveCommonJSFile(internal.normalizePath(packageDirectory + "/" + parsed.subpath));
  if (path === undefined) throw notFound(specifier, parent, mode);
  return path;
}

function notFound(specifier, parent, mode, isPackage = false) {
  if (mode !== "import") return internal.requireNotFound(specifier, parent);
  const error = new Error(`Cannot find ${isPackage ? "package" : "module"} '${specifier}'` +
    (parent ? ` imported from ${parent}` : ""));
  error.code = "ERR_MODULE_NOT_FOUND";
  return error;
}
internal.importNotFound = notFound;
