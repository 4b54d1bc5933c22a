#!/usr/bin/env bash
# Differential fuzzing of the runtime's URL parser (js/url.js) against Node's URL: mutated inputs run through
# jsbridge and node, every disagreement listed. See docs/fuzzing.md.
#
#   scripts/fuzz-url.sh [count] [seed]        (JSBRIDGE=path/to/jsbridge; default: .build/debug/jsbridge)
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-20000}"
seed="${2:-1}"
jsbridge="${JSBRIDGE:-.build/debug/jsbridge}"
if [[ ! -x "$jsbridge" ]]; then
  echo "fuzz-url: $jsbridge not found: run 'swift build' first or set JSBRIDGE" >&2
  exit 2
fi
exec node scripts/fuzz-url.js --jsbridge "$jsbridge" --count "$count" --seed "$seed"
