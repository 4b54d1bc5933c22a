// node:stream/consumers over Node and web streams, node:stream/web's classes, and `sys` (util's deprecated
// name). Expectations are Node 20's output.
const consumers = require("node:stream/consumers");
const { Readable } = require("node:stream");

(async () => {
  console.log(await consumers.text(Readable.from(["a", "b"])));
  console.log(JSON.stringify(await consumers.json(Readable.from(['{"x"', ":1}"]))));
  console.log((await consumers.buffer(Readable.from([Buffer.from("hi")]))).toString("hex"));
  console.log((await consumers.arrayBuffer(Readable.from(["xy"]))).byteLength);
  console.log((await consumers.blob(Readable.from(["abc"]))).size);
  const euro = Buffer.from("\u20ac");
  console.log(await consumers.text(Readable.from([euro.subarray(0, 2), euro.subarray(2)])) === "\u20ac");
  console.log(await consumers.text(new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("web"));
      controller.close();
    },
  })));
  const web = require("node:stream/web");
  console.log(web.ReadableStream === ReadableStream, web.WritableStream === WritableStream,
    typeof web.TransformStream, typeof web.CountQueuingStrategy);
  console.log(require("sys") === require("util"));
})();
