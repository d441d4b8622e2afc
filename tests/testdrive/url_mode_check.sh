#!/usr/bin/env bash
# tandem-td --url against one long-running tandemd: every script here passes
# when run one after another on the same server (the reset before each file
# drops what the previous one made), and the same file run twice fails with
# --no-reset after a run with reset (its tables already exist), so the reset is what does it.
#
# usage: url_mode_check.sh PATH/TO/tandemd PATH/TO/tandem-td DIR
set -u
tandemd=$1
td=$2
dir=$3
work=$(mktemp -d /tmp/tandem-td-url-XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$tandemd" --listen 127.0.0.1:$port --data-dir "$work/data" >"$work/log" 2>&1 &
pid=$!
cleanup() {
  kill -TERM $pid 2>/dev/null
  wait $pid 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 1 300); do
  pg_isready -q -h 127.0.0.1 -p $port -U materialize -d materialize && break
  sleep 0.05
done
url=postgresql://materialize@127.0.0.1:$port/materialize
bad=0

files=("$dir"/*.td)
out=$("$td" --url "$url" --default-timeout 30s "${files[@]}" "${files[0]}" 2>&1)
echo "$out"
if [ "$(echo "$out" | tail -1)" != "$(( ${#files[@]} + 1 )) passed, 0 failed" ]; then
  echo "FAIL: with resets, every file should pass on the shared server"; bad=1
fi

"$td" --url "$url" "$dir/tables.td" >/dev/null 2>&1
out=$("$td" --url "$url" --no-reset --default-timeout 1s "$dir/tables.td" 2>&1)
if [ "$(echo "$out" | tail -1)" != "0 passed, 1 failed" ] || ! echo "$out" | grep -q "already exists"; then
  echo "$out"
  echo "FAIL: without reset, the second run of tables.td should fail on its existing table"; bad=1
fi
[ $bad -eq 0 ] && echo "url mode: ok"
[ $bad -eq 0 ]
