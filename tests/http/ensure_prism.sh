#!/usr/bin/env bash
# Installs Stoplight Prism (the mock server that validates every request
# against an OpenAPI document), and the Node it runs on, into .cache/prism
# (or $OPGATE_PRISM_DIR); prints the folder of their executables on stdout.
#
# Versions are pinned so that CI runs what was tested. Prism 5.14.2 is the
# newest release that runs on Node 22 (5.16 asks for Node 24). Node comes
# from the npm registry's `node` package, as for the MCP Inspector
# (tests/mcp/ensure_inspector.sh). Idempotent: a second run finds both and
# returns at once. Exits non-zero, saying why, when npm or the registry is
# missing: the tests that call it then fail; they never skip.
set -euo pipefail

NODE_VERSION=22.23.3
PRISM_VERSION=5.14.2

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${OPGATE_PRISM_DIR:-$repo/.cache/prism}

. "$repo/tests/npm_pinned.sh"
npm_pinned ensure_prism "$dir" "Stoplight Prism and the Node it needs, for opgate's HTTP tests (tests/http/ensure_prism.sh)" \
  "node@$NODE_VERSION" "@stoplight/prism-cli@$PRISM_VERSION"
echo "$dir/node_modules/.bin"
