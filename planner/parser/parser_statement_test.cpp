// Statement parsing: multi-statement splitting, statement shapes, and
// Unsupported for recognised-but-unsupported statements.

#include <catch2/catch.hpp>

#include "planner/parser/parser.hpp"

using namespace tandem::sql;

namespace {

std::vector<ParsedStatement> parse_ok(std::string_view sql) {
  auto r = parse_statements(sql);
  INFO(sql);
  if (!r.ok()) FAIL(r.status().to_string());
  return std::move(r).value();
}

Statement one(std::string_view sql) {
  auto r = parse_one(sql);
  INFO(sql);
  if (!r.ok()) FAIL(r.status().to_string());
  return std::move(r).value();
}

}  // namespace

TEST_CASE("split: empty inputs give no statements", "[parser][split]") {
  CHECK(parse_ok("").empty());
  CHECK(parse_ok("   \n\t").empty());
  CHECK(parse_ok("-- just a comment").empty());
  CHECK(parse_ok("/* a */ ; ; -- b\n;").empty());
}

TEST_CASE("split: semicolons inside quotes, comments and dollar quotes", "[parser][split]") {
  auto stmts = parse_ok("SELECT 1; SELECT ';' /* ; */ ; -- ;\n SELECT $$a;b$$;SELECT \"x;y\" FROM t");
  REQUIRE(stmts.size() == 4);
  CHECK(stmts[0].sql == "SELECT 1");
  CHECK(stmts[0].offset == 0);
  CHECK(stmts[1].sql == "SELECT ';'");
  CHECK(stmts[1].offset == 10);
  CHECK(stmts[2].sql == "SELECT $$a;b$$");
  CHECK(stmts[3].sql == "SELECT \"x;y\" FROM t");
  // Positions inside the AST are offsets into the whole string.
  CHECK(stmts[1].statement.pos.offset == 10);
}

TEST_CASE("split: trigger bodies keep their semicolons", "[parser][split]") {
  auto stmts = parse_ok(
      "CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE u SET a = 1; DELETE FROM v; END;\n"
      "SELECT 1");
  REQUIRE(stmts.size() == 2);
  REQUIRE(stmts[0].statement.as<Unsupported>() != nullptr);
  CHECK(stmts[0].statement.as<Unsupported>()->what == "CREATE TRIGGER");
  CHECK(stmts[1].statement.as<SelectStatement>() != nullptr);
}

TEST_CASE("statements: unsupported kinds are not syntax errors", "[parser][statement]") {
  struct Case {
    const char* sql;
    const char* what;
  };
  const Case cases[] = {
      {"CREATE TRIGGER t BEFORE INSERT ON x FOR EACH ROW EXECUTE FUNCTION f()", "CREATE TRIGGER"},
      {"CREATE TYPE t AS (a int)", "CREATE TYPE"},
      {"CREATE SOURCE s FROM LOAD GENERATOR COUNTER", "CREATE SOURCE"},
      {"CREATE SINK s FROM t INTO KAFKA", "CREATE SINK"},
      {"CREATE CONNECTION c TO KAFKA (BROKER 'x')", "CREATE CONNECTION"},
      {"CREATE SECRET s AS 'x'", "CREATE SECRET"},
      {"CREATE FUNCTION f() RETURNS int AS $$ SELECT 1 $$ LANGUAGE sql", "CREATE FUNCTION"},
      {"CREATE DATABASE d", "CREATE DATABASE"},
      {"CREATE VIRTUAL TABLE t USING fts5(x)", "CREATE VIRTUAL TABLE"},
      {"CREATE TABLE t AS SELECT 1", "CREATE TABLE AS"},
      {"ALTER TABLE t ADD COLUMN c int", "ALTER TABLE ADD COLUMN"},
      {"ALTER TABLE t ADD c int", "ALTER TABLE ADD COLUMN"},
      {"ALTER TABLE t ADD CONSTRAINT c CHECK (a > 0)", "ALTER TABLE ADD CHECK constraints"},
      {"ALTER TABLE t ADD FOREIGN KEY (a) REFERENCES u (b)", "ALTER TABLE ADD FOREIGN KEY constraints"},
      {"ALTER SOURCE s RENAME TO t", "ALTER SOURCE"},
      {"REINDEX t1", "REINDEX"},
      {"LISTEN ch", "LISTEN"},
      {"NOTIFY ch", "NOTIFY"},
      {"INSERT OR REPLACE INTO t VALUES (1)", "INSERT OR REPLACE"},
      {"INSERT OR IGNORE INTO t VALUES (1)", "INSERT OR IGNORE"},
      {"REPLACE INTO t VALUES (1)", "REPLACE INTO"},
      {"DROP TRIGGER t1", "DROP TRIGGER"},
      {"DROP SOURCE s", "DROP SOURCE"},
      {"INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING", "INSERT ... ON CONFLICT"},
      {"UPDATE t SET a = 1 FROM u", "UPDATE ... FROM"},
      {"CREATE TABLE t (a int CHECK (a > 0))", "CHECK column option"},
      {"CREATE TABLE t (a int, FOREIGN KEY (a) REFERENCES u (b))", "FOREIGN constraints"},
      {"CREATE TABLE t (a int REFERENCES u)", "REFERENCES column option"},
      {"COPY t FROM '/tmp/x'", "COPY FROM a file or program"},
      {"EXPLAIN ANALYZE SELECT 1", "EXPLAIN ANALYZE"},
      {"SET ROLE r", "SET ROLE"},
  };
  for (const Case& c : cases) {
    INFO(c.sql);
    Statement s = one(c.sql);
    const Unsupported* u = s.as<Unsupported>();
    REQUIRE(u != nullptr);
    CHECK(u->what == c.what);
  }
}

TEST_CASE("statements: SQLite corpus forms", "[parser][statement]") {
  // CREATE UNIQUE INDEX with ASC/DESC keys parses as an index.
  Statement s = one("CREATE UNIQUE INDEX t1i1 ON t1(a1 DESC, b1 ASC)");
  const CreateIndex* idx = s.as<CreateIndex>();
  REQUIRE(idx != nullptr);
  CHECK(idx->unique);
  CHECK(idx->name == "t1i1");
  CHECK(idx->key_parts.size() == 2);
  Statement t = one("CREATE TABLE t1(a1 INTEGER, b1 INTEGER, x1 VARCHAR(40))");
  const CreateTable* ct = t.as<CreateTable>();
  REQUIRE(ct != nullptr);
  CHECK(ct->columns.size() == 3);
  CHECK(ct->columns[2].type.modifiers == std::vector<int32_t>{40});
  CHECK(one("DROP INDEX IF EXISTS t1i1").as<DropObjects>() != nullptr);
}

TEST_CASE("statements: shapes", "[parser][statement]") {
  Statement c = one("CREATE TABLE s.t (a int NOT NULL DEFAULT 5, b text PRIMARY KEY, UNIQUE (a))");
  const CreateTable* ct = c.as<CreateTable>();
  REQUIRE(ct != nullptr);
  CHECK(ct->name.parts == std::vector<std::string>{"s", "t"});
  CHECK(ct->columns[0].not_null);
  CHECK(ct->columns[0].default_value.has_value());
  CHECK(ct->columns[1].primary_key);
  CHECK(ct->columns[1].not_null);
  REQUIRE(ct->constraints.size() == 1);
  CHECK_FALSE(ct->constraints[0].primary_key);

  Statement mv = one("CREATE MATERIALIZED VIEW mv IN CLUSTER c AS SELECT 1");
  CHECK(mv.as<CreateMaterializedView>()->in_cluster == "c");

  Statement di = one("CREATE DEFAULT INDEX ON v");
  CHECK(di.as<CreateIndex>()->default_index);
  CHECK(di.as<CreateIndex>()->name.empty());

  Statement cl = one("CREATE CLUSTER c (SIZE = '1', REPLICATION FACTOR = 2)");
  const CreateCluster* cc = cl.as<CreateCluster>();
  REQUIRE(cc->options.size() == 2);
  CHECK(cc->options[0].name == "size");
  CHECK(cc->options[0].value.kind == OptionValue::Kind::kString);
  CHECK(cc->options[1].name == "replication factor");
  CHECK(cc->options[1].value.text == "2");

  Statement set = one("SET search_path TO a, 'b'");
  const SetVariable* sv = set.as<SetVariable>();
  REQUIRE(sv->values.size() == 2);
  CHECK(sv->values[0].kind == OptionValue::Kind::kIdent);
  CHECK(sv->values[1].kind == OptionValue::Kind::kString);

  Statement tz = one("SET TIME ZONE 'UTC'");
  CHECK(tz.as<SetVariable>()->name == "timezone");

  Statement b = one("BEGIN ISOLATION LEVEL STRICT SERIALIZABLE READ ONLY");
  CHECK(b.as<StartTransaction>()->modes.isolation_level == "strict serializable");
  CHECK(b.as<StartTransaction>()->modes.access == TransactionModes::Access::kReadOnly);

  Statement sub = one("SUBSCRIBE (SELECT 1) WITH (SNAPSHOT = false) AS OF 5 UP TO 9");
  const Subscribe* sb = sub.as<Subscribe>();
  CHECK(sb->query.has_value());
  CHECK(sb->options[0].name == "snapshot");
  CHECK(sb->options[0].value.text == "false");
  CHECK(sb->as_of.has_value());
  CHECK(sb->up_to.has_value());

  Statement cp = one("COPY (SUBSCRIBE t) TO STDOUT WITH CSV HEADER");
  const Copy* co = cp.as<Copy>();
  CHECK(co->subscribe.has_value());
  CHECK(co->direction == Copy::Direction::kTo);
  REQUIRE(co->options.size() == 2);
  CHECK(co->options[0].name == "format");
  CHECK(co->options[0].value.text == "csv");
  CHECK(co->options[1].name == "header");

  Statement d = one("DECLARE c CURSOR FOR SUBSCRIBE t");
  REQUIRE(d.as<Declare>()->statement.has_value());
  CHECK(d.as<Declare>()->statement->as<Subscribe>() != nullptr);

  Statement f = one("FETCH 100 c WITH (timeout = '1s')");
  CHECK(*f.as<Fetch>()->count == 100);
  CHECK(f.as<Fetch>()->cursor == "c");

  Statement p = one("PREPARE p (int) AS SELECT $1");
  CHECK(p.as<Prepare>()->param_types.size() == 1);
  CHECK(p.as<Prepare>()->statement->as<SelectStatement>() != nullptr);

  Statement e = one("EXPLAIN OPTIMIZED PLAN AS JSON FOR SELECT 1");
  CHECK(e.as<Explain>()->stage == Explain::Stage::kOptimized);
  CHECK(e.as<Explain>()->format == Explain::Format::kJson);
  CHECK(std::holds_alternative<Query>(e.as<Explain>()->explainee));

  Statement so = one("SHOW INDEXES ON t IN CLUSTER c");
  CHECK(so.as<ShowObjects>()->kind == ShowObjects::Kind::kIndexes);
  CHECK(so.as<ShowObjects>()->in_cluster == "c");
  CHECK(so.as<ShowObjects>()->on.has_value());

  // SHOW of a variable whose name starts like an object list.
  CHECK(one("SHOW cluster").as<ShowVariable>()->name == "cluster");

  Statement q = one("SELECT 1 UNION SELECT 2 INTERSECT SELECT 3");
  const SetOperation* u = std::get_if<SetOperation>(&q.as<SelectStatement>()->query.body.node);
  REQUIRE(u != nullptr);
  CHECK(u->op == SetOperation::Op::kUnion);
  CHECK(std::get_if<SetOperation>(&u->right->node)->op == SetOperation::Op::kIntersect);

  Statement asof = one("SELECT * FROM t AS OF AT LEAST 5");
  const Query& aq = asof.as<SelectStatement>()->query;
  REQUIRE(aq.as_of.has_value());
  CHECK(aq.as_of->at_least);
  // `t AS OF` is not an alias.
  CHECK_FALSE(std::get<TableName>(std::get<Select>(aq.body.node).from[0].node).alias.has_value());
}
