# Controller introspection over time: an index over a 200,000-row
# table becomes hydrated (mz_compute_hydration_statuses, `>` retries until
# it has), its frontiers advance as time passes (mz_frontiers and
# mz_cluster_replica_frontiers), and a materialized view over the table
# keeps a small lag behind it (mz_materialization_lag) while it is written.

> CREATE TABLE big (k int, v int)
> INSERT INTO big SELECT g, g % 1000 FROM generate_series(1, 200000) AS g

> CREATE INDEX big_v ON big (v)

> SELECT h.hydrated, h.hydration_time > INTERVAL '0 s', r.name
  FROM mz_internal.mz_compute_hydration_statuses h
  JOIN mz_indexes i ON i.id = h.object_id
  JOIN mz_cluster_replicas r ON r.id = h.replica_id
  WHERE i.name = 'big_v'
true true r1

> SELECT h.hydrated FROM mz_internal.mz_hydration_statuses h JOIN mz_indexes i ON i.id = h.object_id WHERE i.name = 'big_v'
true

# The write frontier moves on with the tables' uppers (at least once a
# second), so a later read sees it past the one recorded now.
$ set-from-sql var=upper
SELECT f.write_frontier::text FROM mz_internal.mz_frontiers f JOIN mz_indexes i ON i.id = f.object_id WHERE i.name = 'big_v'

> SELECT f.write_frontier > ${upper}::mz_timestamp, f.read_frontier <= f.write_frontier
  FROM mz_internal.mz_frontiers f JOIN mz_indexes i ON i.id = f.object_id WHERE i.name = 'big_v'
true true

> SELECT f.write_frontier > ${upper}::mz_timestamp
  FROM mz_cluster_replica_frontiers f JOIN mz_indexes i ON i.id = f.object_id WHERE i.name = 'big_v'
true

# A materialized view over the table hydrates and then trails its input by
# little, including while the input is written.
> CREATE MATERIALIZED VIEW per_v AS SELECT v, count(*) AS n FROM big GROUP BY v

> SELECT h.hydrated FROM mz_internal.mz_compute_hydration_statuses h
  JOIN mz_materialized_views m ON m.id = h.object_id WHERE m.name = 'per_v'
true

> INSERT INTO big VALUES (200001, 1)
> INSERT INTO big VALUES (200002, 2)

> SELECT n FROM per_v WHERE v = 1
201

> SELECT l.local_lag < INTERVAL '2 s', l.global_lag < INTERVAL '2 s', t.name
  FROM mz_internal.mz_materialization_lag l
  JOIN mz_materialized_views m ON m.id = l.object_id
  JOIN mz_tables t ON t.id = l.slowest_local_input_id
  WHERE m.name = 'per_v'
true true big

> DROP MATERIALIZED VIEW per_v
> DROP INDEX big_v

> SELECT count(*) FROM mz_internal.mz_compute_hydration_statuses h JOIN mz_objects o ON o.id = h.object_id
0
