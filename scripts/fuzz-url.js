// fuzz-url.js - differential fuzzing of the runtime's URL parser (js/url.js) against Node's `URL`.
//
// Generates mutated URL inputs from hand-written seeds (a seeded, reproducible mutator), runs the same batch
// through `jsbridge` and through this Node process, and reports every input where the two disagree on
// failure, href or any component. Run through scripts/fuzz-url.sh; see docs/fuzzing.md.
//
//   node scripts/fuzz-url.js --jsbridge .build/debug/jsbridge [--count 20000] [--seed 1] [--show 30]
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const args = { jsbridge: '.build/debug/jsbridge', count: 20000, seed: 1, show: 30, batch: 5000 };
for (let i = 2; i < process.argv.length; i += 2) {
  const name = process.argv[i].replace(/^--/, '');
  if (!(name in args)) throw new Error(`unknown option --${name}`);
  args[name] = typeof args[name] === 'number' ? Number(process.argv[i + 1]) : process.argv[i + 1];
}

// Seeds: the shapes the URL Standard's parser treats differently (special and opaque schemes, hosts of each
// kind, ports, paths with dot segments, percent-encoding, backslashes, whitespace and control characters).
const seeds = [
  'https://user:pass@example.com:8080/a/b?c=d#e', 'http://example.com', 'HTTP://EXAMPLE.COM/', 'http://example.com:80/',
  'https://example.com:443', 'http://[::1]:3000/', 'http://[2001:db8::1]/x', 'http://[::ffff:192.168.0.1]/',
  'http://192.168.0.1/', 'http://0x7f.1/', 'http://2130706433/', 'http://0177.0.0.1/', 'http://1.2.3.4.5/',
  'http://example.com./', 'http://ex%41mple.com/', 'http://a%2Eb/', 'http://%zz/', 'http://exa mple.com/',
  'http://\u00e9xample.com/', 'http://xn--exmple-cua.com/', 'http://faß.de/', 'https://ＡＢＣ.com/',
  'http://example.com/a/./b/../c', 'http://example.com/%2e%2E/x', 'http://example.com/a/..%2f../b',
  'http://example.com\\a\\b', 'http:\\\\example.com\\x', 'http:example.com/', 'http:/example.com/', 'http:///example.com/',
  '  http://example.com/ \t', 'http://exa\tmple.com/pa\nth', 'http://example.com/?q=a b&c="d"<>`',
  'http://example.com/#frag ment"<>`', 'http://example.com/p a t h/{x}|^', "http://example.com/?'single'",
  'file:///C:/Users/x', 'file://localhost/etc/passwd', 'file:///a/../../b', 'file:c:\\x\\y', 'file://host/share/f',
  'file:/x', 'file:', 'mailto:someone@example.com', 'javascript:alert(1)', 'data:text/plain,hello%20world',
  'urn:isbn:0451450523', 'sc://host:1234/path?q#f', 'sc://ñ.test/', 'sc://[::1]/', 'sc:/a/b/../c', 'sc:a/./b',
  'blob:https://example.com/uuid', 'ws://example.com/chat', 'wss://example.com:443/', 'ftp://ftp.example.com:21/f',
  'non-spec:/.//p', 'http://@example.com/', 'http://:@example.com/', 'http://a:b:c@example.com/', 'http://a@b@c/',
  'http://example.com:/', 'http://example.com:65535/', 'http://example.com:65536/', 'http://example.com:0x10/',
  '//example.com/x', '/path/only', '?query', '#hash', '../up', '', 'http://example.com/\u0000x', 'http://ex\u00adample.com/',
  'http://[::1.2.3.4]/', 'http://[1:2:3:4:5:6:7:8:9]/', 'http://[::1/', 'http://0x100000000/', 'http://4294967296/',
  'http://1.2.3.0x100/', 'http://09/', 'http://%30x7f.1/', 'http://example.com/%E2%82%AC/\u20ac', 'http://\ud83d\ude00.com/',
  'http://example.com/\ud800', 'https://x/?%zz%4', 'HTTPS://a.b/?A=B#C', 'git+ssh://git@github.com:user/repo.git',
];
const bases = [undefined, 'http://example.org/foo/bar?x#y', 'https://a.example/b/c/d', 'file:///home/user/doc',
  'sc://host/path', 'about:blank', 'mailto:x@y', 'http://[::1]:81/', 'not a url'];

// A seeded generator (xorshift), so a run can be repeated with --seed.
let state = (args.seed * 0x9e3779b9) >>> 0 || 1;
function random(bound) {
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return state % bound;
}
const pieces = [':', '/', '//', '\\', '?', '#', '@', '[', ']', '%', '%2', '%2e', '%2E', '%41', '%zz', '.', '..', ' ', '\t', '\n',
  '\u0000', '\u001f', '\u007f', '\u00a0', 'ß', 'é', '\u200b', '\u00ad', 'ＡＢ', '\ufffd', '\ud800', '😀', 'xn--', '0x', '0', '255',
  '256', '4294967295', '::', '::1', '1.2.3.4', 'localhost', ':80', ':443', ':99999', 'http:', 'https://', 'file:', 'C:', '|', '^',
  '{', '}', '`', '"', "'", '<', '>', '&', '=', '+', ';', ',', '!', '$', 'a', 'Z', '9', '-', '_', '~'];
function mutate(text) {
  const chars = Array.from(text);
  const edits = 1 + random(4);
  for (let e = 0; e < edits; e++) {
    const at = random(chars.length + 1);
    switch (random(7)) {
      case 0: chars.splice(at, 0, ...Array.from(pieces[random(pieces.length)])); break;
      case 1: chars.splice(at, 1 + random(4)); break;
      case 2: chars.splice(at, 1, pieces[random(pieces.length)]); break;
      case 3: { const len = 1 + random(6); chars.splice(at, 0, ...chars.slice(at, at + len)); break; }
      case 4: { const other = Array.from(seeds[random(seeds.length)]); const from = random(other.length + 1);
        chars.splice(at, random(8), ...other.slice(from, from + 1 + random(12))); break; }
      case 5: if (chars[at]) chars[at] = random(2) ? chars[at].toUpperCase() : chars[at].toLowerCase(); break;
      default: chars.splice(at, 0, String.fromCharCode(random(128))); break;
    }
  }
  return chars.join('');
}
const cases = [];
for (const input of seeds) for (const base of [undefined, bases[1]]) cases.push([input, base]);
while (cases.length < args.count) {
  let input = seeds[random(seeds.length)];
  for (let rounds = random(3); rounds >= 0; rounds--) input = mutate(input);
  const base = random(3) === 0 ? bases[random(bases.length)] : undefined;
  cases.push([input, base]);
}

// The probe: the same code runs in Node and in jsbridge, one JSON line per case.
const fields = ['href', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash', 'origin'];
const probe = `
const fields = ${JSON.stringify(fields)};
const lines = [];
for (const [input, base] of CASES) {
  let result;
  try {
    const url = base === undefined ? new URL(input) : new URL(input, base);
    result = fields.map((field) => url[field]);
  } catch (error) {
    result = error instanceof TypeError ? 'failure' : 'error ' + String(error);
  }
  lines.push(JSON.stringify(result));
}
console.log(lines.join('\\n'));
`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fuzz-url-'));
let mismatches = [];
let failures = 0;
for (let start = 0; start < cases.length; start += args.batch) {
  const batch = cases.slice(start, start + args.batch);
  // Lone surrogates survive JSON text as escapes.
  const script = `const CASES = ${JSON.stringify(batch)};\n${probe}`;
  const file = path.join(dir, `batch-${start}.js`);
  fs.writeFileSync(file, script);
  const ours = execFileSync(args.jsbridge, [file], { encoding: 'utf8', maxBuffer: 1 << 30 }).trimEnd().split('\n');
  const theirs = execFileSync(process.execPath, [file], { encoding: 'utf8', maxBuffer: 1 << 30 }).trimEnd().split('\n');
  if (ours.length !== batch.length || theirs.length !== batch.length) {
    throw new Error(`batch ${start}: ${ours.length} lines from jsbridge, ${theirs.length} from node, ${batch.length} cases`);
  }
  batch.forEach(([input, base], i) => {
    if (JSON.parse(theirs[i]) === 'failure') failures++;
    if (ours[i] !== theirs[i]) mismatches.push({ input, base, jsbridge: JSON.parse(ours[i]), node: JSON.parse(theirs[i]) });
  });
}
fs.rmSync(dir, { recursive: true });

// Group mismatches by what differs (failure vs success, or the first differing component).
const groups = new Map();
for (const m of mismatches) {
  let kind;
  if (!Array.isArray(m.jsbridge) || !Array.isArray(m.node)) {
    kind = `failure: jsbridge ${Array.isArray(m.jsbridge) ? 'parses' : m.jsbridge}, node ${Array.isArray(m.node) ? 'parses' : m.node}`;
  } else {
    kind = 'differs in ' + fields.filter((_, i) => m.jsbridge[i] !== m.node[i]).filter((f) => f !== 'href').join(',');
  }
  if (!groups.has(kind)) groups.set(kind, []);
  groups.get(kind).push(m);
}
console.log(`fuzz-url: ${cases.length} inputs (seed ${args.seed}), node rejects ${failures}, ${mismatches.length} mismatches`);
for (const [kind, list] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
  console.log(`\n${list.length} × ${kind}`);
  // The shortest inputs first: the easiest to read.
  for (const m of list.sort((a, b) => a.input.length - b.input.length).slice(0, Math.max(1, Math.ceil(args.show / groups.size)))) {
    const show = (r) => (Array.isArray(r) ? JSON.stringify(Object.fromEntries(fields.map((f, i) => [f, r[i]]).filter(([f, v], i) => f === 'href' || !Array.isArray(m.node) || !Array.isArray(m.jsbridge) || m.node[i] !== m.jsbridge[i]))) : r);
    console.log(`  new URL(${JSON.stringify(m.input)}${m.base === undefined ? '' : ', ' + JSON.stringify(m.base)})`);
    console.log(`    jsbridge: ${show(m.jsbridge)}`);
    console.log(`    node:     ${show(m.node)}`);
  }
}
process.exitCode = mismatches.length === 0 ? 0 : 1;
