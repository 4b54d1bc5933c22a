#!/usr/bin/env python3
"""The HTTP benchmark (issue 5), called by Benchmarks/http/run (which does the builds).

Starts one loopback HTTP server, then runs each row's two sides as separate processes, alternately
(BENCH_ROUNDS processes per side, the best kept), each printing one JSON line (client.js, http-peer).
Prints one row per figure: benchmark, unit, jsbridge, peer, peer is, ratio (jsbridge / peer), target,
PASS|MISS — or "error" with the reason under the table. Always exits 0.
"""
import argparse
import json
import os
import subprocess
import sys
import time
import urllib.request


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from harness import BenchError, judge, number, report, run_json  # noqa: E402  (the core harness's)


class Side:
    """The best figure of one side over several processes; one failed process spoils the side."""

    def __init__(self, key, higher_is_better, make_cmd, error=""):
        self.key, self.higher, self.make_cmd = key, higher_is_better, make_cmd
        self.value, self.error, self.raw = None, error or None, []

    def measure(self, timeout, log):
        if self.error is not None:
            return
        try:
            raw = run_json(self.make_cmd(), timeout, log)
            v = number(raw, self.key)
        except BenchError as e:
            self.error, self.value = str(e), None
            return
        self.raw.append(raw)
        if self.value is None or (v > self.value if self.higher else v < self.value):
            self.value = v


class Server:
    """The loopback server: started once, stopped (by its own pid) at the end."""

    def __init__(self, cmd):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()
        try:
            info = json.loads(line)
            self.port = int(info["port"])
            self.body_bytes = int(info.get("bodyBytes", 0))
        except (ValueError, KeyError, TypeError):
            self.stop()
            raise BenchError(f"the server printed {line.strip()!r} instead of its port: {' '.join(cmd)}")

    def stats(self):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/stats", timeout=10) as r:
            return json.loads(r.read())

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--jsbridge", required=True)
    ap.add_argument("--jsbridge-error", default="")
    ap.add_argument("--peer", required=True, help="the http-peer binary")
    ap.add_argument("--peer-error", default="")
    ap.add_argument("--server", required=True, help="the server command (swift binary or 'node server.js')")
    ap.add_argument("--server-name", default="SwiftNIO")
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()

    here = os.path.join(a.root, "Benchmarks", "http")
    out = os.path.join(a.root, "Benchmarks", ".out", "http")
    os.makedirs(out, exist_ok=True)
    log = open(os.path.join(out, "bench.log"), "w")
    client_js = os.path.join(here, "client.js")

    env = os.environ.get
    q = a.quick
    rounds = int(env("BENCH_ROUNDS", "1" if q else "2"))
    n_seq = int(env("BENCH_HTTP_SEQ_N", "1000" if q else "10000"))
    seq_runs = int(env("BENCH_HTTP_SEQ_RUNS", "1" if q else "3"))
    n_conc = int(env("BENCH_HTTP_CONC_N", "200" if q else "1000"))
    k = int(env("BENCH_HTTP_INFLIGHT", "64"))
    conc_runs = int(env("BENCH_HTTP_CONC_RUNS", "2" if q else "10"))
    warm = int(env("BENCH_HTTP_WARMUP", "50" if q else "500"))
    timeout = int(env("BENCH_TIMEOUT", "600"))
    node_ok = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.startswith("v")

    try:
        server = Server(a.server.split() + ["--max-seconds", str(max(600, timeout * 8))])
    except (BenchError, OSError) as e:
        print(f"http: the server did not start: {e}")
        return
    url = f"http://127.0.0.1:{server.port}/user"
    details = []
    try:
        stats0 = server.stats()

        def jsb(mode, n, kk, runs):
            def cmd():
                if a.jsbridge_error:
                    raise BenchError(a.jsbridge_error)
                return [a.jsbridge, f"--allow-net=127.0.0.1:{server.port}", client_js, mode, url, n, kk, runs, warm]
            return lambda: [str(x) for x in cmd()]

        def peer(n, kk, runs):
            def cmd():
                if a.peer_error:
                    raise BenchError(a.peer_error)
                args = ["seq", n, runs, warm] if kk <= 1 else ["conc", n, kk, runs, warm]
                return [a.peer, url, *args]
            return lambda: [str(x) for x in cmd()]

        def node(n, kk, runs):
            return lambda: ["node", client_js, "fetch", url, str(n), str(kk), str(runs), str(warm)]

        seq_s = f"{n_seq // 1000}k sequential" if n_seq % 1000 == 0 else f"{n_seq} sequential"
        conc_s = f"{n_conc} requests, {k} in flight"
        raw_name = "AsyncHTTPClient+JSONDecoder"
        # (name, unit, jsbridge Side, peer Side, peer is, mode, target); ms rows: lower is better
        rows = [
            (f"DAO → model, {seq_s} GETs", "ms", Side("ms", False, jsb("dao", n_seq, 1, seq_runs), a.jsbridge_error),
             Side("ms", False, peer(n_seq, 1, seq_runs)), raw_name, "le", 1.3),
            (f"DAO → model, {conc_s}", "req/s", Side("perSec", True, jsb("dao", n_conc, k, conc_runs)),
             Side("perSec", True, peer(n_conc, k, conc_runs)), raw_name, "ge", 0.8),
            (f"fetch + json(), {seq_s}", "req/s", Side("perSec", True, jsb("fetch", n_seq, 1, seq_runs)),
             Side("perSec", True, node(n_seq, 1, seq_runs), "" if node_ok else "node not found"),
             "Node 20 fetch", "ge", 1.0),
            (f"fetch + json(), {conc_s}", "req/s", Side("perSec", True, jsb("fetch", n_conc, k, conc_runs)),
             Side("perSec", True, node(n_conc, k, conc_runs), "" if node_ok else "node not found"),
             "Node 20 fetch", "ge", 1.0),
        ]
        # The breakdown (information): each jsbridge layer against the same raw peer figure.
        if env("BENCH_HTTP_BREAKDOWN", "1") != "0":
            seq_peer, conc_peer = rows[0][3], rows[1][3]
            rows += [
                (f"(info) HTTP request action + JSON.parse, {seq_s}", "ms",
                 Side("ms", False, jsb("request", n_seq, 1, seq_runs)), seq_peer, raw_name, "info", None),
                (f"(info) DAO without model, {seq_s}", "ms",
                 Side("ms", False, jsb("dao-raw", n_seq, 1, seq_runs)), seq_peer, raw_name, "info", None),
                (f"(info) HTTP request action + JSON.parse, {conc_s}", "req/s",
                 Side("perSec", True, jsb("request", n_conc, k, conc_runs)), conc_peer, raw_name, "info", None),
                (f"(info) Model.convert('User', JSON.parse(body)) ×{n_seq}, no network", "ms",
                 Side("ms", False, jsb("convert", n_seq, 1, seq_runs)), None, "—", "info", None),
            ]

        print(f"  … http: {rounds} round(s), server {a.server_name} on 127.0.0.1:{server.port} "
              f"({server.body_bytes}-byte document)", file=sys.stderr, flush=True)
        measured = set()
        for r in range(rounds):
            for name, unit, j, p, pname, mode, target in rows:
                sides = [s for s in (j, p) if s is not None and id(s) not in measured]
                if r % 2 == 1:
                    sides.reverse()
                for s in sides:
                    s.measure(timeout, log)
                # a shared peer side is measured once per round (with its first row)
                measured.update(id(s) for s in (j, p) if s is not None)
            measured.clear()
            print(f"  … http: round {r + 1} of {rounds} done", file=sys.stderr, flush=True)

        # fetch against the raw Swift peer too (the same processes' best times; no extra run)
        fetch_ms = [x["ms"] for x in rows[2][2].raw if isinstance(x.get("ms"), (int, float))]
        raw_ms = [x["ms"] for x in rows[0][3].raw if isinstance(x.get("ms"), (int, float))]
        if fetch_ms and raw_ms:
            details.append(f"fetch + json(), {seq_s}: {min(fetch_ms):,.1f} ms vs {raw_name} {min(raw_ms):,.1f} ms "
                           f"= {min(fetch_ms) / min(raw_ms):.2f}× the raw Swift time")
        try:
            stats1 = server.stats()
            reqs = stats1["requests"] - stats0["requests"]
            cpu = stats1["cpuMs"] - stats0["cpuMs"]
            if reqs > 0:
                details.append(f"server ({a.server_name}, one thread): {reqs:,} requests served, "
                               f"{cpu * 1000 / reqs:.1f} µs of server CPU per request")
        except (OSError, ValueError, KeyError) as e:
            details.append(f"server stats unavailable: {e}")
    finally:
        server.stop()

    def fmt(v, unit):
        if v is None:
            return "error"
        return f"{v:,.0f}" if unit == "req/s" else f"{v:,.1f}"

    table, errors, results = [], [], []
    reported = set()
    for name, unit, j, p, pname, mode, target in rows:
        jv = j.value if j else None
        pv = p.value if p else None
        ratio = jv / pv if (jv is not None and pv is not None) else None
        tgt, verdict = judge(mode, target, ratio, jv, unit)
        per = ""
        if jv is not None and unit == "ms":
            n_row = j.raw[0].get("n", 0) if j.raw else 0
            per = f" ({jv * 1000 / n_row:.1f} µs/req)" if n_row else ""
        table.append((name, unit, fmt(jv, unit), fmt(pv, unit) if p else "—", pname,
                      ("—" if p is None else "error") if ratio is None else f"{ratio:.2f}×", tgt, verdict))
        for who, side in (("jsbridge", j), (pname, p)):
            if side is not None and side.error and id(side) not in reported:
                reported.add(id(side))   # a shared peer side's error is listed once, under its first row
                errors.append(f"{name} / {who}: {side.error}")
        if per and mode == "info" and p is None:
            details.append(f"{name}: {per.strip(' ()')}")
        results.append({"benchmark": name, "unit": unit, "jsbridge": jv, "peer": pv, "peerName": pname,
                        "ratio": ratio, "target": target, "mode": mode, "verdict": verdict,
                        "raw": {"jsbridge": j.raw if j else [], "peer": p.raw if p else []}})

    report(out, table, results, details, errors,
           "ratio = jsbridge / peer, both measured in this run (ms rows: lower is better; req/s rows: higher).",
           title=f"== http (issue 5): one loopback {a.server_name} server, keep-alive, {server.body_bytes}-byte "
                 f"JSON user; best of {rounds} process(es) per side")

if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # never fail the whole benchmark run
        print(f"http: harness error: {type(e).__name__}: {e}")
    sys.exit(0)
