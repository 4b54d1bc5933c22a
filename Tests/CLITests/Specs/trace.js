// --trace: one stderr line per bridge call and per result, with plugin, action, id and duration.
(async () => {
  bridge.execSync("Echo", "ping", [1]);
  await bridge.call("Echo", "echo", { a: 1 });
  await bridge.call("Echo", "fail", { code: "TRACED" }).catch(() => {});
  const stream = bridge.subscribe("Echo", "ticks", { count: 1000, intervalMs: 5 }, (tick) => {
    if (tick === 1) stream.cancel();
  });
  await stream.done;
  console.log("stdout has no trace lines");
})();
