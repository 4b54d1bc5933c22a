#!/usr/bin/env bash
# Writes scripts/link/startup-order.txt: the functions of the release jsbridge that `jsbridge -e 0` runs, in
# the order they first run (valgrind's callgrind on a copy without debug info, which it cannot read).
# scripts/release.sh hands the list to the linker, which lays those functions out together. Run it after
# changes to what start-up runs (a stale list costs memory, never correctness: unknown names are skipped).
#
#   scripts/release.sh && scripts/link/startup-order.sh && scripts/release.sh
# After a change that moves much of what start-up runs, run the last two steps again: a list written from a
# binary laid out for old code can miss functions (Benchmarks/README.md, "The start-up order file").
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "startup-order: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
binary=${1:-.build/release/jsbridge}  # or the release binary of another build directory
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$binary" "$work/jsbridge"
strip -g "$work/jsbridge"
(cd "$work" && valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/callgrind.out" ./jsbridge -e 0 \
  >/dev/null 2>&1)
python3 - "$work/callgrind.out" scripts/link/startup-order.txt <<'PY'
import re, sys
objects, names, order, seen, current = {}, {}, [], set(), None
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    m = re.match(r"(c?ob)=\((\d+)\)(?: (.*))?", line)
    if m:
        if m.group(3): objects[m.group(2)] = m.group(3)
        if m.group(1) == "ob": current = objects.get(m.group(2), "")
        continue
    m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
    if m:
        if m.group(3): names[m.group(2)] = m.group(3)
        name = names.get(m.group(2))
        if m.group(1) == "fn" and current.endswith("/jsbridge") and name and not name.startswith("0x") and name not in seen:
            seen.add(name)
            order.append(name)
open(sys.argv[2], "w").write("\n".join(order) + "\n")
print(f"startup-order: {len(order)} functions", file=sys.stderr)
PY
