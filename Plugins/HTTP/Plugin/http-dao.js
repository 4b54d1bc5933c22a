// http-dao.js - HAccess-style data-access objects: `HTTP.dao(definition)`. A DAO maps call parameters to a
// request (path, query, body, headers), runs its lifecycle hooks in a fixed order, sends the request
// through the plugin's `request` action (or a mock), checks and converts the response into models, and
// reports every failure as a `DAOError` with a domain (see docs/http.md, "DAOs").

const PLUGIN = "HTTP";
const { BridgeError, DOMException, AbortSignal, AbortController, URLSearchParams } = runtime;
const { Headers, headersFrom, headerPairs, base64Encode, base64Decode, queue } = plugin.shared.httpCore;

/// The hooks in the order they run.
const HOOKS = ["setUpHeaders", "setUpParams", "didSetUpParams", "willSend", "didReceive", "outputEntity", "deliver"];
const ENCODINGS = ["query", "json", "form", "multipart"];
const PLACEMENTS = ["query", "body", "header", "path"];
const CACHE_MODES = ["none", "http", "alternative", "both", "onlyWrite"];
const DEFINITION_KEYS = new Set([
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
Object.defineProperty(DAOError.prototype, "name", { value: "DAOError", writable: true, configurable: true });

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

function issuesError(dao, message, issues) {
  return new DAOError("request", "INVALID_ARGUMENT", message, { dao, data: { issues } });
}

/// A native failure as a DAOError of the matching domain (the native error kept as `cause`).
function fromNative(error, dao) {
  if (error instanceof DAOError || !(error instanceof BridgeError)) return error;
  const domain = NATIVE_DOMAINS[error.code] ?? "request";
  return new DAOError(domain, error.code, `${dao}: ${error.message}`, {
    dao, data: error.data, cause: error, status: error.data?.status,
  });
}

// MARK: - Definitions

function checkDefinition(definition, where) {
  if (definition === null || typeof definition !== "object") throw new TypeError(`${where}: the definition must be an object.`);
  for (const key of Object.keys(definition)) {
    if (!DEFINITION_KEYS.has(key)) throw new TypeError(`${where}: unknown key '${key}' (known: ${[...DEFINITION_KEYS].join(", ")}).`);
  }
  if (definition.encoding !== undefined && !ENCODINGS.includes(definition.encoding)) {
    throw new TypeError(`${where}: encoding must be one of ${ENCODINGS.join(", ")}; got '${definition.encoding}'.`);
  }
  const cache = definition.cache;
  const cacheMode = typeof cache === "string" ? cache : cache?.mode;
  if (cache !== undefined && cache !== null && cache !== false && !CACHE_MODES.includes(cacheMode)) {
    throw new TypeError(`${where}: cache mode must be one of ${CACHE_MODES.join(", ")}; got '${cacheMode}'.`);
  }
  for (const [name, spec] of Object.entries(definition.params ?? {})) {
    if (typeof spec === "string" || spec === true) continue;
    if (spec === null || typeof spec !== "object") throw new TypeError(`${where}: params.${name} must be a wire name or an options object.`);
    if (spec.in !== undefined && !PLACEMENTS.includes(spec.in)) {
      throw new TypeError(`${where}: params.${name}.in must be one of ${PLACEMENTS.join(", ")}; got '${spec.in}'.`);
    }
  }
  for (const hook of HOOKS) {
    const fn = definition.hooks?.[hook] ?? definition[hook];
    if (fn !== undefined && typeof fn !== "function") throw new TypeError(`${where}: hook '${hook}' must be a function.`);
  }
  for (const key of Object.keys(definition.hooks ?? {})) {
    if (!HOOKS.includes(key)) throw new TypeError(`${where}: unknown hook '${key}' (hooks: ${HOOKS.join(", ")}).`);
  }
}

/// `child` over `base`: scalars replace, headers/params/response/retry/timeout/cache/mock merge by key,
/// hooks chain (the base's run first).
function merge(base, child) {
  const out = { ...base };
  for (const [key, value] of Object.entries(child)) {
    if (HOOKS.includes(key) || key === "hooks") continue;
    const mergeable = ["headers", "params", "response", "retry", "timeout", "cache", "mock"].includes(key);
    out[key] = mergeable && isPlainObject(value) && isPlainObject(base[key]) ? { ...base[key], ...value } : value;
  }
  out.hooks = {};
  for (const hook of HOOKS) {
    const own = child.hooks?.[hook] ?? child[hook];
    const chain = [...(base.hooks?.[hook] ?? [])];
    if (own !== undefined) chain.push(own);
    if (chain.length > 0) out.hooks[hook] = chain;
  }
  return out;
}

function isPlainObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function paramSpec(name, spec) {
  if (typeof spec === "string") return { name, wire: spec };
  if (spec === true) return { name, wire: name };
  return {
    name, wire: spec.mapTo ?? spec.name ?? name, in: spec.in, required: spec.required === true,
    default: spec.default, ignore: spec.ignore === true,
  };
}

// MARK: - Building the request

/// Splits the call's parameters into path / query / body / header parts by wire name (issues collected).
function mapParams(def, input, issues) {
  const out = { path: {}, header: {}, params: {}, placement: {} };
  for (const spec of def.paramSpecs) {
    if (spec.ignore) continue;
    let value = input[spec.name];
    if (value === undefined) value = typeof spec.default === "function" ? spec.default() : spec.default;
    if (value === undefined || value === null) {
      if (spec.required) issues.push({ path: `params.${spec.name}`, message: "is required" });
      continue;
    }
    const placement = spec.in ?? (def.pathNames.has(spec.wire) ? "path" : undefined);
    if (placement === "path") out.path[spec.wire] = value;
    else if (placement === "header") out.header[spec.wire] = value;
    else {
      out.params[spec.wire] = value;
      if (placement !== undefined) out.placement[spec.wire] = placement;
    }
  }
  for (const [name, value] of Object.entries(input)) {
    if (def.declared.has(name) || value === undefined) continue;
    if (def.pathNames.has(name)) out.path[name] = value;
    else out.params[name] = value;
  }
  return out;
}

function scalar(value) {
  if (value instanceof Date) return value.toISOString();
  return typeof value === "object" && value !== null ? JSON.stringify(value) : `${value}`;
}

/// `application/x-www-form-urlencoded` text; arrays repeat their key.
function formEncode(entries) {
  if (entries.length === 0) return "";
  const form = new URLSearchParams();
  for (const [key, value] of entries) {
    if (Array.isArray(value)) for (const item of value) form.append(key, scalar(item));
    else form.append(key, scalar(value));
  }
  return form.toString();
}

function joinURL(base, path) {
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(path ?? "")) return path;
  if (base === undefined) return path ?? "";
  if (path === undefined || path === "") return base;
  return base.replace(/\/+$/, "") + "/" + path.replace(/^\/+/, "");
}

function isFileValue(value) {
  return isPlainObject(value) && (typeof value.path === "string" || value.data !== undefined);
}

/// The request a DAO sends: `{method, url, headers: Headers, body?: string | Uint8Array}`.
function buildRequest(def, mapped, params, headers, issues) {
  const method = def.method;
  let url = def.pathNames.size === 0 ? def.url : def.url.replace(/\{([^}]+)\}/g, (_, name) => {
    const value = mapped.path[name];
    if (value === undefined) {
      issues.push({ path: `params.${name}`, message: `is required by the path '${def.path}'` });
      return "";
    }
    return encodeURIComponent(scalar(value));
  });
  const encoding = def.encoding ?? (method === "GET" || method === "HEAD" || method === "DELETE" ? "query" : "json");
  const query = [];
  const body = [];
  for (const [key, value] of Object.entries(params)) {
    const placement = mapped.placement[key] ?? (encoding === "query" ? "query" : "body");
    (placement === "query" ? query : body).push([key, value]);
  }
  const search = formEncode(query);
  if (search !== "") url += (url.includes("?") ? "&" : "?") + search;
  const request = { method, url, headers, body: undefined };
  if (encoding === "multipart") {
    // Files are `{ path }` or `{ data }` objects (with optional filename, contentType); the rest are fields.
    request.multipart = { fields: [], files: [] };
    for (const [key, value] of body) {
      if (isFileValue(value)) request.multipart.files.push({ ...value, name: key });
      else if (Array.isArray(value)) for (const item of value) request.multipart.fields.push([key, scalar(item)]);
      else request.multipart.fields.push([key, scalar(value)]);
    }
  } else if (body.length > 0) {
    request.body = encoding === "json" ? JSON.stringify(Object.fromEntries(body)) : formEncode(body);
    if (!headers.has("content-type")) {
      // A plain call's headers are its DAO's, shared: a copy gets the content type.
      if (headers === def.plainHeaders) request.headers = new Headers(headers);
      request.headers.set("content-type", encoding === "json" ? "application/json" : "application/x-www-form-urlencoded;charset=UTF-8");
    }
  }
  return request;
}

// MARK: - Responses

/// The headers of a brief answer's response (immutable, so one object serves every call).
const NO_HEADERS = headersFrom([], "immutable");

/// Whether `object` has an enumerable property.
function hasKeys(object) {
  for (const _ in object) return true;
  return false;
}

/// The response a DAO's hooks see, of an answer; a brief answer (`{status, json}`) stands for the request's URL, with no headers.
function daoResponse(answer, source, request) {
  return {
    status: answer.status, statusText: answer.statusText ?? "",
    headers: answer.headers === undefined ? NO_HEADERS : headersFrom(answer.headers, "immutable"),
    url: answer.url ?? request.url, redirected: answer.redirected === true, attempts: answer.attempts ?? 1, source,
    text: answer.body ?? (answer.bodyBase64 !== undefined || answer.json !== undefined ? undefined : ""),
    bytes: answer.bodyBase64 !== undefined ? base64Decode(answer.bodyBase64) : undefined,
    json: answer.json,
  };
}

/// What an error keeps of a response: status, headers, url and the body's text.
function responseSummary(response) {
  return {
    status: response.status, statusText: response.statusText, headers: Object.fromEntries(response.headers),
    url: response.url, body: response.text ?? (response.json !== undefined ? JSON.stringify(response.json) : ""),
  };
}

function valueAt(value, keyPath) {
  let current = value;
  for (const key of keyPath.split(".")) {
    if (current === null || typeof current !== "object" || !(key in current)) return undefined;
    current = current[key];
  }
  return current;
}

function prefixIssues(issues, prefix) {
  return issues.map((issue) => ({ ...issue, path: prefix === "" ? issue.path : issue.path === "" ? prefix
    : issue.path.startsWith("[") ? prefix + issue.path : `${prefix}.${issue.path}` }));
}

/// Converts the entity per `response.model`: a model name, `[name]` (an array of models) or nothing (raw).
function convertEntity(dao, spec, value, response) {
  const keyPath = spec.keyPath ?? "";
  const model = spec.model;
  if (model === undefined || model === null) return value;
  if (value === undefined || value === null) {
    throw dataFormatError(dao, model, response, [{ path: keyPath, code: "REQUIRED", message: "the response has no value here", input: value ?? null }]);
  }
  const Model = globalThis.Model;
  if (Model === undefined) {
    throw new DAOError("request", "PLUGIN_NOT_FOUND", `${dao}: converting responses into models needs the Model plugin.`, { dao });
  }
  if (!Array.isArray(model)) return convertOne(Model, dao, model, response, model, value, keyPath);
  if (!Array.isArray(value)) {
    throw dataFormatError(dao, model, response, [{ path: keyPath, code: "TYPE", message: `expected an array of ${model[0]}`, input: typeof value }]);
  }
  const issues = [];
  const out = value.map((item, index) => {
    try {
      return convertOne(Model, dao, model, response, model[0], item, `${keyPath}[${index}]`);
    } catch (error) {
      if (!(error instanceof DAOError) || error.domain !== "dataFormat") throw error;
      issues.push(...error.data.issues);
      return undefined;
    }
  });
  if (issues.length > 0) throw dataFormatError(dao, model, response, issues);
  return out;
}

/// `Model.convert(name, item)`, its `DATA_FORMAT` issues (under `prefix`) as the DAO's `dataFormat` error.
function convertOne(Model, dao, model, response, name, item, prefix) {
  try {
    return Model.convert(name, item);
  } catch (error) {
    if (error instanceof BridgeError && error.code === "DATA_FORMAT") {
      throw dataFormatError(dao, model, response, prefixIssues(error.data?.issues ?? [], prefix));
    }
    throw error;
  }
}

function dataFormatError(dao, model, response, issues) {
  return new DAOError("dataFormat", "DATA_FORMAT",
    `${dao}: the response does not match ${Array.isArray(model) ? `[${model[0]}]` : model}: ` +
      issues.slice(0, 3).map((i) => `${i.path || "(root)"}: ${i.message}`).join("; "),
    { dao, data: { issues }, status: response.status, response: responseSummary(response) });
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

function isEnvelope(value) {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith("$"));
}

/// A mocked answer in the shape of the `request` action's.
async function mockAnswer(def, mock, request, signal) {
  const configured = mockSettings();
  let content;
  if (mock.mode === "auto") {
    const model = def.response?.model;
    if (model === undefined) {
      throw new DAOError("request", "MOCK_UNAVAILABLE",
        `${def.name}: auto mocks need response.model (Model.sample makes the data).`, { dao: def.name });
    }
    const { Model } = globalThis;
    const wire = (name) => Model.sample(name, { json: true });   // the response's form, mapped keys included
    const sample = Array.isArray(model) ? [wire(model[0]), wire(model[0])] : wire(model);
    content = sample;
    const keyPath = def.response.keyPath;
    if (keyPath) for (const key of keyPath.split(".").reverse()) content = { [key]: content };
  } else {
    const args = { dao: def.name };
    if (mock.variant !== undefined) args.variant = mock.variant;
    if (mock.dir !== undefined) args.dir = mock.dir;
    content = await plugin.call("mockFixture", args, { signal });
  }
  const envelope = isEnvelope(content) ? content : { $body: content };
  const delayMs = envelope.$delayMs ?? mock.delayMs ?? configured.delayMs ?? 0;
  if (delayMs > 0) await sleep(delayMs, signal);
  if (envelope.$error !== undefined) {
    const kind = `${envelope.$error}`;
    if (kind === "timeout") throw new BridgeError("TIMEOUT", `mocked timeout for ${request.url}`, { data: { url: request.url, mock: true } });
    throw new BridgeError("NETWORK_ERROR", `mocked network error (${kind}) for ${request.url}`,
      { data: { kind, url: request.url, mock: true } });
  }
  const headers = Object.entries(envelope.$headers ?? {}).map(([name, value]) => [name.toLowerCase(), `${value}`]);
  let body = envelope.$text;
  if (body === undefined && envelope.$body !== undefined) {
    body = JSON.stringify(envelope.$body);
    if (!headers.some(([name]) => name === "content-type")) headers.push(["content-type", "application/json"]);
  }
  return { status: envelope.$status ?? 200, statusText: "", headers, url: request.url, redirected: false, body: body ?? "" };
}

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { signal.removeEventListener("abort", onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(timer); reject(signal.reason); };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

// MARK: - Running a call

/// Runs the `hook` functions of the chain (callers skip the call - and its await - when there are none).
async function runHook(def, hook, value, ctx) {
  for (const fn of def.hooks[hook] ?? []) {
    const result = await fn.call(ctx.dao, value, ctx);
    ctx.signal.throwIfAborted();
    if (result !== null && typeof result === "object" && result[RETRY] === true) return result;
    if (result !== undefined) value = result;
  }
  return value;
}

/// The `request` action's arguments; `brief`: the caller delivers the data alone (see `run`).
function nativeRequest(def, request, brief) {
  const args = { url: request.url };
  if (request.method !== "GET") args.method = request.method;
  const headers = request.headers === def.plainHeaders ? def.plainHeaderPairs : headerPairs(request.headers);
  if (headers.length > 0) args.headers = headers;
  if (typeof request.body === "string") args.body = request.body;
  else if (request.body instanceof Uint8Array) args.bodyBase64 = base64Encode(request.body);
  else if (request.body !== undefined) throw new TypeError(`${def.name}: willSend left a body that is neither a string nor a Uint8Array.`);
  if (request.multipart !== undefined && request.body !== undefined) {
    throw new TypeError(`${def.name}: a multipart request has fields and files, not a body.`);
  }
  if (def.parsedNatively) {
    args.json = true;
    if (brief) args.brief = true;
  }
  const timeout = typeof def.timeout === "number" ? { totalMs: def.timeout } : def.timeout;
  if (timeout?.connectMs !== undefined) args.connectTimeoutMs = timeout.connectMs;
  if (timeout?.totalMs !== undefined) args.totalTimeoutMs = timeout.totalMs;
  if (def.retry !== undefined && def.retry !== null) args.retry = def.retry;
  return args;
}

const SAFE_METHODS = ["GET", "HEAD", "OPTIONS", "TRACE"];

/// The cache options sent with a request (`cache` of the definition), or undefined. Unsafe methods always
/// go through the cache (mode `none` at least), which drops the stored entries of their URL.
function cacheOptions(def, ctx) {
  let cache = def.cache;
  if (cache === undefined || cache === null || cache === false) cache = "none";
  if (typeof cache === "string") cache = { mode: cache };
  if (cache.mode === "none" && SAFE_METHODS.includes(ctx.request.method.toUpperCase())) return undefined;
  const out = { mode: cache.mode };
  if (cache.key !== undefined) {
    out.key = typeof cache.key === "function" ? `${cache.key.call(ctx.dao, ctx.request, ctx.params)}` : `${cache.key}`;
  }
  if (cache.intervalMs !== undefined) out.intervalMs = cache.intervalMs;
  out.parameters = Object.keys(ctx.params).sort().map((key) => [key, scalar(ctx.params[key])]);
  return out;
}

/// Steps 8-12 for one answer: `{retry: afterMs}` or `{data, response}`.
async function processAnswer(def, ctx, answer, source) {
  const response = ctx.response = daoResponse(answer, source, ctx.request);
  const received = def.hooks.didReceive ? await runHook(def, "didReceive", response, ctx) : response;
  if (received?.[RETRY] === true) return { retry: received.afterMs };
  checkStatus(def, response);
  const json = parseBody(def, response);
  const entity = def.hooks.outputEntity ? await runHook(def, "outputEntity", json, ctx) : json;
  if (entity?.[RETRY] === true) return { retry: entity.afterMs };
  const converted = convertResponse(def, entity, response);
  const data = def.hooks.deliver ? await runHook(def, "deliver", converted, ctx) : converted;
  return { data, response };
}

/// Step 9's status check: a response other than 2xx is an `http` error.
function checkStatus(def, response) {
  if (response.status >= 200 && response.status <= 299) return;
  throw new DAOError("http", "HTTP_STATUS", `${def.name}: ${response.url} answered HTTP ${response.status}${response.statusText ? " " + response.statusText : ""}.`, {
    dao: def.name, status: response.status, response: responseSummary(response),
    data: { status: response.status, url: response.url, body: response.text ?? "" },
  });
}

/// Step 11: the value at the response's key path, converted into its model.
function convertResponse(def, entity, response) {
  const spec = def.response ?? {};
  const value = spec.keyPath ? valueAt(entity, spec.keyPath) : entity;
  return convertEntity(def.name, spec, value, response);
}

/// Stores (or drops) the native side's pending cache entry (`answer.cacheToken`) once the answer did (or did
/// not) validate.
function settleCacheEntry(answer, store) {
  return plugin.call(store ? "cacheCommit" : "cacheDiscard", { token: answer.cacheToken }).catch((error) => {
    console.error(`jsbridge: the HTTP cache could not store a response: ${error.message}`);
  });
}

/// `both` mode: delivers a validating cached answer to `onCache` before the network answer.
async function deliverCached(def, ctx, args, onCache) {
  let cached;
  try {
    cached = await plugin.call("cacheLookup", args, { signal: ctx.signal });
  } catch (error) {
    ctx.signal.throwIfAborted();
    throw fromNative(error, def.name);
  }
  if (cached === null) return;
  const result = await processAnswer(def, ctx, cached, "cache");
  if (result.retry === undefined) await onCache(result.data, { source: "cache", status: result.response.status });
}

/// Steps 1-6: headers, parameters, mapping, the request, `willSend`; sets and returns `ctx.request`.
async function prepare(def, ctx, input) {
  ctx.signal.throwIfAborted();
  let headers = new Headers(def.headers ?? {});
  headers = def.hooks.setUpHeaders ? await runHook(def, "setUpHeaders", headers, ctx) : headers;
  if (!(headers instanceof Headers)) headers = new Headers(headers);
  let params = { ...input };
  params = def.hooks.setUpParams ? await runHook(def, "setUpParams", params, ctx) : params;
  const issues = [];
  const mapped = mapParams(def, params, issues);
  for (const [name, value] of Object.entries(mapped.header)) headers.set(name, scalar(value));
  ctx.params = def.hooks.didSetUpParams ? await runHook(def, "didSetUpParams", mapped.params, ctx) : mapped.params;
  const request = buildRequest(def, mapped, ctx.params, headers, issues);
  checkParameters(def, issues);
  ctx.request = def.hooks.willSend ? await runHook(def, "willSend", request, ctx) : request;
  return ctx.request;
}

/// One call of `dao` with `input` parameters: resolves with `{data, response}`.
/// `brief`: the call resolves with the data alone (`send`), so a successful JSON answer that no hook reads
/// need not carry the response's headers, status text and final URL (docs/http.md, "How a request crosses
/// the bridge").
function run(dao, def, input, signal, options, brief = false) {
  if (!takesPlainWay(def, options)) return runSteps(dao, def, input, signal, options, brief);
  try {
    return runPlain(def, input, signal, brief);
  } catch (error) {
    return Promise.reject(error);
  }
}

/// Whether a call can take `runPlain`: a plain DAO (`def.plain`), no `onCache`, no mock. A bad mock mode
/// says no, so that `runSteps` rejects with its error.
function takesPlainWay(def, options) {
  if (!def.plain || options.onCache !== undefined) return false;
  try {
    return mockFor(def) === null;
  } catch {
    return false;
  }
}

/// Step 6's check: the issues found while mapping the parameters, as one `INVALID_ARGUMENT` error.
function checkParameters(def, issues) {
  if (issues.length === 0) return;
  throw issuesError(def.name, `${def.name}: invalid parameters: ` + issues.map((i) => `${i.path} ${i.message}`).join("; "), issues);
}

/// A call of a DAO without hooks, cache, multipart body or mock (`def.plain`): `runSteps`' requests, answers
/// and errors without its awaits, copies and per-call `Headers`. A DAO call took ~9 us of CPU more than the
/// same bridge call and model conversion written by hand, of ~98 us, at 64 in flight (Benchmarks/README.md,
/// "HTTP").
function runPlain(def, input, signal, brief) {
  const { request, answer } = startPlain(def, input, signal, brief);
  return answer.then((value) => settlePlain(def, request, value), (error) => {
    signal.throwIfAborted();
    throw fromNative(error, def.name);
  });
}

/// `runPlain`'s steps up to the request: `{request, answer}`, `answer` the bridge call's promise.
function startPlain(def, input, signal, brief) {
  signal.throwIfAborted();
  if (def.plainRequest !== undefined && !hasKeys(input)) {
    return { request: def.plainRequest, answer: plugin.call("request", def.plainArgs[brief ? 1 : 0], { signal }) };
  }
  const issues = [];
  const mapped = mapParams(def, input, issues);
  let headers = def.plainHeaders;
  const named = Object.keys(mapped.header);
  if (named.length > 0) {
    headers = new Headers(def.headers ?? {});
    for (const name of named) headers.set(name, scalar(mapped.header[name]));
  }
  const request = buildRequest(def, mapped, mapped.params, headers, issues);
  checkParameters(def, issues);
  return { request, answer: plugin.call("request", nativeRequest(def, request, brief), { signal }) };
}

/// `runPlain`'s steps from the answer: `{data, response}`.
function settlePlain(def, request, answer) {
  const response = daoResponse(answer, answer.source ?? "network", request);
  checkStatus(def, response);
  return { data: convertResponse(def, parseBody(def, response), response), response };
}

/// Whether a call can take `DAO.send`'s shortest way: valid `params` and `options`, no signal or queue, and
/// `runPlain`'s conditions.
function isPlainCall(def, params, options) {
  return params !== null && typeof params === "object" && options !== null && typeof options === "object"
    && options.signal === undefined && def.queue === undefined && takesPlainWay(def, options);
}

function cancelledError(dao, cause) {
  return new DAOError("cancelled", "CANCELLED", `${dao}: the call was cancelled.`, { dao, cause });
}

/// Steps 1-12 with every hook, the mocks, the cache and multipart bodies.
async function runSteps(dao, def, input, signal, options, brief) {
  const ctx = { dao, name: def.name, attempt: 0, signal, params: undefined, request: undefined, response: undefined };
  const hookRetries = def.retry?.count ?? 1;
  for (;;) {
    ctx.attempt++;
    await prepare(def, ctx, input);
    const mock = mockFor(def);
    let answer;
    if (mock !== null) {
      try {
        answer = await mockAnswer(def, mock, ctx.request, signal);
      } catch (error) {
        signal.throwIfAborted();
        throw fromNative(error, def.name);
      }
    } else {
      const args = nativeRequest(def, ctx.request, brief);
      const cache = cacheOptions(def, ctx);
      if (cache !== undefined) args.cache = cache;
      if (cache?.mode === "both" && ctx.attempt === 1 && typeof options.onCache === "function") {
        await deliverCached(def, ctx, args, options.onCache);
      }
      try {
        answer = ctx.request.multipart === undefined ? await plugin.call("request", args, { signal })
          : await plugin.shared.httpTransfer.sendMultipart(ctx.request.url, {
            method: ctx.request.method, headers: ctx.request.headers, ...ctx.request.multipart, signal,
            onProgress: options.onProgress, connectTimeoutMs: args.connectTimeoutMs,
            totalTimeoutMs: args.totalTimeoutMs, retry: args.retry,
          });
      } catch (error) {
        signal.throwIfAborted();
        throw fromNative(error, def.name);
      }
    }
    let result;
    try {
      result = await processAnswer(def, ctx, answer, mock !== null ? "mock" : answer.source ?? "network");
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

/// The body per `response.type`: `json` (default; empty bodies, 204/205 and HEAD give null), `text`, `bytes`.
function parseBody(def, response) {
  const type = def.response?.type ?? "json";
  // Parsed natively: only a 2xx response's non-empty body other than 204's and 205's, as below.
  if (type === "json" && response.json !== undefined) return response.json;
  if (type === "bytes") return response.bytes ?? runtime.utf8Encode(response.text);
  const text = response.text ?? runtime.utf8Decode(response.bytes);
  if (type === "text") return text;
  if (text === "" || response.status === 204 || response.status === 205 || def.method === "HEAD") return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DAOError("dataFormat", "DATA_FORMAT", `${def.name}: the response of ${response.url} is not valid JSON: ${error.message}`, {
      dao: def.name, status: response.status, response: responseSummary(response), cause: error,
      data: { issues: [{ path: "", code: "INVALID_JSON", message: error.message, input: text.slice(0, 200) }] },
    });
  }
}

// MARK: - The DAO object

const definitions = new WeakMap(); // DAO -> merged definition
const dataOf = (result) => result.data;

/// A data-access object made by `HTTP.dao(definition)`; see docs/http.md, "DAOs".
class DAO {
  #def; #inFlight = new Set();
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
    if (isPlainCall(def, params, options)) {
      // The bridge call's promise and one step after it (`runPlain` and `#call` would add three more).
      let request;
      return this.#shareSignal((signal) => {
        const started = startPlain(def, params, signal, true);
        request = started.request;
        return started.answer;
      }, (answer) => settlePlain(def, request, answer).data, (error) => fromNative(error, def.name));
    }
    return this.#call(params, options, (signal) => run(this, def, params, signal, options, true).then(dataOf));
  }

  /// Like `send`, resolving with `{data, status, headers, url, source, attempts}`.
  request(params = {}, options = {}) {
    return this.#call(params, options, (signal) => run(this, this.#def, params, signal, options).then(({ data, response }) => ({
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
    if (params === null || typeof params !== "object") return Promise.reject(new TypeError(`${this.name}: params must be an object.`));
    if (options === null || typeof options !== "object") return Promise.reject(new TypeError(`${this.name}: options must be an object.`));
    const userSignal = options.signal;
    if (userSignal !== undefined && !(userSignal instanceof AbortSignal)) {
      return Promise.reject(new TypeError(`${this.name}: options.signal is not an AbortSignal.`));
    }
    const name = this.name;
    const cancelled = (cause) => cancelledError(name, cause);
    const start = (queueSignal) => {
      if (userSignal === undefined && queueSignal === undefined && !this.#def.hasHooks && options.onCache === undefined) {
        return this.#shareSignal(work);
      }
      const controller = new AbortController();
      const signal = AbortSignal.any([controller.signal, userSignal, queueSignal].filter((s) => s !== undefined));
      const entry = { controller };
      this.#inFlight.add(entry);
      return new Promise((resolve, reject) => {
        const onAbort = () => reject(cancelled(signal.reason));
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
        // Cleanup in both branches rather than `.finally`, which costs JSC two closures and two more promises
        // per call (measured: ~17% of the JS time of a DAO call).
        const done = () => { signal.removeEventListener("abort", onAbort); this.#inFlight.delete(entry); };
        work(signal).then((value) => { done(); resolve(value); },
          (error) => { done(); if (signal.aborted) onAbort(); else reject(error); });
      });
    };
    if (this.#def.queue === undefined) return start(undefined);
    let started = false;
    return queue(this.#def.queue).add(({ signal }) => { started = true; return start(signal); }, { signal: userSignal })
      .catch((error) => { throw started ? error : cancelled(error); });
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
      pending = Promise.reject(error);
    }
    return pending.then((value) => {
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
  const where = `HTTP.dao(${definition?.name === undefined ? "" : JSON.stringify(definition.name)})`;
  checkDefinition(definition, where);
  const def = merge(base ?? {}, definition);
  def.name = definition.name ?? (base === undefined ? undefined : `${base.name}+`);
  if (typeof def.name !== "string" || def.name === "") throw new TypeError(`${where}: a DAO needs a name (used in errors and for mock fixtures).`);
  def.method = `${def.method ?? "GET"}`.toUpperCase();
  def.url = joinURL(def.baseURL, def.path);
  def.pathNames = new Set([...(def.path ?? "").matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
  def.paramSpecs = Object.entries(def.params ?? {}).map(([name, spec]) => paramSpec(name, spec));
  def.declared = new Set(Object.keys(def.params ?? {}));
  def.hasHooks = Object.keys(def.hooks).length > 0;
  // A JSON response that no hook sees as text arrives parsed (`request`'s `json`; docs/http.md, "How a
  // request crosses the bridge").
  def.parsedNatively = (def.response?.type ?? "json") === "json" && !def.hooks.didReceive && !def.hooks.outputEntity
    && !def.hooks.deliver;
  // No hook, no cache (cacheOptions gives undefined), no multipart body: `runPlain`.
  const cacheMode = typeof def.cache === "string" ? def.cache : def.cache?.mode;
  def.plain = !def.hasHooks && (def.cache === undefined || def.cache === null || def.cache === false || cacheMode === "none")
    && SAFE_METHODS.includes(def.method) && def.encoding !== "multipart";
  // The headers of every call without header parameters (never changed: a call with some makes its own). Bad
  // headers stay a call's error, as with hooks: such a DAO takes `runSteps`.
  try {
    def.plainHeaders = new Headers(def.headers ?? {});
    def.plainHeaderPairs = headerPairs(def.plainHeaders);
    // The request, and the action's arguments (full, brief), of a plain call without parameters, when the DAO
    // declares none and its path has no placeholders (so nothing of `mapped` but an empty placement is read).
    if (def.paramSpecs.length === 0 && def.pathNames.size === 0) {
      def.plainRequest = Object.freeze(buildRequest(def, { placement: {} }, {}, def.plainHeaders, []));
      def.plainArgs = [nativeRequest(def, def.plainRequest, false), nativeRequest(def, def.plainRequest, true)];
    }
  } catch {
    def.plain = false;
  }
  return new DAO(definitions, Object.freeze(def));
}

/// `HTTP.dao(definition)`: a new DAO.
function dao(definition) { return make(definition, undefined); }

plugin.shared.httpDAO = { dao, DAO, DAOError, serverError, retry };
