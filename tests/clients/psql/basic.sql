-- psql scripts as users write them: ON_ERROR_STOP off so an error is
-- printed and the script goes on, \set and :'var' interpolation, \gset,
-- \if, \copy from and to files, PREPARE/EXECUTE, BEGIN ... COMMIT and
-- ROLLBACK, \x expanded output, catalog queries, and PGOPTIONS.
\set VERBOSITY default
DROP TABLE IF EXISTS psql_items;
CREATE TABLE psql_items (id int PRIMARY KEY, name text NOT NULL, price numeric(8,2), added date);
\set n 3
\set who 'O''Brien'
INSERT INTO psql_items VALUES (1, 'one', 1.5, '2024-01-01'), (2, :'who', NULL, NULL), (:n, 'three', 3, '2024-03-03');
UPDATE psql_items SET price = price * 2 WHERE id = :n;
SELECT * FROM psql_items ORDER BY id;
SELECT count(*) AS total, max(price) AS top, count(*) > 0 AS nonempty FROM psql_items \gset
\echo total is :total, top is :top
\if :nonempty
\echo the table is not empty
\else
\echo the table is empty
\endif
PREPARE by_name (text) AS SELECT id FROM psql_items WHERE name = $1;
EXECUTE by_name('one');
EXECUTE by_name(:'who');
DEALLOCATE by_name;
BEGIN;
DELETE FROM psql_items WHERE id = 1;
SELECT count(*) FROM psql_items;
ROLLBACK;
BEGIN;
INSERT INTO psql_items VALUES (4, 'four', 4, NULL);
COMMIT;
SELECT id FROM psql_items ORDER BY id;
-- Errors, and the session going on after them.
INSERT INTO psql_items VALUES (1, 'again', 0, NULL);
SELECT no_such_column_at_all FROM psql_items;
BEGIN;
SELECT 1/0;
SELECT 1;
ROLLBACK;
SELECT 'recovered' AS status;
\copy psql_items TO 'PSQL_WORK/items.txt'
DELETE FROM psql_items;
\copy psql_items FROM 'PSQL_WORK/items.txt'
\copy (SELECT id, name FROM psql_items ORDER BY id) TO 'PSQL_WORK/items.csv' WITH (FORMAT csv, HEADER)
\! cat PSQL_WORK/items.csv
\x on
SELECT id, name, price FROM psql_items WHERE id = 2;
\x off
SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'psql_items' ORDER BY ordinal_position;
SELECT relname, relkind FROM pg_class WHERE relname LIKE 'psql_items%' ORDER BY relname;
-- Session settings from the startup packet's options, as PGOPTIONS sends them.
\! PGOPTIONS='-c search_path=nowhere,public --statement-timeout=1min' psql -X -At -c 'SHOW search_path' -c 'SHOW statement_timeout'
DROP TABLE psql_items;
