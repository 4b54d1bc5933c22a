// node:stream's finer semantics: cork/uncork and _writev batches, read(n) in 'readable', a Transform held by a
// full readable side, destroy during pipe, end(callback) before 'finish', Readable.from's generator errors,
// allowHalfOpen: false, unshift, highWaterMark 0. Expectations are Node 20's output.
const { Readable, Writable, Transform, PassThrough, Duplex, finished } = require("stream");
(async () => {
  // cork + writev
  const batches = [];
  const w = new Writable({ writev(chunks, cb) { batches.push(chunks.map((c) => String(c.chunk)).join("+")); cb(); } });
  w.cork(); w.write("a"); w.write("b"); w.write("c"); process.nextTick(() => w.uncork());
  await new Promise((r) => setTimeout(r, 5));
  w.write("d"); w.write("e"); w.end("f");
  await new Promise((r) => w.on("finish", r));
  console.log("writev", batches.join(" | "));
  // readable event with read(n)
  const r = new Readable({ read() {} });
  r.push("hello "); r.push("world"); r.push(null);
  const got = [];
  r.on("readable", () => { let c; while ((c = r.read(4)) !== null) got.push(String(c)); });
  await new Promise((res) => r.on("end", res));
  console.log("read(4)", got.join("|"));
  // transform back-pressure: slow reader
  let transformed = 0;
  const t = new Transform({ highWaterMark: 2, objectMode: true, transform(c, e, cb) { transformed++; cb(null, c); } });
  for (let i = 0; i < 10; i++) t.write(i);
  await new Promise((res) => setTimeout(res, 5));
  console.log("transform held", transformed, t.readableLength, t.writableLength);
  const out = []; t.on("data", (c) => out.push(c)); t.end();
  await new Promise((res) => t.on("end", res));
  console.log("transform all", out.join(","), transformed);
  // destroy during pipe
  // Chunks of 8 KiB: the writable side is full after two, so few writes are left to drain after the destroy.
  const src = new Readable({ read() { this.push("x".repeat(8192)); } });
  const dst = new Writable({ write(c, e, cb) { setTimeout(cb, 1); } });
  src.pipe(dst);
  setTimeout(() => src.destroy(new Error("stop")), 5);
  src.on("error", (e) => console.log("src error", e.message));
  await new Promise((res) => src.on("close", res));
  console.log("after destroy", src.destroyed, dst.destroyed, dst.writableEnded);
  // end callback and finish order
  const order = [];
  const w2 = new Writable({ write(c, e, cb) { order.push("write"); cb(); }, final(cb) { order.push("final"); cb(); } });
  w2.on("prefinish", () => order.push("prefinish"));
  w2.on("finish", () => order.push("finish"));
  w2.on("close", () => { order.push("close"); console.log("order", order.join(",")); });
  w2.end("x", () => order.push("end cb"));
  await new Promise((res) => setTimeout(res, 10));
  // Readable.from async generator with error
  async function* gen() { yield 1; throw new Error("gen failed"); }
  try { for await (const x of Readable.from(gen())) console.log("gen value", x); } catch (e) { console.log("gen error", e.message); }
  // allowHalfOpen false
  const d = new Duplex({ allowHalfOpen: false, read() {}, write(c, e, cb) { cb(); } });
  d.on("finish", () => console.log("duplex finish after end"));
  d.push(null); d.resume();
  await new Promise((res) => setTimeout(res, 10));
  // unshift
  const u = new Readable({ read() {} }); u.push("abc"); u.push(null);
  await new Promise((res) => u.once("readable", res));
  const first = u.read(1); u.unshift(first);
  console.log("unshift", String(u.read()));
  // objectMode highWaterMark 0
  const z = new Readable({ objectMode: true, highWaterMark: 0, read() {} });
  console.log("hwm0 push", z.push({}), z.readableLength);
})();
