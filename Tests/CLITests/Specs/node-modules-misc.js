// timers/promises, assert, url, querystring, string_decoder, crypto, process, and require of built-ins.
const assert = require("assert");
const strict = require("node:assert/strict");
const timers = require("node:timers/promises");
const url = require("url");
const qs = require("querystring");
const { StringDecoder } = require("string_decoder");
const crypto = require("crypto");
console.log(require("tty").isatty(0), require("tty").isatty(-1));
console.log(require("timers").setTimeout === setTimeout, require("node:timers").promises === timers, strict === assert.strict,
  require("process") === process, typeof require("node:os").hostname());
try { require("node:nope"); } catch (error) { console.log(error.code, error.message); }
try { require("nope-package"); } catch (error) { console.log(error.code); }
for (const check of [
  () => assert.strictEqual(1, 2), () => assert.deepStrictEqual({ a: 1 }, { a: 1 }), () => assert.deepEqual({ a: 1 }, { a: "1" }),
  () => strict.deepEqual({ a: 1 }, { a: "1" }), () => assert.ok(0), () => assert(true), () => assert.notStrictEqual(1, 1),
  () => assert.throws(() => { throw new TypeError("bad"); }, TypeError), () => assert.throws(() => {}),
  () => assert.throws(() => { throw new Error("msg x"); }, /msg/), () => assert.throws(() => { throw new Error("a"); }, { message: "b" }),
  () => assert.match("abc", /b/), () => assert.match("abc", /z/), () => assert.equal(1, "1"), () => assert.fail("boom"),
  () => assert.strictEqual(1, 2, "custom message"), () => assert.ifError(null), () => assert.doesNotThrow(() => { throw new Error("e"); }),
  () => assert.deepStrictEqual(new Set([1, [2]]), new Set([1, [2]])), () => assert.notDeepStrictEqual([1], [2]),
]) {
  try { check(); console.log("pass"); } catch (error) {
    console.log(error.name, error.code, error instanceof assert.AssertionError, JSON.stringify(error.message.split("\n")[0]), error.operator);
  }
}
const decoder = new StringDecoder("utf8");
const euro = Buffer.from("€€");
console.log(JSON.stringify([decoder.write(euro.subarray(0, 1)), decoder.write(euro.subarray(1, 4)), decoder.write(euro.subarray(4)), decoder.end()]));
const d16 = new StringDecoder("utf16le");
console.log(JSON.stringify([d16.write(Buffer.from([0x61])), d16.write(Buffer.from([0x00, 0x62])), d16.end(Buffer.from([0]))]));
const d64 = new StringDecoder("base64");
console.log(JSON.stringify([d64.write(Buffer.from("ab")), d64.write(Buffer.from("cd")), d64.end()]));
const partial = new StringDecoder();
console.log(JSON.stringify([partial.write(Buffer.from([0xe2, 0x82])), partial.end()]));
console.log(url.fileURLToPath("file:///tmp/a%20b.txt"), url.pathToFileURL("/tmp/a b#c.txt").href, url.URL === URL);
try { url.fileURLToPath("http://x/y"); } catch (error) { console.log(error.code, error.message); }
const legacy = url.parse("https://user:pw@Example.com:8080/p/a/t/h?query=string&a=1#hash", true);
console.log(legacy.protocol, legacy.auth, legacy.host, legacy.port, legacy.hostname, legacy.hash, legacy.search, legacy.pathname, legacy.path, JSON.stringify(legacy.query), legacy.href);
console.log(url.format({ protocol: "http", hostname: "h.com", pathname: "/x", query: { a: 1, b: "c d" } }), url.resolve("http://a.com/b/c", "../d"), url.resolve("/one/two", "three"));
console.log(JSON.stringify(qs.parse("a=1&b=2&a=3&c=%20x+y&d")), qs.stringify({ a: [1, 2], b: "x y", c: true, d: null }), qs.escape("a b&"), qs.unescape("%41%zz"));
const bytes = crypto.randomBytes(16);
const values = crypto.getRandomValues(new Uint32Array(4));
const uuid = crypto.randomUUID();
console.log(bytes.length, Buffer.isBuffer(bytes), values.length, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(uuid),
  globalThis.crypto.randomUUID() !== uuid, typeof globalThis.crypto.getRandomValues, crypto.webcrypto === globalThis.crypto,
  crypto.randomBytes(32).equals(crypto.randomBytes(32)));
const ints = new Set(Array.from({ length: 200 }, () => crypto.randomInt(3)));
console.log([...ints].sort().join(","), crypto.randomInt(5, 6), crypto.randomFillSync(Buffer.alloc(4), 2, 2).subarray(0, 2).toString("hex"));
console.log(crypto.createHash("sha256").update("abc").digest("hex"), crypto.createHash("md5").update(Buffer.from("abc")).digest("base64"),
  crypto.createHash("SHA1").update("a".repeat(100)).update("b", "latin1").digest().length, crypto.createHmac("sha256", "key").update("data").digest("hex"));
try { crypto.createHash("nope"); } catch (error) { console.log(error.message); }
try { crypto.getRandomValues(new Float64Array(1)); } catch (error) { console.log(error.name); }
try { crypto.getRandomValues(new Uint8Array(65537)); } catch (error) { console.log(error.name); }
try { crypto.randomBytes(-1); } catch (error) { console.log(error.code); }
console.log(typeof process.hrtime.bigint(), process.versions.node !== undefined, typeof process.arch, process.platform, typeof process.memoryUsage().rss, process.cwd() === require("path").resolve("."));
process.on("warning", (warning) => console.log("warning event:", warning.name, warning.message));
process.emitWarning("careful", "CustomWarning");
(async () => {
  const start = Date.now();
  console.log(await timers.setTimeout(20, "value"), Date.now() - start >= 15, await timers.setImmediate("now"));
  const ac = new AbortController();
  const pending = timers.setTimeout(10000, "never", { signal: ac.signal });
  ac.abort();
  try { await pending; } catch (error) { console.log(error.name, error.code); }
  let ticks = 0;
  for await (const value of timers.setInterval(5, "tick")) {
    if (++ticks === 3) { console.log("interval", value, ticks); break; }
  }
  try { await timers.setTimeout(1, null, { signal: "x" }); } catch (error) { console.log(error.code); }
  await assert.rejects(Promise.reject(new Error("r")), /r/);
  try { await assert.rejects(Promise.resolve(1)); } catch (error) { console.log(error.code, error.message); }
  console.log("done");
})();
