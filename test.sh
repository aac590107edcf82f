#!/usr/bin/env bash
# Installs what is missing, builds (warnings as errors) and runs the whole test suite offscreen.
set -euo pipefail
cd "$(dirname "$0")"
./install-deps.sh
export QT_QPA_PLATFORM=offscreen
export WAFERSCOPE_TEST_MODELS="${WAFERSCOPE_TEST_MODELS:-$(cd .. && pwd)/shared/models}"
cmake --preset ci >/dev/null
cmake --build --preset ci -j"$(nproc)"
ctest --preset ci --no-tests=error "$@"
