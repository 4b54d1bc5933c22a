#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite: the second command of the README (and CI's).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
scripts/setup.sh
# The JS globals' own tests compare them with Node's implementations, when Node is installed.
if command -v node >/dev/null 2>&1; then
  node --test js/test/
else
  echo "test: node not found; skipping js/test (the Swift suite below still runs the JS globals)" >&2
fi
# Style: the committed .swift-format, warnings as errors.
swift format lint --strict -r Sources Plugins Tests Benchmarks examples/sensors-plugin/Sources \
  examples/sensors-plugin/Tests
swift build --build-tests -q
swift test --skip-build "$@"
# The example third-party plugin package (examples/sensors-plugin): built and tested on its own, as a plugin
# author's package is, against this checkout.
swift build --build-tests -q --package-path examples/sensors-plugin
swift test --skip-build --package-path examples/sensors-plugin
