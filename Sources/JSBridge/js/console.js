// console.js - the global `console` (Node-style output, one internal.print call per line).

const {
  ArrayFrom, ArrayIsArray, ArrayPrototypeForEach, ArrayPrototypeJoin, ArrayPrototypeMap, ArrayPrototypePush, Error,
  Map, MathFloor, MathMax, Number, NumberPrototypeToFixed, ObjectDefineProperty, ObjectHasOwn, ObjectKeys, SafeMap,
  ReflectApply, Set, String, StringPrototypePadEnd, StringPrototypePadStart, StringPrototypeRepeat, StringPrototypeReplaceAll,
  StringPrototypeSlice, StringPrototypeSplit, SymbolToStringTag,
} = internal.primordials;

const STDOUT = 1;
const STDERR = 2;
let groupIndent = '';
const timers = new SafeMap();
const counts = new SafeMap();

// Writes one formatted line (indented for console.group) to fd.
function write(fd, text) {
  if (groupIndent !== '') text = groupIndent + StringPrototypeReplaceAll(text, '\n', `\n${groupIndent}`);
  internal.print(fd, `${text}\n`);
}

// With a debugger on (--inspect), each message also goes to the engine's console, which the debugger hears.
const engineConsole = internal.engineConsole;
const logTo = (fd, method) => (...args) => {
  write(fd, internal.format(...args));
  if (engineConsole !== undefined) ReflectApply(engineConsole[method], engineConsole, args);
};
const warning = (message) => write(STDERR, `Warning: ${message}`);

// Node's console.time format: 1.234ms, 1.234s, 1:02.345 (m:ss.mmm), 1:02:03.456 (h:mm:ss.mmm).
function formatDuration(ms) {
  if (ms < 1000) return `${Number(NumberPrototypeToFixed(ms, 3))}ms`;
  if (ms < 60000) return `${NumberPrototypeToFixed(ms / 1000, 3)}s`;
  const hours = MathFloor(ms / 3600000);
  const minutes = MathFloor((ms % 3600000) / 60000);
  const [seconds, millis] = StringPrototypeSplit(NumberPrototypeToFixed((ms % 60000) / 1000, 3), '.');
  const pad = (n) => StringPrototypePadStart(String(n), 2, '0');
  if (hours === 0) return `${minutes}:${pad(seconds)}.${millis} (m:ss.mmm)`;
  return `${hours}:${pad(minutes)}:${pad(seconds)}.${millis} (h:mm:ss.mmm)`;
}

function elapsed(label, method) {
  const start = timers.get(label);
  if (start === undefined) warning(`No such label '${label}' for console.${method}()`);
  return start === undefined ? undefined : formatDuration(internal.now() - start);
}

// Node's console.table layout: a box-drawn grid with an index column.
function renderTable(head, columns) {
  const rowCount = MathMax(...ArrayPrototypeMap(columns, (c) => c.length));
  const rows = ArrayFrom({ length: rowCount }, (_, r) => ArrayPrototypeMap(columns, (c) => (ObjectHasOwn(c, r) ? c[r] : '')));
  const widths = ArrayPrototypeMap(head, (h, i) => MathMax(h.length, ...ArrayPrototypeMap(rows, (row) => row[i].length)) + 2);
  const line = (l, m, r) => l + ArrayPrototypeJoin(ArrayPrototypeMap(widths, (w) => StringPrototypeRepeat('\u2500', w)), m) + r;
  const render = (cells) =>
    `\u2502${ArrayPrototypeJoin(ArrayPrototypeMap(cells, (cell, i) => StringPrototypePadEnd(` ${cell}`, widths[i])), '\u2502')}\u2502`;
  const lines = [line('\u250c', '\u252c', '\u2510'), render(head), line('\u251c', '\u253c', '\u2524')];
  for (const row of rows) ArrayPrototypePush(lines, render(row));
  ArrayPrototypePush(lines, line('\u2514', '\u2534', '\u2518'));
  return ArrayPrototypeJoin(lines, '\n');
}

function table(data, properties) {
  if (data === null || typeof data !== 'object') return console.log(data);
  const cell = (v) => {
    const small = v === null || typeof v !== 'object' || ArrayIsArray(v) || ObjectKeys(v).length <= 2;
    return internal.inspect(v, { depth: small ? 0 : -1, maxArrayLength: 3, breakLength: Infinity });
  };
  const indexes = (n) => ArrayFrom({ length: n }, (_, i) => cell(i));
  if (data instanceof Map) {
    const entries = ArrayFrom(data);
    const keys = ArrayPrototypeMap(entries, ([k]) => cell(k));
    const values = ArrayPrototypeMap(entries, ([, v]) => cell(v));
    return write(STDOUT, renderTable(['(iteration index)', 'Key', 'Values'], [indexes(entries.length), keys, values]));
  }
  if (data instanceof Set) {
    const values = ArrayFrom(data, cell);
    return write(STDOUT, renderTable(['(iteration index)', 'Values'], [indexes(values.length), values]));
  }
  const columns = new SafeMap();
  const primitives = [];
  const rowKeys = ObjectKeys(data);
  ArrayPrototypeForEach(rowKeys, (rowKey, row) => {
    const item = data[rowKey];
    const primitive = item === null || (typeof item !== 'object' && typeof item !== 'function');
    if (properties === undefined && primitive) {
      primitives[row] = cell(item);
      return;
    }
    for (const key of properties || ObjectKeys(item)) {
      if (!columns.has(key)) columns.set(key, []);
      columns.get(key)[row] = primitive || !ObjectHasOwn(item, key) ? '' : cell(item[key]);
    }
  });
  const head = ['(index)', ...columns.keys()];
  const body = [rowKeys, ...columns.values()];
  if (primitives.length > 0) {
    ArrayPrototypePush(head, 'Values');
    ArrayPrototypePush(body, primitives);
  }
  write(STDOUT, renderTable(head, body));
}

const console = {
  log: logTo(STDOUT, 'log'),
  info: logTo(STDOUT, 'info'),
  debug: logTo(STDOUT, 'debug'),
  dirxml: logTo(STDOUT, 'dirxml'),
  warn: logTo(STDERR, 'warn'),
  error: logTo(STDERR, 'error'),
  trace(...args) {
    const err = new Error(internal.format(...args));
    err.name = 'Trace';
    const [header, , ...frames] = StringPrototypeSplit(internal.errorStack(err), '\n');
    write(STDERR, ArrayPrototypeJoin([header, ...frames], '\n'));
  },
  assert(condition, ...args) {
    if (condition) return;
    args[0] = args.length === 0 ? 'Assertion failed' : `Assertion failed: ${args[0]}`;
    console.warn(...args);
  },
  dir(value, options) {
    write(STDOUT, internal.inspect(value, { customInspect: false, ...options }));
  },
  time(label = 'default') {
    label = `${label}`;
    if (timers.has(label)) return warning(`Label '${label}' already exists for console.time()`);
    timers.set(label, internal.now());
  },
  timeLog(label = 'default', ...data) {
    label = `${label}`;
    const duration = elapsed(label, 'timeLog');
    if (duration !== undefined) console.log('%s: %s', label, duration, ...data);
  },
  timeEnd(label = 'default') {
    label = `${label}`;
    const duration = elapsed(label, 'timeEnd');
    if (duration === undefined) return;
    timers.delete(label);
    console.log('%s: %s', label, duration);
  },
  count(label = 'default') {
    label = `${label}`;
    const n = (counts.get(label) || 0) + 1;
    counts.set(label, n);
    console.log(`${label}: ${n}`);
  },
  countReset(label = 'default') {
    label = `${label}`;
    if (!counts.has(label)) return warning(`Count for '${label}' does not exist`);
    counts.delete(label);
  },
  group(...labels) {
    if (labels.length > 0) console.log(...labels);
    groupIndent += '  ';
  },
  groupEnd() {
    groupIndent = StringPrototypeSlice(groupIndent, 0, -2);
  },
  table,
};
console.groupCollapsed = console.group;
ObjectDefineProperty(console, SymbolToStringTag, { value: 'console', configurable: true });

internal.console = console;
internal.defineGlobal('console', console);
