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

. "$repo/tests/npm_pinned.sh"
npm_pinned ensure_inspector "$dir" "The MCP Inspector CLI and the Node it needs, for opgate's tests (tests/mcp/ensure_inspector.sh)" \
  "node@$NODE_VERSION" "@modelcontextprotocol/inspector@$INSPECTOR_VERSION"
echo "$dir/node_modules/.bin"
