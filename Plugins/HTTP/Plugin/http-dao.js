// http-dao.js - HAccess-style data-access objects: `HTTP.dao(definition)`. A DAO maps call parameters to a
// request (path, query, body, headers), runs its lifecycle hooks in a fixed order, sends the request
// through the plugin's `request` action (or a mock), checks and converts the response into models, and
// reports every failure as a `DAOError` with a domain (see docs/http.md, "DAOs").

const PLUGIN = "HTTP";
const { BridgeError, DOMException, AbortSignal, AbortController } = runtime;
const {
  ArrayIsArray, ArrayPrototypePush, FunctionPrototypeCall, JSONStringify, MethodFilter, MethodIncludes, MethodJoin,
  MethodMap, MethodReverse, MethodSlice, MethodSplit, MethodStartsWith, MethodToUpperCase, ObjectDefineProperty,
  ObjectEntries, ObjectFreeze, ObjectFromEntries, ObjectKeys, PromisePrototypeThen, PromiseReject, SafeSet,
  SafeWeakMap,
} = runtime.primordials;
const { Headers, headersFrom, headerPairs, queue } = plugin.shared.httpCore;

/// The hooks in the order they run.
const HOOKS = ["setUpHeaders", "setUpParams", "didSetUpParams", "willSend", "didReceive", "outputEntity", "deliver"];
// The engine's choices, as HTTPPlugin.swift declares them.
const {
  daoEncodings: ENCODINGS, daoPlacements: PLACEMENTS, daoResponseTypes: RESPONSE_TYPES, cacheModes: CACHE_MODES,
} = plugin.constants;
const DEFINITION_KEYS = new SafeSet([
  "name", "baseURL", "path", "method", "headers", "params", "encoding", "response", "hooks", "retry", "timeout",
  "cache", "mock", "queue", ...HOOKS,
]);
const NATIVE_DOMAINS = {
  NETWORK_ERROR: "network", BODY_TOO_LARGE: "network", HTTP_STATUS: "http", TIMEOUT: "timeout",
  CANCELLED: "cancelled", DATA_FORMAT: "dataFormat",
};

// MARK: - Errors

/// A failed DAO call: `domain` is `network`, `http`, `server`, `dataFormat`, `cancelled`, `timeout` or
/// `request` (the request could not be made: bad parameters, permission, mock fixtures); `code` is the
/// stable code; `status` and `response` are kept when a response arrived; `cause` is the underlying error.
class DAOError extends BridgeError {
  constructor(domain, code, message, details = {}) {
    super(code, message, { plugin: PLUGIN, action: details.dao, data: details.data });
    this.domain = domain;
    this.dao = details.dao;
    if (details.status !== undefined) this.status = details.status;
    if (details.response !== undefined) this.response = details.response;
    if (details.cause !== undefined) this.cause = details.cause;
  }
}
ObjectDefineProperty(DAOError.prototype, "name", { value: "DAOError", writable: true, configurable: true });

/// A business error from `outputEntity`: `throw HTTP.serverError("message", { code, data })`.
function serverError(message, options = {}) {
  const error = new DAOError("server", "SERVER_ERROR", `${message}`, {
    data: { serverCode: options.code, ...(options.data === undefined ? {} : { details: options.data }) },
  });
  if (options.code !== undefined) error.serverCode = options.code;
  return error;
}

/// What a hook returns to repeat the call from `setUpHeaders`: `return HTTP.retry({ afterMs: 500 })`.
const RETRY = Symbol("HTTP.retry");
function retry(options = {}) {
  const afterMs = Number(options.afterMs ?? 0);
  if (!(afterMs >= 0)) throw new RangeError(`HTTP.retry: afterMs must be a non-negative number, got ${options.afterMs}`);
  return { [RETRY]: true, afterMs };
}

/// A native failure as a DAOError of the matching domain (the native error kept as `cause`): the engine's
/// errors name their domain, status and response; others take the domain of their code.
function fromNative(error, dao) {
  if (error instanceof DAOError || !(error instanceof BridgeError)) return error;
  const data = error.data;
  const domain = data?.domain ?? NATIVE_DOMAINS[error.code] ?? "request";
  const message = data?.domain !== undefined ? error.message : `${dao}: ${error.message}`;
  // The engine's own verdicts on a response or the parameters have no underlying cause.
  const verdict = domain === "http" || domain === "dataFormat" || error.code === "INVALID_ARGUMENT";
  return new DAOError(domain, error.code, message, {
    dao, data, cause: verdict ? undefined : error, status: data?.status, response: data?.response,
  });
}

// MARK: - Definitions

function checkDefinition(definition, where) {
  if (definition === null || typeof definition !== "object") throw new TypeError(`${where}: the definition must be an object.`);
  for (const key of ObjectKeys(definition)) {
    if (!DEFINITION_KEYS.has(key)) throw new TypeError(`${where}: unknown key '${key}' (known: ${MethodJoin([...DEFINITION_KEYS], ", ")}).`);
  }
  if (definition.encoding !== undefined && !MethodIncludes(ENCODINGS, definition.encoding)) {
    throw new TypeError(`${where}: encoding must be one of ${MethodJoin(ENCODINGS, ", ")}; got '${definition.encoding}'.`);
  }
  const type = definition.response?.type;
  if (type !== undefined && !MethodIncludes(RESPONSE_TYPES, type)) {
    throw new TypeError(`${where}: response.type must be one of ${MethodJoin(RESPONSE_TYPES, ", ")}; got '${type}'.`);
  }
  const cache = definition.cache;
  const cacheMode = typeof cache === "string" ? cache : cache?.mode;
  if (cache !== undefined && cache !== null && cache !== false && !MethodIncludes(CACHE_MODES, cacheMode)) {
    throw new TypeError(`${where}: cache mode must be one of ${MethodJoin(CACHE_MODES, ", ")}; got '${cacheMode}'.`);
  }
  for (const [name, spec] of ObjectEntries(definition.params ?? {})) {
    if (typeof spec === "string" || spec === true) continue;
    if (spec === null || typeof spec !== "object") throw new TypeError(`${where}: params.${name} must be a wire name or an options object.`);
    if (spec.in !== undefined && !MethodIncludes(PLACEMENTS, spec.in)) {
      throw new TypeError(`${where}: params.${name}.in must be one of ${MethodJoin(PLACEMENTS, ", ")}; got '${spec.in}'.`);
    }
  }
  for (const hook of HOOKS) {
    const fn = definition.hooks?.[hook] ?? definition[hook];
    if (fn !== undefined && typeof fn !== "function") throw new TypeError(`${where}: hook '${hook}' must be a function.`);
  }
  for (const key of ObjectKeys(definition.hooks ?? {})) {
    if (!MethodIncludes(HOOKS, key)) throw new TypeError(`${where}: unknown hook '${key}' (hooks: ${MethodJoin(HOOKS, ", ")}).`);
  }
}

/// `child` over `base`: scalars replace, headers/params/response/retry/timeout/cache/mock merge by key,
/// hooks chain (the base's run first).
function merge(base, child) {
  const out = { ...base };
  for (const [key, value] of ObjectEntries(child)) {
    if (MethodIncludes(HOOKS, key) || key === "hooks") continue;
    const mergeable = MethodIncludes(["headers", "params", "response", "retry", "timeout", "cache", "mock"], key);
    out[key] = mergeable && isPlainObject(value) && isPlainObject(base[key]) ? { ...base[key], ...value } : value;
  }
  out.hooks = {};
  for (const hook of HOOKS) {
    const own = child.hooks?.[hook] ?? child[hook];
    const chain = [...(base.hooks?.[hook] ?? [])];
    if (own !== undefined) ArrayPrototypePush(chain, own);
    if (chain.length > 0) out.hooks[hook] = chain;
  }
  return out;
}

function isPlainObject(value) {
  return value !== null && typeof value === "object" && !ArrayIsArray(value) && !(value instanceof Uint8Array);
}

function paramSpec(name, spec) {
  if (typeof spec === "string") return { name, wire: spec };
  if (spec === true) return { name, wire: name };
  return {
    name, wire: spec.mapTo ?? spec.name ?? name, in: spec.in, required: spec.required === true,
    default: spec.default, ignore: spec.ignore === true,
  };
}

// MARK: - Calls
//
// The engine is native (HTTPCore, shared with Swift DAOs): `daoRequest` maps parameters and builds the
// request, `daoSend` answers it from a mock, the cache or the network and reads the response (status, body,
// key path), `daoRead` reads what a hook saw. This file runs the hooks between those steps, converts the
// data into models (the Model plugin) and keeps calls' signals, queues and `pending`.

/// A file value of a multipart DAO, kept here while its place in the request is worked out natively.
const FILE_REF = "$jsbridgeFile";

/// The call's parameters with function defaults applied and, for a multipart DAO, files replaced by
/// references into `files`.
function nativeParams(def, input, files) {
  let params = input;
  for (const [name, fn] of def.defaultFunctions) {
    if (params[name] === undefined) params = { ...params, [name]: fn() };
  }
  if (files === undefined) return params;
  const out = {};
  for (const key of ObjectKeys(params)) {
    const value = params[key];
    out[key] = isFileValue(value) ? { [FILE_REF]: ArrayPrototypePush(files, value) - 1 } : value;
  }
  return out;
}

function isFileValue(value) {
  return isPlainObject(value) && (typeof value.path === "string" || value.data !== undefined);
}

/// The HTTP answer a DAO's hooks see: `{method, url, headers: Headers, body?, multipart?}`.
function requestFrom(built, files) {
  const request = { method: built.method, url: built.url, headers: new Headers(built.headers), body: built.body };
  if (built.multipart !== undefined) {
    request.multipart = {
      fields: built.multipart.fields,
      files: MethodMap(built.multipart.files, ([name, index]) => ({ ...files[index], name })),
    };
  }
  return request;
}

/// `daoRequest`, its errors as DAO errors.
function daoRequest(def, args) {
  try {
    return plugin.execSync("daoRequest", [{ dao: def.engineKey, ...args }]);
  } catch (error) {
    throw fromNative(error, def.name);
  }
}

/// Steps 1-6: headers, parameters, mapping, the request, `willSend`; sets and returns `ctx.request`.
async function prepare(def, ctx, input) {
  ctx.signal.throwIfAborted();
  let headers = new Headers(def.headers ?? {});
  headers = def.hooks.setUpHeaders ? await runHook(def, "setUpHeaders", headers, ctx) : headers;
  if (!(headers instanceof Headers)) headers = new Headers(headers);
  let params = { ...input };
  params = def.hooks.setUpParams ? await runHook(def, "setUpParams", params, ctx) : params;
  const files = def.encoding === "multipart" ? [] : undefined;
  const args = { params: nativeParams(def, params, files), headers: headerPairs(headers) };
  let built;
  if (def.hooks.didSetUpParams) {
    const { params: wire, mapped } = daoRequest(def, { ...args, stage: "map" });
    ctx.params = await runHook(def, "didSetUpParams", wire, ctx);
    built = daoRequest(def, { headers: args.headers, mapped, wire: ctx.params });
  } else {
    built = daoRequest(def, args);
    ctx.params = built.params;
  }
  const request = requestFrom(built, files);
  ctx.request = def.hooks.willSend ? await runHook(def, "willSend", request, ctx) : request;
  return ctx.request;
}

/// Runs the `hook` functions of the chain (callers skip the call - and its await - when there are none).
async function runHook(def, hook, value, ctx) {
  for (const fn of def.hooks[hook] ?? []) {
    const result = await FunctionPrototypeCall(fn, ctx.dao, value, ctx);
    ctx.signal.throwIfAborted();
    if (result !== null && typeof result === "object" && result[RETRY] === true) return result;
    if (result !== undefined) value = result;
  }
  return value;
}

/// `request` as `daoSend` takes it: a text body as `body`, bytes as `bodyBytes` (beside the JSON).
function nativeRequest(def, request) {
  const args = { url: request.url, method: request.method, headers: headerPairs(request.headers) };
  if (typeof request.body === "string") args.body = request.body;
  else if (request.body instanceof Uint8Array) args.bodyBytes = request.body;
  else if (request.body !== undefined) throw new TypeError(`${def.name}: willSend left a body that is neither a string nor a Uint8Array.`);
  if (request.multipart !== undefined && request.body !== undefined) {
    throw new TypeError(`${def.name}: a multipart request has fields and files, not a body.`);
  }
  return args;
}

/// How far the engine reads a response for this DAO: as it came (a `didReceive` hook reads it), to its
/// parsed body (an `outputEntity` hook reads that), or to the value at the key path.
function readStage(def) {
  return def.hooks.didReceive ? "response" : def.hooks.outputEntity ? "entity" : "data";
}

// MARK: - Responses

/// The headers of a brief answer's response (immutable, so one object serves every call).
const NO_HEADERS = headersFrom([], "immutable");

/// The response a DAO's hooks and `request()` see, of an answer (a brief one has no headers).
function daoResponse(answer, source, request) {
  return {
    status: answer.status, statusText: answer.statusText ?? "",
    headers: answer.headers === undefined ? NO_HEADERS : headersFrom(answer.headers, "immutable"),
    url: answer.url ?? request?.url, redirected: answer.redirected === true, attempts: answer.attempts ?? 1,
    source: answer.source ?? source,
    text: answer.body, bytes: answer.bodyBytes,
  };
}

/// What an error keeps of a response: status, headers, url and the text of the body (or of the data, for a
/// response read natively).
function responseSummary(response, data) {
  return {
    status: response.status, statusText: response.statusText, headers: ObjectFromEntries(response.headers),
    url: response.url, body: response.text ?? (data === undefined ? "" : JSONStringify(data)),
  };
}

function prefixIssues(issues, prefix) {
  return MethodMap(issues, (issue) => ({ ...issue, path: prefix === "" ? issue.path : issue.path === "" ? prefix
    : MethodStartsWith(issue.path, "[") ? prefix + issue.path : `${prefix}.${issue.path}` }));
}

/// Converts the entity per `response.model`: a model name, `[name]` (an array of models) or nothing (raw).
/// `responseOf()` gives the response an error keeps (made only then).
function convertEntity(def, value, responseOf) {
  const spec = def.response ?? {};
  const dao = def.name;
  const keyPath = spec.keyPath ?? "";
  const model = spec.model;
  if (model === undefined || model === null) return value;
  if (value === undefined || value === null) {
    throw dataFormatError(dao, model, responseOf, value, [{ path: keyPath, code: "REQUIRED", message: "the response has no value here", input: value ?? null }]);
  }
  const Model = globalThis.Model;
  if (Model === undefined) {
    throw new DAOError("request", "PLUGIN_NOT_FOUND", `${dao}: converting responses into models needs the Model plugin.`, { dao });
  }
  if (!ArrayIsArray(model)) return convertOne(Model, dao, model, responseOf, model, value, keyPath, value);
  if (!ArrayIsArray(value)) {
    throw dataFormatError(dao, model, responseOf, value, [{ path: keyPath, code: "TYPE", message: `expected an array of ${model[0]}`, input: typeof value }]);
  }
  const issues = [];
  const out = MethodMap(value, (item, index) => {
    try {
      return convertOne(Model, dao, model, responseOf, model[0], item, `${keyPath}[${index}]`, value);
    } catch (error) {
      if (!(error instanceof DAOError) || error.domain !== "dataFormat") throw error;
      ArrayPrototypePush(issues, ...error.data.issues);
      return undefined;
    }
  });
  if (issues.length > 0) throw dataFormatError(dao, model, responseOf, value, issues);
  return out;
}

/// `Model.convert(name, item)`, its `DATA_FORMAT` issues (under `prefix`) as the DAO's `dataFormat` error.
function convertOne(Model, dao, model, responseOf, name, item, prefix, value) {
  try {
    return Model.convert(name, item);
  } catch (error) {
    if (error instanceof BridgeError && error.code === "DATA_FORMAT") {
      throw dataFormatError(dao, model, responseOf, value, prefixIssues(error.data?.issues ?? [], prefix));
    }
    throw error;
  }
}

function dataFormatError(dao, model, responseOf, value, issues) {
  const response = responseOf();
  return new DAOError("dataFormat", "DATA_FORMAT",
    `${dao}: the response does not match ${ArrayIsArray(model) ? `[${model[0]}]` : model}: ` +
      MethodJoin(MethodMap(MethodSlice(issues, 0, 3), (i) => `${i.path || "(root)"}: ${i.message}`), "; "),
    { dao, data: { issues }, status: response.status, response: responseSummary(response, value) });
}

// MARK: - Mocks

let settings;
function mockSettings() {
  if (settings === undefined) settings = plugin.execSync("settings", []).mock;
  return settings;
}

/// The mock options for a call, or null for the network: the DAO's `mock`, else the configured mode.
function mockFor(def) {
  let mock = def.mock;
  if (mock === undefined || mock === null) {
    const configured = mockSettings();
    if (configured.mode === "off") return null;
    mock = { mode: configured.mode };
  }
  if (mock === false) return null;
  if (mock === true) mock = { mode: "fixture" };
  if (typeof mock === "string") mock = { mode: mock };
  if (mock.mode === "off") return null;
  if (mock.mode !== "fixture" && mock.mode !== "auto") {
    throw new TypeError(`mock.mode must be "fixture", "auto" or "off"; got '${mock.mode}'.`);
  }
  return mock;
}

/// Adds a mock's arguments to `daoSend`'s: the fixture's directory and variant, or an auto mock's content
/// (the wire form of the model's sample, at the key path).
function addMock(def, mock, args) {
  if (mock.delayMs !== undefined) args.mock = { delayMs: mock.delayMs };
  if (mock.mode === "fixture") {
    args.mock = { ...args.mock, dir: mock.dir, variant: mock.variant };
    return;
  }
  const model = def.response?.model;
  if (model === undefined) {
    throw new DAOError("request", "MOCK_UNAVAILABLE",
      `${def.name}: auto mocks need response.model (Model.sample makes the data).`, { dao: def.name });
  }
  const { Model } = globalThis;
  const wire = (name) => Model.sample(name, { json: true });   // the response's form, mapped keys included
  let content = ArrayIsArray(model) ? [wire(model[0]), wire(model[0])] : wire(model);
  const keyPath = def.response.keyPath;
  if (keyPath) for (const key of MethodReverse(MethodSplit(keyPath, "."))) content = { [key]: content };
  args.mockContent = { $body: content };
}

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { signal.removeEventListener("abort", onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(timer); reject(signal.reason); };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

// MARK: - Running a call

/// The `daoSend` arguments of a call whose request the engine builds from its parameters (no hook before
/// the request, no multipart body, no cache key function), or undefined.
function plainArgs(def, input, mock, brief) {
  if (mock === null && def.defaultFunctions.length === 0 && !hasKeys(input)) return def.sendArgs[brief ? 1 : 0];
  const args = { dao: def.engineKey, params: nativeParams(def, input), read: def.read };
  if (brief) args.brief = true;
  if (typeof def.cache?.key === "string") args.cacheKey = def.cache.key;
  if (mock !== null) addMock(def, mock, args);
  return args;
}

/// Whether `object` has an enumerable property.
function hasKeys(object) {
  for (const _ in object) return true;
  return false;
}

/// The cache key a call's definition gives, if any.
function cacheKey(def, ctx) {
  const key = def.cache?.key;
  if (key === undefined) return undefined;
  return typeof key === "function" ? `${FunctionPrototypeCall(key, ctx.dao, ctx.request, ctx.params)}` : `${key}`;
}

/// One call of `dao` with `input` parameters: resolves with `{data, response}`.
/// `brief`: the call resolves with the data alone (`send`), so its answer need not carry the response's
/// headers and status text (docs/http.md, "How a request crosses the bridge").
function run(dao, def, input, signal, options, brief = false) {
  const mock = plainMock(def, options);
  if (mock === undefined) return runSteps(dao, def, input, signal, options, brief);
  try {
    signal.throwIfAborted();
    const answer = plugin.call("daoSend", plainArgs(def, input, mock, brief), { signal });
    return PromisePrototypeThen(answer, (value) => settlePlain(def, value, false), (error) => {
      signal.throwIfAborted();
      throw fromNative(error, def.name);
    });
  } catch (error) {
    return PromiseReject(error);
  }
}

/// A plain call's answer: `{data, response}` (`dataOnly`: the data alone), the data converted into models;
/// with a pending cache entry, a promise of it that settles once the entry is stored (or dropped, when the
/// data did not convert).
function settlePlain(def, answer, dataOnly) {
  const responseOf = () => daoResponse(answer, "network", undefined);
  let data;
  try {
    data = convertEntity(def, answer.data, responseOf);
  } catch (error) {
    if (answer.cacheToken === undefined) throw error;
    return PromisePrototypeThen(settleCacheEntry(answer, false), () => { throw error; });
  }
  const result = dataOnly ? data : { data, response: responseOf() };
  return answer.cacheToken === undefined ? result : PromisePrototypeThen(settleCacheEntry(answer, true), () => result);
}

/// The mock of a call that can take the plain way (null: the network), or undefined when it cannot: hooks,
/// a multipart body, a cache key function or `onCache`. A bad mock mode says "cannot", so that `runSteps`
/// rejects with its error.
function plainMock(def, options) {
  if (!def.plain || options.onCache !== undefined) return undefined;
  try {
    return mockFor(def);
  } catch {
    return undefined;
  }
}

function cancelledError(dao, cause) {
  return new DAOError("cancelled", "CANCELLED", `${dao}: the call was cancelled.`, { dao, cause });
}

/// Steps 1-12 with every hook.
async function runSteps(dao, def, input, signal, options, brief) {
  const ctx = { dao, name: def.name, attempt: 0, signal, params: undefined, request: undefined, response: undefined };
  const hookRetries = def.retry?.count ?? 1;
  for (;;) {
    ctx.attempt++;
    await prepare(def, ctx, input);
    const mock = mockFor(def);
    const args = { dao: def.engineKey, request: nativeRequest(def, ctx.request), wire: ctx.params, read: def.read };
    // A hook from didReceive on sees the whole response (its headers, a fixture's `$headers` too).
    if (brief && !def.hooks.didReceive && !def.hooks.outputEntity && !def.hooks.deliver) args.brief = true;
    const key = cacheKey(def, ctx);
    if (key !== undefined) args.cacheKey = key;
    if (mock !== null) addMock(def, mock, args);
    if (mock === null && def.cacheMode === "both" && ctx.attempt === 1 && typeof options.onCache === "function") {
      await deliverCached(def, ctx, args, options.onCache);
    }
    let answer;
    try {
      answer = mock !== null || ctx.request.multipart === undefined ? await plugin.call("daoSend", args, { signal })
        : await plugin.shared.httpTransfer.sendMultipart(ctx.request.url, {
          method: ctx.request.method, headers: ctx.request.headers, ...ctx.request.multipart, signal,
          onProgress: options.onProgress, connectTimeoutMs: def.timeout?.connectMs,
          totalTimeoutMs: def.timeout?.totalMs, retry: def.retry ?? undefined,
        });
    } catch (error) {
      signal.throwIfAborted();
      throw fromNative(error, def.name);
    }
    const raw = args.read === "response" || (mock === null && ctx.request.multipart !== undefined);
    let result;
    try {
      result = await processAnswer(def, ctx, answer, raw, mock !== null ? "mock" : "network");
    } catch (error) {
      if (answer.cacheToken !== undefined) await settleCacheEntry(answer, false);
      throw error;
    }
    if (answer.cacheToken !== undefined) await settleCacheEntry(answer, result.retry === undefined);
    if (result.retry === undefined) return result;
    if (ctx.attempt > hookRetries) {
      throw new DAOError("server", "RETRY_EXHAUSTED", `${def.name}: a hook asked for another attempt after ${ctx.attempt} attempts (retry.count is ${hookRetries}).`, {
        dao: def.name, status: ctx.response.status, response: responseSummary(ctx.response),
      });
    }
    await sleep(result.retry, signal);
  }
}

/// `daoRead`, its errors as DAO errors.
function daoRead(def, ctx, args) {
  try {
    return plugin.execSync("daoRead", [{ dao: def.engineKey, method: ctx.request.method, ...args }]);
  } catch (error) {
    throw fromNative(error, def.name);
  }
}

/// Steps 8-12 for one answer (`raw`: as the response came): `{retry: afterMs}` or `{data, response}`.
async function processAnswer(def, ctx, answer, raw, source) {
  const response = ctx.response = daoResponse(answer, source, ctx.request);
  if (def.hooks.didReceive) {
    const received = await runHook(def, "didReceive", response, ctx);
    if (received?.[RETRY] === true) return { retry: received.afterMs };
  }
  let read = answer;
  if (raw) {
    const { status, statusText, headers, url, body, bodyBytes } = answer;
    read = daoRead(def, ctx, { answer: { status, statusText, headers, url, body, bodyBytes }, read: def.hooks.outputEntity ? "entity" : "data" });
  }
  let value = read.data;
  if (def.hooks.outputEntity) {
    const entity = await runHook(def, "outputEntity", value, ctx);
    if (entity?.[RETRY] === true) return { retry: entity.afterMs };
    value = def.response?.keyPath ? daoRead(def, ctx, { entity: entity ?? null, read: "data" }).data : entity;
  }
  const converted = convertEntity(def, value, () => response);
  const data = def.hooks.deliver ? await runHook(def, "deliver", converted, ctx) : converted;
  return { data, response };
}

/// Stores (or drops) the native side's pending cache entry (`answer.cacheToken`) once the answer did (or did
/// not) validate.
function settleCacheEntry(answer, store) {
  return PromisePrototypeThen(plugin.call(store ? "cacheCommit" : "cacheDiscard", { token: answer.cacheToken }), undefined, (error) => {
    console.error(`jsbridge: the HTTP cache could not store a response: ${error.message}`);
  });
}

/// `both` mode: delivers a validating cached answer to `onCache` before the network answer (one that fails
/// the DAO's checks is skipped).
async function deliverCached(def, ctx, args, onCache) {
  let cached;
  try {
    cached = await plugin.call("daoSend", { ...args, lookup: true }, { signal: ctx.signal });
  } catch (error) {
    ctx.signal.throwIfAborted();
    throw fromNative(error, def.name);
  }
  if (cached === null) return;
  let result;
  try {
    result = await processAnswer(def, ctx, cached, args.read === "response", "cache");
  } catch (error) {
    // A stored answer that no longer passes the DAO's checks is skipped: the network's answer decides.
    ctx.signal.throwIfAborted();
    return;
  }
  if (result.retry === undefined) await onCache(result.data, { source: "cache", status: result.response.status });
}

/// The definition as the native engine reads it (`JavaScriptDAO` in HTTPPlugin+DAO.swift): the parts that are
/// data, as JSON text (the key under which the engine keeps it).
function wireDefinition(def) {
  let headers;
  try {
    headers = headerPairs(new Headers(def.headers ?? {}));
  } catch {
    headers = [];   // a bad header is each call's error, from `prepare` (such a DAO is not plain)
    def.plain = false;
  }
  const timeout = typeof def.timeout === "number" ? { totalMs: def.timeout } : def.timeout ?? undefined;
  if (typeof def.timeout === "number") def.timeout = timeout;
  const cache = def.cacheMode === undefined ? undefined : { mode: def.cacheMode, intervalMs: def.cache?.intervalMs };
  return JSONStringify({
    name: def.name, baseURL: def.baseURL, path: def.path, method: def.method, headers,
    params: MethodMap(def.paramSpecs, (spec) => ({ ...spec, default: typeof spec.default === "function" ? undefined : spec.default })),
    encoding: def.encoding, response: { keyPath: def.response?.keyPath, type: def.response?.type },
    timeout: timeout && { connectMs: timeout.connectMs, totalMs: timeout.totalMs }, retry: def.retry ?? undefined, cache,
  });
}

/// The mock of a call that can take `DAO.send`'s shortest way (null: the network), or undefined: valid `params`
/// and `options`, no signal or queue, and the plain way's conditions.
function shortestWayMock(def, params, options) {
  if (params === null || typeof params !== "object" || options === null || typeof options !== "object"
    || options.signal !== undefined || def.queue !== undefined) return undefined;
  return plainMock(def, options);
}

// MARK: - The DAO object

const definitions = new SafeWeakMap(); // DAO -> merged definition
const dataOfResult = (result) => result.data;

/// A data-access object made by `HTTP.dao(definition)`; see docs/http.md, "DAOs".
class DAO {
  #def; #inFlight = new SafeSet();
  /// Aborts the calls made without a signal of their own when the DAO has no hooks (no user code sees the
  /// signal, so nothing can leave listeners on it); `cancel()` aborts it and starts a new one. An
  /// AbortController per call costs more than the rest of the JavaScript of a plain call
  /// (Benchmarks/README.md, "HTTP").
  #shared = new AbortController();

  constructor(token, def) {
    if (token !== definitions) throw new TypeError("Illegal constructor: use HTTP.dao(definition)");
    this.#def = def;
    definitions.set(this, def);
  }

  get name() { return this.#def.name; }
  get method() { return this.#def.method; }
  /// Calls in flight.
  get pending() { return this.#inFlight.size; }

  /// A DAO that inherits this one's settings and hooks (its own hooks run after these).
  extend(definition) { return make(definition, this.#def); }

  /// Calls the DAO; resolves with the delivered data. `options.signal` aborts it (`CANCELLED`).
  send(params = {}, options = {}) {
    const def = this.#def;
    const mock = shortestWayMock(def, params, options);
    if (mock !== undefined) {
      // The bridge call's promise and one step after it (`run` and `#call` would add three more).
      return this.#shareSignal((signal) => plugin.call("daoSend", plainArgs(def, params, mock, true), { signal }),
        (answer) => settlePlain(def, answer, true), (error) => fromNative(error, def.name));
    }
    return this.#call(params, options, (signal) => PromisePrototypeThen(run(this, def, params, signal, options, true), dataOfResult));
  }

  /// Like `send`, resolving with `{data, status, headers, url, source, attempts}`.
  request(params = {}, options = {}) {
    return this.#call(params, options, (signal) => PromisePrototypeThen(run(this, this.#def, params, signal, options), ({ data, response }) => ({
      data, status: response.status, headers: response.headers, url: response.url, source: response.source,
      attempts: response.attempts,
    })));
  }

  /// Runs the hooks up to `willSend`, then streams the response into a file like `HTTP.download` (options
  /// `filename`, `overwrite`, `onProgress`, `signal`); resolves with `{filePath, mimeType, length, suggestedFilename}`.
  download(params = {}, options = {}) {
    return this.#call(params, options, async (signal) => {
      const ctx = { dao: this, name: this.name, attempt: 1, signal, params: undefined, request: undefined };
      const request = await prepare(this.#def, ctx, params);
      if (request.body !== undefined || request.multipart !== undefined) {
        throw new TypeError(`${this.name}: a download sends no body (use query or header parameters).`);
      }
      try {
        return await plugin.shared.httpTransfer.download(request.url, {
          method: request.method, headers: request.headers, filename: options.filename, overwrite: options.overwrite,
          onProgress: options.onProgress, signal,
        });
      } catch (error) {
        signal.throwIfAborted();
        throw fromNative(error, this.name);
      }
    });
  }

  /// Runs `work(signal)` as one call: counted in `pending`, cancelled by `cancel()` / `options.signal` (always
  /// rejecting with `CANCELLED`), through the DAO's queue when it has one.
  #call(params, options, work) {
    if (params === null || typeof params !== "object") return PromiseReject(new TypeError(`${this.name}: params must be an object.`));
    if (options === null || typeof options !== "object") return PromiseReject(new TypeError(`${this.name}: options must be an object.`));
    const userSignal = options.signal;
    if (userSignal !== undefined && !(userSignal instanceof AbortSignal)) {
      return PromiseReject(new TypeError(`${this.name}: options.signal is not an AbortSignal.`));
    }
    const name = this.name;
    const cancelled = (cause) => cancelledError(name, cause);
    const start = (queueSignal) => {
      if (userSignal === undefined && queueSignal === undefined && !this.#def.hasHooks && options.onCache === undefined) {
        return this.#shareSignal(work);
      }
      const controller = new AbortController();
      const signal = AbortSignal.any(MethodFilter([controller.signal, userSignal, queueSignal], (s) => s !== undefined));
      const entry = { controller };
      this.#inFlight.add(entry);
      return new Promise((resolve, reject) => {
        const onAbort = () => reject(cancelled(signal.reason));
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
        // Cleanup in both branches rather than `.finally`, which costs JSC two closures and two more promises
        // per call (measured: ~17% of the JS time of a DAO call).
        const done = () => { signal.removeEventListener("abort", onAbort); this.#inFlight.delete(entry); };
        PromisePrototypeThen(work(signal), (value) => { done(); resolve(value); },
          (error) => { done(); if (signal.aborted) onAbort(); else reject(error); });
      });
    };
    if (this.#def.queue === undefined) return start(undefined);
    // Waiting in the queue is part of the call: `cancel()` and `pending` see it.
    const waiting = { controller: new AbortController() };
    this.#inFlight.add(waiting);
    const waitSignal = userSignal === undefined ? waiting.controller.signal
      : AbortSignal.any([waiting.controller.signal, userSignal]);
    let started = false;
    return PromisePrototypeThen(queue(this.#def.queue).add(({ signal }) => {
      started = true;
      this.#inFlight.delete(waiting);
      return start(signal);
    }, { signal: waitSignal }), undefined, (error) => {
      this.#inFlight.delete(waiting);
      throw started ? error : cancelled(error);
    });
  }

  /// `work` with the DAO's shared signal: for a hook-less DAO called without `onCache`, whose only waits
  /// (bridge calls, mock delays) end as soon as the signal aborts, so no listener of its own is needed. A call
  /// under way when `cancel()` aborted the signal rejects with `CANCELLED` however its work ended; otherwise
  /// its value goes through `then` and its error through `otherwise`.
  #shareSignal(work, then = (value) => value, otherwise = (error) => error) {
    const signal = this.#shared.signal;
    const entry = { controller: this.#shared };
    this.#inFlight.add(entry);
    let pending;
    try {
      pending = work(signal);
    } catch (error) {
      pending = PromiseReject(error);
    }
    return PromisePrototypeThen(pending, (value) => {
      this.#inFlight.delete(entry);
      if (signal.aborted) throw cancelledError(this.name, signal.reason);
      return then(value);
    }, (error) => {
      this.#inFlight.delete(entry);
      throw signal.aborted ? cancelledError(this.name, signal.reason) : otherwise(error);
    });
  }

  /// Cancels every call of this DAO in flight (each rejects with `CANCELLED`); returns how many.
  cancel(reason) {
    const entries = [...this.#inFlight];
    const shared = this.#shared;
    this.#shared = new AbortController();
    reason ??= new DOMException(`${this.name} was cancelled`, "AbortError");
    shared.abort(reason);
    for (const entry of entries) entry.controller.abort(reason);
    return entries.length;
  }

  get [Symbol.toStringTag]() { return "DAO"; }
}

function make(definition, base) {
  const where = `HTTP.dao(${definition?.name === undefined ? "" : JSONStringify(definition.name)})`;
  checkDefinition(definition, where);
  const def = merge(base ?? {}, definition);
  def.name = definition.name ?? (base === undefined ? undefined : `${base.name}+`);
  if (typeof def.name !== "string" || def.name === "") throw new TypeError(`${where}: a DAO needs a name (used in errors and for mock fixtures).`);
  def.method = MethodToUpperCase(`${def.method ?? "GET"}`);
  def.paramSpecs = MethodMap(ObjectEntries(def.params ?? {}), ([name, spec]) => paramSpec(name, spec));
  def.hasHooks = ObjectKeys(def.hooks).length > 0;
  def.cacheMode = typeof def.cache === "string" ? def.cache : def.cache ? def.cache.mode : undefined;
  // No hook and no multipart body: the engine builds the request from the parameters too.
  def.plain = !def.hasHooks && def.encoding !== "multipart" && typeof def.cache?.key !== "function";
  def.defaultFunctions = MethodMap(MethodFilter(def.paramSpecs, (spec) => typeof spec.default === "function"), (spec) => [spec.name, spec.default]);
  def.wire = wireDefinition(def);
  // The number the engine knows the definition by (its text when the engine's table is full).
  def.engineKey = plugin.execSync("daoDefine", [def.wire]) ?? def.wire;
  // `daoSend`'s arguments for a plain call without parameters (full, brief): made once.
  const read = def.read = readStage(def);
  const cacheKey = typeof def.cache?.key === "string" ? { cacheKey: def.cache.key } : {};
  def.sendArgs = [
    ObjectFreeze({ dao: def.engineKey, read, ...cacheKey }), ObjectFreeze({ dao: def.engineKey, read, brief: true, ...cacheKey }),
  ];
  return new DAO(definitions, ObjectFreeze(def));
}

/// `HTTP.dao(definition)`: a new DAO.
function dao(definition) { return make(definition, undefined); }

plugin.shared.httpDAO = { dao, DAO, DAOError, serverError, retry };
