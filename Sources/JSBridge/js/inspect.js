// inspect.js - Node-compatible `util.inspect` and `util.format` for the runtime (sets internal.inspect,
// internal.format, internal.formatWithOptions, internal.formatError, internal.errorStack).
//
// Known differences from Node:
// - Promise state cannot be read from JavaScript in JSC: promises print as `Promise {}`.
// - Proxies are not detected (the proxy is inspected through its traps); Map/Set iterators print as
//   `Object [Map Iterator] {}` because their entries cannot be previewed without consuming them.
// - Error stacks come from JSC (`fn@file:line:col`) and are rewritten to `    at fn (file:line:col)`;
//   the header line is built from the error's current name and message.
// - `showHidden` only adds non-enumerable own keys; `compact: true`, `getters`, `numericSeparator`
//   and `showProxy` are not supported. String widths are UTF-16 lengths (no East Asian width).

const {
  ArrayBufferIsView, ArrayBufferPrototypeGetByteLength, ArrayFrom, ArrayIsArray, ArrayPrototypeConcat,
  ArrayPrototypeEvery, ArrayPrototypeFilter, ArrayPrototypeIncludes, ArrayPrototypeIndexOf, ArrayPrototypeJoin,
  ArrayPrototypeMap, ArrayPrototypePop, ArrayPrototypePush, ArrayPrototypeSlice, ArrayPrototypeSort,
  ArrayPrototypeSplice, ArrayPrototypeUnshift, BigIntPrototypeValueOf, BooleanPrototypeValueOf,
  DataViewPrototypeGetByteLength, DatePrototypeGetTime, DatePrototypeToISOString, FunctionPrototypeCall,
  FunctionPrototypeToString, JSONStringify, MapPrototypeEntries, MapPrototypeGetSize, MathFloor, MathMax, MathMin,
  MathRound, MathSqrt, NumberIsNaN, NumberPrototypeToString, NumberPrototypeValueOf, ObjectAssign,
  ObjectGetOwnPropertyDescriptor, ObjectGetOwnPropertyNames, ObjectGetOwnPropertySymbols, ObjectGetPrototypeOf,
  ObjectIs, ObjectKeys, ObjectPrototypeHasOwnProperty, ObjectPrototypePropertyIsEnumerable,
  ObjectPrototypeToString, RegExpPrototypeExec, RegExpPrototypeGetSource, RegExpPrototypeToString, SafeMap, SafeSet,
  SetPrototypeGetSize, SetPrototypeValues, StringPrototypeCharCodeAt, StringPrototypeEndsWith,
  StringPrototypeIncludes, StringPrototypeIndexOf, StringPrototypePadEnd, StringPrototypePadStart,
  StringPrototypeRepeat, StringPrototypeReplaceAll, StringPrototypeSlice,
  StringPrototypeSplit, StringPrototypeStartsWith, StringPrototypeToUpperCase, StringPrototypeValueOf, SymbolFor,
  SymbolPrototypeToString, SymbolPrototypeValueOf, SymbolToStringTag, TypedArrayPrototypeGetSymbolToStringTag,
  StringPrototypeToLowerCase, WeakMapPrototypeHas, WeakSetPrototypeHas, Error, Promise, String, TypeError,
  Uint8Array,
} = internal.primordials;

const customInspectSymbol = SymbolFor('nodejs.util.inspect.custom');
const defaultOptions = {
  showHidden: false, depth: 2, colors: false, customInspect: true, maxArrayLength: 100,
  maxStringLength: 10000, breakLength: 80, compact: 3, sorted: false,
};
const optionNames = ObjectKeys(defaultOptions);
const ansi = {
  __proto__: null,
  special: [36, 39], number: [33, 39], bigint: [33, 39], boolean: [33, 39], undefined: [90, 39],
  null: [1, 22], string: [32, 39], symbol: [32, 39], date: [35, 39], regexp: [31, 39],
};
const ARRAY = 1;
const OBJECT = 0;

const objectToString = (v) => StringPrototypeSlice(ObjectPrototypeToString(v), 8, -1);
const hasOwn = ObjectPrototypeHasOwnProperty;
const isEnumerable = ObjectPrototypePropertyIsEnumerable;
const typedArrayTag = TypedArrayPrototypeGetSymbolToStringTag;
const plural = (n, word) => `${n} ${word}${n > 1 ? 's' : ''}`;
// Regular expressions run through the captured `exec`: `String.prototype.replace` and `RegExp.prototype.test`
// would look up the script's `exec`.
const test = (regExp, text) => RegExpPrototypeExec(regExp, text) !== null;
/// `text` with every match of the global `regExp` (which never matches "") replaced by `replace(match)`.
function replaceMatches(text, regExp, replace) {
  let out = '';
  let last = 0;
  regExp.lastIndex = 0;
  for (let match; (match = RegExpPrototypeExec(regExp, text)) !== null; last = regExp.lastIndex) {
    out += StringPrototypeSlice(text, last, match.index) + replace(match[0]);
  }
  return out + StringPrototypeSlice(text, last);
}
const removeColors = (s) => replaceMatches(s, /\u001b\[\d\d?m/g, () => '');
const functionPrototypes = new SafeMap([
  [ObjectGetPrototypeOf(async function () {}), 'AsyncFunction'],
  [ObjectGetPrototypeOf(function* () {}), 'GeneratorFunction'],
  [ObjectGetPrototypeOf(async function* () {}), 'AsyncGeneratorFunction'],
]);

// Brand checks: each throws unless `v` really has the internal slots of that type.
const brandChecks = {
  __proto__: null,
  Map: MapPrototypeGetSize,
  Set: SetPrototypeGetSize,
  Date: DatePrototypeGetTime,
  RegExp: RegExpPrototypeGetSource,
  ArrayBuffer: ArrayBufferPrototypeGetByteLength,
  DataView: DataViewPrototypeGetByteLength,
  WeakMap: (v) => WeakMapPrototypeHas(v, {}),
  WeakSet: (v) => WeakSetPrototypeHas(v, {}),
  Number: NumberPrototypeValueOf,
  String: StringPrototypeValueOf,
  Boolean: BooleanPrototypeValueOf,
  Symbol: SymbolPrototypeValueOf,
  BigInt: BigIntPrototypeValueOf,
};

// The built-in kind of an object ('Map', 'Date', 'Error', 'Uint8Array', ...) or '' for ordinary objects.
function builtinKind(v) {
  if (ArrayIsArray(v)) return 'Array';
  if (ArrayBufferIsView(v) && typedArrayTag(v) !== undefined) return 'TypedArray';
  const tag = objectToString(v);
  if (tag === 'Error' || v instanceof Error) return 'Error';
  if (tag === 'Promise' && v instanceof Promise) return 'Promise';
  if (tag === 'Arguments') return 'Arguments';
  const check = brandChecks[tag];
  if (check === undefined) return '';
  try {
    check(v);
    return tag;
  } catch {
    return '';
  }
}

// The name of the nearest constructor on the prototype chain, or null for null-prototype objects.
function constructorName(obj, ctx, depth) {
  let firstProto;
  for (let o = obj; o !== null; o = ObjectGetPrototypeOf(o)) {
    const desc = ObjectGetOwnPropertyDescriptor(o, 'constructor');
    if (desc !== undefined && typeof desc.value === 'function' && desc.value.name !== '' && isInstance(obj, desc.value)) {
      return String(desc.value.name);
    }
    if (o === obj) firstProto = ObjectGetPrototypeOf(o);
  }
  if (firstProto === null) return null;
  if (tooDeep(ctx, depth)) return `${objectToString(obj)} <Complex prototype>`;
  const protoText = inspect(firstProto, { ...ctx, customInspect: false, depth: -1 });
  return `${objectToString(obj)} <${protoText}>`;
}

function isInstance(obj, ctor) {
  try {
    return obj instanceof ctor;
  } catch {
    return false;
  }
}

function getPrefix(ctor, tag, fallback, size = '') {
  if (ctor === null) {
    return tag !== '' && fallback !== tag ? `[${fallback}${size}: null prototype] [${tag}] ` : `[${fallback}${size}: null prototype] `;
  }
  return tag !== '' && ctor !== tag ? `${ctor}${size} [${tag}] ` : `${ctor}${size} `;
}

// Quotes a string the way Node does: prefer ', then ", then `; escape control characters.
// What a quoted string escapes: control characters, the backslash, the quote itself and lone surrogates.
// One regular expression per quote, so that a string with nothing to escape costs one native scan.
const escapedIn = {
  __proto__: null,
  "'": /[\x00-\x1f\x7f-\x9f\\']|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
  '"': /[\x00-\x1f\x7f-\x9f\\"]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
  '`': /[\x00-\x1f\x7f-\x9f\\`]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
};
function escapeCharacter(c) {
  const code = StringPrototypeCharCodeAt(c, 0);
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return controlEscape(code);
  if (code >= 0xd800 && code <= 0xdfff) return `\\u${NumberPrototypeToString(code, 16)}`;
  return `\\${c}`;
}

function quote(str) {
  let q = "'";
  if (StringPrototypeIncludes(str, "'")) {
    if (!StringPrototypeIncludes(str, '"')) q = '"';
    else if (!StringPrototypeIncludes(str, '`') && !StringPrototypeIncludes(str, '${')) q = '`';
  }
  return q + replaceMatches(str, escapedIn[q], escapeCharacter) + q;
}

const namedEscapes = { __proto__: null, 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };
const controlEscape = (c) =>
  namedEscapes[c] || `\\x${StringPrototypePadStart(StringPrototypeToUpperCase(NumberPrototypeToString(c, 16)), 2, '0')}`;

const formatNumber = (n) => (ObjectIs(n, -0) ? '-0' : `${n}`);

function formatPrimitive(ctx, v) {
  switch (typeof v) {
    case 'string': {
      let trailer = '';
      if (v.length > ctx.maxStringLength) {
        trailer = `... ${plural(v.length - ctx.maxStringLength, 'more character')}`;
        v = StringPrototypeSlice(v, 0, ctx.maxStringLength);
      }
      return ctx.stylize(quote(v), 'string') + trailer;
    }
    case 'number': return ctx.stylize(formatNumber(v), 'number');
    case 'bigint': return ctx.stylize(`${v}n`, 'bigint');
    case 'boolean': return ctx.stylize(`${v}`, 'boolean');
    case 'undefined': return ctx.stylize('undefined', 'undefined');
    default: return ctx.stylize(symbolToString(v), 'symbol');
  }
}

const escapeControls = (s) =>
  replaceMatches(s, /[\x00-\x1f\x7f-\x9f]/g, (c) => controlEscape(StringPrototypeCharCodeAt(c, 0)));
const symbolToString = (s) => escapeControls(SymbolPrototypeToString(s));

function formatValue(ctx, v, depth) {
  if (typeof v !== 'object' && typeof v !== 'function') return formatPrimitive(ctx, v);
  if (v === null) return ctx.stylize('null', 'null');
  if (ctx.customInspect) {
    const custom = v[customInspectSymbol];
    const isPrototype = () => v.constructor !== undefined && v.constructor !== null && v.constructor.prototype === v;
    if (typeof custom === 'function' && custom !== inspect && !isPrototype()) {
      const options = { stylize: ctx.stylize };
      for (const key of optionNames) options[key] = ctx[key];
      const result = FunctionPrototypeCall(custom, v, ctx.depth === null ? null : ctx.depth - depth, options, inspect);
      if (result !== v) {
        if (typeof result !== 'string') return formatValue(ctx, result, depth);
        return StringPrototypeReplaceAll(result, '\n', `\n${StringPrototypeRepeat(' ', ctx.indentationLvl)}`);
      }
    }
  }
  if (ArrayPrototypeIncludes(ctx.seen, v)) {
    ctx.circular ??= new SafeMap();
    if (!ctx.circular.has(v)) ctx.circular.set(v, ctx.circular.size + 1);
    return ctx.stylize(`[Circular *${ctx.circular.get(v)}]`, 'special');
  }
  return formatRaw(ctx, v, depth);
}

function ownKeys(v, ctx) {
  const names = ctx.showHidden ? ObjectGetOwnPropertyNames(v) : ObjectKeys(v);
  const symbols = ObjectGetOwnPropertySymbols(v);
  return ArrayPrototypeConcat(names, ctx.showHidden ? symbols : ArrayPrototypeFilter(symbols, (s) => isEnumerable(v, s)));
}

const tooDeep = (ctx, depth) => ctx.depth !== null && depth > ctx.depth;
const isIndex = (k) => typeof k === 'string' && test(/^(0|[1-9][0-9]*)$/, k) && +k < 4294967295;

// Builds the pieces of an object's representation: base text, braces, entry formatter, kind of entries.
// Returns a string directly for values that print without entries (`[]`, `{}`, functions, dates...).
function describe(ctx, v, depth, ctor, tag, kind, keys) {
  const prefix = (fallback, size) => getPrefix(ctor, tag, fallback, size);
  const noExtras = () => keys.length === 0;
  const shape = { base: '', braces: ['{', '}'], formatter: () => [], type: OBJECT, keys };
  switch (kind) {
    case 'Array': {
      shape.keys = ArrayPrototypeFilter(keys, (k) => !isIndex(k));
      const p = ctor !== 'Array' || tag !== '' ? prefix('Array', `(${v.length})`) : '';
      shape.braces = [`${p}[`, ']'];
      if (v.length === 0 && shape.keys.length === 0) return `${shape.braces[0]}]`;
      return ObjectAssign(shape, { type: ARRAY, formatter: formatArray });
    }
    case 'TypedArray': {
      shape.keys = ArrayPrototypeFilter(keys, (k) => !isIndex(k));
      shape.braces = [`${prefix(typedArrayTag(v), `(${v.length})`)}[`, ']'];
      if (v.length === 0 && shape.keys.length === 0) return `${shape.braces[0]}]`;
      return ObjectAssign(shape, { type: ARRAY, formatter: formatTypedArray });
    }
    case 'Set':
    case 'Map': {
      const size = kind === 'Set' ? SetPrototypeGetSize(v) : MapPrototypeGetSize(v);
      const p = prefix(kind, `(${size})`);
      if (size === 0 && noExtras()) return `${p}{}`;
      shape.braces[0] = `${p}{`;
      shape.formatter = kind === 'Set' ? formatSet : formatMap;
      return shape;
    }
    case 'Arguments':
      shape.braces[0] = '[Arguments] {';
      return noExtras() ? '[Arguments] {}' : shape;
    case 'RegExp': {
      let base = RegExpPrototypeToString(v);
      const p = prefix('RegExp');
      if (p !== 'RegExp ') base = p + base;
      shape.base = base;
      return noExtras() || tooDeep(ctx, depth) ? ctx.stylize(base, 'regexp') : shape;
    }
    case 'Date': {
      const time = DatePrototypeGetTime(v);
      let base = NumberIsNaN(time) ? 'Invalid Date' : DatePrototypeToISOString(v);
      const p = prefix('Date');
      if (p !== 'Date ') base = p + base;
      shape.base = base;
      return noExtras() ? ctx.stylize(base, 'date') : shape;
    }
    case 'Error':
      shape.base = formatErrorBase(ctx, v, ctor, tag, keys);
      return noExtras() ? shape.base : shape;
    case 'ArrayBuffer':
      shape.braces[0] = `${prefix('ArrayBuffer')}{`;
      ArrayPrototypeUnshift(keys, 'byteLength');
      shape.formatter = formatArrayBuffer;
      return shape;
    case 'DataView':
      shape.braces[0] = `${prefix('DataView')}{`;
      ArrayPrototypeUnshift(keys, 'byteLength', 'byteOffset', 'buffer');
      return shape;
    case 'Promise':
      shape.braces[0] = `${prefix('Promise')}{`;
      return noExtras() ? `${shape.braces[0]}}` : shape;
    case 'WeakMap':
    case 'WeakSet':
      shape.braces[0] = `${prefix(kind)}{`;
      shape.formatter = () => [ctx.stylize('<items unknown>', 'special')];
      return shape;
    case 'Number':
    case 'String':
    case 'Boolean':
    case 'Symbol':
    case 'BigInt':
      if (kind === 'String') ArrayPrototypeSplice(keys, 0, StringPrototypeValueOf(v).length);
      shape.base = boxedBase(ctx, v, kind, ctor, tag);
      return noExtras() ? shape.base : shape;
  }
  if (typeof v === 'function') {
    shape.base = functionBase(v, ctor, tag);
    return noExtras() ? ctx.stylize(shape.base, 'special') : shape;
  }
  const p = ctor === 'Object' && tag === '' ? '' : prefix('Object');
  if (noExtras()) return `${p}{}`;
  shape.braces[0] = `${p}{`;
  return shape;
}

function formatRaw(ctx, v, depth) {
  const ctor = constructorName(v, ctx, depth);
  let tag = v[SymbolToStringTag];
  const ownTag = ctx.showHidden ? hasOwn(v, SymbolToStringTag) : isEnumerable(v, SymbolToStringTag);
  if (typeof tag !== 'string' || ownTag) tag = '';
  const shape = describe(ctx, v, depth, ctor, tag, builtinKind(v), ownKeys(v, ctx));
  if (typeof shape === 'string') return shape;
  if (tooDeep(ctx, depth)) {
    const name = StringPrototypeSlice(getPrefix(ctor, tag, 'Object'), 0, -1);
    return ctx.stylize(ctor === null ? name : `[${name}]`, 'special');
  }
  depth += 1;
  ArrayPrototypePush(ctx.seen, v);
  ctx.currentDepth = depth;
  const output = shape.formatter(ctx, v, depth);
  const extrasStart = output.length;
  for (const key of shape.keys) ArrayPrototypePush(output, formatProperty(ctx, v, depth, key));
  ArrayPrototypePop(ctx.seen);
  if (ctx.sorted) {
    const compare = ctx.sorted === true ? undefined : ctx.sorted;
    if (shape.type === OBJECT) ArrayPrototypeSort(output, compare);
    else ArrayPrototypePush(output, ...ArrayPrototypeSort(ArrayPrototypeSplice(output, extrasStart), compare));
  }
  let base = shape.base;
  const ref = ctx.circular?.get(v);
  if (ref !== undefined) {
    const text = ctx.stylize(`<ref *${ref}>`, 'special');
    base = base === '' ? text : `${text} ${base}`;
  }
  return reduceToSingleString(ctx, output, base, shape.braces, shape.type, depth, v);
}

function formatProperty(ctx, obj, depth, key, arrayElement = false) {
  const desc = ObjectGetOwnPropertyDescriptor(obj, key) || { value: obj[key], enumerable: true };
  let str;
  if (desc.value !== undefined) {
    ctx.indentationLvl += 2;
    str = formatValue(ctx, desc.value, depth);
    ctx.indentationLvl -= 2;
  } else if (desc.get !== undefined) {
    str = ctx.stylize(desc.set !== undefined ? '[Getter/Setter]' : '[Getter]', 'special');
  } else if (desc.set !== undefined) {
    str = ctx.stylize('[Setter]', 'special');
  } else {
    str = ctx.stylize('undefined', 'undefined');
  }
  if (arrayElement) return str;
  let name;
  if (typeof key === 'symbol') name = `[${ctx.stylize(symbolToString(key), 'symbol')}]`;
  else if (key === '__proto__') name = "['__proto__']";
  else if (desc.enumerable === false) name = `[${escapeControls(key)}]`;
  else if (test(/^[a-zA-Z_][a-zA-Z_0-9]*$/, key)) name = ctx.stylize(key, 'name');
  else name = ctx.stylize(quote(key), 'string');
  return `${name}: ${str}`;
}

// Array entries, with runs of holes collapsed into `<n empty items>`.
function formatArray(ctx, arr, depth) {
  const output = [];
  let i = 0;
  while (i < arr.length && output.length < ctx.maxArrayLength) {
    if (hasOwn(arr, i)) {
      ArrayPrototypePush(output, formatProperty(ctx, arr, depth, `${i}`, true));
      i++;
      continue;
    }
    let end = i + 1;
    while (end < arr.length && !hasOwn(arr, end)) end++;
    ArrayPrototypePush(output, ctx.stylize(`<${plural(end - i, 'empty item')}>`, 'undefined'));
    i = end;
  }
  if (i < arr.length) ArrayPrototypePush(output, `... ${plural(arr.length - i, 'more item')}`);
  return output;
}

function formatTypedArray(ctx, arr) {
  const shown = MathMin(MathMax(0, ctx.maxArrayLength), arr.length);
  const output = [];
  for (let i = 0; i < shown; i++) {
    const n = arr[i];
    ArrayPrototypePush(output, ctx.stylize(typeof n === 'bigint' ? `${n}n` : formatNumber(n), typeof n));
  }
  if (arr.length > shown) ArrayPrototypePush(output, `... ${plural(arr.length - shown, 'more item')}`);
  return output;
}

function formatArrayBuffer(ctx, buffer) {
  const bytes = new Uint8Array(buffer);
  const shown = MathMin(ctx.maxArrayLength, bytes.length);
  let hex = '';
  for (let i = 0; i < shown; i++) hex += (i === 0 ? '' : ' ') + StringPrototypePadStart(NumberPrototypeToString(bytes[i], 16), 2, '0');
  if (bytes.length > shown) hex += ` ... ${plural(bytes.length - shown, 'more byte')}`;
  return [`${ctx.stylize('[Uint8Contents]', 'special')}: <${hex}>`];
}

function formatSet(ctx, set, depth) {
  return formatCollection(ctx, SetPrototypeGetSize(set), SetPrototypeValues(set), (v) => formatValue(ctx, v, depth));
}

function formatMap(ctx, map, depth) {
  return formatCollection(ctx, MapPrototypeGetSize(map), MapPrototypeEntries(map), ([k, v]) => `${formatValue(ctx, k, depth)} => ${formatValue(ctx, v, depth)}`);
}

function formatCollection(ctx, size, iterator, format) {
  const shown = MathMin(MathMax(0, ctx.maxArrayLength), size);
  const output = [];
  ctx.indentationLvl += 2;
  for (const entry of iterator) {
    if (output.length >= shown) break;
    ArrayPrototypePush(output, format(entry));
  }
  ctx.indentationLvl -= 2;
  if (size > shown) ArrayPrototypePush(output, `... ${plural(size - shown, 'more item')}`);
  return output;
}

function boxedBase(ctx, v, kind, ctor, tag) {
  let base = `[${kind}`;
  if (kind !== ctor) base += ctor === null ? ' (null prototype)' : ` (${ctor})`;
  const plain = { ...ctx, stylize: (s) => s };
  base += `: ${formatPrimitive(plain, brandChecks[kind](v))}]`;
  if (tag !== '' && tag !== ctor) base += ` [${tag}]`;
  return ctx.stylize(base, StringPrototypeToLowerCase(kind));
}

function functionBase(fn, ctor, tag) {
  const source = FunctionPrototypeToString(fn);
  if (test(/^class\s*(?:[\w$]+\s*)?(?:extends\s[^{]*)?\{/, source)) return classBase(fn, ctor, tag);
  const type = functionPrototypes.get(ObjectGetPrototypeOf(fn)) || 'Function';
  let base = `[${type}`;
  if (ctor === null) base += ' (null prototype)';
  base += fn.name === '' ? ' (anonymous)' : `: ${fn.name}`;
  base += ']';
  if (ctor !== type && ctor !== null) base += ` ${ctor}`;
  if (tag !== '' && ctor !== tag) base += ` [${tag}]`;
  return base;
}

function classBase(cls, ctor, tag) {
  let base = `class ${(hasOwn(cls, 'name') && cls.name) || '(anonymous)'}`;
  if (ctor !== 'Function' && ctor !== null) base += ` [${ctor}]`;
  if (tag !== '' && ctor !== tag) base += ` [${tag}]`;
  if (ctor === null) base += ' extends [null prototype]';
  else if (ObjectGetPrototypeOf(cls).name) base += ` extends ${ObjectGetPrototypeOf(cls).name}`;
  return `[${base}]`;
}

// `Name: message` built from the error's current properties, robust to throwing getters.
function errorHeader(err) {
  try {
    const name = err.name == null ? 'Error' : String(err.name);
    const message = err.message == null ? '' : String(err.message);
    return message === '' ? name : name === '' ? message : `${name}: ${message}`;
  } catch {
    return 'Error';
  }
}

// Rewrites one JSC stack frame (`fn@file:1:2`, `global code@file:1:2`, `fn@[native code]`) in V8 style.
function formatFrame(line) {
  const at = StringPrototypeIndexOf(line, '@');
  let fn = StringPrototypeSlice(line, 0, at);
  const rawLocation = StringPrototypeSlice(line, at + 1);
  let location = internal.sourcePosition ? internal.sourcePosition(rawLocation) : rawLocation;
  if (fn === 'global code' || fn === 'module code') fn = '';
  if (location === '[native code]') location = 'native';
  if (location === '') return `    at ${fn}`;
  return fn === '' ? `    at ${location}` : `    at ${fn} (${location})`;
}

/// The error's stack in Node's format: the `Name: message` line then `    at ...` lines.
function errorStack(err) {
  const header = errorHeader(err);
  let stack;
  try {
    stack = err.stack;
  } catch {}
  if (typeof stack !== 'string' || stack === '') return header;
  // The runtime's own frames (jsbridge:internal/...) are noise for users: leave them out.
  const lines = ArrayPrototypeFilter(
    StringPrototypeSplit(stack, '\n'),
    (l) => l !== '' && !StringPrototypeIncludes(l, '@jsbridge:internal/'),
  );
  if (lines.length === 0) return header;
  if (!ArrayPrototypeEvery(lines, (l) => StringPrototypeIncludes(l, '@'))) return stack;
  return ArrayPrototypeJoin([header, ...ArrayPrototypeMap(lines, formatFrame)], '\n');
}

// Like Node, replaces a run of frames that also appear in the cause's stack with `... n lines matching ...`.
function collapseCauseFrames(ctx, err, frames) {
  let cause;
  try {
    cause = err.cause;
  } catch {}
  if (!(cause instanceof Error)) return frames;
  const causeStack = errorStack(cause);
  const start = StringPrototypeIndexOf(causeStack, '\n    at');
  if (start === -1) return frames;
  const causeFrames = StringPrototypeSplit(StringPrototypeSlice(causeStack, start + 1), '\n');
  for (let i = 0; i < frames.length - 3; i++) {
    const j = ArrayPrototypeIndexOf(causeFrames, frames[i]);
    if (j === -1 || causeFrames.length - j <= 3) continue;
    let len = 1;
    const maxLen = MathMin(frames.length - i, causeFrames.length - j);
    while (len < maxLen && frames[i + len] === causeFrames[j + len]) len++;
    if (len <= 3) continue;
    const note = ctx.stylize(`    ... ${len - 2} lines matching cause stack trace ...`, 'undefined');
    return [...ArrayPrototypeSlice(frames, 0, i + 1), note, ...ArrayPrototypeSlice(frames, i + len - 1)];
  }
  return frames;
}

function formatErrorBase(ctx, err, ctor, tag, keys) {
  const name = err.name != null ? String(err.name) : 'Error';
  let stack = errorStack(err);
  const duplicate = (key) =>
    ArrayPrototypeIncludes(['name', 'message', 'stack'], key) && !ctx.showHidden &&
    StringPrototypeIncludes(stack, String(err[key]));
  const jscExtra = (key) => ArrayPrototypeIncludes(['line', 'column', 'sourceURL'], key) && !isEnumerable(err, key);
  ArrayPrototypeSplice(keys, 0, keys.length, ...ArrayPrototypeFilter(keys, (key) => !duplicate(key) && !jscExtra(key)));
  if ('cause' in err && !ArrayPrototypeIncludes(keys, 'cause')) ArrayPrototypePush(keys, 'cause');
  if (ArrayIsArray(err.errors) && !ArrayPrototypeIncludes(keys, 'errors')) ArrayPrototypePush(keys, 'errors');
  const len = name.length;
  const boundary = stack.length === len || stack[len] === ':' || stack[len] === '\n';
  if (StringPrototypeStartsWith(stack, name) && boundary && (ctor === null || StringPrototypeEndsWith(name, 'Error'))) {
    const p = StringPrototypeSlice(getPrefix(ctor, tag, 'Error'), 0, -1);
    const rest = StringPrototypeSlice(stack, len);
    if (name !== p) stack = StringPrototypeIncludes(p, name) ? p + rest : `${p} [${name}]${rest}`;
  }
  const message = err.message;
  let pos = (message && StringPrototypeIndexOf(stack, message)) || -1;
  if (pos !== -1) pos += message.length;
  const framesStart = StringPrototypeIndexOf(stack, '\n    at', pos);
  if (framesStart === -1) stack = `[${stack}]`;
  else {
    const frames = StringPrototypeSplit(StringPrototypeSlice(stack, framesStart + 1), '\n');
    stack = ArrayPrototypeJoin([StringPrototypeSlice(stack, 0, framesStart), ...collapseCauseFrames(ctx, err, frames)], '\n');
  }
  if (ctx.indentationLvl !== 0) stack = StringPrototypeReplaceAll(stack, '\n', `\n${StringPrototypeRepeat(' ', ctx.indentationLvl)}`);
  return stack;
}

// Node's array grouping: many short entries are laid out in aligned columns.
function groupArrayElements(ctx, output, value) {
  let outputLength = output.length;
  if (ctx.maxArrayLength < output.length) outputLength--;
  const separatorSpace = 2;
  const lengths = [];
  let totalLength = 0;
  let maxLength = 0;
  for (let i = 0; i < outputLength; i++) {
    const len = ctx.colors ? removeColors(output[i]).length : output[i].length;
    ArrayPrototypePush(lengths, len);
    totalLength += len + separatorSpace;
    maxLength = MathMax(maxLength, len);
  }
  const actualMax = maxLength + separatorSpace;
  if (actualMax * 3 + ctx.indentationLvl >= ctx.breakLength || (totalLength / actualMax <= 5 && maxLength > 6)) return output;
  const averageBias = MathSqrt(actualMax - totalLength / output.length);
  const biasedMax = MathMax(actualMax - 3 - averageBias, 1);
  const columns = MathMin(
    MathRound(MathSqrt(2.5 * biasedMax * outputLength) / biasedMax),
    MathFloor((ctx.breakLength - ctx.indentationLvl) / actualMax),
    ctx.compact * 4,
    15,
  );
  if (columns <= 1) return output;
  const columnWidths = [];
  for (let c = 0; c < columns; c++) {
    let width = 0;
    for (let j = c; j < output.length; j += columns) width = MathMax(width, lengths[j] ?? 0);
    ArrayPrototypePush(columnWidths, width + separatorSpace);
  }
  let numeric = true;
  if (value !== undefined) {
    for (let i = 0; i < output.length; i++) {
      if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') numeric = false;
    }
  }
  const grouped = [];
  for (let i = 0; i < outputLength; i += columns) {
    const end = MathMin(i + columns, outputLength);
    let line = '';
    for (let j = i; j < end; j++) {
      const last = j === end - 1;
      const cell = last ? output[j] : `${output[j]}, `;
      const width = columnWidths[j - i] + output[j].length - lengths[j] - (last ? separatorSpace : 0);
      line += numeric ? StringPrototypePadStart(cell, width) : last ? cell : StringPrototypePadEnd(cell, width);
    }
    ArrayPrototypePush(grouped, line);
  }
  if (ctx.maxArrayLength < output.length) ArrayPrototypePush(grouped, output[outputLength]);
  return grouped;
}

function isBelowBreakLength(ctx, output, start, base) {
  let total = output.length + start;
  if (total + output.length > ctx.breakLength) return false;
  for (const entry of output) {
    total += ctx.colors ? removeColors(entry).length : entry.length;
    if (total > ctx.breakLength) return false;
  }
  return base === '' || !StringPrototypeIncludes(base, '\n');
}

function reduceToSingleString(ctx, output, base, braces, type, depth, value) {
  const head = base ? `${base} ` : '';
  if (ctx.compact >= 1) {
    const entries = output.length;
    if (type === ARRAY && entries > 6) output = groupArrayElements(ctx, output, value);
    if (ctx.currentDepth - depth < ctx.compact && entries === output.length) {
      const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
      if (isBelowBreakLength(ctx, output, start, base)) {
        const joined = ArrayPrototypeJoin(output, ', ');
        if (!StringPrototypeIncludes(joined, '\n')) return `${head}${braces[0]} ${joined} ${braces[1]}`;
      }
    }
  }
  const indentation = `\n${StringPrototypeRepeat(' ', ctx.indentationLvl)}`;
  return `${head}${braces[0]}${indentation}  ${ArrayPrototypeJoin(output, `,${indentation}  `)}${indentation}${braces[1]}`;
}

/// Node's util.inspect(value, options).
function inspect(value, options) {
  const ctx = /** @type {Record<string, any>} */ ({
    ...defaultOptions, seen: [], circular: undefined, indentationLvl: 0, currentDepth: 0,
  });
  if (options !== null && typeof options === 'object') {
    for (const key of optionNames) if (options[key] !== undefined) ctx[key] = options[key];
  }
  if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity;
  if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity;
  if (ctx.compact === true) ctx.compact = 3;
  ctx.stylize = ctx.colors ? stylizeWithColor : (s) => s;
  return formatValue(ctx, value, 0);
}
inspect.custom = customInspectSymbol;
inspect.defaultOptions = defaultOptions;

function stylizeWithColor(text, style) {
  const codes = ansi[style];
  return codes ? `\u001b[${codes[0]}m${text}\u001b[${codes[1]}m` : text;
}

const builtInConstructors = new SafeSet(
  ArrayPrototypeFilter(ObjectGetOwnPropertyNames(globalThis), (n) => test(/^[A-Z][a-zA-Z0-9]+$/, n)),
);

// True when the object's toString comes from a built-in prototype (so %s should inspect it).
function hasBuiltInToString(value) {
  if (typeof value.toString !== 'function') return true;
  if (hasOwn(value, 'toString')) return false;
  let holder = value;
  do holder = ObjectGetPrototypeOf(holder); while (holder !== null && !hasOwn(holder, 'toString'));
  const desc = holder && ObjectGetOwnPropertyDescriptor(holder, 'constructor');
  return desc !== undefined && typeof desc.value === 'function' && builtInConstructors.has(desc.value.name);
}

const circularJSONMessage = (() => {
  const cyclic = {};
  cyclic.self = cyclic;
  try {
    JSONStringify(cyclic);
  } catch (e) {
    return StringPrototypeSplit(e.message, '\n')[0];
  }
})();

function stringifyJSON(value) {
  try {
    return `${JSONStringify(value)}`;
  } catch (e) {
    if (e instanceof TypeError && StringPrototypeSplit(e.message, '\n')[0] === circularJSONMessage) return '[Circular]';
    throw e;
  }
}

// Converts one %-directive's argument to text; returns undefined for unknown directives.
function formatDirective(directive, arg, options) {
  const numeric = (toNumber) => (typeof arg === 'bigint' ? `${arg}n` : typeof arg === 'symbol' ? 'NaN' : formatNumber(toNumber(arg)));
  switch (directive) {
    case 's':
      if (typeof arg === 'number') return formatNumber(arg);
      if (typeof arg === 'bigint') return `${arg}n`;
      if (typeof arg !== 'object' || arg === null || !hasBuiltInToString(arg)) return String(arg);
      return inspect(arg, { ...options, depth: 0, colors: false, compact: 3 });
    case 'j': return stringifyJSON(arg);
    case 'd': return numeric(Number);
    case 'i': return numeric(parseInt);
    case 'f': return typeof arg === 'symbol' ? 'NaN' : formatNumber(parseFloat(arg));
    case 'O': return inspect(arg, options);
    case 'o': return inspect(arg, { ...options, showHidden: true, depth: 4 });
    case 'c': return '';
  }
  return undefined;
}

/// Node's util.formatWithOptions(inspectOptions, ...args).
function formatWithOptions(options, ...args) {
  const first = args[0];
  let argIndex = 0;
  let str = '';
  let separator = '';
  if (typeof first === 'string') {
    if (args.length === 1) return first;
    let lastPos = 0;
    for (let i = 0; i < first.length - 1; i++) {
      if (first[i] !== '%') continue;
      const directive = first[++i];
      if (directive === '%') {
        str += StringPrototypeSlice(first, lastPos, i);
        lastPos = i + 1;
      } else if (argIndex + 1 < args.length) {
        const text = formatDirective(directive, args[argIndex + 1], options);
        if (text === undefined) continue;
        argIndex++;
        str += StringPrototypeSlice(first, lastPos, i - 1) + text;
        lastPos = i + 1;
      }
    }
    if (lastPos !== 0) {
      argIndex++;
      separator = ' ';
      str += StringPrototypeSlice(first, lastPos);
    }
  }
  for (; argIndex < args.length; argIndex++) {
    const value = args[argIndex];
    str += separator + (typeof value === 'string' ? value : inspect(value, options));
    separator = ' ';
  }
  return str;
}

/// Text for an uncaught error or rejection: the inspected value (errors show their Node-style stack).
function formatError(err) {
  try {
    return inspect(err);
  } catch {
    try {
      return String(err);
    } catch {
      return '[uninspectable value]';
    }
  }
}

internal.inspect = inspect;
internal.formatWithOptions = formatWithOptions;
internal.format = (...args) => formatWithOptions(undefined, ...args);
internal.formatError = formatError;
internal.errorStack = errorStack;
