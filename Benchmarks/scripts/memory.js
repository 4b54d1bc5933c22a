// RSS before and after 1,000,000 `await bridge.call("Echo", "echo", {i})` calls made
// in batches of 1000 in flight — the same loop as Benchmarks/peers/node-echo/bench.js
// (mode "memory").
// Usage: jsbridge memory.js [TOTAL] [BATCH]
//   -> {"rssStart": …, "rssBefore": …, "rssAfter": …, "growth": …}   (bytes)
// rssStart is taken first thing; rssBefore after a warm-up of 1500 batches (thread pools,
// JIT code and other one-time allocations); growth = rssAfter - rssBefore; samples:
// RSS after every tenth of the calls (a leak climbs steadily, GC garbage saw-tooths).
'use strict';
const num = (k, d) => (process.argv[k] !== undefined ? Number(process.argv[k]) : d);

async function batches(count, B, samples) {
  const every = Math.max(1, Math.round(count / 10));
  for (let b = 0; b < count; b++) {
    const ps = new Array(B);
    for (let j = 0; j < B; j++) ps[j] = bridge.call('Echo', 'echo', { i: j });
    const rs = await Promise.all(ps);
    if (rs[B - 1].i !== B - 1) throw new Error('bad echo');
    if (samples && (b + 1) % every === 0) samples.push(process.memoryUsage().rss);
  }
}

async function main() {
  const TOTAL = num(2, 1000000), B = num(3, 1000);
  const rssStart = process.memoryUsage().rss;
  // Warm-up: 1.5M calls, until JIT tier-up and the GC heap reach steady state (jsbridge promotes hot
  // code to JavaScriptCore's top tier after 10x its default warm-up: a ~20 MB one-time step seen
  // 0.9-1.0M calls in with this loop).
  await batches(1500, B);
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  const count = Math.ceil(TOTAL / B);
  const samples = [];
  await batches(count, B, samples);
  const t1 = performance.now();
  const rssAfter = process.memoryUsage().rss;
  console.log(JSON.stringify({ rssStart, rssBefore, rssAfter, growth: rssAfter - rssBefore,
                               calls: count * B, samples, perSec: (count * B) / ((t1 - t0) / 1000) }));
}
main().catch((e) => { console.error(e && e.stack || e); process.exit(1); });
