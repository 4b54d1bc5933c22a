const stream = bridge.subscribe("Echo", "ticks", { count: 5 }, (tick) => {
  console.log("tick", tick);
  if (tick === 1) throw new Error("thrown by onValue");
});
stream.done.then(() => console.log("never: done after the failure"));
setTimeout(() => console.log("never: later timer"), 5000);
