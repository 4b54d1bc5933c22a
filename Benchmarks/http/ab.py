#!/usr/bin/env python3
"""A/B of HTTP clients against one loopback server: processes alternated, CPU per request for each.

    Benchmarks/http/ab.py ROUNDS N 'CMD A' 'CMD B' ...

Starts Benchmarks/.out/http/http-server (build it with Benchmarks/http/run first), then runs each command
ROUNDS times, alternating their order every round (A B, B A, ...). In a command, {URL}, {PORT} and {N}
are replaced by the server's URL, its port and N; each command prints one JSON line with "perSec" (client.js,
http-peer). Prints every run, then per command the median and best req/s and the median client and server
CPU per request (client: getrusage of the child; server: its /stats). On this shared 2-core machine
throughput swings by ±30% between runs; CPU per request moves less. Example:

    Benchmarks/http/ab.py 6 20000 \\
      '.build/release/jsbridge --allow-net=127.0.0.1:{PORT} Benchmarks/http/client.js dao {URL} {N} 64 1 300' \\
      'Benchmarks/.out/http/http-peer {URL} conc {N} 64 1 300'
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import urllib.request

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rounds, n, commands = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    server = subprocess.Popen([os.path.join(ROOT, "Benchmarks/.out/http/http-server"), "--max-seconds", "3600"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = json.loads(server.stdout.readline())["port"]
        url = f"http://127.0.0.1:{port}/user"

        def stats():
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/stats", timeout=10) as response:
                return json.loads(response.read())

        results = {c: [] for c in commands}
        for r in range(rounds):
            for command in commands if r % 2 == 0 else commands[::-1]:
                argv = [a.replace("{URL}", url).replace("{PORT}", str(port)).replace("{N}", str(n)) for a in command.split()]
                s0, u0 = stats(), resource.getrusage(resource.RUSAGE_CHILDREN)
                out = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
                u1, s1 = resource.getrusage(resource.RUSAGE_CHILDREN), stats()
                lines = out.stdout.strip().splitlines()
                if out.returncode != 0 or not lines:
                    sys.exit(f"failed: {' '.join(argv)}\n{out.stderr}")
                per_sec = json.loads(lines[-1])["perSec"]
                requests = s1["requests"] - s0["requests"]
                client = (u1.ru_utime + u1.ru_stime - u0.ru_utime - u0.ru_stime) * 1e6 / requests
                served = (s1["cpuMs"] - s0["cpuMs"]) * 1000 / requests
                results[command].append((per_sec, client, served))
                print(f"{per_sec:9.0f} req/s  client {client:6.1f} µs  server {served:5.1f} µs  {command[:70]}",
                      flush=True)
        for command, runs in results.items():
            print(f"median {statistics.median(x[0] for x in runs):9.0f} req/s (best {max(x[0] for x in runs):.0f}), "
                  f"client {statistics.median(x[1] for x in runs):6.1f} µs, "
                  f"server {statistics.median(x[2] for x in runs):5.1f} µs per request: {command[:70]}")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
