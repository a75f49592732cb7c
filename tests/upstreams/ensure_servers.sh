#!/usr/bin/env bash
# Installs the reference MCP servers the upstream tests run opgate in front of
# (memory, everything, filesystem) into .cache/mcp-servers (or $OPGATE_SERVERS_DIR);
# prints that folder's node_modules on stdout.
#
# They run on the machine's node (the servers need Node 18+), or on the Node 22
# that tests/mcp/ensure_inspector.sh installs when the machine has none.
# Versions are pinned so that CI runs what was tested. Idempotent. Exits
# non-zero, saying why, when npm or the registry is missing: the tests that
# call it then fail; they never skip.
set -euo pipefail

MEMORY_VERSION=2026.8.31
EVERYTHING_VERSION=2026.8.31
FILESYSTEM_VERSION=2026.8.31

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${OPGATE_SERVERS_DIR:-$repo/.cache/mcp-servers}
modules=$dir/node_modules

has() {  # has PACKAGE VERSION
  grep -q "\"version\": \"$2\"" "$modules/$1/package.json" 2>/dev/null
}

installed() {
  has @modelcontextprotocol/server-memory "$MEMORY_VERSION" \
    && has @modelcontextprotocol/server-everything "$EVERYTHING_VERSION" \
    && has @modelcontextprotocol/server-filesystem "$FILESYSTEM_VERSION"
}

if ! installed; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "ensure_servers: npm is not installed (apt-get install npm); it is needed to install the reference MCP servers" >&2
    exit 1
  fi
  mkdir -p "$dir"
  cat > "$dir/package.json" <<JSON
{
  "private": true,
  "description": "The reference MCP servers opgate's upstream tests run against (tests/upstreams/ensure_servers.sh)",
  "dependencies": {
    "@modelcontextprotocol/server-memory": "$MEMORY_VERSION",
    "@modelcontextprotocol/server-everything": "$EVERYTHING_VERSION",
    "@modelcontextprotocol/server-filesystem": "$FILESYSTEM_VERSION"
  }
}
JSON
  if ! npm install --prefix "$dir" --no-audit --no-fund --loglevel=error >&2; then
    echo "ensure_servers: npm install of the reference MCP servers into $dir failed; is the npm registry reachable?" >&2
    exit 1
  fi
  if ! installed; then
    echo "ensure_servers: after npm install, $modules does not hold the pinned server versions" >&2
    exit 1
  fi
fi
echo "$modules"
