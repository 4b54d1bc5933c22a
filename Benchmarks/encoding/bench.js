// TextDecoder throughput on one large input, the same script under jsbridge and Node:
//   bench.js <utf-8|utf-16le> <MiB>  ->  {"bytes": <input bytes>, "ms": <best of 3 decodes>}
// The text is mostly ASCII with accented Latin, Greek and CJK words mixed in (every ~6th word).
const [encoding, mib] = [process.argv[2], Number(process.argv[3])];
const words = ['lorem', 'ipsum', 'dolor', 'sit', 'amet,', 'consectetur', 'adipiscing', 'elit.', 'café', 'naïve', 'λόγος', '東京', 'Straße'];
let sentence = '';
for (let i = 0; sentence.length < 4096; i++) sentence += (i % 6 === 5 ? words[8 + (i % 5)] : words[i % 8]) + ' ';
const target = mib * 1024 * 1024;
let bytes;
if (encoding === 'utf-16le') {
  const unit = new Uint8Array(sentence.length * 2);
  for (let i = 0; i < sentence.length; i++) {
    unit[2 * i] = sentence.charCodeAt(i) & 0xff;
    unit[2 * i + 1] = sentence.charCodeAt(i) >> 8;
  }
  bytes = new Uint8Array(Math.floor(target / unit.length) * unit.length);
  for (let at = 0; at < bytes.length; at += unit.length) bytes.set(unit, at);
} else {
  const unit = new TextEncoder().encode(sentence);
  bytes = new Uint8Array(Math.floor(target / unit.length) * unit.length);
  for (let at = 0; at < bytes.length; at += unit.length) bytes.set(unit, at);
}
const decoder = new TextDecoder(encoding);
let best = Infinity;
let length = 0;
for (let round = 0; round < 3; round++) {
  const started = performance.now();
  const text = decoder.decode(bytes);
  best = Math.min(best, performance.now() - started);
  length = text.length;
}
if (length === 0) throw new Error('nothing decoded');
console.log(JSON.stringify({ bytes: bytes.length, ms: best, length }));
