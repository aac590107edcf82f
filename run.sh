#!/usr/bin/env bash
# Installs what is missing, builds a Release and starts WaferScope on the default scenario.
set -euo pipefail
cd "$(dirname "$0")"
./install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)"
exec ./build/release/app/waferscope "$@"
