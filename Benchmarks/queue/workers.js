// The 8-worker row of Benchmarks/queue/run. `workers.js enqueue`: N Queue.enqueue (100 in flight) on queue
// "many". `workers.js work`: a worker of concurrency 8 on it until killed. `workers.js wait`: polls
// Queue.stats every 50 ms until the store counts N done, then prints {"doneAt": <ms since 1970>}. The run
// takes the end from the jobs' own finish times instead, so the poll can be rare (each one counts the
// queue's rows on the database the workers use); doneAt is the fallback when psql is missing.
const N = Number(process.env.QUEUE_BENCH_N || 5000);
const mode = process.argv[2];

(async () => {
  if (mode === "enqueue") {
    for (let base = 0; base < N; base += 100) {
      const batch = [];
      for (let i = base; i < Math.min(N, base + 100); i++) batch.push(Queue.enqueue("many", { i }));
      await Promise.all(batch);
    }
  } else if (mode === "work") {
    Queue.work("many", () => {}, { concurrency: 8 });
  } else if (mode === "wait") {
    while ((await Queue.stats("many")).done < N) await new Promise((r) => setTimeout(r, 50));
    console.log(JSON.stringify({ doneAt: Date.now() }));
  } else {
    throw new Error("usage: workers.js enqueue|work|wait");
  }
})();
