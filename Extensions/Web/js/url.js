// url.js - WHATWG URL and URLSearchParams.
// The parser follows the URL Standard's state machine (as implemented by Node 20: `^` and `|` are not
// percent-encoded in paths). Host names go through UTS #46 (ICU's IDNA) as the standard's "domain to ASCII" says.

const {
  ArrayFrom, ArrayPrototypePop, ArrayPrototypePush, MathFloor, MethodCharCodeAt, MethodEndsWith, MethodFilter,
  MethodFind, MethodFindIndex, MethodForEach, MethodIncludes, MethodIndexOf, MethodJoin, MethodMap, MethodPadStart,
  MethodReplace, MethodReplaceAll, MethodSlice, MethodSome, MethodSort, MethodSplit, MethodStartsWith,
  MethodToLowerCase, MethodToUpperCase, MethodToWellFormed, NumberPrototypeToString, ObjectAssign, ObjectHasOwn,
  ReflectApply, ReflectGetOwnPropertyDescriptor, ReflectOwnKeys, RegExp, RegExpPrototypeTest, SafeMap, SafeWeakMap,
  StringFromCharCode, RegExpPrototypeExec, TypeError, decodeURIComponent,
} = internal.primordials;
const FAILURE = null;
const specialSchemes = { ftp: 21, file: null, http: 80, https: 443, ws: 80, wss: 443 };
const isSpecialScheme = (scheme) => ObjectHasOwn(specialSchemes, scheme);
const defaultPort = (scheme) => (isSpecialScheme(scheme) ? specialSchemes[scheme] : null);
const toUSV = (value) => MethodToWellFormed(`${value}`);
// Per-code-point tests of the parser's loop, with operators only (no built-in a script could replace, and no
// call per character).
const isDigitChar = (c) => c >= '0' && c <= '9' && c.length === 1;
const isAlphaChar = (c) => ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) && c.length === 1;
const asciiLower = (c) => (c >= 'A' && c <= 'Z' && c.length === 1 ? StringFromCharCode(MethodCharCodeAt(c, 0) + 32) : c);

// Percent-encode sets as lookup tables over ASCII (every code point above U+007E is in every set).
function extendSet(base, chars) {
  const set = Uint8Array.from(base);
  for (const ch of chars) set[MethodCharCodeAt(ch, 0)] = 1;
  return set;
}
const C0_SET = Uint8Array.from({ length: 128 }, (_, c) => (c < 0x20 || c === 0x7f ? 1 : 0));
const FRAGMENT_SET = extendSet(C0_SET, ' "<>`');
const QUERY_SET = extendSet(C0_SET, ' "#<>');
const SPECIAL_QUERY_SET = extendSet(QUERY_SET, "'");
const PATH_SET = extendSet(QUERY_SET, '?`{}');
const USERINFO_SET = extendSet(PATH_SET, '/:;=@[\\]^|');
const COMPONENT_SET = extendSet(USERINFO_SET, '$%&+,');
const FORM_SET = extendSet(COMPONENT_SET, "!'()~");

const hexByte = (b) => `%${MethodPadStart(MethodToUpperCase(NumberPrototypeToString(b, 16)), 2, '0')}`;

// The code points `set` (with spaceAsPlus: and the space) encodes, as a global regular expression: the encoder
// finds them with the engine's matcher instead of a call per character.
const encodedCodePoints = new SafeMap(); // set -> [pattern, pattern with the space]
function encodedPattern(set, spaceAsPlus) {
  let patterns = encodedCodePoints.get(set);
  if (patterns === undefined) {
    let source = '';
    for (let c = 0; c < 0x80; c++) if (set[c] !== 0) source += `\\x${MethodPadStart(NumberPrototypeToString(c, 16), 2, '0')}`;
    patterns = [new RegExp(`[${source}\\x80-\\uffff]`, 'g'), new RegExp(`[\\x20${source}\\x80-\\uffff]`, 'g')];
    encodedCodePoints.set(set, patterns);
  }
  return patterns[spaceAsPlus ? 1 : 0];
}

// UTF-8 percent-encodes the code points of `str` that are in `set` (spaces become '+' with spaceAsPlus). Runs
// of code points kept as they are are copied as slices (a string with nothing to encode is returned as is),
// and the pieces joined once: memory stays linear in the length, whatever the input (a 16 MiB data: URL).
function percentEncode(str, set, spaceAsPlus = false) {
  const pattern = encodedPattern(set, spaceAsPlus);
  pattern.lastIndex = 0;
  let match = RegExpPrototypeExec(pattern, str);
  if (match === null) return str;
  const pieces = [];
  let run = 0; // where the run of code points kept as they are starts
  while (match !== null) {
    const i = match.index;
    const c = MethodCharCodeAt(str, i);
    if (run < i) ArrayPrototypePush(pieces, MethodSlice(str, run, i));
    if (c < 0x80) {
      ArrayPrototypePush(pieces, spaceAsPlus && c === 0x20 ? '+' : hexByte(c));
      run = i + 1;
    } else {
      const end = c >= 0xd800 && c <= 0xdbff ? i + 2 : i + 1; // `str` is well-formed: a lead surrogate has a trail
      for (const b of internal.utf8Encode(MethodSlice(str, i, end))) ArrayPrototypePush(pieces, hexByte(b));
      run = end;
    }
    pattern.lastIndex = run;
    match = RegExpPrototypeExec(pattern, str);
  }
  if (run < str.length) ArrayPrototypePush(pieces, MethodSlice(str, run));
  return MethodJoin(pieces, '');
}

// Text of `str` with %XX sequences decoded as UTF-8 (invalid sequences become U+FFFD).
const percentDecodeText = (str) => (MethodIncludes(str, '%') ? internal.utf8Decode(percentDecode(str)) : str);

// Bytes of `str` (as UTF-8) with %XX sequences decoded.
function percentDecode(str) {
  const bytes = internal.utf8Encode(str);
  const out = new Uint8Array(bytes.length);
  let n = 0;
  const isHex = (b) => (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x25 && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
      out[n++] = parseInt(StringFromCharCode(bytes[i + 1], bytes[i + 2]), 16);
      i += 2;
    } else out[n++] = bytes[i];
  }
  return out.subarray(0, n);
}

// ---- Hosts ----

function parseIPv4Number(s) {
  if (s === '') return FAILURE;
  let radix = 10;
  if (RegExpPrototypeTest(/^0[xX]/, s)) {
    s = MethodSlice(s, 2);
    radix = 16;
  } else if (s.length > 1 && s[0] === '0') {
    s = MethodSlice(s, 1);
    radix = 8;
  }
  if (s === '') return 0;
  const digits = { 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ }[radix];
  return RegExpPrototypeTest(digits, s) ? parseInt(s, radix) : FAILURE;
}

function endsInNumber(host) {
  const parts = MethodSplit(host, '.');
  if (parts[parts.length - 1] === '') {
    if (parts.length === 1) return false;
    ArrayPrototypePop(parts);
  }
  const last = parts[parts.length - 1];
  return RegExpPrototypeTest(/^[0-9]+$/, last) || parseIPv4Number(last) !== FAILURE;
}

function parseIPv4(host) {
  const parts = MethodSplit(host, '.');
  if (parts[parts.length - 1] === '' && parts.length > 1) ArrayPrototypePop(parts);
  if (parts.length > 4) return FAILURE;
  const numbers = MethodMap(parts, parseIPv4Number);
  if (MethodIncludes(numbers, FAILURE) || MethodSome(MethodSlice(numbers, 0, -1), (n) => n > 255)) return FAILURE;
  let address = numbers[numbers.length - 1];
  if (address >= 256 ** (5 - numbers.length)) return FAILURE;
  MethodForEach(MethodSlice(numbers, 0, -1), (n, i) => {
    address += n * 256 ** (3 - i);
  });
  return MethodJoin(MethodMap([24, 16, 8, 0], (shift) => MathFloor(address / 2 ** shift) % 256), '.');
}

function parseIPv6(input) {
  const address = [0, 0, 0, 0, 0, 0, 0, 0];
  const at = (i) => input[i] ?? '';
  const isHex = (ch) => isDigitChar(ch) || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
  const isDigit = isDigitChar;
  let piece = 0;
  let compress = null;
  let p = 0;
  if (at(0) === ':') {
    if (at(1) !== ':') return FAILURE;
    p = 2;
    compress = ++piece;
  }
  while (p < input.length) {
    if (piece === 8) return FAILURE;
    if (at(p) === ':') {
      if (compress !== null) return FAILURE;
      p++;
      compress = ++piece;
      continue;
    }
    let value = 0;
    let length = 0;
    while (length < 4 && isHex(at(p))) {
      value = value * 16 + parseInt(at(p++), 16);
      length++;
    }
    if (at(p) === '.') {
      if (length === 0 || piece > 6) return FAILURE;
      p -= length;
      let numbersSeen = 0;
      while (p < input.length) {
        if (numbersSeen > 0) {
          if (at(p) !== '.' || numbersSeen >= 4) return FAILURE;
          p++;
        }
        if (!isDigit(at(p))) return FAILURE;
        let part = null;
        while (isDigit(at(p))) {
          const digit = +at(p++);
          if (part === 0) return FAILURE;
          part = part === null ? digit : part * 10 + digit;
          if (part > 255) return FAILURE;
        }
        address[piece] = address[piece] * 0x100 + part;
        numbersSeen++;
        if (numbersSeen === 2 || numbersSeen === 4) piece++;
      }
      if (numbersSeen !== 4) return FAILURE;
      break;
    }
    if (at(p) === ':') {
      if (++p >= input.length) return FAILURE;
    } else if (p < input.length) return FAILURE;
    address[piece++] = value;
  }
  if (compress !== null) {
    let swaps = piece - compress;
    for (let i = 7; i !== 0 && swaps > 0; i--, swaps--) {
      const j = compress + swaps - 1;
      [address[i], address[j]] = [address[j], address[i]];
    }
  } else if (piece !== 8) return FAILURE;
  return address;
}

function serializeIPv6(address) {
  let start = -1;
  let longest = 1;
  for (let i = 0; i < 8; ) {
    let end = i;
    while (end < 8 && address[end] === 0) end++;
    if (end - i > longest) [start, longest] = [i, end - i];
    i = end > i ? end : i + 1;
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === start) {
      out += i === 0 ? '::' : ':';
      i += longest - 1;
    } else out += NumberPrototypeToString(address[i], 16) + (i < 7 ? ':' : '');
  }
  return out;
}

// The URL Standard's "domain to ASCII" (beStrict false): UTS #46 ToASCII through ICU, with the URL
// Standard's flags (the web extension's native, EncodingNatives.swift); null on failure.
function domainToASCII(domain) {
  if (!RegExpPrototypeTest(/[^\x00-\x7f]/, domain) && !RegExpPrototypeTest(/(?:^|\.)xn--/i, domain)) return MethodToLowerCase(domain);
  const ascii = internal.domainToASCII(domain);
  return ascii === null || ascii === '' ? FAILURE : ascii;
}

function parseHost(input, isOpaque) {
  if (MethodStartsWith(input, '[')) {
    if (!MethodEndsWith(input, ']')) return FAILURE;
    const address = parseIPv6(MethodSlice(input, 1, -1));
    return address === FAILURE ? FAILURE : `[${serializeIPv6(address)}]`;
  }
  if (isOpaque) return RegExpPrototypeTest(/[\0\t\n\r #/:<>?@[\\\]^|]/, input) ? FAILURE : percentEncode(input, C0_SET);
  const ascii = domainToASCII(percentDecodeText(input));
  if (ascii === FAILURE || RegExpPrototypeTest(/[\0-\x20#%/:<>?@[\\\]^|\x7f]/, ascii)) return FAILURE;
  return endsInNumber(ascii) ? parseIPv4(ascii) : ascii;
}

// ---- The basic URL parser ----

const isWindowsDriveLetter = (s) => RegExpPrototypeTest(/^[A-Za-z][:|]$/, s);
const isNormalizedWindowsDriveLetter = (s) => RegExpPrototypeTest(/^[A-Za-z]:$/, s);
const startsWithWindowsDriveLetter = (cps, i) => isWindowsDriveLetter(`${cps[i]}${cps[i + 1]}`) && (cps.length === i + 2 || '/\\?#'.includes(cps[i + 2]));
const isSingleDot = (s) => s === '.' || MethodToLowerCase(s) === '%2e';
const isDoubleDot = (s) => MethodIncludes(['..', '.%2e', '%2e.', '%2e%2e'], MethodToLowerCase(s));
const hasCredentials = (url) => url.username !== '' || url.password !== '';
const hasOpaquePath = (url) => typeof url.path === 'string';

function shortenPath(url) {
  if (url.scheme === 'file' && url.path.length === 1 && isNormalizedWindowsDriveLetter(url.path[0])) return;
  ArrayPrototypePop(url.path);
}

// State names of the URL Standard's basic URL parser.
const S = {
  SCHEME_START: 1, SCHEME: 2, NO_SCHEME: 3, SPECIAL_RELATIVE_OR_AUTHORITY: 4, PATH_OR_AUTHORITY: 5, RELATIVE: 6,
  RELATIVE_SLASH: 7, SPECIAL_AUTHORITY_SLASHES: 8, SPECIAL_AUTHORITY_IGNORE_SLASHES: 9, AUTHORITY: 10, HOST: 11,
  HOSTNAME: 12, PORT: 13, FILE: 14, FILE_SLASH: 15, FILE_HOST: 16, PATH_START: 17, PATH: 18, OPAQUE_PATH: 19,
  QUERY: 20, FRAGMENT: 21,
};

/// Parses `input` against `base` into a URL record, or runs a setter (`url` + `override` state); null on failure.
// A URL with a scheme that is not special and a path that does not start with '/' (data:, mailto:, javascript:)
// has an opaque path: what the state machine would give, parsed in bulk, without an array of the input's code
// points (a 16 MiB data: URL took 1.6 GB that way). Null for every other input.
function parseOpaquePath(input, url) {
  const scheme = RegExpPrototypeExec(/^[A-Za-z][A-Za-z0-9+\-.]*:/, input);
  if (scheme === null) return null;
  const name = MethodToLowerCase(MethodSlice(scheme[0], 0, -1));
  const start = scheme[0].length;
  if (isSpecialScheme(name) || MethodCharCodeAt(input, start) === 0x2f) return null;
  let end = MethodIndexOf(input, '#', start);
  const fragment = end === -1 ? null : percentEncode(MethodSlice(input, end + 1), FRAGMENT_SET);
  if (end === -1) end = input.length;
  const question = MethodIndexOf(input, '?', start);
  const query = question === -1 || question > end ? null : percentEncode(MethodSlice(input, question + 1, end), QUERY_SET);
  const path = percentEncode(MethodSlice(input, start, query === null ? end : question), C0_SET);
  const record = url ?? { scheme: '', username: '', password: '', host: null, port: null, path: [], query: null, fragment: null };
  return ObjectAssign(record, { scheme: name, path, query, fragment });
}

function basicParse(input, base = null, url = null, override = null) {
  if (url === null) {
    url = { scheme: '', username: '', password: '', host: null, port: null, path: [], query: null, fragment: null };
    input = MethodReplace(input, /^[\0-\x20]+|[\0-\x20]+$/g, '');
  }
  if (override === null) {
    const record = parseOpaquePath(MethodReplace(input, /[\t\n\r]/g, ''), url);
    if (record !== null) return record;
  }
  const cps = [...MethodReplace(input, /[\t\n\r]/g, '')];
  let state = override ?? S.SCHEME_START;
  let buffer = '';
  let atSignSeen = false;
  let insideBrackets = false;
  let passwordTokenSeen = false;
  const special = () => isSpecialScheme(url.scheme);
  const copyAuthority = (from) => ObjectAssign(url, { username: from.username, password: from.password, host: from.host, port: from.port });
  for (let p = 0; ; p++) {
    const c = cps[p]; // undefined is EOF
    const endOfAuthority = c === undefined || c === '/' || c === '?' || c === '#' || (c === '\\' && special());
    switch (state) {
      case S.SCHEME_START:
        if (c !== undefined && isAlphaChar(c)) {
          buffer += asciiLower(c);
          state = S.SCHEME;
        } else if (override) return FAILURE;
        else {
          state = S.NO_SCHEME;
          p--;
        }
        break;
      case S.SCHEME:
        if (c !== undefined && (isAlphaChar(c) || isDigitChar(c) || c === '+' || c === '-' || c === '.')) buffer += asciiLower(c);
        else if (c === ':') {
          if (override) {
            if (special() !== isSpecialScheme(buffer)) return url;
            if ((hasCredentials(url) || url.port !== null) && buffer === 'file') return url;
            if (url.scheme === 'file' && url.host === '') return url;
          }
          url.scheme = buffer;
          if (override) {
            if (url.port === defaultPort(url.scheme)) url.port = null;
            return url;
          }
          buffer = '';
          if (url.scheme === 'file') state = S.FILE;
          else if (special() && base !== null && base.scheme === url.scheme) state = S.SPECIAL_RELATIVE_OR_AUTHORITY;
          else if (special()) state = S.SPECIAL_AUTHORITY_SLASHES;
          else if (cps[p + 1] === '/') {
            state = S.PATH_OR_AUTHORITY;
            p++;
          } else {
            url.path = '';
            state = S.OPAQUE_PATH;
          }
        } else if (override) return FAILURE;
        else {
          buffer = '';
          state = S.NO_SCHEME;
          p = -1;
        }
        break;
      case S.NO_SCHEME:
        if (base === null || (hasOpaquePath(base) && c !== '#')) return FAILURE;
        if (hasOpaquePath(base)) {
          ObjectAssign(url, { scheme: base.scheme, path: base.path, query: base.query, fragment: '' });
          state = S.FRAGMENT;
        } else {
          state = base.scheme === 'file' ? S.FILE : S.RELATIVE;
          p--;
        }
        break;
      case S.SPECIAL_RELATIVE_OR_AUTHORITY:
      case S.SPECIAL_AUTHORITY_SLASHES:
        if (c === '/' && cps[p + 1] === '/') {
          state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
          p++;
        } else {
          state = state === S.SPECIAL_AUTHORITY_SLASHES ? S.SPECIAL_AUTHORITY_IGNORE_SLASHES : S.RELATIVE;
          p--;
        }
        break;
      case S.PATH_OR_AUTHORITY:
        if (c === '/') state = S.AUTHORITY;
        else {
          state = S.PATH;
          p--;
        }
        break;
      case S.RELATIVE:
        url.scheme = base.scheme;
        if (c === '/' || (c === '\\' && special())) state = S.RELATIVE_SLASH;
        else {
          copyAuthority(base);
          url.path = [...base.path];
          url.query = base.query;
          if (c === '?') {
            url.query = '';
            state = S.QUERY;
          } else if (c === '#') {
            url.fragment = '';
            state = S.FRAGMENT;
          } else if (c !== undefined) {
            url.query = null;
            shortenPath(url);
            state = S.PATH;
            p--;
          }
        }
        break;
      case S.RELATIVE_SLASH:
        if (special() && (c === '/' || c === '\\')) state = S.SPECIAL_AUTHORITY_IGNORE_SLASHES;
        else if (c === '/') state = S.AUTHORITY;
        else {
          copyAuthority(base);
          state = S.PATH;
          p--;
        }
        break;
      case S.SPECIAL_AUTHORITY_IGNORE_SLASHES:
        if (c !== '/' && c !== '\\') {
          state = S.AUTHORITY;
          p--;
        }
        break;
      case S.AUTHORITY:
        if (c === '@') {
          if (atSignSeen) buffer = `%40${buffer}`;
          atSignSeen = true;
          for (const ch of buffer) {
            if (ch === ':' && !passwordTokenSeen) passwordTokenSeen = true;
            else if (passwordTokenSeen) url.password += percentEncode(ch, USERINFO_SET);
            else url.username += percentEncode(ch, USERINFO_SET);
          }
          buffer = '';
        } else if (endOfAuthority) {
          if (atSignSeen && buffer === '') return FAILURE;
          p -= ArrayFrom(buffer).length + 1;
          buffer = '';
          state = S.HOST;
        } else buffer += c;
        break;
      case S.HOST:
      case S.HOSTNAME:
        if (override && url.scheme === 'file') {
          p--;
          state = S.FILE_HOST;
        } else if (c === ':' && !insideBrackets) {
          if (buffer === '' || override === S.HOSTNAME) return FAILURE;
          const host = parseHost(buffer, !special());
          if (host === FAILURE) return FAILURE;
          url.host = host;
          buffer = '';
          state = S.PORT;
        } else if (endOfAuthority) {
          p--;
          if (special() && buffer === '') return FAILURE;
          if (override && buffer === '' && (hasCredentials(url) || url.port !== null)) return FAILURE;
          const host = parseHost(buffer, !special());
          if (host === FAILURE) return FAILURE;
          url.host = host;
          buffer = '';
          state = S.PATH_START;
          if (override) return url;
        } else {
          if (c === '[') insideBrackets = true;
          if (c === ']') insideBrackets = false;
          buffer += c;
        }
        break;
      case S.PORT:
        if (c !== undefined && isDigitChar(c)) buffer += c;
        else if (endOfAuthority || override) {
          if (buffer !== '') {
            const port = parseInt(buffer, 10);
            if (port > 65535) return FAILURE;
            url.port = port === defaultPort(url.scheme) ? null : port;
            buffer = '';
          }
          if (override) return url;
          state = S.PATH_START;
          p--;
        } else return FAILURE;
        break;
      case S.FILE:
        url.scheme = 'file';
        url.host = '';
        if (c === '/' || c === '\\') state = S.FILE_SLASH;
        else if (base !== null && base.scheme === 'file') {
          ObjectAssign(url, { host: base.host, path: [...base.path], query: base.query });
          if (c === '?') {
            url.query = '';
            state = S.QUERY;
          } else if (c === '#') {
            url.fragment = '';
            state = S.FRAGMENT;
          } else if (c !== undefined) {
            url.query = null;
            if (startsWithWindowsDriveLetter(cps, p)) url.path = [];
            else shortenPath(url);
            state = S.PATH;
            p--;
          }
        } else {
          state = S.PATH;
          p--;
        }
        break;
      case S.FILE_SLASH:
        if (c === '/' || c === '\\') state = S.FILE_HOST;
        else {
          if (base !== null && base.scheme === 'file') {
            url.host = base.host;
            if (!startsWithWindowsDriveLetter(cps, p) && isNormalizedWindowsDriveLetter(base.path[0] ?? '')) ArrayPrototypePush(url.path, base.path[0]);
          }
          state = S.PATH;
          p--;
        }
        break;
      case S.FILE_HOST:
        if (c === undefined || '/\\?#'.includes(c)) {
          p--;
          if (!override && isWindowsDriveLetter(buffer)) state = S.PATH;
          else if (buffer === '') {
            url.host = '';
            if (override) return url;
            state = S.PATH_START;
          } else {
            const host = parseHost(buffer, !special());
            if (host === FAILURE) return FAILURE;
            url.host = host === 'localhost' ? '' : host;
            if (override) return url;
            buffer = '';
            state = S.PATH_START;
          }
        } else buffer += c;
        break;
      case S.PATH_START:
        if (special()) {
          state = S.PATH;
          if (c !== '/' && c !== '\\') p--;
        } else if (!override && c === '?') {
          url.query = '';
          state = S.QUERY;
        } else if (!override && c === '#') {
          url.fragment = '';
          state = S.FRAGMENT;
        } else if (c !== undefined) {
          state = S.PATH;
          if (c !== '/') p--;
        } else if (override && url.host === null) ArrayPrototypePush(url.path, '');
        break;
      case S.PATH: {
        const slash = c === '/' || (c === '\\' && special());
        if (c === undefined || slash || (!override && (c === '?' || c === '#'))) {
          if (isDoubleDot(buffer)) {
            shortenPath(url);
            if (!slash) ArrayPrototypePush(url.path, '');
          } else if (isSingleDot(buffer)) {
            if (!slash) ArrayPrototypePush(url.path, '');
          } else {
            if (url.scheme === 'file' && url.path.length === 0 && isWindowsDriveLetter(buffer)) buffer = `${buffer[0]}:`;
            ArrayPrototypePush(url.path, buffer);
          }
          buffer = '';
          if (c === '?') {
            url.query = '';
            state = S.QUERY;
          } else if (c === '#') {
            url.fragment = '';
            state = S.FRAGMENT;
          }
        } else buffer += percentEncode(c, PATH_SET);
        break;
      }
      case S.OPAQUE_PATH:
        if (c === '?') {
          url.query = '';
          state = S.QUERY;
        } else if (c === '#') {
          url.fragment = '';
          state = S.FRAGMENT;
        } else if (c !== undefined) url.path += percentEncode(c, C0_SET);
        break;
      case S.QUERY:
        if (c === undefined || (!override && c === '#')) {
          url.query += percentEncode(buffer, special() ? SPECIAL_QUERY_SET : QUERY_SET);
          buffer = '';
          if (c === '#') {
            url.fragment = '';
            state = S.FRAGMENT;
          }
        } else buffer += c;
        break;
      case S.FRAGMENT:
        if (c !== undefined) url.fragment += percentEncode(c, FRAGMENT_SET);
        break;
    }
    if (p >= cps.length) return url;
  }
}

const pathString = (url) => (hasOpaquePath(url) ? url.path : MethodJoin(MethodMap(url.path, (segment) => `/${segment}`), ''));

function serialize(url) {
  let out = `${url.scheme}:`;
  if (url.host !== null) {
    out += '//';
    if (hasCredentials(url)) out += `${url.username}${url.password !== '' ? `:${url.password}` : ''}@`;
    out += url.host + (url.port !== null ? `:${url.port}` : '');
  } else if (!hasOpaquePath(url) && url.path.length > 1 && url.path[0] === '') out += '/.';
  out += pathString(url);
  if (url.query !== null) out += `?${url.query}`;
  if (url.fragment !== null) out += `#${url.fragment}`;
  return out;
}

function serializeOrigin(url) {
  if (url.scheme === 'blob') {
    const inner = basicParse(pathString(url));
    return inner !== FAILURE && (inner.scheme === 'http' || inner.scheme === 'https') ? serializeOrigin(inner) : 'null';
  }
  if (!isSpecialScheme(url.scheme) || url.scheme === 'file') return 'null';
  return `${url.scheme}://${url.host}${url.port !== null ? `:${url.port}` : ''}`;
}

// An opaque path loses its trailing spaces once it is no longer followed by a query or fragment.
function stripTrailingSpaces(url) {
  if (hasOpaquePath(url) && url.query === null && url.fragment === null) url.path = MethodReplace(url.path, / +$/, '');
}

// ---- application/x-www-form-urlencoded ----

function parseForm(input) {
  const list = [];
  for (const sequence of MethodSplit(input, '&')) {
    if (sequence === '') continue;
    const eq = MethodIndexOf(sequence, '=');
    const [name, value] = eq === -1 ? [sequence, ''] : [MethodSlice(sequence, 0, eq), MethodSlice(sequence, eq + 1)];
    const decode = (s) => percentDecodeText(MethodReplaceAll(s, '+', ' '));
    ArrayPrototypePush(list, [decode(name), decode(value)]);
  }
  return list;
}

const serializeForm = (list) => MethodJoin(MethodMap(list, ([name, value]) => `${percentEncode(name, FORM_SET, true)}=${percentEncode(value, FORM_SET, true)}`), '&');

// ---- URLSearchParams ----

const inspectCustom = Symbol.for('nodejs.util.inspect.custom');
const paramsInternals = new SafeWeakMap(); // URLSearchParams -> { list, url: URL state or null }

function paramsOf(params) {
  const state = paramsInternals.get(params);
  if (state === undefined) throw new TypeError('Value of "this" must be of type URLSearchParams');
  return state;
}

// Writes the list back into the linked URL's query.
function updateURL(state) {
  if (state.url === null) return;
  const query = serializeForm(state.list);
  state.url.record.query = query === '' ? null : query;
  if (query === '') stripTrailingSpaces(state.url.record);
}

function* iterateParams(params, kind) {
  const state = paramsOf(params);
  for (let i = 0; i < state.list.length; i++) {
    const [name, value] = state.list[i];
    yield kind === 'keys' ? name : kind === 'values' ? value : [name, value];
  }
}

class URLSearchParams {
  /// init: a query string (leading '?' ignored), a record of name -> value, or an iterable of [name, value] pairs.
  /** @param {any} [init] */
  constructor(init = '') {
    let list;
    if ((typeof init === 'object' && init !== null) || typeof init === 'function') {
      const iterator = init[Symbol.iterator];
      if (iterator === undefined || iterator === null) {
        // record<USVString, USVString>: keys that become equal as USVStrings keep one entry, at the first
        // one's place, with the last one's value.
        list = [];
        const positions = new SafeMap();
        for (const key of ReflectOwnKeys(init)) {
          const descriptor = ReflectGetOwnPropertyDescriptor(init, key);
          if (descriptor === undefined || !descriptor.enumerable) continue;
          const name = toUSV(key);
          const value = toUSV(init[key]);
          const at = positions.get(name);
          if (at === undefined) {
            positions.set(name, list.length);
            ArrayPrototypePush(list, [name, value]);
          } else list[at][1] = value;
        }
      } else {
        if (typeof iterator !== 'function') throw new TypeError('Query pairs must be iterable');
        list = ArrayFrom(init, (pair) => {
          const tuple = pair !== null && typeof pair === 'object' && typeof pair[Symbol.iterator] === 'function' ? [...pair] : [];
          if (tuple.length !== 2) throw new TypeError('Each query pair must be an iterable [name, value] tuple');
          return MethodMap(tuple, toUSV);
        });
      }
    } else {
      const query = toUSV(init);
      list = parseForm(MethodStartsWith(query, '?') ? MethodSlice(query, 1) : query);
    }
    paramsInternals.set(this, { list, url: null });
  }

  get size() {
    return paramsOf(this).list.length;
  }

  append(name, value) {
    const state = paramsOf(this);
    ArrayPrototypePush(state.list, [toUSV(name), toUSV(value)]);
    updateURL(state);
  }

  /// Removes all pairs named `name` (and with value `value`, when given).
  delete(name, value) {
    const state = paramsOf(this);
    name = toUSV(name);
    value = value === undefined ? undefined : toUSV(value);
    state.list = MethodFilter(state.list, ([n, v]) => n !== name || (value !== undefined && v !== value));
    updateURL(state);
  }

  get(name) {
    name = toUSV(name);
    const pair = MethodFind(paramsOf(this).list, ([n]) => n === name);
    return pair === undefined ? null : pair[1];
  }

  getAll(name) {
    name = toUSV(name);
    return MethodMap(MethodFilter(paramsOf(this).list, ([n]) => n === name), ([, v]) => v);
  }

  has(name, value) {
    name = toUSV(name);
    value = value === undefined ? undefined : toUSV(value);
    return MethodSome(paramsOf(this).list, ([n, v]) => n === name && (value === undefined || v === value));
  }

  /// Replaces the first pair named `name` and removes the others (or appends when there is none).
  set(name, value) {
    const state = paramsOf(this);
    name = toUSV(name);
    value = toUSV(value);
    const first = MethodFindIndex(state.list, ([n]) => n === name);
    if (first === -1) ArrayPrototypePush(state.list, [name, value]);
    else state.list = MethodMap(MethodFilter(state.list, ([n], i) => n !== name || i === first), (pair, i) => (i === first ? [name, value] : pair));
    updateURL(state);
  }

  /// Stable sort by name, comparing UTF-16 code units.
  sort() {
    const state = paramsOf(this);
    MethodSort(state.list, ([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    updateURL(state);
  }

  forEach(callback, thisArg) {
    if (typeof callback !== 'function') throw new TypeError('The "callback" argument must be of type function');
    const state = paramsOf(this);
    for (let i = 0; i < state.list.length; i++) ReflectApply(callback, thisArg, [state.list[i][1], state.list[i][0], this]);
  }

  keys() {
    return iterateParams(this, 'keys');
  }

  values() {
    return iterateParams(this, 'values');
  }

  entries() {
    return iterateParams(this, 'entries');
  }

  [Symbol.iterator]() {
    return iterateParams(this, 'entries');
  }

  toString() {
    return serializeForm(paramsOf(this).list);
  }

  get [Symbol.toStringTag]() {
    return 'URLSearchParams';
  }

  [inspectCustom](depth, options, inspect) {
    const list = paramsOf(this).list;
    if (list.length === 0) return 'URLSearchParams {}';
    const entries = MethodMap(list, ([n, v]) => `${inspect(n, options)} => ${inspect(v, options)}`);
    const joined = MethodJoin(entries, ', ');
    return joined.length > options.breakLength ? `URLSearchParams {\n  ${MethodJoin(entries, ',\n  ')} }` : `URLSearchParams { ${joined} }`;
  }
}

// ---- URL ----

function invalidURL(input) {
  const error = new TypeError(`Invalid URL: ${input}`);
  ObjectAssign(error, { code: 'ERR_INVALID_URL', input: `${input}` });
  return error;
}

function parseWithBase(input, base) {
  let parsedBase = null;
  if (base !== undefined) {
    parsedBase = basicParse(toUSV(base));
    if (parsedBase === FAILURE) return FAILURE;
  }
  return basicParse(toUSV(input), parsedBase);
}

const cannotHaveCredentialsOrPort = (url) => url.host === null || url.host === '' || url.scheme === 'file';

class URL {
  #state; // { record, params }

  constructor(input, base = undefined) {
    if (arguments.length === 0) throw new TypeError('The "url" argument must be specified');
    const record = parseWithBase(input, base);
    if (record === FAILURE) throw invalidURL(input);
    this.#state = { record, params: null };
    // The list is the query parsed as it is (#resetParams): URLSearchParams' string constructor would drop a
    // second leading '?'.
    const params = new URLSearchParams();
    paramsInternals.get(params).url = this.#state;
    this.#state.params = params;
    this.#resetParams();
  }

  /// True when `new URL(input, base)` would succeed.
  static canParse(input, base = undefined) {
    return parseWithBase(input, base) !== FAILURE;
  }

  /// `new URL(input, base)`, or null instead of throwing.
  static parse(input, base = undefined) {
    return URL.canParse(input, base) ? new URL(input, base) : null;
  }

  // Runs the parser on this URL's record with a state override; like the standard, a failure part-way
  // keeps what was already set (e.g. the host when the port is invalid).
  #apply(input, override) {
    basicParse(toUSV(input), null, this.#state.record, override);
  }

  #resetParams() {
    paramsInternals.get(this.#state.params).list = parseForm(this.#state.record.query ?? '');
  }

  get href() {
    return serialize(this.#state.record);
  }

  set href(value) {
    const record = basicParse(toUSV(value));
    if (record === FAILURE) throw invalidURL(value);
    this.#state.record = record;
    this.#resetParams();
  }

  get origin() {
    return serializeOrigin(this.#state.record);
  }

  get protocol() {
    return `${this.#state.record.scheme}:`;
  }

  set protocol(value) {
    this.#apply(`${toUSV(value)}:`, S.SCHEME_START);
  }

  get username() {
    return this.#state.record.username;
  }

  set username(value) {
    if (!cannotHaveCredentialsOrPort(this.#state.record)) this.#state.record.username = percentEncode(toUSV(value), USERINFO_SET);
  }

  get password() {
    return this.#state.record.password;
  }

  set password(value) {
    if (!cannotHaveCredentialsOrPort(this.#state.record)) this.#state.record.password = percentEncode(toUSV(value), USERINFO_SET);
  }

  get host() {
    const { host, port } = this.#state.record;
    return host === null ? '' : port === null ? host : `${host}:${port}`;
  }

  set host(value) {
    if (!hasOpaquePath(this.#state.record)) this.#apply(value, S.HOST);
  }

  get hostname() {
    return this.#state.record.host ?? '';
  }

  set hostname(value) {
    if (!hasOpaquePath(this.#state.record)) this.#apply(value, S.HOSTNAME);
  }

  get port() {
    const { port } = this.#state.record;
    return port === null ? '' : `${port}`;
  }

  set port(value) {
    if (cannotHaveCredentialsOrPort(this.#state.record)) return;
    value = toUSV(value);
    if (value === '') this.#state.record.port = null;
    else this.#apply(value, S.PORT);
  }

  get pathname() {
    return pathString(this.#state.record);
  }

  set pathname(value) {
    if (hasOpaquePath(this.#state.record)) return;
    this.#state.record.path = [];
    this.#apply(value, S.PATH_START);
  }

  get search() {
    const { query } = this.#state.record;
    return query === null || query === '' ? '' : `?${query}`;
  }

  set search(value) {
    value = toUSV(value);
    if (value === '') {
      this.#state.record.query = null;
      stripTrailingSpaces(this.#state.record);
    } else {
      this.#state.record.query = '';
      this.#apply(MethodStartsWith(value, '?') ? MethodSlice(value, 1) : value, S.QUERY);
    }
    this.#resetParams();
  }

  get searchParams() {
    return this.#state.params;
  }

  get hash() {
    const { fragment } = this.#state.record;
    return fragment === null || fragment === '' ? '' : `#${fragment}`;
  }

  set hash(value) {
    value = toUSV(value);
    if (value === '') {
      this.#state.record.fragment = null;
      stripTrailingSpaces(this.#state.record);
      return;
    }
    this.#state.record.fragment = '';
    this.#apply(MethodStartsWith(value, '#') ? MethodSlice(value, 1) : value, S.FRAGMENT);
  }

  toString() {
    return this.href;
  }

  toJSON() {
    return this.href;
  }

  get [Symbol.toStringTag]() {
    return 'URL';
  }

  [inspectCustom](depth, options, inspect) {
    if (typeof depth === 'number' && depth < 0) return this;
    const fields = {};
    for (const key of ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'searchParams', 'hash']) {
      fields[key] = this[key];
    }
    return `URL ${inspect(fields, options)}`;
  }
}

/// The path a `file:` URL (or its text) names, as Node's url.fileURLToPath on Linux: the one rule for
/// node:url, node:fs and the module loaders. A host other than localhost and an encoded `/` are refused.
function fileURLToPath(input) {
  const url = typeof input === 'string' ? new URL(input) : input;
  if (url.protocol !== 'file:') throw codedTypeError('ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
  if (url.hostname !== '') {
    throw codedTypeError('ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
  }
  const pathname = url.pathname;
  if (RegExpPrototypeExec(/%2f/i, pathname) !== null) {
    throw codedTypeError('ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
  }
  return decodeURIComponent(pathname);
}

function codedTypeError(code, message) {
  const error = new TypeError(message);
  error.code = code;
  return error;
}

// ---- For URLPattern (urlpattern.js) ----

// A URL's components as URLPattern matches them (strings, never null), and whether its path is opaque.
function urlPatternComponents(record) {
  return {
    protocol: record.scheme, username: record.username, password: record.password, hostname: record.host ?? '',
    port: record.port === null ? '' : `${record.port}`, pathname: pathString(record), search: record.query ?? '',
    hash: record.fragment ?? '', opaquePath: hasOpaquePath(record),
  };
}

/// The components of `input` parsed against `base` (both strings; base may be undefined), or null on failure.
function parseURLComponents(input, base) {
  const record = parseWithBase(input, base);
  return record === FAILURE ? null : urlPatternComponents(record);
}

const dummyURL = () => basicParse('https://dummy.invalid/');

/// The URL Pattern standard's "canonicalize a protocol/username/password/hostname/port/pathname/opaque
/// pathname/search/hash": this parser run on a dummy URL with a state override. Null where the standard throws.
function canonicalizeURLComponent(kind, value, protocol) {
  value = toUSV(value);
  if (value === '') return value;
  let record;
  switch (kind) {
    case 'protocol': {
      const parsed = basicParse(`${value}://dummy.invalid/`);
      return parsed === FAILURE ? null : parsed.scheme;
    }
    case 'username':
    case 'password':
      return percentEncode(value, USERINFO_SET);
    case 'hostname':
      // The parser stops at '/', '?', '#' and '\' (a host's end in a URL); as a hostname pattern's text they
      // are errors.
      if (RegExpPrototypeTest(/[/?#\\]/, MethodReplace(value, /[\t\n\r]/g, ''))) return null;
      record = dummyURL();
      return basicParse(value, null, record, S.HOSTNAME) === FAILURE ? null : record.host ?? '';
    case 'port':
      // The setter's parser takes the digits before anything else ('80abc' sets 80); a port pattern's text must be
      // all digits.
      if (!RegExpPrototypeTest(/^[0-9]+$/, MethodReplace(value, /[\t\n\r]/g, ''))) return null;
      // A new URL record: its scheme (when given) is what makes a default port the empty string.
      record = { scheme: protocol ?? '', username: '', password: '', host: null, port: null, path: [], query: null, fragment: null };
      return basicParse(value, null, record, S.PORT) === FAILURE ? null : record.port === null ? '' : `${record.port}`;
    case 'pathname': {
      const leadingSlash = value[0] === '/';
      record = dummyURL();
      record.path = [];
      if (basicParse(leadingSlash ? value : `/-${value}`, null, record, S.PATH_START) === FAILURE) return null;
      const path = pathString(record);
      return leadingSlash ? path : MethodSlice(path, 2);
    }
    case 'opaquePathname':
      record = { scheme: '', username: '', password: '', host: null, port: null, path: '', query: null, fragment: null };
      return basicParse(value, null, record, S.OPAQUE_PATH) === FAILURE ? null : record.path;
    case 'search':
      record = dummyURL();
      record.query = '';
      return basicParse(value, null, record, S.QUERY) === FAILURE ? null : record.query;
    case 'hash':
      record = dummyURL();
      record.fragment = '';
      return basicParse(value, null, record, S.FRAGMENT) === FAILURE ? null : record.fragment;
  }
  return null;
}

internal.parseURLComponents = parseURLComponents;
internal.canonicalizeURLComponent = canonicalizeURLComponent;
internal.URL = URL;
internal.URLSearchParams = URLSearchParams;
internal.fileURLToPath = fileURLToPath;
internal.defineGlobal('URL', URL);
internal.defineGlobal('URLSearchParams', URLSearchParams);
