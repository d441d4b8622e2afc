#!/usr/bin/env bash
# Configures and builds tandem (Release) into ./build; executables land in build/bin.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build
