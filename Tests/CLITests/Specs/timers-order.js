// Microtasks (promise, queueMicrotask, process.nextTick) run in the order queued, before any timer;
// setImmediate runs before a setTimeout(0) scheduled after it; equal delays fire in creation order;
// microtasks queued by a timer callback run before the next timer callback; shorter delays fire first.
const order = [];
const log = (what) => () => order.push(what);
setTimeout(log("timeout 30"), 100);
setTimeout(log("timeout 15"), 50);
setImmediate(log("immediate"));
setTimeout(() => {
  order.push("timeout 0 (a)");
  Promise.resolve().then(log("promise queued by (a)"));
  queueMicrotask(log("microtask queued by (a)"));
}, 0);
setTimeout(log("timeout 0 (b)"), 0);
Promise.resolve().then(log("promise"));
queueMicrotask(log("queueMicrotask"));
process.nextTick(log("nextTick"));
Promise.resolve().then(() => Promise.resolve()).then(log("chained promise"));
order.push("sync");
setTimeout(() => console.log(order.join("\n")), 300);
