// The Chrome DevTools Protocol over JavaScriptCore's WebKit Inspector Protocol (docs/debugging.md, "Chrome
// DevTools Protocol"): what Chrome DevTools, VS Code's JavaScript debugger and `node inspect` speak, turned into
// what the engine speaks, and back. It runs in a context of its own on the inspector thread (relay.c), one
// message at a time: `translate(from, text)` takes a frontend's ("frontend") or the engine's ("engine") JSON
// text and returns the messages it makes, each a string whose first character says where it goes ("E": the
// engine, through the relay's own handling of WebKit messages; "F": the frontend). It sees the runtime's
// JavaScript only as the engine describes it: nothing here runs in the script's context.
//
// Commands get ids of their own on the engine's side (the frontend's ids come back on the answers); a command
// this file does not know is answered with CDP's "wasn't found" error, as V8 answers one.
"use strict";

/** @type {string[]} */
let out = [];
let nextId = 1;
/** @type {Map<number, (error: any, result: any) => void>} */
const pending = new Map();
/** Scripts by id: their CDP URL, their URL in the engine, their extent. */
const scripts = new Map();
/** The ids of the frontend's breakpoints (another one paused at is the relay's: --inspect-brk's start). */
const breakpoints = new Set();
/** The engine's URL patterns the frontend's blackbox patterns became. */
let blackboxed = [];
let exceptionIds = 1;
/** The last console message sent, for the engine's repeat counts (CDP has none: the message again). */
let lastConsoleMessage = null;
/** A profile being taken: its start and the frontend's `Profiler.stop`, when it came. */
let profiling = null;
const contextId = 1;

const toEngine = (message) => out.push("E" + JSON.stringify(message));
const toFrontend = (message) => out.push("F" + JSON.stringify(message));
const event = (method, params) => toFrontend({ method, params });

/** Sends `method` to the engine; `done(error, result)` gets its answer. */
function send(method, params, done) {
  const id = nextId++;
  pending.set(id, done || (() => {}));
  toEngine(params === undefined ? { id, method } : { id, method, params });
}

/** Sends several commands; `done(error)` once all are answered (the first error). */
function sendAll(commands, done) {
  let left = commands.length, failure = null;
  if (left === 0) return done(null);
  for (const [method, params] of commands)
    send(method, params, (error) => {
      failure = failure || error;
      if (--left === 0) done(failure);
    });
}

// MARK: - URLs

/** A script's URL as CDP clients know it: a file's path becomes its file:// URL, as Node reports it. */
function cdpURL(url) {
  if (typeof url !== "string" || !url.startsWith("/")) return url || "";
  return "file://" + encodeURI(url).replace(/[?#]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

/** The engine's URL for a CDP client's: a file:// URL becomes its path. */
function engineURL(url) {
  if (typeof url !== "string" || !/^file:\/\//i.test(url)) return url;
  let path = url.slice(7);
  if (path.startsWith("localhost/")) path = path.slice(9);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * The engine's pattern for a CDP client's URL pattern (a breakpoint's `urlRegex`, a blackbox pattern), which is
 * written for file:// URLs: a pattern that begins with the file scheme (in any spelling: escaped, `[fF]`
 * classes) loses it, and its percent-escapes become the characters they stand for; any other pattern (a path's
 * end, a name) matches paths as it matches URLs.
 */
function enginePattern(pattern) {
  let i = 0, anchored = false;
  if (pattern[0] === "^") {
    anchored = true;
    i = 1;
  }
  const scheme = "file://";
  for (let k = 0; k < scheme.length; k++) {
    let c;
    if (pattern[i] === "\\") {
      c = pattern[i + 1];
      i += 2;
    } else if (pattern[i] === "[") {
      const end = pattern.indexOf("]", i);
      const body = end > i ? pattern.slice(i + 1, end) : "";
      if (!body || [...body].some((x) => x.toLowerCase() !== body[0].toLowerCase())) return pattern;
      c = body[0];
      i = end + 1;
    } else {
      c = pattern[i];
      i++;
    }
    if (c === undefined || c.toLowerCase() !== scheme[k]) return pattern;
  }
  const rest = pattern.slice(i).replace(/%([0-9a-fA-F]{2})/g, (_, hex) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /[\\^$.*+?()[\]{}|/]/.test(c) ? "\\" + c : c;
  });
  return (anchored ? "^" : "") + rest;
}

// MARK: - Remote objects

const typedArrays = new Set([
  "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
  "Float16Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array",
]);
const unserializable = new Set(["NaN", "Infinity", "-Infinity", "-0"]);

/** CDP's subtype for a WebKit object's (`type` object), from its subtype and class name. */
function subtype(type, sub, className) {
  if (type !== "object") return undefined;
  if (sub === "array" && typedArrays.has(className)) return "typedarray";
  if (sub) return sub === "class" ? undefined : sub;
  switch (className) {
    case "Promise": return "promise";
    case "ArrayBuffer": case "SharedArrayBuffer": return "arraybuffer";
    case "DataView": return "dataview";
    case "Generator": case "AsyncGenerator": return "generator";
  }
  return undefined;
}

/** A description as V8 writes it where it differs: sized collections (`Array(3)`, `Map(2)`). */
function description(o, sub) {
  if (typeof o.size === "number" && ["array", "typedarray", "map", "set", "weakmap", "weakset"].includes(sub))
    return `${o.className || o.description || "Array"}(${o.size})`;
  return o.description;
}

/** A WebKit `Runtime.RemoteObject` as CDP's. */
function remoteObject(o) {
  if (!o || typeof o !== "object") return o;
  const type = o.type === "function" || o.subtype === "class" ? (o.type === "object" ? "object" : "function") : o.type;
  const r = { type };
  const sub = subtype(type, o.subtype, o.className);
  if (sub) r.subtype = sub;
  if (o.className === "JSGlobalProxy") {
    r.className = "Object";
    r.description = "global";
  } else if (o.className) r.className = o.className;
  else if (type === "function") r.className = "Function";
  else if (type === "object" && sub !== "null") r.className = "Object";
  if ("value" in o) r.value = o.value;
  if ((type === "number" && unserializable.has(o.description)) || type === "bigint") {
    delete r.value;
    r.unserializableValue = type === "bigint" && !/n$/.test(o.description) ? o.description + "n" : o.description;
  }
  const text = description(o, sub);
  if (r.description === undefined && text !== undefined) r.description = text;
  else if (r.description === undefined && (type === "number" || type === "boolean")) r.description = String(o.value);
  if (o.objectId) r.objectId = o.objectId;
  if (o.preview) r.preview = objectPreview(o.preview);
  return r;
}

/** A WebKit `Runtime.ObjectPreview` as CDP's. */
function objectPreview(p) {
  const sub = subtype(p.type, p.subtype, undefined);
  const r = { type: p.type === "function" ? "function" : p.type, overflow: !!p.overflow, properties: [] };
  if (sub) r.subtype = sub;
  const text = description(p, sub);
  if (text !== undefined) r.description = text;
  for (const property of p.properties || []) {
    if (property.internal) continue;
    const q = { name: property.name, type: property.type };
    const s = subtype(property.type, property.subtype, undefined);
    if (s) q.subtype = s;
    if (property.value !== undefined) q.value = property.value;
    else if (property.type !== "object" && property.type !== "function" && property.type !== "accessor")
      q.value = String(property.value);
    if (property.valuePreview) q.valuePreview = objectPreview(property.valuePreview);
    r.properties.push(q);
  }
  if (p.entries)
    r.entries = p.entries.map((e) =>
      e.key ? { key: objectPreview(e.key), value: objectPreview(e.value) } : { value: objectPreview(e.value) }
    );
  return r;
}

/** A WebKit `Runtime.PropertyDescriptor` as CDP's. */
function propertyDescriptor(p) {
  const r = { name: p.name, configurable: !!p.configurable, enumerable: !!p.enumerable };
  if (p.value) r.value = remoteObject(p.value);
  if ("writable" in p) r.writable = !!p.writable;
  if (p.get) r.get = remoteObject(p.get);
  if (p.set) r.set = remoteObject(p.set);
  if (p.wasThrown) r.wasThrown = true;
  r.isOwn = p.isOwn !== false;
  if (p.symbol) r.symbol = remoteObject(p.symbol);
  return r;
}

/** A location the engine gave (its lines and columns are the script's own, 0-based, as CDP's). */
function location(l) {
  if (!l) return l;
  const r = { scriptId: String(l.scriptId), lineNumber: l.lineNumber };
  if (l.columnNumber !== undefined) r.columnNumber = l.columnNumber;
  return r;
}

/** A WebKit evaluation's answer (`result`, `wasThrown`) as CDP's (`result`, `exceptionDetails`). */
function evaluation(result) {
  const r = { result: remoteObject(result.result) };
  if (result.wasThrown) {
    const thrown = result.result || {};
    r.exceptionDetails = {
      exceptionId: exceptionIds++,
      text: "Uncaught",
      lineNumber: 0,
      columnNumber: 0,
      exception: remoteObject(thrown),
      executionContextId: contextId,
    };
  }
  return r;
}

/**
 * Completes an evaluation the engine answered (`Runtime.evaluate`, `Runtime.callFunctionOn`,
 * `Debugger.evaluateOnCallFrame`) as CDP's `awaitPromise` and `returnByValue` ask: a promise's settled value,
 * an object's value by value.
 */
function finishEvaluation(params, reply) {
  return (error, result) => {
    if (error) return reply(error);
    const object = result.result || {};
    if (params.awaitPromise && !result.wasThrown && object.className === "Promise" && object.objectId) {
      send(
        "Runtime.awaitPromise",
        { promiseObjectId: object.objectId, returnByValue: !!params.returnByValue, generatePreview: !!params.generatePreview },
        (e, settled) => reply(e, e ? undefined : evaluation(settled))
      );
    } else if (params.awaitPromise && params.returnByValue && !result.wasThrown && object.objectId) {
      send(
        "Runtime.callFunctionOn",
        { objectId: object.objectId, functionDeclaration: "function () { return this; }", returnByValue: true },
        (e, value) => reply(e, e ? undefined : evaluation(value))
      );
    } else {
      reply(null, evaluation(result));
    }
  };
}

/** Whether an expression is only names and property reads (CDP's `throwOnSideEffect` lets those run). */
const withoutSideEffects = (expression) => /^[\w$\s.[\]'"]*$/.test(expression) && !/\b(new|delete)\b/.test(expression);

function sideEffectRefused() {
  return {
    result: { type: "object", subtype: "error", className: "EvalError", description: "EvalError: Possible side-effect in debug-evaluate" },
    exceptionDetails: {
      exceptionId: exceptionIds++, text: "EvalError: Possible side-effect in debug-evaluate", lineNumber: 0,
      columnNumber: 0, executionContextId: contextId,
    },
  };
}

// MARK: - Call frames and scopes

/**
 * CDP's scope types for a call frame's scope chain. The engine calls a function's scopes all `closure`: those of
 * the frame's own function (the first ones, at its location: its parameters and `var`s, and its body's `let` and
 * `const` apart) are CDP's `local`; the engine's nested lexical scopes are blocks, and its global lexical
 * environment is CDP's `script`.
 */
function scopeChain(frame) {
  const chain = frame.scopeChain || [];
  const where = (scope) => (scope.location ? `${scope.location.scriptId}:${scope.location.lineNumber}:${scope.location.columnNumber}` : scope.name || "");
  const topLevel = frame.functionName === "global code" || frame.functionName === "module code";
  const first = chain.findIndex((scope) => scope.type === "closure" || scope.type === "functionName");
  let local = -1;
  if (!topLevel && first >= 0) {
    local = first;
    while (local + 1 < chain.length && chain[local + 1].type === "closure" && where(chain[local + 1]) === where(chain[first]))
      local++;
  }
  return chain.map((scope, index) => {
    let type;
    switch (scope.type) {
      case "closure":
      case "functionName":
        type = index <= local ? "local" : "closure";
        break;
      case "nestedLexical": type = index < local || local < 0 ? "block" : "closure"; break;
      case "globalLexicalEnvironment": type = "script"; break;
      default: type = scope.type; // global, with, catch
    }
    // The engine's scope objects are of its class DebuggerScope: V8 describes them as objects, the global one as
    // `global`.
    const object = { ...remoteObject(scope.object), className: "Object", description: type === "global" ? "global" : "Object" };
    const r = { type, object };
    if (scope.name) r.name = scope.name;
    return r;
  });
}

/** A top-level frame's name, as V8 gives it: none. */
const functionName = (name) => (name === "global code" || name === "module code" || name === "eval code" ? "" : name || "");

function callFrame(frame) {
  const script = scripts.get(String(frame.location.scriptId));
  return {
    callFrameId: frame.callFrameId,
    functionName: functionName(frame.functionName),
    location: location(frame.location),
    url: script ? script.url : "",
    scopeChain: scopeChain(frame),
    this: remoteObject(frame.this) || { type: "undefined" },
    canBeRestarted: false,
  };
}

/**
 * A WebKit console call frame (1-based lines and columns) as a CDP `Runtime.CallFrame` (0-based); frames of the
 * runtime's own JavaScript (`jsbridge:`) at the top of a stack are left out, as Node leaves out its internals.
 */
function stackTrace(trace) {
  if (!trace) return undefined;
  const frames = Array.isArray(trace) ? trace : trace.callFrames || [];
  let first = frames.findIndex((f) => !String(f.url).startsWith("jsbridge:"));
  if (first < 0) first = 0;
  const r = {
    callFrames: frames.slice(first).map((f) => ({
      functionName: functionName(f.functionName),
      scriptId: String(f.scriptId || "0"),
      url: cdpURL(f.url),
      lineNumber: Math.max(0, (f.lineNumber || 1) - 1),
      columnNumber: Math.max(0, (f.columnNumber || 1) - 1),
    })),
  };
  if (trace.parentStackTrace) r.parent = stackTrace(trace.parentStackTrace);
  return r;
}

// MARK: - Commands (frontend -> engine)

/** The WebKit command of the same name, its parameters and result as they are. */
const same = (method) => (params, reply) => send(method, params, reply);
/** A command with nothing to do here. */
const nothing = (_, reply) => reply(null, {});
/** A command JavaScriptCore cannot carry out. */
const unsupported = (method) => (_, reply) =>
  reply({ code: -32000, message: `${method} is not supported by JavaScriptCore's inspector` });

function evaluateParameters(params) {
  return {
    expression: params.expression,
    objectGroup: params.objectGroup,
    includeCommandLineAPI: params.includeCommandLineAPI,
    doNotPauseOnExceptionsAndMuteConsole: params.silent,
    returnByValue: params.awaitPromise ? false : params.returnByValue,
    generatePreview: params.generatePreview,
    emulateUserGesture: params.userGesture,
  };
}

function callArguments(list) {
  return (list || []).map((a) => {
    if (a.objectId) return { objectId: a.objectId };
    if (a.unserializableValue !== undefined) return {}; // NaN, Infinity, -0, BigInt: not in JSON
    return "value" in a ? { value: a.value } : {};
  });
}

const commands = {
  // Runtime
  "Runtime.enable": (params, reply) =>
    send("Runtime.enable", undefined, (error) => {
      if (error) return reply(error);
      event("Runtime.executionContextCreated", {
        context: { id: contextId, origin: "", name: "jsbridge", uniqueId: "jsbridge-main", auxData: { isDefault: true } },
      });
      reply(null, {});
      // Console messages arrive as Runtime.consoleAPICalled (the engine's Console domain, enabled here).
      send("Console.enable");
    }),
  "Runtime.disable": (params, reply) => sendAll([["Runtime.disable"], ["Console.disable"]], (e) => reply(e, {})),
  "Runtime.runIfWaitingForDebugger": (params, reply) => send("Inspector.initialized", undefined, () => reply(null, {})),
  "Runtime.evaluate": (params, reply) => {
    if (params.throwOnSideEffect && !withoutSideEffects(params.expression)) return reply(null, sideEffectRefused());
    send("Runtime.evaluate", evaluateParameters(params), finishEvaluation(params, reply));
  },
  "Runtime.callFunctionOn": (params, reply) => {
    const call = (objectId) =>
      send(
        "Runtime.callFunctionOn",
        {
          objectId,
          functionDeclaration: params.functionDeclaration,
          arguments: callArguments(params.arguments),
          doNotPauseOnExceptionsAndMuteConsole: params.silent,
          returnByValue: params.awaitPromise ? false : params.returnByValue,
          generatePreview: params.generatePreview,
          emulateUserGesture: params.userGesture,
        },
        finishEvaluation(params, reply)
      );
    if (params.objectId) return call(params.objectId);
    // On the global object (CDP's executionContextId): its id first.
    send("Runtime.evaluate", { expression: "globalThis", objectGroup: params.objectGroup }, (error, result) =>
      error ? reply(error) : call(result.result.objectId)
    );
  },
  "Runtime.awaitPromise": (params, reply) =>
    send(
      "Runtime.awaitPromise",
      { promiseObjectId: params.promiseObjectId, returnByValue: params.returnByValue, generatePreview: params.generatePreview },
      (error, result) => reply(error, error ? undefined : evaluation(result))
    ),
  "Runtime.getProperties": (params, reply) =>
    send(
      "Runtime.getProperties",
      { objectId: params.objectId, ownProperties: params.ownProperties, generatePreview: params.generatePreview },
      (error, result) => {
        if (error) return reply(error);
        let properties = (result.properties || []).filter((p) => !p.isPrivate);
        if (params.accessorPropertiesOnly) properties = properties.filter((p) => p.get || p.set);
        if (params.nonIndexedPropertiesOnly) properties = properties.filter((p) => !/^\d+$/.test(p.name));
        const r = { result: properties.map(propertyDescriptor) };
        const privates = (result.properties || []).filter((p) => p.isPrivate);
        if (privates.length && !params.accessorPropertiesOnly)
          r.privateProperties = privates.map((p) => ({ name: p.name, value: remoteObject(p.value) }));
        if (result.internalProperties && !params.accessorPropertiesOnly)
          r.internalProperties = result.internalProperties.map((p) => ({ name: p.name, value: remoteObject(p.value) }));
        reply(null, r);
      }
    ),
  "Runtime.releaseObject": same("Runtime.releaseObject"),
  "Runtime.releaseObjectGroup": same("Runtime.releaseObjectGroup"),
  "Runtime.compileScript": (params, reply) =>
    send("Runtime.parse", { source: params.expression }, (error, result) => {
      if (error) return reply(error);
      if (result.result === "none") return reply(null, {});
      reply(null, {
        exceptionDetails: {
          exceptionId: exceptionIds++, text: "Uncaught SyntaxError: " + (result.message || ""), lineNumber: 0,
          columnNumber: 0, executionContextId: contextId,
        },
      });
    }),
  "Runtime.globalLexicalScopeNames": (params, reply) => reply(null, { names: [] }),
  "Runtime.getIsolateId": (params, reply) => reply(null, { id: "jsbridge" }),
  "Runtime.discardConsoleEntries": (params, reply) => send("Console.clearMessages", undefined, () => reply(null, {})),
  "Runtime.setAsyncCallStackDepth": (params, reply) =>
    send("Debugger.setAsyncStackTraceDepth", { depth: params.maxDepth }, () => reply(null, {})),
  "Runtime.setCustomObjectFormatterEnabled": nothing,
  "Runtime.setMaxCallStackSizeToCapture": nothing,
  "Runtime.getHeapUsage": unsupported("Runtime.getHeapUsage"),
  "Runtime.queryObjects": unsupported("Runtime.queryObjects"),
  "Runtime.addBinding": unsupported("Runtime.addBinding"),
  "Runtime.terminateExecution": unsupported("Runtime.terminateExecution"),

  // Debugger
  "Debugger.enable": (params, reply) =>
    send("Debugger.enable", undefined, (error) => reply(error, error ? undefined : { debuggerId: "jsbridge-debugger" })),
  "Debugger.disable": same("Debugger.disable"),
  "Debugger.setBreakpointByUrl": (params, reply) => {
    const options = params.condition ? { condition: params.condition } : undefined;
    const target =
      params.url !== undefined ? { url: engineURL(params.url) } : { urlRegex: enginePattern(params.urlRegex || "") };
    send(
      "Debugger.setBreakpointByUrl",
      { lineNumber: params.lineNumber, columnNumber: params.columnNumber, ...target, options },
      (error, result) => {
        if (error) return reply(error);
        breakpoints.add(result.breakpointId);
        reply(null, { breakpointId: result.breakpointId, locations: (result.locations || []).map(location) });
      }
    );
  },
  "Debugger.setBreakpoint": (params, reply) =>
    send(
      "Debugger.setBreakpoint",
      { location: params.location, options: params.condition ? { condition: params.condition } : undefined },
      (error, result) => {
        if (error) return reply(error);
        breakpoints.add(result.breakpointId);
        reply(null, { breakpointId: result.breakpointId, actualLocation: location(result.actualLocation) });
      }
    ),
  "Debugger.removeBreakpoint": (params, reply) => {
    breakpoints.delete(params.breakpointId);
    send("Debugger.removeBreakpoint", { breakpointId: params.breakpointId }, reply);
  },
  "Debugger.getPossibleBreakpoints": (params, reply) => {
    const script = scripts.get(String(params.start.scriptId));
    const end = params.end || {
      scriptId: params.start.scriptId,
      lineNumber: script ? script.endLine + 1 : params.start.lineNumber + 100000,
      columnNumber: 0,
    };
    send("Debugger.getBreakpointLocations", { start: params.start, end }, (error, result) =>
      reply(error, error ? undefined : { locations: (result.locations || []).map(location) })
    );
  },
  "Debugger.continueToLocation": (params, reply) => send("Debugger.continueToLocation", { location: params.location }, reply),
  "Debugger.pause": (params, reply) => send("Debugger.pause", undefined, reply),
  "Debugger.resume": (params, reply) => send("Debugger.resume", undefined, reply),
  "Debugger.stepOver": (params, reply) => send("Debugger.stepOver", undefined, reply),
  "Debugger.stepInto": (params, reply) => send("Debugger.stepInto", undefined, reply),
  "Debugger.stepOut": (params, reply) => send("Debugger.stepOut", undefined, reply),
  "Debugger.setPauseOnExceptions": (params, reply) =>
    send("Debugger.setPauseOnExceptions", { state: params.state === "caught" ? "all" : params.state }, reply),
  "Debugger.evaluateOnCallFrame": (params, reply) => {
    if (params.throwOnSideEffect && !withoutSideEffects(params.expression)) return reply(null, sideEffectRefused());
    send(
      "Debugger.evaluateOnCallFrame",
      { callFrameId: params.callFrameId, ...evaluateParameters(params) },
      finishEvaluation(params, reply)
    );
  },
  "Debugger.setVariableValue": (params, reply) => {
    const value = params.newValue || {};
    if (value.objectId) return unsupported("Debugger.setVariableValue with an object")(params, reply);
    const literal = value.unserializableValue !== undefined ? value.unserializableValue : JSON.stringify(value.value);
    if (!/^[\w$]+$/.test(params.variableName)) return reply({ code: -32602, message: "Invalid variable name" });
    send(
      "Debugger.evaluateOnCallFrame",
      { callFrameId: params.callFrameId, expression: `${params.variableName} = ${literal === undefined ? "undefined" : literal}` },
      (error) => reply(error, error ? undefined : {})
    );
  },
  "Debugger.setAsyncCallStackDepth": (params, reply) =>
    send("Debugger.setAsyncStackTraceDepth", { depth: params.maxDepth }, () => reply(null, {})),
  "Debugger.setBlackboxPatterns": (params, reply) => {
    const patterns = (params.patterns || []).map(enginePattern);
    const commands = blackboxed
      .filter((p) => !patterns.includes(p))
      .map((url) => ["Debugger.setShouldBlackboxURL", { url, shouldBlackbox: false, isRegex: true }]);
    for (const url of patterns) commands.push(["Debugger.setShouldBlackboxURL", { url, shouldBlackbox: true, isRegex: true }]);
    blackboxed = patterns;
    sendAll(commands, (error) => reply(error, error ? undefined : {}));
  },
  "Debugger.setBlackboxedRanges": nothing,
  "Debugger.setBlackboxExecutionContexts": nothing,
  "Debugger.getScriptSource": (params, reply) => send("Debugger.getScriptSource", { scriptId: params.scriptId }, reply),
  "Debugger.searchInContent": (params, reply) =>
    send(
      "Debugger.searchInContent",
      { scriptId: params.scriptId, query: params.query, caseSensitive: params.caseSensitive, isRegex: params.isRegex },
      reply
    ),
  "Debugger.setBreakpointsActive": (params, reply) => send("Debugger.setBreakpointsActive", { active: !!params.active }, reply),
  "Debugger.setSkipAllPauses": (params, reply) => send("Debugger.setBreakpointsActive", { active: !params.skip }, reply),
  "Debugger.restartFrame": unsupported("Debugger.restartFrame"),
  "Debugger.setScriptSource": unsupported("Debugger.setScriptSource"),
  "Debugger.setReturnValue": unsupported("Debugger.setReturnValue"),
  "Debugger.setInstrumentationBreakpoint": unsupported("Debugger.setInstrumentationBreakpoint"),
  "Debugger.setBreakpointOnFunctionCall": unsupported("Debugger.setBreakpointOnFunctionCall"),

  // Console (CDP's own is Runtime's console events; the engine's Console domain is enabled with Runtime)
  "Console.enable": nothing,
  "Console.disable": nothing,
  "Console.clearMessages": (params, reply) => send("Console.clearMessages", undefined, () => reply(null, {})),

  // Profiler: the engine's sampling profiler (ScriptProfiler), its samples made into CDP's profile tree.
  "Profiler.enable": nothing,
  "Profiler.disable": nothing,
  "Profiler.setSamplingInterval": nothing,
  "Profiler.start": (params, reply) => {
    profiling = { start: null, stop: null };
    send("ScriptProfiler.startTracking", { includeSamples: true }, (error) => reply(error, error ? undefined : {}));
  },
  "Profiler.stop": (params, reply) => {
    if (!profiling) return reply({ code: -32000, message: "No recording profiles found" });
    profiling.stop = reply;
    send("ScriptProfiler.stopTracking", undefined, (error) => {
      if (error) {
        profiling = null;
        reply(error);
      }
    });
  },
  "Profiler.startPreciseCoverage": unsupported("Profiler.startPreciseCoverage"),
  "Profiler.takePreciseCoverage": unsupported("Profiler.takePreciseCoverage"),
  "Profiler.stopPreciseCoverage": nothing,

  // HeapProfiler: garbage collection; snapshots are the WebKit protocol's (Heap.snapshot), in JavaScriptCore's
  // format, not V8's.
  "HeapProfiler.enable": nothing,
  "HeapProfiler.disable": nothing,
  "HeapProfiler.collectGarbage": (params, reply) => send("Heap.gc", undefined, () => reply(null, {})),
  "HeapProfiler.takeHeapSnapshot": unsupported("HeapProfiler.takeHeapSnapshot (the WebKit protocol's Heap.snapshot is)"),
  "HeapProfiler.startSampling": unsupported("HeapProfiler.startSampling"),

  // Node's own domains: a runtime without workers or tracing has nothing to do for them.
  "NodeRuntime.enable": nothing,
  "NodeRuntime.notifyWhenWaitingForDisconnect": nothing,
  "NodeWorker.enable": nothing,
  "NodeWorker.disable": nothing,
  "Log.enable": nothing,
  "Log.disable": nothing,
  "Schema.getDomains": (params, reply) =>
    reply(null, {
      domains: ["Runtime", "Debugger", "Console", "Profiler", "HeapProfiler", "Schema"].map((name) => ({ name, version: "1.3" })),
    }),
};

// MARK: - Events (engine -> frontend)

function scriptEvent(method, s) {
  const url = s.hasSourceURL && s.sourceURL ? s.sourceURL : cdpURL(s.url);
  scripts.set(String(s.scriptId), { url, engineURL: s.url, endLine: s.endLine });
  const params = {
    scriptId: String(s.scriptId),
    url,
    startLine: s.startLine,
    startColumn: s.startColumn,
    endLine: s.endLine,
    endColumn: s.endColumn,
    executionContextId: contextId,
    hash: hash(`${s.scriptId}:${s.url}:${s.endLine}:${s.endColumn}`),
    executionContextAuxData: { isDefault: true },
    isLiveEdit: false,
    sourceMapURL: s.sourceMapURL || "",
    hasSourceURL: !!s.hasSourceURL,
    isModule: !!s.module,
    scriptLanguage: "JavaScript",
    embedderName: url,
  };
  if (method === "Debugger.scriptFailedToParse") {
    delete params.isLiveEdit;
    params.errorLine = s.errorLine;
    params.errorMessage = s.errorMessage;
  }
  event(method, params);
}

/** A stand-in for V8's script hash (CDP requires one; nobody here reads it): 40 hex digits of FNV-1a. */
function hash(text) {
  let h = 0x811c9dc5, digits = "";
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    digits += h.toString(16).padStart(8, "0");
    h = Math.imul(h ^ round, 0x01000193) >>> 0;
  }
  return digits;
}

const pauseReasons = {
  Breakpoint: "other", DebuggerStatement: "other", PauseOnNextStatement: "other", exception: "exception",
  assert: "assert", CSPViolation: "CSPViolation", DOM: "DOM", XHR: "XHR", Fetch: "XHR", Listener: "EventListener",
};

function paused(params) {
  let reason = params.reason, data = params.data;
  if (reason === "BlackboxedScript" && data) {
    reason = data.originalReason;
    data = data.originalData;
  }
  const r = { callFrames: (params.callFrames || []).map(callFrame), reason: pauseReasons[reason] || "other", hitBreakpoints: [] };
  if (reason === "Breakpoint" && data && data.breakpointId) {
    // A breakpoint the frontend did not set is the relay's at the main script's first line (--inspect-brk).
    if (breakpoints.has(data.breakpointId)) r.hitBreakpoints = [data.breakpointId];
    else r.reason = "Break on start";
  } else if (reason === "exception" && data) {
    r.data = remoteObject(data);
  } else if (reason === "assert" && data) {
    r.data = data;
  }
  if (params.asyncStackTrace) r.asyncStackTrace = stackTrace(params.asyncStackTrace);
  event("Debugger.paused", r);
}

const consoleTypes = {
  dir: "dir", dirxml: "dirxml", table: "table", trace: "trace", clear: "clear", startGroup: "startGroup",
  startGroupCollapsed: "startGroupCollapsed", endGroup: "endGroup", assert: "assert", timing: "timeEnd",
  profile: "profile", profileEnd: "profileEnd",
};
const consoleLevels = { log: "log", info: "info", warning: "warning", error: "error", debug: "debug" };

function consoleMessage(m) {
  const trace = stackTrace(m.stackTrace) || { callFrames: [] };
  if (m.source === "console-api") {
    const args = m.parameters ? m.parameters.map(remoteObject) : [{ type: "string", value: m.text }];
    const params = {
      type: consoleTypes[m.type] || consoleLevels[m.level] || "log",
      args,
      executionContextId: contextId,
      timestamp: Date.now(),
      stackTrace: trace,
    };
    lastConsoleMessage = { method: "Runtime.consoleAPICalled", params };
    event("Runtime.consoleAPICalled", params);
  } else if (m.level === "error") {
    const top = trace.callFrames[0];
    const params = {
      timestamp: Date.now(),
      exceptionDetails: {
        exceptionId: exceptionIds++,
        text: m.text,
        lineNumber: top ? top.lineNumber : Math.max(0, (m.line || 1) - 1),
        columnNumber: top ? top.columnNumber : Math.max(0, (m.column || 1) - 1),
        url: top ? top.url : cdpURL(m.url),
        stackTrace: trace,
        executionContextId: contextId,
      },
    };
    if (m.parameters && m.parameters[0]) params.exceptionDetails.exception = remoteObject(m.parameters[0]);
    lastConsoleMessage = { method: "Runtime.exceptionThrown", params };
    event("Runtime.exceptionThrown", params);
  } else {
    lastConsoleMessage = null;
  }
}

/** The engine's samples (ScriptProfiler.trackingComplete) as a CDP profile: a call tree, samples, deltas. */
function profile(samples, start, end) {
  const root = { id: 1, callFrame: { functionName: "(root)", scriptId: "0", url: "", lineNumber: -1, columnNumber: -1 }, hitCount: 0, children: [] };
  const nodes = [root];
  const childIndex = new Map();
  const child = (parent, frame) => {
    const key = `${parent.id}\u0000${frame.functionName}\u0000${frame.url}\u0000${frame.lineNumber}\u0000${frame.columnNumber}`;
    let node = childIndex.get(key);
    if (!node) {
      node = { id: nodes.length + 1, callFrame: frame, hitCount: 0, children: [] };
      nodes.push(node);
      parent.children.push(node.id);
      childIndex.set(key, node);
    }
    return node;
  };
  const idle = { functionName: "(idle)", scriptId: "0", url: "", lineNumber: -1, columnNumber: -1 };
  const ids = [], deltas = [];
  let last = start;
  for (const trace of (samples && samples.stackTraces) || []) {
    let node = root;
    const frames = trace.stackFrames || [];
    if (frames.length === 0) node = child(root, idle);
    for (let i = frames.length - 1; i >= 0; i--) {
      const f = frames[i];
      node = child(node, {
        functionName: functionName(f.name),
        scriptId: String(f.sourceID || "0"),
        url: cdpURL(f.url),
        lineNumber: Math.max(-1, (f.line || 0) - 1),
        columnNumber: Math.max(-1, (f.column || 0) - 1),
      });
    }
    node.hitCount++;
    ids.push(node.id);
    const time = Math.round(trace.timestamp * 1e6);
    deltas.push(Math.max(0, time - last));
    last = time;
  }
  return { nodes, startTime: start, endTime: Math.max(end, last), samples: ids, timeDeltas: deltas };
}

const events = {
  "Debugger.scriptParsed": (p) => scriptEvent("Debugger.scriptParsed", p),
  "Debugger.scriptFailedToParse": (p) => scriptEvent("Debugger.scriptFailedToParse", p),
  "Debugger.paused": paused,
  "Debugger.resumed": () => event("Debugger.resumed", {}),
  "Debugger.breakpointResolved": (p) =>
    breakpoints.has(p.breakpointId) && event("Debugger.breakpointResolved", { breakpointId: p.breakpointId, location: location(p.location) }),
  "Console.messageAdded": (p) => consoleMessage(p.message || {}),
  "Console.messageRepeatCountUpdated": () => lastConsoleMessage && event(lastConsoleMessage.method, lastConsoleMessage.params),
  "ScriptProfiler.trackingStart": (p) => {
    if (profiling) profiling.start = Math.round(p.timestamp * 1e6);
  },
  "ScriptProfiler.trackingComplete": (p) => {
    if (!profiling) return;
    const { start, stop } = profiling;
    profiling = null;
    const end = Math.round(p.timestamp * 1e6);
    if (stop) stop(null, { profile: profile(p.samples, start === null ? end : start, end) });
  },
};

// MARK: - The relay's entry point

/** A frontend's message (CDP) or the engine's (WebKit): the messages they make (see the top of this file). */
globalThis.translate = function translate(from, text) {
  out = [];
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    if (from === "frontend") toFrontend({ id: 0, error: { code: -32700, message: "Message must be a valid JSON" } });
    return out;
  }
  if (from === "frontend") {
    const { id, method } = message;
    const handler = Object.prototype.hasOwnProperty.call(commands, method) ? commands[method] : null;
    const reply = (error, result) =>
      toFrontend(error ? { id, error: { code: error.code || -32000, message: error.message || String(error) } } : { id, result: result || {} });
    if (!handler) reply({ code: -32601, message: `'${method}' wasn't found` });
    else handler(message.params || {}, reply);
  } else if (message.id !== undefined) {
    const done = pending.get(message.id);
    pending.delete(message.id);
    if (done) done(message.error || null, message.error ? undefined : message.result || {});
  } else if (Object.prototype.hasOwnProperty.call(events, message.method)) {
    events[message.method](message.params || {});
  }
  return out;
};
