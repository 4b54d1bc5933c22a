// `node:http` and `node:https`: servers (`createServer`, `Server` with `listen`, `close`, `address`, `ref`/`unref`,
// `IncomingMessage` as a Readable, `ServerResponse` with Node's header, chunked and keep-alive rules) and clients
// (`request`, `get`, `Agent`, `ClientRequest`, the response an `IncomingMessage`), written for jsbridge from
// Node's documentation. Both are behind the `net` capability (`--allow-net[=host:port,...]`).
//
// Servers: the natives (HTTPServerNatives.swift) serve with SwiftNIO on the JS thread's own event loop and call
// `internal.httpEvent` once per request, with its raw headers; a request without a body arrives complete in that
// one call. Clients go through `fetch` (the HTTP plugin), so they follow its host rules, connection pooling and
// redirects-off mode; a body with a Content-Encoding arrives decoded (the header is dropped). `https.createServer`,
// upgrades (`'upgrade'`, `'connect'`) and trailers are absent and throw errors that say so.

const {
  ArrayIsArray, ArrayPrototypeJoin, ArrayPrototypePush, DateNow, Error, FunctionPrototypeCall, MethodIncludes,
  MethodSlice, MethodToLowerCase, NumberIsInteger, ObjectCreate, ObjectKeys, ObjectSetPrototypeOf, Promise, RangeError,
  SafeMap, String, TypeError,
} = internal.primordials;
const { invalidArgType, make } = internal.nodeErrors;
const EventEmitter = internal.nodeBuiltin("events");
const { Readable, Stream } = internal.nodeBuiltin("stream");
const { Buffer } = internal.nodeBuiltin("buffer");
const { httpListen, httpRespond, httpWrite, httpConnection, httpServer } = internal;

const nextTick = (fn, ...args) => queueMicrotask(() => fn(...args));

const METHODS = [
  "ACL", "BIND", "CHECKOUT", "CONNECT", "COPY", "DELETE", "GET", "HEAD", "LINK", "LOCK", "M-SEARCH", "MERGE",
  "MKACTIVITY", "MKCALENDAR", "MKCOL", "MOVE", "NOTIFY", "OPTIONS", "PATCH", "POST", "PROPFIND", "PROPPATCH",
  "PURGE", "PUT", "QUERY", "REBIND", "REPORT", "SEARCH", "SOURCE", "SUBSCRIBE", "TRACE", "UNBIND", "UNLINK",
  "UNLOCK", "UNSUBSCRIBE",
];

/** @type {Record<string, string>} */
const STATUS_CODES = {
  100: "Continue", 101: "Switching Protocols", 102: "Processing", 103: "Early Hints", 200: "OK", 201: "Created",
  202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content", 205: "Reset Content",
  206: "Partial Content", 207: "Multi-Status", 208: "Already Reported", 226: "IM Used", 300: "Multiple Choices",
  301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified", 305: "Use Proxy",
  307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
  402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable",
  407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict", 410: "Gone",
  411: "Length Required", 412: "Precondition Failed", 413: "Payload Too Large", 414: "URI Too Long",
  415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed", 418: "I'm a Teapot",
  421: "Misdirected Request", 422: "Unprocessable Entity", 423: "Locked", 424: "Failed Dependency",
  425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
  431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons", 500: "Internal Server Error",
  501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
  505: "HTTP Version Not Supported", 506: "Variant Also Negotiates", 507: "Insufficient Storage",
  508: "Loop Detected", 509: "Bandwidth Limit Exceeded", 510: "Not Extended",
  511: "Network Authentication Required",
};

function notImplemented(what) {
  return make(Error, "ERR_METHOD_NOT_IMPLEMENTED", `The ${what} method is not implemented`);
}

// MARK: - Headers

const tokenPattern = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
const invalidValuePattern = /[^\t\x20-\x7e\x80-\xff]/;

function validateHeaderName(name) {
  if (typeof name !== "string" || !name || !tokenPattern.test(name)) {
    throw make(TypeError, "ERR_INVALID_HTTP_TOKEN", `Header name must be a valid HTTP token ["${name}"]`);
  }
}

function validateHeaderValue(name, value) {
  if (value === undefined) {
    throw make(TypeError, "ERR_HTTP_INVALID_HEADER_VALUE", `Invalid value "${value}" for header "${name}"`);
  }
  if (invalidValuePattern.test(String(value))) {
    throw make(TypeError, "ERR_INVALID_CHAR", `Invalid character in header content ["${name}"]`);
  }
}

/// Today's `Date` header value, made once per second.
let dateCache = "";
let dateSecond = -1;
function utcDate() {
  const second = Math.floor(DateNow() / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateCache = new Date(second * 1000).toUTCString();
  }
  return dateCache;
}

/// A message's headers from raw `[name, value, ...]` pairs, as Node joins duplicates: `set-cookie` an array,
/// the others joined with ", " (a few that may appear once keep the first).
function headersFromRaw(raw) {
  const headers = ObjectCreate(null);
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = MethodToLowerCase(raw[i]);
    const value = raw[i + 1];
    const existing = headers[name];
    if (existing === undefined) {
      headers[name] = name === "set-cookie" ? [value] : value;
    } else if (name === "set-cookie") {
      ArrayPrototypePush(existing, value);
    } else if (!singleHeaders[name]) {
      headers[name] = existing + ", " + value;
    }
  }
  ObjectSetPrototypeOf(headers, Object.prototype);
  return headers;
}

const singleHeaders = {
  "content-type": true, "content-length": true, "user-agent": true, "referer": true, "host": true,
  "authorization": true, "proxy-authorization": true, "if-modified-since": true, "if-unmodified-since": true,
  "from": true, "location": true, "max-forwards": true, "retry-after": true, "etag": true, "last-modified": true,
  "server": true, "age": true, "expires": true,
};

// MARK: - IncomingMessage

/// A request a server received or a response a client got: a Readable of the body.
/** @type {any} */
const IncomingMessage = function IncomingMessage(socket) {
  if (!(this instanceof IncomingMessage)) return new IncomingMessage(socket);
  FunctionPrototypeCall(Readable, this, undefined);
  this.socket = socket ?? null;
  this.httpVersionMajor = 1;
  this.httpVersionMinor = 1;
  this.httpVersion = "1.1";
  this.complete = false;
  this.rawHeaders = [];
  this.rawTrailers = [];
  this.trailers = {};
  this.aborted = false;
  this.upgrade = false;
  this.url = "";
  this.method = null;
  this.statusCode = null;
  this.statusMessage = null;
  this._headers = undefined;
  /** @type {(() => void) | undefined} */
  this._onRead = undefined;
};
ObjectSetPrototypeOf(IncomingMessage.prototype, Readable.prototype);
ObjectSetPrototypeOf(IncomingMessage, Readable);

Object.defineProperty(IncomingMessage.prototype, "headers", {
  get() {
    return this._headers ??= headersFromRaw(this.rawHeaders);
  },
  set(value) {
    this._headers = value;
  },
  configurable: true,
});
Object.defineProperty(IncomingMessage.prototype, "connection", {
  get() {
    return this.socket;
  },
  configurable: true,
});
IncomingMessage.prototype.headersDistinct = undefined;
IncomingMessage.prototype._read = function () {
  this._onRead?.();
};
IncomingMessage.prototype.setTimeout = function (ms, callback) {
  if (callback) this.on("timeout", callback);
  this.socket?.setTimeout?.(ms);
  return this;
};

// MARK: - OutgoingMessage

/// What responses and client requests share: their headers and Node's rules for them.
/** @type {any} */
const OutgoingMessage = function OutgoingMessage() {
  FunctionPrototypeCall(Stream, this, undefined);
  /** @type {Map<string, [string, any]>} */
  this._headerMap = new SafeMap();
  this.headersSent = false;
  this.finished = false;
  this.writableEnded = false;
  this.writableFinished = false;
  this.destroyed = false;
  this.sendDate = false;
  this.chunkedEncoding = false;
  this.useChunkedEncodingByDefault = true;
  this.socket = null;
};
ObjectSetPrototypeOf(OutgoingMessage.prototype, Stream.prototype);
ObjectSetPrototypeOf(OutgoingMessage, Stream);

/// `end(chunk?, encoding?, callback?)`'s arguments as Node's OutgoingMessage reads them, for responses and
/// requests alike: a function in the first or second place is the callback.
function endArguments(chunk, encoding, callback) {
  if (typeof chunk === "function") return { chunk: undefined, encoding: undefined, callback: chunk };
  if (typeof encoding === "function") return { chunk, encoding: undefined, callback: encoding };
  return { chunk, encoding, callback };
}

/// `write(chunk, encoding?, callback?)` as Node's OutgoingMessage checks it, for responses and requests alike;
/// each sends the bytes its own way (`_writeBytes`, which says whether to write more).
OutgoingMessage.prototype.write = function (chunk, encoding, callback) {
  if (typeof encoding === "function") {
    callback = encoding;
    encoding = undefined;
  }
  if (this.writableEnded) {
    const error = make(Error, "ERR_STREAM_WRITE_AFTER_END", "write after end");
    nextTick(() => {
      callback?.(error);
      this.emit("error", error);
    });
    return false;
  }
  if (chunk === null) throw make(TypeError, "ERR_STREAM_NULL_VALUES", "May not write null values to stream");
  const writable = this._writeBytes(toBytes(chunk, encoding));
  if (callback) nextTick(callback);
  return writable;
};

OutgoingMessage.prototype.setHeader = function (name, value) {
  if (this.headersSent) {
    throw make(Error, "ERR_HTTP_HEADERS_SENT", "Cannot set headers after they are sent to the client");
  }
  validateHeaderName(name);
  validateHeaderValue(name, value);
  this._headerMap.set(MethodToLowerCase(name), [name, value]);
  return this;
};
OutgoingMessage.prototype.appendHeader = function (name, value) {
  const key = MethodToLowerCase(name);
  const existing = this._headerMap.get(key);
  if (existing === undefined) return this.setHeader(name, value);
  const list = ArrayIsArray(existing[1]) ? existing[1] : [existing[1]];
  this._headerMap.set(key, [existing[0], [...list, ...(ArrayIsArray(value) ? value : [value])]]);
  return this;
};
OutgoingMessage.prototype.getHeader = function (name) {
  if (typeof name !== "string") throw invalidArgType("name", "string", name);
  return this._headerMap.get(MethodToLowerCase(name))?.[1];
};
OutgoingMessage.prototype.hasHeader = function (name) {
  if (typeof name !== "string") throw invalidArgType("name", "string", name);
  return this._headerMap.has(MethodToLowerCase(name));
};
OutgoingMessage.prototype.removeHeader = function (name) {
  if (typeof name !== "string") throw invalidArgType("name", "string", name);
  if (this.headersSent) {
    throw make(Error, "ERR_HTTP_HEADERS_SENT", "Cannot remove headers after they are sent to the client");
  }
  this._headerMap.delete(MethodToLowerCase(name));
};
OutgoingMessage.prototype.getHeaders = function () {
  const headers = ObjectCreate(null);
  for (const [key, entry] of this._headerMap) headers[key] = entry[1];
  return headers;
};
OutgoingMessage.prototype.getHeaderNames = function () {
  return [...this._headerMap.keys()];
};
OutgoingMessage.prototype.getRawHeaderNames = function () {
  const names = [];
  for (const entry of this._headerMap.values()) ArrayPrototypePush(names, entry[0]);
  return names;
};
OutgoingMessage.prototype.addTrailers = function () {
  throw notImplemented("addTrailers()");
};
OutgoingMessage.prototype.setTimeout = function (ms, callback) {
  if (callback) this.once("timeout", callback);
  return this;
};
/// The headers as "name\nvalue\n..." for the natives.
OutgoingMessage.prototype._serializeHeaders = function () {
  const parts = [];
  for (const entry of this._headerMap.values()) {
    const value = entry[1];
    if (ArrayIsArray(value)) {
      for (const item of value) ArrayPrototypePush(parts, entry[0], String(item));
    } else {
      ArrayPrototypePush(parts, entry[0], String(value));
    }
  }
  return ArrayPrototypeJoin(parts, "\n");
};

/// A chunk as bytes; its encoding applies to strings.
function toBytes(chunk, encoding) {
  if (typeof chunk === "string") return Buffer.from(chunk, encoding || "utf8");
  if (chunk instanceof Uint8Array) return chunk;
  throw invalidArgType("chunk", ["string", "an instance of Buffer", "Uint8Array"], chunk);
}

// MARK: - ServerResponse

/// A server's response to one request: headers, then the body as writes, then `end()`.
/** @type {any} */
const ServerResponse = function ServerResponse(req, connection) {
  FunctionPrototypeCall(OutgoingMessage, this);
  this.req = req;
  this.statusCode = 200;
  this.statusMessage = undefined;
  this.sendDate = true;
  this.socket = req.socket;
  this._connection = connection;
  this._keepAlive = req._keepAlive;
  this._bodyless = req.method === "HEAD";
  this._needDrain = false;
  this.strictContentLength = false;
};
ObjectSetPrototypeOf(ServerResponse.prototype, OutgoingMessage.prototype);
ObjectSetPrototypeOf(ServerResponse, OutgoingMessage);

Object.defineProperty(ServerResponse.prototype, "connection", {
  get() {
    return this.socket;
  },
  configurable: true,
});
Object.defineProperty(ServerResponse.prototype, "writableNeedDrain", {
  get() {
    return this._needDrain;
  },
  configurable: true,
});

ServerResponse.prototype.writeHead = function (statusCode, reason, headers) {
  if (this.headersSent) {
    throw make(Error, "ERR_HTTP_HEADERS_SENT", "Cannot write headers after they are sent to the client");
  }
  if (typeof reason !== "string") {
    headers = reason;
    reason = undefined;
  }
  statusCode |= 0;
  if (statusCode < 100 || statusCode > 999) {
    throw make(RangeError, "ERR_HTTP_INVALID_STATUS_CODE", `Invalid status code: ${statusCode}`);
  }
  this.statusCode = statusCode;
  if (reason !== undefined) this.statusMessage = reason;
  if (ArrayIsArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) this.appendHeader(headers[i], headers[i + 1]);
  } else if (headers) {
    for (const name of ObjectKeys(headers)) {
      if (headers[name] !== undefined) this.setHeader(name, headers[name]);
    }
  }
  this._headersWritten = true;
  return this;
};
ServerResponse.prototype.writeContinue = function () {
  throw notImplemented("writeContinue()");
};
ServerResponse.prototype.flushHeaders = function () {
  if (!this.headersSent) this._sendHead(undefined, false);
};
ServerResponse.prototype.assignSocket = function () {
  throw notImplemented("assignSocket()");
};

/// Adds the headers Node adds (Date, Connection, Keep-Alive, and Content-Length or Transfer-Encoding), then
/// writes the head with `body` and, when `end`, the end of the response.
ServerResponse.prototype._sendHead = function (body, end) {
  const map = this._headerMap;
  if (this.sendDate && !map.has("date")) map.set("date", ["Date", utcDate()]);
  const connectionHeader = map.get("connection");
  if (connectionHeader !== undefined && MethodIncludes(MethodToLowerCase(String(connectionHeader[1])), "close")) {
    this._keepAlive = false;
  }
  const status = this.statusCode;
  const noBody = status === 204 || status === 304 || (status >= 100 && status < 200);
  if (!noBody && !map.has("content-length") && !map.has("transfer-encoding")) {
    if (end) {
      map.set("content-length", ["Content-Length", body === undefined ? 0 : body.byteLength]);
    } else if (this.req.httpVersionMinor >= 1 && this.useChunkedEncodingByDefault) {
      map.set("transfer-encoding", ["Transfer-Encoding", "chunked"]);
      this.chunkedEncoding = true;
    } else {
      this._keepAlive = false;
    }
  }
  if (connectionHeader === undefined) {
    if (this._keepAlive) {
      map.set("connection", ["Connection", "keep-alive"]);
      map.set("keep-alive", ["Keep-Alive", `timeout=${(this._server?.keepAliveTimeout ?? 5000) / 1000}`]);
    } else {
      map.set("connection", ["Connection", "close"]);
    }
  }
  this.headersSent = true;
  const reason = this.statusMessage ?? STATUS_CODES[status] ?? "unknown";
  if (this._bodyless || noBody) body = undefined;
  const writable = httpRespond(
    this._connection, status, reason, this._serializeHeaders(), body?.buffer, body?.byteOffset ?? 0,
    body?.byteLength ?? 0, end, this._keepAlive);
  return writable;
};

/// The response's part of `write`: sends `bytes` (with the head, the first time); whether to write more.
ServerResponse.prototype._writeBytes = function (bytes) {
  const writable = this.headersSent
    ? (this._bodyless ? true : httpWrite(this._connection, bytes.buffer, bytes.byteOffset, bytes.byteLength, false,
      this._keepAlive))
    : this._sendHead(bytes, false);
  if (!writable) this._needDrain = true;
  return writable;
};

ServerResponse.prototype.end = function (chunk, encoding, callback) {
  ({ chunk, encoding, callback } = endArguments(chunk, encoding, callback));
  if (this.writableEnded) {
    if (callback) nextTick(callback);
    return this;
  }
  const bytes = chunk === undefined || chunk === null ? undefined : toBytes(chunk, encoding);
  this.writableEnded = true;
  this.finished = true;
  if (!this.headersSent) {
    this._sendHead(bytes, true);
  } else {
    httpWrite(this._connection, this._bodyless ? undefined : bytes?.buffer, bytes?.byteOffset ?? 0,
      bytes?.byteLength ?? 0, true, this._keepAlive);
  }
  if (callback) this.once("finish", callback);
  nextTick(() => {
    this.writableFinished = true;
    this.emit("prefinish");
    this.emit("finish");
    this._done();
  });
  return this;
};

ServerResponse.prototype.destroy = function (error) {
  if (this.destroyed) return this;
  this.destroyed = true;
  httpConnection(this._connection, 2);
  if (error) nextTick(() => this.emit("error", error));
  return this;
};

/// After 'finish' (or the connection's close): 'close' on the request and the response.
ServerResponse.prototype._done = function () {
  if (this._closed) return;
  this._closed = true;
  const connection = connections.get(this._connection);
  if (connection !== undefined && connection.response === this) connection.response = undefined;
  // As Node: a body nobody read is read to its end, so that the connection's next request comes.
  if (!this.req.complete) this.req.resume();
  this.emit("close");
  this.req.emit("close");
};

// MARK: - Server

let nextServerId = 1;
/** @type {Map<number, any>} */
const servers = new SafeMap();
/** @type {Map<number, {server: any, socket: any, request: any, response: any}>} */
const connections = new SafeMap();

/// The `socket` of a server's requests: the connection's addresses, `setTimeout`, `destroy`.
/** @type {any} */
const ServerSocket = function ServerSocket(connectionId, remoteAddress, remotePort) {
  FunctionPrototypeCall(EventEmitter, this);
  this._connection = connectionId;
  this.remoteAddress = remoteAddress;
  this.remotePort = remotePort;
  this.remoteFamily = MethodIncludes(remoteAddress, ":") ? "IPv6" : "IPv4";
  this.encrypted = false;
  this.destroyed = false;
};
ObjectSetPrototypeOf(ServerSocket.prototype, EventEmitter.prototype);
ServerSocket.prototype.setTimeout = function (ms, callback) {
  if (callback) this.once("timeout", callback);
  return this;
};
ServerSocket.prototype.setNoDelay = function () {
  return this;
};
ServerSocket.prototype.setKeepAlive = function () {
  return this;
};
ServerSocket.prototype.ref = function () {
  return this;
};
ServerSocket.prototype.unref = function () {
  return this;
};
ServerSocket.prototype.destroy = function (error) {
  if (!this.destroyed) httpConnection(this._connection, 2);
  this.destroyed = true;
  if (error) nextTick(() => this.emit("error", error));
  return this;
};
ServerSocket.prototype.end = function () {
  return this.destroy();
};

/// An HTTP server: 'request' for each request, 'listening', 'close', 'error', 'connection'.
/** @type {any} */
const Server = /** @this {any} */ function Server(options, requestListener) {
  if (new.target === undefined) return new Server(options, requestListener);
  if (typeof options === "function") {
    requestListener = options;
    options = {};
  } else if (options === undefined || options === null) {
    options = {};
  } else if (typeof options !== "object") {
    throw invalidArgType("options", "object", options);
  }
  FunctionPrototypeCall(EventEmitter, this);
  this._id = 0;
  this._address = null;
  this.listening = false;
  this.keepAliveTimeout = options.keepAliveTimeout ?? 5000;
  this.headersTimeout = 60000;
  this.requestTimeout = 300000;
  this.timeout = 0;
  this.maxHeadersCount = null;
  this.maxRequestsPerSocket = 0;
  this._unref = false;
  this._connectionCount = 0;
  if (requestListener) this.on("request", requestListener);
};
ObjectSetPrototypeOf(Server.prototype, EventEmitter.prototype);
ObjectSetPrototypeOf(Server, EventEmitter);

/// `listen(port, host, backlog, callback)`, `listen({port, host, backlog}, callback)`, `listen(callback)`.
Server.prototype.listen = function (...args) {
  let options = { port: 0, host: undefined, backlog: 511 };
  let callback;
  if (typeof args[args.length - 1] === "function") callback = args.pop();
  if (args[0] !== null && typeof args[0] === "object") {
    options = { port: args[0].port ?? 0, host: args[0].host, backlog: args[0].backlog ?? 511 };
    if (args[0].path !== undefined) throw notImplemented("listen() on a Unix socket path:");
  } else {
    if (typeof args[0] === "string" && !/^[0-9]+$/.test(args[0])) {
      throw notImplemented("listen() on a Unix socket path:");
    }
    options.port = args[0] ?? 0;
    if (typeof args[1] === "string") options.host = args[1];
    else if (typeof args[1] === "number") options.backlog = args[1];
    if (typeof args[2] === "number") options.backlog = args[2];
  }
  const port = Number(options.port);
  if (!NumberIsInteger(port) || port < 0 || port > 65535) {
    throw make(RangeError, "ERR_SOCKET_BAD_PORT", `options.port should be >= 0 and < 65536. Received ${
      internal.inspect(options.port)}.`);
  }
  if (this.listening || this._id !== 0) {
    throw make(Error, "ERR_SERVER_ALREADY_LISTEN", "Listen method has been called more than once without closing.");
  }
  if (callback) this.once("listening", callback);
  const host = options.host === undefined || options.host === "" ? "0.0.0.0" : options.host;
  const id = nextServerId++;
  this._id = id;
  servers.set(id, this);
  this._pendingHost = host;
  this._pendingPort = port;
  bindLater(id, host, port, options.backlog, this);
  return this;
};

/// Binds on the run's loop (a 0 ms timer runs there; the loop starts for it once the script's first run ends):
/// the grant for host:port is checked then, and a refusal is the server's 'error' (PERMISSION_DENIED).
function bindLater(id, host, port, backlog, server) {
  const bind = () => {
    if (servers.get(id) !== server) return;
    try {
      httpListen(id, host, port, backlog);
      if (server._unref) httpServer(id, 2);
    } catch (error) {
      servers.delete(id);
      server._id = 0;
      server.emit("error", error);
    }
  };
  setTimeout(bind, 0);
}

Server.prototype.address = function () {
  return this._address;
};

Server.prototype.close = function (callback) {
  if (typeof callback === "function") {
    if (!this.listening && this._id === 0) {
      this.once("close", () => callback(make(Error, "ERR_SERVER_NOT_RUNNING", "Server is not running.")));
    } else {
      this.once("close", callback);
    }
  }
  if (this._id !== 0) {
    httpServer(this._id, 0);
  } else {
    nextTick(() => this.emit("close"));
  }
  return this;
};
Server.prototype.closeAllConnections = function () {
  for (const [id, connection] of connections) if (connection.server === this) httpConnection(id, 2);
};
Server.prototype.closeIdleConnections = function () {
  for (const [id, connection] of connections) {
    if (connection.server === this && connection.response === undefined) httpConnection(id, 2);
  }
};
Server.prototype.ref = function () {
  this._unref = false;
  if (this._id !== 0) httpServer(this._id, 1);
  return this;
};
Server.prototype.unref = function () {
  this._unref = true;
  if (this._id !== 0) httpServer(this._id, 2);
  return this;
};
Server.prototype.setTimeout = function (ms, callback) {
  this.timeout = ms;
  if (callback) this.on("timeout", callback);
  return this;
};
Server.prototype.getConnections = function (callback) {
  nextTick(callback, null, this._connectionCount);
  return this;
};
const asyncDispose = /** @type {any} */ (Symbol).asyncDispose;
if (typeof asyncDispose === "symbol") {
  Server.prototype[asyncDispose] = function () {
    return new Promise((resolve) => this.close(() => resolve(undefined)));
  };
}

function createServer(options, requestListener) {
  return new Server(options, requestListener);
}

/// Node's errno exception for a failed listen: `listen EADDRINUSE: address already in use 0.0.0.0:80`.
function listenError(code, errno, host, port) {
  const descriptions = {
    EADDRINUSE: "address already in use", EACCES: "permission denied",
    EADDRNOTAVAIL: "address not available", EINVAL: "invalid argument",
  };
  const error = internal.nodeStack(
    new Error(`listen ${code}: ${descriptions[code] ?? "unknown error"} ${host}:${port}`));
  error.code = code;
  error.errno = errno;
  error.syscall = "listen";
  error.address = host;
  error.port = port;
  return error;
}

/// The events of the natives (HTTPServerNatives.swift): 0 listening, 1 listen error, 2 request, 3 body chunk,
/// 4 body end, 5 drain, 6 connection closed, 7 server closed, 8 connection opened.
internal.httpEvent = function (kind, a, b, c, d, e, f, g, h) {
  switch (kind) {
    case 2: return onRequest(a, b, c, d, e, f, g, h);
    case 3: {
      const request = connections.get(a)?.request;
      if (request !== undefined && !request.push(Buffer.from(b))) httpConnection(a, 0);
      return;
    }
    case 4: {
      const request = connections.get(a)?.request;
      if (request !== undefined) {
        request.complete = true;
        request.push(null);
      }
      return;
    }
    case 5: {
      const response = connections.get(a)?.response;
      if (response !== undefined && response._needDrain) {
        response._needDrain = false;
        response.emit("drain");
      }
      return;
    }
    case 6: return onConnectionClosed(a);
    case 8: return onConnection(a, b, c, d);
    case 0: {
      const server = servers.get(a);
      if (server === undefined) return;
      server.listening = true;
      server._address = { address: c, family: d, port: b };
      server.emit("listening");
      return;
    }
    case 1: {
      const server = servers.get(a);
      if (server === undefined) return;
      servers.delete(a);
      server._id = 0;
      server.emit("error", listenError(b, c, server._pendingHost ?? "0.0.0.0", server._pendingPort ?? 0));
      return;
    }
    case 7: {
      const server = servers.get(a);
      if (server === undefined) return;
      servers.delete(a);
      server._id = 0;
      server.listening = false;
      server._address = null;
      server.emit("close");
      return;
    }
  }
};

function onConnection(serverId, connectionId, remoteAddress, remotePort) {
  const server = servers.get(serverId);
  if (server === undefined) return;
  const socket = new ServerSocket(connectionId, remoteAddress, remotePort);
  socket.server = server;
  connections.set(connectionId, { server, socket, request: undefined, response: undefined });
  server._connectionCount++;
  server.emit("connection", socket);
}

function onRequest(serverId, connectionId, method, url, minor, rawHeaders, keepAlive, complete) {
  const connection = connections.get(connectionId);
  if (connection === undefined) return;
  const server = connection.server;
  const request = new IncomingMessage(connection.socket);
  request.method = method;
  request.url = url;
  request.rawHeaders = rawHeaders;
  if (minor !== 1) {
    request.httpVersionMinor = minor;
    request.httpVersion = `1.${minor}`;
  }
  request._keepAlive = keepAlive;
  request._onRead = () => httpConnection(connectionId, 1);
  if (complete) {
    request.complete = true;
    request.push(null);
  }
  const response = new ServerResponse(request, connectionId);
  response._server = server;
  connection.request = complete ? undefined : request;
  connection.response = response;
  server.emit("request", request, response);
}

function onConnectionClosed(connectionId) {
  const connection = connections.get(connectionId);
  if (connection === undefined) return;
  connections.delete(connectionId);
  connection.server._connectionCount--;
  const { request, response, socket } = connection;
  socket.destroyed = true;
  if (request !== undefined && !request.complete) {
    request.aborted = true;
    request.emit("aborted");
    request.destroy(internal.nodeStack(Object.assign(new Error("aborted"), { code: "ECONNRESET" })));
  }
  if (response !== undefined && !response._closed) {
    response._done();
  }
  socket.emit("close", false);
}

// MARK: - Client

/// Node's Agent: the options it keeps. Connections are pooled by the HTTP plugin's client whatever the agent.
/** @type {any} */
const Agent = function Agent(options) {
  if (!(this instanceof Agent)) return new Agent(options);
  FunctionPrototypeCall(EventEmitter, this);
  this.options = { __proto__: null, ...options, path: null };
  this.keepAlive = options?.keepAlive ?? false;
  this.keepAliveMsecs = options?.keepAliveMsecs ?? 1000;
  this.maxSockets = options?.maxSockets ?? Infinity;
  this.maxFreeSockets = options?.maxFreeSockets ?? 256;
  this.maxTotalSockets = options?.maxTotalSockets ?? Infinity;
  this.defaultPort = 80;
  this.protocol = "http:";
  this.requests = ObjectCreate(null);
  this.sockets = ObjectCreate(null);
  this.freeSockets = ObjectCreate(null);
};
ObjectSetPrototypeOf(Agent.prototype, EventEmitter.prototype);
ObjectSetPrototypeOf(Agent, EventEmitter);
Agent.prototype.destroy = function () {};
Agent.prototype.getName = function (options = {}) {
  return `${options.host || "localhost"}:${options.port || ""}:${options.localAddress || ""}`;
};
Agent.prototype.createConnection = function () {
  throw notImplemented("Agent.createConnection()");
};

const globalAgent = new Agent({ keepAlive: true, scheduling: "lifo", timeout: 5000 });

/// A client request: a writable of the request body; the request goes out on `end()`, and 'response' gives an
/// IncomingMessage of the response.
/** @type {any} */
const ClientRequest = /** @this {any} */ function ClientRequest(input, options, callback, defaultProtocol) {
  FunctionPrototypeCall(OutgoingMessage, this);
  if (typeof input === "string" || (input !== null && typeof input === "object" && typeof input.href === "string")) {
    const url = new URL(String(input.href ?? input));
    const fromURL = {
      protocol: url.protocol, hostname: MethodSlice(url.hostname, 0, 1) === "["
        ? MethodSlice(url.hostname, 1, -1) : url.hostname,
      port: url.port, path: url.pathname + url.search,
      auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
    };
    if (typeof options === "function") {
      callback = options;
      options = fromURL;
    } else {
      options = { ...fromURL, ...options };
    }
  } else if (typeof input === "function") {
    callback = input;
    options = {};
  } else {
    if (typeof options === "function") callback = options;
    options = { ...input };
  }
  const protocol = options.protocol ?? defaultProtocol;
  if (protocol !== "http:" && protocol !== "https:") {
    throw make(TypeError, "ERR_INVALID_PROTOCOL", `Protocol "${protocol}" not supported. Expected "${
      defaultProtocol}"`);
  }
  const method = options.method === undefined ? "GET" : String(options.method).toUpperCase();
  if (!tokenPattern.test(method)) {
    throw make(TypeError, "ERR_INVALID_HTTP_TOKEN", `Method must be a valid HTTP token ["${options.method}"]`);
  }
  const path = options.path ?? "/";
  if (/[\u0000-\u0020]/.test(path)) {
    throw make(TypeError, "ERR_UNESCAPED_CHARACTERS", "Request path contains unescaped characters");
  }
  this.method = method;
  this.path = path;
  this.protocol = protocol;
  this.host = options.hostname ?? (options.host ? String(options.host).replace(/:[0-9]+$/, "") : "localhost");
  this.port = options.port ? Number(options.port) : (options.defaultPort ?? (protocol === "https:" ? 443 : 80));
  this.agent = options.agent ?? globalAgent;
  this.timeout = options.timeout;
  this.aborted = false;
  this.reusedSocket = false;
  this.maxHeadersCount = null;
  this._body = [];
  this._controller = new AbortController();
  this._response = undefined;
  if (options.headers) {
    if (ArrayIsArray(options.headers)) {
      for (let i = 0; i + 1 < options.headers.length; i += 2) this.appendHeader(options.headers[i], options.headers[i + 1]);
    } else {
      for (const name of ObjectKeys(options.headers)) {
        if (options.headers[name] !== undefined) this.setHeader(name, options.headers[name]);
      }
    }
  }
  if (options.auth && !this.hasHeader("authorization")) {
    this.setHeader("Authorization", "Basic " + Buffer.from(String(options.auth)).toString("base64"));
  }
  if (options.signal) {
    const signal = options.signal;
    if (signal.aborted) nextTick(() => this.destroy(abortError()));
    else signal.addEventListener("abort", () => this.destroy(abortError()), { once: true });
  }
  if (options.timeout) this.setTimeout(options.timeout);
  if (callback) this.once("response", callback);
};
ObjectSetPrototypeOf(ClientRequest.prototype, OutgoingMessage.prototype);
ObjectSetPrototypeOf(ClientRequest, OutgoingMessage);

function abortError() {
  const error = internal.nodeStack(new Error("The operation was aborted"));
  error.name = "AbortError";
  error.code = "ABORT_ERR";
  return error;
}

/// The request's part of `write`: the body is kept and sent at `end()`.
ClientRequest.prototype._writeBytes = function (bytes) {
  ArrayPrototypePush(this._body, Buffer.from(bytes));
  return true;
};

ClientRequest.prototype.end = function (chunk, encoding, callback) {
  ({ chunk, encoding, callback } = endArguments(chunk, encoding, callback));
  if (this.writableEnded) return this;
  if (chunk !== undefined && chunk !== null) this.write(chunk, encoding);
  this.writableEnded = true;
  this.finished = true;
  if (callback) this.once("finish", callback);
  nextTick(() => this._send());
  return this;
};

ClientRequest.prototype.flushHeaders = function () {};
ClientRequest.prototype.setNoDelay = function () {};
ClientRequest.prototype.setSocketKeepAlive = function () {};
ClientRequest.prototype.abort = function () {
  if (this.aborted) return;
  this.aborted = true;
  nextTick(() => this.emit("abort"));
  this.destroy();
};
ClientRequest.prototype.destroy = function (error) {
  if (this.destroyed) return this;
  this.destroyed = true;
  this._controller.abort();
  const response = this._response;
  if (response !== undefined && !response.complete) {
    response.aborted = true;
    response.emit("aborted");
    response.destroy(error ?? connectionResetError("aborted"));
  }
  nextTick(() => {
    if (response === undefined) this.emit("error", error ?? connectionResetError("socket hang up"));
    else if (error) this.emit("error", error);
    this.emit("close");
  });
  return this;
};
ClientRequest.prototype.setTimeout = function (ms, callback) {
  if (callback) this.once("timeout", callback);
  clearTimeout(this._timer);
  if (ms > 0) {
    this._timer = setTimeout(() => {
      if (this._response === undefined && !this.destroyed) this.emit("timeout");
    }, ms);
  }
  return this;
};

function connectionResetError(message) {
  const error = internal.nodeStack(new Error(message));
  error.code = "ECONNRESET";
  return error;
}

/// A fetch failure as the error Node's client gives (`connect ECONNREFUSED 127.0.0.1:80`, ...).
function clientError(request, error) {
  if (error?.code !== "NETWORK_ERROR") return error;
  // fetch's TypeError carries the HTTP plugin's error as its cause, with the failure's kind.
  const kind = error.data?.kind ?? error.cause?.data?.kind;
  const address = `${request.host}:${request.port}`;
  let made;
  if (kind === "connect") {
    made = internal.nodeStack(new Error(`connect ECONNREFUSED ${address}`));
    ObjectAssignErrno(made, "ECONNREFUSED", -111, "connect", request);
  } else if (kind === "dns") {
    made = internal.nodeStack(new Error(`getaddrinfo ENOTFOUND ${request.host}`));
    ObjectAssignErrno(made, "ENOTFOUND", -3008, "getaddrinfo", request);
    made.hostname = request.host;
  } else if (kind === "timeout") {
    made = internal.nodeStack(new Error(`connect ETIMEDOUT ${address}`));
    ObjectAssignErrno(made, "ETIMEDOUT", -110, "connect", request);
  } else {
    made = connectionResetError("socket hang up");
  }
  made.cause = error;
  return made;
}

function ObjectAssignErrno(error, code, errno, syscall, request) {
  error.errno = errno;
  error.code = code;
  error.syscall = syscall;
  error.address = request.host;
  error.port = request.port;
}

/// Sends the request with `fetch` and emits 'response' with an IncomingMessage reading the body on demand.
ClientRequest.prototype._send = function () {
  if (this.destroyed) return;
  if (typeof fetch !== "function") {
    this.emit("error", make(Error, "ERR_METHOD_NOT_IMPLEMENTED",
      "node:http's client needs fetch (the HTTP plugin), which this runtime lacks"));
    return;
  }
  this.headersSent = true;
  const headers = [];
  for (const entry of this._headerMap.values()) {
    const value = entry[1];
    for (const item of ArrayIsArray(value) ? value : [value]) ArrayPrototypePush(headers, [entry[0], String(item)]);
  }
  const host = MethodIncludes(this.host, ":") ? `[${this.host}]` : this.host;
  const url = `${this.protocol}//${host}:${this.port}${this.path}`;
  const body = this._body.length === 0 ? undefined : Buffer.concat(this._body);
  const init = { method: this.method, headers, body, redirect: "manual", signal: this._controller.signal };
  // The connection is the HTTP plugin's: 'socket' gives a stand-in that takes a socket's settings.
  this.socket ??= new ServerSocket(0, this.host, this.port);
  nextTick(() => {
    this.emit("socket", this.socket);
    this.emit("finish");
  });
  fetch(url, /** @type {any} */ (init)).then((/** @type {any} */ response) => {
    clearTimeout(this._timer);
    if (this.destroyed) return;
    const message = new IncomingMessage(null);
    this._response = message;
    message.statusCode = response.status;
    message.statusMessage = response.statusText || STATUS_CODES[response.status] || "";
    const raw = [];
    const decoded = response.headers.has("content-encoding");
    for (const [name, value] of response.headers) {
      // The body arrives decoded: its encoding and encoded length no longer describe it.
      if (decoded && (name === "content-encoding" || name === "content-length")) continue;
      // Each Set-Cookie comes on its own.
      ArrayPrototypePush(raw, name, value);
    }
    message.rawHeaders = raw;
    message.req = this;
    const reader = response.body?.getReader();
    let reading = false;
    message._onRead = () => {
      if (reading) return;
      if (reader === undefined) {
        message.complete = true;
        message.push(null);
        return;
      }
      reading = true;
      reader.read().then(({ done, value }) => {
        reading = false;
        if (done) {
          message.complete = true;
          message.push(null);
        } else if (message.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength))) {
          message._onRead();
        }
      }, (error) => {
        reading = false;
        if (!message.destroyed) {
          message.aborted = true;
          message.emit("aborted");
          message.destroy(clientError(this, error));
        }
      });
    };
    message.on("end", () => nextTick(() => this.emit("close")));
    if (!this.emit("response", message)) message.resume();
  }, (error) => {
    clearTimeout(this._timer);
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit("error", clientError(this, error));
    this.emit("close");
  });
};

function request(input, options, callback) {
  return new ClientRequest(input, options, callback, "http:");
}

function get(input, options, callback) {
  const made = request(input, options, callback);
  made.end();
  return made;
}

const http = {
  METHODS, STATUS_CODES, Agent, ClientRequest, IncomingMessage, OutgoingMessage, Server, ServerResponse,
  createServer, globalAgent, get, request, validateHeaderName, validateHeaderValue, maxHeaderSize: 16384,
  setMaxIdleHTTPParsers() {},
};

// MARK: - https

/** @type {any} */
const HTTPSAgent = function HTTPSAgent(options) {
  if (!(this instanceof HTTPSAgent)) return new HTTPSAgent(options);
  FunctionPrototypeCall(Agent, this, options);
  this.defaultPort = 443;
  this.protocol = "https:";
};
ObjectSetPrototypeOf(HTTPSAgent.prototype, Agent.prototype);
ObjectSetPrototypeOf(HTTPSAgent, Agent);
const httpsGlobalAgent = new HTTPSAgent({ keepAlive: true });

function httpsNoServer() {
  throw make(Error, "ERR_METHOD_NOT_IMPLEMENTED",
    "https.createServer() is not implemented in jsbridge (TLS servers are absent; serve HTTP and put TLS in front)");
}

const https = {
  Agent: HTTPSAgent, globalAgent: httpsGlobalAgent, Server: httpsNoServer, createServer: httpsNoServer,
  request(input, options, callback) {
    return new ClientRequest(input, options, callback, "https:");
  },
  get(input, options, callback) {
    const made = https.request(input, options, callback);
    made.end();
    return made;
  },
};

internal.nodeExport("http", http);
internal.nodeExport("https", https);
