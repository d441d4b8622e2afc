# Introspection values change as the engine works:
# arrangement sizes grow with data, export frontiers advance, reads are
# recorded in mz_recent_peeks with what served them, the peek histogram's
# counts add up to the reads recorded, and the step histogram fills. Logs
# are complete as of a read's timestamp, so `>` retries cover the moments
# before the next read's time passes what happened.

> CREATE TABLE t (a int, b text)
> CREATE INDEX t_idx ON t (a)

# Ids depend on what the server ran before (tandem-td --url shares one).
$ set-from-sql var=idx
SELECT id FROM mz_catalog.mz_indexes WHERE name = 't_idx'

$ set-from-sql var=tbl
SELECT id FROM mz_catalog.mz_tables WHERE name = 't'

> SELECT records FROM mz_introspection.mz_dataflow_arrangement_sizes WHERE name = 'Dataflow: materialize.public.t_idx'
0

> INSERT INTO t SELECT g, 'row ' || g FROM generate_series(1, 100) AS g

> SELECT records FROM mz_introspection.mz_dataflow_arrangement_sizes WHERE name = 'Dataflow: materialize.public.t_idx'
100

> SELECT records > 0, batches > 0, size > 0 FROM mz_introspection.mz_arrangement_sizes a JOIN mz_introspection.mz_dataflow_operator_dataflows o ON a.operator_id = o.id WHERE o.dataflow_name = 'Dataflow: materialize.public.t_idx'
true true true

> INSERT INTO t SELECT g, 'row ' || g FROM generate_series(101, 250) AS g

> SELECT records FROM mz_introspection.mz_dataflow_arrangement_sizes WHERE name = 'Dataflow: materialize.public.t_idx'
250

# The export's frontier advances with the tables' upper.
$ set-from-sql var=frontier
SELECT time::text FROM mz_introspection.mz_compute_frontiers WHERE export_id = '${idx}'

> INSERT INTO t VALUES (1000, 'later')

> SELECT time::text::numeric > ${frontier} FROM mz_introspection.mz_compute_frontiers WHERE export_id = '${idx}'
true

> SELECT import_id = '${tbl}' FROM mz_introspection.mz_compute_import_frontiers WHERE export_id = '${idx}'
true

# Point lookups are fast-path reads of the index; an aggregate is a peek
# dataflow. Both are recorded with what served them.
> SELECT b FROM t WHERE a = 7
"row 7"

> SELECT b FROM t WHERE a = 8
"row 8"

> SELECT count(*) FROM t
251

# With the interactive runtime on (the default), it served both.
> SELECT count(*) >= 2 FROM mz_introspection.mz_recent_peeks WHERE object_id = '${idx}' AND path = 'fast_path' AND runtime = 'interactive'
true

> SELECT count(*) >= 1 FROM mz_introspection.mz_recent_peeks WHERE path = 'dataflow' AND runtime = 'interactive'
true

# One read sees both logs at one time: every recorded read is counted once.
> SELECT (SELECT sum(count) FROM mz_introspection.mz_peek_durations_histogram) = (SELECT count(*) FROM mz_introspection.mz_recent_peeks)
true

> SELECT count(*) > 0, min(count) > 0 FROM mz_introspection.mz_runtime_step_durations_histogram WHERE runtime = 'maintenance'
true true

# The interactive runtime logs nothing itself; maintenance logs its steps.
> SELECT count(*) > 0, min(count) > 0 FROM mz_introspection.mz_runtime_step_durations_histogram WHERE runtime = 'interactive'
true true

> SELECT sum(elapsed_ns) > 0 FROM mz_introspection.mz_scheduling_elapsed
true

# Dropping the index retracts its rows.
> DROP INDEX t_idx

> SELECT count(*) FROM mz_introspection.mz_compute_exports WHERE export_id = '${idx}'
0

> SELECT count(*) FROM mz_introspection.mz_dataflow_arrangement_sizes WHERE name = 'Dataflow: materialize.public.t_idx'
0
