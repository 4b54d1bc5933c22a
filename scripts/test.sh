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
swift format lint --strict -r Sources Extensions Plugins Tests Benchmarks examples/sensors-plugin \
  examples/sensors-runtime
swift build --build-tests -q
# At most 8 tests at once (Swift Testing starts every test together otherwise). The suite's process tests,
# TypeScript checks and PostgreSQL clusters, all started at once on a 2-core machine, left the in-process
# script tests without CPU for their whole time limit.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-8}"
swift test --skip-build "$@"
# What ships is what is tested: the binary scripts/release.sh builds, and every test that starts a jsbridge
# process (the CLI, signals, the REPL, modules, Cordova, storage across processes) run again against it.
echo "test: building the shipping binary (scripts/release.sh) and running the process tests against it" >&2
scripts/release.sh -q
JSBRIDGE_BIN="$PWD/.build/release/jsbridge" swift test --skip-build \
  --filter 'CLITests\.|StoragePluginTests\.(StorageProcessTests|PostgresProcessTests|PostgresConfigurationTests)' "$@"
echo "test: the release-binary pass passed ($PWD/.build/release/jsbridge)" >&2
# The example third-party plugin package (examples/sensors-plugin) and its runtime's (examples/sensors-runtime),
# each built and tested on its own, as a plugin author's packages are, against this checkout.
for package in examples/sensors-plugin examples/sensors-runtime; do
  swift build --build-tests -q --package-path "$package"
  swift test --skip-build --package-path "$package"
done
