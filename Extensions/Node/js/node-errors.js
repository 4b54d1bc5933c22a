// Node's error shapes over JavaScriptCore's: `err.stack` as Node prints it (`Name: message`, then `    at ...`
// frames), `Error.captureStackTrace(object, fn)`, `Error.prepareStackTrace(error, callSites)` with V8-style
// call-site objects, and `Error.stackTraceLimit` (10, as in Node). Lazy: the first read of a global error
// constructor runs this file, which replaces the globals `Error`, `TypeError`, ... with proxies of the engine's
// own constructors. The proxies construct the engine's errors (so `instanceof`, subclassing and the errors the
// engine throws agree) and give each a `stack` accessor that formats JavaScriptCore's frames
// (`fn@file:line:column`) on first read. Errors the engine itself throws (`null.x`) keep JavaScriptCore's text.

const {
  ArrayPrototypeJoin, ArrayPrototypeMap, ArrayPrototypePush, ArrayPrototypeSlice, FunctionPrototypeCall,
  MethodIndexOf, MethodIncludes, MethodSlice, MethodSplit, MethodStartsWith, NumberIsInteger, ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor, ObjectHasOwn, Proxy, ReflectConstruct, RegExpPrototypeExec, String,
} = internal.primordials;
const P = internal.primordials;
const BaseError = P.Error;

// Node's default: ten frames. A script may change it (`Error.stackTraceLimit = 50`, or Infinity).
BaseError.stackTraceLimit = 10;
// Frames of this file (the proxy's trap, Reflect.construct, a subclass's constructors) that the engine counts.
const extraFrames = 6;

/// `Name: message` from the object's current `name` and `message` (Error.prototype.toString's rule).
function header(object, code) {
  let name = "Error", message = "";
  try {
    if (object !== null && (typeof object === "object" || typeof object === "function")) {
      if (object.name !== undefined) name = String(object.name);
      if (object.message !== undefined) message = String(object.message);
    }
  } catch {}
  // Node's coded errors show their code, unless the error was renamed (AbortError).
  if (code !== undefined && !ObjectHasOwn(object, "name")) name += ` [${code}]`;
  if (name === "") return message;
  return message === "" ? name : `${name}: ${message}`;
}

/// One parsed JavaScriptCore frame (`fn@file:line:column`, `fn@[native code]`, `global code@file:1:1`).
function parseFrame(line) {
  let at = MethodIndexOf(line, "@");
  let name = at <= 0 ? "" : MethodSlice(line, 0, at);
  if (MethodIncludes(name, "/")) {
    name = "";
    at = -1;
  }
  const raw = MethodSlice(line, at + 1);
  let location = raw;
  if (location !== "[native code]" && internal.sourcePosition !== undefined) {
    location = internal.sourcePosition(location);
  }
  const frame = {
    name, file: undefined, line: null, column: null, native: false, eval: false, toplevel: false, raw,
  };
  if (name === "global code" || name === "module code") {
    frame.name = "";
    frame.toplevel = true;
  } else if (name === "eval code") {
    frame.name = "";
    frame.eval = true;
  } else if (name === "") {
    frame.toplevel = true;
  }
  if (location === "[native code]") {
    frame.native = true;
    return frame;
  }
  const match = RegExpPrototypeExec(/^(.*):(\d+):(\d+)$/, location);
  if (match === null) {
    frame.file = location;
  } else {
    frame.file = match[1];
    frame.line = Number(match[2]);
    frame.column = Number(match[3]);
  }
  return frame;
}

/// The frames of JavaScriptCore stack text, the runtime's own left out; `skipThrough` drops every frame up to
/// and including the topmost one named so (V8 drops the frames above `new.target`, or above captureStackTrace's
/// `fn`), and when no frame has that name, all of them (`dropAllIfMissing`) or none.
function framesOf(raw, skipThrough, dropAllIfMissing, limit = BaseError.stackTraceLimit) {
  const frames = [];
  if (typeof raw !== "string") return frames;
  for (const line of MethodSplit(raw, "\n")) {
    if (line === "" || MethodIncludes(line, "@jsbridge:internal/")) continue;
    ArrayPrototypePush(frames, parseFrame(line));
  }
  // Reflect.construct and other natives between this file's frames and the caller's.
  let start = 0;
  while (start < frames.length && frames[start].native) start++;
  if (skipThrough !== undefined && skipThrough !== "") {
    let found = -1;
    for (let i = start; i < frames.length; i++) {
      if (frames[i].name === skipThrough) {
        found = i;
        break;
      }
    }
    if (found >= 0) start = found + 1;
    else if (dropAllIfMissing) start = frames.length;
  }
  const count = typeof limit === "number" && limit >= 0 ? limit : 0;
  return ArrayPrototypeSlice(frames, start, start + count);
}

// MARK: - Call sites (V8's stack-trace API)

class CallSite {
  #frame;
  constructor(frame) {
    this.#frame = frame;
  }
  getThis() { return undefined; }
  getTypeName() { return null; }
  getFunction() { return undefined; }
  getFunctionName() { return this.#frame.name === "" ? null : this.#frame.name; }
  getMethodName() { return null; }
  getFileName() { return this.#frame.file; }
  getScriptNameOrSourceURL() { return this.#frame.file; }
  getLineNumber() { return this.#frame.line; }
  getColumnNumber() { return this.#frame.column; }
  getEnclosingLineNumber() { return null; }
  getEnclosingColumnNumber() { return null; }
  getEvalOrigin() { return undefined; }
  getPosition() { return 0; }
  getPromiseIndex() { return null; }
  getScriptHash() { return ""; }
  // V8 answers whether the receiver was the global object or undefined; JavaScriptCore's frames do not say, and
  // a plain function call is the common case.
  isToplevel() { return true; }
  isEval() { return this.#frame.eval; }
  isNative() { return false; }
  isConstructor() { return false; }
  isAsync() { return false; }
  isPromiseAll() { return false; }
  toString() {
    const frame = this.#frame;
    const where = frame.native ? "native" : frame.line === null ? String(frame.file)
      : `${frame.file}:${frame.line}:${frame.column}`;
    if (frame.eval) return `eval (${where})`;
    return frame.name === "" ? where : `${frame.name} (${where})`;
  }
}

/// The default `Error.prepareStackTrace` (Node 20 has one): Node's text for `error` and its call sites.
function prepareStackTrace(error, callSites, code) {
  let text = header(error, code);
  for (const site of callSites) text += "\n    at " + site.toString();
  return text;
}

/// The stack text of `target` from `frames`: through `Error.prepareStackTrace` when a script set one.
function render(target, frames, code) {
  const prepare = BaseError.prepareStackTrace;
  const sites = ArrayPrototypeMap(frames, (frame) => new CallSite(frame));
  if (typeof prepare === "function" && prepare !== prepareStackTrace) {
    return FunctionPrototypeCall(prepare, BaseError, target, sites);
  }
  return prepareStackTrace(target, sites, code);
}

/// Gives `target` a `stack` that renders `frames` on its first read (as V8's, whose header reads the error's
/// name and message then); assigning `stack` replaces it.
/// `frames` is the list, or a function that parses it (on the first read).
function installStack(target, frames, code) {
  let value, rendered = false;
  ObjectDefineProperty(target, "stack", {
    configurable: true,
    enumerable: false,
    get() {
      if (!rendered) {
        rendered = true;
        value = render(target, typeof frames === "function" ? frames() : frames, code);
      }
      return value;
    },
    set(next) {
      rendered = true;
      value = next;
    },
  });
}

/// Raises the engine's frame limit by this file's own frames while `body` runs.
function withRoomForOwnFrames(body) {
  const limit = BaseError.stackTraceLimit;
  const finite = typeof limit === "number" && NumberIsInteger(limit) && limit >= 0;
  if (finite) BaseError.stackTraceLimit = limit + extraFrames;
  try {
    return body();
  } finally {
    if (finite) BaseError.stackTraceLimit = limit;
  }
}

/// Node-style `stack` for an error the runtime made (JavaScriptCore's stack text read now, formatted later);
/// `code` goes in the header as Node's coded errors have it (`TypeError [ERR_X]: message`).
function nodeStack(error, code) {
  const descriptor = ObjectGetOwnPropertyDescriptor(error, "stack");
  if (descriptor === undefined || typeof descriptor.value !== "string") return error;
  installStack(error, framesOf(descriptor.value, undefined, false), code);
  return error;
}
internal.nodeStack = nodeStack;

/// `Error.captureStackTrace(object, fn)`: `object.stack` from the current frames, those above (and including)
/// the topmost call of `fn` left out.
function captureStackTrace(object, fn) {
  if (object === null || (typeof object !== "object" && typeof object !== "function")) {
    throw new P.TypeError("invalid_argument");
  }
  const raw = withRoomForOwnFrames(() => new BaseError().stack);
  const frames = typeof fn === "function" ? framesOf(raw, fn.name, true) : framesOf(raw, undefined, false);
  installStack(object, frames);
}

// MARK: - The global constructors

/// Gives `error` the engine's `sourceURL`, `line` and `column` of its first frame outside this file (the
/// engine set them to this file's trap), as uncaught-error reports read them.
function locate(error, raw) {
  let start = 0, first;
  while (start < raw.length) {
    let end = MethodIndexOf(raw, "\n", start);
    if (end === -1) end = raw.length;
    const line = MethodSlice(raw, start, end);
    start = end + 1;
    if (line === "" || MethodIncludes(line, "@jsbridge:internal/")) continue;
    if (MethodIncludes(line, "@[native code]")) continue;
    first = line;
    break;
  }
  if (first === undefined) return;
  const at = MethodIndexOf(first, "@");
  const match = RegExpPrototypeExec(/^(.*):(\d+):(\d+)$/, at === -1 || MethodIncludes(MethodSlice(first, 0, at), "/")
    ? first : MethodSlice(first, at + 1));
  if (match === null) return;
  for (const [key, value] of [["sourceURL", match[1]], ["line", Number(match[2])], ["column", Number(match[3])]]) {
    ObjectDefineProperty(error, key, { value, writable: true, configurable: true, enumerable: false });
  }
}

/// Node's `stack` for an error the proxy made; `skipThrough` names a subclass whose frames V8 leaves out.
function adopt(error, skipThrough) {
  const descriptor = ObjectGetOwnPropertyDescriptor(error, "stack");
  if (descriptor === undefined || typeof descriptor.value !== "string") return;
  const raw = descriptor.value;
  const limit = BaseError.stackTraceLimit;
  locate(error, raw);
  installStack(error, () => framesOf(raw, skipThrough, false, limit));
}

/// A proxy of engine constructor `Base` whose errors get Node's `stack`.
function nodeErrorConstructor(Base) {
  const proxy = new Proxy(Base, {
    construct(target, args, newTarget) {
      const subclass = newTarget !== proxy && newTarget !== target;
      const error = withRoomForOwnFrames(() => ReflectConstruct(target, args, subclass ? newTarget : target));
      adopt(error, subclass ? newTarget.name : undefined);
      return error;
    },
    apply(target, self, args) {
      const error = withRoomForOwnFrames(() => ReflectConstruct(target, args, target));
      adopt(error, undefined);
      return error;
    },
  });
  Base.prototype.constructor = proxy;
  // A proxy prints as `function ProxyObject()`: the constructor keeps its own text.
  const text = `function ${Base.name}() { [native code] }`;
  ObjectDefineProperty(Base, "toString", {
    value: function toString() { return text; }, writable: true, configurable: true, enumerable: false,
  });
  internal.defineGlobal(Base.name, proxy);
  return proxy;
}

for (const [name, value] of [["captureStackTrace", captureStackTrace], ["prepareStackTrace", prepareStackTrace]]) {
  ObjectDefineProperty(BaseError, name, { value, writable: true, configurable: true, enumerable: false });
}
for (const Base of [BaseError, P.TypeError, P.RangeError, P.SyntaxError, P.ReferenceError, P.EvalError, P.URIError]) {
  nodeErrorConstructor(Base);
}
