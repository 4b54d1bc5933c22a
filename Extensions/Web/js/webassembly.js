// webassembly.js - the promise-returning half of the WebAssembly JavaScript API and its Web API:
// `compile`, `instantiate`, `compileStreaming` and `instantiateStreaming`.
//
// JavaScriptCore's own `compile` and `instantiate` settle through its run loop, which this runtime's event loop
// does not turn: they would never settle. These run on the synchronous `Module` and `Instance` constructors.
// Compiling happens during the call (the bytes are read then, as the spec's copy of them is taken then);
// instantiating, which runs the module's start function and may call imported JavaScript, happens in a later
// microtask, as the spec's "queue a task" keeps it out of the caller's turn. Every failure is a rejection.

const {
  FunctionPrototypeCall, ObjectDefineProperty, ObjectPrototypeToString, PromisePrototypeThen, PromiseReject,
  PromiseResolve, StringPrototypeToLowerCase, StringPrototypeTrim, TypeError, WebAssembly,
} = internal.primordials;
const { Instance, Module } = WebAssembly;

/// A settled promise of `run()`'s value, or of its exception as a rejection.
function attempt(run) {
  try {
    return PromiseResolve(run());
  } catch (error) {
    return PromiseReject(error);
  }
}

/// Instantiates `module` with `imports` in a later microtask.
function instantiateLater(module, imports) {
  return PromisePrototypeThen(PromiseResolve(), () => new Instance(module, imports));
}

/// `WebAssembly.compile(bytes)`: a promise of a `Module`.
function compile(bytes) {
  return attempt(() => new Module(bytes));
}

/// `WebAssembly.instantiate(bytes, imports)`: a promise of `{module, instance}`;
/// `WebAssembly.instantiate(module, imports)`: a promise of an `Instance`.
function instantiate(source, imports = undefined) {
  // A module, by its class string (an impostor reaches `Instance`, which throws a TypeError).
  if (ObjectPrototypeToString(source) === "[object WebAssembly.Module]") return instantiateLater(source, imports);
  return PromisePrototypeThen(compile(source), (module) =>
    PromisePrototypeThen(instantiateLater(module, imports), (instance) => ({ module, instance })));
}

/// The bytes of a `Response` for streaming compilation, after the Web API's checks: a Response, with the MIME
/// type `application/wasm` and an ok status, whose body was not used.
function responseBytes(response) {
  if (response === null || typeof response !== "object" || ObjectPrototypeToString(response) !== "[object Response]") {
    throw new TypeError("WebAssembly: the source must be a Response or a promise of one.");
  }
  const type = response.headers.get("content-type");
  if (type === null) throw new TypeError("WebAssembly: the response has no Content-Type; it must be 'application/wasm'.");
  // Byte-case-insensitive, around spaces and tabs, and without parameters, as the Web API says.
  if (StringPrototypeToLowerCase(StringPrototypeTrim(type)) !== "application/wasm") {
    throw new TypeError(`WebAssembly: the response's Content-Type must be 'application/wasm', not '${type}'.`);
  }
  if (!response.ok) throw new TypeError(`WebAssembly: the response's status is ${response.status}, not an ok status.`);
  return FunctionPrototypeCall(response.arrayBuffer, response);
}

/// `WebAssembly.compileStreaming(source)`: a promise of a `Module` from a Response (or a promise of one).
function compileStreaming(source) {
  return PromisePrototypeThen(PromisePrototypeThen(PromiseResolve(source), responseBytes), compile);
}

/// `WebAssembly.instantiateStreaming(source, imports)`: a promise of `{module, instance}`.
function instantiateStreaming(source, imports = undefined) {
  return PromisePrototypeThen(compileStreaming(source), (module) =>
    PromisePrototypeThen(instantiateLater(module, imports), (instance) => ({ module, instance })));
}

for (const [name, fn] of [
  ["compile", compile], ["instantiate", instantiate], ["compileStreaming", compileStreaming],
  ["instantiateStreaming", instantiateStreaming],
]) {
  ObjectDefineProperty(fn, "name", { value: name });
  ObjectDefineProperty(WebAssembly, name, { value: fn, writable: true, enumerable: true, configurable: true });
}
internal.defineGlobal("WebAssembly", WebAssembly);
