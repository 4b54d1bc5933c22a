// CommonJS modules: `require` for relative `.js` / `.json` files (and directories with index.js),
// with a cache and Node's cycle semantics (a module required during its own load sees its partial exports).

const cache = Object.create(null);
const wrapperParams = ["exports", "require", "module", "__filename", "__dirname"];
// Modules compile as `(function (<params>) {<source>`: columns on line 1 include the header.
const wrapperHeaderLength = `(function (${wrapperParams.join(", ")}) {`.length;

/// Maps a `file:line:column` position in compiled module code to the position in the source file.
internal.sourcePosition = function (position) {
  const match = /^(.*):1:(\d+)$/.exec(position);
  if (match === null || match[1].startsWith("jsbridge:")) return position;
  return `${match[1]}:1:${Math.max(1, Number(match[2]) - wrapperHeaderLength)}`;
};

function normalize(path) {
  const parts = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return "/" + parts.join("/");
}

function dirname(path) {
  const index = path.lastIndexOf("/");
  return index <= 0 ? "/" : path.slice(0, index);
}

function notFound(request, parent) {
  const error = new Error(`Cannot find module '${request}'` + (parent ? `\nRequire stack:\n- ${parent}` : ""));
  error.code = "MODULE_NOT_FOUND";
  return error;
}

function resolveFilename(request, fromDirectory, parent) {
  if (typeof request !== "string" || request === "") {
    const error = new TypeError(`The "id" argument must be a non-empty string. Received ${internal.inspect(request)}`);
    error.code = "ERR_INVALID_ARG_VALUE";
    throw error;
  }
  const relative = request.startsWith("./") || request.startsWith("../") || request === "." || request === "..";
  if (!relative && !request.startsWith("/")) {
    const error = notFound(request, parent);
    error.message += "\n(jsbridge supports relative and absolute paths only; there is no node_modules lookup)";
    throw error;
  }
  const base = normalize(request.startsWith("/") ? request : fromDirectory + "/" + request);
  const candidates = [base, base + ".js", base + ".json", base + "/index.js", base + "/index.json"];
  for (const candidate of candidates) {
    if (internal.stat(candidate) === 1) return internal.realpath(candidate);
  }
  throw notFound(request, parent);
}

/// A plugin's module (`require("jsbridge:<name>")`).
function pluginModule(request, parent) {
  const exports = internal.pluginModule(request.slice("jsbridge:".length));
  if (exports === undefined) throw notFound(request, parent);
  return exports;
}

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
    if (typeof request === "string" && request.startsWith("jsbridge:")) return pluginModule(request, this.filename);
    if (typeof request === "string" && request[0] !== "." && request[0] !== "/") {
      const builtin = internal.nodeBuiltin(request.startsWith("node:") ? request.slice(5) : request);
      if (builtin !== undefined) return builtin;
      if (request.startsWith("node:")) throw Object.assign(new TypeError(`No such built-in module: ${request}`), { code: "ERR_UNKNOWN_BUILTIN_MODULE" });
    }
    return loadModule(resolveFilename(request, this.path, this.filename), this);
  }
}

function makeRequire(module) {
  const require = (request) => module.require(request);
  require.resolve = (request) => resolveFilename(request, module.path, module.filename);
  require.cache = cache;
  require.main = mainModule;
  return require;
}

function stripShebang(source) {
  return source.startsWith("#!") ? "//" + source.slice(2) : source;
}

function evaluate(module, source) {
  const fn = internal.compile(stripShebang(source), module.filename, ...wrapperParams);
  fn.call(module.exports, module.exports, makeRequire(module), module, module.filename, module.path);
}

function loadModule(filename, parent) {
  const cached = cache[filename];
  if (cached !== undefined) return cached.exports;
  const module = new Module(filename, parent);
  if (parent) parent.children.push(module);
  cache[filename] = module;
  try {
    const source = internal.readFile(filename);
    if (filename.endsWith(".json")) {
      try {
        module.exports = JSON.parse(source);
      } catch (error) {
        error.message = filename + ": " + error.message;
        throw error;
      }
    } else {
      evaluate(module, source);
    }
  } catch (error) {
    delete cache[filename];
    throw error;
  }
  module.loaded = true;
  return module.exports;
}

let mainModule;

/// Runs the main script (`kind` "file" with an absolute path, or "eval" with code).
internal.runMain = function (kind, text) {
  if (kind === "eval") {
    mainModule = new Module(internal.cwd() + "/[eval]", null);
    mainModule.filename = "[eval]";
    mainModule.id = "[eval]";
    cache["[eval]"] = mainModule;
    const fn = internal.compile(text, "[eval]", ...wrapperParams);
    fn.call(mainModule.exports, mainModule.exports, makeRequire(mainModule), mainModule, "[eval]", mainModule.path);
  } else {
    mainModule = new Module(text, null);
    mainModule.id = ".";
    process.argv.splice(1, 0, text);
    cache[text] = mainModule;
    evaluate(mainModule, internal.readFile(text));
  }
  mainModule.loaded = true;
};

internal.defineGlobal("require", (request) => {
  const from = mainModule ?? new Module(internal.cwd() + "/[global]", null);
  return from.require(request);
});
