#!/usr/bin/env bash
# Installs the real consumers that tg's export and MCP tests load their output into
# (issue 23): Kuzu, networkx, rdflib and the MCP Python client, pinned, in a virtual
# environment under target/ (never the system's Python). Prints the interpreter's path
# on success; exits non-zero with the reason when they cannot be installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/target/consumers-venv"
packages=(kuzu==0.11.3 networkx==3.6.1 rdflib==7.6.0 mcp==2.3.0)
if ! command -v python3 >/dev/null 2>&1; then
  echo "consumers: python3 not found" >&2
  exit 1
fi
if [ ! -x "$venv/bin/python" ] && ! python3 -m venv "$venv" >&2; then
  # No venv module (Debian without python3-venv): the user's site-packages instead.
  echo "consumers: python3 -m venv failed; installing with pip install --user" >&2
  python3 -m pip install -q --user --disable-pip-version-check "${packages[@]}" >&2 \
    || { echo "consumers: pip could not install ${packages[*]}" >&2; exit 1; }
  python3 -c 'import kuzu, networkx, rdflib, mcp' >&2
  command -v python3
  exit 0
fi
if ! "$venv/bin/python" -c 'import kuzu, networkx, rdflib, mcp' 2>/dev/null; then
  "$venv/bin/pip" install -q --disable-pip-version-check "${packages[@]}" >&2 \
    || { echo "consumers: pip could not install ${packages[*]}" >&2; exit 1; }
fi
"$venv/bin/python" -c 'import kuzu, networkx, rdflib, mcp' >&2
echo "$venv/bin/python"
