#!/usr/bin/env bash
# Configures and builds tandem (Release) into ./build with its tests, tools and
# benchmarks; executables land in build/bin.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTANDEM_REQUIRE_TESTS=ON >/dev/null
cmake --build build
