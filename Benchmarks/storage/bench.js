// The jsbridge side of Benchmarks/storage/run: N localStorage.setItem then N getItem (sync API), then the
// Promise API's Storage.set / Storage.get with 1000 calls in flight. Prints one JSON line of ops/s.
const N = Number(process.env.STORAGE_BENCH_N || 100000);
const t0 = performance.now();
for (let i = 0; i < N; i++) localStorage.setItem("key" + i, "value" + i);
const t1 = performance.now();
let total = 0;
for (let i = 0; i < N; i++) total += localStorage.getItem("key" + i).length;
const t2 = performance.now();
if (total === 0) throw new Error("nothing read");

async function inFlight(operation) {
  const start = performance.now();
  for (let base = 0; base < N; base += 1000) {
    const batch = [];
    for (let i = base; i < Math.min(N, base + 1000); i++) batch.push(operation(i));
    await Promise.all(batch);
  }
  return N / ((performance.now() - start) / 1000);
}

(async () => {
  const promiseSet = await inFlight((i) => Storage.set("key" + i, "value" + i));
  const promiseGet = await inFlight((i) => Storage.get("key" + i));
  console.log(JSON.stringify({
    setPerSec: Math.round(N / ((t1 - t0) / 1000)),
    getPerSec: Math.round(N / ((t2 - t1) / 1000)),
    promiseSetPerSec: Math.round(promiseSet),
    promiseGetPerSec: Math.round(promiseGet),
  }));
})();
