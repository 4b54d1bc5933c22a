// 10,000 calls in flight at once all complete, in order, and leave no pending entries behind.
(async () => {
  const calls = [];
  for (let i = 0; i < 10000; i++) calls.push(bridge.call("Echo", "echo", { i }));
  console.log("in flight:", bridge.pendingCalls);
  const results = await Promise.all(calls);
  console.log("results:", results.length, results.every((result, i) => result.i === i));
  console.log("pending after:", bridge.pendingCalls);
  let sum = 0;
  for (let i = 0; i < 1000; i++) sum += bridge.execSync("Echo", "ping", [i]);
  console.log("1000 execSync pings:", sum, "pending:", bridge.pendingCalls);
})();
