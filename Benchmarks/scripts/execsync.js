// bridge.execSync("Echo", "ping", [i]) ns/call — the same loop as runShape() in
// Benchmarks/peers/jsc-floor.c (the floor runs a raw native ping(i) in the same shape).
// Usage: jsbridge execsync.js [N] [RUNS]   -> {"nsPerCall": …}
'use strict';
const N = process.argv[2] !== undefined ? Number(process.argv[2]) : 2000000;
const RUNS = process.argv[3] !== undefined ? Number(process.argv[3]) : 5;

function run(N) {
  let x = 0;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) x = bridge.execSync('Echo', 'ping', [i]);
  const t1 = performance.now();
  if (x !== N) throw new Error('bad result ' + x);
  return (t1 - t0) * 1e6 / N;
}

function best(run, N, RUNS) {
  run(Math.min(N, 200000)); // warm-up
  let b = Infinity;
  for (let r = 0; r < RUNS; r++) b = Math.min(b, run(N));
  return b;
}

console.log(JSON.stringify({ nsPerCall: best(run, N, RUNS), n: N, runs: RUNS }));
