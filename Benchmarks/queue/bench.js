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
  let ran = 0;
  const worker = Queue.work("bench", () => { ran++; }, { concurrency: 8 });
  // Done means committed: wait for the store to count every job done.
  while ((await Queue.stats("bench")).done !== N) await new Promise((r) => setTimeout(r, 2));
  const t2 = performance.now();
  await worker.stop();
  if (ran !== N) throw new Error(`ran ${ran} handlers for ${N} jobs`);
  console.log(JSON.stringify({
    enqueuePerSec: Math.round(N / ((t1 - t0) / 1000)),
    completePerSec: Math.round(N / ((t2 - t1) / 1000)),
  }));
})();
