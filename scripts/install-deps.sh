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
  python3-psycopg2 python3-psycopg default-jdk-headless libpostgresql-jdbc-java junit4
  nodejs
)

PACKAGES=("${RUN_PACKAGES[@]}")
if [ "${1:-}" != "--run" ]; then PACKAGES+=("${TEST_PACKAGES[@]}"); fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if [ ${#missing[@]} -ne 0 ]; then
  echo "installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends --no-upgrade "${missing[@]}"
fi

# The driver matrix's node-postgres (tests/clients/node): npm, unless
# nodejs brought its own, then the npm packages its lockfile pins.
if [ "${1:-}" != "--run" ]; then
  if ! command -v npm >/dev/null; then
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends --no-upgrade npm
  fi
  bash "$(dirname "$0")/../tests/clients/node/install.sh"
fi
