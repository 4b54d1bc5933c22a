// TIMEOUT, deterministically: a call with {timeout: 1} whose JS turn keeps the thread busy for 30 ms.
// The loop handles due timers before it delivers plugin results, so the deadline always wins.
const late = bridge.call("Echo", "echo", "too late", { timeout: 1 });
const until = Date.now() + 30;
while (Date.now() < until) {}
(async () => {
  try {
    console.log("unexpectedly resolved with", await late);
  } catch (error) {
    console.log(error.code, error instanceof BridgeError, error.plugin, error.action, "|", error.message);
  }
  // A generous timeout does not fire.
  console.log("resolved:", await bridge.call("Echo", "echo", "in time", { timeout: 10000 }));
  console.log("pending:", bridge.pendingCalls);
})();
