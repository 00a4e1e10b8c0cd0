#!/usr/bin/env bash
# Builds everything (release, warnings as errors) and runs the whole test suite headless.
# Usage: scripts/test.sh            (installs missing Debian packages first)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake --preset release
cmake --build --preset release -j "$jobs"
QT_QPA_PLATFORM=offscreen ctest --preset release -j "$jobs"
