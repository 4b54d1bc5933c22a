// Prints how TextDecoder decodes generated inputs in every encoding, one line per input, so the outputs of
// jsbridge and Node can be compared line by line (Benchmarks/encoding/compare):
//   <encoding> <mode> <input bytes in hex> <output code units in hex, or "throws">
// Inputs: every single byte, every two-byte sequence with a lead byte >= 0x80, gb18030 four-byte sequences
// (sampled), ISO-2022-JP escape sequences, and each two-byte input split across two streamed chunks.
const encodings = [
  'utf-8', 'ibm866', 'iso-8859-2', 'iso-8859-3', 'iso-8859-4', 'iso-8859-5', 'iso-8859-6', 'iso-8859-7',
  'iso-8859-8', 'iso-8859-8-i', 'iso-8859-10', 'iso-8859-13', 'iso-8859-14', 'iso-8859-15', 'iso-8859-16',
  'koi8-r', 'koi8-u', 'macintosh', 'windows-874', 'windows-1250', 'windows-1251', 'windows-1252',
  'windows-1253', 'windows-1254', 'windows-1255', 'windows-1256', 'windows-1257', 'windows-1258',
  'x-mac-cyrillic', 'gbk', 'gb18030', 'big5', 'euc-jp', 'iso-2022-jp', 'shift_jis', 'euc-kr', 'utf-16be',
  'utf-16le', 'x-user-defined',
];
const only = process.argv[2];
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const units = (s) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i).toString(16).padStart(4, '0')).join(' ');
const lines = [];
function run(name, mode, bytes) {
  let out;
  try {
    if (mode === 'stream') {
      const d = new TextDecoder(name);
      const cut = bytes.length >> 1;
      out = d.decode(bytes.subarray(0, cut), { stream: true }) + d.decode(bytes.subarray(cut));
    } else {
      out = new TextDecoder(name, { fatal: mode === 'fatal' }).decode(bytes);
    }
    out = units(out);
  } catch (e) {
    out = `throws ${e.name}`;
  }
  lines.push(`${name} ${mode} ${hex(bytes)} ${out}`);
  if (lines.length >= 4096) flush();
}
function flush() {
  if (lines.length > 0) console.log(lines.join('\n'));
  lines.length = 0;
}
for (const name of encodings) {
  if (only && only !== name) continue;
  let supported = true;
  try {
    new TextDecoder(name);
  } catch (e) {
    supported = false;
  }
  if (!supported) {
    lines.push(`${name} unsupported`);
    continue;
  }
  const inputs = [];
  for (let b = 0; b < 256; b++) inputs.push([b]);
  for (let lead = 0x80; lead < 0x100; lead++) for (let trail = 0; trail < 0x100; trail++) inputs.push([lead, trail]);
  if (name === 'gb18030' || name === 'gbk') {
    for (let a = 0x81; a <= 0xfe; a += 3) for (let b = 0x30; b <= 0x39; b++) for (let c = 0x81; c <= 0xfe; c += 5) for (let d = 0x30; d <= 0x39; d += 3) inputs.push([a, b, c, d]);
  }
  if (name === 'iso-2022-jp') {
    for (const esc of [[0x1b, 0x24, 0x42], [0x1b, 0x24, 0x40], [0x1b, 0x28, 0x4a], [0x1b, 0x28, 0x49], [0x1b, 0x28, 0x42], [0x1b, 0x24, 0x41]]) {
      for (let a = 0x00; a < 0x100; a += 1) for (let b = 0x20; b < 0x80; b += 7) inputs.push([...esc, a, b]);
      inputs.push(esc, [...esc, 0x1b, 0x28, 0x42], [...esc, 0x0e], [...esc, 0x0a, 0x41]);
    }
  }
  if (name === 'utf-16le' || name === 'utf-16be') {
    const le = name === 'utf-16le';
    for (const u of [0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfeff, 0xfffe]) {
      for (const v of [0x0041, 0xd800, 0xdc00, 0xdfff]) {
        const pair = le ? [u & 0xff, u >> 8, v & 0xff, v >> 8] : [u >> 8, u & 0xff, v >> 8, v & 0xff];
        inputs.push(pair, pair.slice(0, 3), [...pair, 0x41]);
      }
    }
  }
  if (name === 'utf-8') {
    for (let a = 0xe0; a <= 0xf4; a++) for (let b = 0x70; b <= 0xc0; b += 4) for (let c = 0x70; c <= 0xc0; c += 8) inputs.push([a, b, c], [a, b, c, 0x80]);
  }
  for (const input of inputs) {
    const bytes = Uint8Array.from(input);
    run(name, 'replace', bytes);
    run(name, 'fatal', bytes);
    if (input.length > 1) run(name, 'stream', bytes);
  }
}
flush();
