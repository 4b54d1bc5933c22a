// await bridge.call("Echo", "echo", {i}) round trips/s with K calls in flight —
// the same loop as Benchmarks/peers/node-echo/bench.js (mode "inflight").
// Usage: jsbridge call.js <K> [N] [RUNS]   -> {"perSec": …}
//   K promises kept outstanding (K = 1: a plain await loop), N completions counted
//   per run, best of RUNS runs after a warm-up.
'use strict';
const num = (k, d) => (process.argv[k] !== undefined ? Number(process.argv[k]) : d);

async function runInFlight(K, N) {
  let next = 0, done = 0;
  async function worker() {
    while (next < N) {
      const i = next++;
      const r = await bridge.call('Echo', 'echo', { i });
      if (r.i !== i) throw new Error(`bad echo ${JSON.stringify(r)} for ${i}`);
      done++;
    }
  }
  const t0 = performance.now();
  const workers = [];
  for (let k = 0; k < K; k++) workers.push(worker());
  await Promise.all(workers);
  const t1 = performance.now();
  if (done !== N) throw new Error(`completed ${done} of ${N}`);
  return done / ((t1 - t0) / 1000);
}

async function main() {
  const K = num(2, 1), N = num(3, 200000), RUNS = num(4, 3);
  await runInFlight(K, Math.max(1000, Math.floor(N / 10))); // warm-up
  let best = 0;
  for (let r = 0; r < RUNS; r++) best = Math.max(best, await runInFlight(K, N));
  console.log(JSON.stringify({ perSec: best, inFlight: K, n: N, runs: RUNS }));
}
main().catch((e) => { console.error(e && e.stack || e); process.exit(1); });
