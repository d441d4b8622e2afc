-- tandem's SUBSCRIBE from psql: through DECLARE/FETCH in a transaction,
-- with the timestamps left out so the output is stable.
DROP TABLE IF EXISTS psql_sub;
CREATE TABLE psql_sub (k int, v text);
INSERT INTO psql_sub VALUES (1, 'a'), (2, 'b');
\pset format unaligned
\pset tuples_only on
BEGIN;
DECLARE c CURSOR FOR SUBSCRIBE (SELECT k, v FROM psql_sub);
FETCH 2 c WITH (timeout = '10s') \g PSQL_WORK/fetch1.out
\! cut -d'|' -f2- PSQL_WORK/fetch1.out | sort
\! psql -X -q -c "DELETE FROM psql_sub WHERE k = 1"
FETCH 1 c WITH (timeout = '10s') \g PSQL_WORK/fetch2.out
\! cut -d'|' -f2- PSQL_WORK/fetch2.out
COMMIT;
DROP TABLE psql_sub;
