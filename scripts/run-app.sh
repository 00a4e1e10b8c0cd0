#!/usr/bin/env bash
# Builds the desktop application (release) and starts it. Without a GPU it opens on built-in
# defaults (H100 SXM, 256 threads, 32 registers). Extra arguments go to the application.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake --preset release
cmake --build --preset release -j "$jobs" --target occupancy-explorer occx
exec ./build/release/occupancy-explorer "$@"
