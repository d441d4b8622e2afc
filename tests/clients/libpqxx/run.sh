#!/usr/bin/env bash
# Builds client_test.cpp against Debian's libpqxx 6 and runs it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d /tmp/tandem-pqxx-XXXXXX)
trap 'rm -rf "$out"' EXIT
${CXX:-g++} -std=c++17 -O0 -o "$out/client_test" "$here/client_test.cpp" -lpqxx -lpq
"$out/client_test"
