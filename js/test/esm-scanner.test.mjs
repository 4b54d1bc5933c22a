// The ES module loader's scanner (js/esm.js `analyze`): which declarations it finds in module text, and
// that its rewrite keeps every line and column and leaves code Node's parser accepts. Run with
// `node --test js/test/`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const jsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const internal = {
  originalStringMethods: { charCodeAt: String.prototype.charCodeAt, slice: String.prototype.slice },
};
for (const name of ['primordials', 'esm']) {
  new Function('internal', fs.readFileSync(path.join(jsDir, `${name}.js`), 'utf8'))(internal);
}
const { analyze, rewriteDynamicImports, hasModuleSyntax } = internal.esm;

/// The rewritten text, checked to keep the length and every line break of `source`.
function rewrite(source) {
  const analysis = analyze(source, '/test.mjs');
  let text = source;
  for (const [start, end, replacement] of [...analysis.edits].reverse()) {
    const original = text.slice(start, end);
    const filled = replacement === null ? original.replace(/[^\n\r]/g, ' ')
      : replacement + original.slice(replacement.length).replace(/[^\n\r]/g, ' ');
    text = text.slice(0, start) + filled + text.slice(end);
  }
  return { analysis, text };
}

describe('import declarations', () => {
  test('every form, with attributes', () => {
    const { analysis } = rewrite([
      'import a, { b as c, "d e" as f } from "./x.mjs";',
      "import * as ns from './y.json' with { type: 'json' };",
      'import def, * as all from "./z.mjs";',
      'import "./side.mjs"',
      'import {',
      '  g,',
      '  h as i,',
      '} from "./multi.mjs"',
      'import j from "./old.json" assert { type: "json" };',
    ].join('\n'));
    assert.deepEqual(analysis.requests.map((r) => [r.specifier, r.type]), [
      ['./x.mjs', undefined], ['./y.json', 'json'], ['./z.mjs', undefined], ['./side.mjs', undefined],
      ['./multi.mjs', undefined], ['./old.json', 'json'],
    ]);
    assert.deepEqual(analysis.bindings, [
      ['default', 'a', 0], ['b', 'c', 0], ['d e', 'f', 0], ['*', 'ns', 1], ['default', 'def', 2], ['*', 'all', 2],
      ['g', 'g', 4], ['h', 'i', 4], ['default', 'j', 5],
    ]);
    assert.equal(analysis.moduleSyntax, true);
  });

  test('the specifier offset points at its string', () => {
    const source = 'const x = 1;\nimport { y } from   "./y.mjs";\n';
    const [request] = analyze(source, '/t.mjs').requests;
    assert.equal(source.slice(request.offset, request.offset + 9), '"./y.mjs"');
  });

  test('a malformed declaration is a SyntaxError at its position', () => {
    assert.throws(() => analyze('\nimport { a from "./x.mjs";', '/bad.mjs'),
      (error) => error instanceof SyntaxError && error.sourceURL === '/bad.mjs' && error.line === 2);
  });
});

describe('export declarations', () => {
  test('declarations, lists, defaults and re-exports', () => {
    const { analysis } = rewrite([
      'export const { p, q: [r, s = 2], ...rest } = obj, z = f(1, 2)',
      'export let w',
      'export var v = a',
      '  + b, u = 4;',
      'export function fn() {}',
      'export async function afn() {}',
      'export function* gen() {}',
      'export class K {}',
      'export { p as "string name", z as default2 };',
      'export * from "./star.mjs";',
      'export * as nsx from "./nsx.mjs";',
      'export { k as kk, default } from "./k.mjs";',
      'export default class Named {}',
    ].join('\n'));
    assert.deepEqual(analysis.locals, [
      ['p', 'p'], ['r', 'r'], ['s', 's'], ['rest', 'rest'], ['z', 'z'], ['w', 'w'], ['v', 'v'], ['u', 'u'],
      ['fn', 'fn'], ['afn', 'afn'], ['gen', 'gen'], ['K', 'K'], ['string name', 'p'], ['default2', 'z'],
      ['default', 'Named'],
    ]);
    assert.deepEqual(analysis.indirect, [['nsx', '*', 1], ['kk', 'k', 2], ['default', 'default', 2]]);
    assert.deepEqual(analysis.stars, [0]);
  });

  test('export default of an expression or an anonymous function becomes a const of the same length', () => {
    for (const tail of ['(a, b) => a + b;', 'function () {}', 'class {}', '42']) {
      const { analysis, text } = rewrite(`export default ${tail}`);
      assert.deepEqual(analysis.locals, [['default', '__jsbD']]);
      assert.equal(text, `const __jsbD = ${tail}`);
    }
  });
});

describe('what is not a declaration', () => {
  test('strings, templates, comments and regular expressions', () => {
    const source = [
      '// import a from "./no1.mjs";',
      '/* export const no = 1; */',
      'const s = "import b from \'./no2.mjs\'";',
      'const t = `export ${`import("./no3.mjs")`} ${1 / 2} ${ { a: `}` }.a }`;',
      'const re = /import "x"[/]/g, ratio = 10 / 2 / 5;',
      'const o = { import: 1, export: 2 }; o.import; o?.import; o.export = 3;',
      'class C { static import() { return 1; } import(x) {} }',
      'const m = { import() {}, export() {} };',
    ].join('\n');
    const { analysis, text } = rewrite(source);
    assert.equal(analysis.requests.length, 0);
    assert.equal(analysis.moduleSyntax, false);
    assert.equal(text, source);
  });

  test('import() and import.meta are rewritten in place', () => {
    const { analysis, text } = rewrite('const m = await import("./a.mjs"), u = import.meta.url;');
    assert.equal(text, 'const m = await __jsbI("./a.mjs"), u = __jsbMeta__.url;');
    assert.equal(analysis.hasAwait, true);
    assert.equal(analysis.moduleSyntax, true);
  });

  test('CommonJS gets only import( rewritten', () => {
    assert.equal(rewriteDynamicImports('import("./a.mjs").then(f); x.import(1); const y = { import() {} };'),
      '__jsbI("./a.mjs").then(f); x.import(1); const y = { import() {} };');
  });

  test('module syntax detection', () => {
    assert.equal(hasModuleSyntax('const a = require("x");'), false);
    assert.equal(hasModuleSyntax('export const a = 1;'), true);
    assert.equal(hasModuleSyntax('console.log(import.meta.url)'), true);
    assert.equal(hasModuleSyntax('await Promise.resolve(1);'), true);
  });
});

describe('the rewrite', () => {
  test('keeps lines and columns and stays valid JavaScript', () => {
    const source = [
      '#!/usr/bin/env jsbridge',
      'import a, { b } from "./x.mjs";',
      'import {',
      '  c,',
      '} from "./y.mjs";',
      'export const d = a + b + c;',
      'export default function named() { return import("./z.mjs"); }',
      'export { d as e };',
      'console.log(import.meta.url);',
    ].join('\n');
    const { text } = rewrite(source);
    assert.equal(text.length, source.length);
    assert.deepEqual([...text.matchAll(/\n/g)].map((m) => m.index), [...source.matchAll(/\n/g)].map((m) => m.index));
    assert.equal(text.indexOf('const d'), source.indexOf('const d'));
    const body = text.replace(/^#!/, '//');
    assert.doesNotThrow(() => new Function('__jsbMeta__', '__jsbI', `"use strict"; ${body}`));
  });
});
