// urlpattern.js - URLPattern, as the URL Pattern Standard (https://urlpattern.spec.whatwg.org/) describes it:
// the pattern-string tokenizer and parser, the constructor-string parser, each component compiled to a regular
// expression, and matching. The standard's "canonicalize a ..." steps run the runtime's URL parser (url.js) on a
// dummy URL: internal.canonicalizeURLComponent.

const {
  ArrayFrom, ArrayPrototypeJoin, ArrayPrototypePush, ArrayPrototypeSlice, MethodEndsWith, MethodIncludes, MethodLastIndexOf, MethodReplace, MethodSlice,
  MethodToLowerCase, MethodToWellFormed, ObjectCreate, ObjectDefineProperty, ObjectGetOwnPropertyDescriptor,
  ObjectGetOwnPropertyNames, RegExp, RegExpPrototypeExec, RegExpPrototypeTest, SymbolFor, SymbolToStringTag, TypeError,
} = internal.primordials;

const inspectCustom = SymbolFor('nodejs.util.inspect.custom');
const toUSV = (value) => MethodToWellFormed(`${value}`);
const specialSchemes = ['ftp', 'file', 'http', 'https', 'ws', 'wss'];
const defaultPorts = { ftp: '21', http: '80', https: '443', ws: '80', wss: '443' };
const isSpecialScheme = (value) => MethodIncludes(specialSchemes, value);
const componentNames = ['protocol', 'username', 'password', 'hostname', 'port', 'pathname', 'search', 'hash'];
const fullWildcard = '.*';
// The standard compiles with the `v` flag; an engine without it gets `u` (the same for every pattern that is
// also valid with `u`).
const unicodeFlag = (() => {
  try {
    new RegExp('', 'v');
    return 'v';
  } catch {
    return 'u';
  }
})();

const patternError = (message) => new TypeError(`Invalid URLPattern: ${message}`);

// ---- Tokenizer ----

const identifierStart = /[$_\p{ID_Start}]/u;
const identifierPart = /[$\u200C\u200D\p{ID_Continue}]/u;
const isValidNameCodePoint = (c, first) => c !== undefined && RegExpPrototypeTest(first ? identifierStart : identifierPart, c);
const isASCII = (c) => c <= '\u007f';

/// The tokens of `text` (code point indices); policy 'strict' throws where 'lenient' gives an invalid-char token.
function tokenize(text, policy) {
  const input = ArrayFrom(text); // code points
  const length = input.length;
  const tokens = [];
  let index = 0;
  let nextIndex = 0;
  let c;
  const next = () => {
    c = input[nextIndex];
    nextIndex++;
  };
  const seek = (i) => {
    nextIndex = i;
    next();
  };
  const add = (type, nextPosition, valuePosition, valueLength = nextPosition - valuePosition) => {
    ArrayPrototypePush(tokens, {
      type, index, value: ArrayPrototypeJoin(ArrayPrototypeSlice(input, valuePosition, valuePosition + valueLength), ''),
    });
    index = nextPosition;
  };
  const addDefault = (type) => add(type, nextIndex, index);
  const error = (nextPosition, valuePosition) => {
    if (policy === 'strict') throw patternError(`unexpected character at ${valuePosition} in "${text}"`);
    add('invalid-char', nextPosition, valuePosition);
  };
  while (index < length) {
    seek(index);
    if (c === '*') addDefault('asterisk');
    else if (c === '+' || c === '?') addDefault('other-modifier');
    else if (c === '\\') {
      if (index === length - 1) {
        error(nextIndex, index);
        continue;
      }
      const escapedIndex = nextIndex;
      next();
      add('escaped-char', nextIndex, escapedIndex);
    } else if (c === '{') addDefault('open');
    else if (c === '}') addDefault('close');
    else if (c === ':') {
      let namePosition = nextIndex;
      const nameStart = namePosition;
      while (namePosition < length) {
        seek(namePosition);
        if (!isValidNameCodePoint(c, namePosition === nameStart)) break;
        namePosition = nextIndex;
      }
      if (namePosition <= nameStart) {
        error(nameStart, index);
        continue;
      }
      add('name', namePosition, nameStart);
    } else if (c === '(') {
      let depth = 1;
      let regexpPosition = nextIndex;
      const regexpStart = regexpPosition;
      let failed = false;
      while (regexpPosition < length) {
        seek(regexpPosition);
        if (!isASCII(c) || (regexpPosition === regexpStart && c === '?')) {
          failed = true;
          break;
        }
        if (c === '\\') {
          if (regexpPosition === length - 1) {
            failed = true;
            break;
          }
          next();
          if (!isASCII(c)) {
            failed = true;
            break;
          }
          regexpPosition = nextIndex;
          continue;
        }
        if (c === ')') {
          depth--;
          if (depth === 0) {
            regexpPosition = nextIndex;
            break;
          }
        } else if (c === '(') {
          depth++;
          if (regexpPosition === length - 1) {
            failed = true;
            break;
          }
          const temporaryPosition = nextIndex;
          next();
          if (c !== '?') {
            failed = true;
            break;
          }
          nextIndex = temporaryPosition;
        }
        regexpPosition = nextIndex;
      }
      if (failed || depth !== 0) {
        error(regexpStart, index);
        continue;
      }
      const regexpLength = regexpPosition - regexpStart - 1;
      if (regexpLength === 0) {
        error(regexpStart, index);
        continue;
      }
      add('regexp', regexpPosition, regexpStart, regexpLength);
    } else addDefault('char');
  }
  add('end', index, index);
  return tokens;
}

// ---- Pattern strings ----

const escapeRegExpString = (text) => MethodReplace(text, /[.+*?^${}()[\]|/\\]/g, '\\$&');
const escapePatternString = (text) => MethodReplace(text, /[+*?:{}()\\]/g, '\\$&');
const segmentWildcard = (options) => `[^${escapeRegExpString(options.delimiter)}]+?`;
const modifierString = (modifier) => (modifier === 'none' ? '' : modifier);

/// The standard's "parse a pattern string": a list of parts { type, value, modifier, name, prefix, suffix },
/// type 'fixed-text', 'regexp', 'segment-wildcard' or 'full-wildcard', modifier 'none', '?', '*' or '+'.
function parsePatternString(input, options, encode) {
  const tokens = tokenize(input, 'strict');
  const wildcard = segmentWildcard(options);
  const parts = [];
  let pendingFixedValue = '';
  let index = 0;
  let nextNumericName = 0;
  const tryConsume = (type) => {
    const token = tokens[index];
    if (token.type !== type) return null;
    index++;
    return token;
  };
  const tryConsumeModifier = () => tryConsume('other-modifier') ?? tryConsume('asterisk');
  const tryConsumeRegexpOrWildcard = (nameToken) => {
    const token = tryConsume('regexp');
    return nameToken === null && token === null ? tryConsume('asterisk') : token;
  };
  const consumeRequired = (type) => {
    const token = tryConsume(type);
    if (token === null) {
      throw patternError(`expected ${type === 'end' ? 'the end' : `'}'`} at ${tokens[index].index} in "${input}"`);
    }
    return token;
  };
  const consumeText = () => {
    let result = '';
    for (;;) {
      const token = tryConsume('char') ?? tryConsume('escaped-char');
      if (token === null) return result;
      result += token.value;
    }
  };
  const maybeAddPendingFixedValue = () => {
    if (pendingFixedValue === '') return;
    const value = encode(pendingFixedValue);
    pendingFixedValue = '';
    ArrayPrototypePush(parts, { type: 'fixed-text', value, modifier: 'none', name: '', prefix: '', suffix: '' });
  };
  const addPart = (prefix, nameToken, regexpOrWildcardToken, suffix, modifierToken) => {
    const modifier = modifierToken === null ? 'none' : modifierToken.value;
    if (nameToken === null && regexpOrWildcardToken === null && modifier === 'none') {
      pendingFixedValue += prefix;
      return;
    }
    maybeAddPendingFixedValue();
    if (nameToken === null && regexpOrWildcardToken === null) {
      if (prefix === '') return;
      ArrayPrototypePush(parts, { type: 'fixed-text', value: encode(prefix), modifier, name: '', prefix: '', suffix: '' });
      return;
    }
    let value;
    if (regexpOrWildcardToken === null) value = wildcard;
    else if (regexpOrWildcardToken.type === 'asterisk') value = fullWildcard;
    else value = regexpOrWildcardToken.value;
    let type = 'regexp';
    if (value === wildcard) {
      type = 'segment-wildcard';
      value = '';
    } else if (value === fullWildcard) {
      type = 'full-wildcard';
      value = '';
    }
    let name = '';
    if (nameToken !== null) name = nameToken.value;
    else name = `${nextNumericName++}`;
    for (const part of parts) {
      if (part.name === name) throw patternError(`duplicate group name "${name}" in "${input}"`);
    }
    ArrayPrototypePush(parts, { type, value, modifier, name, prefix: encode(prefix), suffix: encode(suffix) });
  };
  while (index < tokens.length) {
    const charToken = tryConsume('char');
    let nameToken = tryConsume('name');
    let regexpOrWildcardToken = tryConsumeRegexpOrWildcard(nameToken);
    if (nameToken !== null || regexpOrWildcardToken !== null) {
      let prefix = charToken === null ? '' : charToken.value;
      if (prefix !== '' && prefix !== options.prefix) {
        pendingFixedValue += prefix;
        prefix = '';
      }
      maybeAddPendingFixedValue();
      addPart(prefix, nameToken, regexpOrWildcardToken, '', tryConsumeModifier());
      continue;
    }
    const fixedToken = charToken ?? tryConsume('escaped-char');
    if (fixedToken !== null) {
      pendingFixedValue += fixedToken.value;
      continue;
    }
    if (tryConsume('open') !== null) {
      const prefix = consumeText();
      nameToken = tryConsume('name');
      regexpOrWildcardToken = tryConsumeRegexpOrWildcard(nameToken);
      const suffix = consumeText();
      consumeRequired('close');
      addPart(prefix, nameToken, regexpOrWildcardToken, suffix, tryConsumeModifier());
      continue;
    }
    maybeAddPendingFixedValue();
    consumeRequired('end');
  }
  return parts;
}

/// The standard's "generate a regular expression and name list".
function generateRegExp(parts, options) {
  let result = '^';
  const names = [];
  for (const part of parts) {
    const modifier = modifierString(part.modifier);
    if (part.type === 'fixed-text') {
      result += part.modifier === 'none' ? escapeRegExpString(part.value) : `(?:${escapeRegExpString(part.value)})${modifier}`;
      continue;
    }
    ArrayPrototypePush(names, part.name);
    let value = part.value;
    // '[^]' (an empty delimiter) is any code point; V8 mis-handles it with the v flag, so it is spelled out.
    if (part.type === 'segment-wildcard') value = options.delimiter === '' ? '[\\s\\S]+?' : segmentWildcard(options);
    else if (part.type === 'full-wildcard') value = fullWildcard;
    const repeated = part.modifier === '*' || part.modifier === '+';
    if (part.prefix === '' && part.suffix === '') {
      result += repeated ? `((?:${value})${modifier})` : `(${value})${modifier}`;
      continue;
    }
    const prefix = escapeRegExpString(part.prefix);
    const suffix = escapeRegExpString(part.suffix);
    if (!repeated) {
      result += `(?:${prefix}(${value})${suffix})${modifier}`;
      continue;
    }
    result += `(?:${prefix}((?:${value})(?:${suffix}${prefix}(?:${value}))*)${suffix})`;
    if (part.modifier === '*') result += '?';
  }
  return { source: `${result}$`, names };
}

const isASCIIDigit = (c) => c !== undefined && c >= '0' && c <= '9' && c.length === 1;
const firstCodePoint = (text) => ArrayFrom(text)[0];
const lastCodePoint = (text) => {
  const codePoints = ArrayFrom(text);
  return codePoints[codePoints.length - 1];
};

/// The standard's "generate a pattern string": the normalized pattern a component getter answers.
function generatePatternString(parts, options) {
  let result = '';
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index];
    const previous = index > 0 ? parts[index - 1] : null;
    const next = index < parts.length - 1 ? parts[index + 1] : null;
    const modifier = modifierString(part.modifier);
    if (part.type === 'fixed-text') {
      result += part.modifier === 'none' ? escapePatternString(part.value) : `{${escapePatternString(part.value)}}${modifier}`;
      continue;
    }
    const customName = !isASCIIDigit(part.name[0]);
    let needsGrouping = part.suffix !== '' || (part.prefix !== '' && part.prefix !== options.prefix);
    if (!needsGrouping && customName && part.type === 'segment-wildcard' && part.modifier === 'none' && next !== null
        && next.modifier === 'none') {
      needsGrouping = next.type === 'fixed-text'
        ? isValidNameCodePoint(firstCodePoint(next.value), false) : isASCIIDigit(next.name[0]);
    }
    if (!needsGrouping && part.prefix === '' && previous !== null && previous.type === 'fixed-text'
        && lastCodePoint(previous.value) === options.prefix) {
      needsGrouping = true;
    }
    if (needsGrouping) result += '{';
    result += escapePatternString(part.prefix);
    if (customName) result += `:${part.name}`;
    if (part.type === 'regexp') result += `(${part.value})`;
    else if (part.type === 'segment-wildcard' && !customName) result += `(${segmentWildcard(options)})`;
    else if (part.type === 'full-wildcard') {
      if (!customName && (previous === null || previous.type === 'fixed-text' || previous.modifier !== 'none'
          || needsGrouping || part.prefix !== '')) {
        result += '*';
      } else result += `(${fullWildcard})`;
    }
    if (part.type === 'segment-wildcard' && customName && part.suffix !== ''
        && isValidNameCodePoint(firstCodePoint(part.suffix), false)) {
      result += '\\';
    }
    result += escapePatternString(part.suffix);
    if (needsGrouping) result += '}';
    result += modifier;
  }
  return result;
}

// ---- Components ----

const defaultOptions = { delimiter: '', prefix: '', ignoreCase: false };
const hostnameOptions = { delimiter: '.', prefix: '', ignoreCase: false };
const pathnameOptions = { delimiter: '/', prefix: '/', ignoreCase: false };

/// A "canonicalize a ..." step of the standard as an encoding callback: TypeError on failure.
function canonicalizer(kind, protocol) {
  return (value) => {
    const result = internal.canonicalizeURLComponent(kind, value, protocol);
    if (result === null) throw patternError(`"${value}" is not a valid ${kind === 'opaquePathname' ? 'pathname' : kind}`);
    return result;
  };
}

function canonicalizeIPv6Hostname(value) {
  if (RegExpPrototypeTest(/[^0-9a-fA-F[\]:]/, value)) throw patternError(`"${value}" is not a valid IPv6 hostname`);
  return MethodToLowerCase(value);
}

/// The standard's "compile a component": { pattern, regexp, names, hasRegExpGroups }.
function compileComponent(input, encode, options) {
  const parts = parsePatternString(input, options, encode);
  const { source, names } = generateRegExp(parts, options);
  let regexp;
  try {
    regexp = new RegExp(source, options.ignoreCase ? `${unicodeFlag}i` : unicodeFlag);
  } catch (error) {
    throw patternError(`"${input}" compiles to an invalid regular expression (${error?.message})`);
  }
  let hasRegExpGroups = false;
  for (const part of parts) if (part.type === 'regexp') hasRegExpGroups = true;
  return { pattern: generatePatternString(parts, options), regexp, names, hasRegExpGroups };
}

function matchesSpecialScheme(component) {
  for (const scheme of specialSchemes) {
    component.regexp.lastIndex = 0;
    if (RegExpPrototypeExec(component.regexp, scheme) !== null) return true;
  }
  return false;
}

// ---- The constructor string ----

/// The standard's "parse a constructor string": a URLPatternInit.
function parseConstructorString(input) {
  const tokens = tokenize(input, 'lenient');
  const codePoints = ArrayFrom(input);
  const result = ObjectCreate(null);
  let componentStart = 0;
  let tokenIndex = 0;
  let tokenIncrement = 1;
  let groupDepth = 0;
  let ipv6BracketDepth = 0;
  let protocolMatchesSpecialScheme = false;
  let state = 'init';
  const safeToken = (i) => (i < tokens.length ? tokens[i] : tokens[tokens.length - 1]);
  const isNonSpecialPatternChar = (i, value) => {
    const token = safeToken(i);
    return token.value === value && (token.type === 'char' || token.type === 'escaped-char' || token.type === 'invalid-char');
  };
  const isProtocolSuffix = () => isNonSpecialPatternChar(tokenIndex, ':');
  const nextIsAuthoritySlashes = () => isNonSpecialPatternChar(tokenIndex + 1, '/') && isNonSpecialPatternChar(tokenIndex + 2, '/');
  const isIdentityTerminator = () => isNonSpecialPatternChar(tokenIndex, '@');
  const isPasswordPrefix = () => isNonSpecialPatternChar(tokenIndex, ':');
  const isPortPrefix = () => isNonSpecialPatternChar(tokenIndex, ':');
  const isPathnameStart = () => isNonSpecialPatternChar(tokenIndex, '/');
  const isSearchPrefix = () => {
    if (isNonSpecialPatternChar(tokenIndex, '?')) return true;
    if (tokens[tokenIndex].value !== '?') return false;
    if (tokenIndex - 1 < 0) return true;
    const previous = safeToken(tokenIndex - 1);
    return !(previous.type === 'name' || previous.type === 'regexp' || previous.type === 'close' || previous.type === 'asterisk');
  };
  const isHashPrefix = () => isNonSpecialPatternChar(tokenIndex, '#');
  const isIPv6Open = () => isNonSpecialPatternChar(tokenIndex, '[');
  const isIPv6Close = () => isNonSpecialPatternChar(tokenIndex, ']');
  const makeComponentString = () => {
    const end = tokens[tokenIndex].index;
    return ArrayPrototypeJoin(ArrayPrototypeSlice(codePoints, safeToken(componentStart).index, end), '');
  };
  const rewind = () => {
    tokenIndex = componentStart;
    tokenIncrement = 0;
  };
  const rewindAndSetState = (newState) => {
    rewind();
    state = newState;
  };
  const before = (states) => MethodIncludes(states, state);
  const changeState = (newState, skip) => {
    if (state !== 'init' && state !== 'authority' && state !== 'done') result[state] = makeComponentString();
    if (state !== 'init' && newState !== 'done') {
      if (before(['protocol', 'authority', 'username', 'password'])
          && MethodIncludes(['port', 'pathname', 'search', 'hash'], newState) && result.hostname === undefined) {
        result.hostname = '';
      }
      if (before(['protocol', 'authority', 'username', 'password', 'hostname', 'port'])
          && (newState === 'search' || newState === 'hash') && result.pathname === undefined) {
        result.pathname = protocolMatchesSpecialScheme ? '/' : '';
      }
      if (before(['protocol', 'authority', 'username', 'password', 'hostname', 'port', 'pathname'])
          && newState === 'hash' && result.search === undefined) {
        result.search = '';
      }
    }
    state = newState;
    tokenIndex += skip;
    componentStart = tokenIndex;
    tokenIncrement = 0;
  };
  while (tokenIndex < tokens.length) {
    tokenIncrement = 1;
    const token = tokens[tokenIndex];
    if (token.type === 'end') {
      if (state === 'init') {
        rewind();
        if (isHashPrefix()) changeState('hash', 1);
        else if (isSearchPrefix()) changeState('search', 1);
        else changeState('pathname', 0);
        tokenIndex += tokenIncrement;
        continue;
      }
      if (state === 'authority') {
        rewindAndSetState('hostname');
        tokenIndex += tokenIncrement;
        continue;
      }
      changeState('done', 0);
      break;
    }
    if (token.type === 'open') {
      groupDepth++;
      tokenIndex += tokenIncrement;
      continue;
    }
    if (groupDepth > 0) {
      if (token.type === 'close') groupDepth--;
      else {
        tokenIndex += tokenIncrement;
        continue;
      }
    }
    switch (state) {
      case 'init':
        if (isProtocolSuffix()) rewindAndSetState('protocol');
        break;
      case 'protocol':
        if (isProtocolSuffix()) {
          const protocol = compileComponent(makeComponentString(), canonicalizer('protocol'), defaultOptions);
          protocolMatchesSpecialScheme = matchesSpecialScheme(protocol);
          let nextState = 'pathname';
          let skip = 1;
          if (nextIsAuthoritySlashes()) {
            nextState = 'authority';
            skip = 3;
          } else if (protocolMatchesSpecialScheme) nextState = 'authority';
          changeState(nextState, skip);
        }
        break;
      case 'authority':
        if (isIdentityTerminator()) rewindAndSetState('username');
        else if (isPathnameStart() || isSearchPrefix() || isHashPrefix()) rewindAndSetState('hostname');
        break;
      case 'username':
        if (isPasswordPrefix()) changeState('password', 1);
        else if (isIdentityTerminator()) changeState('hostname', 1);
        break;
      case 'password':
        if (isIdentityTerminator()) changeState('hostname', 1);
        break;
      case 'hostname':
        if (isIPv6Open()) ipv6BracketDepth++;
        else if (isIPv6Close()) ipv6BracketDepth--;
        else if (isPortPrefix() && ipv6BracketDepth === 0) changeState('port', 1);
        else if (isPathnameStart()) changeState('pathname', 0);
        else if (isSearchPrefix()) changeState('search', 1);
        else if (isHashPrefix()) changeState('hash', 1);
        break;
      case 'port':
        if (isPathnameStart()) changeState('pathname', 0);
        else if (isSearchPrefix()) changeState('search', 1);
        else if (isHashPrefix()) changeState('hash', 1);
        break;
      case 'pathname':
        if (isSearchPrefix()) changeState('search', 1);
        else if (isHashPrefix()) changeState('hash', 1);
        break;
      case 'search':
        if (isHashPrefix()) changeState('hash', 1);
        break;
    }
    tokenIndex += tokenIncrement;
  }
  if (result.hostname !== undefined && result.port === undefined) result.port = '';
  return result;
}

// ---- URLPatternInit ----

const initMembers = ['baseURL', 'hash', 'hostname', 'password', 'pathname', 'port', 'protocol', 'search', 'username'];

/// Web IDL's conversion of a URLPatternInit: the members present, as USVStrings, read in lexicographic order.
function toInit(value) {
  const init = ObjectCreate(null);
  if (value === undefined || value === null) return init;
  for (const name of initMembers) {
    const member = value[name];
    if (member !== undefined) init[name] = toUSV(member);
  }
  return init;
}

const isDictionary = (value) => value === undefined || value === null || typeof value === 'object' || typeof value === 'function';

function escapeBaseURLString(value, type) {
  return type === 'pattern' ? escapePatternString(value) : value;
}

function isAbsolutePathname(input, type) {
  if (input === '') return false;
  if (input[0] === '/') return true;
  if (type === 'url' || input.length < 2) return false;
  return (input[0] === '\\' || input[0] === '{') && input[1] === '/';
}

/// The standard's "process a URLPatternInit": type 'pattern' keeps the text as pattern syntax, 'url'
/// canonicalizes it. `defaults` holds the initial values (all '' for 'url'; none for 'pattern').
function processInit(init, type, defaults) {
  const result = ObjectCreate(null);
  for (const name of componentNames) if (defaults !== null) result[name] = defaults;
  const has = (name) => init[name] !== undefined;
  const hasAny = (names) => {
    for (const name of names) if (has(name)) return true;
    return false;
  };
  let baseURL = null;
  if (has('baseURL')) {
    baseURL = internal.parseURLComponents(init.baseURL, undefined);
    if (baseURL === null) throw new TypeError(`Invalid base URL: ${init.baseURL}`);
    if (!has('protocol')) result.protocol = escapeBaseURLString(baseURL.protocol, type);
    if (type !== 'pattern' && !hasAny(['protocol', 'hostname', 'port', 'username'])) {
      result.username = escapeBaseURLString(baseURL.username, type);
    }
    if (type !== 'pattern' && !hasAny(['protocol', 'hostname', 'port', 'username', 'password'])) {
      result.password = escapeBaseURLString(baseURL.password, type);
    }
    if (!hasAny(['protocol', 'hostname'])) result.hostname = escapeBaseURLString(baseURL.hostname, type);
    if (!hasAny(['protocol', 'hostname', 'port'])) result.port = baseURL.port;
    if (!hasAny(['protocol', 'hostname', 'port', 'pathname'])) result.pathname = escapeBaseURLString(baseURL.pathname, type);
    if (!hasAny(['protocol', 'hostname', 'port', 'pathname', 'search'])) result.search = escapeBaseURLString(baseURL.search, type);
    if (!hasAny(['protocol', 'hostname', 'port', 'pathname', 'search', 'hash'])) result.hash = escapeBaseURLString(baseURL.hash, type);
  }
  const canonicalize = (kind, value, protocol) => (type === 'pattern' ? value : canonicalizer(kind, protocol)(value));
  if (has('protocol')) {
    const value = init.protocol;
    result.protocol = canonicalize('protocol', MethodEndsWith(value, ':') ? MethodSlice(value, 0, -1) : value);
  }
  if (has('username')) result.username = canonicalize('username', init.username);
  if (has('password')) result.password = canonicalize('password', init.password);
  if (has('hostname')) result.hostname = canonicalize('hostname', init.hostname);
  if (has('port')) result.port = canonicalize('port', init.port, result.protocol);
  if (has('pathname')) {
    let pathname = init.pathname;
    if (baseURL !== null && !baseURL.opaquePath && !isAbsolutePathname(pathname, type)) {
      const basePath = escapeBaseURLString(baseURL.pathname, type);
      const slash = MethodLastIndexOf(basePath, '/');
      if (slash !== -1) pathname = `${MethodSlice(basePath, 0, slash + 1)}${pathname}`;
    }
    if (type !== 'pattern') {
      const protocol = result.protocol;
      pathname = canonicalize(protocol === undefined || protocol === '' || isSpecialScheme(protocol) ? 'pathname' : 'opaquePathname', pathname);
    }
    result.pathname = pathname;
  }
  if (has('search')) {
    const value = init.search;
    result.search = canonicalize('search', value[0] === '?' ? MethodSlice(value, 1) : value);
  }
  if (has('hash')) {
    const value = init.hash;
    result.hash = canonicalize('hash', value[0] === '#' ? MethodSlice(value, 1) : value);
  }
  return result;
}

// ---- URLPattern ----

function toOptions(value) {
  if (value === undefined || value === null) return { ignoreCase: false };
  if (typeof value !== 'object' && typeof value !== 'function') {
    throw new TypeError("The URLPattern options must be an object");
  }
  return { ignoreCase: !!value.ignoreCase };
}

function isIPv6HostnamePattern(input) {
  const codePoints = ArrayFrom(input);
  if (codePoints.length < 2) return false;
  return codePoints[0] === '[' || ((codePoints[0] === '{' || codePoints[0] === '\\') && codePoints[1] === '[');
}

function componentResult(component, input, match) {
  // A plain object, as Web IDL makes a record (defined, not set: a group may be named __proto__).
  const groups = {};
  for (let i = 1; i < match.length; i++) {
    ObjectDefineProperty(groups, component.names[i - 1], { value: match[i], writable: true, enumerable: true, configurable: true });
  }
  return { input, groups };
}

class URLPattern {
  #components;

  constructor(input = undefined, baseURLOrOptions = undefined, options = undefined) {
    let baseURL;
    if (arguments.length >= 3 || (arguments.length === 2 && !isDictionary(baseURLOrOptions))) {
      baseURL = toUSV(baseURLOrOptions);
    } else options = baseURLOrOptions;
    const { ignoreCase } = toOptions(options);
    let init;
    if (isDictionary(input)) {
      if (baseURL !== undefined) throw new TypeError('A URLPattern made from a URLPatternInit takes no base URL');
      init = toInit(input);
    } else {
      init = parseConstructorString(toUSV(input));
      if (baseURL === undefined && init.protocol === undefined) {
        throw new TypeError(`Invalid URLPattern: "${toUSV(input)}" is relative and no base URL was given`);
      }
      if (baseURL !== undefined) init.baseURL = baseURL;
    }
    const processed = processInit(init, 'pattern', null);
    for (const name of componentNames) if (processed[name] === undefined) processed[name] = '*';
    if (isSpecialScheme(processed.protocol) && processed.port === defaultPorts[processed.protocol]) processed.port = '';
    const protocol = compileComponent(processed.protocol, canonicalizer('protocol'), defaultOptions);
    const components = {
      protocol,
      username: compileComponent(processed.username, canonicalizer('username'), defaultOptions),
      password: compileComponent(processed.password, canonicalizer('password'), defaultOptions),
      hostname: isIPv6HostnamePattern(processed.hostname)
        ? compileComponent(processed.hostname, canonicalizeIPv6Hostname, hostnameOptions)
        : compileComponent(processed.hostname, canonicalizer('hostname'), hostnameOptions),
      port: compileComponent(processed.port, canonicalizer('port'), defaultOptions),
    };
    const compileOptions = { ...defaultOptions, ignoreCase };
    components.pathname = matchesSpecialScheme(protocol)
      ? compileComponent(processed.pathname, canonicalizer('pathname'), { ...pathnameOptions, ignoreCase })
      : compileComponent(processed.pathname, canonicalizer('opaquePathname'), compileOptions);
    components.search = compileComponent(processed.search, canonicalizer('search'), compileOptions);
    components.hash = compileComponent(processed.hash, canonicalizer('hash'), compileOptions);
    this.#components = components;
  }

  test(input = undefined, baseURL = undefined) {
    return this.#match(input, baseURL) !== null;
  }

  exec(input = undefined, baseURL = undefined) {
    return this.#match(input, baseURL);
  }

  /// The standard's "match".
  #match(input, baseURL) {
    const components = this.#components;
    let values;
    const inputs = [];
    if (isDictionary(input)) {
      const init = toInit(input);
      if (baseURL !== undefined) throw new TypeError('URLPattern matching of a URLPatternInit takes no base URL');
      ArrayPrototypePush(inputs, { ...init });
      try {
        values = processInit(init, 'url', '');
      } catch {
        return null;
      }
    } else {
      input = toUSV(input);
      ArrayPrototypePush(inputs, input);
      if (baseURL !== undefined) {
        baseURL = toUSV(baseURL);
        if (internal.parseURLComponents(baseURL, undefined) === null) return null;
        ArrayPrototypePush(inputs, baseURL);
      }
      values = internal.parseURLComponents(input, baseURL);
      if (values === null) return null;
    }
    const result = { inputs };
    for (const name of componentNames) {
      const component = components[name];
      component.regexp.lastIndex = 0;
      const match = RegExpPrototypeExec(component.regexp, values[name]);
      if (match === null) return null;
      result[name] = componentResult(component, values[name], match);
    }
    return result;
  }

  get protocol() { return this.#components.protocol.pattern; }
  get username() { return this.#components.username.pattern; }
  get password() { return this.#components.password.pattern; }
  get hostname() { return this.#components.hostname.pattern; }
  get port() { return this.#components.port.pattern; }
  get pathname() { return this.#components.pathname.pattern; }
  get search() { return this.#components.search.pattern; }
  get hash() { return this.#components.hash.pattern; }

  get hasRegExpGroups() {
    for (const name of componentNames) if (this.#components[name].hasRegExpGroups) return true;
    return false;
  }

  // console.log and util.inspect show the components, as Node does.
  [inspectCustom](depth, options, inspect) {
    if (typeof depth === 'number' && depth < 0) return this;
    const fields = {};
    for (const name of componentNames) fields[name] = this.#components[name].pattern;
    fields.hasRegExpGroups = this.hasRegExpGroups;
    return `URLPattern ${inspect(fields, options)}`;
  }
}

// Web IDL: operations and attributes are enumerable; the class string is a data property.
for (const key of ObjectGetOwnPropertyNames(URLPattern.prototype)) {
  if (key === 'constructor') continue;
  const descriptor = ObjectGetOwnPropertyDescriptor(URLPattern.prototype, key);
  descriptor.enumerable = true;
  ObjectDefineProperty(URLPattern.prototype, key, descriptor);
}
ObjectDefineProperty(URLPattern.prototype, SymbolToStringTag, { value: 'URLPattern', configurable: true });

internal.URLPattern = URLPattern;
internal.defineGlobal('URLPattern', URLPattern);
