// The jsbridge side of Benchmarks/queue/run: N Queue.enqueue (100 in flight), then one Queue.work with
// concurrency 8 until the store counts every job done. Prints one JSON line: enqueuePerSec, completePerSec.
const N = Number(process.env.QUEUE_BENCH_N || 5000);

(async () => {
  const t0 = performance.now();
  for (let base = 0; base < N; base += 100) {
    const batch = [];
    for (let i = base; i < Math.min(N, base + 100); i++) batch.push(Queue.enqueue("bench", { i }));
    await Promise.all(batch);
  }
  const t1 = performance.now();
  let ran = 0, allRan;
  const ranAll = new Promise((resolve) => { allRan = resolve; });
  const worker = Queue.work("bench", () => { if (++ran === N) allRan(); }, { concurrency: 8 });
  // Done means committed: once every handler has run, wait for the store to count every job done (asking
  // only then, so the count's queries do not compete with the worker's for the connections).
  await ranAll;
  while ((await Queue.stats("bench")).done !== N) await new Promise((r) => setTimeout(r, 2));
  const t2 = performance.now();
  await worker.stop();
  if (ran !== N) throw new Error(`ran ${ran} handlers for ${N} jobs`);
  console.log(JSON.stringify({
    enqueuePerSec: Math.round(N / ((t1 - t0) / 1000)),
    completePerSec: Math.round(N / ((t2 - t1) / 1000)),
  }));
})();
