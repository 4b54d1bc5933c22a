// http.js - the HTTP plugin's JS API: WHATWG `fetch`, `Headers`, `Request`, `Response`, and the `HTTP`
// namespace. Requests go through the plugin's async action `request`; a body crosses the bridge as a string
// when it is text, else as bytes beside the JSON (a Uint8Array: never base64; see docs/http.md). Blob, File and
// FormData are the engine's (js/blob.js, js/form-data.js): multipart bodies are serialised and parsed there only.

const PLUGIN = "HTTP";
const { URL, URLSearchParams, DOMException, AbortSignal, BridgeError, utf8Encode, utf8Decode } = runtime;
const {
  ArrayBuffer, ArrayPrototypeJoin, ArrayPrototypePush, ArrayPrototypeShift, ArrayPrototypeSplice, FunctionPrototypeCall, JSONParse,
  JSONStringify, MathTrunc, MethodCharCodeAt, MethodFilter, MethodFindIndex, MethodIncludes, MethodIndexOf,
  MethodJoin, MethodMap, MethodReplace, MethodSlice, MethodSome, MethodSort, MethodStartsWith,
  MethodToLowerCase, MethodToUpperCase, MethodToWellFormed, NumberIsFinite, NumberIsInteger, ObjectAssign,
  ObjectDefineProperty, ObjectFreeze, ObjectGetPrototypeOf, ObjectKeys, ObjectSetPrototypeOf, PromisePrototypeThen,
  PromiseReject, PromiseResolve, ReflectApply, ReflectGetOwnPropertyDescriptor, ReflectOwnKeys, RegExpPrototypeExec,
  RegExpPrototypeTest, SafeMap, SafeSet, SafeWeakMap, StringFromCharCode,
} = runtime.primordials;

// MARK: - WebIDL conversions

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/// WebIDL ByteString: a string whose code units are all at most U+00FF, else a TypeError.
function toByteString(value, what) {
  const text = `${value}`;
  if (RegExpPrototypeTest(/[^\u0000-\u00ff]/, text)) throw new TypeError(`${what} is not a valid ByteString: ${JSONStringify(text)}`);
  return text;
}

/// WebIDL `unsigned short`.
function toUnsignedShort(value) {
  const n = Number(value);
  if (!NumberIsFinite(n)) return 0;
  const x = MathTrunc(n) % 65536;
  return x < 0 ? x + 65536 : x === 0 ? 0 : x;
}

/// A WebIDL dictionary argument: undefined and null are empty, other non-objects a TypeError.
function toDictionary(value, what) {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" && typeof value !== "function") {
    throw new TypeError(`${what}: the options are not an object.`);
  }
  return value;
}

function toEnum(value, allowed, what) {
  const text = `${value}`;
  if (!MethodIncludes(allowed, text)) throw new TypeError(`${what}: '${text}' is not a valid value.`);
  return text;
}

// MARK: - Headers

/// Strips leading and trailing HTTP whitespace (HTAB, LF, CR, SP).
function normalizeValue(value) {
  return MethodReplace(value, /^[\t\n\r ]+|[\t\n\r ]+$/g, "");
}

function checkName(name) {
  name = toByteString(name, "Header name");
  if (!RegExpPrototypeTest(TOKEN, name)) throw new TypeError(`Header name is not valid: "${name}"`);
  return MethodToLowerCase(name);
}

function checkValue(value) {
  value = normalizeValue(toByteString(value, "Header value"));
  if (RegExpPrototypeTest(/[\0\r\n]/, value)) throw new TypeError(`Header value is not valid: ${JSONStringify(value)}`);
  return value;
}

/// A Headers object's `{ list: [[lowerName, value]], guard, sorted }` (a private field: a WeakMap entry per
/// object cost each request two map insertions and the collector's weak-map work). `sorted` caches the
/// sort-and-combine view until the list changes.
let stateOf;

function headersState(headers) {
  const state = stateOf(headers);
  if (state === undefined) throw new TypeError('Value of "this" must be of type Headers');
  return state;
}

function mutable(headers) {
  const state = headersState(headers);
  if (state.guard === "immutable") throw new TypeError("Headers are immutable");
  state.sorted = null;
  return state.list;
}

/// Sorted by name, values of a name combined with ", " (each Set-Cookie kept apart).
function sortedList(state) {
  if (state.sorted !== null) return state.sorted;
  const list = state.list;
  const names = MethodSort([...new SafeSet(MethodMap(list, (entry) => entry[0]))]);
  const out = [];
  for (const name of names) {
    if (name === "set-cookie") {
      for (const entry of list) if (entry[0] === name) ArrayPrototypePush(out, [name, entry[1]]);
    } else {
      ArrayPrototypePush(out, [name, MethodJoin(MethodMap(MethodFilter(list, (entry) => entry[0] === name), (entry) => entry[1]), ", ")]);
    }
  }
  state.sorted = out;
  return out;
}

/// `%IteratorPrototype%`, which WebIDL iterator prototypes inherit from.
const IteratorPrototype = ObjectGetPrototypeOf(ObjectGetPrototypeOf([][Symbol.iterator]()));

let iteratorTarget;
class HeadersIterator {
  #headers; #kind; #index = 0;
  static {
    iteratorTarget = (value) => value !== null && typeof value === "object" && #headers in value;
  }
  constructor(headers, kind) { this.#headers = headers; this.#kind = kind; }
  next() {
    if (!iteratorTarget(this)) throw new TypeError("Illegal invocation");
    // WebIDL's pair iterator: an index into the list as it is now, so changes during iteration count.
    const pairs = sortedList(headersState(this.#headers));
    if (this.#index >= pairs.length) return { value: undefined, done: true };
    const [name, value] = pairs[this.#index++];
    return { value: this.#kind === "key" ? name : this.#kind === "value" ? value : [name, value], done: false };
  }
}
ObjectSetPrototypeOf(HeadersIterator.prototype, IteratorPrototype);
ObjectDefineProperty(HeadersIterator.prototype, Symbol.toStringTag, { value: "Headers Iterator", configurable: true });
ObjectDefineProperty(HeadersIterator.prototype, "next", { enumerable: true });

/// Fills `headers` from a HeadersInit (a sequence of pairs or a record), as WebIDL converts it.
function fillHeaders(headers, init) {
  if (typeof init !== "object" && typeof init !== "function") {
    throw new TypeError("Failed to construct 'Headers': The provided value is not of type 'HeadersInit'.");
  }
  const iteratorMethod = init[Symbol.iterator];
  // Another Headers copies its list directly, unless its iteration was replaced (WebIDL then uses that).
  const state = stateOf(init);
  if (state !== undefined && iteratorMethod === headersEntries) {
    for (const [name, value] of state.list) headers.append(name, value);
    return;
  }
  if (iteratorMethod !== undefined && iteratorMethod !== null) {
    if (typeof iteratorMethod !== "function") throw new TypeError("Failed to construct 'Headers': @@iterator is not callable.");
    const pairs = [];
    for (const pair of { [Symbol.iterator]: () => FunctionPrototypeCall(iteratorMethod, init) }) {
      if (pair === null || (typeof pair !== "object" && typeof pair !== "function")) {
        throw new TypeError("Failed to construct 'Headers': Each header pair must be an iterable [name, value] tuple.");
      }
      const entry = MethodMap([...pair], (item) => toByteString(item, "Header"));
      if (entry.length !== 2) {
        throw new TypeError("Failed to construct 'Headers': Each header pair must be an iterable [name, value] tuple.");
      }
      ArrayPrototypePush(pairs, entry);
    }
    for (const [name, value] of pairs) headers.append(name, value);
    return;
  }
  // A record<ByteString, ByteString>: own enumerable keys in order (a Symbol key is a TypeError).
  const pairs = [];
  for (const key of ReflectOwnKeys(init)) {
    const descriptor = ReflectGetOwnPropertyDescriptor(init, key);
    if (descriptor === undefined || !descriptor.enumerable) continue;
    if (typeof key === "symbol") throw new TypeError("Failed to construct 'Headers': a header name cannot be a Symbol.");
    ArrayPrototypePush(pairs, [toByteString(key, "Header name"), toByteString(init[key], "Header value")]);
  }
  for (const [name, value] of pairs) headers.append(name, value);
}

class Headers {
  #state = { list: [], guard: "none", sorted: null };
  static {
    stateOf = (headers) => (headers !== null && typeof headers === "object" && #state in headers ? headers.#state : undefined);
  }

  constructor(init = undefined) {
    if (init === undefined) return;
    if (init === null) throw new TypeError("Failed to construct 'Headers': The provided value is not of type 'HeadersInit'.");
    fillHeaders(this, init);
  }

  append(name, value) {
    if (arguments.length < 2) throw new TypeError(`Headers.append needs 2 arguments, got ${arguments.length}.`);
    name = checkName(name);
    value = checkValue(value);
    const list = mutable(this);
    ArrayPrototypePush(list, [name, value]);
  }

  delete(name) {
    name = checkName(name);
    const list = mutable(this);
    for (let i = list.length - 1; i >= 0; i--) if (list[i][0] === name) ArrayPrototypeSplice(list, i, 1);
  }

  get(name) {
    const lower = checkName(name);
    const list = headersState(this).list;
    let out = null;
    for (const entry of list) {
      if (entry[0] !== lower) continue;
      out = out === null ? entry[1] : `${out}, ${entry[1]}`;
    }
    return out;
  }

  getSetCookie() {
    return MethodMap(MethodFilter(headersState(this).list, (entry) => entry[0] === "set-cookie"), (entry) => entry[1]);
  }

  has(name) {
    const lower = checkName(name);
    return MethodSome(headersState(this).list, (entry) => entry[0] === lower);
  }

  set(name, value) {
    if (arguments.length < 2) throw new TypeError(`Headers.set needs 2 arguments, got ${arguments.length}.`);
    const lower = checkName(name);
    value = checkValue(value);
    const list = mutable(this);
    const index = MethodFindIndex(list, (entry) => entry[0] === lower);
    if (index === -1) {
      ArrayPrototypePush(list, [lower, value]);
      return;
    }
    list[index] = [lower, value];
    for (let i = list.length - 1; i > index; i--) if (list[i][0] === lower) ArrayPrototypeSplice(list, i, 1);
  }

  forEach(callback, thisArg = undefined) {
    const state = headersState(this);
    if (typeof callback !== "function") throw new TypeError("Headers.forEach needs a function.");
    for (let i = 0; i < sortedList(state).length; i++) {
      const [name, value] = sortedList(state)[i];
      ReflectApply(callback, thisArg, [value, name, this]);
    }
  }

  entries() { headersState(this); return new HeadersIterator(this, "key+value"); }
  keys() { headersState(this); return new HeadersIterator(this, "key"); }
  values() { headersState(this); return new HeadersIterator(this, "value"); }
  get [Symbol.toStringTag]() { return "Headers"; }
}
const headersEntries = Headers.prototype.entries;
ObjectDefineProperty(Headers.prototype, Symbol.iterator, {
  value: headersEntries, writable: true, enumerable: false, configurable: true,
});

function headersFrom(list, guard) {
  const headers = new Headers();
  const state = headersState(headers);
  state.list = list;
  state.guard = guard;
  return headers;
}

function copyHeaders(headers, guard) {
  const state = headersState(headers);
  return headersFrom(MethodMap(state.list, (entry) => [entry[0], entry[1]]), guard ?? state.guard);
}

// MARK: - Bodies

/// A body's content: text (a JS string) and/or bytes (a Uint8Array); converted lazily. A body from a
/// ReadableStream has `stream` set instead until it is read whole, and a fetched body still arriving has
/// `native` (a NativeBody).
class BodyContent {
  constructor(text, bytes, stream = null, native = null) {
    this.text = text; this.bytes = bytes; this.stream = stream; this.native = native;
  }
  asText() {
    if (this.text === undefined) this.text = utf8Decode(this.bytes);
    return MethodCharCodeAt(this.text, 0) === 0xfeff ? MethodSlice(this.text, 1) : this.text;
  }
  asBytes() {
    if (this.bytes === undefined) this.bytes = utf8Encode(this.text);
    return this.bytes;
  }
  /// What crosses the bridge: text when we have it, else the bytes (beside the JSON).
  wire() {
    return this.text !== undefined ? { body: this.text } : { bodyBytes: this.bytes };
  }
}

function copyBytes(view) {
  return new Uint8Array(MethodSlice(view.buffer, view.byteOffset, view.byteOffset + view.byteLength));
}

const isReadableStream = (value) => {
  const ReadableStream = runtime.ReadableStream;
  return typeof ReadableStream === "function" && value instanceof ReadableStream;
};

/// Extracts a body and its default Content-Type from a BodyInit (the Fetch standard's "extract").
function extractBody(body) {
  if (typeof body === "string") return [new BodyContent(body, undefined), "text/plain;charset=UTF-8"];
  if (body !== null && typeof body === "object") {
    const blobBytes = runtime.blobInternals.bytesOf(body);
    if (blobBytes !== undefined) return [new BodyContent(undefined, blobBytes), body.type === "" ? null : body.type];
    if (runtime.formDataInternals.entriesOf(body) !== undefined) {
      const { bytes, contentType } = runtime.formDataInternals.serializeMultipart(body);
      return [new BodyContent(undefined, bytes), contentType];
    }
    if (body instanceof URLSearchParams) {
      return [new BodyContent(body.toString(), undefined), "application/x-www-form-urlencoded;charset=UTF-8"];
    }
    if (body instanceof ArrayBuffer) return [new BodyContent(undefined, new Uint8Array(MethodSlice(body, 0))), null];
    if (ArrayBuffer.isView(body)) return [new BodyContent(undefined, copyBytes(body)), null];
    if (isReadableStream(body)) {
      if (body.locked || runtime.streams.isDisturbed(body)) throw new TypeError("The ReadableStream body is locked or disturbed.");
      return [new BodyContent(undefined, undefined, body), null];
    }
  }
  return [new BodyContent(`${body}`, undefined), "text/plain;charset=UTF-8"];
}

/// Streams this file made (their reads mark the body used); a script's own streams are read with a reader.
const disturbedStreams = new WeakSet();


const bodyUsedError = () => new TypeError("Body is unusable: Body has already been read");

/// The Body mixin's state per Request/Response: `{ content: BodyContent | null, used, stream, headers }`.
const bodies = new SafeWeakMap();

/// Reads all of a ReadableStream's chunks into one Uint8Array.
async function readAll(stream) {
  const reader = stream.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (!(value instanceof Uint8Array)) throw new TypeError("A body stream chunk is not a Uint8Array.");
    ArrayPrototypePush(chunks, value);
    total += value.byteLength;
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) { out.set(chunk, offset); offset += chunk.byteLength; }
  return out;
}

/// The body's ReadableStream (made on first use: a body never read as a stream stays on the fast path).
function bodyStream(state) {
  if (state.content === null) return null;
  if (state.stream === null) {
    const content = state.content;
    if (state.used && content.stream === null) {
      // Read whole on the fast path (no stream made): the body is the stream that reading would have left,
      // disturbed and locked, so `getReader()` throws as in browsers (WPT response-stream-disturbed-5).
      const ReadableStream = runtime.ReadableStream;
      const stream = new ReadableStream({ start(controller) { controller.close(); } });
      PromisePrototypeThen(stream.getReader().read(), undefined, () => {});
      disturbedStreams.add(stream);
      state.stream = stream;
    } else if (content.stream !== null) {
      state.stream = content.stream;
    } else if (content.native !== null) {
      state.stream = content.native.stream();
    } else {
      const ReadableStream = runtime.ReadableStream;
      if (typeof ReadableStream !== "function") throw new TypeError("Response.body: ReadableStream is not implemented");
      let sent = false;
      const stream = new ReadableStream({
        type: "bytes",
        pull(controller) {
          disturbedStreams.add(stream);
          const bytes = sent ? null : content.asBytes();
          sent = true;
          if (bytes !== null && bytes.length > 0) {
            controller.enqueue(copyBytes(bytes));
            controller.close();
            return;
          }
          controller.close();
          // A BYOB read waiting on an empty body ends with a zero-length answer.
          controller.byobRequest?.respond(0);
        },
        cancel() { disturbedStreams.add(stream); },
      });
      state.stream = stream;
    }
  }
  return state.stream;
}

/// Takes the body's bytes (or null for no body), marking it used; rejects when it is unusable.
function consume(owner) {
  const state = bodies.get(owner);
  if (state === undefined) return PromiseReject(new TypeError("Illegal invocation"));
  if (isUnusable(state)) return PromiseReject(bodyUsedError());
  if (state.content === null) return PromiseResolve(null);
  state.used = true;
  // Fast path: a body never touched as a stream is read directly (one native call for a fetched body still
  // arriving); otherwise through the stream.
  const stream = state.stream ?? state.content.stream;
  if (stream === null) {
    const native = state.content.native;
    if (native === null) return PromiseResolve(state.content);
    return PromisePrototypeThen(native.readAll(), (bytes) => new BodyContent(undefined, bytes));
  }
  if (stream.locked) return PromiseReject(bodyUsedError());
  return PromisePrototypeThen(readAll(stream), (bytes) => new BodyContent(undefined, bytes));
}

function contentType(owner) {
  return bodies.get(owner).headers.get("content-type");
}

const bodyMethods = {
  get body() {
    const state = bodies.get(this);
    if (state === undefined) throw new TypeError("Illegal invocation");
    return bodyStream(state);
  },
  get bodyUsed() {
    const state = bodies.get(this);
    if (state === undefined) throw new TypeError("Illegal invocation");
    return state.used || (state.stream !== null && isDisturbedStream(state.stream));
  },
  text() { return PromisePrototypeThen(consume(this), (content) => content === null ? "" : content.asText()); },
  json() { return PromisePrototypeThen(this.text(), (text) => JSONParse(text)); },
  arrayBuffer() {
    return PromisePrototypeThen(consume(this), (content) => {
      if (content === null) return new ArrayBuffer(0);
      return copyBytes(content.asBytes()).buffer;
    });
  },
  bytes() { return PromisePrototypeThen(this.arrayBuffer(), (buffer) => new Uint8Array(buffer)); },
  blob() {
    const owner = this;
    return PromisePrototypeThen(consume(owner), (content) => {
      const bytes = content === null ? new Uint8Array(0) : copyBytes(content.asBytes());
      const type = contentType(owner);
      return runtime.blobInternals.makeBlob(bytes, type === null ? "" : runtime.blobInternals.normalizeType(type));
    });
  },
  formData() {
    const owner = this;
    return PromisePrototypeThen(consume(owner), (content) => {
      const bytes = content === null ? new Uint8Array(0) : content.asBytes();
      return runtime.formDataInternals.parseFormDataBody(bytes, contentType(owner));
    });
  },
};

/// Whether a body stream was read from (a read through `body.getReader()` counts).
function isDisturbedStream(stream) {
  return disturbedStreams.has(stream) || runtime.streams.isDisturbed(stream);
}

/// Fetch's "unusable": the body was read, or its stream is locked or was read from (a reader's read
/// followed by releaseLock() counts).
function isUnusable(state) {
  return state.used || (state.stream !== null && (state.stream.locked || isDisturbedStream(state.stream)));
}

function mixBody(cls) {
  for (const key of ObjectKeys(bodyMethods)) {
    ObjectDefineProperty(cls.prototype, key, { ...Object.getOwnPropertyDescriptor(bodyMethods, key), enumerable: true });
  }
}

/// The content of a clone: the same bytes, or for a stream body one branch of a tee (the other stays).
function cloneContent(state) {
  if (state.content === null) return null;
  const stream = state.content.native !== null ? bodyStream(state) : state.stream ?? state.content.stream;
  if (stream === null) return state.content;
  const [mine, theirs] = stream.tee();
  state.stream = mine;
  state.content = new BodyContent(undefined, undefined, mine);
  return new BodyContent(undefined, undefined, theirs);
}

// MARK: - URLs

// The serialized URLs of recently parsed inputs: scripts fetch the same few endpoints again and again, and
// the WHATWG parser (js/url.js, in JavaScript) costs several microseconds per URL. Parsing is a pure function
// of the input string, so a hit returns exactly what parsing would; the map is emptied when it grows large.
const parsedURLs = new SafeMap();
const PARSED_URLS_MAX = 256;

/// `input` parsed against the base URL (`--base-url`, if given); a TypeError when it does not parse.
function parseURL(input) {
  const text = `${input}`;
  let href = parsedURLs.get(text);
  if (href !== undefined) return href;
  let url;
  try {
    url = runtime.baseURL === null ? new URL(text) : new URL(text, runtime.baseURL);
  } catch (error) {
    throw new TypeError(`Invalid URL: ${JSONStringify(text)}`, { cause: error });
  }
  if (url.username !== "" || url.password !== "") {
    throw new TypeError(`Request cannot be constructed from a URL that includes credentials: ${JSONStringify(text)}`);
  }
  href = url.href;
  if (parsedURLs.size >= PARSED_URLS_MAX) parsedURLs.clear();
  parsedURLs.set(text, href);
  return href;
}

const withoutFragment = (href) => {
  const hash = MethodIndexOf(href, "#");
  return hash === -1 ? href : MethodSlice(href, 0, hash);
};

// MARK: - Request

const METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"];
const REDIRECTS = ["follow", "error", "manual"];
const MODES = ["same-origin", "no-cors", "cors", "navigate"];
const CREDENTIALS = ["omit", "same-origin", "include"];
const CACHES = ["default", "no-store", "reload", "no-cache", "force-cache", "only-if-cached"];
const REFERRER_POLICIES = [
  "", "no-referrer", "no-referrer-when-downgrade", "same-origin", "origin", "strict-origin", "origin-when-cross-origin",
  "strict-origin-when-cross-origin", "unsafe-url",
];
const PRIORITIES = ["high", "low", "auto"];
const INIT_KEYS = [
  "body", "cache", "credentials", "duplex", "headers", "integrity", "keepalive", "method", "mode", "priority",
  "redirect", "referrer", "referrerPolicy", "signal", "window",
];

function normalizeMethod(method) {
  method = toByteString(method, "Method");
  if (!RegExpPrototypeTest(TOKEN, method)) throw new TypeError(`'${method}' is not a valid HTTP method.`);
  const upper = MethodToUpperCase(method);
  if (upper === "CONNECT" || upper === "TRACE" || upper === "TRACK") {
    throw new TypeError(`'${method}' HTTP method is unsupported.`);
  }
  return MethodIncludes(METHODS, upper) ? upper : method;
}

/// Reads a RequestInit's members once, in WebIDL's (alphabetical) order, converting each.
function readRequestInit(init) {
  init = toDictionary(init, "Failed to construct 'Request'");
  const out = {};
  for (const key of INIT_KEYS) {
    const value = init[key];
    if (value === undefined) continue;
    const what = `Failed to construct 'Request': ${key}`;
    switch (key) {
      case "body": out.body = value; break;
      case "cache": out.cache = toEnum(value, CACHES, what); break;
      case "credentials": out.credentials = toEnum(value, CREDENTIALS, what); break;
      case "duplex": out.duplex = toEnum(value, ["half"], what); break;
      case "headers":
        if (value === null || (typeof value !== "object" && typeof value !== "function")) {
          throw new TypeError(`${what} is not of type 'HeadersInit'.`);
        }
        out.headers = value;
        break;
      case "integrity": out.integrity = `${value}`; break;
      case "keepalive": out.keepalive = Boolean(value); break;
      case "method": out.method = toByteString(value, "Method"); break;
      case "mode": out.mode = toEnum(value, MODES, what); break;
      case "priority": out.priority = toEnum(value, PRIORITIES, what); break;
      case "redirect": out.redirect = toEnum(value, REDIRECTS, what); break;
      case "referrer": out.referrer = MethodToWellFormed(`${value}`); break;
      case "referrerPolicy": out.referrerPolicy = toEnum(value, REFERRER_POLICIES, what); break;
      case "signal":
        if (value !== null && !(value instanceof AbortSignal)) throw new TypeError(`${what} is not of type AbortSignal.`);
        out.signal = value;
        break;
      case "window":
        if (value !== null) throw new TypeError("Failed to construct 'Request': 'window' can only be null.");
        out.window = null;
        break;
    }
  }
  return out;
}

/// A signal that follows `signal` (aborts when it does), as a Request's own signal.
function followingSignal(signal) {
  if (signal === null || signal === undefined) return new runtime.AbortController().signal;
  return AbortSignal.any([signal]);
}

class Request {
  #url; #method; #headers; #signal; #userSignal;
  #mode; #credentials; #cache; #redirect; #referrer; #referrerPolicy; #integrity; #keepalive;

  constructor(input, init = undefined) {
    if (arguments.length < 1) throw new TypeError("Failed to construct 'Request': 1 argument required, but only 0 present.");
    const options = readRequestInit(init);
    let inputState = null;
    if (input instanceof Request) {
      inputState = input;
      this.#url = input.#url;
      this.#method = input.#method;
      this.#mode = input.#mode;
      this.#credentials = input.#credentials;
      this.#cache = input.#cache;
      this.#redirect = input.#redirect;
      this.#referrer = input.#referrer;
      this.#referrerPolicy = input.#referrerPolicy;
      this.#integrity = input.#integrity;
      this.#keepalive = input.#keepalive;
      this.#userSignal = input.#userSignal;
    } else {
      this.#url = parseURL(input);
      this.#method = "GET";
      this.#mode = "cors";
      this.#credentials = "same-origin";
      this.#cache = "default";
      this.#redirect = "follow";
      this.#referrer = "client";
      this.#referrerPolicy = "";
      this.#integrity = "";
      this.#keepalive = false;
      this.#userSignal = undefined;
    }
    if (ObjectKeys(options).length > 0) {
      if (this.#mode === "navigate") this.#mode = "same-origin";
      this.#referrer = "client";
      this.#referrerPolicy = "";
    }
    if (options.referrer !== undefined) {
      if (options.referrer === "") {
        this.#referrer = "no-referrer";
      } else {
        let parsed;
        try {
          parsed = runtime.baseURL === null ? new URL(options.referrer) : new URL(options.referrer, runtime.baseURL);
        } catch (error) {
          throw new TypeError(`Failed to construct 'Request': Invalid referrer URL ${JSONStringify(options.referrer)}`);
        }
        this.#referrer = parsed.href === "about:client" ? "client" : parsed.href;
      }
    }
    if (options.referrerPolicy !== undefined) this.#referrerPolicy = options.referrerPolicy;
    if (options.mode === "navigate") {
      throw new TypeError("Failed to construct 'Request': Cannot construct a Request with a RequestInit whose mode member is set as 'navigate'.");
    }
    if (options.mode !== undefined) this.#mode = options.mode;
    if (options.credentials !== undefined) this.#credentials = options.credentials;
    if (options.cache !== undefined) this.#cache = options.cache;
    if (this.#cache === "only-if-cached" && this.#mode !== "same-origin") {
      throw new TypeError("Failed to construct 'Request': 'only-if-cached' can be set only with 'same-origin' mode");
    }
    if (options.redirect !== undefined) this.#redirect = options.redirect;
    if (options.integrity !== undefined) this.#integrity = options.integrity;
    if (options.keepalive !== undefined) this.#keepalive = options.keepalive;
    if (options.method !== undefined) this.#method = normalizeMethod(options.method);
    if (options.signal !== undefined) this.#userSignal = options.signal ?? undefined;
    this.#signal = undefined;
    if (this.#mode === "no-cors" && !MethodIncludes(["GET", "HEAD", "POST"], this.#method)) {
      throw new TypeError(`Failed to construct 'Request': '${this.#method}' is unsupported in no-cors mode.`);
    }
    const guard = this.#mode === "no-cors" ? "request-no-cors" : "request";
    if (options.headers !== undefined) {
      this.#headers = new Headers(options.headers);
    } else {
      this.#headers = inputState !== null ? copyHeaders(inputState.#headers, "none") : new Headers();
    }
    headersState(this.#headers).guard = guard;
    const inputBody = inputState !== null ? bodies.get(inputState) : null;
    const initBody = options.body ?? null;
    if ((initBody !== null || (inputBody !== null && inputBody.content !== null)) &&
      (this.#method === "GET" || this.#method === "HEAD")) {
      throw new TypeError("Request with GET/HEAD method cannot have body.");
    }
    let content = inputBody !== null ? inputBody.content : null;
    if (initBody !== null) {
      const [extracted, type] = extractBody(initBody);
      content = extracted;
      if (type !== null && !this.#headers.has("content-type")) headersState(this.#headers).list.push(["content-type", type]);
    }
    if (content !== null && content.stream !== null) {
      if (initBody !== null && options.duplex === undefined) {
        throw new TypeError("Failed to construct 'Request': the duplex member must be 'half' when the body is a ReadableStream.");
      }
      if (this.#mode !== "same-origin" && this.#mode !== "cors") {
        throw new TypeError("Failed to construct 'Request': a ReadableStream body needs mode 'same-origin' or 'cors'.");
      }
    }
    if (inputBody !== null && initBody === null && inputBody.content !== null) {
      if (isUnusable(inputBody)) {
        throw new TypeError("Cannot construct a Request with a Request object that has already been used.");
      }
      inputBody.used = true;
      if (inputBody.stream !== null) content = new BodyContent(undefined, undefined, inputBody.stream);
    }
    bodies.set(this, { content, used: false, stream: null, headers: this.#headers });
  }

  get url() { return this.#url; }
  get method() { return this.#method; }
  get headers() { return this.#headers; }
  get destination() { return ""; }
  get referrer() {
    return this.#referrer === "no-referrer" ? "" : this.#referrer === "client" ? "about:client" : this.#referrer;
  }
  get referrerPolicy() { return this.#referrerPolicy; }
  get mode() { return this.#mode; }
  get credentials() { return this.#credentials; }
  get cache() { return this.#cache; }
  get redirect() { return this.#redirect; }
  get integrity() { return this.#integrity; }
  get keepalive() { return this.#keepalive; }
  get isReloadNavigation() { return false; }
  get isHistoryNavigation() { return false; }
  get duplex() { return "half"; }
  get signal() {
    if (this.#signal === undefined) this.#signal = followingSignal(this.#userSignal);
    return this.#signal;
  }

  clone() {
    const state = bodies.get(this);
    if (state === undefined) throw new TypeError("Illegal invocation");
    if (isUnusable(state)) {
      throw new TypeError("Failed to execute 'clone' on 'Request': Request body is already used");
    }
    const content = cloneContent(state);
    const copy = new Request(this, {});
    // The constructor took this request's body; a clone leaves it in place.
    state.used = false;
    copy.#headers = copyHeaders(this.#headers);
    const copyState = bodies.get(copy);
    copyState.content = content;
    copyState.headers = copy.#headers;
    copy.#userSignal = this.signal;
    return copy;
  }

  /// What the plugin's `request` action takes (internal); `content` is the body to send, if any.
  static _wire(request) {
    const args = {
      url: request.#url, method: request.#method, headers: headersState(request.#headers).list,
      redirect: request.#redirect,
    };
    const state = bodies.get(request);
    return [args, request.#userSignal, state.content, state];
  }

  get [Symbol.toStringTag]() { return "Request"; }
}
mixBody(Request);
const wireRequest = Request._wire;
delete Request._wire;

// MARK: - Response

const NULL_BODY_STATUS = [101, 103, 204, 205, 304];
const REDIRECT_STATUS = [301, 302, 303, 307, 308];

/// Reads a ResponseInit (headers, status, statusText) and checks it.
function readResponseInit(init, what) {
  init = toDictionary(init, what);
  const headers = init.headers;
  if (headers !== undefined && (headers === null || (typeof headers !== "object" && typeof headers !== "function"))) {
    throw new TypeError(`${what}: headers is not of type 'HeadersInit'.`);
  }
  const status = init.status === undefined ? 200 : toUnsignedShort(init.status);
  const statusText = init.statusText === undefined ? "" : toByteString(init.statusText, "statusText");
  if (status < 200 || status > 599) {
    throw new RangeError(`${what}: The status provided (${status}) is outside the range [200, 599].`);
  }
  if (!RegExpPrototypeTest(/^[\t\x20-\x7e\x80-\xff]*$/, statusText)) throw new TypeError(`${what}: Invalid statusText`);
  return { headers, status, statusText };
}

class Response {
  #status; #statusText; #headers; #url; #redirected; #type;

  constructor(body = null, init = undefined) {
    const { headers, status, statusText } = readResponseInit(init, "Failed to construct 'Response'");
    this.#status = status;
    this.#statusText = statusText;
    this.#headers = new Headers(headers);
    headersState(this.#headers).guard = "response";
    this.#url = "";
    this.#redirected = false;
    this.#type = "default";
    let content = null;
    if (body !== null && body !== undefined) {
      if (MethodIncludes(NULL_BODY_STATUS, status)) throw new TypeError(`Response with null body status (${status}) cannot have body`);
      const [extracted, type] = extractBody(body);
      content = extracted;
      if (type !== null && !this.#headers.has("content-type")) headersState(this.#headers).list.push(["content-type", type]);
    }
    bodies.set(this, { content, used: false, stream: null, headers: this.#headers });
  }

  static json(data, init = undefined) {
    const text = JSONStringify(data);
    if (text === undefined) throw new TypeError("Failed to execute 'json' on 'Response': The data is not JSON serializable");
    const response = new Response(null, init);
    const { status } = response;
    if (MethodIncludes(NULL_BODY_STATUS, status)) throw new TypeError(`Response with null body status (${status}) cannot have body`);
    const state = bodies.get(response);
    state.content = new BodyContent(text, undefined);
    if (!response.#headers.has("content-type")) headersState(response.#headers).list.push(["content-type", "application/json"]);
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
    status = toUnsignedShort(status);
    if (!MethodIncludes(REDIRECT_STATUS, status)) throw new RangeError(`Failed to execute 'redirect' on 'Response': Invalid status code ${status}`);
    const response = new Response(null, { status });
    headersState(response.#headers).list.push(["location", href]);
    headersState(response.#headers).guard = "immutable";
    return response;
  }

  /// A response from the plugin's answer (internal); `signal` aborts a body still arriving.
  static _fromWire(answer, signal) {
    const response = new Response(null, { status: 200 });
    response.#status = answer.status;
    response.#statusText = answer.statusText;
    response.#headers = headersFrom(answer.headers, "immutable");
    response.#url = withoutFragment(answer.url);
    response.#redirected = answer.redirected;
    response.#type = "basic";
    const state = bodies.get(response);
    state.headers = response.#headers;
    if (answer.content !== undefined) {
      state.content = answer.content;
    } else if (answer.bodyId !== undefined) {
      state.content = new BodyContent(undefined, undefined, null, new NativeBody(answer.bodyId, signal));
    } else {
      state.content = answer.body !== undefined ? new BodyContent(answer.body, undefined)
        : new BodyContent(undefined, answer.bodyBytes);
    }
    return response;
  }

  get type() { return this.#type; }
  get url() { return this.#url; }
  get redirected() { return this.#redirected; }
  get status() { return this.#status; }
  get ok() { return this.#status >= 200 && this.#status <= 299; }
  get statusText() { return this.#statusText; }
  get headers() { return this.#headers; }

  clone() {
    const state = bodies.get(this);
    if (state === undefined) throw new TypeError("Illegal invocation");
    if (isUnusable(state)) {
      throw new TypeError("Failed to execute 'clone' on 'Response': Response body is already used");
    }
    const copy = new Response(null, { status: 200 });
    copy.#status = this.#status;
    copy.#statusText = this.#statusText;
    copy.#headers = copyHeaders(this.#headers);
    copy.#url = this.#url;
    copy.#redirected = this.#redirected;
    copy.#type = this.#type;
    const copyState = bodies.get(copy);
    copyState.content = cloneContent(state);
    copyState.headers = copy.#headers;
    return copy;
  }

  get [Symbol.toStringTag]() { return "Response"; }
}
mixBody(Response);
const responseFromWire = Response._fromWire;
delete Response._fromWire;

// MARK: - data: URLs (the Fetch standard's data: URL processor)

/// The longest `data:` URL fetch reads (docs/limits.md): its body is decoded in memory.
const maxDataURLLength = 64 << 20;

/// Percent-decodes `text` (already ASCII after URL serialisation) into bytes.
function percentDecode(text) {
  const bytes = utf8Encode(text);
  if (MethodIndexOf(text, "%") === -1) return bytes;
  const out = new Uint8Array(bytes.length);
  let j = 0;
  const hex = (c) => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1);
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 0x25 && i + 2 < bytes.length && hex(bytes[i + 1]) >= 0 && hex(bytes[i + 2]) >= 0) {
      out[j++] = hex(bytes[i + 1]) * 16 + hex(bytes[i + 2]);
      i += 2;
    } else {
      out[j++] = c;
    }
  }
  return out.subarray(0, j);
}

/// `{ mimeType, body }` of a data: URL, or null when it is not valid (fetch rejects with a TypeError).
function processDataURL(href) {
  let input = MethodSlice(withoutFragment(href), "data:".length);
  const comma = MethodIndexOf(input, ",");
  if (comma === -1) return null;
  let mimeType = MethodReplace(MethodSlice(input, 0, comma), /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, "");
  const encoded = MethodSlice(input, comma + 1);
  let body;
  const base64 = RegExpPrototypeExec(/;[\u0020]*base64$/i, mimeType);
  if (base64 !== null) {
    mimeType = MethodSlice(mimeType, 0, base64.index);
    // Base64 without escapes (the usual case) is decoded from the URL's text as it is: no copies on the way.
    let latin1 = encoded;
    if (MethodIndexOf(encoded, "%") !== -1) {
      const bytes = percentDecode(encoded);
      const pieces = [];
      for (let i = 0; i < bytes.length; i += 8192) ArrayPrototypePush(pieces, ReflectApply(StringFromCharCode, null, bytes.subarray(i, i + 8192)));
      latin1 = ArrayPrototypeJoin(pieces, "");
    }
    body = runtime.forgivingBase64Decode(latin1);
    if (body === null) return null;
  } else {
    body = percentDecode(encoded);
  }
  if (MethodStartsWith(mimeType, ";")) mimeType = `text/plain${mimeType}`;
  const { parseMimeType, serializeMimeType } = runtime.formDataInternals;
  const parsed = parseMimeType(mimeType);
  return { mimeType: parsed === null ? "text/plain;charset=US-ASCII" : serializeMimeType(parsed), body };
}

function fetchDataURL(href, signal) {
  if (signal !== undefined && signal.aborted) return PromiseReject(abortReason(signal));
  if (href.length > maxDataURLLength) return PromiseReject(dataURLTooLong(href));
  const result = processDataURL(href);
  if (result === null) return PromiseReject(new TypeError(`fetch failed: invalid data: URL ${JSONStringify(href)}`));
  return PromiseResolve(responseFromWire({
    status: 200, statusText: "OK", headers: [["content-type", result.mimeType]], url: href, redirected: false,
    content: new BodyContent(undefined, result.body),
  }));
}

/// fetch's TypeError for a `data:` URL longer than ``maxDataURLLength``.
function dataURLTooLong(href) {
  const error = new TypeError(`fetch failed: the data: URL is ${href.length} characters long, more than the ${maxDataURLLength} fetch reads (docs/limits.md)`);
  error.code = "ERR_DATA_URL_TOO_LONG";
  return error;
}

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

function send(args, signal) {
  return PromisePrototypeThen(plugin.call("request", args, signal === undefined ? undefined : { signal }),
    (answer) => responseFromWire(answer, signal),
    (error) => {
      if (signal !== undefined && signal.aborted) throw abortReason(signal);
      throw networkError(error);
    });
}

let bodyCancel;

/// A fetched response body still on the native side (the `request` answer's `bodyId`): read whole with one
/// call (`text()` and the other readers, when `body` was never touched), or pulled through `body`, one
/// `bodyRead` per pull, so the network is read only as fast as the script reads. Aborting the fetch's signal
/// cancels it, and so does cancelling its stream.
class NativeBody {
  constructor(id, signal) {
    this.id = id;
    this.signal = signal;
    this.ended = false;
    this.error = undefined;
    this.controller = null;
    this.onAbort = undefined;
    if (signal !== undefined) {
      this.onAbort = () => this.fail(abortReason(signal));
      signal.addEventListener("abort", this.onAbort, { once: true });
    }
  }

  /// Stops listening to the signal; with `cancel`, the native side drops the body and cancels its request.
  end(cancel) {
    if (this.ended) return;
    this.ended = true;
    if (this.onAbort !== undefined) this.signal.removeEventListener("abort", this.onAbort);
    if (cancel) {
      bodyCancel ??= plugin.syncAction("bodyCancel");
      bodyCancel({ id: this.id });
    }
  }

  /// Ends the body with `reason` (an abort): its stream errors, and reads reject with it.
  fail(reason) {
    if (this.ended) return;
    this.error = reason;
    this.end(true);
    if (this.controller !== null) this.controller.error(reason);
  }

  /// A failed read's error as fetch reports it.
  failure(error) {
    if (this.error !== undefined) return this.error;
    this.end(false);
    return networkError(error);
  }

  /// The whole (rest of the) body as a Uint8Array.
  readAll() {
    if (this.error !== undefined) return PromiseReject(this.error);
    return PromisePrototypeThen(plugin.call("bodyRead", { id: this.id, all: true }),
      (answer) => {
        // An abort while the read was in flight wins over what the read gathered until the cancellation.
        if (this.error !== undefined) throw this.error;
        this.end(false);
        return answer.bytes;
      },
      (error) => { throw this.failure(error); });
  }

  /// The body as a byte ReadableStream that pulls each chunk from the native side when it is read.
  stream() {
    const body = this;
    const ReadableStream = runtime.ReadableStream;
    if (typeof ReadableStream !== "function") throw new TypeError("Response.body: ReadableStream is not implemented");
    const stream = new ReadableStream({
      type: "bytes",
      start(controller) { body.controller = controller; },
      pull(controller) {
        disturbedStreams.add(stream);
        if (body.error !== undefined) return PromiseReject(body.error);
        return PromisePrototypeThen(plugin.call("bodyRead", { id: body.id }), (answer) => {
          if (body.error !== undefined) return;  // an abort has errored the stream meanwhile
          if (!answer.done) {
            controller.enqueue(answer.bytes);
            return;
          }
          body.end(false);
          controller.close();
          // A BYOB read waiting at the end ends with a zero-length answer.
          controller.byobRequest?.respond(0);
        }, (error) => {
          // An abort has already errored the stream.
          if (body.error === undefined) controller.error(body.failure(error));
        });
      },
      cancel() {
        disturbedStreams.add(stream);
        body.end(true);
      },
    });
    return stream;
  }
}

/// Sends a request whose body is `stream`: its chunks (each a Uint8Array, else a TypeError) are written to a
/// native pipe as the request sends them, each write answering once the pipe has room, so the stream is read
/// only as fast as the network takes it. A failing stream fails the request with a TypeError.
function sendStream(args, signal, stream) {
  const id = plugin.execSync("bodyOpen", {});
  args.bodyStream = id;
  const reader = stream.getReader();
  let settled = false;
  let failure;
  PromisePrototypeThen((async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (settled) return;
      if (done) {
        await plugin.call("bodyWrite", { id, end: true });
        return;
      }
      if (!(value instanceof Uint8Array)) throw new TypeError("fetch failed: a request body stream chunk is not a Uint8Array.");
      await plugin.call("bodyWrite", { id, chunk: value });
    }
  })(), undefined, (error) => {
    PromisePrototypeThen(reader.cancel(error), undefined, () => {});
    // Once the request has its answer, its pipe is closed and later writes fail: nothing to report.
    if (settled) return;
    failure = error instanceof TypeError ? error : new TypeError("fetch failed: the request body stream errored.", { cause: error });
    PromisePrototypeThen(plugin.call("bodyWrite", { id, error: failure.message }), undefined, () => {});
  });
  return PromisePrototypeThen(send(args, signal), (response) => {
    settled = true;
    return response;
  }, (error) => {
    settled = true;
    PromisePrototypeThen(reader.cancel(error), undefined, () => {});
    throw failure ?? error;
  });
}

/// The request's headers with the `Accept-Encoding` a browser adds when the script set none (Fetch, "HTTP-network-
/// or-cache fetch"): the codings fetch decodes, or `identity` for a `Range` request. A copy: the Request's own
/// headers stay as the script made them.
function withAcceptEncoding(list) {
  let range = false;
  const headers = [];
  for (let i = 0; i < list.length; i++) {
    const lower = MethodToLowerCase(list[i][0]);
    if (lower === "accept-encoding") return list;
    if (lower === "range") range = true;
    ArrayPrototypePush(headers, list[i]);
  }
  ArrayPrototypePush(headers, ["accept-encoding", range ? "identity" : "gzip, deflate, br"]);
  return headers;
}

function fetch(input, init = undefined) {
  let args, signal, content, state;
  try {
    if (arguments.length < 1) throw new TypeError("Failed to execute 'fetch': 1 argument required, but only 0 present.");
    // Refused before the URL is parsed.
    if (typeof input === "string" && input.length > maxDataURLLength && RegExpPrototypeExec(/^[\0- ]*data:/i, input) !== null) {
      throw dataURLTooLong(input);
    }
    const request = new Request(input, init);
    [args, signal, content, state] = wireRequest(request);
    if (content !== null) state.used = true;
  } catch (error) {
    return PromiseReject(error);
  }
  if (signal !== undefined && signal.aborted) return PromiseReject(abortReason(signal));
  if (MethodStartsWith(args.url, "data:")) return fetchDataURL(args.url, signal);
  args.headers = withAcceptEncoding(args.headers);
  // The response resolves with its head; a body not complete by then is read on demand (NativeBody).
  args.stream = true;
  if (content === null) return send(args, signal);
  const stream = state.stream ?? content.stream;
  if (stream === null) {
    ObjectAssign(args, content.wire());
    return send(args, signal);
  }
  return sendStream(args, signal, stream);
}

// MARK: - Queues

const queueToken = Symbol("RequestQueue");
const queues = new SafeMap(); // name -> RequestQueue

function checkMaxConcurrent(value) {
  const n = Number(value);
  if (!(n === Infinity || (NumberIsInteger(n) && n >= 1))) {
    throw new RangeError(`maxConcurrent must be a positive integer or Infinity. Received ${value}`);
  }
  return n;
}

/// Reports an error thrown by a callback without breaking the queue (as an uncaught exception).
function reportLater(error) {
  PromisePrototypeThen(PromiseResolve(), () => { throw error; });
}

/// A named queue: tasks start in FIFO order, at most `maxConcurrent` at a time (see docs/http.md, "Queues").
class RequestQueue {
  #name; #max; #running = new SafeSet(); #waiting = []; #idleCallbacks = new SafeSet();

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
    if (typeof fn !== "function") return PromiseReject(new TypeError("queue.add needs a function."));
    const userSignal = options?.signal ?? undefined;
    if (userSignal !== undefined && !(userSignal instanceof AbortSignal)) {
      return PromiseReject(new TypeError("options.signal is not an AbortSignal."));
    }
    if (userSignal !== undefined && userSignal.aborted) return PromiseReject(abortReason(userSignal));
    return new Promise((resolve, reject) => {
      const task = { fn, resolve, reject, userSignal, controller: null, onAbort: null };
      if (userSignal !== undefined) {
        task.onAbort = () => {
          const index = MethodIndexOf(this.#waiting, task);
          if (index === -1) return;
          ArrayPrototypeSplice(this.#waiting, index, 1);
          reject(abortReason(userSignal));
          this.#checkIdle();
        };
        userSignal.addEventListener("abort", task.onAbort, { once: true });
      }
      ArrayPrototypePush(this.#waiting, task);
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
      return PromiseReject(error);
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
    if (this.isIdle) return PromiseResolve();
    return new Promise((resolve) => {
      const handle = this.onIdle(() => { handle.remove(); resolve(); });
    });
  }

  /// Rejects every waiting task with `reason` (default: an AbortError DOMException) and aborts the signal
  /// of every running task with it (queued fetches reject with it). Returns how many tasks were hit.
  cancelAll(reason) {
    if (reason === undefined) reason = new DOMException(`The queue "${this.#name}" was cancelled`, "AbortError");
    const waiting = ArrayPrototypeSplice(this.#waiting, 0);
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
    while (this.#running.size < this.#max && this.#waiting.length > 0) this.#start(ArrayPrototypeShift(this.#waiting));
  }

  #start(task) {
    if (task.userSignal !== undefined) task.userSignal.removeEventListener("abort", task.onAbort);
    task.controller = new runtime.AbortController();
    const signal = task.userSignal === undefined ? task.controller.signal
      : AbortSignal.any([task.userSignal, task.controller.signal]);
    this.#running.add(task);
    let result;
    try {
      result = PromiseResolve(task.fn({ signal }));
    } catch (error) {
      result = PromiseReject(error);
    }
    const done = () => {
      this.#running.delete(task);
      this.#pump();
      this.#checkIdle();
    };
    // Settle the task's promise first, so its handlers run before `idle()`'s.
    PromisePrototypeThen(result, (value) => { task.resolve(value); done(); }, (error) => { task.reject(error); done(); });
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

/// The queue named `name` (created on first use with `maxConcurrent`, default 1: serial unless sized, as
/// HAccess's queues; later options resize it).
function queue(name, options) {
  name = `${name}`;
  const max = options?.maxConcurrent;
  let existing = queues.get(name);
  if (existing === undefined) {
    existing = new RequestQueue(queueToken, name, max === undefined ? 1 : checkMaxConcurrent(max));
    queues.set(name, existing);
  } else if (max !== undefined) {
    existing.resize(max);
  }
  return existing;
}

/// The `[name, value]` pairs of `headers` in the order they were added (no sorting, no combining).
const headerPairs = (headers) => MethodMap(headersState(headers).list, (entry) => [entry[0], entry[1]]);

plugin.shared.httpCore = { Headers, headersFrom, headerPairs, queue };

const HTTP = ObjectFreeze({
  fetch, Headers, Request, Response, queue, RequestQueue,
  // DAOs live in http-dao.js, loaded on first use.
  dao: (definition) => plugin.shared.httpDAO.dao(definition),
  serverError: (message, options) => plugin.shared.httpDAO.serverError(message, options),
  retry: (options) => plugin.shared.httpDAO.retry(options),
  get DAO() { return plugin.shared.httpDAO.DAO; },
  get DAOError() { return plugin.shared.httpDAO.DAOError; },
  /// Empties the HTTP cache of this app.
  clearCache: () => PromisePrototypeThen(plugin.call("cacheClear", {}), () => undefined),
  download: (url, options) => plugin.shared.httpTransfer.download(url, options),
  upload: (url, options) => plugin.shared.httpTransfer.upload(url, options),
});

runtime.defineGlobal("fetch", fetch);
runtime.defineGlobal("Headers", Headers);
runtime.defineGlobal("Request", Request);
runtime.defineGlobal("Response", Response);
runtime.defineGlobal("HTTP", HTTP);
