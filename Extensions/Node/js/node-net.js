// `node:net`: TCP sockets and servers (`Socket` as a Duplex stream, `Server`, `createServer`, `connect` /
// `createConnection`, `isIP`/`isIPv4`/`isIPv6`), behind the `net` capability (`--allow-net[=host:port,...]`,
// checked for `listen` and `connect` as node:http's `listen` and `fetch` check it; a refusal is the socket's or
// server's 'error' with code PERMISSION_DENIED). Written for jsbridge from Node's documentation.
//
// The natives (NetNatives.swift) run the sockets with SwiftNIO on the JS thread's own event loop and call
// `internal.netEvent` for each event. A write the socket cannot take at once holds its callback until the
// socket drains, so `write()` answers false past `writableHighWaterMark` and 'drain' follows, as in Node. A
// socket's input may end before its output: unless `allowHalfOpen`, the output ends once the input has ended.
// Unix socket paths, `BlockList`, `SocketAddress` and `setDefaultAutoSelectFamily` are absent.

const {
  Error, FunctionPrototypeCall, MethodIncludes, MethodIndexOf, MethodLastIndexOf, MethodSlice, MethodSplit,
  NumberIsInteger, ObjectDefineProperty, ObjectSetPrototypeOf, Promise, RangeError, RegExpPrototypeTest, SafeMap,
  String, TypeError,
} = internal.primordials;
const { invalidArgType, make } = internal.nodeErrors;
const EventEmitter = internal.nodeBuiltin("events");
const { Duplex } = internal.nodeBuiltin("stream");
const { Buffer } = internal.nodeBuiltin("buffer");
const { netConnect, netListen, netServer, netSocket, netWrite } = internal;

const nextTick = (fn, ...args) => queueMicrotask(() => fn(...args));

// MARK: - Addresses

const decimalOctet = /^(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$/;
const hexGroup = /^[0-9a-fA-F]{1,4}$/;
const zonePattern = /^[0-9a-zA-Z\-.:]+$/;

/// Whether `text` is a dotted-decimal IPv4 address (four octets, no leading zeros).
function isIPv4(text) {
  if (typeof text !== "string") text = String(text);
  const parts = MethodSplit(text, ".");
  if (parts.length !== 4) return false;
  for (const part of parts) if (!RegExpPrototypeTest(decimalOctet, part)) return false;
  return true;
}

/// The number of 16-bit groups `part` (colon-separated, maybe ending in an IPv4 address) stands for, or -1.
function groupCount(part, mayEndInIPv4) {
  if (part === "") return 0;
  const groups = MethodSplit(part, ":");
  let count = 0;
  for (let i = 0; i < groups.length; i++) {
    if (i === groups.length - 1 && mayEndInIPv4 && MethodIncludes(groups[i], ".")) {
      if (!isIPv4(groups[i])) return -1;
      count += 2;
    } else if (RegExpPrototypeTest(hexGroup, groups[i])) {
      count += 1;
    } else {
      return -1;
    }
  }
  return count;
}

/// Whether `text` is an IPv6 address (`::` at most once, an IPv4 tail allowed, an optional `%zone`).
function isIPv6(text) {
  if (typeof text !== "string") text = String(text);
  const percent = MethodIndexOf(text, "%");
  if (percent !== -1) {
    if (!RegExpPrototypeTest(zonePattern, MethodSlice(text, percent + 1))) return false;
    text = MethodSlice(text, 0, percent);
  }
  const gap = MethodIndexOf(text, "::");
  if (gap === -1) return groupCount(text, true) === 8;
  if (MethodLastIndexOf(text, "::") !== gap) return false;
  const head = groupCount(MethodSlice(text, 0, gap), false);
  const tail = groupCount(MethodSlice(text, gap + 2), true);
  return head >= 0 && tail >= 0 && head + tail <= 7;
}

/// 4 for an IPv4 address, 6 for an IPv6 one, 0 otherwise.
function isIP(text) {
  if (isIPv4(text)) return 4;
  if (isIPv6(text)) return 6;
  return 0;
}

const familyOf = (address) => (isIPv6(address) ? "IPv6" : "IPv4");

// MARK: - Errors and arguments

/// Node's errno exception with an address: `connect ECONNREFUSED 127.0.0.1:1`.
function errnoException(code, errno, syscall, address, port) {
  const where = address === undefined ? "" : port === undefined ? ` ${address}` : ` ${address}:${port}`;
  const error = internal.nodeStack(new Error(`${syscall} ${code}${where}`));
  error.errno = errno;
  error.code = code;
  error.syscall = syscall;
  if (address !== undefined) error.address = address;
  if (port !== undefined) error.port = port;
  return error;
}

function notImplemented(what) {
  return make(Error, "ERR_METHOD_NOT_IMPLEMENTED", `The ${what} method is not implemented`);
}

/// A port as Node accepts it (a number or a numeric string, 0 to 65535), or ERR_SOCKET_BAD_PORT.
function checkPort(port, name = "Port", allowZero = true) {
  const number = typeof port === "string" && RegExpPrototypeTest(/^ *[0-9]+ *$/, port) ? +port : port;
  if (typeof number !== "number" || !NumberIsInteger(number) || number < 0 || number > 65535 ||
    (!allowZero && number === 0)) {
    throw make(RangeError, "ERR_SOCKET_BAD_PORT",
      `${name} should be >= 0 and < 65536. Received ${internal.inspect(port)}.`);
  }
  return number;
}

/// Runs `work` on the run's loop (a 0 ms timer runs there; the natives need the loop, which starts once the
/// script's first run ends).
function onLoop(work) {
  setTimeout(work, 0);
}

// MARK: - Socket

let nextSocketId = 1;
/** @type {Map<number, any>} */
const sockets = new SafeMap();
/** @type {Map<number, any>} */
const servers = new SafeMap();

/// A TCP connection: a Duplex of its bytes, with Node's 'connect', 'ready', 'data', 'end', 'drain', 'timeout',
/// 'error' and 'close'.
/** @type {any} */
const Socket = /** @this {any} */ function Socket(options) {
  if (new.target === undefined) return new Socket(options);
  if (options === undefined || options === null) options = {};
  else if (typeof options !== "object") throw invalidArgType("options", "object", options);
  if (options.fd !== undefined || options.handle !== undefined) throw notImplemented("Socket() on a file descriptor:");
  FunctionPrototypeCall(Duplex, this, {
    allowHalfOpen: options.allowHalfOpen === true, highWaterMark: options.highWaterMark,
    readableHighWaterMark: options.readableHighWaterMark, writableHighWaterMark: options.writableHighWaterMark,
    signal: options.signal,
  });
  this._id = 0;
  this.connecting = false;
  this._drainCallback = undefined;
  this._timeoutMs = 0;
  this._timer = undefined;
  this._unref = false;
  this._noDelay = undefined;
  this._keepAlive = undefined;
  this._sockname = undefined;
  this.remoteAddress = undefined;
  this.remotePort = undefined;
  this.remoteFamily = undefined;
  this.bytesRead = 0;
  this._bytesWritten = 0;
  this.server = null;
  this._server = null;
};
ObjectSetPrototypeOf(Socket.prototype, Duplex.prototype);
ObjectSetPrototypeOf(Socket, Duplex);

/// Gives the socket its native id (a connection made or accepted): events for that id reach it.
Socket.prototype._attach = function (id) {
  this._id = id;
  sockets.set(id, this);
  if (this._noDelay !== undefined) netSocket(id, 4, this._noDelay);
  if (this._keepAlive !== undefined) netSocket(id, 5, this._keepAlive);
  if (this._unref) netSocket(id, 7, false);
  if (this.isPaused() && this.readableFlowing === false) netSocket(id, 0, false);
};

/// `connect(port, host, listener)`, `connect({port, host, ...}, listener)`.
Socket.prototype.connect = function (...args) {
  let options;
  let listener;
  if (typeof args[args.length - 1] === "function") listener = args.pop();
  if (args[0] !== null && typeof args[0] === "object") {
    options = args[0];
  } else if (typeof args[0] === "string" && !RegExpPrototypeTest(/^ *[0-9]+ *$/, args[0])) {
    options = { path: args[0] };
  } else {
    options = { port: args[0], host: args[1] };
  }
  if (options.path !== undefined) throw notImplemented("connect() to a Unix socket path:");
  if (this._id !== 0 || this.connecting) {
    throw make(Error, "ERR_SOCKET_CONNECTION_IN_PROGRESS", "Socket connection already in progress");
  }
  if (options.port === undefined) {
    throw make(TypeError, "ERR_MISSING_ARGS", 'The "options" or "port" or "path" argument must be specified');
  }
  const port = checkPort(options.port, "Port", false);
  const host = options.host === undefined || options.host === null || options.host === "" ? "localhost"
    : String(options.host);
  if (options.noDelay !== undefined) this._noDelay = options.noDelay !== false;
  if (options.keepAlive !== undefined) this._keepAlive = options.keepAlive === true;
  if (options.timeout !== undefined) this.setTimeout(options.timeout);
  if (listener) this.once("connect", listener);
  this.connecting = true;
  this._host = host;
  this._port = port;
  const id = nextSocketId++;
  onLoop(() => {
    if (this.destroyed) return;
    sockets.set(id, this);
    this._connectId = id;
    try {
      netConnect(id, host, port);
    } catch (error) {
      sockets.delete(id);
      this._connectId = undefined;
      this.connecting = false;
      this.destroy(error);
    }
  });
  return this;
};

Socket.prototype._read = function () {
  if (this._id !== 0) netSocket(this._id, 1, false);
};

Socket.prototype._write = function (chunk, encoding, callback) {
  if (this.connecting) {
    this.once("connect", () => this._write(chunk, encoding, callback));
    return;
  }
  if (this._id === 0) {
    callback(make(Error, "ERR_SOCKET_CLOSED", "Socket is closed"));
    return;
  }
  const bytes = typeof chunk === "string" ? Buffer.from(chunk, encoding) : chunk;
  this._bytesWritten += bytes.byteLength;
  this._touch();
  if (netWrite(this._id, bytes.buffer, bytes.byteOffset, bytes.byteLength)) callback();
  else this._drainCallback = callback;
};

Socket.prototype._final = function (callback) {
  if (this.connecting) {
    this.once("connect", () => this._final(callback));
    return;
  }
  if (this._id !== 0) netSocket(this._id, 2, false);
  callback();
};

Socket.prototype._destroy = function (error, callback) {
  clearTimeout(this._timer);
  this._timer = undefined;
  this.connecting = false;
  if (this._id !== 0) {
    netSocket(this._id, 3, false);
    sockets.delete(this._id);
  }
  if (this._connectId !== undefined) sockets.delete(this._connectId);
  const server = this._server;
  if (server !== null) {
    this._server = null;
    server._connectionClosed();
  }
  callback(error);
};

/// Restarts the idle timer ('timeout' after `ms` without reads or writes).
Socket.prototype._touch = function () {
  if (this._timeoutMs <= 0) return;
  clearTimeout(this._timer);
  // Unref'd: an idle timer alone does not keep the run alive (as Node's).
  this._timer = /** @type {any} */ (setTimeout(() => {
    this._timer = undefined;
    if (!this.destroyed) this.emit("timeout");
  }, this._timeoutMs));
  this._timer.unref();
};

Socket.prototype.setTimeout = function (ms, callback) {
  if (typeof ms !== "number" || ms < 0 || !(ms === ms)) {
    throw invalidArgType("msecs", "number", ms);
  }
  this._timeoutMs = ms;
  clearTimeout(this._timer);
  this._timer = undefined;
  if (callback !== undefined) {
    if (ms === 0) this.removeListener("timeout", callback);
    else this.once("timeout", callback);
  }
  this._touch();
  return this;
};
Socket.prototype.setNoDelay = function (noDelay) {
  this._noDelay = noDelay !== false;
  if (this._id !== 0) netSocket(this._id, 4, this._noDelay);
  return this;
};
Socket.prototype.setKeepAlive = function (enable) {
  this._keepAlive = enable === true;
  if (this._id !== 0) netSocket(this._id, 5, this._keepAlive);
  return this;
};
Socket.prototype.ref = function () {
  this._unref = false;
  if (this._id !== 0) netSocket(this._id, 6, true);
  return this;
};
Socket.prototype.unref = function () {
  this._unref = true;
  if (this._id !== 0) netSocket(this._id, 7, false);
  return this;
};
Socket.prototype.address = function () {
  return this._sockname ?? {};
};
Socket.prototype.resetAndDestroy = function () {
  return this.destroy();
};
Socket.prototype.destroySoon = function () {
  if (this.writable) this.end();
  if (this.writableFinished) this.destroy();
  else this.once("finish", () => this.destroy());
};

for (const [name, get] of /** @type {[string, (socket: any) => any][]} */ ([
  ["localAddress", (socket) => socket._sockname?.address],
  ["localPort", (socket) => socket._sockname?.port],
  ["localFamily", (socket) => socket._sockname?.family],
  ["bytesWritten", (socket) => socket._bytesWritten],
  ["pending", (socket) => socket._id === 0],
  ["bufferSize", (socket) => socket.writableLength],
  ["readyState", (socket) => {
    if (socket.connecting) return "opening";
    if (socket.readable && socket.writable) return "open";
    if (socket.readable) return "readOnly";
    if (socket.writable) return "writeOnly";
    return "closed";
  }],
  ["timeout", (socket) => (socket._timeoutMs > 0 ? socket._timeoutMs : undefined)],
])) {
  ObjectDefineProperty(Socket.prototype, name, {
    get() {
      return get(this);
    },
    configurable: true,
  });
}

/// `net.connect(port, host, listener)`, `net.connect({port, host, ...}, listener)`.
function connect(...args) {
  const options = args[0] !== null && typeof args[0] === "object" ? args[0] : {};
  const socket = new Socket(options);
  if (options.timeout !== undefined) socket.setTimeout(options.timeout);
  return socket.connect(...args);
}

// MARK: - Server

let nextServerId = 1;

/// A TCP server: 'connection' with each accepted Socket, 'listening', 'close', 'error'.
/** @type {any} */
const Server = /** @this {any} */ function Server(options, connectionListener) {
  if (new.target === undefined) return new Server(options, connectionListener);
  if (typeof options === "function") {
    connectionListener = options;
    options = {};
  } else if (options === undefined || options === null) {
    options = {};
  } else if (typeof options !== "object") {
    throw invalidArgType("options", "object", options);
  }
  FunctionPrototypeCall(EventEmitter, this);
  this._id = 0;
  this._address = null;
  this._connections = 0;
  this._closed = false;
  this._unref = false;
  this.listening = false;
  this.maxConnections = undefined;
  this.allowHalfOpen = options.allowHalfOpen === true;
  this.pauseOnConnect = options.pauseOnConnect === true;
  this.noDelay = options.noDelay === true;
  this.keepAlive = options.keepAlive === true;
  if (connectionListener) this.on("connection", connectionListener);
};
ObjectSetPrototypeOf(Server.prototype, EventEmitter.prototype);
ObjectSetPrototypeOf(Server, EventEmitter);

/// `listen(port, host, backlog, callback)`, `listen({port, host, backlog}, callback)`, `listen(callback)`.
Server.prototype.listen = function (...args) {
  let callback;
  if (typeof args[args.length - 1] === "function") callback = args.pop();
  /** @type {any} */
  let options;
  if (args[0] !== null && typeof args[0] === "object") {
    options = args[0];
  } else if (typeof args[0] === "string" && !RegExpPrototypeTest(/^ *[0-9]+ *$/, args[0])) {
    options = { path: args[0] };
  } else {
    options = { port: args[0] };
    if (typeof args[1] === "string") options.host = args[1];
    else if (typeof args[1] === "number") options.backlog = args[1];
    if (typeof args[2] === "number") options.backlog = args[2];
  }
  if (options.path !== undefined) throw notImplemented("listen() on a Unix socket path:");
  const port = options.port === undefined || options.port === null ? 0 : checkPort(options.port, "options.port");
  if (this.listening || this._id !== 0) {
    throw make(Error, "ERR_SERVER_ALREADY_LISTEN", "Listen method has been called more than once without closing.");
  }
  if (callback) this.once("listening", callback);
  const host = options.host === undefined || options.host === null || options.host === "" ? "0.0.0.0"
    : String(options.host);
  const backlog = typeof options.backlog === "number" ? options.backlog : 511;
  const id = nextServerId++;
  this._id = id;
  this._closed = false;
  this._closeEmitted = false;
  this._pendingHost = host;
  this._pendingPort = port;
  servers.set(id, this);
  onLoop(() => {
    if (servers.get(id) !== this) return;
    try {
      netListen(id, host, port, backlog);
      if (this._unref) netServer(id, 2);
    } catch (error) {
      servers.delete(id);
      this._id = 0;
      this.emit("error", error);
    }
  });
  return this;
};

Server.prototype.address = function () {
  return this._address;
};

/// Stops accepting connections; 'close' follows once the open ones have closed (as Node's).
Server.prototype.close = function (callback) {
  if (typeof callback === "function") {
    if (this._id === 0) {
      this.once("close", () => callback(make(Error, "ERR_SERVER_NOT_RUNNING", "Server is not running.")));
    } else {
      this.once("close", callback);
    }
  }
  if (this._id !== 0) {
    netServer(this._id, 0);
  } else {
    nextTick(() => this.emit("close"));
  }
  return this;
};

/// One of its connections closed: the server emits 'close' once it is closed and none is left.
Server.prototype._connectionClosed = function () {
  this._connections--;
  this._emitCloseIfDone();
};
Server.prototype._emitCloseIfDone = function () {
  if (this._closed && this._connections === 0 && this._id === 0 && !this._closeEmitted) {
    this._closeEmitted = true;
    nextTick(() => this.emit("close"));
  }
};

Server.prototype.ref = function () {
  this._unref = false;
  if (this._id !== 0) netServer(this._id, 1);
  return this;
};
Server.prototype.unref = function () {
  this._unref = true;
  if (this._id !== 0) netServer(this._id, 2);
  return this;
};
Server.prototype.getConnections = function (callback) {
  nextTick(callback, null, this._connections);
  return this;
};
const asyncDispose = /** @type {any} */ (Symbol).asyncDispose;
if (typeof asyncDispose === "symbol") {
  Server.prototype[asyncDispose] = function () {
    return new Promise((resolve) => this.close(() => resolve(undefined)));
  };
}

function createServer(options, connectionListener) {
  return new Server(options, connectionListener);
}

// MARK: - Events

/// The events of the natives (NetNatives.swift): 0 listening, 1 listen error, 2 data, 3 end of input, 5 drain,
/// 6 socket closed, 7 server closed, 8 connection accepted, 9 connected, 10 connect error, 11 socket error.
internal.netEvent = function (kind, a, b, c, d, e, f, g) {
  switch (kind) {
    case 2: {
      const socket = sockets.get(a);
      if (socket === undefined) return;
      const bytes = Buffer.from(b);
      socket.bytesRead += bytes.byteLength;
      socket._touch();
      if (!socket.push(bytes)) netSocket(a, 0, false);
      return;
    }
    case 3: {
      const socket = sockets.get(a);
      if (socket === undefined) return;
      socket.push(null);
      // A socket nobody reads still hears its 'end' when nothing is left unread (then it ends its side).
      socket.read(0);
      return;
    }
    case 5: {
      const socket = sockets.get(a);
      const callback = socket?._drainCallback;
      if (callback !== undefined) {
        socket._drainCallback = undefined;
        callback();
      }
      return;
    }
    case 6: {
      const socket = sockets.get(a);
      if (socket === undefined) return;
      sockets.delete(a);
      socket._id = 0;
      // The connection is gone (SwiftNIO closes it at once when the input ends after the output did): its input
      // has ended, and the socket closes once that 'end' is read, as Node's.
      const state = socket._readableState;
      if (!state.ended) {
        socket.push(null);
        socket.read(0);
      }
      if (state.endEmitted) socket.destroy();
      else socket.once("end", () => socket.destroy());
      return;
    }
    case 8: return onConnection(a, b, c, d, e, f);
    case 9: {
      const socket = sockets.get(a);
      if (socket === undefined) return;
      socket.connecting = false;
      socket._connectId = undefined;
      socket._sockname = { address: b, family: familyOf(b), port: c };
      socket.remoteAddress = d;
      socket.remotePort = e;
      socket.remoteFamily = familyOf(d);
      socket._attach(a);
      socket._touch();
      socket.emit("connect");
      socket.emit("ready");
      return;
    }
    case 10: {
      const socket = sockets.get(a);
      if (socket === undefined) return;
      sockets.delete(a);
      socket.connecting = false;
      socket._connectId = undefined;
      const host = socket._host;
      if (b === "ENOTFOUND") {
        const error = errnoException(b, c, "getaddrinfo", host);
        error.hostname = host;
        socket.destroy(error);
      } else {
        socket.destroy(errnoException(b, c, "connect", host, socket._port));
      }
      return;
    }
    case 11: {
      const socket = sockets.get(a);
      if (socket !== undefined) socket.destroy(errnoException(b, c, b === "EPIPE" ? "write" : "read"));
      return;
    }
    case 0: {
      const server = servers.get(a);
      if (server === undefined) return;
      server.listening = true;
      server._address = { address: c, family: familyOf(c), port: b };
      server.emit("listening");
      return;
    }
    case 1: {
      const server = servers.get(a);
      if (server === undefined) return;
      servers.delete(a);
      server._id = 0;
      server.emit("error", errnoException(b, c, "listen", server._pendingHost, server._pendingPort));
      return;
    }
    case 7: {
      const server = servers.get(a);
      if (server === undefined) return;
      servers.delete(a);
      server._id = 0;
      server._closed = true;
      server.listening = false;
      server._address = null;
      server._emitCloseIfDone();
      return;
    }
  }
};

function onConnection(serverId, id, remoteAddress, remotePort, localAddress, localPort) {
  const server = servers.get(serverId);
  if (server === undefined) {
    netSocket(id, 3, false);
    return;
  }
  if (server.maxConnections !== undefined && server._connections >= server.maxConnections) {
    netSocket(id, 3, false);
    return;
  }
  const socket = new Socket({ allowHalfOpen: server.allowHalfOpen });
  socket.remoteAddress = remoteAddress;
  socket.remotePort = remotePort;
  socket.remoteFamily = familyOf(remoteAddress);
  socket._sockname = { address: localAddress, family: familyOf(localAddress), port: localPort };
  socket.server = server;
  socket._server = server;
  if (server.noDelay) socket._noDelay = true;
  if (server.keepAlive) socket._keepAlive = true;
  if (server.pauseOnConnect) socket.pause();
  server._connections++;
  socket._attach(id);
  server.emit("connection", socket);
}

// MARK: - Exports

const net = {
  Server, Socket, Stream: Socket, connect, createConnection: connect, createServer, isIP, isIPv4, isIPv6,
  getDefaultAutoSelectFamily: () => true,
  setDefaultAutoSelectFamily: () => {},
};

internal.nodeExport("net", net);
