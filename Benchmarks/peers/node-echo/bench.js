// Node peer for Benchmarks/scripts/call.js and Benchmarks/scripts/memory.js:
// `await echo({i})` through the Node-API addon in echo.c (async work on the libuv pool).
//
//   node bench.js <echo.node> inflight <K> [N] [RUNS]   -> {"perSec": …}
//       K promises kept outstanding (K = 1: a plain await loop), N completions
//       counted per run, best of RUNS runs after a warm-up.
//   node bench.js <echo.node> memory [TOTAL] [BATCH]    -> {"rssBefore": …, …}
//       RSS around TOTAL calls made in batches of BATCH in flight.
//
// The loops have the same shape as the jsbridge scripts; keep them in step.
'use strict';
const path = require('path');
const { echo } = require(path.resolve(process.argv[2]));

async function runInFlight(K, N) {
  let next = 0, done = 0;
  async function worker() {
    while (next < N) {
      const i = next++;
      const r = await echo({ i });
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

async function inflight(K, N, RUNS) {
  await runInFlight(K, Math.max(1000, Math.floor(N / 10))); // warm-up
  let best = 0;
  for (let r = 0; r < RUNS; r++) best = Math.max(best, await runInFlight(K, N));
  return { perSec: best, inFlight: K, n: N, runs: RUNS };
}

async function batches(count, B, samples) {
  const every = Math.max(1, Math.round(count / 10));
  for (let b = 0; b < count; b++) {
    const ps = new Array(B);
    for (let j = 0; j < B; j++) ps[j] = echo({ i: j });
    const rs = await Promise.all(ps);
    if (rs[B - 1].i !== B - 1) throw new Error('bad echo');
    if (samples && (b + 1) % every === 0) samples.push(process.memoryUsage().rss);
  }
}

async function memory(TOTAL, B) {
  const rssStart = process.memoryUsage().rss;
  // Warm-up: 1.5M calls, until JIT tier-up and the GC heap reach steady state (jsbridge promotes hot
  // code to JavaScriptCore's top tier after 10x its default warm-up: a ~20 MB one-time step seen
  // 0.9-1.0M calls in with this loop).
  await batches(1500, B);
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  const samples = [];
  await batches(Math.ceil(TOTAL / B), B, samples);
  const t1 = performance.now();
  const rssAfter = process.memoryUsage().rss;
  return { rssStart, rssBefore, rssAfter, growth: rssAfter - rssBefore,
           calls: Math.ceil(TOTAL / B) * B, samples, perSec: (Math.ceil(TOTAL / B) * B) / ((t1 - t0) / 1000) };
}

async function main() {
  const mode = process.argv[3];
  const num = (k, d) => (process.argv[k] !== undefined ? Number(process.argv[k]) : d);
  let out;
  if (mode === 'inflight') out = await inflight(num(4, 1), num(5, 200000), num(6, 3));
  else if (mode === 'memory') out = await memory(num(4, 1000000), num(5, 1000));
  else throw new Error(`unknown mode ${mode}`);
  console.log(JSON.stringify(out));
}
main().catch((e) => { console.error(e && e.stack || e); process.exit(1); });
