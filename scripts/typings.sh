#!/usr/bin/env bash
# Writes js/typings/<Plugin>.d.ts for every built-in plugin, from its declaration (`jsbridge --typings`). The
# plugin's own declarations (Plugins/<Name>/Plugin/<name>.d.ts), which end that output, are referenced rather
# than copied. Tests/CLITests fails when a committed file differs from what the declaration gives.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build --product jsbridge -q
# The runtime's own list of its plugins.
for plugin in $(.build/debug/jsbridge -e 'console.log(Object.keys(bridge.plugins).join(" "))'); do
  declarations="Plugins/$plugin/Plugin/$(echo "$plugin" | tr 'A-Z' 'a-z').d.ts"
  .build/debug/jsbridge --typings "$plugin" | python3 -c '
import sys
output, path = sys.stdin.read(), sys.argv[1]
try:
    api = open(path).read()
except FileNotFoundError:
    api = ""
if api and output.endswith(api):
    # A reference must come before any declaration: after the header comment.
    head, rest = output[: -len(api)].split("\n\n", 1)
    output = f"{head}\n/// <reference path=\"../../{path}\" />\n\n{rest}"
sys.stdout.write(output)' "$declarations" >"js/typings/$plugin.d.ts"
done
