// A tour of jsbridge: run it with `jsbridge examples/tour.js`.
// Every step prints what it does; the output is the same on every run.

const { title, describe } = require("./tour-module"); // CommonJS, relative to this file
const data = require("./tour-data.json");

const step = (text) => console.log("\n" + title(text));

async function main() {
  await bridge.ready; // resolved once every plugin is set up
  console.log(describe());

  step("1. bridge.execSync: a synchronous action");
  console.log("Echo.ping(41) =", bridge.execSync("Echo", "ping", [41]));

  step("2. bridge.call: an async action, as a Promise");
  console.log("Echo.echo →", await bridge.call("Echo", "echo", { hello: "world", list: [1, 2, 3] }));

  step("3. bridge.plugins: a proxy over bridge.call");
  console.log("plugins:", Object.keys(bridge.plugins));
  console.log("bridge.plugins.Echo.echo('proxy') →", await bridge.plugins.Echo.echo("proxy"));

  step("4. cordova.exec: success/fail callbacks, args as an array");
  await new Promise((resolve) => {
    // A one-element args array passes its element; [] passes null; longer arrays pass the array.
    cordova.exec((value) => { console.log("success:", value); resolve(); },
      (error) => { console.log("fail:", error.code); resolve(); },
      "Echo", "echo", [{ via: "cordova" }]);
  });

  step("5. bridge.subscribe: a stream, cancelled from JavaScript");
  await new Promise((resolve) => {
    const ticks = [];
    const subscription = bridge.subscribe("Echo", "ticks", { count: 100, intervalMs: 1 }, (tick) => {
      ticks.push(tick);
      if (tick === 2) {
        subscription.cancel(); // reaches the Swift side, which stops producing
        console.log("ticks before cancel:", ticks);
        resolve();
      }
    });
  });
  const all = [];
  await bridge.subscribe("Echo", "ticks", { count: 4 }, (tick) => all.push(tick)).done;
  console.log("a stream that finishes on its own:", all);

  step("6. BridgeError: every failure has a stable code");
  try {
    await bridge.call("Echo", "fail", { code: "TOUR_FAILURE", message: "failed on purpose" });
  } catch (error) {
    console.log(error instanceof BridgeError, error instanceof Error, error.code, error.message);
    console.log(`plugin: ${error.plugin}, action: ${error.action}`);
  }
  for (const attempt of [
    () => bridge.execSync("Nope", "ping", []),
    () => bridge.execSync("Echo", "nope", []),
    () => bridge.execSync("Echo", "echo", ["sync?"]),
    () => bridge.execSync("Echo", "ping", ["not a number"]),
  ]) {
    try {
      attempt();
    } catch (error) {
      console.log(`${error.code}: ${error.message}`);
    }
  }
  try {
    await bridge.call("Echo", "ticks", { count: "three" });
  } catch (error) {
    console.log(`${error.code}: ${error.message}`);
  }
  await new Promise((resolve) => {
    bridge.subscribe("Echo", "ticks", { count: "three" }, () => {}, (error) => {
      console.log(`${error.code}, issues:`, error.data.issues);
      resolve();
    });
  });

  step("7. Deadlines: AbortSignal and a per-call timeout");
  const controller = new AbortController();
  const aborted = bridge.call("Echo", "echo", "never mind", { signal: controller.signal });
  controller.abort();
  try {
    await aborted;
  } catch (error) {
    console.log("aborted:", error.code);
  }
  const late = bridge.call("Echo", "echo", "too late", { timeout: 1 });
  // Keep the JS thread busy past the 1 ms deadline: the loop runs due timers before it reads answers.
  const busyUntil = Date.now() + 5;
  while (Date.now() < busyUntil) {}
  try {
    await late;
  } catch (error) {
    console.log("timed out:", error.code, "-", error.message);
  }
  console.log("calls still pending:", bridge.pendingCalls);

  step("8. Timers, microtasks and their order");
  const order = [];
  setTimeout((what) => order.push(what), 5, "timeout 5ms"); // extra arguments go to the callback
  setTimeout(() => order.push("timeout 1ms"), 1);
  setImmediate(() => order.push("immediate"));
  queueMicrotask(() => order.push("microtask"));
  Promise.resolve().then(() => order.push("promise"));
  order.push("sync");
  await new Promise((resolve) => setTimeout(resolve, 20));
  console.log(order.join(" → "));
  let runs = 0;
  await new Promise((resolve) => {
    const interval = setInterval(() => {
      if (++runs === 3) { clearInterval(interval); resolve(); }
    }, 1);
  });
  console.log("setInterval ran", runs, "times, then clearInterval stopped it");
  const idle = setTimeout(() => console.log("never printed"), 60000).unref();
  console.log("an unref'd timer does not keep the process alive:", !idle.hasRef());

  step("9. console: nested objects, format strings, errors");
  console.log({ plugin: "Echo", nested: { deeper: { deepest: { hidden: true } } }, list: [1, "two", null], map: new Map([["k", 1]]) });
  console.log("%s has %d actions, e.g. %O", "Echo", 5, { sync: "ping", async: "echo" });
  console.error("console.error writes to stderr");
  console.log(new BridgeError("DEMO", "a BridgeError made in JS", { plugin: "Tour", action: "demo" }).code);

  step("10. require: JSON and CommonJS");
  console.log(data, "same object on a second require:", require("./tour-data.json") === data);

  step("11. Web APIs: TextEncoder, URL, structuredClone");
  const bytes = new TextEncoder().encode("héllo ✓");
  console.log(bytes.length, "bytes:", Array.from(bytes.slice(0, 3)), "→", new TextDecoder().decode(bytes));
  const url = new URL("https://example.com:8080/path/../api?q=jsbridge&lang=swift#top");
  console.log(url.host, url.pathname, url.searchParams.get("q"), url.hash);
  url.searchParams.append("page", "2");
  console.log(url.href);
  console.log(structuredClone({ when: new Date(0), set: new Set([1, 2]) }));

  step("12. process: argv, exit codes");
  console.log("arguments after the script:", process.argv.slice(2));
  process.on("exit", (code) => console.log(`\nexit handler: code ${code}; done`));
}

main().catch((error) => {
  console.error("tour failed:", error);
  process.exitCode = 1;
});
