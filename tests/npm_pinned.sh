# Sourced by the tests' ensure_*.sh scripts: install pinned npm packages into a cache folder.
#
#   npm_pinned WHO DIR DESCRIPTION PACKAGE@VERSION...
#
# Installs the packages into DIR unless every one is already there at its
# pinned version (and, when `node` is one of them, its binary runs at that
# version). Idempotent; exits non-zero, saying why (as WHO), when npm or the
# registry is missing or the install does not hold what was asked: the tests
# that need the packages then fail, they never skip.

_npm_pinned_present() {  # DIR PACKAGE@VERSION...
  local dir=$1 spec name version
  shift
  for spec in "$@"; do
    name=${spec%@*}
    version=${spec##*@}
    grep -q "\"version\": \"$version\"" "$dir/node_modules/$name/package.json" 2>/dev/null || return 1
    if [ "$name" = node ]; then
      [ "$("$dir/node_modules/.bin/node" --version 2>/dev/null)" = "v$version" ] || return 1
    fi
  done
}

npm_pinned() {
  local who=$1 dir=$2 description=$3 spec deps="" scripts=""
  shift 3
  _npm_pinned_present "$dir" "$@" && return 0
  if ! command -v npm >/dev/null 2>&1; then
    echo "$who: npm is not installed (apt-get install npm); it is needed to install $*" >&2
    exit 1
  fi
  for spec in "$@"; do
    deps+="${deps:+, }\"${spec%@*}\": \"${spec##*@}\""
    # Only node's own install script runs (it fetches its platform binary); npm 11.19+ blocks unlisted ones.
    scripts+="${scripts:+, }\"${spec%@*}\": $([ "${spec%@*}" = node ] && echo true || echo false)"
  done
  mkdir -p "$dir"
  cat > "$dir/package.json" <<JSON
{
  "private": true,
  "description": "$description",
  "dependencies": {$deps},
  "allowScripts": {$scripts}
}
JSON
  if ! npm install --prefix "$dir" --no-audit --no-fund --loglevel=error >&2; then
    echo "$who: npm install of $* into $dir failed; is the npm registry reachable?" >&2
    exit 1
  fi
  if ! _npm_pinned_present "$dir" "$@"; then
    echo "$who: after npm install, $dir does not hold $*" >&2
    exit 1
  fi
}
