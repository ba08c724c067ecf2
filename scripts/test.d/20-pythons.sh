#!/usr/bin/env bash
# Every supported Python (3.10-3.13, from pyenv): in a fresh venv per version,
# `pip install .` (a built wheel, not the editable tree), then
# `torchplace check examples/`, the server over stdio and the engine tests that
# need no torch (the torch-backed ones and the pytest-lsp suites run in the main venv).
# A version that is not installed is reported and skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PIP_DISABLE_PIP_VERSION_CHECK=1
root="$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"
work="${TORCHPLACE_PYTHONS_DIR:-$PWD/.cache/pythons}"
mkdir -p "$work"
# The CLI, the server and engine tests that need neither torch nor the editor tooling
# (test_cli.py, the property tests' long runs and the pytest-lsp suites run in the main venv).
tests=(tests/engine/test_cli_reliability.py tests/engine/test_cli_notebooks.py tests/engine/test_config_validation.py
       tests/engine/test_ipython_syntax.py tests/engine/test_line_separators.py tests/engine/test_packaging.py
       tests/engine/test_text_lines.py tests/engine/test_path_patterns.py tests/server/test_serve_stdio_smoke.py)
failed=0
for version in 3.10 3.11 3.12 3.13; do
  python="$(ls -d "$root"/versions/"$version".*/bin/python 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -z "$python" ]; then
    echo "pythons: Python $version not found under $root/versions; skipped"
    continue
  fi
  start=$(date +%s)
  venv="$work/py$version"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -qq . pytest "hypothesis>=6"
  "$venv/bin/torchplace" check examples/ >/dev/null && rc=0 || rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "pythons: Python $version: torchplace check examples/ exited $rc"
    failed=1
    continue
  fi
  # -c /dev/null: pyproject's pytest settings name plug-ins this venv does not have.
  # torchplace_rules is imported from the installed wheel (shared_rules/ is not on sys.path).
  if ! "$venv/bin/python" -m pytest -q -p no:cacheprovider -c /dev/null --rootdir . "${tests[@]}" 2>&1 | tail -n 3; then
    failed=1
  fi
  echo "pythons: Python $version ($("$venv/bin/python" -V 2>&1)): pip install ., check examples/ and engine tests in $(( $(date +%s) - start )) s"
done
exit "$failed"
