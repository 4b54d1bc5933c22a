// node:stream: Readable, Writable, Duplex, Transform, PassThrough, pipeline, finished, Readable.from, object mode,
// back-pressure, async iteration, destroy and errors, stream/promises, toWeb/fromWeb. Expectations are Node 20's.
const { Readable, Writable, Duplex, Transform, PassThrough, pipeline, finished } = require("node:stream");
const streamPromises = require("node:stream/promises");
const { once } = require("node:events");

function counter(limit, options) {
  let n = 0;
  return new Readable({
    ...options,
    read() {
      n += 1;
      this.push(n > limit ? null : options?.objectMode ? { n } : String(n));
    },
  });
}

function collector(options) {
  const chunks = [];
  const writable = new Writable({
    ...options,
    write(chunk, encoding, callback) {
      chunks.push(options?.objectMode ? chunk : chunk.toString());
      callback();
    },
  });
  writable.chunks = chunks;
  return writable;
}

const closed = (stream) => new Promise((resolve) => stream.on("close", resolve));

async function step(name, fn) {
  try {
    await fn();
  } catch (error) {
    console.log(name, "threw", error.code ?? error.message);
  }
}

(async () => {
  await step("flowing", async () => {
    const readable = counter(3);
    const seen = [];
    readable.on("data", (chunk) => seen.push(Buffer.isBuffer(chunk) ? chunk.toString() : chunk));
    await once(readable, "end");
    console.log("flowing", seen.join(","), readable.readableEnded, readable.destroyed);
  });

  await step("paused", async () => {
    const readable = new Readable({ read() {} });
    readable.push("ab");
    readable.push("cd");
    readable.push(null);
    await once(readable, "readable");
    console.log("paused", readable.readableLength, String(readable.read(3)), String(readable.read()), readable.read());
    await once(readable, "end");
    console.log("paused end");
  });

  await step("objectMode", async () => {
    const readable = new Readable({ objectMode: true, read() {} });
    const results = [];
    for (let i = 0; i < 17; i++) results.push(readable.push({ i }));
    console.log("objectMode push", results.indexOf(false), readable.readableLength, readable.readableHighWaterMark);
    readable.push(null);
    const items = await readable.toArray();
    console.log("objectMode", items.length, items[16].i);
  });

  await step("backpressure", async () => {
    const events = [];
    const writable = new Writable({
      highWaterMark: 4,
      write(chunk, encoding, callback) {
        events.push(`write ${chunk}`);
        setTimeout(callback, 1);
      },
    });
    writable.on("drain", () => events.push("drain"));
    events.push(`ok ${writable.write("ab")}`);
    events.push(`ok ${writable.write("cd")}`);
    events.push(`needDrain ${writable.writableNeedDrain} length ${writable.writableLength}`);
    await once(writable, "drain");
    events.push(`after drain length ${writable.writableLength}`);
    writable.end("ef");
    await once(writable, "finish");
    events.push(`finished ${writable.writableFinished}`);
    console.log("backpressure", events.join(" | "));
  });

  await step("pipe", async () => {
    const upper = new Transform({
      transform(chunk, encoding, callback) {
        callback(null, chunk.toString().toUpperCase());
      },
      flush(callback) {
        this.push("!");
        callback();
      },
    });
    const sink = collector();
    const source = Readable.from(["a", "b", "c"], { objectMode: false });
    source.pipe(upper).pipe(sink);
    await once(sink, "finish");
    console.log("pipe", sink.chunks.join(""));
  });

  await step("pipe backpressure", async () => {
    let reads = 0;
    const source = new Readable({
      highWaterMark: 2,
      read() {
        reads += 1;
        this.push(reads > 20 ? null : "x");
      },
    });
    const writes = [];
    let maxLength = 0;
    const slow = new Writable({
      highWaterMark: 2,
      write(chunk, encoding, callback) {
        writes.push(chunk.toString());
        maxLength = Math.max(maxLength, source.readableLength);
        setTimeout(callback, 1);
      },
    });
    source.pipe(slow);
    await once(slow, "finish");
    console.log("pipe backpressure", writes.length, maxLength <= 2);
  });

  await step("pipeline", async () => {
    const sink = collector();
    await new Promise((resolve) => {
      pipeline(counter(4), new PassThrough(), sink, (error) => {
        console.log("pipeline done", error, sink.chunks.join(""));
        resolve();
      });
    });
  });

  await step("pipeline error", async () => {
    const source = counter(100);
    const failing = new Transform({
      transform(chunk, encoding, callback) {
        if (chunk.toString() === "3") callback(new Error("bad chunk"));
        else callback(null, chunk);
      },
    });
    const sink = collector();
    await new Promise((resolve) => {
      pipeline(source, failing, sink, (error) => {
        console.log("pipeline error", error.message, source.destroyed, failing.destroyed, sink.destroyed);
        resolve();
      });
    });
  });

  await step("promises.pipeline", async () => {
    const chunks = [];
    await streamPromises.pipeline(
      Readable.from([1, 2, 3]),
      async function* (source) {
        for await (const n of source) yield n * 10;
      },
      new Writable({
        objectMode: true,
        write(chunk, encoding, callback) {
          chunks.push(chunk);
          callback();
        },
      }),
    );
    console.log("promises.pipeline", chunks.join(","));
    const total = await streamPromises.pipeline(Readable.from(["x", "y"]), async (source) => {
      let text = "";
      for await (const chunk of source) text += chunk;
      return text;
    });
    console.log("promises.pipeline result", total);
  });

  await step("async iteration", async () => {
    const items = [];
    for await (const chunk of counter(5, { objectMode: true })) items.push(chunk.n);
    console.log("async iteration", items.join(","));
    const early = counter(100, { objectMode: true });
    for await (const chunk of early) {
      if (chunk.n === 2) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
    console.log("break destroys", early.destroyed);
  });

  await step("finished", async () => {
    const writable = collector();
    writable.destroy();
    await new Promise((resolve) => finished(writable, (error) => {
      console.log("finished premature", error.code, error.message);
      resolve();
    }));
    const done = collector();
    done.end("x");
    await streamPromises.finished(done);
    console.log("finished ok", done.writableFinished);
  });

  await step("errors", async () => {
    const writable = collector();
    writable.end();
    const errors = [];
    writable.on("error", (error) => errors.push(error.code));
    writable.write("late", (error) => errors.push(`callback ${error.code}`));
    await closed(writable);
    console.log("write after end", errors.join(","));

    const readable = new Readable({ read() {} });
    readable.on("error", (error) => console.log("push after EOF", error.code, error.message));
    readable.push(null);
    readable.push("more");
    await closed(readable);

    const destroyed = new Readable({ read() {} });
    const order = [];
    destroyed.on("error", (error) => order.push(`error ${error.message}`));
    destroyed.on("close", () => order.push("close"));
    destroyed.destroy(new Error("gone"));
    console.log("destroyed sync", destroyed.destroyed, destroyed.errored.message);
    await closed(destroyed);
    console.log("destroy order", order.join(", "));

    try {
      collector().write(null);
    } catch (error) {
      console.log("null write", error.code, error.message);
    }
    try {
      collector().write(42);
    } catch (error) {
      console.log("number write", error.code);
    }
    const unimplemented = new Readable();
    unimplemented.on("error", (error) => console.log("no _read", error.code, error.message));
    unimplemented.read();
    await closed(unimplemented);
  });

  await step("duplex", async () => {
    const received = [];
    const duplex = new Duplex({
      read() {},
      write(chunk, encoding, callback) {
        received.push(chunk.toString());
        this.push(`echo:${chunk}`);
        callback();
      },
      final(callback) {
        this.push(null);
        callback();
      },
    });
    const out = [];
    duplex.on("data", (chunk) => out.push(chunk.toString()));
    duplex.write("a");
    duplex.end("b");
    await once(duplex, "end");
    console.log("duplex", received.join(","), out.join(","), duplex instanceof Writable, duplex instanceof Readable);
  });

  await step("encoding", async () => {
    const pass = new PassThrough();
    pass.setEncoding("utf8");
    const euro = Buffer.from("\u20ac");
    const pieces = [];
    pass.on("data", (chunk) => pieces.push(chunk));
    pass.write(euro.subarray(0, 1));
    pass.write(euro.subarray(1));
    pass.end();
    await once(pass, "end");
    console.log("encoding", pieces.length, pieces.join("") === "\u20ac", typeof pieces[0]);
  });

  await step("web", async () => {
    const web = Readable.toWeb(Readable.from(["p", "q"], { objectMode: false }));
    const reader = web.getReader();
    const parts = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parts.push(Buffer.from(value).toString());
    }
    console.log("toWeb", parts.join(""));
    const fromWeb = Readable.fromWeb(new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("web"));
        controller.enqueue(new TextEncoder().encode("data"));
        controller.close();
      },
    }));
    let text = "";
    for await (const chunk of fromWeb) text += Buffer.from(chunk).toString();
    console.log("fromWeb", text);
  });

  await step("events", async () => {
    const { EventEmitter, on } = require("node:events");
    const emitter = new EventEmitter();
    setTimeout(() => {
      emitter.emit("tick", 1);
      emitter.emit("tick", 2);
      emitter.emit("done");
    }, 1);
    const ticks = [];
    const controller = new AbortController();
    emitter.once("done", () => controller.abort());
    try {
      for await (const [value] of on(emitter, "tick", { signal: controller.signal })) ticks.push(value);
    } catch (error) {
      console.log("events.on", ticks.join(","), error.name);
    }
  });

  const stream = require("stream");
  console.log("module", typeof stream, stream.Readable === Readable, stream.Stream === stream, typeof stream.promises.pipeline);
})();
