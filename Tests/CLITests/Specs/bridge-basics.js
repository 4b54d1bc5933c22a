// The bridge from a script: execSync, call, the plugins proxy, cordova.exec success and fail, ready.
const value = {
  text: "héllo wörld — 🌍 日本語 \u0000 \"quoted\" \\ \n new line",
  numbers: [0, -1, 2.5, 1e21, -3e-7, Number.MAX_SAFE_INTEGER],
  flags: [true, false, null],
  nested: { deeper: { deepest: [{ k: "v" }, [], {}] } },
  "key with spaces": "ok",
  "ключ": "значение",
};
(async () => {
  await bridge.ready;
  console.log("ready");
  console.log("execSync ping:", bridge.execSync("Echo", "ping", [41]));
  const echoed = await bridge.call("Echo", "echo", value);
  console.log("call echo round trip:", JSON.stringify(echoed) === JSON.stringify(value));
  console.log(JSON.stringify(echoed.text), echoed["ключ"]);
  console.log("echo of a string:", await bridge.call("Echo", "echo", "just a string"));
  console.log("echo of null:", await bridge.call("Echo", "echo", null));
  console.log("proxy echo:", await bridge.plugins.Echo.echo({ a: [1, { b: "c" }] }));
  console.log("proxy ping:", await bridge.plugins.Echo.ping(1));
  console.log("plugins:", Object.keys(bridge.plugins).includes("Echo"), "Echo" in bridge.plugins, "Nope" in bridge.plugins);
  console.log("cordova.exec is bridge.exec:", cordova.exec === bridge.exec);
  await new Promise((resolve) => {
    cordova.exec((result) => { console.log("cordova success:", result); resolve(); },
      (error) => { console.log("unexpected fail", error); resolve(); }, "Echo", "echo", [{ x: 1 }]);
  });
  await new Promise((resolve) => {
    cordova.exec((result) => { console.log("cordova sync success:", result); resolve(); },
      (error) => { console.log("unexpected fail", error); resolve(); }, "Echo", "ping", [9]);
  });
  await new Promise((resolve) => {
    cordova.exec(() => { console.log("unexpected success"); resolve(); }, (error) => {
      console.log("cordova fail:", error instanceof BridgeError, error.code, error.message, error.plugin, error.action);
      resolve();
    }, "Echo", "fail", [{ code: "CUSTOM_CODE", message: "custom message" }]);
  });
  const ticks = [];
  await new Promise((resolve) => {
    cordova.exec((tick) => { ticks.push(tick); if (ticks.length === 3) resolve(); }, null, "Echo", "ticks", [{ count: 3 }]);
  });
  console.log("cordova stream (keep-callback):", ticks);
  console.log("pending:", bridge.pendingCalls);
})();
