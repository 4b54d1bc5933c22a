#!/usr/bin/env bash
# Builds the shipping (release) jsbridge — or another product of the package, given as --product <name>:
#   - Swift's standard library and Foundation linked in (--static-swift-stdlib): no shared-library binding of
#     their symbols at start-up;
#   - linked by the toolchain's lld with packed relative relocations (-z pack-relative-relocs) and no exported
#     symbols: the loader has ~3 MB less to read and write;
#   - every function in a section of its own, and the functions `jsbridge -e 0` runs laid out together
#     (scripts/link/startup-order.txt, written by scripts/link/startup-order.sh): start-up touches ~4 MB of
#     code pages instead of ~8;
#   - generic types' metadata reached through accessors, not by demangling their names
#     (-disable-concrete-type-metadata-mangled-name-accessors): the demangler checked each generic requirement
#     by scanning every conformance record of the binary, ~4M instructions of each start-up (the plugins'
#     declarations), for a binary ~0.3% larger.
# docs/architecture.md ("Start-up") has the figures. Other arguments go to `swift build`.
#
#   scripts/release.sh                      # .build/release/jsbridge
#   scripts/release.sh --product my-runtime
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
lld="$(dirname "$(command -v swift)")/ld.lld"
[ -x "$lld" ] || { echo "release: $lld not found (it ships with the Swift toolchain)" >&2; exit 1; }
args=("$@")
[[ " ${args[*]-} " == *" --product "* ]] || args+=(--product jsbridge)

toolset=$(mktemp --suffix=.json)
trap 'rm -f "$toolset"' EXIT
cat >"$toolset" <<JSON
{ "schemaVersion": "1.0",
  "linker": { "path": "$lld", "extraCLIOptions": ["-z", "pack-relative-relocs", "--no-export-dynamic",
    "--symbol-ordering-file=$PWD/scripts/link/startup-order.txt", "--no-warn-symbol-ordering"] } }
JSON
# SwiftPM does not relink when only the linker's options change: a changed order file needs a fresh link.
order_stamp=.build/release-order.stamp
if ! cmp -s scripts/link/startup-order.txt "$order_stamp" 2>/dev/null; then
  rm -f .build/*/release/jsbridge
  mkdir -p .build && cp scripts/link/startup-order.txt "$order_stamp"
fi
exec swift build -c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
  --toolset "$toolset" "${args[@]}"
