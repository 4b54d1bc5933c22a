#!/usr/bin/env bash
# Writes js/typings/<Plugin>.d.ts for every built-in plugin, from its declaration (`jsbridge --typings`).
# Tests/CLITests fails when a committed file differs from what the declaration gives.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build --product jsbridge -q
for plugin in Echo HTTP Location Model Storage; do
  .build/debug/jsbridge --typings "$plugin" >"js/typings/$plugin.d.ts"
done
