// `node:url` (the WHATWG URL classes, fileURLToPath/pathToFileURL, the legacy parse/format/resolve) and
// `node:querystring`.

const {
  ArrayIsArray, ArrayPrototypePush, MethodCharCodeAt, MethodEndsWith, MethodIndexOf, MethodJoin, MethodLastIndexOf,
  MethodReplace, MethodSlice, MethodSplit, MethodStartsWith, MethodToLowerCase, MethodToUpperCase, MethodTrim,
  NumberIsFinite, ObjectCreate, ObjectKeys, RegExpPrototypeExec, SafeSet, StringFromCharCode, TypeError,
} = internal.primordials;
const { invalidArgType, make } = internal.nodeErrors;
const URL = internal.URL;
const URLSearchParams = internal.URLSearchParams;

// MARK: - File URLs

function fileURLToPath(input) {
  if (typeof input !== "string" && !(input instanceof URL)) throw invalidArgType("path", ["string", "URL"], input);
  return internal.fileURLToPath(input);
}

function pathToFileURL(path) {
  internal.nodeErrors.checkString(path, "path");
  internal.nodeBuiltin("path");
  // The runtime's own copy: a script may replace the module's functions (the module object is mutable).
  let resolved = internal.posixPath.resolve(path);
  // resolve() drops a trailing slash that still names a directory.
  if (MethodEndsWith(path, "/") && !MethodEndsWith(resolved, "/")) resolved += "/";
  const encoded = MethodReplace(MethodReplace(MethodReplace(MethodReplace(resolved, /%/g, "%25"), /\\/g, "%5C"), /\n/g, "%0A"), /\r/g, "%0D")
    .replace(/\t/g, "%09").replace(/#/g, "%23").replace(/\?/g, "%3F");
  return new URL("file://" + encoded);
}

function urlToHttpOptions(url) {
  const options = {
    protocol: url.protocol,
    hostname: MethodStartsWith(url.hostname, "[") ? MethodSlice(url.hostname, 1, -1) : url.hostname,
    hash: url.hash, search: url.search, pathname: url.pathname, path: `${url.pathname || ""}${url.search || ""}`,
    href: url.href,
  };
  if (url.port !== "") options.port = Number(url.port);
  if (url.username || url.password) options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return options;
}

// MARK: - Legacy API (url.parse / url.format / url.resolve)

function Url() {
  this.protocol = null;
  this.slashes = null;
  this.auth = null;
  this.host = null;
  this.port = null;
  this.hostname = null;
  this.hash = null;
  this.search = null;
  this.query = null;
  this.pathname = null;
  this.path = null;
  this.href = null;
}

const slashedProtocols = new SafeSet(["http:", "https:", "ftp:", "gopher:", "file:", "ws:", "wss:"]);

/// The legacy parser: splits without normalising (as Node's `url.parse`, without its IDNA handling).
function parse(text, parseQueryString = false, slashesDenoteHost = false) {
  if (text instanceof Url) return text;
  if (typeof text !== "string") throw invalidArgType("url", "string", text);
  const result = new Url();
  let rest = MethodTrim(text);
  const hashIndex = MethodIndexOf(rest, "#");
  if (hashIndex !== -1) {
    result.hash = MethodSlice(rest, hashIndex);
    rest = MethodSlice(rest, 0, hashIndex);
  }
  const queryIndex = MethodIndexOf(rest, "?");
  if (queryIndex !== -1) {
    result.search = MethodSlice(rest, queryIndex);
    result.query = MethodSlice(rest, queryIndex + 1);
    rest = MethodSlice(rest, 0, queryIndex);
  } else if (parseQueryString) {
    result.search = "";
    result.query = {};
  }
  if (parseQueryString && typeof result.query === "string") result.query = qsParse(result.query);
  const protocolMatch = RegExpPrototypeExec(/^([a-z0-9.+-]+:)/i, rest);
  if (protocolMatch !== null) {
    result.protocol = MethodToLowerCase(protocolMatch[1]);
    rest = MethodSlice(rest, protocolMatch[1].length);
  }
  const slashes = MethodStartsWith(rest, "//");
  if (slashes && (result.protocol === null ? slashesDenoteHost : true) && result.protocol !== "javascript:") {
    rest = MethodSlice(rest, 2);
    result.slashes = true;
    let end = rest.search(/[/\\]/);
    if (end === -1) end = rest.length;
    let host = MethodSlice(rest, 0, end);
    rest = MethodSlice(rest, end);
    const at = MethodLastIndexOf(host, "@");
    if (at !== -1) {
      result.auth = decodeURIComponent(MethodSlice(host, 0, at));
      host = MethodSlice(host, at + 1);
    }
    const portMatch = RegExpPrototypeExec(/:(\d*)$/, host);
    if (portMatch !== null) {
      if (portMatch[1] !== "") result.port = portMatch[1];
      host = MethodSlice(host, 0, portMatch.index);
    }
    result.hostname = MethodToLowerCase(host);
    result.host = result.hostname + (result.port !== null ? ":" + result.port : "");
  }
  if (rest !== "" || result.host !== null) {
    result.pathname = rest === "" && slashedProtocols.has(result.protocol) ? "/" : rest || null;
  }
  if (result.pathname !== null || result.search !== null) {
    result.path = (result.pathname ?? "") + (result.search ?? "");
  }
  result.href = format(result);
  return result;
}

function format(object, options) {
  if (typeof object === "string") object = parse(object);
  else if (object instanceof URL) {
    const url = new URL(object.href);
    if (options?.fragment === false) url.hash = "";
    if (options?.search === false) url.search = "";
    if (options?.auth === false) {
      url.username = "";
      url.password = "";
    }
    return url.href;
  } else if (object === null || typeof object !== "object") {
    throw invalidArgType("urlObject", ["object", "string"], object);
  }
  let auth = object.auth ? MethodReplace(encodeURIComponent(object.auth), /%3A/i, ":") + "@" : "";
  let protocol = object.protocol || "";
  if (protocol && !MethodEndsWith(protocol, ":")) protocol += ":";
  let host = "";
  if (object.host) host = auth + object.host;
  else if (object.hostname) host = auth + object.hostname + (object.port ? ":" + object.port : "");
  let pathname = object.pathname || "";
  let hash = object.hash || "";
  let search = object.search || "";
  if (!search && object.query && typeof object.query === "object" && ObjectKeys(object.query).length > 0) {
    search = "?" + qsStringify(object.query);
  }
  if (search && search[0] !== "?") search = "?" + search;
  if (hash && hash[0] !== "#") hash = "#" + hash;
  if (object.slashes || ((!protocol || slashedProtocols.has(protocol)) && host)) {
    host = "//" + host;
    if (pathname && pathname[0] !== "/") pathname = "/" + pathname;
  }
  pathname = MethodReplace(pathname, /[?#]/g, encodeURIComponent);
  search = MethodReplace(search, "#", "%23");
  return protocol + host + pathname + search + hash;
}

function resolve(from, to) {
  const base = new URL(from, "resolve://");
  const resolved = new URL(to, base);
  if (resolved.protocol === "resolve:") {
    const { pathname, search, hash } = resolved;
    return pathname + search + hash;
  }
  return resolved.href;
}

// MARK: - querystring

function qsEscape(text) {
  return encodeURIComponent(typeof text === "string" ? text : `${text}`)
    .replace(/[!'()*]/g, (c) => "%" + MethodToUpperCase(MethodCharCodeAt(c, 0).toString(16)));
}

function qsUnescape(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return MethodReplace(text, /%([0-9a-f]{2})/gi, (_, hex) => StringFromCharCode(parseInt(hex, 16)));
  }
}

function qsParse(text, separator = "&", equals = "=", options) {
  const result = ObjectCreate(null);
  if (typeof text !== "string" || text.length === 0) return result;
  const maxKeys = options?.maxKeys ?? 1000;
  const decode = typeof options?.decodeURIComponent === "function" ? options.decodeURIComponent : querystring.unescape;
  let parts = MethodSplit(text, separator || "&");
  if (maxKeys > 0) parts = MethodSlice(parts, 0, maxKeys);
  for (const part of parts) {
    if (part === "") continue;
    const index = MethodIndexOf(part, equals || "=");
    const rawKey = index >= 0 ? MethodSlice(part, 0, index) : part;
    const rawValue = index >= 0 ? MethodSlice(part, index + (equals || "=").length) : "";
    const key = decode(MethodReplace(rawKey, /\+/g, " "));
    const value = decode(MethodReplace(rawValue, /\+/g, " "));
    const existing = result[key];
    if (existing === undefined) result[key] = value;
    else if (ArrayIsArray(existing)) ArrayPrototypePush(existing, value);
    else result[key] = [existing, value];
  }
  return result;
}

function stringifyPrimitive(value) {
  if (typeof value === "string") return value;
  if (typeof value === "number" && NumberIsFinite(value)) return `${value}`;
  if (typeof value === "bigint" || typeof value === "boolean") return `${value}`;
  return "";
}

function qsStringify(object, separator = "&", equals = "=", options) {
  if (object === null || typeof object !== "object") return "";
  const encode = typeof options?.encodeURIComponent === "function" ? options.encodeURIComponent : querystring.escape;
  const parts = [];
  for (const key of ObjectKeys(object)) {
    const value = object[key];
    const encodedKey = encode(stringifyPrimitive(key)) + equals;
    if (ArrayIsArray(value)) for (const item of value) ArrayPrototypePush(parts, encodedKey + encode(stringifyPrimitive(item)));
    else ArrayPrototypePush(parts, encodedKey + encode(stringifyPrimitive(value)));
  }
  return MethodJoin(parts, separator);
}

const querystring = {
  parse: qsParse, decode: qsParse, stringify: qsStringify, encode: qsStringify, escape: qsEscape,
  unescape: qsUnescape, unescapeBuffer: (text) => internal.Buffer.from(qsUnescape(text), "latin1"),
};

const url = {
  URL, URLSearchParams, fileURLToPath, pathToFileURL, urlToHttpOptions, parse, format, resolve, Url,
  domainToASCII: (domain) => {
    try {
      return new URL(`http://${domain}`).hostname;
    } catch {
      return "";
    }
  },
  domainToUnicode: (domain) => `${domain}`,
};

internal.nodeExport("url", url);
internal.nodeExport("querystring", querystring);
