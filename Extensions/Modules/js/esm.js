// ES modules (loaded on first use). JavaScriptCore's C API has no module loader, so this file is one: a
// token-level scanner (ModuleScanner, in Swift) finds each module's import/export declarations, `import.meta` and `import(`, and
// rewrites the module, keeping every line and column, into a generator function whose first step registers
// getters for its exports (so cycles see hoisted functions, and let/const/class exports are in their TDZ)
// and whose second step runs the body (an async generator for top-level await). Imported names are getters
// on an object the strict body sees through a `with` scope in a sloppy wrapper: live bindings. The loader
// then loads the graph, links every import to the exporting module's getter, and evaluates in post-order.
// docs/architecture.md ("ES modules") explains the design and its costs.

const {
  ArrayPrototypePop, ArrayPrototypePush, ArrayPrototypeSort, FunctionPrototypeBind, JSONParse, ObjectCreate,
  ObjectDefineProperty, ObjectKeys, ObjectPreventExtensions, Promise, PromisePrototypeThen, RegExpPrototypeTest,
  SafeMap, SafeSet, StringPrototypeCharCodeAt, StringPrototypeIncludes, StringPrototypeIndexOf,
  StringPrototypeReplace, StringPrototypeSlice, StringPrototypeSplit, StringPrototypeStartsWith, SymbolToStringTag,
  SyntaxError, TypeError,
} = internal.primordials;
const PromiseAll = FunctionPrototypeBind(Promise.all, Promise);
const encodeURIPrimordial = encodeURI;

// MARK: - Scanner

/// Splits `src` into tokens (ModuleScanner.swift): parallel arrays of type (1 name,
/// 2 punctuator, 3 string, 4 template, 5 regular expression, 6 number), start, end, value (the text of names
/// and punctuators) and whether a line break came before; a SyntaxError with `offset` when `src` is malformed.
function tokenize(src) {
  const tokens = internal.tokenize(src);
  if (tokens.error !== undefined) {
    const error = new SyntaxError(tokens.error);
    error.offset = tokens.offset;
    throw error;
  }
  return tokens;
}

/// `line:column` (1-based) of `offset` in `src`.
function positionOf(src, offset) {
  let line = 1, lineStart = 0;
  for (let j = 0; j < offset; j++) {
    if (StringPrototypeCharCodeAt(src, j) === 10) {
      line++;
      lineStart = j + 1;
    }
  }
  return `${line}:${offset - lineStart + 1}`;
}

/// A SyntaxError at `offset` of module `filename` (its position reported like the engine's own).
function syntaxErrorAt(message, filename, src, offset) {
  const error = new SyntaxError(message);
  const [line, column] = StringPrototypeSplit(positionOf(src, offset), ":");
  ObjectDefineProperty(error, "sourceURL", { value: filename, writable: true, configurable: true });
  ObjectDefineProperty(error, "line", { value: Number(line), writable: true, configurable: true });
  ObjectDefineProperty(error, "column", { value: Number(column), writable: true, configurable: true });
  return error;
}

/// What a module's source declares (ModuleScanner+Analyze.swift), and `body`, the source rewritten into a
/// function body with every line and column kept:
/// - `requests`: `{specifier, offset, type}` in source order (import and export-from declarations);
/// - `bindings`: `[importName | "*", localName, request]`;
/// - `locals`: `[exportName, localName]`; `indirect`: `[exportName, importName | "*", request]`;
///   `stars`: request indices of `export * from`;
/// - `moduleSyntax`: whether any import/export declaration or `import.meta` appears; `hasAwait`.
/// With `dynamicOnly` (CommonJS), only `import(` is rewritten and declarations are ignored. A malformed
/// module is a SyntaxError at its position in `filename`.
function analyze(src, filename, dynamicOnly = false) {
  const analysis = internal.scanModule(src, dynamicOnly);
  if (analysis.error !== undefined) throw syntaxErrorAt(analysis.error, filename, src, analysis.offset);
  return analysis;
}

// MARK: - Module records

/// Records by key: the real path of a file module, `node:<name>` / `jsbridge:<name>` for built-ins.
const registry = new SafeMap();

class ModuleRecord {
  constructor(key, filename, kind) {
    this.key = key;
    this.filename = filename;
    this.kind = kind; // "esm" | "cjs" | "json" | "builtin"
    this.status = "new"; // -> "linked" -> "evaluating" -> ("evaluating-async" ->) "evaluated" | "errored"
    this.source = undefined;
    this.analysis = undefined;
    this.deps = [];
    this.getters = undefined;
    this.generator = undefined;
    this.isAsync = false;
    this.promise = undefined;
    this.error = undefined;
    this.namespace = undefined;
    this.value = undefined; // a CommonJS / JSON / built-in module's exports
    this.meta = undefined;
  }
}

function fileURL(path) {
  return "file://" + StringPrototypeReplace(encodeURIPrimordial(path), /[?#]/g, (c) => c === "?" ? "%3F" : "%23");
}


function codedError(Type, message, code) {
  const error = new Type(message);
  error.code = code;
  return error;
}

/// Where `request` of `record` is written: `file:line:column`.
function requestPosition(record, request) {
  return `${record.filename}:${positionOf(record.source, request.offset)}`;
}

/// The real path of each module file resolved so far, by the path it was imported as (a graph imports a shared
/// helper from every module; as in Node, a file found once is not looked up again in the same run).
const realPaths = new SafeMap();

/// Resolves `specifier` imported by `importer` (a file path; `where` names the import's position):
/// `{path}` or `{exports, builtin}`.
function resolve(specifier, importer, where) {
  if (StringPrototypeStartsWith(specifier, "file:")) specifier = internal.fileURLToPath(specifier);
  if (StringPrototypeStartsWith(specifier, "./") || StringPrototypeStartsWith(specifier, "../") ||
    StringPrototypeStartsWith(specifier, "/") || specifier === "." || specifier === "..") {
    const path = internal.normalizePath(StringPrototypeStartsWith(specifier, "/") ? specifier
      : internal.dirname(importer) + "/" + specifier);
    const known = realPaths.get(path);
    if (known !== undefined) return { path: known };
    const kind = internal.stat(path);
    if (kind === 1) {
      const real = internal.realpath(path);
      realPaths.set(path, real);
      return { path: real };
    }
    if (kind === 2) {
      throw codedError(Error, `Directory import '${path}' is not supported resolving ES modules imported from ` +
        where, "ERR_UNSUPPORTED_DIR_IMPORT");
    }
    let hint = "";
    for (const extension of [".js", ".mjs", ".cjs", ".json", "/index.js", ".ts", ".mts", ".cts"]) {
      if (internal.stat(path + extension) === 1) {
        hint = `\nDid you mean to import '${specifier}${extension}'?`;
        break;
      }
    }
    throw codedError(Error, `Cannot find module '${path}' (from '${specifier}') imported from ${where}${hint}`,
      "ERR_MODULE_NOT_FOUND");
  }
  try {
    return internal.resolveBare(specifier, internal.dirname(importer), where, "import");
  } catch (error) {
    if (error.code === "ERR_MODULE_NOT_FOUND" && !StringPrototypeIncludes(error.message, where)) {
      error.message += ` imported from ${where}`;
    }
    throw error;
  }
}

/// The record for a resolved module (created, not loaded, when new).
function recordFor(resolved, type, where) {
  if (resolved.path === undefined) {
    const key = resolved.builtin;
    let record = registry.get(key);
    if (record === undefined) {
      record = new ModuleRecord(key, key, "builtin");
      record.value = resolved.exports;
      record.status = "evaluated";
      registry.set(key, record);
    }
    return record;
  }
  const path = resolved.path;
  let record = registry.get(path);
  if (record === undefined) {
    const format = internal.moduleFormat(path);
    record = new ModuleRecord(path, path, format === "detect" ? "detect" : format);
    registry.set(path, record);
  }
  if (type === "json" && record.kind !== "json") {
    throw codedError(TypeError, `Module '${path}' is not a JSON module, imported with type "json" from ${where}`,
      "ERR_IMPORT_ATTRIBUTE_TYPE_INCOMPATIBLE");
  }
  if (type !== undefined && type !== "json") {
    throw codedError(TypeError, `Import attribute type "${type}" is unsupported (imported from ${where})`,
      "ERR_IMPORT_ATTRIBUTE_UNSUPPORTED");
  }
  if (record.kind === "json" && type !== "json") {
    throw codedError(TypeError, `Module '${path}' needs an import attribute of type "json" (imported from ${where})`,
      "ERR_IMPORT_ATTRIBUTE_MISSING");
  }
  return record;
}

/// Reads and compiles an ES module record (`source` given for `-e` code): one native call reads, scans and
/// compiles it (ModuleLoaderNatives.swift), returning its analysis (see `analyze`) and module function.
function parse(record, source) {
  const result = internal.compileModule(record.filename, source, record.kind === "detect");
  record.source = result.source;
  if (result.code !== undefined) throw internal.typeScriptError(result, record.filename);
  if (result.error !== undefined) throw syntaxErrorAt(result.error, record.filename, result.source, result.offset);
  if (result.compiled === undefined) {
    record.kind = "cjs";
    record.source = undefined;
    return;
  }
  record.kind = "esm";
  record.analysis = result;
  record.compiled = result.compiled;
  record.isAsync = result.isAsync;
  result.compiled = undefined;
  internal.setHeaderLength(record.filename, result.headerLength);
}

/// Loads every module `root` depends on (reading, resolving, compiling), then instantiates and links the new
/// ES modules. On failure the records created for this graph are dropped. Returns a promise when a new module
/// is async (its generator reaches its first `yield` only after a microtask): evaluate after it settles.
function loadGraph(root, rootSource) {
  const created = [];
  let ready;
  const stack = [root];
  try {
    while (stack.length > 0) {
      const record = ArrayPrototypePop(stack);
      if (record.status !== "new") continue;
      ArrayPrototypePush(created, record);
      record.status = "loading";
      if (record.kind !== "esm" && record.kind !== "detect") continue;
      parse(record, record === root ? rootSource : undefined);
      if (record.kind !== "esm") continue;
      for (const request of record.analysis.requests) {
        let dep;
        try {
          dep = recordFor(resolve(request.specifier, record.filename, record.filename), request.type, record.filename);
        } catch (error) {
          // Messages name the importer; only a failure pays for working out the import's line and column.
          if (error !== null && typeof error === "object" && typeof error.message === "string") {
            error.message = StringPrototypeReplace(error.message, " from " + record.filename,
              " from " + requestPosition(record, request));
          }
          pointAt(error, record, request.offset);
          throw error;
        }
        ArrayPrototypePush(record.deps, dep);
        if (dep.status === "new") ArrayPrototypePush(stack, dep);
      }
    }
    for (const record of created) {
      if (record.kind !== "esm") continue;
      const step = instantiate(record);
      if (record.isAsync) ArrayPrototypePush(ready ??= [], step);
    }
    for (const record of created) if (record.kind === "esm") link(record);
  } catch (error) {
    for (const record of created) if (registry.get(record.key) === record) registry.delete(record.key);
    throw error;
  }
  for (const record of created) if (record.status === "loading") record.status = "linked";
  return ready === undefined ? undefined : PromiseAll(ready);
}

/// Makes an error's reported position the import at `offset` of `record`.
function pointAt(error, record, offset) {
  if (error === null || typeof error !== "object") return;
  const [line, column] = StringPrototypeSplit(positionOf(record.source, offset), ":");
  try {
    ObjectDefineProperty(error, "sourceURL", { value: record.filename, writable: true, configurable: true });
    ObjectDefineProperty(error, "line", { value: Number(line), writable: true, configurable: true });
    ObjectDefineProperty(error, "column", { value: Number(column), writable: true, configurable: true });
  } catch {}
  // The position is in the module's own text, not after a wrapper header.
  internal.setHeaderLength(record.filename, 0);
}

function instantiate(record) {
  record.imports = ObjectCreate(null);
  const importer = (specifier, options) => importFrom(specifier, options, record.filename);
  const meta = makeMeta(record);
  record.generator = record.compiled(record.imports, meta, importer, (getters) => { record.getters = getters; });
  record.compiled = undefined;
  return record.generator.next();
}

function makeMeta(record) {
  const filename = record.filename;
  const meta = ObjectCreate(null);
  meta.url = StringPrototypeStartsWith(filename, "/") ? fileURL(filename) : filename;
  meta.filename = filename;
  meta.dirname = internal.dirname(filename);
  meta.main = record === mainRecord;
  meta.resolve = (specifier) => {
    specifier = String(specifier);
    if (StringPrototypeStartsWith(specifier, "./") || StringPrototypeStartsWith(specifier, "../") ||
      StringPrototypeStartsWith(specifier, "/")) {
      return fileURL(internal.normalizePath(StringPrototypeStartsWith(specifier, "/") ? specifier
        : meta.dirname + "/" + specifier));
    }
    if (StringPrototypeStartsWith(specifier, "file:")) return specifier;
    const resolved = resolve(specifier, filename, filename);
    return resolved.path !== undefined ? fileURL(resolved.path)
      : StringPrototypeStartsWith(resolved.builtin, "jsbridge:") ? resolved.builtin : "node:" + resolved.builtin;
  };
  return meta;
}

/// Resolves export `name` of `record`: `{record, name}` for an ES module's own export (its getter),
/// `{namespace}` for a namespace re-export, `{dynamic, name}` for a CommonJS/JSON/built-in module's property;
/// null when there is none.
function resolveExport(record, name, visited) {
  if (record.kind !== "esm") return { dynamic: record, name };
  const key = record.key + "\0" + name;
  if (visited.has(key)) return null;
  visited.add(key);
  const analysis = record.analysis;
  for (const [exported] of analysis.locals) if (exported === name) return { record, name };
  for (const [exported, imported, index] of analysis.indirect) {
    if (exported !== name) continue;
    if (imported === "*") return { namespace: record.deps[index] };
    return resolveExport(record.deps[index], imported, visited);
  }
  if (name === "default") return null;
  for (const index of analysis.stars) {
    const dep = record.deps[index];
    if (dep.kind !== "esm") {
      if (dep.status === "evaluated" && dep.value != null && name in Object(dep.value)) return { dynamic: dep, name };
      continue;
    }
    const found = resolveExport(dep, name, visited);
    if (found !== null) return found;
  }
  return null;
}

/// The getter that reads a resolved export.
function getterFor(resolution) {
  if (resolution.record !== undefined) return resolution.record.getters[resolution.name];
  if (resolution.namespace !== undefined) {
    const target = resolution.namespace;
    return () => namespaceOf(target);
  }
  const { dynamic, name } = resolution;
  return name === "default" ? () => dynamic.value : () => dynamic.value?.[name];
}

function link(record) {
  const { bindings, requests } = record.analysis;
  for (const [imported, local, index] of bindings) {
    const dep = record.deps[index];
    let get;
    if (imported === "*") {
      get = () => namespaceOf(dep);
    } else {
      const resolution = resolveExport(dep, imported, new SafeSet());
      if (resolution === null) {
        const request = requests[index];
        const error = syntaxErrorAt(`The requested module '${request.specifier}' does not provide an export named ` +
          `'${imported}'`, record.filename, record.source, request.offset);
        internal.setHeaderLength(record.filename, 0);
        throw error;
      }
      get = getterFor(resolution);
    }
    ObjectDefineProperty(record.imports, local, { get, enumerable: true, configurable: false });
  }
}

/// Every export name of `record` (its own, re-exported, and from `export *` except `default`).
function exportNames(record, names, visited) {
  if (visited.has(record)) return;
  visited.add(record);
  if (record.kind !== "esm") {
    const value = record.value;
    if (value !== null && (typeof value === "object" || typeof value === "function")) {
      for (const key of ObjectKeys(value)) if (key !== "default") names.add(key);
    }
    return;
  }
  for (const [exported] of record.analysis.locals) names.add(exported);
  for (const [exported] of record.analysis.indirect) names.add(exported);
  for (const index of record.analysis.stars) {
    const inner = new SafeSet();
    exportNames(record.deps[index], inner, visited);
    for (const name of inner) if (name !== "default") names.add(name);
  }
}

/// The module namespace object: one live getter per export name, sorted, not extensible.
function namespaceOf(record) {
  if (record.namespace !== undefined) return record.namespace;
  const namespace = ObjectCreate(null);
  const names = [];
  if (record.kind === "esm") {
    const set = new SafeSet();
    exportNames(record, set, new SafeSet());
    for (const name of set) ArrayPrototypePush(names, name);
  } else {
    ArrayPrototypePush(names, "default");
    const value = record.value;
    if (value !== null && (typeof value === "object" || typeof value === "function")) {
      for (const key of ObjectKeys(value)) if (key !== "default") ArrayPrototypePush(names, key);
    }
  }
  ArrayPrototypeSort(names);
  for (const name of names) {
    const resolution = record.kind === "esm" ? resolveExport(record, name, new SafeSet()) : { dynamic: record, name };
    if (resolution === null) continue;
    ObjectDefineProperty(namespace, name, { get: getterFor(resolution), enumerable: true, configurable: false });
  }
  ObjectDefineProperty(namespace, SymbolToStringTag, { value: "Module" });
  ObjectPreventExtensions(namespace);
  // A CommonJS module's namespace is complete only once it ran.
  if (record.kind === "esm" || record.status === "evaluated") record.namespace = namespace;
  return namespace;
}

// MARK: - Evaluation

/// Evaluates `record` after its dependencies (post-order); returns a promise when it, or a dependency,
/// awaits (top-level await), else undefined. A module in a cycle that is already evaluating is skipped.
function evaluate(record) {
  switch (record.status) {
    case "evaluated":
    case "evaluating":
      return undefined;
    case "evaluating-async":
      return record.promise;
    case "errored":
      throw record.error;
  }
  record.status = "evaluating";
  let pending;
  try {
    for (const dep of record.deps) {
      const promise = evaluate(dep);
      if (promise !== undefined) ArrayPrototypePush(pending ??= [], promise);
    }
    if (pending === undefined && !record.isAsync) {
      run(record);
      record.status = "evaluated";
      return undefined;
    }
  } catch (error) {
    record.status = "errored";
    record.error = error;
    throw error;
  }
  record.status = "evaluating-async";
  // An async module whose dependencies are done starts at once (its body runs up to its first await).
  record.promise = pending === undefined ? run(record) : PromisePrototypeThen(PromiseAll(pending), () => run(record));
  PromisePrototypeThen(record.promise, () => {
    record.status = "evaluated";
  }, (error) => {
    record.status = "errored";
    record.error = error;
  });
  return record.promise;
}

/// Runs one module's body (a promise for an async ES module).
function run(record) {
  switch (record.kind) {
    case "esm": {
      const generator = record.generator;
      record.generator = undefined;
      const step = generator.next();
      return record.isAsync ? PromisePrototypeThen(step, () => undefined) : undefined;
    }
    case "cjs":
      record.value = internal.loadCommonJS(record.filename, null);
      return undefined;
    case "json":
      try {
        record.value = JSONParse(internal.readFile(record.filename));
      } catch (error) {
        error.message = record.filename + ": " + error.message;
        throw error;
      }
      return undefined;
  }
  return undefined;
}

// MARK: - Entry points

/// `file:line:column` of the script code calling into the runtime (from a stack trace), else `fallback`.
function callerPosition(fallback) {
  // The engine's own constructor and text (`fn@file:line:column`), all frames: the global `Error` may be
  // node-errors.js's, whose stack is Node's text limited to Error.stackTraceLimit frames.
  const EngineError = internal.primordials.Error;
  const limit = EngineError.stackTraceLimit;
  EngineError.stackTraceLimit = 100;
  let stack;
  try {
    stack = new EngineError().stack;
  } finally {
    EngineError.stackTraceLimit = limit;
  }
  if (typeof stack !== "string") return fallback;
  for (const line of StringPrototypeSplit(stack, "\n")) {
    const at = StringPrototypeIndexOf(line, "@");
    const location = StringPrototypeSlice(line, at + 1);
    if (at === -1 || StringPrototypeStartsWith(location, "jsbridge:") || location === "[native code]") continue;
    return RegExpPrototypeTest(/:\d+:\d+$/, location) ? internal.sourcePosition(location) : fallback;
  }
  return fallback;
}

let mainRecord;
let evalCount = 0;

/// `import(specifier, options)` from the module (or CommonJS file) `filename`: a promise of the namespace.
function importFrom(specifier, options, filename) {
  const where = callerPosition(filename);
  return new Promise((resolvePromise, reject) => {
    let type;
    if (options !== undefined && options !== null) {
      const attributes = options.with ?? options.assert;
      if (attributes !== undefined && attributes !== null) type = attributes.type;
    }
    const record = recordFor(resolve(String(specifier), filename, where), type, where);
    const ready = record.status === "new" ? loadGraph(record, undefined) : undefined;
    const finish = () => {
      const promise = evaluate(record);
      if (promise === undefined) resolvePromise(namespaceOf(record));
      else PromisePrototypeThen(promise, () => resolvePromise(namespaceOf(record)), reject);
    };
    if (ready === undefined) finish();
    else PromisePrototypeThen(ready, () => {
      try {
        finish();
      } catch (error) {
        reject(error);
      }
    }, reject);
  });
}

/// As Node: when nothing is left to run but the main module is still awaiting (a promise that can never
/// settle), the process warns and exits with code 13 rather than ending as if it had finished.
function warnIfUnsettled(record) {
  globalThis.process.on("exit", (code) => {
    if (code !== 0 || record.status !== "evaluating-async") return;
    internal.print(2, `Warning: Detected unsettled top-level await in ${record.filename}\n`);
    globalThis.process.exitCode = 13;
  });
}

function runRoot(record, source) {
  mainRecord = record;
  const ready = loadGraph(record, source);
  const report = (error) => internal.reportUncaught(error, "exception");
  const start = () => {
    const promise = evaluate(record);
    if (promise === undefined) return;
    PromisePrototypeThen(promise, undefined, report);
    warnIfUnsettled(record);
  };
  if (ready === undefined) start();
  else PromisePrototypeThen(ready, () => {
    try {
      start();
    } catch (error) {
      report(error);
    }
  }, report);
}

/// The runtime's ES module entry points (module.js calls them).
internal.esm = {
  runMainFile(path) {
    const record = new ModuleRecord(path, path, "esm");
    registry.set(path, record);
    runRoot(record, undefined);
  },
  runMainEval(code) {
    const filename = internal.cwd() + `/[eval${++evalCount}]`;
    const record = new ModuleRecord(filename, filename, "esm");
    registry.set(filename, record);
    runRoot(record, code);
  },
  importFrom,
  /// `require()` of an ES module: its namespace, when it evaluates without awaiting.
  requireModule(path, parent) {
    let record = registry.get(path);
    if (record === undefined) {
      record = new ModuleRecord(path, path, "esm");
      registry.set(path, record);
    }
    const ready = record.status === "new" ? loadGraph(record, undefined) : undefined;
    const promise = ready ?? evaluate(record);
    if (promise !== undefined) {
      throw codedError(Error, `require() cannot load ${path}` + (parent ? ` (from ${parent})` : "") +
        ": it (or a module it imports) uses top-level await; use import() instead", "ERR_REQUIRE_ASYNC_MODULE");
    }
    return namespaceOf(record);
  },
  hasModuleSyntax(source) {
    try {
      const analysis = analyze(source, "");
      // Called after the source failed to compile as CommonJS: `await` there means top-level await.
      return analysis.moduleSyntax || analysis.hasAwait;
    } catch {
      return false;
    }
  },
  rewriteDynamicImports(source) {
    try {
      return analyze(source, "", true).body;
    } catch {
      return source; // the engine reports the syntax error itself
    }
  },
  /// The scanner, for repl.js (its top-level await rewrite).
  tokenize,
};
