// `node:vm`: `runInThisContext`, `createContext`/`isContext`, `runInContext`, `runInNewContext`, `Script`
// (`runInThisContext`, `runInContext`, `runInNewContext`, `createCachedData`), `compileFunction`, following
// Node's documented behaviour: a context is a separate JavaScriptCore global object with its own built-ins
// (no `process`, `require` or `console`, as in Node), whose global names are the contextified object's
// properties: reading one reads the object, assigning or declaring one (`x = 1`, `var x`, `function f`) sets
// it. Code runs as a script of that realm with its `filename` and `lineOffset` in stack traces. Written for
// jsbridge from Node's documentation; the `timeout`, `breakOnSigint` and `microtaskMode` options are accepted and
// not enforced, and `measureMemory` is absent.

const {
  ArrayIsArray, ArrayPrototypeJoin, Error, FunctionPrototypeCall, MethodReplace, NumberIsInteger, ObjectCreate,
  ObjectFreeze, SafeWeakMap, TypeError, Uint8Array,
} = internal.primordials;
const { invalidArgType, make, outOfRange } = internal.nodeErrors;
const { Buffer } = internal.nodeBuiltin("buffer");
const { vmCheckSyntax, vmCreateContext, vmRun } = internal;

// contextified object -> its context's global object (an ephemeron: the context lives as long as the object).
const contexts = new SafeWeakMap();

function checkObject(value, name) {
  if (value === null || typeof value !== "object") throw invalidArgType(name, "object", value);
}

function checkOptions(options, name = "options") {
  if (options === undefined) return {};
  if (typeof options === "string") return { filename: options };
  checkObject(options, name);
  return options;
}

/// The file name and first line (1-based) a script's options give it.
/** @returns {[string, number]} */
function origin(options, fallback) {
  const filename = options.filename ?? fallback;
  if (typeof filename !== "string") throw invalidArgType("options.filename", "string", filename);
  const lineOffset = options.lineOffset ?? 0;
  if (typeof lineOffset !== "number") throw invalidArgType("options.lineOffset", "number", lineOffset);
  if (!NumberIsInteger(lineOffset)) throw outOfRange("options.lineOffset", "an integer", lineOffset);
  return [filename, lineOffset + 1];
}

function isContext(object) {
  checkObject(object, "object");
  return contexts.has(object);
}

function createContext(contextObject = {}, options) {
  if (contextObject !== undefined && contextObject !== null && typeof contextObject === "object" &&
    contexts.has(contextObject)) {
    return contextObject;
  }
  checkObject(contextObject, "object");
  if (options !== undefined) checkObject(options, "options");
  contexts.set(contextObject, vmCreateContext(contextObject));
  return contextObject;
}

function globalOf(contextifiedObject) {
  const global = contextifiedObject !== null && typeof contextifiedObject === "object"
    ? contexts.get(contextifiedObject) : undefined;
  if (global === undefined) {
    // Node's wording for this one: "must be an vm.Context".
    const error = invalidArgType("contextifiedObject", "vm.Context", contextifiedObject);
    error.message = MethodReplace(error.message, "of type vm.Context", "an vm.Context");
    throw error;
  }
  return global;
}

const kSource = Symbol("kSource");

/** @type {any} */
const Script = function Script(code, options) {
  if (!(this instanceof Script)) throw new TypeError("Class constructor Script cannot be invoked without 'new'");
  code = `${code}`;
  options = checkOptions(options);
  const [filename, line] = origin(options, "evalmachine.<anonymous>");
  if (options.cachedData !== undefined && !(options.cachedData instanceof Uint8Array)) {
    throw invalidArgType("options.cachedData", ["Buffer", "TypedArray", "DataView"], options.cachedData);
  }
  // Compiled once here for its syntax errors; JavaScriptCore's C API compiles again at each run.
  vmCheckSyntax(code, filename, line);
  this[kSource] = { code, filename, line };
  if (options.cachedData !== undefined) this.cachedDataRejected = true;
  if (options.produceCachedData) {
    this.cachedDataProduced = false;
    this.cachedData = Buffer.alloc(0);
  }
};

Script.prototype.runInThisContext = function (options) {
  if (options !== undefined) checkObject(options, "options");
  const { code, filename, line } = this[kSource];
  return vmRun(undefined, code, filename, line);
};

Script.prototype.runInContext = function (contextifiedObject, options) {
  const global = globalOf(contextifiedObject);
  if (options !== undefined) checkObject(options, "options");
  const { code, filename, line } = this[kSource];
  return vmRun(global, code, filename, line);
};

Script.prototype.runInNewContext = function (contextObject, options) {
  const context = createContext(contextObject === undefined ? {} : contextObject);
  return FunctionPrototypeCall(Script.prototype.runInContext, this, context, options);
};

/// No code cache: JavaScriptCore's C API has none to give.
Script.prototype.createCachedData = function () {
  return Buffer.alloc(0);
};

function createScript(code, options) {
  return new Script(code, options);
}

function runInThisContext(code, options) {
  return new Script(code, options).runInThisContext(options);
}

function runInContext(code, contextifiedObject, options) {
  options = checkOptions(options);
  globalOf(contextifiedObject);
  return new Script(code, options).runInContext(contextifiedObject, options);
}

function runInNewContext(code, contextObject, options) {
  options = checkOptions(options);
  return new Script(code, options).runInNewContext(contextObject, options);
}

/// A function of `params` whose body is `code`, compiled in `parsingContext`'s realm (or this one), with the
/// properties of the objects in `contextExtensions` in its scope.
function compileFunction(code, params = [], options = {}) {
  if (typeof code !== "string") throw invalidArgType("code", "string", code);
  if (!ArrayIsArray(params)) throw invalidArgType("params", "Array", params);
  for (let i = 0; i < params.length; i++) {
    if (typeof params[i] !== "string") throw invalidArgType(`params[${i}]`, "string", params[i]);
  }
  checkObject(options, "options");
  const [filename, line] = origin(options, "");
  const global = options.parsingContext === undefined ? undefined : globalOf(options.parsingContext);
  const extensions = options.contextExtensions ?? [];
  if (!ArrayIsArray(extensions)) throw invalidArgType("options.contextExtensions", "Array", extensions);
  // The wrapper keeps the body on the first line (so its line numbers are the file's); the extensions are
  // reached with `with`, which sloppy-mode scripts allow.
  let source = `(function (${ArrayPrototypeJoin(params, ", ")}) {${code}\n})`;
  for (let i = extensions.length - 1; i >= 0; i--) {
    checkObject(extensions[i], `options.contextExtensions[${i}]`);
    source = `(function (scope) { with (scope) return ${source}; })`;
  }
  /** @type {any} */
  let fn = vmRun(global, source, filename, line);
  for (const scope of extensions) fn = fn(scope);
  return fn;
}

function measureMemory() {
  throw make(Error, "ERR_NOT_IMPLEMENTED", "vm.measureMemory is not implemented in jsbridge.");
}

const constants = ObjectCreate(null);
constants.USE_MAIN_CONTEXT_DEFAULT_LOADER = Symbol("vm_dynamic_import_main_context_default");
constants.DONT_CONTEXTIFY = Symbol("vm_context_no_contextify");
ObjectFreeze(constants);

internal.nodeExport("vm", {
  Script, createContext, createScript, runInContext, runInNewContext, runInThisContext, isContext,
  compileFunction, measureMemory, constants,
});
