// http.js - the HTTP plugin's JS API: WHATWG `fetch`, `Headers`, `Request`, `Response`, and the `HTTP`
// namespace. Requests go through the plugin's async action `request`; bodies cross the bridge as UTF-8
// text when they are valid UTF-8, else as base64 (see docs/http.md).

const PLUGIN = "HTTP";
const { URL, URLSearchParams, DOMException, AbortSignal, BridgeError, utf8Encode, utf8Decode } = runtime;

// MARK: - Base64 (request bodies out, binary response bodies in)

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DECODE = new Uint8Array(128).fill(255);
for (let i = 0; i < 64; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

function base64Encode(bytes) {
  const parts = [];
  let out = "";
  const n = bytes.length;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += ALPHABET[v >> 18] + ALPHABET[(v >> 12) & 63] + ALPHABET[(v >> 6) & 63] + ALPHABET[v & 63];
    if (out.length >= 8192) { parts.push(out); out = ""; }
  }
  if (i < n) {
    const v = (bytes[i] << 16) | (i + 1 < n ? bytes[i + 1] << 8 : 0);
    out += ALPHABET[v >> 18] + ALPHABET[(v >> 12) & 63] + (i + 1 < n ? ALPHABET[(v >> 6) & 63] : "=") + "=";
  }
  parts.push(out);
  return parts.join("");
}

function base64Decode(text) {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  const bytes = new Uint8Array(Math.floor(end * 3 / 4));
  let j = 0, buffer = 0, bits = 0;
  for (let i = 0; i < end; i++) {
    buffer = (buffer << 6) | DECODE[text.charCodeAt(i)];
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[j++] = (buffer >> bits) & 0xff;
    }
  }
  return bytes;
}

// MARK: - Headers

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function normalizeValue(value) {
  return `${value}`.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
}

function checkName(name) {
  name = `${name}`;
  if (!TOKEN.test(name)) throw new TypeError(`Header name is not valid: "${name}"`);
  return name.toLowerCase();
}

function checkValue(value) {
  value = normalizeValue(value);
  if (/[\0\r\n]/.test(value)) throw new TypeError(`Header value is not valid: ${JSON.stringify(value)}`);
  return value;
}

/// A Headers object's `{ list: [[lowerName, value]], guard: "none" | "immutable" }` (a private field: a
/// WeakMap entry per object cost each request two map insertions and the collector's weak-map work).
let stateOf;

function headersState(headers) {
  const state = stateOf(headers);
  if (state === undefined) throw new TypeError('Value of "this" must be of type Headers');
  return state;
}

function mutable(headers) {
  const state = headersState(headers);
  if (state.guard === "immutable") throw new TypeError("Headers are immutable");
  return state.list;
}

class Headers {
  #state = { list: [], guard: "none" };
  static {
    stateOf = (headers) => (headers !== null && typeof headers === "object" && #state in headers ? headers.#state : undefined);
  }

  constructor(init) {
    if (init === undefined || init === null) return;
    if (typeof init !== "object" && typeof init !== "function") {
      throw new TypeError("Failed to construct 'Headers': The provided value is not of type 'HeadersInit'.");
    }
    if (init instanceof Headers) {
      for (const [name, value] of headersState(init).list) this.append(name, value);
    } else if (typeof init[Symbol.iterator] === "function") {
      for (const pair of init) {
        const entry = typeof pair === "string" ? null : [...pair];
        if (entry === null || entry.length !== 2) {
          throw new TypeError("Failed to construct 'Headers': Each header pair must be an iterable [name, value] tuple.");
        }
        this.append(entry[0], entry[1]);
      }
    } else {
      for (const key of Object.keys(init)) this.append(key, init[key]);
    }
  }

  append(name, value) {
    const list = mutable(this);
    list.push([checkName(name), checkValue(value)]);
  }

  delete(name) {
    const list = mutable(this);
    const lower = checkName(name);
    for (let i = list.length - 1; i >= 0; i--) if (list[i][0] === lower) list.splice(i, 1);
  }

  get(name) {
    const lower = checkName(name);
    const values = headersState(this).list.filter((entry) => entry[0] === lower).map((entry) => entry[1]);
    return values.length === 0 ? null : values.join(", ");
  }

  getSetCookie() {
    return headersState(this).list.filter((entry) => entry[0] === "set-cookie").map((entry) => entry[1]);
  }

  has(name) {
    const lower = checkName(name);
    return headersState(this).list.some((entry) => entry[0] === lower);
  }

  set(name, value) {
    const list = mutable(this);
    const lower = checkName(name);
    value = checkValue(value);
    const index = list.findIndex((entry) => entry[0] === lower);
    if (index === -1) {
      list.push([lower, value]);
      return;
    }
    list[index] = [lower, value];
    for (let i = list.length - 1; i > index; i--) if (list[i][0] === lower) list.splice(i, 1);
  }

  /// Sorted by name, values of a name combined with ", " (each Set-Cookie kept apart).
  #sorted() {
    const list = headersState(this).list;
    const names = [...new Set(list.map((entry) => entry[0]))].sort();
    const out = [];
    for (const name of names) {
      if (name === "set-cookie") {
        for (const entry of list) if (entry[0] === name) out.push([name, entry[1]]);
      } else {
        out.push([name, list.filter((entry) => entry[0] === name).map((entry) => entry[1]).join(", ")]);
      }
    }
    return out;
  }

  forEach(callback, thisArg) {
    if (typeof callback !== "function") throw new TypeError("Headers.forEach needs a function.");
    for (const [name, value] of this.#sorted()) callback.call(thisArg, value, name, this);
  }

  *entries() { yield* this.#sorted(); }
  *keys() { for (const [name] of this.#sorted()) yield name; }
  *values() { for (const [, value] of this.#sorted()) yield value; }
  [Symbol.iterator]() { return this.entries(); }
  get [Symbol.toStringTag]() { return "Headers"; }
}

function headersFrom(list, guard) {
  const headers = new Headers();
  const state = headersState(headers);
  state.list = list;
  state.guard = guard;
  return headers;
}

// MARK: - Bodies

/// A body's content: text (a JS string) and/or bytes (a Uint8Array); converted lazily.
class BodyContent {
  constructor(text, bytes) { this.text = text; this.bytes = bytes; }
  asText() {
    if (this.text === undefined) this.text = utf8Decode(this.bytes);
    return this.text.charCodeAt(0) === 0xfeff ? this.text.slice(1) : this.text;
  }
  asBytes() {
    if (this.bytes === undefined) this.bytes = utf8Encode(this.text);
    return this.bytes;
  }
  /// What crosses the bridge: text when we have it, else base64.
  wire() {
    return this.text !== undefined ? { body: this.text } : { bodyBase64: base64Encode(this.bytes) };
  }
}

function copyBytes(view) {
  return new Uint8Array(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength));
}

/// Extracts a body and its default Content-Type from a BodyInit.
function extractBody(body) {
  if (typeof body === "string") return [new BodyContent(body, undefined), "text/plain;charset=UTF-8"];
  if (body instanceof URLSearchParams) {
    return [new BodyContent(body.toString(), undefined), "application/x-www-form-urlencoded;charset=UTF-8"];
  }
  if (body instanceof ArrayBuffer || (typeof SharedArrayBuffer === "function" && body instanceof SharedArrayBuffer)) {
    return [new BodyContent(undefined, new Uint8Array(body.slice(0))), null];
  }
  if (ArrayBuffer.isView(body)) return [new BodyContent(undefined, copyBytes(body)), null];
  if (body !== null && typeof body === "object" && typeof body.getReader === "function") {
    throw new TypeError("ReadableStream bodies are not supported yet: pass a string, ArrayBuffer or typed array.");
  }
  return [new BodyContent(`${body}`, undefined), "text/plain;charset=UTF-8"];
}

const bodyUsedError = () => new TypeError("Body is unusable: Body has already been read");

/// The Body mixin over `#content` / `#used` slots kept in a WeakMap (shared by Request and Response).
const bodies = new WeakMap(); // Request | Response -> { content: BodyContent | null, used: boolean }

function consume(owner) {
  const state = bodies.get(owner);
  if (state === undefined) return Promise.reject(new TypeError("Illegal invocation"));
  if (state.used) return Promise.reject(bodyUsedError());
  if (state.content !== null) state.used = true;
  return Promise.resolve(state.content);
}

const bodyMethods = {
  get bodyUsed() { return bodies.get(this)?.used === true; },
  text() { return consume(this).then((content) => content === null ? "" : content.asText()); },
  json() { return this.text().then((text) => JSON.parse(text)); },
  arrayBuffer() {
    return consume(this).then((content) => {
      if (content === null) return new ArrayBuffer(0);
      const bytes = content.asBytes();
      return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer.slice(0) : copyBytes(bytes).buffer;
    });
  },
  bytes() { return this.arrayBuffer().then((buffer) => new Uint8Array(buffer)); },
};

function mixBody(cls) {
  for (const key of Object.keys(bodyMethods)) {
    Object.defineProperty(cls.prototype, key, { ...Object.getOwnPropertyDescriptor(bodyMethods, key), enumerable: false });
  }
}

// MARK: - Request

const METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"];
const REDIRECTS = ["follow", "error", "manual"];

function normalizeMethod(method) {
  method = `${method}`;
  if (!TOKEN.test(method)) throw new TypeError(`'${method}' is not a valid HTTP method.`);
  const upper = method.toUpperCase();
  if (upper === "CONNECT" || upper === "TRACE" || upper === "TRACK") {
    throw new TypeError(`'${method}' HTTP method is unsupported.`);
  }
  return METHODS.includes(upper) ? upper : method;
}

// The serialized URLs of recently parsed inputs: scripts fetch the same few endpoints again and again, and
// the WHATWG parser (js/url.js, in JavaScript) costs several microseconds per URL. Parsing is a pure function
// of the input string, so a hit returns exactly what parsing would; the map is emptied when it grows large.
const parsedURLs = new Map();
const PARSED_URLS_MAX = 256;

function parseURL(input) {
  const text = `${input}`;
  let href = parsedURLs.get(text);
  if (href !== undefined) return href;
  try {
    href = new URL(text).href;
  } catch (error) {
    throw new TypeError(`Invalid URL: ${JSON.stringify(text)}`, { cause: error });
  }
  if (parsedURLs.size >= PARSED_URLS_MAX) parsedURLs.clear();
  parsedURLs.set(text, href);
  return href;
}

class Request {
  #url; #method; #headers; #signal; #redirect; #userSignal;

  constructor(input, init = {}) {
    if (init === null || (typeof init !== "object" && typeof init !== "function")) init = {};
    let content = null;
    if (input instanceof Request) {
      if (input.bodyUsed) throw new TypeError("Cannot construct a Request with a Request object that has already been used.");
      this.#url = input.#url;
      this.#method = input.#method;
      this.#headers = new Headers(input.#headers);
      this.#redirect = input.#redirect;
      this.#userSignal = input.#userSignal;
      content = bodies.get(input).content;
    } else {
      this.#url = parseURL(input);
      this.#method = "GET";
      this.#headers = new Headers();
      this.#redirect = "follow";
      this.#userSignal = undefined;
    }
    if (init.method !== undefined) this.#method = normalizeMethod(init.method);
    if (init.headers !== undefined) this.#headers = new Headers(init.headers);
    if (init.redirect !== undefined) {
      if (!REDIRECTS.includes(init.redirect)) {
        throw new TypeError(`Failed to construct 'Request': '${init.redirect}' is not a valid value for 'redirect'.`);
      }
      this.#redirect = init.redirect;
    }
    if (init.signal !== undefined) {
      if (init.signal !== null && !(init.signal instanceof AbortSignal)) {
        throw new TypeError("Failed to construct 'Request': member signal is not of type AbortSignal.");
      }
      this.#userSignal = init.signal ?? undefined;
    }
    if (init.body !== undefined && init.body !== null) {
      const [extracted, type] = extractBody(init.body);
      content = extracted;
      if (type !== null && !this.#headers.has("content-type")) this.#headers.append("content-type", type);
    } else if (init.body === null) {
      content = null;
    }
    if (content !== null && (this.#method === "GET" || this.#method === "HEAD")) {
      throw new TypeError("Request with GET/HEAD method cannot have body.");
    }
    if (input instanceof Request && content !== null && init.body === undefined) bodies.get(input).used = true;
    bodies.set(this, { content, used: false });
  }

  get url() { return this.#url; }
  get method() { return this.#method; }
  get headers() { return this.#headers; }
  get redirect() { return this.#redirect; }
  get signal() {
    if (this.#signal === undefined) this.#signal = this.#userSignal ?? new runtime.AbortController().signal;
    return this.#signal;
  }
  get body() { return null; }

  clone() {
    if (this.bodyUsed) throw new TypeError("Failed to execute 'clone' on 'Request': Request body is already used");
    const copy = new Request(this, {});
    bodies.get(this).used = false;
    return copy;
  }

  /// What the plugin's `request` action takes (internal).
  static _wire(request) {
    const args = {
      url: request.#url, method: request.#method, headers: headersState(request.#headers).list,
      redirect: request.#redirect,
    };
    const content = bodies.get(request).content;
    if (content !== null) Object.assign(args, content.wire());
    return [args, request.#userSignal];
  }

  get [Symbol.toStringTag]() { return "Request"; }
}
mixBody(Request);
const wireRequest = Request._wire;
delete Request._wire;

// MARK: - Response

const NULL_BODY_STATUS = [101, 103, 204, 205, 304];
const REDIRECT_STATUS = [301, 302, 303, 307, 308];

class Response {
  #status; #statusText; #headers; #url; #redirected; #type;

  constructor(body = null, init = {}) {
    if (init === null || (typeof init !== "object" && typeof init !== "function")) init = {};
    const status = init.status === undefined ? 200 : Number(init.status);
    if (!Number.isInteger(status) || status < 200 || status > 599) {
      throw new RangeError(`Failed to construct 'Response': The status provided (${init.status}) is outside the range [200, 599].`);
    }
    const statusText = init.statusText === undefined ? "" : `${init.statusText}`;
    if (/[^\t\x20-\x7e\x80-\xff]/.test(statusText)) throw new TypeError("Failed to construct 'Response': Invalid statusText");
    this.#status = status;
    this.#statusText = statusText;
    this.#headers = new Headers(init.headers);
    this.#url = "";
    this.#redirected = false;
    this.#type = "default";
    let content = null;
    if (body !== null && body !== undefined) {
      if (NULL_BODY_STATUS.includes(status)) throw new TypeError(`Response with null body status (${status}) cannot have body`);
      const [extracted, type] = extractBody(body);
      content = extracted;
      if (type !== null && !this.#headers.has("content-type")) this.#headers.append("content-type", type);
    }
    bodies.set(this, { content, used: false });
  }

  static json(data, init = {}) {
    const text = JSON.stringify(data);
    if (text === undefined) throw new TypeError("Failed to execute 'json' on 'Response': The data is not JSON serializable");
    const response = new Response(text, init);
    if (!(init && init.headers && new Headers(init.headers).has("content-type"))) {
      response.#headers.set("content-type", "application/json");
    }
    return response;
  }

  static error() {
    const response = new Response(null, { status: 200 });
    response.#status = 0;
    response.#type = "error";
    headersState(response.#headers).guard = "immutable";
    return response;
  }

  static redirect(url, status = 302) {
    const href = parseURL(url);
    if (!REDIRECT_STATUS.includes(status)) throw new RangeError(`Invalid status code ${status}`);
    const response = new Response(null, { status, headers: { location: href } });
    headersState(response.#headers).guard = "immutable";
    return response;
  }

  /// A response from the plugin's answer (internal).
  static _fromWire(answer) {
    const response = new Response(null, { status: 200 });
    response.#status = answer.status;
    response.#statusText = answer.statusText;
    response.#headers = headersFrom(answer.headers, "immutable");
    response.#url = answer.url;
    response.#redirected = answer.redirected;
    response.#type = "basic";
    const content = answer.body !== undefined ? new BodyContent(answer.body, undefined)
      : new BodyContent(undefined, base64Decode(answer.bodyBase64));
    bodies.get(response).content = content;
    return response;
  }

  get status() { return this.#status; }
  get statusText() { return this.#statusText; }
  get ok() { return this.#status >= 200 && this.#status <= 299; }
  get headers() { return this.#headers; }
  get url() { return this.#url; }
  get redirected() { return this.#redirected; }
  get type() { return this.#type; }
  get body() { return null; }

  clone() {
    if (this.bodyUsed) throw new TypeError("Failed to execute 'clone' on 'Response': Response body is already used");
    const copy = new Response(null, { status: 200 });
    copy.#status = this.#status;
    copy.#statusText = this.#statusText;
    copy.#headers = headersFrom(headersState(this.#headers).list.map((entry) => [...entry]), headersState(this.#headers).guard);
    copy.#url = this.#url;
    copy.#redirected = this.#redirected;
    copy.#type = this.#type;
    bodies.get(copy).content = bodies.get(this).content;
    return copy;
  }

  get [Symbol.toStringTag]() { return "Response"; }
}
mixBody(Response);
const responseFromWire = Response._fromWire;
delete Response._fromWire;

// MARK: - fetch

function abortReason(signal) {
  return signal.reason !== undefined ? signal.reason : new DOMException("This operation was aborted", "AbortError");
}

/// A network failure as fetch reports it: a TypeError whose `cause` is the BridgeError (its code copied).
function networkError(error) {
  if (!(error instanceof runtime.BridgeError) || error.code === "PERMISSION_DENIED") return error;
  const failure = new TypeError(`fetch failed: ${error.message}`, { cause: error });
  if (failure.cause !== error) failure.cause = error;
  failure.code = error.code;
  return failure;
}

function fetch(input, init) {
  let args, signal;
  try {
    const request = new Request(input, init);
    [args, signal] = wireRequest(request);
  } catch (error) {
    return Promise.reject(error);
  }
  if (signal !== undefined && signal.aborted) return Promise.reject(abortReason(signal));
  return plugin.call("request", args, signal === undefined ? undefined : { signal }).then(
    (answer) => responseFromWire(answer),
    (error) => {
      if (signal !== undefined && signal.aborted) throw abortReason(signal);
      throw networkError(error);
    });
}

// MARK: - Queues

const queueToken = Symbol("RequestQueue");
const queues = new Map(); // name -> RequestQueue

function checkMaxConcurrent(value) {
  const n = Number(value);
  if (!(n === Infinity || (Number.isInteger(n) && n >= 1))) {
    throw new RangeError(`maxConcurrent must be a positive integer or Infinity. Received ${value}`);
  }
  return n;
}

/// Reports an error thrown by a callback without breaking the queue (as an uncaught exception).
function reportLater(error) {
  Promise.resolve().then(() => { throw error; });
}

/// A named queue: tasks start in FIFO order, at most `maxConcurrent` at a time (see docs/http.md, "Queues").
class RequestQueue {
  #name; #max; #running = new Set(); #waiting = []; #idleCallbacks = new Set();

  constructor(token, name, max) {
    if (token !== queueToken) throw new TypeError("Illegal constructor: use HTTP.queue(name, options)");
    this.#name = name;
    this.#max = max;
  }

  get name() { return this.#name; }
  get maxConcurrent() { return this.#max; }
  set maxConcurrent(value) { this.resize(value); }
  get running() { return this.#running.size; }
  get waiting() { return this.#waiting.length; }
  get isIdle() { return this.#running.size === 0 && this.#waiting.length === 0; }

  /// Changes the limit: growing starts waiting tasks at once; shrinking lets running tasks finish.
  resize(maxConcurrent) {
    this.#max = checkMaxConcurrent(maxConcurrent);
    this.#pump();
    return this;
  }

  /// Queues `fn({ signal })` (it returns a value or a promise); resolves or rejects as it does.
  /// `options.signal` aborting while the task waits removes it (rejecting with the signal's reason); once
  /// running, the task's `signal` aborts when that signal or `cancelAll` does.
  add(fn, options) {
    if (typeof fn !== "function") return Promise.reject(new TypeError("queue.add needs a function."));
    const userSignal = options?.signal ?? undefined;
    if (userSignal !== undefined && !(userSignal instanceof AbortSignal)) {
      return Promise.reject(new TypeError("options.signal is not an AbortSignal."));
    }
    if (userSignal !== undefined && userSignal.aborted) return Promise.reject(abortReason(userSignal));
    return new Promise((resolve, reject) => {
      const task = { fn, resolve, reject, userSignal, controller: null, onAbort: null };
      if (userSignal !== undefined) {
        task.onAbort = () => {
          const index = this.#waiting.indexOf(task);
          if (index === -1) return;
          this.#waiting.splice(index, 1);
          reject(abortReason(userSignal));
          this.#checkIdle();
        };
        userSignal.addEventListener("abort", task.onAbort, { once: true });
      }
      this.#waiting.push(task);
      this.#pump();
    });
  }

  /// `fetch(input, init)` once the queue lets it start; `cancelAll` aborts it through its signal.
  fetch(input, init) {
    let userSignal;
    try {
      userSignal = init?.signal !== undefined && init?.signal !== null ? init.signal
        : input instanceof Request && init?.signal !== null ? input.signal : undefined;
    } catch (error) {
      return Promise.reject(error);
    }
    return this.add(({ signal }) => fetch(input, { ...init, signal }), { signal: userSignal });
  }

  /// Calls `callback(queue)` each time the queue drains (nothing running, nothing waiting).
  onIdle(callback) {
    if (typeof callback !== "function") throw new TypeError("queue.onIdle needs a function.");
    const entry = (queue) => callback(queue);
    this.#idleCallbacks.add(entry);
    return { remove: () => { this.#idleCallbacks.delete(entry); } };
  }

  /// Resolves when nothing is running or waiting (at once when the queue is already idle).
  idle() {
    if (this.isIdle) return Promise.resolve();
    return new Promise((resolve) => {
      const handle = this.onIdle(() => { handle.remove(); resolve(); });
    });
  }

  /// Rejects every waiting task with `reason` (default: an AbortError DOMException) and aborts the signal
  /// of every running task with it (queued fetches reject with it). Returns how many tasks were hit.
  cancelAll(reason) {
    if (reason === undefined) reason = new DOMException(`The queue "${this.#name}" was cancelled`, "AbortError");
    const waiting = this.#waiting.splice(0);
    const running = [...this.#running];
    for (const task of waiting) {
      task.userSignal?.removeEventListener("abort", task.onAbort);
      task.reject(reason);
    }
    for (const task of running) task.controller.abort(reason);
    this.#checkIdle();
    return waiting.length + running.length;
  }

  #pump() {
    while (this.#running.size < this.#max && this.#waiting.length > 0) this.#start(this.#waiting.shift());
  }

  #start(task) {
    if (task.userSignal !== undefined) task.userSignal.removeEventListener("abort", task.onAbort);
    task.controller = new runtime.AbortController();
    const signal = task.userSignal === undefined ? task.controller.signal
      : AbortSignal.any([task.userSignal, task.controller.signal]);
    this.#running.add(task);
    let result;
    try {
      result = Promise.resolve(task.fn({ signal }));
    } catch (error) {
      result = Promise.reject(error);
    }
    const done = () => {
      this.#running.delete(task);
      this.#pump();
      this.#checkIdle();
    };
    // Settle the task's promise first, so its handlers run before `idle()`'s.
    result.then((value) => { task.resolve(value); done(); }, (error) => { task.reject(error); done(); });
  }

  #checkIdle() {
    if (!this.isIdle) return;
    for (const callback of [...this.#idleCallbacks]) {
      if (!this.#idleCallbacks.has(callback)) continue;
      try {
        callback(this);
      } catch (error) {
        reportLater(error);
      }
    }
  }

  get [Symbol.toStringTag]() { return "RequestQueue"; }
}

/// The queue named `name` (created on first use with `maxConcurrent`, default 4; later options resize it).
function queue(name, options) {
  name = `${name}`;
  const max = options?.maxConcurrent;
  let existing = queues.get(name);
  if (existing === undefined) {
    existing = new RequestQueue(queueToken, name, max === undefined ? 4 : checkMaxConcurrent(max));
    queues.set(name, existing);
  } else if (max !== undefined) {
    existing.resize(max);
  }
  return existing;
}

/// The `[name, value]` pairs of `headers` in the order they were added (no sorting, no combining).
const headerPairs = (headers) => headersState(headers).list.map((entry) => [entry[0], entry[1]]);

plugin.shared.httpCore = { Headers, headersFrom, headerPairs, base64Encode, base64Decode, queue };

const HTTP = Object.freeze({
  fetch, Headers, Request, Response, queue, RequestQueue,
  // DAOs live in http-dao.js, loaded on first use.
  dao: (definition) => plugin.shared.httpDAO.dao(definition),
  serverError: (message, options) => plugin.shared.httpDAO.serverError(message, options),
  retry: (options) => plugin.shared.httpDAO.retry(options),
  get DAO() { return plugin.shared.httpDAO.DAO; },
  get DAOError() { return plugin.shared.httpDAO.DAOError; },
  /// Empties the HTTP cache of this app.
  clearCache: () => plugin.call("cacheClear", {}).then(() => undefined),
  download: (url, options) => plugin.shared.httpTransfer.download(url, options),
  upload: (url, options) => plugin.shared.httpTransfer.upload(url, options),
});

runtime.defineGlobal("fetch", fetch);
runtime.defineGlobal("Headers", Headers);
runtime.defineGlobal("Request", Request);
runtime.defineGlobal("Response", Response);
runtime.defineGlobal("HTTP", HTTP);
