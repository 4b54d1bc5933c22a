// bridge.subscribe: values arrive in order; cancel() after two values stops the stream, `done` resolves
// and nothing more arrives; a stream that runs to its end resolves `done` too.
const got = [];
const subscription = bridge.subscribe("Echo", "ticks", { count: 1000, intervalMs: 5 }, (tick) => {
  got.push(tick);
  if (got.length === 2) subscription.cancel();
}, (error) => console.log("unexpected error", error));
console.log("id is a number:", typeof subscription.id === "number" && subscription.id > 0);
subscription.done.then(() => {
  console.log("cancelled stream done; values:", got, "pending:", bridge.pendingCalls);
  const all = [];
  const full = bridge.plugins.Echo.ticks({ count: 5 }, (tick) => all.push(tick));
  return full.done.then(() => console.log("full stream done:", all, "pending:", bridge.pendingCalls));
}).then(() => new Promise((resolve) => setTimeout(resolve, 50)))
  .then(() => console.log("after 50 ms the cancelled stream still has", got.length, "values"));
