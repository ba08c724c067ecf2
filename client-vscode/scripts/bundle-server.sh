#!/usr/bin/env bash
# Puts torchplace and its dependencies into client-vscode/out/bundled/libs for a
# platform-specific .vsix (`importStrategy: useBundled`). pyzmq (through
# jupyter_client, for the probe) ships native wheels only, so this installs the wheels of one platform
# (default manylinux x86_64, i.e. `vsce package --target linux-x64`) for every
# supported CPython version and merges them: the native modules carry the
# version in their file names (native.cpython-311-x86_64-linux-gnu.so), so one
# folder serves them all.
# Usage: client-vscode/scripts/bundle-server.sh [PLATFORM_TAG] [PYTHON_VERSIONS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
platform="${1:-manylinux2014_x86_64}"
shift || true
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(3.10 3.11 3.12 3.13)
python="${PYTHON:-.venv/bin/python}"
libs="client-vscode/out/bundled/libs"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$python" -m pip wheel --quiet --no-deps -w "$work/wheel" .
wheel="$(ls "$work"/wheel/torchplace-*.whl)"
rm -rf "$libs"
mkdir -p "$libs"
for v in "${versions[@]}"; do
  "$python" -m pip install --quiet --disable-pip-version-check --target "$work/py$v" \
    --platform "$platform" --python-version "$v" --implementation cp --only-binary=:all: \
    "$wheel"
  # No-clobber merge: pure-Python files are the same for every version.
  cp -rn "$work/py$v/." "$libs/"
done
find "$libs" -name __pycache__ -type d -prune -exec rm -rf {} +
rm -rf "$libs/bin"
echo "bundled torchplace for CPython ${versions[*]} on $platform in $libs ($(du -sh "$libs" | cut -f1))"
