#!/usr/bin/env bash
# Model-checks the compaction-hold protocol (compaction_holds.pml, see
# README.md here): the design must pass every check, and each refuting
# variant must produce a counterexample of the property it breaks.
# Each check prints "ok NAME" or "FAIL NAME"; the last line is
# "N passed, N failed", and the exit status is non-zero if any failed.
# Needs spin and gcc (scripts/install-deps.sh installs spin).
# Environment: KEEP_MODEL_DIR=1 keeps the work directory (pan sources and
# counterexample trails) and prints its path.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
MODEL=compaction_holds.pml

for tool in spin gcc; do
  if ! command -v "$tool" >/dev/null; then
    echo "$tool not found (run scripts/install-deps.sh)"
    echo "0 passed, 1 failed"
    exit 1
  fi
done

WORK=$(mktemp -d /tmp/tandem-models-XXXXXX)
if [ "${KEEP_MODEL_DIR:-0}" = 1 ]; then
  echo "work directory: $WORK"
else
  trap 'rm -rf "$WORK"' EXIT
fi
cp "$HERE/$MODEL" "$WORK/"
passed=0
failed=0

# run_pan NAME "SPIN_DEFINES" "PAN_FLAGS" — builds a verifier for the model
# with those -D macros and runs it; its output lands in $WORK/NAME.log.
# PAN_FLAGS "safety" checks assertions and invalid end states (no LTL
# claim); "ltl:CLAIM" checks that claim for acceptance cycles under weak
# fairness.
run_pan() {
  local name=$1 defines=$2 mode=$3 dir="$WORK/$1"
  mkdir -p "$dir"
  cp "$WORK/$MODEL" "$dir/"
  (
    cd "$dir" || exit 1
    # shellcheck disable=SC2086
    spin $defines -a "$MODEL" >spin.log 2>&1 || { cat spin.log; exit 1; }
    if [ "$mode" = safety ]; then
      gcc -O1 -w -DNOCLAIM -DSAFETY -o pan pan.c || exit 1
      ulimit -v 4000000
      timeout 120 ./pan -m20000
    else
      gcc -O1 -w -o pan pan.c || exit 1
      ulimit -v 4000000
      timeout 120 ./pan -m20000 -a -f -N "${mode#ltl:}"
    fi
  ) >"$WORK/$name.log" 2>&1
}

# errors NAME: pan's error count, empty when the search did not complete.
errors_of() {
  sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$WORK/$1.log" | tail -1
}

report() {
  local name=$1 ok=$2 why=$3
  if [ "$ok" = 1 ]; then
    echo "ok   $name: $why"
    passed=$((passed + 1))
  else
    echo "FAIL $name: $why"
    tail -25 "$WORK/$name.log" | sed 's/^/    /'
    failed=$((failed + 1))
  fi
}

# expect_pass NAME DEFINES MODE: the search completes with no error.
expect_pass() {
  local name=$1
  run_pan "$@"
  local n
  n=$(errors_of "$name")
  if [ "$n" = 0 ] && ! grep -q "Search not completed" "$WORK/$name.log"; then
    report "$name" 1 "no error ($(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$WORK/$name.log") states)"
  else
    report "$name" 0 "expected no error, pan reported errors: ${n:-none}"
  fi
}

# expect_counterexample NAME DEFINES MODE PATTERN: pan finds an error whose
# message matches PATTERN (the property the variant must break).
expect_counterexample() {
  local name=$1 pattern=$4
  run_pan "$1" "$2" "$3"
  local n line
  n=$(errors_of "$name")
  line=$(grep -m1 -E '^pan:1: ' "$WORK/$name.log")
  if [ -n "$n" ] && [ "$n" != 0 ] && echo "$line" | grep -qE "$pattern"; then
    report "$name" 1 "counterexample found (${line#pan:1: })"
  else
    report "$name" 0 "expected a counterexample matching /$pattern/, got: ${line:-errors: ${n:-none}}"
  fi
}

echo "== spin model of the compaction-hold protocol (tests/models/$MODEL)"
# The design: every assertion (the reader's and the publisher's debug
# assertion) and no deadlock; then the two liveness properties.
expect_pass "design-safety" "" safety
expect_pass "design-reads-complete" "" ltl:reads_complete
expect_pass "design-no-pin" "" ltl:no_pin

# The refuting variants of the safety property, with only the reader's
# assertions on, so the counterexample is a read that sees since > t.
READER='assertion violated \(pub_since<=(read_t\[i\]|arg)\)'
expect_counterexample "maint-only-unsafe" "-DMAINT_ONLY -DREADER_ASSERTS_ONLY" safety "$READER"
expect_counterexample "no-standing-hold-unsafe" "-DNO_STANDING_HOLD -DREADER_ASSERTS_ONLY" safety "$READER"
expect_counterexample "late-hold-unsafe" "-DLATE_HOLD -DREADER_ASSERTS_ONLY" safety "$READER"

# The refuting variants of no permanent pin: safe, but the since stays.
expect_pass "frozen-peer-hold-safety" "-DFROZEN_PEER_HOLD" safety
expect_counterexample "frozen-peer-hold-pins" "-DFROZEN_PEER_HOLD" ltl:no_pin 'acceptance cycle'
expect_counterexample "no-publisher-wake-pins" "-DNO_PUBLISHER_WAKE" ltl:no_pin 'acceptance cycle'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
