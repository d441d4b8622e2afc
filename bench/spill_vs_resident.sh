#!/usr/bin/env bash
# Spilled vs resident arrangements, side by side in one
# run on one tandemd: an index over ROWS rows t(a int, b text) read
#   * resident: memory_limit reset (tandemd's default, half of RAM), and
#   * spilled:  ALTER SYSTEM SET memory_limit = '1MB' (every batch spilled;
#               reads page blocks back through the 32 MiB block cache),
# arms interleaved over RUNS rounds. Per arm: prepared point lookups
# (pgbench, 1 client, SECONDS s: tps and mean latency), a full scan
# (SELECT count(*), sum(a), max(b): median seconds, rows/s), and hydration
# (CREATE INDEX under the arm's limit until it answers: median seconds), and
# the same lookups again while another connection repeats a long fast-path
# walk over the whole index (SELECT a FROM t WHERE b = 'none' ORDER BY a:
# every position, no row; on the spilled arm it reads the spill back, which
# runs on the offload pool). PostgreSQL 15's prepared
# lookup on the same table (btree index) is printed for reference.
#
#   bash bench/spill_vs_resident.sh [ROWS] [RUNS] [SECONDS]  (default 1000000 3 5)
ROWS=${1:-1000000}
RUNS=${2:-3}
SECS=${3:-5}
source "$(dirname "$0")/lib.sh"

for sql in pg_sql td_sql; do
  $sql "CREATE TABLE t (a int, b text)"
  $sql "INSERT INTO t SELECT g, 'row-' || g FROM generate_series(1, $ROWS) g"
done
pg_sql "CREATE INDEX t_a ON t (a)"
printf '\\set id random(1, %d)\nSELECT a, b FROM t WHERE a = :id;\n' "$ROWS" >"$WORK/lookup.sql"
chmod 644 "$WORK/lookup.sql"

python3 - "$PG_PORT" "$TD_PORT" "$RUNS" "$SECS" "$WORK/lookup.sql" "$ROWS" <<'PY'
import re, statistics, subprocess, sys, threading, time
pg_port, td_port, runs, secs, script, rows = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6])
def psql(port, user, db, sql):
    return subprocess.run(["psql", "-X", "-q", "-At", "-h", "127.0.0.1", "-p", port, "-U", user, db, "-c", sql],
                          stdout=subprocess.PIPE, check=True, text=True).stdout
def td(sql): return psql(td_port, "materialize", "materialize", sql)
def system(sql): psql(td_port, "mz_system", "materialize", sql)
def pgbench(port, user, db):
    out = subprocess.run(["pgbench", "-n", "-M", "prepared", "-f", script, "-T", secs, "-c", "1",
                          "-h", "127.0.0.1", "-p", port, "-U", user, db],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=True, text=True).stdout
    tps = float(re.search(r"tps = ([0-9.]+)", out).group(1))
    lat = float(re.search(r"latency average = ([0-9.]+) ms", out).group(1))
    return tps, lat
def timed(fn):
    t = time.monotonic(); fn(); return time.monotonic() - t
def scan():
    out = td("SELECT count(*), sum(a), max(b) FROM t")
    assert out.split("|")[0] == str(rows), out
def hydrate():
    td("DROP INDEX IF EXISTS t_a")
    def run():
        td("CREATE INDEX t_a ON t (a)")
        assert td("SELECT b FROM t WHERE a = 77").strip() == "row-77"
    return timed(run)
WALK = "SELECT a FROM t WHERE b = 'none' ORDER BY a"
def during_walks():
    # pgbench's lookups while another connection repeats WALK; the walks' mean time.
    stop, walks = threading.Event(), []
    def loop():
        while not stop.is_set():
            walks.append(timed(lambda: td(WALK)))
    t = threading.Thread(target=loop); t.start()
    time.sleep(0.2)
    try:
        tps, lat = pgbench(td_port, "materialize", "materialize")
    finally:
        stop.set(); t.join()
    return tps, lat, statistics.mean(walks)
arms = [("resident", None), ("spilled (memory_limit 1MB)", "1MB")]
res = {a: {"tps": [], "lat": [], "scan": [], "hyd": [], "btps": [], "blat": [], "walk": []} for a, _ in arms}
pg = []
for _ in range(runs):
    pg.append(pgbench(pg_port, "postgres", "postgres"))
    for arm, limit in arms:
        if limit is None:
            system("ALTER SYSTEM RESET memory_limit")
        else:
            system(f"ALTER SYSTEM SET memory_limit = '{limit}'")
        # The arm's index is built under its limit (spilled batches stay
        # spilled after a RESET, so each arm hydrates its own).
        res[arm]["hyd"].append(hydrate())
        tps, lat = pgbench(td_port, "materialize", "materialize")
        res[arm]["tps"].append(tps); res[arm]["lat"].append(lat)
        res[arm]["scan"].append(timed(scan))
        btps, blat, walk = during_walks()
        res[arm]["btps"].append(btps); res[arm]["blat"].append(blat); res[arm]["walk"].append(walk)
med = statistics.median
print(f"rows {rows}, {runs} rounds, pgbench {secs} s x 1 client")
print(f"{'arm':28} {'lookup tps':>11} {'lat ms':>7} {'scan s':>7} {'scan rows/s':>12} {'hydrate s':>10}")
for arm, _ in arms:
    r = res[arm]
    print(f"{arm:28} {med(r['tps']):11.0f} {med(r['lat']):7.3f} {med(r['scan']):7.3f} "
          f"{rows / med(r['scan']):12.0f} {med(r['hyd']):10.2f}")
base, sp = res[arms[0][0]], res[arms[1][0]]
print(f"spilled/resident: lookup tps {med(sp['tps']) / med(base['tps']):.2f}x, "
      f"scan time {med(sp['scan']) / med(base['scan']):.2f}x, hydration time {med(sp['hyd']) / med(base['hyd']):.2f}x")
print("lookups while another connection repeats a full walk of the index:")
print(f"{'arm':28} {'tps quiet':>10} {'tps walks':>10} {'ms quiet':>9} {'ms walks':>9} {'walk s':>7}")
for arm, _ in arms:
    r = res[arm]
    print(f"{arm:28} {med(r['tps']):10.0f} {med(r['btps']):10.0f} {med(r['lat']):9.3f} {med(r['blat']):9.3f} "
          f"{med(r['walk']):7.3f}")
print(f"postgres prepared lookup (reference): {med([t for t, _ in pg]):.0f} tps, {med([l for _, l in pg]):.3f} ms")
PY
