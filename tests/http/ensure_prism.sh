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
bin=$dir/node_modules/.bin

installed() {
  [ -x "$bin/node" ] && [ -x "$bin/prism" ] \
    && [ "$("$bin/node" --version 2>/dev/null)" = "v$NODE_VERSION" ] \
    && grep -q "\"version\": \"$PRISM_VERSION\"" "$dir/node_modules/@stoplight/prism-cli/package.json" 2>/dev/null
}

if ! installed; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "ensure_prism: npm is not installed (apt-get install npm); it is needed to install Node $NODE_VERSION and Prism $PRISM_VERSION" >&2
    exit 1
  fi
  mkdir -p "$dir"
  # allowScripts: node's preinstall fetches its platform binary package; npm 11.19+ blocks unlisted install scripts.
  cat > "$dir/package.json" <<JSON
{
  "private": true,
  "description": "Stoplight Prism and the Node it needs, for opgate's HTTP tests (tests/http/ensure_prism.sh)",
  "dependencies": {"node": "$NODE_VERSION", "@stoplight/prism-cli": "$PRISM_VERSION"},
  "allowScripts": {"node": true, "@stoplight/prism-cli": false}
}
JSON
  if ! npm install --prefix "$dir" --no-audit --no-fund --loglevel=error >&2; then
    echo "ensure_prism: npm install of node@$NODE_VERSION and @stoplight/prism-cli@$PRISM_VERSION into $dir failed; is the npm registry reachable?" >&2
    exit 1
  fi
  if ! installed; then
    echo "ensure_prism: after npm install, $bin has no working node v$NODE_VERSION and prism $PRISM_VERSION" >&2
    exit 1
  fi
fi
echo "$bin"
