#!/usr/bin/env bash
# Runs SQLite's wider sqllogictest files (PEER_DIR/more, the conformance
# suite of ../shared/peer-slt) through tandem-slt, two files at a time, and
# checks that every record tandem fails is one PostgreSQL 15 fails too
# (more_postgres_failures.txt beside this script: file:line of each record
# PostgreSQL fails; regenerate it with `tandem-slt --url <postgres> --fresh-db`
# over the same files). Prints one summary line and exits non-zero if any
# other record fails.
#
# Usage: check_more.sh TANDEM_SLT_BINARY PEER_MORE_DIR LOG_DIR
set -uo pipefail
SLT=$1
MORE=$2
LOGS=$3
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$LOGS"
ls "$MORE"/*.test | xargs -P 2 -I{} sh -c '"$0" "$1" > "$2/$(basename "$1").log" 2>&1' "$SLT" {} "$LOGS"
records=0
failures=$(mktemp)
for log in "$LOGS"/*.test.log; do
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  if [ -z "$line" ]; then
    echo "no summary in $log"
    echo "$(basename "$log" .log):summary" >>"$failures"
    continue
  fi
  records=$((records + $(echo "$line" | sed -E 's/^([0-9]+) passed, ([0-9]+) failed.*/\1 + \2/')))
  grep -E ': FAIL' "$log" | sed -E 's|^.*/([^/:]+):([0-9]+): FAIL.*|\1:\2|' >>"$failures"
done
sort -u "$failures" -o "$failures"
unexpected=$(comm -23 "$failures" <(sort -u "$HERE/more_postgres_failures.txt"))
expected=$(comm -12 "$failures" <(sort -u "$HERE/more_postgres_failures.txt") | wc -l)
rm -f "$failures"
if [ -n "$unexpected" ]; then
  echo "records PostgreSQL passes that tandem fails:"
  for r in $unexpected; do
    file=${r%%:*}
    grep -A12 -E "/$file:${r##*:}: FAIL" "$LOGS/$file.log" | head -14
  done
fi
count=$(echo -n "$unexpected" | grep -c . || true)
echo "more/: $records records, $expected failed as in PostgreSQL, $count failed that PostgreSQL passes"
[ "$count" -eq 0 ]
