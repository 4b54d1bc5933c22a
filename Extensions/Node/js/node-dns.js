// `node:dns` and `node:dns/promises`: `lookup` (callback and promise forms, `family` and `all`), and `resolve4`,
// `resolve6` and `resolve(name, "A" | "AAAA")` answered by the same system resolver, behind the `net` capability
// for the name looked up (`--allow-net=name`; a refusal is the callback's error, code PERMISSION_DENIED). An IP
// address is answered as is, without a lookup or a grant, as Node answers it. Written for jsbridge from Node's
// documentation.
//
// The native (DNSNatives.swift) runs getaddrinfo on a worker thread and answers with the native event "dns". The
// other record types (`resolveMx`, `resolveTxt`, `reverse`...) and `Resolver` servers of one's own are absent:
// they throw ERR_METHOD_NOT_IMPLEMENTED.

const { ArrayIsArray, ArrayPrototypeFilter, ArrayPrototypeMap, Error, Promise, SafeMap, TypeError } = internal.primordials;
const { invalidArgType, invalidArgValue, make } = internal.nodeErrors;
const { isIP } = internal.nodeBuiltin("net");

const nextTick = (fn, ...args) => queueMicrotask(() => fn(...args));

/** @type {Map<number, (answer: any) => void>} */
const pending = new SafeMap();
let nextLookup = 1;
let listening = false;

function onAnswer(answer) {
  internal.dnsDone();
  const callback = pending.get(answer.id);
  if (callback === undefined) return;
  pending.delete(answer.id);
  callback(answer);
}

/// Asks the resolver for `hostname`'s addresses of `family` (0: any); `done(error, [[address, family], ...])`.
function resolveAddresses(hostname, family, syscall, done) {
  if (!listening) {
    internal.onNativeEvent("", "dns", onAnswer);
    listening = true;
  }
  const id = nextLookup++;
  pending.set(id, (answer) => {
    if (answer.addresses !== undefined) {
      done(null, answer.addresses);
      return;
    }
    const error = internal.nodeStack(new Error(`${syscall} ${answer.code} ${hostname}`));
    error.errno = answer.errno;
    error.code = answer.code;
    error.syscall = syscall;
    error.hostname = hostname;
    done(error);
  });
  try {
    internal.dnsLookup(id, hostname, family);
  } catch (error) {
    pending.delete(id);
    nextTick(done, error);
  }
}

function notImplemented(what) {
  return make(Error, "ERR_METHOD_NOT_IMPLEMENTED", `The ${what} method is not implemented`);
}

// MARK: - lookup

/// `lookup(hostname, [options | family], callback)`: `callback(error, address, family)`, or with `all: true`
/// `callback(error, [{address, family}, ...])`.
function lookup(hostname, options, callback) {
  if (typeof options === "function") {
    callback = options;
    options = {};
  }
  if (typeof callback !== "function") throw invalidArgType("callback", "function", callback);
  if (hostname !== undefined && hostname !== null && typeof hostname !== "string") {
    throw invalidArgType("hostname", "string", hostname);
  }
  let family = 0;
  let all = false;
  if (typeof options === "number") {
    family = options;
  } else if (options !== undefined && options !== null) {
    if (typeof options !== "object") throw invalidArgType("options", ["integer", "object"], options);
    if (options.family === "IPv4") family = 4;
    else if (options.family === "IPv6") family = 6;
    else if (options.family !== undefined) family = options.family;
    all = options.all === true;
  }
  if (family !== 0 && family !== 4 && family !== 6) {
    throw invalidArgValue("family", family, "must be one of: 0, 4, 6");
  }
  if (!hostname) {
    nextTick(callback, null, all ? [] : null, family === 6 ? 6 : 4);
    return {};
  }
  const literal = isIP(hostname);
  if (literal !== 0) {
    nextTick(callback, null, all ? [{ address: hostname, family: literal }] : hostname, literal);
    return {};
  }
  resolveAddresses(hostname, family, "getaddrinfo", (error, addresses) => {
    if (error) callback(error);
    else if (all) callback(null, ArrayPrototypeMap(addresses, ([address, family]) => ({ address, family })));
    else callback(null, addresses[0][0], addresses[0][1]);
  });
  return {};
}

// MARK: - resolve

/// The addresses of one family: `callback(error, ["1.2.3.4", ...])`, or with `ttl: true` `[{address, ttl}]`
/// (the system resolver does not give TTLs: 0).
function resolveFamily(family, syscall) {
  return function (hostname, options, callback) {
    if (typeof options === "function") {
      callback = options;
      options = {};
    }
    if (typeof hostname !== "string") throw invalidArgType("name", "string", hostname);
    if (typeof callback !== "function") throw invalidArgType("callback", "function", callback);
    const ttl = options?.ttl === true;
    resolveAddresses(hostname, family, syscall, (error, addresses) => {
      if (error) {
        callback(error);
        return;
      }
      const matching = ArrayPrototypeMap(ArrayPrototypeFilter(addresses, (entry) => entry[1] === family),
        (entry) => (ttl ? { address: entry[0], ttl: 0 } : entry[0]));
      if (matching.length === 0) {
        const empty = internal.nodeStack(new Error(`${syscall} ENODATA ${hostname}`));
        empty.code = "ENODATA";
        empty.syscall = syscall;
        empty.hostname = hostname;
        callback(empty);
      } else {
        callback(null, matching);
      }
    });
  };
}

const resolve4 = resolveFamily(4, "queryA");
const resolve6 = resolveFamily(6, "queryAaaa");

/// `resolve(hostname, [rrtype], callback)` for "A" and "AAAA".
function resolve(hostname, rrtype, callback) {
  if (typeof rrtype === "function") {
    callback = rrtype;
    rrtype = "A";
  }
  if (rrtype === "A") return resolve4(hostname, callback);
  if (rrtype === "AAAA") return resolve6(hostname, callback);
  if (typeof rrtype !== "string") throw invalidArgType("rrtype", "string", rrtype);
  throw notImplemented(`resolve() of ${rrtype} records:`);
}

// MARK: - Exports

/// `fn` as a function answering a promise (its callback's one value, or an object of two).
function promised(fn, two) {
  return (...args) => new Promise((resolvePromise, reject) => {
    fn(...args, (error, value, family) => {
      if (error) reject(error);
      else resolvePromise(two && !ArrayIsArray(value) ? { address: value, family } : value);
    });
  });
}

const absent = (name) => () => {
  throw notImplemented(`dns.${name}()`);
};
const absentNames = [
  "resolveAny", "resolveCaa", "resolveCname", "resolveMx", "resolveNaptr", "resolveNs", "resolvePtr", "resolveSoa",
  "resolveSrv", "resolveTxt", "reverse", "lookupService",
];

let resultOrder = "verbatim";
const codes = {
  NODATA: "ENODATA", FORMERR: "EFORMERR", SERVFAIL: "ESERVFAIL", NOTFOUND: "ENOTFOUND", NOTIMP: "ENOTIMP",
  REFUSED: "EREFUSED", BADQUERY: "EBADQUERY", BADNAME: "EBADNAME", BADFAMILY: "EBADFAMILY", BADRESP: "EBADRESP",
  CONNREFUSED: "ECONNREFUSED", TIMEOUT: "ETIMEOUT", EOF: "EOF", FILE: "EFILE", NOMEM: "ENOMEM",
  DESTRUCTION: "EDESTRUCTION", BADSTR: "EBADSTR", BADFLAGS: "EBADFLAGS", NONAME: "ENONAME",
  BADHINTS: "EBADHINTS", NOTINITIALIZED: "ENOTINITIALIZED", LOADIPHLPAPI: "ELOADIPHLPAPI",
  ADDRGETNETWORKPARAMS: "EADDRGETNETWORKPARAMS", CANCELLED: "ECANCELLED",
};
const shared = {
  ...codes,
  getServers: () => [],
  setServers: () => {},
  getDefaultResultOrder: () => resultOrder,
  setDefaultResultOrder(order) {
    if (order !== "ipv4first" && order !== "ipv6first" && order !== "verbatim") {
      throw invalidArgValue("dnsOrder", order);
    }
    resultOrder = order;
  },
};

/** @type {Record<string, any>} */
const promises = {
  ...shared,
  lookup: promised(lookup, true),
  resolve: promised(resolve, false),
  resolve4: promised(resolve4, false),
  resolve6: promised(resolve6, false),
};
/** @type {Record<string, any>} */
const dns = {
  ...shared,
  ADDRCONFIG: 1024, V4MAPPED: 2048, ALL: 256,
  lookup, resolve, resolve4, resolve6, promises,
};
for (const name of absentNames) {
  dns[name] = absent(name);
  promises[name] = absent(name);
}
/// `Resolver`: the module's functions on an object (servers of its own are not kept).
const Resolver = function Resolver() {
  if (!(this instanceof Resolver)) {
    throw make(TypeError, "ERR_CONSTRUCT_CALL_REQUIRED", "Class constructor Resolver cannot be invoked without 'new'");
  }
  this.resolve = dns.resolve;
  this.resolve4 = dns.resolve4;
  this.resolve6 = dns.resolve6;
  this.getServers = shared.getServers;
  this.setServers = shared.setServers;
  this.cancel = () => {};
};
dns.Resolver = Resolver;

internal.nodeExport("dns", dns);
internal.nodeExport("dns/promises", promises);
