// CommonJS modules: `require` with Node's resolution (relative and absolute paths with extension and index
// lookup, `node:` and bare built-in names, packages in `node_modules` with `exports` / `main`), a cache, and
// Node's cycle semantics (a module required during its own load sees its partial exports). ES modules are
// loaded by esm.js (lazy); this file decides which loader a file needs (docs/architecture.md, "Modules").

const {
  ArrayIsArray, ArrayPrototypePop, ArrayPrototypePush, ArrayPrototypeSplice, FunctionPrototypeCall, JSONParse,
  MathMax, MethodJoin, MethodSplit, ObjectCreate, ObjectDefineProperty, RegExpPrototypeExec, RegExpPrototypeTest, SafeMap,
  StringPrototypeEndsWith, StringPrototypeLastIndexOf, StringPrototypeSlice, StringPrototypeStartsWith,
} = internal.primordials;

const cache = ObjectCreate(null);
const wrapperParams = ["exports", "require", "module", "__filename", "__dirname", "__jsbI"];
// Modules compile as `(function (<params>) {<source>`: columns on line 1 include the header.
const wrapperHeaderLength = `(function (${MethodJoin(wrapperParams, ", ")}) {`.length;
/// Files whose line 1 starts after a header of another length (ES modules), by file name.
const headerLengths = new SafeMap();
internal.setHeaderLength = (file, length) => headerLengths.set(file, length);

/// Maps a `file:line:column` position in compiled module code to the position in the source file.
internal.sourcePosition = function (position) {
  const match = RegExpPrototypeExec(/^(.*):1:(\d+)$/, position);
  if (match === null || StringPrototypeStartsWith(match[1], "jsbridge:")) return position;
  const header = headerLengths.get(match[1]) ?? wrapperHeaderLength;
  return `${match[1]}:1:${MathMax(1, Number(match[2]) - header)}`;
};

function normalize(path) {
  const parts = [];
  for (const part of MethodSplit(path, "/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") ArrayPrototypePop(parts);
    else ArrayPrototypePush(parts, part);
  }
  return "/" + MethodJoin(parts, "/");
}

function dirname(path) {
  const index = StringPrototypeLastIndexOf(path, "/");
  return index <= 0 ? "/" : StringPrototypeSlice(path, 0, index);
}
internal.normalizePath = normalize;
internal.dirname = dirname;

// MARK: - Package scopes (shared with the ES module loader and the package resolver)

const packageJsonCache = new SafeMap(); // directory -> parsed package.json, or null when there is none

/// The parsed `<directory>/package.json`, or null; an invalid file throws ERR_INVALID_PACKAGE_CONFIG.
function readPackageJson(directory) {
  const cached = packageJsonCache.get(directory);
  if (cached !== undefined) return cached;
  const path = (directory === "/" ? "" : directory) + "/package.json";
  let value = null;
  if (internal.stat(path) === 1) {
    try {
      value = JSONParse(internal.readFile(path));
    } catch (cause) {
      const error = new Error(`Invalid package config ${path}: ${cause.message}`);
      error.code = "ERR_INVALID_PACKAGE_CONFIG";
      error.path = path;
      throw error;
    }
    if (value === null || typeof value !== "object" || ArrayIsArray(value)) value = {};
  }
  packageJsonCache.set(directory, value);
  return value;
}
internal.readPackageJson = readPackageJson;

/// The nearest package.json above `file` (not crossing a node_modules folder): `{directory, json}` or null.
function packageScope(file) {
  for (let directory = dirname(file); ; directory = dirname(directory)) {
    if (StringPrototypeEndsWith(directory, "/node_modules")) return null;
    const json = readPackageJson(directory);
    if (json !== null) return { directory, json };
    if (directory === "/") return null;
  }
}
internal.packageScope = packageScope;

/// How a file loads: "esm", "cjs", "json", or "detect" (a `.js` outside a `"type": "module"` scope: CommonJS
/// unless its syntax is a module's).
/// TypeScript goes as JavaScript does: `.mts` as `.mjs`, `.cts` as `.cjs`, `.ts` as `.js`.
function formatOf(path) {
  if (StringPrototypeEndsWith(path, ".mjs") || StringPrototypeEndsWith(path, ".mts")) return "esm";
  if (StringPrototypeEndsWith(path, ".cjs") || StringPrototypeEndsWith(path, ".cts")) return "cjs";
  if (StringPrototypeEndsWith(path, ".json")) return "json";
  const script = StringPrototypeEndsWith(path, ".js") || StringPrototypeEndsWith(path, ".ts");
  const scope = packageScope(path);
  if (scope !== null && scope.json.type === "module") return script ? "esm" : "cjs";
  return script ? "detect" : "cjs";
}
internal.moduleFormat = formatOf;

// MARK: - Resolution

function notFound(request, parent) {
  const error = new Error(`Cannot find module '${request}'` + (parent ? `\nRequire stack:\n- ${parent}` : ""));
  error.code = "MODULE_NOT_FOUND";
  return error;
}
internal.requireNotFound = notFound;

/// CommonJS file lookup for `base` (an absolute path): the file, then with `.js` / `.json`, then as a
/// directory (its package.json `main`, then index.js / index.json). Returns the real path or undefined.
function resolveFile(base) {
  for (const candidate of [base, base + ".js", base + ".json"]) {
    if (internal.stat(candidate) === 1) return internal.realpath(candidate);
  }
  if (internal.stat(base) !== 2) return undefined;
  const json = readPackageJson(base);
  if (json !== null && typeof json.main === "string" && json.main !== "") {
    const main = normalize(base + "/" + json.main);
    for (const candidate of [main, main + ".js", main + ".json", main + "/index.js", main + "/index.json"]) {
      if (internal.stat(candidate) === 1) return internal.realpath(candidate);
    }
  }
  for (const candidate of [base + "/index.js", base + "/index.json"]) {
    if (internal.stat(candidate) === 1) return internal.realpath(candidate);
  }
  return undefined;
}
internal.resolveCommonJSFile = resolveFile;

function isRelative(request) {
  return StringPrototypeStartsWith(request, "./") || StringPrototypeStartsWith(request, "../") || request === "." ||
    request === "..";
}

/// Resolves `request` from a module in `fromDirectory`: `{path}` for a file, `{exports}` for a built-in or
/// plugin module.
function resolveRequest(request, fromDirectory, parent) {
  if (typeof request !== "string" || request === "") {
    const error = new TypeError(`The "id" argument must be a non-empty string. Received ${internal.inspect(request)}`);
    error.code = "ERR_INVALID_ARG_VALUE";
    throw error;
  }
  if (isRelative(request) || StringPrototypeStartsWith(request, "/")) {
    const path = resolveFile(normalize(StringPrototypeStartsWith(request, "/") ? request : fromDirectory + "/" + request));
    if (path === undefined) throw notFound(request, parent);
    return { path };
  }
  // Built-ins, plugin modules and packages (resolve.js, loaded on first use).
  return internal.resolveBare(request, fromDirectory, parent, "require");
}

// MARK: - Loading

class Module {
  constructor(filename, parent) {
    this.id = filename;
    this.filename = filename;
    this.path = dirname(filename);
    this.exports = {};
    this.parent = parent;
    this.loaded = false;
    this.children = [];
  }

  require(request) {
    const resolved = resolveRequest(request, this.path, this.filename);
    if (resolved.path === undefined) return resolved.exports;
    return loadModule(resolved.path, this);
  }
}
internal.CommonJSModule = Module;

function makeRequire(module) {
  const require = (request) => module.require(request);
  require.resolve = (request) => {
    const resolved = resolveRequest(request, module.path, module.filename);
    return resolved.path ?? request;
  };
  require.cache = cache;
  require.main = mainModule;
  return require;
}
internal.makeRequire = makeRequire;

/// A file's source for the CommonJS loader: TypeScript (`.ts`, `.cts`) with its erasable syntax blanked out
/// (ModuleLoaderNatives.swift; the ES module loader strips in `compileModule`).
function readSource(filename) {
  const source = internal.readFile(filename);
  if (!RegExpPrototypeTest(/\.[cm]?ts$/, filename)) return source;
  const result = internal.stripTypeScript(source);
  if (typeof result === "string") return result;
  throw internal.typeScriptError(result, filename);
}

// As Node >= 22.18 with type stripping on: this loader runs `.ts`, `.mts` and `.cts` files. Set as a hook, not on
// `process`, so that start-up does not load process.js.
internal.processFeatures = { typescript: "strip" };

/// The SyntaxError for TypeScript that cannot be erased (`{error, line, column, code}`), at its position.
internal.typeScriptError = function (result, filename) {
  const error = new SyntaxError(result.error);
  error.code = result.code;
  ObjectDefineProperty(error, "sourceURL", { value: filename, writable: true, configurable: true });
  ObjectDefineProperty(error, "line", { value: result.line, writable: true, configurable: true });
  ObjectDefineProperty(error, "column", { value: result.column, writable: true, configurable: true });
  return error;
};

function stripShebang(source) {
  return StringPrototypeStartsWith(source, "#!") ? "//" + StringPrototypeSlice(source, 2) : source;
}

/// `import(specifier)` from CommonJS code in `filename`.
function dynamicImporter(filename) {
  return (specifier, options) => internal.esm.importFrom(specifier, options, filename);
}

/// Compiles CommonJS `source`; `import(` becomes a call of the wrapper's `__jsbI` (same length, so
/// positions stay).
function compileCommonJS(source, filename) {
  source = stripShebang(source);
  if (RegExpPrototypeTest(/\bimport\s*\(/, source)) source = internal.esm.rewriteDynamicImports(source);
  return internal.compile(source, filename, ...wrapperParams);
}

function evaluate(module, fn) {
  FunctionPrototypeCall(fn, module.exports, module.exports, makeRequire(module), module, module.filename, module.path,
    dynamicImporter(module.filename));
}

/// A SyntaxError from compiling `source` as CommonJS that is explained by its being an ES module.
function isModuleSyntaxError(error, source) {
  return error instanceof SyntaxError && internal.esm.hasModuleSyntax(source);
}

function loadModule(filename, parent) {
  const cached = cache[filename];
  if (cached !== undefined) return cached.exports;
  const format = formatOf(filename);
  if (format === "esm") return internal.esm.requireModule(filename, parent?.filename);
  const module = new Module(filename, parent);
  if (parent) ArrayPrototypePush(parent.children, module);
  cache[filename] = module;
  try {
    const source = readSource(filename);
    if (format === "json") {
      try {
        module.exports = JSONParse(source);
      } catch (error) {
        error.message = filename + ": " + error.message;
        throw error;
      }
    } else {
      let fn;
      try {
        fn = compileCommonJS(source, filename);
      } catch (error) {
        if (format !== "detect" || !isModuleSyntaxError(error, source)) throw error;
        delete cache[filename];
        return internal.esm.requireModule(filename, parent?.filename);
      }
      evaluate(module, fn);
    }
  } catch (error) {
    delete cache[filename];
    throw error;
  }
  module.loaded = true;
  return module.exports;
}
internal.loadCommonJS = loadModule;
internal.commonJSCache = cache;

let mainModule;

/// Runs the main script (`kind` "file" with an absolute path, or "eval" with code). An ES module main (by
/// extension, package type, or syntax) goes to esm.js; CommonJS runs here.
internal.runMain = function (kind, text) {
  if (kind === "eval") {
    let fn;
    try {
      fn = compileCommonJS(text, "[eval]");
    } catch (error) {
      if (!isModuleSyntaxError(error, text)) throw error;
      internal.esm.runMainEval(text);
      return;
    }
    mainModule = new Module(internal.cwd() + "/[eval]", null);
    mainModule.filename = "[eval]";
    mainModule.id = "[eval]";
    cache["[eval]"] = mainModule;
    FunctionPrototypeCall(fn, mainModule.exports, mainModule.exports, makeRequire(mainModule), mainModule, "[eval]", mainModule.path,
      dynamicImporter(internal.cwd() + "/[eval]"));
  } else {
    ArrayPrototypeSplice(process.argv, 1, 0, text);
    const format = formatOf(text);
    if (format === "esm") {
      internal.esm.runMainFile(text);
      return;
    }
    const source = readSource(text);
    let fn;
    try {
      fn = compileCommonJS(source, text);
    } catch (error) {
      if (format !== "detect" || !isModuleSyntaxError(error, source)) throw error;
      internal.esm.runMainFile(text);
      return;
    }
    mainModule = new Module(text, null);
    mainModule.id = ".";
    cache[text] = mainModule;
    evaluate(mainModule, fn);
  }
  mainModule.loaded = true;
};

internal.defineGlobal("require", (request) => {
  const from = mainModule ?? new Module(internal.cwd() + "/[global]", null);
  return from.require(request);
});
