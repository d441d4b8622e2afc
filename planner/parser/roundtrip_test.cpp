// parse -> print -> parse round trip for every statement kind and many
// expression forms: parse(print(ast)) == ast, printing is idempotent, and a
// deep copy (clone) equals its original and is independent of it.

#include <catch2/catch.hpp>

#include "planner/parser/parser.hpp"
#include "planner/parser/printer.hpp"

using namespace tandem::sql;

namespace {

void check_roundtrip(const char* sql) {
  INFO("input: " << sql);
  auto parsed = parse_statements(sql);
  if (!parsed.ok()) FAIL(parsed.status().to_string());
  REQUIRE_FALSE(parsed->empty());
  for (const ParsedStatement& ps : *parsed) {
    std::string printed = print(ps.statement);
    INFO("printed: " << printed);
    auto again = parse_one(printed);
    if (!again.ok()) FAIL(again.status().to_string());
    CHECK(*again == ps.statement);
    CHECK(print(*again) == printed);
    Statement clone = ps.statement;  // deep copy
    CHECK(clone == ps.statement);
  }
}

const char* const kQueries[] = {
    "SELECT 1",
    "SELECT ALL a, b AS \"B\", c d FROM t",
    "SELECT DISTINCT a FROM t",
    "SELECT DISTINCT ON (a, b) a, b FROM t ORDER BY a, b DESC",
    "SELECT * FROM s.t AS x (a, b), db.s.u",
    "SELECT t.*, u.* FROM t JOIN u ON t.a = u.a",
    "SELECT * FROM t INNER JOIN u USING (a, b) LEFT OUTER JOIN v ON true RIGHT JOIN w ON false "
    "FULL OUTER JOIN x ON 1 = 1 CROSS JOIN y NATURAL JOIN z",
    "SELECT * FROM (t JOIN u ON a = b) AS j",
    "SELECT j.a FROM t JOIN u USING (a) AS j",
    "(SELECT a FROM t LIMIT 3) ORDER BY a",
    "(SELECT a FROM t ORDER BY a) UNION ALL (SELECT b FROM u ORDER BY b LIMIT 1)",
    "SELECT * FROM ((SELECT 1) UNION (SELECT 2)) AS q",
    "SELECT * FROM t, LATERAL (SELECT t.a) AS l (x)",
    "SELECT * FROM generate_series(1, 10) AS g(x)",
    "SELECT * FROM generate_series(1, 10) WITH ORDINALITY",
    "SELECT g FROM LATERAL generate_series(1, t.n) g",
    "SELECT a, count(*) FROM t WHERE b > 1 GROUP BY a HAVING count(*) > 2",
    "SELECT a FROM t ORDER BY a ASC NULLS FIRST, b DESC NULLS LAST LIMIT 10 OFFSET 5",
    "SELECT a FROM t LIMIT ALL OFFSET 3 ROWS",
    "SELECT a FROM t OFFSET 2 ROWS FETCH FIRST 3 ROWS ONLY",
    "SELECT a FROM t FETCH NEXT ROW ONLY",
    "SELECT 1 UNION SELECT 2 UNION ALL SELECT 3",
    "SELECT 1 UNION SELECT 2 INTERSECT SELECT 3",
    "SELECT 1 INTERSECT ALL SELECT 2 EXCEPT DISTINCT SELECT 3",
    "(SELECT 1 ORDER BY 1 LIMIT 1) UNION (SELECT 2)",
    "VALUES (1, 'a'), (2, 'b') ORDER BY 1",
    "TABLE t",
    "WITH a AS (SELECT 1), b (x) AS (SELECT 2) SELECT * FROM a, b",
    "WITH RECURSIVE r (n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r",
    "SELECT * FROM t AS OF now()",
    "SELECT * FROM t AS OF AT LEAST 17",
    "SELECT 1 AS \"of\", 2 AS \"select\", 3 AS \"Mixed Case\"",
    "SELECT \"from\".\"select\" FROM \"from\"",
};

const char* const kExpressions[] = {
    "SELECT 1 + 2 * 3 - 4 / 5 % 6 ^ 7",
    "SELECT -2 ^ 2, - 2::int, +3, - -1, a=-1, @ -5, |/ 9",
    "SELECT a OR b AND NOT c",
    "SELECT x IS NULL = false, a = b IS NOT TRUE, a IS FALSE, a IS NOT UNKNOWN, a ISNULL, b NOTNULL",
    "SELECT a IS DISTINCT FROM b, a IS NOT DISTINCT FROM b",
    "SELECT a BETWEEN 1 AND 2, a NOT BETWEEN SYMMETRIC 2 AND 1",
    "SELECT a IN (1, 2, 3), a NOT IN (SELECT b FROM u)",
    "SELECT a LIKE 'x%', a NOT LIKE 'y' ESCAPE '!', a ILIKE 'z', a NOT SIMILAR TO 'w'",
    "SELECT a || b, j -> 'k', j ->> 'k', j #> '{a}', a @> b, a <@ b, a ~ b, a !~* b, a ~~ b, a & b | c # d, a << 2",
    "SELECT a < b, a <= b, a > b, a >= b, a = b, a <> b, a != b",
    "SELECT NULL, TRUE, FALSE, 1, 1.5, .5, 1e10, 'str', 'it''s', E'a\\tb', $$dollar$$, $1",
    "SELECT DATE '2020-01-01', TIME '12:00', TIMESTAMP '2020-01-01 00:00:00', "
    "TIMESTAMPTZ '2020-01-01', INTERVAL '1' DAY, INTERVAL '1-2' YEAR TO MONTH, INTERVAL '1 day', "
    "INTERVAL '1' SECOND(3), int4 '1', json '{}', double precision '1.5', "
    "timestamp(3) with time zone '2020-01-01'",
    // Type names the printer quotes (non-ASCII, upper case).
    "SELECT \xc2\xb5 'abc'::int, \"MyType\" 'x', \"interval\" '1'",
    "SELECT CAST(a AS int), a::text, a::numeric(10, 2), a::varchar(3)[], a::double precision, "
    "a::character varying(5), a::timestamp without time zone, a::timestamp with time zone, "
    "a::time with time zone, a::bit varying(3), a::\"MyType\", a::s.t, a::int ARRAY",
    "SELECT f(), f(a), s.f(a, b), count(*), count(DISTINCT a), sum(ALL a)",
    "SELECT string_agg(a, ',' ORDER BY b DESC, c), array_agg(a ORDER BY a NULLS FIRST)",
    "SELECT sum(a) FILTER (WHERE a > 0), count(*) FILTER (WHERE b)",
    "SELECT row_number() OVER (), rank() OVER (PARTITION BY a ORDER BY b), "
    "sum(x) OVER (ORDER BY y ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), "
    "sum(x) OVER (ORDER BY y RANGE UNBOUNDED PRECEDING), "
    "sum(x) OVER (GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING), lag(x) OVER w",
    "SELECT rank() OVER w, sum(x) OVER (w ORDER BY y ROWS 1 PRECEDING) FROM t "
    "WINDOW w AS (PARTITION BY a), v AS (w ORDER BY b)",
    "SELECT CASE WHEN a THEN 1 WHEN b THEN 2 ELSE 3 END, CASE a WHEN 1 THEN 'x' END",
    "SELECT COALESCE(a, b), NULLIF(a, b), GREATEST(a, b), LEAST(a, b)",
    "SELECT EXISTS (SELECT 1), (SELECT max(a) FROM t), ARRAY(SELECT a FROM t), NOT EXISTS (SELECT 2)",
    "SELECT a = ANY (SELECT b FROM u), a < ALL (SELECT 1), a = SOME (ARRAY[1, 2]), a = ANY ($1)",
    "SELECT ARRAY[1, 2], ARRAY[[1, 2], [3, 4]], ARRAY[]::int[], ROW(1, 'a'), (1, 2), ROW()",
    "SELECT EXTRACT(year FROM d), EXTRACT('epoch' FROM d), POSITION('a' IN s), "
    "SUBSTRING(s FROM 1 FOR 2), SUBSTRING(s FROM 2), SUBSTRING(s FOR 2), substring(s, 1, 2), "
    "TRIM(BOTH 'x' FROM s), TRIM(LEADING FROM s), TRIM(TRAILING 'y' FROM s), TRIM(s)",
    "SELECT d AT TIME ZONE 'UTC', s COLLATE \"C\", a[1], a[1:2], a[:2], a[2:], (x).f, (f(x)).g",
    "SELECT CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP(3), LOCALTIMESTAMP, "
    "CURRENT_USER, SESSION_USER, USER, CURRENT_SCHEMA, current_schema()",
    "SELECT left(s, 2), right(s, 1), \"Upper\"(x), mz_now()",
    "SELECT a FROM t WHERE a IN ((SELECT 1), 2) AND (b, c) = (1, 2)",
    "SELECT 'a'\n'b', U&x, n'nat'",
};

const char* const kStatements[] = {
    // session
    "SET search_path = public, \"Other\"", "SET LOCAL statement_timeout TO 5",
    "SET SESSION x = -1", "SET x TO DEFAULT", "SET x = on", "SET TIME ZONE 'UTC'",
    "SET TIME ZONE LOCAL", "SET NAMES 'UTF8'", "SET cluster = quickstart",
    "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE",
    "SET TRANSACTION ISOLATION LEVEL STRICT SERIALIZABLE, READ ONLY",
    "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED",
    "RESET ALL", "RESET search_path", "RESET TIME ZONE", "SHOW ALL", "SHOW search_path",
    "SHOW TIME ZONE", "SHOW TRANSACTION ISOLATION LEVEL",
    "BEGIN", "BEGIN TRANSACTION", "BEGIN WORK READ ONLY",
    "BEGIN ISOLATION LEVEL REPEATABLE READ, READ WRITE", "START TRANSACTION ISOLATION LEVEL SERIALIZABLE",
    "COMMIT", "COMMIT WORK", "END", "END TRANSACTION", "ROLLBACK", "ABORT",
    "DISCARD ALL", "DISCARD TEMP", "DISCARD PLANS", "DISCARD SEQUENCES",
    // DDL
    "CREATE TABLE t (a int)",
    "CREATE TABLE t (tid int NOT NULL, filler char(84)) WITH (fillfactor = 100)",
    "CREATE TABLE IF NOT EXISTS s.t (a int NOT NULL, b text NULL DEFAULT 'x', c numeric(10, 2) "
    "PRIMARY KEY, d varchar(3) UNIQUE, e timestamp with time zone, f int[], "
    "PRIMARY KEY (a, b), CONSTRAINT u1 UNIQUE (c))",
    "CREATE TEMPORARY TABLE tt (a int DEFAULT 1 + 2 NOT NULL)",
    "CREATE TEMP TABLE t2 (\"Select\" text)",
    "CREATE VIEW v AS SELECT 1",
    "CREATE OR REPLACE TEMP VIEW IF NOT EXISTS v (a, b) AS SELECT 1, 2",
    "CREATE MATERIALIZED VIEW mv AS SELECT a, count(*) FROM t GROUP BY a",
    "CREATE OR REPLACE MATERIALIZED VIEW IF NOT EXISTS mv (a) IN CLUSTER c AS SELECT 1",
    "CREATE INDEX i ON t (a)",
    "CREATE UNIQUE INDEX IF NOT EXISTS i IN CLUSTER c ON s.t USING arrangement (a, b + 1, lower(c))",
    "CREATE INDEX ON t (a)", "CREATE INDEX IN CLUSTER c ON t (a)",
    "CREATE DEFAULT INDEX ON v", "CREATE DEFAULT INDEX IF NOT EXISTS i IN CLUSTER c ON v",
    "CREATE CLUSTER c (SIZE = '1', REPLICATION FACTOR = 2)", "CREATE CLUSTER c SIZE '2'",
    "CREATE CLUSTER c SIZE = '2', REPLICATION FACTOR 0",
    "CREATE CLUSTER c REPLICAS (r1 (SIZE '1'), r2 (SIZE = '2'))", "CREATE CLUSTER c REPLICAS ()",
    "CREATE CLUSTER REPLICA c.r SIZE = '1'", "CREATE CLUSTER REPLICA c.r (SIZE '1')",
    "CREATE SCHEMA s", "CREATE SCHEMA IF NOT EXISTS db.s",
    "DROP TABLE t", "DROP TABLE IF EXISTS a, s.b CASCADE", "DROP VIEW v RESTRICT",
    "DROP MATERIALIZED VIEW IF EXISTS mv", "DROP INDEX i", "DROP CLUSTER c CASCADE",
    "DROP CLUSTER REPLICA c.r", "DROP SCHEMA s",
    "ALTER TABLE t RENAME TO u", "ALTER VIEW IF EXISTS v RENAME TO w",
    "ALTER MATERIALIZED VIEW mv RENAME TO mv2", "ALTER INDEX s.i RENAME TO j",
    "ALTER CLUSTER c RENAME TO d", "ALTER TABLE t ADD PRIMARY KEY (a, b)",
    "ALTER TABLE IF EXISTS s.t ADD CONSTRAINT k UNIQUE (c)",
    "ALTER SYSTEM SET max_result_size = 1024", "ALTER SYSTEM SET x TO 'a', 'b'",
    "ALTER SYSTEM SET enable_compute_interactive_runtime = true", "ALTER SYSTEM SET x = DEFAULT",
    "ALTER SYSTEM RESET x", "ALTER SYSTEM RESET ALL",
    // DML
    "INSERT INTO t VALUES (1, 'a'), (2, 'b')", "INSERT INTO s.t (a, b) VALUES (1, 2) RETURNING a, b AS c",
    "INSERT INTO t SELECT * FROM u WHERE a > 1", "INSERT INTO t (SELECT 1)",
    "INSERT INTO t DEFAULT VALUES", "INSERT INTO t AS x (a) VALUES ($1) RETURNING *",
    "UPDATE t SET a = 1", "UPDATE t AS x SET a = a + 1, b = DEFAULT WHERE x.c = 2 RETURNING a",
    "UPDATE t x SET a = 2 WHERE a IS NULL",
    "DELETE FROM t", "DELETE FROM t AS x WHERE x.a = 1", "DELETE FROM t x USING u WHERE x.a = u.a RETURNING *",
    "TRUNCATE t", "TRUNCATE TABLE t, s.u",
    "SUBSCRIBE t", "SUBSCRIBE TO s.mv",
    "SUBSCRIBE (SELECT a FROM t WHERE b) ENVELOPE UPSERT (KEY (a, b)) WITH (SNAPSHOT = false, PROGRESS) "
    "AS OF AT LEAST 5 UP TO 10",
    "SUBSCRIBE t WITH (SNAPSHOT) AS OF 3",
    "COPY t FROM STDIN", "COPY t (a, b) FROM STDIN WITH (FORMAT csv, HEADER, DELIMITER ',', NULL '', QUOTE '\"', ESCAPE '\\')",
    "COPY t FROM STDIN CSV HEADER", "COPY t FROM STDIN WITH CSV", "COPY t FROM STDIN (FORMAT text)",
    "COPY t TO STDOUT", "COPY (SELECT 1) TO STDOUT WITH (FORMAT csv)",
    "COPY (SUBSCRIBE t) TO STDOUT", "COPY (SUBSCRIBE (SELECT 1) WITH (PROGRESS = true)) TO STDOUT",
    "COPY t TO STDOUT DELIMITER AS '|' NULL AS 'n'",
    // cursors and prepared statements
    "DECLARE c CURSOR FOR SELECT 1", "DECLARE c CURSOR WITH HOLD FOR SUBSCRIBE t",
    "DECLARE c CURSOR WITHOUT HOLD FOR SUBSCRIBE (SELECT * FROM t)",
    "FETCH c", "FETCH 100 c", "FETCH ALL FROM c", "FETCH FORWARD 5 IN c", "FETCH NEXT FROM c",
    "FETCH 10 c WITH (timeout = '1s')", "FETCH ALL c WITH (TIMEOUT = '0s')",
    "CLOSE c",
    "PREPARE p AS SELECT $1", "PREPARE p (int, text, double precision) AS INSERT INTO t VALUES ($1, $2, $3)",
    "PREPARE p AS UPDATE t SET a = $1",
    "EXECUTE p", "EXECUTE p (1, 'a', NULL)",
    "DEALLOCATE p", "DEALLOCATE PREPARE p", "DEALLOCATE ALL", "SAVEPOINT s", "RELEASE s", "RELEASE SAVEPOINT s",
    "ROLLBACK TO s", "ROLLBACK TO SAVEPOINT s", "ROLLBACK WORK TO SAVEPOINT s",
    // introspection
    "SHOW OBJECTS", "SHOW TABLES", "SHOW TABLES FROM s", "SHOW VIEWS IN s",
    "SHOW MATERIALIZED VIEWS IN CLUSTER c", "SHOW INDEXES ON t IN CLUSTER c",
    "SHOW INDEXES FROM s LIKE 'i%'", "SHOW SOURCES", "SHOW SINKS", "SHOW CLUSTERS",
    "SHOW CLUSTER REPLICAS WHERE cluster = 'c'", "SHOW SCHEMAS FROM db", "SHOW DATABASES",
    "SHOW SECRETS", "SHOW CONNECTIONS",
    "SHOW COLUMNS FROM t", "SHOW COLUMNS FROM s.t LIKE 'a%'",
    "SHOW CREATE TABLE t", "SHOW CREATE VIEW v", "SHOW CREATE MATERIALIZED VIEW s.mv",
    "SHOW CREATE INDEX i", "SHOW CREATE CLUSTER c",
    "EXPLAIN SELECT 1", "EXPLAIN PLAN FOR SELECT 1", "EXPLAIN RAW PLAN FOR SELECT 1",
    "EXPLAIN DECORRELATED PLAN AS JSON FOR SELECT 1",
    "EXPLAIN LOCALLY OPTIMIZED PLAN FOR SELECT 1",
    "EXPLAIN OPTIMIZED PLAN WITH (arity, join implementations) AS TEXT FOR SELECT * FROM t",
    "EXPLAIN PHYSICAL PLAN FOR CREATE INDEX i ON t (a)",
    "EXPLAIN CREATE MATERIALIZED VIEW mv AS SELECT 1",
    "EXPLAIN PLAN FOR CREATE DEFAULT INDEX ON v",
    "EXPLAIN INDEX i", "EXPLAIN MATERIALIZED VIEW mv", "EXPLAIN WITH (arity) SELECT 1",
    "EXPLAIN TIMESTAMP FOR SELECT * FROM t", "EXPLAIN TIMESTAMP AS JSON FOR SELECT 1",
    "EXPLAIN WITH a AS (SELECT 1) SELECT * FROM a",
    // roles and privileges
    "GRANT SELECT ON t TO u", "GRANT SELECT, INSERT ON TABLE a.t, v TO u, PUBLIC", "REVOKE ALL ON t FROM u",
    "GRANT USAGE ON SCHEMA s TO u", "GRANT CREATE ON CLUSTER c TO u", "GRANT CREATECLUSTER ON SYSTEM TO u",
    "REVOKE CREATE ON DATABASE materialize FROM PUBLIC", "GRANT r TO u, v", "REVOKE r FROM u",
    "CREATE ROLE r", "CREATE ROLE r WITH SUPERUSER LOGIN", "ALTER ROLE r NOLOGIN NOINHERIT",
    "DROP ROLE IF EXISTS r, s", "ALTER TABLE t OWNER TO r", "ALTER CLUSTER c OWNER TO r",
    // unsupported statements that print back as themselves
    "REINDEX t", "VACUUM", "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END",
    "DROP TRIGGER tr", "INSERT OR REPLACE INTO t VALUES (1)", "REPLACE INTO t VALUES (1)",
    "CREATE SOURCE s FROM KAFKA", "LISTEN x",
};

}  // namespace

TEST_CASE("roundtrip: queries", "[parser][roundtrip]") {
  for (const char* sql : kQueries) check_roundtrip(sql);
}

TEST_CASE("roundtrip: expressions", "[parser][roundtrip]") {
  for (const char* sql : kExpressions) check_roundtrip(sql);
}

TEST_CASE("roundtrip: every statement kind", "[parser][roundtrip]") {
  for (const char* sql : kStatements) check_roundtrip(sql);
}

TEST_CASE("roundtrip: equality sees differences and clones are independent", "[parser][roundtrip]") {
  auto a = parse_one("SELECT a + 1 FROM t WHERE b");
  auto b = parse_one("SELECT a + 2 FROM t WHERE b");
  auto c = parse_one("select A+1 from T where B");
  REQUIRE((a.ok() && b.ok() && c.ok()));
  CHECK_FALSE(*a == *b);
  CHECK(*a == *c);  // positions and spelling do not matter
  Statement clone = *a;
  auto* sel = clone.as<SelectStatement>();
  REQUIRE(sel != nullptr);
  auto& select = std::get<Select>(sel->query.body.node);
  select.where = Box<Expr>();
  CHECK_FALSE(clone == *a);
  CHECK(std::get<Select>(a->as<SelectStatement>()->query.body.node).where.has_value());
}

TEST_CASE("roundtrip: a long operator chain prints flat and reparses", "[parser][roundtrip]") {
  std::string sum = "SELECT x";
  for (int i = 0; i < 900; ++i) sum += " + x";
  auto first = tandem::sql::parse_statements(sum);
  REQUIRE(first.ok());
  std::string printed = tandem::sql::print(first->front().statement);
  CHECK(printed.find("((") == std::string::npos);
  auto again = tandem::sql::parse_statements(printed);
  REQUIRE(again.ok());
  CHECK(again->front().statement == first->front().statement);
  std::string deeper = "SELECT x";
  for (int i = 0; i < 5000; ++i) deeper += " + x";
  auto refused = tandem::sql::parse_statements(deeper);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().sqlstate() == "54000");
}
