#!/usr/bin/env bash
# Installs the Debian 12 packages tandem needs. With --run: only what
# building and running tandemd needs (scripts/start.sh); without: also what
# the tests, test tools and benchmarks need (scripts/test.sh).
# Only missing packages are installed; a machine that has them all is left alone.
set -euo pipefail

RUN_PACKAGES=(
  g++ cmake ninja-build pkg-config ccache
  libboost-dev librocksdb-dev libspdlog-dev libfmt-dev libssl-dev nlohmann-json3-dev
  libjs-chart.js
)
TEST_PACKAGES=(
  libpq-dev libpqxx-dev catch2 libbenchmark-dev
  postgresql postgresql-client
  clang libclang-rt-14-dev
  spin
  chromium chromium-driver python3-selenium
)

PACKAGES=("${RUN_PACKAGES[@]}")
if [ "${1:-}" != "--run" ]; then PACKAGES+=("${TEST_PACKAGES[@]}"); fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "installing: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends --no-upgrade "${missing[@]}"
