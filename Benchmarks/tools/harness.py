#!/usr/bin/env python3
"""Runs the jsbridge benchmarks and their peers in one run and prints a table of
figures, ratios and targets. Called by Benchmarks/run (which does the builds).

Every measurement is a separate process that prints one line of JSON on stdout.
A process that is missing, fails, times out or prints something unparsable turns
its row into "error" (the reason is listed under the table); the run goes on.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

MB = 1024 * 1024


class BenchError(Exception):
    pass


def run_json(cmd, timeout, log):
    """Runs cmd, returns the JSON object on its last stdout line."""
    if not os.path.exists(cmd[0]) and os.sep in cmd[0]:
        raise BenchError(f"{cmd[0]} not found")
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise BenchError(f"timed out after {timeout}s: {' '.join(cmd)}")
    except OSError as e:
        raise BenchError(f"{cmd[0]}: {e}")
    log.write(f"$ {' '.join(cmd)}  # rc={p.returncode} {time.monotonic() - t0:.1f}s\n"
              f"{p.stdout}{p.stderr}\n")
    log.flush()
    if p.returncode != 0:
        tail = (p.stderr.strip() or p.stdout.strip()).splitlines()[-3:]
        raise BenchError(f"exit {p.returncode}: {' '.join(cmd)}: {' | '.join(tail)}")
    lines = [l for l in p.stdout.splitlines() if l.strip()]
    if not lines:
        raise BenchError(f"no output: {' '.join(cmd)}")
    try:
        value = json.loads(lines[-1])
    except ValueError:
        raise BenchError(f"not JSON: {lines[-1][:200]!r} from {' '.join(cmd)}")
    if not isinstance(value, dict):
        raise BenchError(f"not a JSON object: {lines[-1][:200]!r}")
    return value


def number(obj, key):
    v = obj.get(key)
    if not isinstance(v, (int, float)) or isinstance(v, bool) or v != v or v <= 0:
        raise BenchError(f"bad {key!r} in {json.dumps(obj)[:200]}")
    return float(v)


class Side:
    """The best figure of one side over several processes (or the first error)."""

    def __init__(self, higher_is_better):
        self.higher = higher_is_better
        self.value = None
        self.error = None
        self.raw = []

    def measure(self, fn):
        """fn() -> (figure, raw JSON); a BenchError marks the side as failed."""
        if self.error is not None:
            return
        try:
            v, raw = fn()
        except BenchError as e:
            self.fail(str(e))
            return
        self.add(v, raw)

    def add(self, v, raw):
        self.raw.append(raw)
        if self.value is None or (v > self.value if self.higher else v < self.value):
            self.value = v

    def fail(self, msg):
        # one failed process spoils the side: a best-of over the survivors would hide a crash
        self.error = msg
        self.value = None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--jsbridge", required=True)
    ap.add_argument("--jsbridge-error", default="", help="why jsbridge is unusable (build failed)")
    ap.add_argument("--quick", action="store_true", help="small counts, for checking the harness")
    ap.add_argument("--custom-runtime", default="",
                    help="a runtime of the host, the web extension and one plugin (examples/web-runtime)")
    a = ap.parse_args()

    bench = os.path.join(a.root, "Benchmarks")
    out = os.path.join(bench, ".out")
    scripts = os.path.join(bench, "scripts")
    jsb = a.jsbridge
    floor = os.path.join(out, "jsc-floor")
    addon = os.path.join(out, "echo.node")
    node_bench = os.path.join(bench, "peers", "node-echo", "bench.js")
    timer = os.path.join(out, "spawn-timer")
    log = open(os.path.join(out, "bench.log"), "w")

    env = os.environ.get
    q = a.quick
    rounds = int(env("BENCH_ROUNDS", "1" if q else "2"))        # processes per side, alternated
    n_sync = int(env("BENCH_SYNC_N", "200000" if q else "2000000"))
    sync_runs = int(env("BENCH_SYNC_RUNS", "2" if q else "5"))
    n_rt1 = int(env("BENCH_RT1_N", "5000" if q else "50000"))
    n_rtk = int(env("BENCH_RTK_N", "20000" if q else "200000"))
    rt_runs = int(env("BENCH_RT_RUNS", "2" if q else "3"))
    k_inflight = int(env("BENCH_INFLIGHT", "1000"))
    startup_runs = int(env("BENCH_STARTUP_RUNS", "5" if q else "21"))
    mem_total = int(env("BENCH_MEM_CALLS", "50000" if q else "1000000"))
    mem_batch = int(env("BENCH_MEM_BATCH", "1000"))
    timeout = int(env("BENCH_TIMEOUT", "600"))

    def jsb_json(*args):
        if a.jsbridge_error:
            raise BenchError(a.jsbridge_error)
        if not os.access(jsb, os.X_OK):
            raise BenchError(f"{jsb} not built")
        return run_json([jsb, *[str(x) for x in args]], timeout, log)

    def node_json(*args, pin=None):
        if not os.path.exists(addon):
            raise BenchError(f"{addon} not built")
        return run_json([*pinned(pin), "node", node_bench, addon, *[str(x) for x in args]], timeout, log)

    def pinned(cpu):
        """The command prefix that runs a process on CPU `cpu` alone (none for None)."""
        if cpu is None:
            return []
        if shutil.which("taskset") is None:
            raise BenchError("taskset not found (util-linux)")
        return ["taskset", "-c", str(cpu)]

    def jsb_pinned_json(cpu, *args):
        if a.jsbridge_error:
            raise BenchError(a.jsbridge_error)
        if not os.access(jsb, os.X_OK):
            raise BenchError(f"{jsb} not built")
        return run_json([*pinned(cpu), jsb, *[str(x) for x in args]], timeout, log)

    rows = []     # (name, unit, jsb Side|None, peer Side|None, peer name, mode, target)
    details = []

    def progress(msg):
        print(f"  … {msg}", file=sys.stderr, flush=True)

    # 1. execSync vs the raw JSC C-API floor
    progress(f"execSync ns/call: N={n_sync}, best of {sync_runs} runs, {rounds} round(s)")
    j_sync, f_raw, f_shape = Side(False), Side(False), Side(False)
    for _ in range(rounds):
        if f_raw.error is None:
            try:
                r = run_json([floor, str(n_sync), str(sync_runs)], timeout, log)
                f_raw.add(number(r, "nsPerCall"), r)
                f_shape.add(number(r, "nsPerCallSameShape"), r)
            except BenchError as e:
                f_raw.fail(str(e))
        j_sync.measure(lambda: (lambda r: (number(r, "nsPerCall"), r))(
            jsb_json(os.path.join(scripts, "execsync.js"), n_sync, sync_runs)))
    if f_raw.error:
        f_shape.fail(f_raw.error)
    rows.append(("execSync(\"Echo\",\"ping\",[i])", "ns/call", j_sync, f_raw,
                 "JSC C-API ping(i)", "le", 3.0))
    rows.append(("  same row, round-3 target (issue 35)", "ns/call", j_sync, f_raw,
                 "JSC C-API ping(i)", "le", 1.5))
    rows.append(("  same call, floor in the same shape", "ns/call", j_sync, f_shape,
                 "JSC C-API bridge.execSync", "info", None))

    # 2, 3. async round trips, 1 and K in flight
    for k, n in ((1, n_rt1), (k_inflight, n_rtk)):
        progress(f"bridge.call round trips/s, {k} in flight: N={n}, best of {rt_runs} runs, "
                 f"{rounds} round(s)")
        j, p = Side(True), Side(True)
        for _ in range(rounds):
            p.measure(lambda: (lambda r: (number(r, "perSec"), r))(
                node_json("inflight", k, n, rt_runs)))
            j.measure(lambda: (lambda r: (number(r, "perSec"), r))(
                jsb_json(os.path.join(scripts, "call.js"), k, n, rt_runs)))
        rows.append((f"await bridge.call echo, {k} in flight", "calls/s", j, p,
                     "Node 20 N-API async work", "ge", 1.0))
        rows.append(("  same row, round-3 target (issue 35)", "calls/s", j, p,
                     "Node 20 N-API async work", "ge", 1.5 if k == 1 else 2.0))

    # 3b. the same round trips with both runtimes on one CPU (`taskset -c 0`), as in a one-CPU container: the JS
    # thread and the worker that runs the action take turns on that CPU.
    for k, n, mode, target in ((1, n_rt1, "ge", 1.5), (k_inflight, n_rtk, "info", None)):
        progress(f"bridge.call round trips/s, {k} in flight, one core: N={n}, best of {rt_runs} runs, "
                 f"{rounds} round(s)")
        j, p = Side(True), Side(True)
        for _ in range(rounds):
            p.measure(lambda: (lambda r: (number(r, "perSec"), r))(
                node_json("inflight", k, n, rt_runs, pin=0)))
            j.measure(lambda: (lambda r: (number(r, "perSec"), r))(
                jsb_pinned_json(0, os.path.join(scripts, "call.js"), k, n, rt_runs)))
        rows.append((f"await bridge.call echo, {k} in flight, one core", "calls/s", j, p,
                     "Node 20 N-API, one core", mode, target))

    # 4. start-up
    progress(f"start-up: median of {startup_runs} interleaved runs each")
    j_start, n_start = Side(False), Side(False)
    try:
        if a.jsbridge_error:
            raise BenchError(a.jsbridge_error)
        if not os.access(jsb, os.X_OK):
            raise BenchError(f"{jsb} not built")
        # sanity: -e must really evaluate (a stub that exits 0 would "win" the start-up race)
        try:
            chk = subprocess.run([jsb, "-e", "console.log(JSON.stringify({v: 6 * 7}))"],
                                 stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
        except (subprocess.TimeoutExpired, OSError) as e:
            raise BenchError(f"jsbridge -e check: {e}")
        if chk.returncode != 0 or chk.stdout.strip() != '{"v":42}':
            raise BenchError(f"jsbridge -e check: exit {chk.returncode}, stdout {chk.stdout.strip()[:80]!r}, "
                             f"stderr {chk.stderr.strip()[-160:]!r}")
        r = run_json([timer, str(startup_runs), jsb, "-e", "0", "::", "node", "-e", "0"],
                     timeout, log)
        j_start.measure(lambda: (number(r["a"], "medianMs"), r["a"]))
        n_start.measure(lambda: (number(r["b"], "medianMs"), r["b"]))
        details.append(f"start-up min: jsbridge {r['a']['minMs']:.2f} ms, node {r['b']['minMs']:.2f} ms")
    except (BenchError, KeyError, TypeError) as e:
        j_start.error = str(e) or "bad spawn-timer output"
        # still time node on its own, so its figure shows
        try:
            r = run_json([timer, str(startup_runs), "node", "-e", "0", "::", "node", "-e", "0"],
                         timeout, log)
            n_start.measure(lambda: (number(r["a"], "medianMs"), r["a"]))
        except (BenchError, KeyError, TypeError) as e2:
            n_start.error = str(e2)
    rows.append(("start-up: -e 0 (median)", "ms", j_start, n_start, "node -e 0", "le", 0.3))

    # 4b. start-up memory: peak RSS of `-e 0` (GNU time's %M), best of 3, alternated
    progress("start-up memory: peak RSS of -e 0, best of 3 each")
    j_peak, n_peak = Side(False), Side(False)

    def peak_rss(cmd):
        try:
            done = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, timeout=60)
        except (subprocess.TimeoutExpired, OSError) as e:
            raise BenchError(f"/usr/bin/time: {e}")
        kb = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
        if done.returncode != 0 or not kb.isdigit():
            raise BenchError(f"{cmd[0]} -e 0: exit {done.returncode}, stderr {done.stderr.strip()[-120:]!r}")
        return int(kb) / 1024, {"peakKB": int(kb)}

    for _ in range(3):
        if not j_start.error:
            j_peak.measure(lambda: peak_rss([jsb, "-e", "0"]))
        else:
            j_peak.fail(j_start.error)
        n_peak.measure(lambda: peak_rss(["node", "-e", "0"]))
    rows.append(("start-up: peak RSS of -e 0 (best)", "MiB", j_peak, n_peak, "node -e 0", "le", 1.0))

    # 4c. a custom runtime of the host, the web extension and one plugin (no node, modules, cordova, repl), beside
    # jsbridge: what the engine extensions a runtime leaves out save at start-up.
    if a.custom_runtime:
        progress("start-up of a custom runtime (host + web + Echo) beside jsbridge's")
        c_start, c_peer, c_peak, c_peak_peer = Side(False), Side(False), Side(False), Side(False)
        try:
            if not os.access(a.custom_runtime, os.X_OK):
                raise BenchError(f"{a.custom_runtime} not built")
            if j_start.error:
                raise BenchError(j_start.error)
            r = run_json([timer, str(startup_runs), a.custom_runtime, "-e", "0", "::", jsb, "-e", "0"], timeout, log)
            c_start.measure(lambda: (number(r["a"], "medianMs"), r["a"]))
            c_peer.measure(lambda: (number(r["b"], "medianMs"), r["b"]))
            for _ in range(3):
                c_peak.measure(lambda: peak_rss([a.custom_runtime, "-e", "0"]))
                c_peak_peer.measure(lambda: peak_rss([jsb, "-e", "0"]))
        except (BenchError, KeyError, TypeError) as e:
            for side in (c_start, c_peer, c_peak, c_peak_peer):
                side.fail(str(e))
        rows.append(("  web-runtime (host+web+Echo): -e 0", "ms", c_start, c_peer, "jsbridge -e 0", "info", None))
        rows.append(("  web-runtime: peak RSS of -e 0", "MiB", c_peak, c_peak_peer, "jsbridge -e 0", "info", None))

    # 5. memory
    progress(f"memory: RSS around {mem_total} async calls in batches of {mem_batch}")
    j_mem, n_mem = Side(False), Side(False)

    def mem(side, fn, who):
        def go():
            r = fn()
            for key in ("rssStart", "rssBefore", "rssAfter"):
                number(r, key)
            g = r.get("growth")
            if not isinstance(g, (int, float)):
                raise BenchError(f"bad growth in {json.dumps(r)[:200]}")
            details.append(f"{who} RSS: start {r['rssStart'] / MB:.1f} MB, before {r['rssBefore'] / MB:.1f} MB "
                           f"(after a 1500-batch warm-up), after {r['rssAfter'] / MB:.1f} MB; growth "
                           f"{g / MB:+.1f} MB (from start {(r['rssAfter'] - r['rssStart']) / MB:+.1f} MB) "
                           f"over {r.get('calls', mem_total)} calls")
            smp = r.get("samples")
            if isinstance(smp, list) and smp and all(isinstance(x, (int, float)) for x in smp):
                details.append(f"{who} RSS every tenth of the calls, MB: "
                               + " ".join(f"{x / MB:.0f}" for x in smp)
                               + (f" (second half of the calls: {(smp[-1] - smp[len(smp) // 2 - 1]) / MB:+.1f} MB)"
                                  if len(smp) >= 4 else ""))
            return g / MB, r
        side.measure(go)

    mem(n_mem, lambda: node_json("memory", mem_total, mem_batch), "node    ")
    mem(j_mem, lambda: jsb_json(os.path.join(scripts, "memory.js"), mem_total, mem_batch), "jsbridge")
    rows.append((f"RSS growth, {mem_total // 1000}k async calls", "MB", j_mem, n_mem,
                 "Node 20 (for reference)", "abs_lt", 10.0))

    # ---- table
    def fmt(v, unit):
        if v is None:
            return "error"
        if unit == "calls/s":
            return f"{v:,.0f}"
        if unit == "MB":
            return f"{v:+.1f}"
        return f"{v:,.1f}"

    table = []
    errors = []
    results = []
    for name, unit, j, p, pname, mode, target in rows:
        jv = j.value if j else None
        pv = p.value if p else None
        ratio = jv / pv if (jv is not None and pv is not None and mode != "abs_lt") else None
        tgt, verdict = judge(mode, target, ratio, jv, unit)
        table.append((name, unit, fmt(jv, unit), fmt(pv, unit), pname,
                      "—" if ratio is None and mode == "abs_lt" else
                      ("error" if ratio is None else f"{ratio:.2f}×"), tgt, verdict))
        for who, side in (("jsbridge", j), (pname, p)):
            if side and side.error and mode != "info":
                errors.append(f"{name.strip()} / {who}: {side.error}")
        results.append({"benchmark": name.strip(), "unit": unit, "jsbridge": jv, "peer": pv,
                        "peerName": pname, "ratio": ratio, "target": target, "mode": mode,
                        "verdict": verdict,
                        "raw": {"jsbridge": j.raw if j else [], "peer": p.raw if p else []}})

    report(out, table, results, details, errors,
           "ratio = jsbridge / peer, both measured in this run. Absolute times on this shared machine are noise.")


def judge(mode, target, ratio, value, unit):
    """A row's target text and verdict: mode "le"/"ge" compare the ratio, "abs_lt" the value, else info."""
    if mode == "le":
        return f"≤ {target:.2f}×", "error" if ratio is None else ("PASS" if ratio <= target else "MISS")
    if mode == "ge":
        return f"≥ {target:.2f}×", "error" if ratio is None else ("PASS" if ratio >= target else "MISS")
    if mode == "abs_lt":
        return f"< {target:g} {unit}", "error" if value is None else ("PASS" if value < target else "MISS")
    return "(info)", ""


def report(out, table, results, details, errors, note, title=None):
    """Prints the table (rows of benchmark, unit, jsbridge, peer, peer is, ratio, target, verdict), `note`,
    the details and errors; writes <out>/results.json."""
    head = ("benchmark", "unit", "jsbridge", "peer", "peer is", "ratio", "target", "")
    widths = [max(len(str(r[i])) for r in table + [head]) for i in range(len(head))]
    right = {2, 3, 5}

    def line(r):
        return "  ".join(str(c).rjust(widths[i]) if i in right else str(c).ljust(widths[i])
                         for i, c in enumerate(r)).rstrip()

    print()
    if title:
        print(title)
    print(line(head))
    print(line(tuple("-" * w for w in widths)))
    for r in table:
        print(line(r))
    print()
    print(note)
    for d in details:
        print("  " + d)
    if errors:
        print("errors:")
        for e in errors:
            print("  " + e)
    print(f"log: {os.path.relpath(os.path.join(out, 'bench.log'))}, "
          f"results: {os.path.relpath(os.path.join(out, 'results.json'))}")
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump({"results": results, "details": details, "errors": errors}, f, indent=2)


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # never abort the run without a word
        print(f"harness error: {type(e).__name__}: {e}", file=sys.stderr)
    sys.exit(0)
