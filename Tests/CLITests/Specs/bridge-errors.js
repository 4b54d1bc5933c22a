// Every core error code reachable with the CLI's built-in plugin, as a BridgeError with code, message,
// plugin, action and (for INVALID_ARGUMENT) data.issues with a path.
function show(label, error) {
  const issue = error.data?.issues?.[0];
  console.log(`${label}: ${error.code} ${error instanceof BridgeError && error instanceof Error ? "BridgeError" : "NOT a BridgeError"}` +
    ` ${error.plugin}.${error.action}` + (issue ? ` path=${JSON.stringify(issue.path)} issue=${JSON.stringify(issue.message)}` : ""));
  // (The wrong-kind messages end with ": it is a(n) <kind> action."; only their first part is checked.)
  console.log(`  ${error.message.split(": it is ")[0]}`);
}
async function check(label, operation) {
  try {
    const value = await operation();
    console.log(`${label}: unexpectedly succeeded with`, value);
  } catch (error) {
    show(label, error);
  }
}
(async () => {
  await check("unknown plugin (call)", () => bridge.call("Nope", "x", {}));
  await check("unknown plugin (proxy)", () => bridge.plugins.Nope.anything({}));
  await check("unknown plugin (execSync)", () => bridge.execSync("Nope", "x", []));
  await check("unknown action", () => bridge.call("Echo", "nope", {}));
  await check("unknown action (proxy)", () => bridge.plugins.Echo.nope({}));
  await check("execSync on an async action", () => bridge.execSync("Echo", "echo", [1]));
  await check("subscribe on a non-stream", () => bridge.subscribe("Echo", "echo", {}, () => {}).done);
  await check("call on a stream", () => bridge.call("Echo", "ticks", { count: 1 }));
  await check("ping with a string (execSync)", () => bridge.execSync("Echo", "ping", ["x"]));
  await check("ping with a string (call)", () => bridge.call("Echo", "ping", "x"));
  await check("ticks with count -1", () => bridge.subscribe("Echo", "ticks", { count: -1 }, () => {}).done);
  await check("ticks without count", () => bridge.subscribe("Echo", "ticks", {}, () => {}).done);
  await check("echo with a function", () => bridge.call("Echo", "echo", { a: { b: [1, () => 1] } }));
  const cycle = { x: {} };
  cycle.x.self = cycle;
  await check("echo with a cycle", () => bridge.call("Echo", "echo", { list: [cycle] }));
  await check("echo with a BigInt", () => bridge.call("Echo", "echo", { n: 10n }));
  await check("echo with a symbol", () => bridge.call("Echo", "echo", { "odd key": Symbol("s") }));
  const aborted = new AbortController();
  aborted.abort();
  await check("call with an aborted signal", () => bridge.call("Echo", "echo", 1, { signal: aborted.signal }));
  const later = new AbortController();
  const pending = bridge.call("Echo", "echo", 1, { signal: later.signal });
  later.abort();
  await check("call aborted while in flight", () => pending);
  await check("fail with its default code", () => bridge.call("Echo", "fail", {}));
  await check("fail with a custom code", () => bridge.call("Echo", "fail", { code: "E_CUSTOM", message: "custom message" }));
  await check("exec fail callback", () => new Promise((resolve, reject) =>
    bridge.exec(resolve, reject, "Echo", "fail", [{ code: "VIA_EXEC" }])));
  await check("exec on an unknown plugin", () => new Promise((resolve, reject) =>
    bridge.exec(resolve, reject, "Nope", "x", [])));
  // What does cross: plain data as is, toJSON results (a Date, a custom one), NaN as null, holes as null.
  const echoed = await bridge.call("Echo", "echo", {
    d: new Date(0), t: { toJSON() { return "T"; } }, n: NaN, h: [1, , 3], u: undefined, deep: [[[[1]]]],
    bare: Object.assign(Object.create(null), { k: "v" }),
  });
  console.log("echo of data:", JSON.stringify(echoed));
  console.log("pending:", bridge.pendingCalls);
})();
