#!/usr/bin/env bash
# Installs Debian's Chromium for the viewer's browser tests (issue 23, tests/console.rs)
# when it is missing; prints its path, or exits non-zero with the reason.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  command -v chromium
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "browser: chromium is not installed and apt-get is not available" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo -n"; fi
{ $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium; } >&2 \
  || { echo "browser: apt-get could not install chromium" >&2; exit 1; }
command -v chromium
