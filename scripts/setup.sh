#!/usr/bin/env bash
# Installs every system package jsbridge needs; idempotent and quiet when everything is already there.
# Debian 12 with Swift 6.3.1 (at /opt/swift or on PATH) is assumed; run as root or with sudo available.
set -euo pipefail

# Build: JavaScriptCore's C API through pkg-config. Benchmarks also use gcc and node (present on the image).
packages=(pkg-config libjavascriptcoregtk-4.1-dev)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "setup: add /opt/swift/usr/bin to PATH" >&2
  else
    echo "setup: Swift 6.3.1 is required (https://www.swift.org/install/linux/)" >&2
  fi
  exit 1
fi
