#!/usr/bin/env bash
# Sets up, builds jsbridge and runs the tour: the first command of the README.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
scripts/setup.sh
swift build --product jsbridge -q
exec .build/debug/jsbridge examples/tour.js "$@"
