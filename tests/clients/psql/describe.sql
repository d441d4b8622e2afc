-- psql 15's describe commands with + (sizes, access methods, privileges)
-- over empty relations (a table's size is its stored shard's bytes, 0
-- while it has none), \dx and \dn+. tandem-only: owners, schemas and
-- access methods are tandem's (PostgreSQL prints heap and btree).
CREATE TABLE psql_d (a int PRIMARY KEY, b text);
CREATE INDEX psql_d_b ON psql_d (b);
CREATE VIEW psql_dv AS SELECT a FROM psql_d;
\dt+ psql_d*
\di+ psql_d*
\dv+ psql_d*
\dx
\dn+
DROP VIEW psql_dv;
DROP TABLE psql_d;
