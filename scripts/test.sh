#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite: the second command of the README (and CI's).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
scripts/setup.sh
swift build --build-tests -q
swift test --skip-build "$@"
