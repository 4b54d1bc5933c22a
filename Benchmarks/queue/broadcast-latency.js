// BroadcastChannel latency between two processes (Benchmarks/queue/run): `echo` answers every message;
// `ping` sends one message at a time, waits for its echo, and after 300 round trips prints one JSON line
// with the round trip's median, p99 and max in milliseconds (one way is about half).
const role = process.argv[2];
const ch = new BroadcastChannel("latency");
if (role === "echo") {
  ch.onmessage = ({ data }) => {
    if (data === "stop") ch.close();
    else if (data === "hello?") ch.postMessage("hello");
    else ch.postMessage({ echo: data });
  };
} else {
  const count = 300, times = [];
  let i = 0, t0 = 0, started = false;
  const send = () => { t0 = performance.now(); ch.postMessage(i); };
  const hello = setInterval(() => ch.postMessage("hello?"), 200);
  ch.onmessage = ({ data }) => {
    if (data === "hello") {
      if (!started) { started = true; clearInterval(hello); send(); }
      return;
    }
    if (data.echo !== i) return;
    times.push(performance.now() - t0);
    if (++i < count) { send(); return; }
    times.sort((a, b) => a - b);
    const at = (q) => times[Math.min(count - 1, Math.floor(q * count))];
    console.log(JSON.stringify({ p50: +at(0.5).toFixed(2), p99: +at(0.99).toFixed(2), max: +times[count - 1].toFixed(2) }));
    ch.postMessage("stop");
    ch.close();
  };
}
