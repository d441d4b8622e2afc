# An index over 200,000 rows: reads that do not wait (serializable) see the
# index once it has hydrated, and then each later write, the `>` retries
# covering the catch-up. The expected values are computed independently
# (sum of k for k = 7, 107, ..., 199907).

> CREATE TABLE big (k int, v int)
> INSERT INTO big SELECT g, g % 100 FROM generate_series(1, 200000) AS g

> SET transaction_isolation = 'serializable'

> CREATE VIEW by_v AS SELECT v, count(*) AS n, sum(k) AS s FROM big GROUP BY v
> CREATE INDEX by_v_idx ON by_v (v)

> SELECT n, s FROM by_v WHERE v = 7
2000 199914000

> SELECT count(*), sum(n) FROM by_v
100 200000

# One row joins group 7; the first row of every group leaves.
> INSERT INTO big VALUES (300007, 7)
> DELETE FROM big WHERE k <= 100

> SELECT n, s FROM by_v WHERE v = 7
2000 200214000

> SELECT n, s FROM by_v WHERE v = 8
1999 199915992

> SET transaction_isolation = 'strict serializable'

> SELECT count(*) FROM big
199901
