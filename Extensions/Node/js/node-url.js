// `node:url` (the WHATWG URL classes, fileURLToPath/pathToFileURL, the legacy parse/format/resolve),
// `node:querystring` and `node:punycode`.

const {
  ArrayIsArray, ArrayPrototypePush, MethodCharCodeAt, MethodEndsWith, MethodIndexOf, MethodJoin, MethodLastIndexOf,
  MethodReplace, MethodSlice, MethodSplit, MethodStartsWith, MethodToLowerCase, MethodToUpperCase, MethodTrim,
  NumberIsFinite, ObjectCreate, ObjectKeys, RegExpPrototypeExec, SafeSet, StringFromCharCode, TypeError,
  ArrayPrototypeSplice, MathFloor, RangeError, RegExpPrototypeTest,
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

// MARK: - punycode (RFC 3492), Node's deprecated `node:punycode`

const punyBase = 36, punyTMin = 1, punyTMax = 26, punySkew = 38, punyDamp = 700;

function punyError(kind) {
  const messages = {
    overflow: "Overflow: input needs wider integers to process",
    "not-basic": "Illegal input >= 0x80 (not a basic code point)",
    "invalid-input": "Invalid input",
  };
  return new RangeError(messages[kind]);
}

/// The code points of a JavaScript string (surrogate pairs joined; a lone surrogate stays itself).
function ucs2Decode(text) {
  const points = [];
  for (let i = 0; i < text.length; i++) {
    const unit = MethodCharCodeAt(text, i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = MethodCharCodeAt(text, i + 1);
      if ((next & 0xfc00) === 0xdc00) {
        ArrayPrototypePush(points, ((unit & 0x3ff) << 10) + (next & 0x3ff) + 0x10000);
        i++;
        continue;
      }
    }
    ArrayPrototypePush(points, unit);
  }
  return points;
}

function ucs2Encode(points) {
  let text = "";
  for (let point of points) {
    if (point > 0xffff) {
      point -= 0x10000;
      text += StringFromCharCode(((point >>> 10) & 0x3ff) | 0xd800) + StringFromCharCode(0xdc00 | (point & 0x3ff));
    } else {
      text += StringFromCharCode(point);
    }
  }
  return text;
}

function punyAdapt(delta, points, first) {
  delta = first ? MathFloor(delta / punyDamp) : delta >> 1;
  delta += MathFloor(delta / points);
  let k = 0;
  while (delta > ((punyBase - punyTMin) * punyTMax) >> 1) {
    delta = MathFloor(delta / (punyBase - punyTMin));
    k += punyBase;
  }
  return k + MathFloor(((punyBase - punyTMin + 1) * delta) / (delta + punySkew));
}

const punyThreshold = (k, bias) => (k <= bias ? punyTMin : k >= bias + punyTMax ? punyTMax : k - bias);
const punyDigit = (d) => StringFromCharCode(d < 26 ? d + 97 : d + 22);

function punyDecode(input) {
  const output = [];
  let basic = MethodLastIndexOf(input, "-");
  if (basic < 0) basic = 0;
  for (let j = 0; j < basic; j++) {
    if (MethodCharCodeAt(input, j) >= 0x80) throw punyError("not-basic");
    ArrayPrototypePush(output, MethodCharCodeAt(input, j));
  }
  let i = 0, n = 128, bias = 72;
  for (let index = basic > 0 ? basic + 1 : 0; index < input.length;) {
    const oldI = i;
    for (let w = 1, k = punyBase; ; k += punyBase) {
      if (index >= input.length) throw punyError("invalid-input");
      const code = MethodCharCodeAt(input, index++);
      const digit = code - 48 < 10 ? code - 22 : code - 65 < 26 ? code - 65 : code - 97 < 26 ? code - 97 : punyBase;
      if (digit >= punyBase) throw punyError("invalid-input");
      if (digit > MathFloor((0x7fffffff - i) / w)) throw punyError("overflow");
      i += digit * w;
      const t = punyThreshold(k, bias);
      if (digit < t) break;
      w *= punyBase - t;
    }
    const length = output.length + 1;
    bias = punyAdapt(i - oldI, length, oldI === 0);
    n += MathFloor(i / length);
    i %= length;
    ArrayPrototypeSplice(output, i++, 0, n);
  }
  return ucs2Encode(output);
}

function punyEncode(input) {
  const points = ucs2Decode(input);
  let output = "";
  for (const point of points) if (point < 0x80) output += StringFromCharCode(point);
  const basic = output.length;
  let handled = basic;
  if (basic > 0) output += "-";
  let n = 128, delta = 0, bias = 72;
  while (handled < points.length) {
    let m = 0x7fffffff;
    for (const point of points) if (point >= n && point < m) m = point;
    delta += (m - n) * (handled + 1);
    n = m;
    for (const point of points) {
      if (point < n) delta++;
      if (point !== n) continue;
      let q = delta;
      for (let k = punyBase; ; k += punyBase) {
        const t = punyThreshold(k, bias);
        if (q < t) break;
        output += punyDigit(t + ((q - t) % (punyBase - t)));
        q = MathFloor((q - t) / (punyBase - t));
      }
      output += punyDigit(q);
      bias = punyAdapt(delta, handled + 1, handled === basic);
      delta = 0;
      handled++;
    }
    delta++;
    n++;
  }
  return output;
}

/// Applies `fn` to each label of a domain (keeping an email address's local part).
function mapDomain(domain, fn) {
  const at = MethodIndexOf(domain, "@");
  const local = at === -1 ? "" : MethodSlice(domain, 0, at + 1);
  const host = MethodReplace(at === -1 ? domain : MethodSlice(domain, at + 1), /[\x2E\u3002\uFF0E\uFF61]/g, ".");
  const labels = [];
  for (const label of MethodSplit(host, ".")) ArrayPrototypePush(labels, fn(label));
  return local + MethodJoin(labels, ".");
}

const punycode = {
  version: "2.1.0",
  ucs2: { decode: ucs2Decode, encode: ucs2Encode },
  decode: punyDecode,
  encode: punyEncode,
  toASCII: (domain) => mapDomain(domain, (label) =>
    (RegExpPrototypeTest(/[^\0-\x7F]/, label) ? "xn--" + punyEncode(label) : label)),
  toUnicode: (domain) => mapDomain(domain, (label) =>
    (RegExpPrototypeTest(/^xn--/, label) ? punyDecode(MethodToLowerCase(MethodSlice(label, 4))) : label)),
};

internal.nodeExport("url", url);
internal.nodeExport("querystring", querystring);
internal.nodeExport("punycode", punycode);
