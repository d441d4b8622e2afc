#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: unit and integration
# tests (ctest), the sqllogictest files, the concurrency tests under
# ThreadSanitizer and a bounded run of the protocol fuzzer. Ends with one line
# "N passed, N failed" and exits non-zero if anything failed.
#
# Environment: TANDEM_SKIP_TSAN=1 / TANDEM_SKIP_FUZZ=1 skip those jobs;
# FUZZ_SECONDS (default 30) bounds the fuzzer.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
passed=0
failed=0

bash scripts/install-deps.sh || { echo "0 passed, 1 failed"; exit 1; }
if ! bash scripts/build.sh; then
  echo "build failed"
  echo "0 passed, 1 failed"
  exit 1
fi

# Adds the counts of a ctest run (its summary line) to the totals.
count_ctest() {
  local log=$1 total fails
  total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
  fails=$(sed -n 's/.* \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -1)
  if [ -z "$total" ]; then
    echo "ctest produced no summary"
    failed=$((failed + 1))
    return
  fi
  passed=$((passed + total - fails))
  failed=$((failed + fails))
}

echo "== unit and integration tests"
ctest --test-dir build --output-on-failure -j2 --timeout 300 2>&1 | tee build/ctest.log
count_ctest build/ctest.log

echo "== sqllogictest"
build/bin/tandem-slt sqllogic/tests 2>&1 | tee build/slt.log
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' build/slt.log | tail -1)
if [ -n "$line" ]; then
  passed=$((passed + $(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')))
  failed=$((failed + $(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')))
else
  echo "tandem-slt produced no summary"
  failed=$((failed + 1))
fi

if [ "${TANDEM_SKIP_TSAN:-0}" != 1 ]; then
  echo "== concurrency tests ([concurrency]) under ThreadSanitizer"
  TSAN_BINARIES=(compute_tests frontend_tests)
  if cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTANDEM_TSAN=ON >/dev/null &&
     cmake --build build-tsan --target "${TSAN_BINARIES[@]}"; then
    for bin in "${TSAN_BINARIES[@]}"; do
      xml=build/tsan-$bin.xml
      TSAN_OPTIONS="halt_on_error=1" build-tsan/bin/$bin "[concurrency]" -r junit -o "$xml" >/dev/null 2>build/tsan-$bin.log
      rc=$?
      n=$(grep -o '<testsuite [^>]*' "$xml" 2>/dev/null | sed -n 's/.* tests="\([0-9]*\)".*/\1/p' | head -1)
      f=$(grep -o '<testsuite [^>]*' "$xml" 2>/dev/null | sed -n 's/.* failures="\([0-9]*\)".*/\1/p' | head -1)
      e=$(grep -o '<testsuite [^>]*' "$xml" 2>/dev/null | sed -n 's/.* errors="\([0-9]*\)".*/\1/p' | head -1)
      n=${n:-0}; f=${f:-0}; e=${e:-0}
      bad=$((f + e))
      if [ $rc -ne 0 ] && [ $bad -eq 0 ]; then bad=1; fi
      echo "$bin under TSan: $((n - f - e < 0 ? 0 : n - f - e)) passed, $bad failed"
      [ $bad -ne 0 ] && tail -60 build/tsan-$bin.log
      passed=$((passed + (n - f - e < 0 ? 0 : n - f - e)))
      failed=$((failed + bad))
    done
  else
    echo "TSan build failed"
    failed=$((failed + 1))
  fi
fi

if [ "${TANDEM_SKIP_FUZZ:-0}" != 1 ]; then
  echo "== pgwire decoder fuzzing (${FUZZ_SECONDS:-30} s)"
  if CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTANDEM_FUZZ=ON >/dev/null &&
     cmake --build build-fuzz --target codec_fuzz; then
    mkdir -p build-fuzz/corpus
    if build-fuzz/bin/codec_fuzz -max_total_time="${FUZZ_SECONDS:-30}" build-fuzz/corpus 2>build/fuzz.log; then
      echo "fuzzing found no crash"
      passed=$((passed + 1))
    else
      tail -40 build/fuzz.log
      failed=$((failed + 1))
    fi
  else
    echo "fuzz build failed"
    failed=$((failed + 1))
  fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
