// node:async_hooks (AsyncLocalStorage across timers, queueMicrotask, nextTick and then-callbacks;
// AsyncResource), node:diagnostics_channel, node:perf_hooks, node:console. Expectations are Node 20's.
const { AsyncLocalStorage, AsyncResource } = require("node:async_hooks");
const diagnostics = require("node:diagnostics_channel");
const { performance, PerformanceObserver } = require("node:perf_hooks");
const { Console } = require("node:console");

const als = new AsyncLocalStorage();
const seen = [];
const done = [];
als.run({ id: 1 }, () => {
  seen.push(`sync ${als.getStore().id}`);
  done.push(new Promise((resolve) => setTimeout(() => { seen.push(`timeout ${als.getStore()?.id}`); resolve(); }, 2)));
  done.push(new Promise((resolve) => setImmediate(() => { seen.push(`immediate ${als.getStore()?.id}`); resolve(); })));
  done.push(new Promise((resolve) => queueMicrotask(() => { seen.push(`microtask ${als.getStore()?.id}`); resolve(); })));
  done.push(new Promise((resolve) => process.nextTick(() => { seen.push(`nextTick ${als.getStore()?.id}`); resolve(); })));
  done.push(Promise.resolve().then(() => seen.push(`then ${als.getStore()?.id}`)));
  done.push(Promise.reject(new Error("x")).catch(() => seen.push(`catch ${als.getStore()?.id}`)));
  const interval = setInterval(() => {
    seen.push(`interval ${als.getStore()?.id}`);
    clearInterval(interval);
  }, 1);
  als.run({ id: 2 }, () => seen.push(`nested ${als.getStore().id}`));
  seen.push(`after nested ${als.getStore().id}`);
  als.exit(() => seen.push(`exit ${als.getStore()}`));
});
seen.push(`outside ${als.getStore()}`);
const bound = als.run({ id: 3 }, () => AsyncLocalStorage.bind(() => als.getStore().id));
const snapshot = als.run({ id: 4 }, () => AsyncLocalStorage.snapshot());
seen.push(`bind ${bound()} snapshot ${snapshot(() => als.getStore().id)}`);
const resource = als.run({ id: 5 }, () => new AsyncResource("job"));
seen.push(`resource ${resource.runInAsyncScope(() => als.getStore().id)} ${typeof resource.asyncId()}`);
const other = new AsyncLocalStorage();
other.enterWith("entered");
seen.push(`enterWith ${other.getStore()} ${als.getStore()}`);

Promise.all(done).then(() => new Promise((resolve) => setTimeout(resolve, 5))).then(() => {
  console.log(seen.sort().join("\n"));

  const channel = diagnostics.channel("my-channel");
  console.log("hasSubscribers", channel.hasSubscribers, diagnostics.hasSubscribers("my-channel"));
  const onMessage = (message, name) => console.log("message", JSON.stringify(message), name);
  diagnostics.subscribe("my-channel", onMessage);
  console.log("hasSubscribers", channel.hasSubscribers, diagnostics.channel("my-channel") === channel);
  channel.publish({ a: 1 });
  console.log("unsubscribe", diagnostics.unsubscribe("my-channel", onMessage), channel.hasSubscribers);
  channel.publish({ a: 2 });

  const observed = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) observed.push(`${entry.entryType} ${entry.name}`);
    observer.disconnect();
    console.log("observed", observed.sort().join(", "));

    const lines = [];
    const sink = new (require("node:stream").Writable)({
      write(chunk, encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    });
    const logger = new Console({ stdout: sink, stderr: sink });
    logger.log("hello %s", "world", 42);
    logger.error({ nested: { a: [1, 2] } });
    logger.group("group");
    logger.info("inside");
    logger.groupEnd();
    logger.count();
    logger.count();
    setTimeout(() => {
      console.log(JSON.stringify(lines));
      console.log("console module", typeof require("console").log, typeof require("console").Console);
    }, 5);
  });
  observer.observe({ entryTypes: ["mark", "measure"] });
  performance.mark("start");
  performance.mark("end");
  performance.measure("span", "start", "end");
  console.log("performance", typeof performance.now(), performance.now() > 0);
});
