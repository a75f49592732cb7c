#!/usr/bin/env bash
# Installs the MCP Inspector CLI, and the Node 22 it needs, into .cache/mcp-inspector
# (or $OPGATE_INSPECTOR_DIR); prints the folder of their executables on stdout.
#
# The Inspector needs Node 22 or newer; machines here have Node 20, so Node
# comes from the npm registry's `node` package, which ships the binary.
# Versions are pinned so that CI runs what was tested. Idempotent: a second
# run finds both and returns at once. Exits non-zero, saying why, when npm or
# the registry is missing: the test that calls it then fails, it never skips.
set -euo pipefail

NODE_VERSION=22.23.3
INSPECTOR_VERSION=2.12.0

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${OPGATE_INSPECTOR_DIR:-$repo/.cache/mcp-inspector}
bin=$dir/node_modules/.bin

installed() {
  [ -x "$bin/node" ] && [ -x "$bin/mcp-inspector" ] \
    && [ "$("$bin/node" --version 2>/dev/null)" = "v$NODE_VERSION" ] \
    && grep -q "\"version\": \"$INSPECTOR_VERSION\"" "$dir/node_modules/@modelcontextprotocol/inspector/package.json" 2>/dev/null
}

if ! installed; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "ensure_inspector: npm is not installed (apt-get install npm); it is needed to install Node $NODE_VERSION and the MCP Inspector" >&2
    exit 1
  fi
  mkdir -p "$dir"
  # allowScripts: node's preinstall fetches its platform binary package; npm 11.19+ blocks unlisted install scripts.
  cat > "$dir/package.json" <<JSON
{
  "private": true,
  "description": "The MCP Inspector CLI and the Node it needs, for opgate's tests (tests/mcp/ensure_inspector.sh)",
  "dependencies": {"node": "$NODE_VERSION", "@modelcontextprotocol/inspector": "$INSPECTOR_VERSION"},
  "allowScripts": {"node": true, "@modelcontextprotocol/inspector": false}
}
JSON
  if ! npm install --prefix "$dir" --no-audit --no-fund --loglevel=error >&2; then
    echo "ensure_inspector: npm install of node@$NODE_VERSION and @modelcontextprotocol/inspector@$INSPECTOR_VERSION into $dir failed; is the npm registry reachable?" >&2
    exit 1
  fi
  if ! installed; then
    echo "ensure_inspector: after npm install, $bin has no working node v$NODE_VERSION and mcp-inspector $INSPECTOR_VERSION" >&2
    exit 1
  fi
fi
echo "$bin"
