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

. "$repo/tests/npm_pinned.sh"
npm_pinned ensure_servers "$dir" "The reference MCP servers opgate's upstream tests run against (tests/upstreams/ensure_servers.sh)" \
  "@modelcontextprotocol/server-memory@$MEMORY_VERSION" \
  "@modelcontextprotocol/server-everything@$EVERYTHING_VERSION" \
  "@modelcontextprotocol/server-filesystem@$FILESYSTEM_VERSION"
echo "$dir/node_modules"
