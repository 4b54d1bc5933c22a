// process.exit(3) inside a timer callback: 'exit' listeners run, then nothing else — not the rest of the
// callback, not microtasks queued before the exit, not later timers, not bridge results.
process.on("exit", (code) => console.log("exit listener", code));
setTimeout(() => console.log("after exit: later timer"), 500);
setTimeout(() => {
  console.log("timer runs");
  bridge.call("Echo", "echo", "late").then(() => console.log("after exit: bridge result"));
  Promise.resolve().then(() => console.log("after exit: promise"));
  queueMicrotask(() => console.log("after exit: microtask"));
  process.exit(3);
  console.log("after exit: rest of the callback");
}, 1);
console.log("script done");
