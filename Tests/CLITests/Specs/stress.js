// The stress test (CLI specs stress-*.expected): seeded rounds of 200 random bridge operations - echo calls,
// calls cancelled by a signal at once or after 0-2 ms, calls with 0-1 ms timeouts, failing actions, streams
// longer than the back-pressure window (half of them cancelled after 50 values) and sync calls. Prints whether
// every call settled exactly once, the calls still pending and the outcomes seen. Under `swift test
// --sanitize=thread` the binary it runs on is built with ThreadSanitizer (docs/fuzzing.md, "Sanitizers").
//   jsbridge stress.js <seed> [<round at which to call process.exit(7) with the round's calls in flight>]
const exitRound = process.argv[3] === undefined ? -1 : Number(process.argv[3]);
let state = Number(process.argv[2] ?? 1);
const rand = (n) => { state = (state * 1103515245 + 12345) % 2147483648; return state % n; };
let issued = 0, settled = 0;
const outcomes = new Set();
const settle = (kind) => { settled++; outcomes.add(kind); };
const failed = (e) => settle(e.code);
function operation(i, batch) {
  issued++;
  switch (rand(6)) {
    case 0:
      batch.push(bridge.call("Echo", "echo", { i }).then((v) => settle(v.i === i ? "ok" : "wrong"), failed));
      break;
    case 1: {
      const controller = new AbortController();
      batch.push(bridge.call("Echo", "echo", { i }, { signal: controller.signal }).then(() => settle("ok"), failed));
      if (rand(2) === 0) controller.abort(); else setTimeout(() => controller.abort(), rand(3));
      break;
    }
    case 2:
      batch.push(bridge.call("Echo", "echo", { i }, { timeout: rand(2) }).then(() => settle("ok"), failed));
      break;
    case 3:
      batch.push(bridge.call("Echo", "fail", { code: "E_STRESS" }).then(() => settle("wrong"), failed));
      break;
    case 4:
      batch.push(new Promise((resolve) => {
        let n = 0;
        const stop = rand(2) === 0;
        const sub = bridge.subscribe("Echo", "ticks", { count: 1100, intervalMs: 0 }, () => {
          if (++n === 50 && stop) sub.cancel();
        });
        sub.done.then(() => { settle(stop || n === 1100 ? "stream" : "short"); resolve(); }, (e) => { failed(e); resolve(); });
      }));
      break;
    default:
      settle(bridge.execSync("Echo", "ping", i) === i + 1 ? "sync" : "wrong");
  }
}
(async () => {
  for (let r = 0; r < 5; r++) {
    const batch = [];
    for (let i = 0; i < 200; i++) operation(i, batch);
    if (r === exitRound) process.exit(7);
    await Promise.all(batch);
  }
  console.log(issued === settled, bridge.pendingCalls, [...outcomes].sort().join(","));
})();
