// The Node built-in modules (`node:path`, `node:events`, ...): `internal.nodeBuiltin(name)` answers a module's
// exports, built on first use from its own runtime file and cached; names this file does not provide fall
// back to a plugin's module `node:<name>` (a FileSystem plugin provides `node:fs`). Also the Node-style
// errors the modules throw (`internal.nodeErrors`), with Node's codes and wording.

const {
  ArrayIsArray, ArrayPrototypeJoin, MathAbs, MethodIncludes, MethodSlice, ObjectCreate, ObjectFreeze, RangeError,
  RegExpPrototypeTest, String, TypeError,
} = internal.primordials;

// name -> the runtime file that defines it (the file stores its exports with `internal.nodeExport`).
const files = ObjectCreate(null);
for (const [file, names] of [
  ["node-path.js", ["path", "path/posix", "path/win32"]],
  ["node-events.js", ["events"]],
  ["node-util.js", ["util", "util/types"]],
  ["node-os.js", ["os", "tty", "constants"]],
  ["node-buffer.js", ["buffer"]],
  ["node-timers.js", ["timers", "timers/promises"]],
  ["node-assert.js", ["assert", "assert/strict"]],
  ["node-url.js", ["url", "querystring", "punycode"]],
  ["node-string-decoder.js", ["string_decoder"]],
  ["node-crypto.js", ["crypto"]],
  ["node-process.js", ["process"]],
  ["node-stream.js", ["stream", "stream/promises", "stream/consumers", "stream/web"]],
  ["node-async.js", ["async_hooks", "diagnostics_channel", "perf_hooks", "console"]],
  ["node-readline.js", ["readline", "readline/promises"]],
  ["node-zlib.js", ["zlib"]],
  ["node-child-process.js", ["child_process"]],
  ["node-vm.js", ["vm"]],
  ["node-http.js", ["http", "https"]],
  ["node-net.js", ["net"]],
  ["node-dns.js", ["dns", "dns/promises"]],
]) {
  for (const name of names) files[name] = file;
}

const cache = ObjectCreate(null);

/// Stores built-in `name`'s exports (called by the module files as they run).
internal.nodeExport = function (name, exports) {
  cache[name] = exports;
};

/// The exports of Node built-in `name` (without `node:`), or undefined when there is none.
internal.nodeBuiltin = function (name) {
  const cached = cache[name];
  if (cached !== undefined) return cached;
  if (name === "sys") {
    // Node's old name of `util`, deprecated (DEP0025).
    process.emitWarning("sys is deprecated. Use util instead.", "DeprecationWarning", "DEP0025");
    return cache.sys = internal.nodeBuiltin("util");
  }
  const file = files[name];
  if (file !== undefined) {
    internal.load(file);
    return cache[name];
  }
  return typeof name === "string" ? internal.pluginModule("node:" + name) : undefined;
};

// MARK: - Node-style errors

function describeReceived(value) {
  if (value === null || value === undefined) return ` Received ${value}`;
  if (typeof value === "function") return ` Received function ${value.name || "<anonymous>"}`;
  if (typeof value === "object") {
    const name = value.constructor?.name;
    return name ? ` Received an instance of ${name}` : ` Received ${internal.inspect(value, { depth: -1 })}`;
  }
  let shown = internal.inspect(value, { colors: false });
  if (shown.length > 28) shown = MethodSlice(shown, 0, 25) + "...";
  return ` Received type ${typeof value} (${shown})`;
}

/// "a", "a or b", "a, b, or c" (Node's wording of alternatives).
function joinWithOr(items) {
  if (items.length <= 2) return ArrayPrototypeJoin(items, " or ");
  return `${ArrayPrototypeJoin(MethodSlice(items, 0, -1), ", ")}, or ${items[items.length - 1]}`;
}

function withCode(error, code) {
  error.code = code;
  // Node's stack for its coded errors: `TypeError [ERR_X]: message`, then the frames.
  return internal.nodeStack(error, code);
}

/// Node's ERR_* errors, worded as Node words them.
internal.nodeErrors = ObjectFreeze({
  /// `The "name" argument must be of type X. Received ...` (`expected`: "string", "function", "an instance of Y"...).
  invalidArgType(name, expected, actual) {
    const list = ArrayIsArray(expected) ? expected : [expected];
    const types = [], instances = [];
    for (const item of list) (RegExpPrototypeTest(/^[a-z]/, item) ? types : instances).push(item);
    let text = "";
    // Node's wording: "of type a", "one of type a or b", "one of type a, b, or c".
    if (types.length > 0) text += `${types.length > 1 ? "one of type" : "of type"} ${joinWithOr(types)}`;
    if (instances.length > 0) text += `${text ? " or " : ""}an instance of ${joinWithOr(instances)}`;
    const what = MethodIncludes(name, ".") ? `The "${name}" property` : `The "${name}" argument`;
    return withCode(new TypeError(`${what} must be ${text}.${describeReceived(actual)}`), "ERR_INVALID_ARG_TYPE");
  },
  /// `The argument 'name' is invalid. Received ...` (`reason` replaces "is invalid").
  invalidArgValue(name, value, reason = "is invalid") {
    const kind = MethodIncludes(name, ".") ? "property" : "argument";
    return withCode(
      new TypeError(`The ${kind} '${name}' ${reason}. Received ${internal.inspect(value)}`), "ERR_INVALID_ARG_VALUE");
  },
  /// `The value of "name" is out of range. It must be RANGE. Received VALUE`.
  outOfRange(name, range, value) {
    const shown = typeof value === "number" && MathAbs(value) >= 2 ** 32
      ? String(value) : typeof value === "bigint" ? `${value}n` : internal.inspect(value);
    return withCode(new RangeError(`The value of "${name}" is out of range. It must be ${range}. Received ${shown}`),
      "ERR_OUT_OF_RANGE");
  },
  /// An error with `code` and `message`, of class `Kind` (Error, TypeError, RangeError).
  make(Kind, code, message) {
    return withCode(new Kind(message), code);
  },
  /// Throws ERR_INVALID_ARG_TYPE unless `value` is a string.
  checkString(value, name) {
    if (typeof value !== "string") throw internal.nodeErrors.invalidArgType(name, "string", value);
  },
  /// Throws ERR_INVALID_ARG_TYPE unless `value` is a function.
  checkFunction(value, name) {
    if (typeof value !== "function") throw internal.nodeErrors.invalidArgType(name, "function", value);
  },
});
