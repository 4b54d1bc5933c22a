// node:zlib: the sync, callback, promisified and stream forms of every format, the options, flush/params/
// reset, dictionaries, errors with Node's codes, back-pressure, large inputs (worker threads) and crc32.
// Expectations are Node 20's output. Compressed bytes are printed only where zlib versions agree (small
// inputs); elsewhere round trips are compared.
const zlib = require("node:zlib");
const { promisify } = require("node:util");
const { pipeline, Readable, Writable } = require("node:stream");

const text = "The quick brown fox jumps over the lazy dog. ".repeat(200);
const show = (e) => `${e.name} ${e.code} ${e.errno} ${e.message}`;
const attempt = (label, f) => {
  try {
    const r = f();
    console.log(label, "ok", Buffer.isBuffer(r) ? r.toString() : r);
  } catch (e) {
    console.log(label, show(e));
  }
};
/// Deterministic bytes (LCG), compressible about 2:1.
function pseudoRandom(size, seed = 1) {
  const b = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    b[i] = (x >> 16) & 0x0f;
  }
  return b;
}

// The module's shape.
console.log(Object.keys(zlib).join(" "));
console.log(zlib.Z_OK, zlib.Z_FINISH, zlib.DEFLATE, zlib.Z_DEFAULT_CHUNK, "BROTLI_MODE_TEXT" in zlib);
const { ZLIB_VERNUM, ...constants } = zlib.constants;
console.log(typeof ZLIB_VERNUM, Object.keys(constants).length, JSON.stringify(constants).length);
console.log(zlib.codes.Z_DATA_ERROR, zlib.codes["-3"], Object.isFrozen(zlib.codes), zlib.gzip.name, zlib.gzipSync.name);
const g = zlib.createGzip();
console.log(g instanceof zlib.Gzip, g instanceof require("stream").Transform, zlib.Gzip() instanceof zlib.Gzip);
console.log(g._chunkSize, g.bytesWritten, g._level, g._strategy, g._defaultFlushFlag, g._finishFlushFlag, g._closed);
g.close();

// Sync forms: small inputs give the same bytes in every zlib version.
console.log(zlib.deflateSync("hello").toString("hex"));
console.log(zlib.deflateRawSync("hello").toString("hex"));
console.log(zlib.gzipSync("hello").toString("hex"));
console.log(zlib.gzipSync("hello", { level: 0 }).toString("hex"));
console.log(zlib.deflateSync(Buffer.alloc(0)).toString("hex"));
console.log(zlib.inflateSync(Buffer.from("789ccb48cdc9c90700062c0215", "hex")).toString());
for (const [pack, unpack] of [
  ["deflateSync", "inflateSync"], ["deflateRawSync", "inflateRawSync"], ["gzipSync", "gunzipSync"],
  ["gzipSync", "unzipSync"], ["deflateSync", "unzipSync"], ["brotliCompressSync", "brotliDecompressSync"],
]) {
  const packed = zlib[pack](text);
  console.log(pack, unpack, packed.length < text.length / 10, zlib[unpack](packed).toString() === text);
}
for (const options of [
  { level: 1 }, { level: 9 }, { level: 0 }, { windowBits: 9 }, { memLevel: 1 }, { strategy: zlib.constants.Z_RLE },
  { strategy: zlib.constants.Z_HUFFMAN_ONLY }, { strategy: zlib.constants.Z_FIXED }, { chunkSize: 64 },
]) {
  const packed = zlib.deflateSync(text, options);
  console.log(JSON.stringify(options), zlib.inflateSync(packed, options).toString() === text,
    zlib.inflateSync(packed, { chunkSize: 100 }).length);
}
console.log("raw window 8", zlib.inflateRawSync(zlib.deflateRawSync(text, { windowBits: 8 })).length);
console.log("typed inputs", zlib.gunzipSync(zlib.gzipSync(new Uint16Array([0x6968, 0x0a21]))).toString("hex"),
  zlib.inflateSync(zlib.deflateSync(new DataView(new Uint8Array([100, 118]).buffer))).toString(),
  zlib.inflateSync(zlib.deflateSync(new Uint8Array([97, 98]).buffer)).toString());
const info = zlib.gzipSync("abc", { info: true });
console.log("info", Object.keys(info), info.engine.constructor.name, info.engine.bytesWritten, info.engine._closed);

// Several gzip members, padding and trailing data.
const two = Buffer.concat([zlib.gzipSync("one "), zlib.gzipSync("two")]);
console.log("members", zlib.gunzipSync(two).toString(), zlib.unzipSync(two).toString());
console.log("padding", zlib.gunzipSync(Buffer.concat([zlib.gzipSync("a"), Buffer.alloc(4)])).toString());
attempt("garbage after gzip", () => zlib.gunzipSync(Buffer.concat([zlib.gzipSync("a"), Buffer.from("xyz")])));
console.log("after zlib", zlib.inflateSync(Buffer.concat([zlib.deflateSync("a"), Buffer.from("xyz")])).toString());

// Errors with zlib's messages and Node's codes.
const truncated = zlib.gzipSync(text).subarray(0, 30);
for (const f of ["gunzipSync", "inflateSync", "unzipSync", "inflateRawSync", "brotliDecompressSync"]) {
  attempt(f + " text", () => zlib[f](Buffer.from("hello world")));
  attempt(f + " truncated", () => zlib[f](truncated));
}
attempt("brotli truncated", () => zlib.brotliDecompressSync(zlib.brotliCompressSync(text).subarray(0, 20)));
attempt("level", () => zlib.deflateSync("x", { level: 10 }));
attempt("level type", () => zlib.deflateSync("x", { level: "1" }));
attempt("level infinite", () => zlib.deflateSync("x", { level: Infinity }));
console.log("level NaN", zlib.inflateSync(zlib.deflateSync("x", { level: NaN })).toString());
attempt("chunkSize", () => zlib.deflateSync("x", { chunkSize: 10 }));
attempt("windowBits gzip", () => zlib.gzipSync("x", { windowBits: 8 }));
attempt("windowBits", () => zlib.deflateSync("x", { windowBits: 16 }));
attempt("memLevel", () => zlib.deflateSync("x", { memLevel: 0 }));
attempt("strategy", () => zlib.deflateSync("x", { strategy: 5 }));
attempt("flush", () => zlib.deflateSync("x", { flush: 6 }));
attempt("brotli flush", () => zlib.brotliCompressSync("x", { flush: 4 }));
attempt("dictionary type", () => zlib.deflateSync("x", { dictionary: "abc" }));
attempt("buffer type", () => zlib.deflateSync(42));
attempt("buffer null", () => zlib.gzipSync(null));
attempt("maxOutputLength", () => zlib.inflateSync(zlib.deflateSync(text), { maxOutputLength: 100 }));
attempt("maxOutputLength range", () => zlib.inflateSync(zlib.deflateSync(text), { maxOutputLength: 0 }));
attempt("brotli param", () => zlib.brotliCompressSync("x", { params: { 100: 1 } }));
attempt("brotli param name", () => zlib.brotliCompressSync("x", { params: { quality: 1 } }));
attempt("brotli param value", () => zlib.brotliCompressSync("x", { params: { 1: "a" } }));
attempt("callback missing", () => zlib.gzip("x"));
attempt("chunk type", () => zlib.gzip(42, () => {}));

// Dictionaries.
const dictionary = Buffer.from("quick brown fox lazy dog");
const withDictionary = zlib.deflateSync(text, { dictionary });
console.log("dictionary", zlib.inflateSync(withDictionary, { dictionary }).toString() === text,
  zlib.deflateSync(text).length > withDictionary.length);
attempt("missing dictionary", () => zlib.inflateSync(withDictionary));
attempt("bad dictionary", () => zlib.inflateSync(withDictionary, { dictionary: Buffer.from("other") }));
const rawDictionary = zlib.deflateRawSync(text, { dictionary });
console.log("raw dictionary", zlib.inflateRawSync(rawDictionary, { dictionary }).toString() === text);

// crc32.
console.log("crc32", zlib.crc32("hello"), zlib.crc32("world", zlib.crc32("hello ")), zlib.crc32("hello world"),
  zlib.crc32(Buffer.from("hello")), zlib.crc32(new Uint8Array(0)), zlib.crc32("\u20ac"));
attempt("crc32 data", () => zlib.crc32(1));
attempt("crc32 value", () => zlib.crc32("a", -1));
attempt("crc32 value type", () => zlib.crc32("a", "1"));
attempt("crc32 value fraction", () => zlib.crc32("a", 1.5));

(async () => {
  // Callback and promisified forms.
  await new Promise((resolve) => zlib.gzip(text, (error, packed) => {
    console.log("callback", error, zlib.gunzipSync(packed).toString() === text);
    resolve();
  }));
  await new Promise((resolve) => zlib.deflate("abc", { info: true }, (error, result) => {
    console.log("callback info", error, Object.keys(result), result.engine.bytesWritten);
    resolve();
  }));
  await new Promise((resolve) => zlib.gunzip(Buffer.from("not gzip"), (error, result) => {
    console.log("callback error", show(error), result);
    resolve();
  }));
  await new Promise((resolve) => zlib.inflate(zlib.deflateSync(text), { maxOutputLength: 1000 }, (error) => {
    console.log("callback too large", show(error));
    resolve();
  }));
  const gzip = promisify(zlib.gzip), gunzip = promisify(zlib.gunzip);
  const brotli = promisify(zlib.brotliCompress), unbrotli = promisify(zlib.brotliDecompress);
  console.log("promisify", (await gunzip(await gzip("promised"))).toString(),
    (await unbrotli(await brotli("brotli", { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }))).toString());
  await gunzip(truncated).catch((e) => console.log("promise error", show(e)));
  await promisify(zlib.brotliDecompress)(Buffer.from("not brotli at all")).catch((e) => console.log("brotli error", show(e)));

  // Large inputs (above 64 KiB: on a worker thread) in every form.
  const big = pseudoRandom(3 << 20);
  for (const [pack, unpack] of [["gzip", "gunzip"], ["deflateRaw", "inflateRaw"], ["brotliCompress", "brotliDecompress"]]) {
    const packed = await promisify(zlib[pack])(big);
    const back = await promisify(zlib[unpack])(packed);
    console.log("large", pack, packed.length < big.length, back.equals(big), zlib[unpack + "Sync"](packed).equals(big));
  }

  // Streams: output in chunkSize pieces.
  const sizes = [];
  const inflater = zlib.createInflate({ chunkSize: 1000 });
  inflater.on("data", (chunk) => sizes.push(chunk.length));
  await new Promise((resolve) => {
    inflater.on("end", resolve);
    inflater.end(zlib.deflateSync(text));
  });
  console.log("chunks", sizes.length, sizes[0], sizes.at(-1), sizes.reduce((a, b) => a + b), inflater.bytesWritten);

  // pipeline through gzip and gunzip, written in pieces.
  let received = 0;
  await new Promise((resolve, reject) => pipeline(
    Readable.from((function* () { for (let i = 0; i < 40; i++) yield big.subarray(i * 50000, (i + 1) * 50000); })()),
    zlib.createGzip({ level: 1 }),
    zlib.createGunzip(),
    new Writable({ write(chunk, encoding, callback) { received += chunk.length; callback(); } }),
    (error) => (error ? reject(error) : resolve())));
  console.log("pipeline", received);

  // Back-pressure: an unread inflater stops at its readable side's high-water mark, its input left unread.
  const unread = zlib.createGunzip();
  const zeros = zlib.gzipSync(Buffer.alloc(1 << 20));
  unread.write(zeros);
  await new Promise((resolve) => setTimeout(resolve, 50));
  console.log("back-pressure", unread.readableLength, unread.writableLength === zeros.length,
    unread.bytesWritten < zeros.length);
  let drained = 0;
  unread.on("data", (chunk) => { drained += chunk.length; });
  unread.end();
  await new Promise((resolve) => unread.on("end", resolve));
  console.log("drained", drained, unread.bytesWritten === zeros.length);

  // flush(): what was written so far comes out, and the stream goes on.
  const deflater = zlib.createDeflate();
  const flushed = [];
  deflater.on("data", (chunk) => flushed.push(chunk));
  deflater.write("first ");
  await new Promise((resolve) => deflater.flush(resolve));
  console.log("flush", zlib.inflateSync(Buffer.concat(flushed), { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString());
  // params(): a new level after a sync flush; the whole stream still inflates.
  await new Promise((resolve) => deflater.params(0, zlib.constants.Z_DEFAULT_STRATEGY, resolve));
  console.log("params", deflater._level, deflater._strategy);
  deflater.end("second");
  await new Promise((resolve) => deflater.on("end", resolve));
  console.log("after params", zlib.inflateSync(Buffer.concat(flushed)).toString());

  // reset(): a gunzip used twice.
  const reused = zlib.createGunzip();
  const first = [];
  reused.on("data", (chunk) => first.push(chunk.toString()));
  reused.write(zlib.gzipSync("one"));
  await new Promise((resolve) => setTimeout(resolve, 10));
  reused.reset();
  reused.end(zlib.gzipSync("two"));
  await new Promise((resolve) => reused.on("end", resolve));
  console.log("reset", first.join(","));

  // A corrupt stream: 'error' with the code, then 'close'.
  const broken = zlib.createGunzip();
  const events = [];
  broken.on("error", (e) => events.push(`error ${e.code}`));
  broken.on("close", () => events.push("close"));
  broken.end(truncated);
  await new Promise((resolve) => broken.on("close", resolve));
  console.log("stream error", events.join(", "), broken.destroyed, broken._closed);
  const garbage = zlib.createInflate();
  garbage.on("error", (e) => console.log("garbage stream", show(e)));
  garbage.end("not zlib");
  await new Promise((resolve) => garbage.on("close", resolve));

  // close() with a callback; writes after it fail.
  const closing = zlib.createDeflate();
  await new Promise((resolve) => closing.close(() => resolve()));
  console.log("closed", closing._closed, closing.destroyed);

  // Brotli streams with a flush in the middle.
  const compressor = zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
  const decompressor = zlib.createBrotliDecompress();
  compressor.pipe(decompressor);
  let unbrotlied = "";
  decompressor.on("data", (chunk) => { unbrotlied += chunk; });
  compressor.write("part one, ");
  await new Promise((resolve) => compressor.flush(resolve));
  await new Promise((resolve) => setTimeout(resolve, 20));
  console.log("brotli flush", JSON.stringify(unbrotlied));
  compressor.end("part two");
  await new Promise((resolve) => decompressor.on("end", resolve));
  console.log("brotli stream", JSON.stringify(unbrotlied));
  console.log("done");
})();
