// Runs the runtime's JS files (primordials first, then inspect, console, encoding, events, url,
// structured-clone) in a sandbox and compares them with Node's own implementations. Run with `node --test js/test/`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import util from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import url, { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// The host's files, then the web extension's.
const runtimeFiles = [
  'Sources/JSBridge/js/primordials', 'Sources/JSBridge/js/inspect', 'Sources/JSBridge/js/console',
  'Extensions/Web/js/encoding', 'Extensions/Web/js/events', 'Extensions/Web/js/url', 'Extensions/Web/js/structured-clone',
];

// Evaluates the runtime files the way the engine does, with a fake `internal` and a private globals object.
function loadRuntime() {
  const decode = (name, fatal, buffer, offset, length) => {
    try {
      return new TextDecoder(name, { fatal, ignoreBOM: true }).decode(new Uint8Array(buffer, offset, length));
    } catch {
      return null;
    }
  };
  const output = [];
  const globals = {};
  const uncaught = [];
  const internal = {
    print: (fd, text) => output.push({ fd, text }),
    now: () => performance.now(),
    defineGlobal: (name, value) => { globals[name] = value; },
    reportUncaught: (error, kind) => uncaught.push({ error, kind }),
    // The web extension's natives (Extensions/Web/EncodingNatives.swift), stood in for by Node's own.
    textDecodeUTF8: (buffer, offset, length, fatal) => decode('utf-8', fatal, buffer, offset, length),
    textDecodeUTF16: (buffer, offset, length, bigEndian, fatal) =>
      decode(bigEndian ? 'utf-16be' : 'utf-16le', fatal, buffer, offset, length),
    textDecoderOpen: (name, fatal) => ({ decoder: new TextDecoder(name, { fatal }) }),
    textDecode: (handle, buffer, offset, length, flush) => {
      try {
        return handle.decoder.decode(new Uint8Array(buffer, offset, length), { stream: !flush });
      } catch {
        return null;
      }
    },
    textEncodeInto: (string, buffer, offset, length) => {
      const { read, written } = new TextEncoder().encodeInto(string, new Uint8Array(buffer, offset, length));
      return [read, written];
    },
    textEncodeUTF8: (string) => new TextEncoder().encode(string).buffer,
    textBase64Encode: (buffer, offset, length, url) =>
      Buffer.from(buffer, offset, length).toString(url ? 'base64url' : 'base64'),
    textBase64Decode: (text) => {
      const bytes = Buffer.from(text, 'base64');
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    },
    domainToASCII: (domain) => url.domainToASCII(domain) || null,
  };
  for (const name of runtimeFiles) {
    const source = fs.readFileSync(path.join(root, `${name}.js`), 'utf8');
    new Function('internal', `"use strict";\n${source}`)(internal);
  }
  return { internal, globals, output, uncaught };
}

const { internal, globals, output, uncaught } = loadRuntime();
const takeOutput = () => output.splice(0).map(({ fd, text }) => `${fd}|${text}`).join('');

// A Node console writing into a string, for comparing console output.
function nodeConsole() {
  let text = '';
  const stream = (fd) => new Writable({ write(chunk, _encoding, done) { text += `${fd}|${chunk}`; done(); } });
  const console = new Console({ stdout: stream(1), stderr: stream(2), colorMode: false });
  return { console, take: () => { const t = text; text = ''; return t; } };
}

describe('inspect', () => {
  const circular = { name: 'root' };
  circular.self = circular;
  circular.list = [circular, { back: circular }];
  const a = { name: 'a' };
  const b = { a };
  a.b = b;
  const selfMap = new Map();
  selfMap.set('me', selfMap);
  class Foo { constructor() { this.x = 1; } }
  class Empty {}
  class FooMap extends Map {}
  const cases = {
    primitives: [1, -0, 1n, NaN, Infinity, 'str', "it's", `"'`, '`"\'', 'a\nb\x00\x85\ud83d\t', Symbol('x'), undefined, null, true],
    nested: { a: { b: { c: { d: 1 } } }, arr: [[[[1]]]], e: {}, f: [] },
    longValues: { a: 'x'.repeat(60), b: 'y'.repeat(20) },
    sevenNumbers: [1, 2, 3, 4, 5, 6, 7],
    manyNumbers: Array.from({ length: 27 }, (_, i) => i + 1),
    moreThanMax: Array.from({ length: 120 }, (_, i) => i),
    strings: ['a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffff', 'ggggggg', 'hhhhhhhh'],
    mixedNumbers: [1.5, 22.25, 333, -4, 5e21, 6, 7, 8],
    growing: Array.from({ length: 8 }, (_, i) => 'v'.repeat(i * 3)),
    holes: [[1, , 3], new Array(5), [, , 1, , ,]],
    arrayKeys: Object.assign([1, 2], { x: 1 }),
    eightKeys: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8 },
    keys: { 'a-b': 1, [Symbol('s')]: 2, get g() { return 1; }, set s(v) {}, get gs() { return 1; }, set gs(v) {}, '0': 1, __proto__x: 1 },
    boxed: [new Number(3), new String('ab'), Object(Symbol('q')), Object(1n), new Boolean(false)],
    functions: { f: function () {}, g: function named() {}, h: class {}, i: Math.max, j: class A extends Map {}, k: async () => {}, l: function* () {}, m: async function* () {}, n: Object.assign(() => {}, { a: 1 }) },
    buffers: [new ArrayBuffer(3), new Float64Array([1.5, -0]), new Uint8Array(0), new Uint8Array(200), new BigInt64Array([1n, -2n]), new DataView(new ArrayBuffer(2)), new Uint16Array(30)],
    nullPrototype: [Object.create(null), Object.assign(Object.create(null), { a: 1 }), Object.create(Object.create(null))],
    builtins: [/a\/b/gi, new Date(NaN), new Date(0), Object.assign(/x/, { a: 1 }), new Map([[1, { a: 1 }], ['k', [1, 2]]]), new Set([1, 'a']), new WeakMap(), new WeakSet(), new Map(), new Set()],
    bigSet: new Set(Array.from({ length: 30 }, (_, i) => `item${i}`)),
    nestedCollections: new Map([[{ a: 1 }, new Map([[1, new Set([[1]])]])]]),
    classes: [new Foo(), new Empty(), new FooMap([[1, 2]])],
    tagged: [{ [Symbol.toStringTag]: 'Tagged', a: 1 }, Object.create({ [Symbol.toStringTag]: 'Proto' })],
    deepEmpty: [{ a: { b: { c: {} } } }, { a: { b: { c: [] } } }, { a: { b: { c: new Map([[1, 2]]) } } }, { a: { b: { c: [1] } } }],
    records: Array.from({ length: 10 }, (_, i) => ({ id: i, name: `name${i}` })),
    longString: 'x'.repeat(10010),
    symbolKeys: { [Symbol.iterator]: 1, [Symbol('a\nb')]: 2 },
    customInspect: { [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) { return `CUSTOM ${depth} ${inspect({ x: [1] }, options)}`; } },
    customReplacement: { a: { [Symbol.for('nodejs.util.inspect.custom')]() { return { replaced: true }; } } },
    circular,
    mutual: [a, b],
    selfMap,
  };
  const optionSets = [undefined, { depth: 0 }, { depth: Infinity }, { depth: null }, { breakLength: 40 }, { breakLength: Infinity },
    { compact: 1 }, { compact: false }, { maxArrayLength: 3 }, { maxStringLength: 4 }, { sorted: true }, { colors: true }];
  for (const [name, value] of Object.entries(cases)) {
    test(name, () => {
      for (const options of optionSets) {
        assert.equal(internal.inspect(value, options), util.inspect(value, options), `options ${util.inspect(options)}`);
      }
    });
  }

  test('errors with V8 stacks match util.inspect', () => {
    const typeError = Object.assign(new TypeError('bad'), { code: 'X' });
    class MyError extends Error {}
    const noStack = new Error('nostack');
    noStack.stack = '';
    const renamed = new Error('x');
    renamed.name = 'CustomError';
    const errors = [new Error('boom'), typeError, new MyError('mine'), new Error('outer', { cause: typeError }), noStack,
      renamed, Object.assign(new RangeError('r'), { extra: { deep: { deeper: { deepest: 1 } } } }),
      new AggregateError([new Error('a')], 'agg'), { nested: { err: typeError, arr: [new Error('in array')] } }];
    for (const err of errors) {
      for (const options of [undefined, { depth: 0 }]) assert.equal(internal.inspect(err, options), util.inspect(err, options));
    }
  });

  test('JSC stacks are rewritten in Node style', () => {
    const jscError = (message, stack, props = {}) => {
      const err = new Error(message);
      Object.defineProperty(err, 'stack', { value: stack, configurable: true, writable: true });
      return Object.assign(err, props);
    };
    const err = jscError('boom', 'inner@/app/main.js:1:35\nforEach@[native code]\nglobal code@/app/main.js:3:12');
    const expected = 'Error: boom\n    at inner (/app/main.js:1:35)\n    at forEach (native)\n    at /app/main.js:3:12';
    assert.equal(internal.errorStack(err), expected);
    assert.equal(internal.inspect(err), expected);
    assert.equal(internal.formatError(err), expected);
    assert.equal(internal.inspect(jscError('x', 'f@a.js:1:1', { code: 'E_X' })), "Error: x\n    at f (a.js:1:1) {\n  code: 'E_X'\n}");
    assert.equal(internal.inspect({ e: jscError('x', 'global code@a.js:1:1') }), '{\n  e: Error: x\n      at a.js:1:1\n}');
    assert.equal(internal.inspect(jscError('no frames', '')), '[Error: no frames]');
    class HttpError extends Error {}
    assert.equal(internal.inspect(Object.setPrototypeOf(jscError('x', 'eval code@'), HttpError.prototype)), 'HttpError: x\n    at eval code');
    const withCause = jscError('outer', 'f@a.js:1:1', { cause: jscError('inner', 'g@b.js:2:2') });
    assert.equal(internal.inspect(withCause), 'Error: outer\n    at f (a.js:1:1) {\n  cause: Error: inner\n      at g (b.js:2:2)\n}');
    assert.equal(internal.formatError('thrown string'), "'thrown string'");
    assert.equal(internal.formatError({ a: 1 }), '{ a: 1 }');
    const hostile = { get [Symbol.for('nodejs.util.inspect.custom')]() { throw new Error('no'); }, toString: () => 'hostile' };
    assert.equal(internal.formatError(hostile), 'hostile');
  });

  test('format matches util.format', () => {
    const cyclic = {};
    cyclic.self = cyclic;
    const argLists = [
      ['%s %d %i %f %j %%', 'a', 1.5, 2.7, '3.5', { a: 1 }], ['%s', { a: { b: { c: 1 } } }], ['%s', [1, [2, [3]]]], ['%s', new Date(0)],
      ['%s', -0], ['%s', 1n], ['%s', Symbol('s')], ['%s', null], ['%s', undefined], ['%s', { toString() { return 'custom'; } }],
      ['%s', new (class X { toString() { return 'X!'; } })()], ['%s', new (class Y {})()], ['%d', '42'], ['%d', {}], ['%i', 42.9],
      ['%d', 5n], ['%i', Symbol('i')], ['%f', 'abc'], ['%o', { a: [1, 2] }], ['%O', { a: { b: { c: { d: 1 } } } }], ['%c styled', 'color: red'],
      ['%x %s', 1], ['%s'], ['no args %s'], ['%s %s', 'only'], ['%j', cyclic], ['%j', undefined], [1, 2, 'three', { four: 4 }],
      ['a', 'b', 'c'], ['%%'], ['%% %s', 'x'], ['%', 1], ['trailing %', 1], ['%s:%s', 'a'], [{ a: 1 }, '%s', 'x'], [], ['%o', [1, [2]]],
      ['x%sy%sz', 1, 2, 3],
    ];
    for (const args of argLists) assert.equal(internal.format(...args), util.format(...args), util.inspect(args));
    assert.equal(internal.formatWithOptions({ depth: 0 }, { a: { b: 1 } }), util.formatWithOptions({ depth: 0 }, { a: { b: 1 } }));
  });
});

describe('console', () => {
  test('output matches a Node console', () => {
    const node = nodeConsole();
    const script = (console) => {
      console.log('%s has %d items', 'list', 3, { extra: true });
      console.info([1, 2, 3]);
      console.debug('debug');
      console.warn('warn', new Map([[1, 2]]));
      console.error({ error: 'x' });
      console.assert(false, { a: 1 });
      console.assert(false);
      console.assert(false, 'x %s', 'y', 2);
      console.assert(true, 'hidden');
      console.table([{ a: 1, b: 'xx' }, { a: 22, c: true }]);
      console.table([1, 'ab']);
      console.table(new Map([['k', { a: 1, b: 2, c: 3 }]]));
      console.table(new Set(['s']));
      console.table([[1, 2], [3]]);
      console.table({ x: { a: 1 }, y: 2 }, ['a']);
      console.table('not tabular');
      console.group('Group');
      console.log('a\nb');
      console.group();
      console.error({ a: 1 });
      console.groupEnd();
      console.groupEnd();
      console.log('end');
      console.count();
      console.count();
      console.count('x');
      console.countReset('x');
      console.count('x');
      console.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 });
      console.dir({ [Symbol.for('nodejs.util.inspect.custom')]: () => 'custom' });
    };
    script(globals.console);
    script(node.console);
    assert.equal(takeOutput(), node.take());
  });

  test('timers, warnings and trace', () => {
    const { console } = globals;
    console.time('t');
    console.timeLog('t', { x: 1 });
    console.timeEnd('t');
    console.timeEnd('t');
    console.time();
    console.time();
    console.countReset('missing');
    const lines = takeOutput().split('\n');
    assert.match(lines[0], /^1\|t: \d+(\.\d+)?ms \{ x: 1 \}$/);
    assert.match(lines[1], /^1\|t: \d+(\.\d+)?ms$/);
    assert.deepEqual(lines.slice(2), [
      "2|Warning: No such label 't' for console.timeEnd()",
      "2|Warning: Label 'default' already exists for console.time()",
      "2|Warning: Count for 'missing' does not exist",
      '',
    ]);
    (function caller() { console.trace('here %d', 1); })();
    const trace = takeOutput();
    assert.match(trace, /^2\|Trace: here 1\n    at caller \(/);
    assert.equal(output.length, 0);
  });

  test('each call prints once, with a trailing newline', () => {
    const before = output.length;
    globals.console.log('a\nb', { c: 1 });
    assert.equal(output.length, before + 1);
    assert.deepEqual(output.pop(), { fd: 1, text: 'a\nb { c: 1 }\n' });
  });
});

describe('encoding', () => {
  const { TextEncoder: Encoder, TextDecoder: Decoder, btoa: toBase64, atob: fromBase64 } = globals;
  const strings = ['', 'ascii', 'héllo', '€', '😀', 'a\ud800b', '\udc00', '\ud83d', `${'x'.repeat(20000)}é`, '\u0000\u007f\u0080\u07ff\u0800\uffff', '\ufeffbom'];
  const byteCases = [[0x68, 0x69], [0xef, 0xbb, 0xbf, 0x41], [0xc3, 0xa9], [0xc3], [0xe2, 0x82], [0xe2, 0x82, 0xac], [0xf0, 0x9f, 0x98, 0x80],
    [0xf0, 0x9f, 0x98], [0xff, 0xfe, 0x41], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe0, 0x80, 0x80], [0x80, 0x41],
    [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x41, 0x82, 0xac], [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]];
  const attempt = (f) => { try { return f(); } catch (e) { return `${e.constructor.name}:${e.name}`; } };

  test('TextEncoder.encode and encodeInto', () => {
    assert.equal(new Encoder().encoding, 'utf-8');
    for (const s of strings) {
      assert.deepEqual(new Encoder().encode(s), new TextEncoder().encode(s));
      for (const size of [0, 1, 2, 3, 4, 5, 10]) {
        const mine = new Uint8Array(size);
        const theirs = new Uint8Array(size);
        assert.deepEqual(new Encoder().encodeInto(s, mine), new TextEncoder().encodeInto(s, theirs));
        assert.deepEqual(mine, theirs);
      }
    }
  });

  test('TextDecoder.decode, including streaming at every split point', () => {
    for (const bytes of byteCases) {
      for (const options of [{}, { ignoreBOM: true }, { fatal: true }]) {
        const whole = (D) => attempt(() => new D('utf-8', options).decode(new Uint8Array(bytes)));
        assert.equal(whole(Decoder), whole(TextDecoder), `${bytes} ${util.inspect(options)}`);
        for (let split = 0; split <= bytes.length; split++) {
          const twoChunks = (D) => attempt(() => {
            const decoder = new D('utf-8', options);
            return `${decoder.decode(new Uint8Array(bytes.slice(0, split)), { stream: true })}|${decoder.decode(new Uint8Array(bytes.slice(split)))}`;
          });
          const byteByByte = (D) => attempt(() => {
            const decoder = new D('utf-8', options);
            return `${bytes.map((b) => decoder.decode(new Uint8Array([b]), { stream: true })).join('|')}|${decoder.decode()}`;
          });
          assert.equal(twoChunks(Decoder), twoChunks(TextDecoder));
          assert.equal(byteByByte(Decoder), byteByByte(TextDecoder));
        }
      }
    }
    const big = new TextEncoder().encode('abc'.repeat(10000) + '😀'.repeat(5000));
    assert.equal(new Decoder().decode(big), new TextDecoder().decode(big));
    assert.equal(new Decoder().decode(big.buffer.slice(0, 3)), 'abc');
    assert.equal(new Decoder().decode(new DataView(big.buffer, 1, 2)), 'bc');
    assert.equal(new Decoder().decode(), '');
  });

  test('TextDecoder labels', () => {
    for (const label of ['utf8', ' UTF-8 ', 'unicode-1-1-utf-8']) assert.equal(new Decoder(label).encoding, 'utf-8');
    assert.deepEqual(['latin1', 'utf-16le'].map((label) => new Decoder(label).encoding), ['windows-1252', 'utf-16le']);
    for (const label of ['nope', '\vutf-8', 'utf-8\u00a0', 'replacement']) assert.throws(() => new Decoder(label), RangeError);
    const decoder = new Decoder('utf-8', { fatal: true, ignoreBOM: true });
    assert.deepEqual([decoder.fatal, decoder.ignoreBOM], [true, true]);
  });

  test('btoa and atob', () => {
    for (const s of ['', 'a', 'ab', 'abc', 'abcd', '\u00ff\u00fe', 'hello world!', '\u0000']) assert.equal(toBase64(s), btoa(s));
    for (const s of ['', 'YQ==', 'YQ', 'YWI=', ' Y W I = ', 'YWJj', 'Y', 'YQ=', 'YQ===', 'Y!Q=', 'aGVsbG8gd29ybGQh', '/+8=', 'AA==']) {
      assert.equal(attempt(() => fromBase64(s)), attempt(() => atob(s)), s);
    }
    assert.equal(attempt(() => toBase64('€')), attempt(() => btoa('€')));
    assert.throws(() => toBase64('€'), (e) => e instanceof globals.DOMException && e.name === 'InvalidCharacterError' && e.code === 5);
  });
});

describe('events', () => {
  // The same scenario against this runtime's classes and Node's; the logs must be equal.
  const scenario = ({ EventTarget, Event, CustomEvent, AbortController, AbortSignal, DOMException }) => {
    const log = [];
    const t = new EventTarget();
    const f = (e) => log.push(['f', e.type, e.eventPhase, e.target === t, e.currentTarget === t, this]);
    t.addEventListener('x', f);
    t.addEventListener('x', f);
    t.addEventListener('x', { handleEvent(e) { log.push(['object', e.type]); } });
    t.addEventListener('x', () => log.push('once'), { once: true });
    const controller = new AbortController();
    t.addEventListener('x', () => log.push('signal'), { signal: controller.signal });
    log.push(t.dispatchEvent(new Event('x')));
    controller.abort();
    log.push(t.dispatchEvent(new Event('x')));
    t.removeEventListener('x', f);
    log.push(t.dispatchEvent(new Event('x')));
    t.addEventListener('c', (e) => { e.preventDefault(); log.push(['c', e.defaultPrevented]); });
    log.push(t.dispatchEvent(new Event('c', { cancelable: true })), t.dispatchEvent(new Event('c')));
    t.addEventListener('s', (e) => { e.stopImmediatePropagation(); log.push('s1'); });
    t.addEventListener('s', () => log.push('s2'));
    t.dispatchEvent(new Event('s'));
    const e = new Event('p', { bubbles: true });
    log.push([e.type, e.bubbles, e.cancelable, e.composed, e.eventPhase, e.isTrusted, e.defaultPrevented, e.target, Event.AT_TARGET, typeof e.timeStamp]);
    log.push(new CustomEvent('d', { detail: { x: 1 } }).detail, new CustomEvent('d').detail);
    const c = new AbortController();
    const signal = c.signal;
    let reason;
    signal.onabort = (ev) => log.push(['onabort', ev.type, ev.isTrusted]);
    signal.addEventListener('abort', () => { reason = signal.reason; });
    log.push(signal.aborted);
    c.abort();
    c.abort('again');
    log.push([signal.aborted, reason instanceof DOMException, reason.name, reason.message, reason.code]);
    try { signal.throwIfAborted(); } catch (err) { log.push(['thrown', err === reason]); }
    const already = AbortSignal.abort('why');
    log.push([already.aborted, already.reason]);
    const a1 = new AbortController();
    const a2 = new AbortController();
    const any = AbortSignal.any([a1.signal, a2.signal]);
    const anyOfAny = AbortSignal.any([any]);
    const anyLog = [];
    any.addEventListener('abort', () => anyLog.push('any'));
    anyOfAny.addEventListener('abort', () => anyLog.push('anyOfAny'));
    a2.abort('r2');
    a1.abort('r1');
    log.push([any.aborted, any.reason, anyOfAny.reason, anyLog, AbortSignal.any([AbortSignal.abort(3)]).reason]);
    const d = new DOMException('m', 'TimeoutError');
    log.push([d.name, d.message, d.code, d instanceof Error, DOMException.ABORT_ERR, DOMException.DATA_CLONE_ERR, new DOMException().name, new DOMException('x', 'Custom').code]);
    try { new AbortSignal(); } catch (err) { log.push(err.constructor.name); }
    try { t.dispatchEvent({ type: 'x' }); } catch (err) { log.push(err.constructor.name); }
    return log;
  };

  test('EventTarget, Event, AbortController and AbortSignal behave like Node', () => {
    assert.deepEqual(scenario(internal), scenario(globalThis));
  });

  test('inspect output', () => {
    assert.equal(internal.inspect(new globals.AbortController()), util.inspect(new AbortController()));
    assert.equal(internal.inspect(globals.AbortSignal.abort()), util.inspect(AbortSignal.abort()));
    const mine = internal.inspect(new globals.DOMException('This operation was aborted', 'AbortError')).split('\n')[0];
    assert.equal(mine, util.inspect(new DOMException('This operation was aborted', 'AbortError')).split('\n')[0]);
  });

  test('a throwing listener is reported and dispatch continues', () => {
    const t = new globals.EventTarget();
    const calls = [];
    t.addEventListener('x', () => { throw new Error('listener failed'); });
    t.addEventListener('x', () => calls.push('second'));
    t.dispatchEvent(new globals.Event('x'));
    assert.deepEqual(calls, ['second']);
    const { error, kind } = uncaught.pop();
    assert.deepEqual([error.message, kind], ['listener failed', 'exception']);
  });

  test('AbortSignal.timeout aborts with a TimeoutError', async () => {
    const keepAlive = setTimeout(() => {}, 1000); // the signal's own timer is unref'd
    const signal = globals.AbortSignal.timeout(5);
    await new Promise((resolve) => signal.addEventListener('abort', resolve));
    clearTimeout(keepAlive);
    assert.deepEqual([signal.reason.name, signal.reason.message, signal.reason.code], ['TimeoutError', 'The operation was aborted due to timeout', 23]);
  });
});

describe('URL', () => {
  const { URL: MyURL, URLSearchParams: MyParams } = globals;
  const fields = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'];
  const snapshot = (Ctor, ...args) => {
    try {
      const url = new Ctor(...args);
      return Object.fromEntries(fields.map((f) => [f, url[f]]));
    } catch (e) {
      return e.constructor.name;
    }
  };
  const absolute = [
    'http://example.com', 'HTTP://EXAMPLE.COM:80/a/b?c#d', 'https://user:pa ss@host.com:8443/p/a/t/h?query=str ing#hash',
    'http://a/b/c/./../d', 'http://a/%2e%2E/b', 'http://a/b/..', 'ws://x:80', 'wss://x:443/', 'ftp://x:21/', 'ftp://x:22/',
    'file:///etc/passwd', 'file://localhost/x', 'file://host/C:/x', 'file:///C|/x/../..', 'file:c:\\foo\\bar', 'file:/x', 'file:x',
    'mailto:a b ?x#y', 'sc:a b', 'sc://host/path', 'sc://ho st/', 'sc://[::1]/', 'sc:/a/../b', 'data:text/plain,hi there', 'javascript:alert(1)',
    'http://[::ffff:1.2.3.4]/', 'http://0x7f.1/', 'http://[1:0:0:2::3:0]', 'http://[::]', 'http://[1:2:3:4:5:6:7:8]/', 'http://[1::]/',
    'http://[::1:2]', 'http://[1:2:3:4:5:6:7:8:9]/', 'http://[g::]/', 'http://256.0.0.1/', 'http://1.2.3.4.5/', 'http://0300.0250.0.1/',
    'http://4294967295/', 'http://4294967296/', 'http://a.b.c.1.2/', 'http://foo.09/', 'http://foo.0x/', 'http://münchen.de/',
    'http://ＥＸＡＭＰＬＥ.com/', 'http://a。b/', 'http://xn--nxasmq6b.com/', 'http://bücher.例え.テスト/', 'http://a b/', 'http://a<b/',
    'http://%41.com/', 'http://%zz/', 'http://a:b@/', 'http://@host/', 'http://:pass@host/', 'http://u@h@x/', 'http://a:99999/', 'http://a:0/',
    'http://a:/', 'http:\\\\host\\path\\x', 'http:/host/x', 'http:host', "https://host/a b/\"<>`{}|^'", "https://host/?a b\"<>'`{}#f \"<>`{}",
    "sc://host/?'", 'http://h/\u00e9?\u00e9#\u00e9', 'http://h/\ud83d\ude00', '  \t http://h/\n path \t ', 'http://h/%00%zz%',
    'non-spec:/.//p', 'non-spec:/..//p', 'http://h/./././', 'http://h/a/b/c/../../../../', 'blob:https://a.com/uuid', 'blob:file:///x',
    'a:', '', ':', 'http://', 'http:', '//x', '1http://x', 'h\u00e9://x', 'HTTPS://a/', 'http://h?#', 'http://h/?a=1&b=2#',
    'http://EXAMPLE.com./', 'http://h:8080', 'http://[0:0:0:0:0:ffff:7f00:1]/', 'http://[::127.0.0.1]', 'http://[1:2::3:4:5:6:7]/',
    'http://[::1.2.3]/', 'http://[::1.2.3.4.5]/',
  ];
  const relative = [
    ['g', 'http://a/b/c/d;p?q'], ['./g', 'http://a/b/c/d;p?q'], ['g/', 'http://a/b/c/d;p?q'], ['/g', 'http://a/b/c/d;p?q'],
    ['//g', 'http://a/b/c/d;p?q'], ['?y', 'http://a/b/c/d;p?q'], ['g?y', 'http://a/b/c/d;p?q'], ['#s', 'http://a/b/c/d;p?q'],
    ['g#s', 'http://a/b/c/d;p?q'], ['', 'http://a/b/c/d;p?q'], ['.', 'http://a/b/c/d;p?q'], ['..', 'http://a/b/c/d;p?q'],
    ['../..', 'http://a/b/c/d;p?q'], ['../../../g', 'http://a/b/c/d;p?q'], ['/./g', 'http://a/b/c/d;p?q'], ['g.', 'http://a/b/c/d;p?q'],
    ['..g', 'http://a/b/c/d;p?q'], ['g;x=1/../y', 'http://a/b/c/d;p?q'], ['http:g', 'http://a/b/c/d;p?q'], ['https:g', 'http://a/b/c/d;p?q'],
    ['\\\\x\\y', 'http://a/b'], ['x', 'file:///C:/a/b'], ['..', 'file:///C:/a'], ['/x', 'file:///C:/a'], ['C|/x', 'file:///D:/a'],
    ['//host/x', 'file:///a'], ['?q', 'file:///a/b'], ['x', 'sc:opaque'], ['#f', 'sc:opaque'], ['x', 'sc://h/a/b'], ['../x', 'sc://h/a/b'],
    ['x', 'invalid base'], ['https://other/', 'http://a/'], ['//other:81/x', 'https://a/'], ['path', 'non-spec:/p'], ['?x', 'mailto:a'],
    ['a', 'http://h'], ['/', 'wss://h:1/x'],
  ];

  test('parsing absolute URLs', () => {
    for (const input of absolute) assert.deepEqual(snapshot(MyURL, input), snapshot(URL, input), JSON.stringify(input));
  });

  test('resolving relative URLs', () => {
    for (const [input, base] of relative) assert.deepEqual(snapshot(MyURL, input, base), snapshot(URL, input, base), `${input} against ${base}`);
  });

  test('setters', () => {
    const values = {
      protocol: ['https', 'ftp:', 'file', 'sc', 'HTTP', 'ws:x', '1x'], username: ['us er', 'a@b:c', ''], password: ['p:w@', ''],
      host: ['example.org:81', 'x:80', '[::1]:8', 'bad host', '', 'h:99999', 'new/path', 'a\\b'], hostname: ['new', 'x:81', '', '[::2]'],
      port: ['8080', '80', 'abc', '12abc', '', '99999', '-1'], pathname: ['/a b/c', 'x/../y', '', '/%2e/', '\\a'],
      search: ['?a=b c', 'x=1#y', '', '?'], hash: ['#frag ment', 'x', '', '#'],
    };
    for (const base of ['http://u:p@host:8080/path?q=1#h', 'file:///x/y', 'sc:opaque ?x#y', 'sc://h:1/p', 'https://h/']) {
      for (const [field, list] of Object.entries(values)) {
        for (const value of list) {
          const mine = new MyURL(base);
          const theirs = new URL(base);
          mine[field] = value;
          theirs[field] = value;
          assert.deepEqual(snapshot(MyURL, mine.href), snapshot(URL, theirs.href), `${base} .${field} = ${JSON.stringify(value)}`);
        }
      }
    }
    assert.throws(() => { new MyURL('http://h/').href = 'nope'; }, TypeError);
  });

  test('errors, canParse, parse, toJSON', () => {
    assert.throws(() => new MyURL('nope'), (e) => e instanceof TypeError && e.message === 'Invalid URL: nope' && e.code === 'ERR_INVALID_URL' && e.input === 'nope');
    assert.throws(() => new MyURL('x', 'bad base'), TypeError);
    assert.deepEqual([MyURL.canParse('x'), MyURL.canParse('x', 'http://h'), MyURL.canParse('http://h')], [false, true, true]);
    assert.equal(MyURL.parse('nope'), null);
    assert.equal(MyURL.parse('/p', 'http://h').href, 'http://h/p');
    assert.equal(JSON.stringify({ u: new MyURL('http://h/x') }), '{"u":"http://h/x"}');
    assert.equal(String(new MyURL('http://h/x')), 'http://h/x');
  });

  test('URLSearchParams behaves like Node', () => {
    const inits = ['a=1&b=2&a=3', '?x=%20y+z&&=&k', 'a=%zz&b=%e9&c=%C3%A9', { a: 1, b: 'two', 'c d': 'e&f' }, [['a', '1'], ['b', '2']],
      new Map([['m', 'n']]), '', 'q=\ud800', '\u00e9=\u{1F600}', "!'()*~-._=*"];
    const operations = (Ctor, init) => {
      const p = new Ctor(init);
      const result = [p.toString(), [...p], p.size];
      p.append('new', 'v al');
      p.set('a', 'S');
      p.delete('b');
      result.push(p.toString(), p.get('a'), p.getAll('a'), p.has('new'), p.has('new', 'x'), p.get('nope'));
      p.append('z', '1');
      p.append('A', '2');
      p.sort();
      result.push(p.toString(), [...p.keys()], [...p.values()], [...p.entries()]);
      const seen = [];
      p.forEach((value, key) => seen.push(`${key}=${value}`));
      return [...result, seen];
    };
    for (const init of inits) assert.deepEqual(operations(MyParams, init), operations(URLSearchParams, init), util.inspect(init));
    for (const bad of [[['a']], [1], [['a', 'b', 'c']]]) assert.throws(() => new MyParams(bad), TypeError);
  });

  test('searchParams is live-linked to the URL', () => {
    const run = (Ctor) => {
      const u = new Ctor('http://h/p?a=1#f');
      const r = [];
      u.searchParams.append('b', '2 3');
      r.push(u.href);
      u.search = '?c=4';
      r.push([...u.searchParams]);
      u.searchParams.delete('c');
      r.push(u.href);
      u.href = 'http://x/?z=9';
      r.push(u.searchParams.get('z'));
      u.searchParams.sort();
      r.push(u.search, u.searchParams === u.searchParams);
      return r;
    };
    assert.deepEqual(run(MyURL), run(URL));
  });

  test('searchParams keeps a query that starts with another ?', () => {
    const read = (Ctor) => {
      const u = new Ctor('??a=b&c=d', 'http://example.org/foo/bar');
      return [u.search, [...u.searchParams], u.searchParams.toString()];
    };
    assert.deepEqual(read(MyURL), read(URL));
    assert.deepEqual(read(MyURL), ['??a=b&c=d', [['?a', 'b'], ['c', 'd']], '%3Fa=b&c=d']);
  });

  test('inspect output', () => {
    assert.equal(internal.inspect(new MyURL('http://u:p@h:81/p?q=1#f')), util.inspect(new URL('http://u:p@h:81/p?q=1#f')));
    for (const query of ['a=1&b=2', '', 'a='.repeat(30)]) {
      assert.equal(internal.inspect(new MyParams(query)), util.inspect(new URLSearchParams(query)));
    }
  });
});

describe('structuredClone', () => {
  const clone = globals.structuredClone;
  const show = (v) => util.inspect(v, { depth: 10 }).replace(/\n\s+at .*/g, '');

  test('values clone like Node', () => {
    const shared = { s: 1 };
    const cyclic = { name: 'c' };
    cyclic.self = cyclic;
    cyclic.list = [cyclic, shared, shared];
    const buffer = new ArrayBuffer(8);
    const views = { a: new Uint8Array(buffer, 2, 3), b: new DataView(buffer, 1, 4), c: new Float64Array([1.5]), d: new BigInt64Array([5n]) };
    class K { constructor() { this.x = 1; } get y() { return 2; } }
    const values = [1, 'str', null, undefined, 1n, true, -0, NaN, { a: [1, { b: new Date(0) }] }, [1, , 3], Object.assign([1], { p: 2 }), /re/gi,
      new Map([[{ k: 1 }, new Set([1, 'x'])]]), new Set([[1]]), cyclic, views, new K(), Object(1), Object('s'), Object(false), Object(2n),
      new Date(NaN), { get g() { return 5; } }, Object.create(null), new RangeError('r', { cause: { c: 1 } }), new TypeError('t'),
      Object.assign(new Error('plain'), { name: 'Custom' })];
    for (const value of values) assert.equal(show(clone(value)), show(structuredClone(value)), show(value));
    const copy = clone(cyclic);
    assert.ok(copy.self === copy && copy.list[0] === copy && copy.list[1] === copy.list[2] && copy.list[1] !== shared);
    const copiedViews = clone(views);
    assert.ok(copiedViews.a.buffer === copiedViews.b.buffer && copiedViews.a.buffer !== buffer);
  });

  test('uncloneable values throw DataCloneError like Node', () => {
    for (const bad of [() => 1, Symbol('s'), { f() {} }, Promise.resolve(), new WeakMap()]) {
      const describeError = (f) => { try { f(bad); return 'no error'; } catch (e) { return `${e.name}: ${e.message} ${e.code}`; } };
      assert.equal(describeError(clone), describeError(structuredClone));
    }
  });
});

test('the smoke fixture prints the same as Node', () => {
  const fixture = path.join(root, 'js', 'test', 'fixtures', 'globals-smoke.txt');
  const expected = spawnSync(process.execPath, [fixture], { encoding: 'utf8' });
  assert.equal(expected.status, 0, expected.stderr);
  const sandbox = loadRuntime();
  const names = Object.keys(sandbox.globals);
  new Function(...names, fs.readFileSync(fixture, 'utf8'))(...names.map((n) => sandbox.globals[n]));
  const stdout = sandbox.output.filter(({ fd }) => fd === 1).map(({ text }) => text).join('');
  assert.equal(stdout, expected.stdout);
});
