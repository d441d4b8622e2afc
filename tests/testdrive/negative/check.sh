#!/usr/bin/env bash
# Negative tests of tandem-td against a real tandemd: every *.td here is
# meant to fail. For each, tandem-td must exit 1, end with "0 passed,
# 1 failed", and print each line the script announces as `# expect: TEXT`
# (the failing file:line, the diff, the reason). A directory run must count
# every file as failed, and bad usage must exit 2.
#
# usage: check.sh PATH/TO/tandem-td DIR
set -u
td=$1
dir=$2
bad=0
count=0
for file in "$dir"/*.td; do
  count=$((count + 1))
  out=$("$td" --default-timeout=1s "$file" 2>&1)
  rc=$?
  ok=1
  if [ "$rc" -ne 1 ]; then echo "$file: exit status $rc, expected 1"; ok=0; fi
  if [ "$(printf '%s\n' "$out" | tail -1)" != "0 passed, 1 failed" ]; then
    echo "$file: last line is not '0 passed, 1 failed'"; ok=0
  fi
  while IFS= read -r want; do
    if ! printf '%s\n' "$out" | grep -qF -- "$want"; then echo "$file: output lacks: $want"; ok=0; fi
  done < <(sed -n 's/^# expect: //p' "$file")
  if [ "$ok" -ne 1 ]; then
    bad=$((bad + 1))
    printf -- '--- tandem-td output for %s:\n%s\n---\n' "$file" "$out"
  else
    echo "$file: reported as expected"
  fi
done
if [ "$count" -eq 0 ]; then echo "no negative scripts in $dir"; exit 1; fi

summary=$("$td" --default-timeout=1s "$dir" 2>&1 | tail -1)
if [ "$summary" != "0 passed, $count failed" ]; then
  echo "directory run: last line '$summary', expected '0 passed, $count failed'"; bad=$((bad + 1))
fi
"$td" --no-such-option "$dir" >/dev/null 2>&1
rc=$?
if [ "$rc" -ne 2 ]; then echo "bad usage: exit status $rc, expected 2"; bad=$((bad + 1)); fi

echo "negative scripts: $((count - bad < 0 ? 0 : count - bad)) of $count behaved"
[ "$bad" -eq 0 ]
