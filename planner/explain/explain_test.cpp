// EXPLAIN: the text and JSON renderings of a plan tree, and each stage of a
// query, an index and a materialized view planned over an in-memory catalog.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "planner/explain/explain.hpp"
#include "planner/explain/explain_tree.hpp"
#include "planner/parser/parser.hpp"
#include "planner/testing/memory_catalog.hpp"

namespace tandem::planner {
namespace {

ColumnType int4() { return ColumnType{TypeId::kInt4, -1, true}; }

struct Fixture {
  testing::MemoryCatalog catalog;
  Fixture() {
    catalog.add(CatalogItem{1, ItemKind::kTable, "t",
                            catalog::RelationDesc{{{"a", int4()}, {"b", int4()}}, {}}, ""});
    catalog.add(CatalogItem{2, ItemKind::kTable, "u",
                            catalog::RelationDesc{{{"a", int4()}, {"c", int4()}}, {}}, ""});
    catalog.add_index(1, IndexInfo{10, "materialize.public.t_a", {ScalarExpr::column(0, int4())}});
  }
  Result<std::string> explain(const std::string& sql) {
    auto stmt = sql::parse_one(sql);
    REQUIRE(stmt.ok());
    const auto* e = stmt->as<sql::Explain>();
    REQUIRE(e != nullptr);
    ExplainRequest request;
    request.statement = e;
    request.cluster = "quickstart";
    request.schema_prefix = "materialize.public";
    PlanContext ctx;
    compute::GlobalId next = 100;
    ctx.allocate_id = [&next] { return next++; };
    return explain_plan(request, catalog, ctx);
  }
  std::string text(const std::string& sql) {
    auto r = explain(sql);
    INFO(sql);
    REQUIRE(r.ok());
    return *r;
  }
};

TEST_CASE("an explanation renders as indented text and as JSON", "[planner][explain]") {
  ExplainNode read{"Read", "materialize.public.u", true, {}, {}};
  ExplainNode mfp{"Map/Filter/Project", "", true, {"Filter: (#1 = 1)"}, {read}};
  Explanation e;
  e.plans.push_back({"Explained Query:", mfp});
  e.sources = {"materialize.public.u"};
  e.used_indexes = {{"materialize.public.u_a", "*** full scan ***"}};
  e.target_cluster = "quickstart";
  CHECK(explain_text(e) ==
        "Explained Query:\n"
        "  →Map/Filter/Project\n"
        "    Filter: (#1 = 1)\n"
        "    →Read materialize.public.u\n"
        "Source materialize.public.u\n"
        "Used Indexes:\n"
        "  - materialize.public.u_a (*** full scan ***)\n"
        "Target cluster: quickstart\n");
  auto j = nlohmann::json::parse(explain_json(e));
  CHECK(j["plans"][0]["heading"] == "Explained Query:");
  CHECK(j["plans"][0]["plan"]["op"] == "Map/Filter/Project");
  CHECK(j["plans"][0]["plan"]["details"][0] == "Filter: (#1 = 1)");
  CHECK(j["plans"][0]["plan"]["inputs"][0]["args"] == "materialize.public.u");
  CHECK(j["used_indexes"][0]["usage"] == "*** full scan ***");
  CHECK(j["target_cluster"] == "quickstart");
}

TEST_CASE("a block node prints With and Return at one level", "[planner][explain]") {
  ExplainNode cte{"cte", "l0 =", false, {}, {ExplainNode{"Get", "t", false, {}, {}}}};
  ExplainNode with{"With", "", false, {}, {cte}};
  ExplainNode ret{"Return", "", false, {}, {ExplainNode{"Get", "l0", false, {}, {}}}};
  Explanation e;
  e.plans.push_back({"", ExplainNode{"", "", false, {}, {with, ret}}});
  e.target_cluster = "c";
  CHECK(explain_text(e) == "With\n  cte l0 =\n    Get t\nReturn\n  Get l0\nTarget cluster: c\n");
}

TEST_CASE("each stage of a query", "[planner][explain]") {
  Fixture f;
  const std::string q = "SELECT t.b FROM t, u WHERE t.a = u.a AND u.c > 1";
  std::string raw = f.text("EXPLAIN RAW PLAN FOR " + q);
  CHECK(raw.find("CrossJoin\n") != std::string::npos);
  CHECK(raw.find("Get u") != std::string::npos);
  CHECK(raw.find("Explained Query") == std::string::npos);
  std::string decorrelated = f.text("EXPLAIN DECORRELATED PLAN FOR " + q);
  CHECK(decorrelated.find("Get t") != std::string::npos);
  CHECK(decorrelated.find("ReadIndex") == std::string::npos);
  std::string optimized = f.text("EXPLAIN OPTIMIZED PLAN FOR " + q);
  CHECK(optimized.starts_with("Explained Query:\n"));
  CHECK(optimized.find("Join on=(") != std::string::npos);
  CHECK(optimized.find("ReadIndex on=t t_a=[*** full scan ***]") != std::string::npos);
  CHECK(optimized.find("ReadStorage u") != std::string::npos);
  CHECK(optimized.find("Source u\nUsed Indexes:\n  - materialize.public.t_a (*** full scan ***)\n") !=
        std::string::npos);
  CHECK(optimized.ends_with("Target cluster: quickstart\nTarget runtime: maintenance\n"));
  std::string physical = f.text("EXPLAIN PHYSICAL PLAN FOR " + q);
  CHECK(physical.find("→Differential Join") != std::string::npos);
  CHECK(physical.find("→Indexed t (using materialize.public.t_a)") != std::string::npos);
  CHECK(physical.find("→Read u") != std::string::npos);
  CHECK(f.text("EXPLAIN " + q) == optimized);
}

TEST_CASE("the fast path names its index and lookup values", "[planner][explain]") {
  Fixture f;
  CHECK(f.text("EXPLAIN SELECT b FROM t WHERE a IN (3, 4)") ==
        "Explained Query (fast path):\n"
        "  →Map/Filter/Project\n"
        "    Project: #1\n"
        "    →Index Lookup on t (using materialize.public.t_a)\n"
        "      Lookup values: (3), (4)\n"
        "Used Indexes:\n"
        "  - materialize.public.t_a (lookup)\n"
        "Target cluster: quickstart\n"
        "Target runtime: maintenance\n");
  CHECK(f.text("EXPLAIN PHYSICAL PLAN FOR SELECT * FROM t").find("(*** full scan ***)") != std::string::npos);
  CHECK(f.text("EXPLAIN SELECT 1") == "Explained Query (fast path):\n  →Constant (1 rows)\nTarget cluster: quickstart\n");
}

TEST_CASE("CREATE INDEX and CREATE MATERIALIZED VIEW explain their dataflows", "[planner][explain]") {
  Fixture f;
  std::string index = f.text("EXPLAIN PHYSICAL PLAN FOR CREATE INDEX IN CLUSTER other ON u (c)");
  CHECK(index.starts_with("u_c_idx:\n  →Arrange (#1)\n    →Read u\n"));
  CHECK(index.ends_with("Target cluster: other\n"));
  CHECK(f.text("EXPLAIN OPTIMIZED PLAN FOR CREATE DEFAULT INDEX ON t").starts_with("t_primary_idx:\n"
                                                                                   "  ArrangeBy keys=[[#0, #1]]\n"));
  std::string mv = f.text("EXPLAIN PHYSICAL PLAN FOR CREATE MATERIALIZED VIEW s.mv AS SELECT a, count(*) FROM u GROUP BY a");
  CHECK(mv.starts_with("materialize.s.mv:\n  →Reduce\n"));
  auto j = nlohmann::json::parse(*f.explain("EXPLAIN PLAN AS JSON FOR CREATE MATERIALIZED VIEW mv AS SELECT 1"));
  CHECK(j["plans"][0]["heading"] == "materialize.public.mv:");
}

TEST_CASE("unsupported EXPLAIN forms are 0A000", "[planner][explain]") {
  Fixture f;
  auto modifiers = f.explain("EXPLAIN PLAN WITH (arity) FOR SELECT 1");
  REQUIRE(!modifiers.ok());
  CHECK(modifiers.status().sqlstate() == "0A000");
  auto stmt = sql::parse_one("EXPLAIN TIMESTAMP FOR SELECT 1");
  REQUIRE(stmt.ok());
  CHECK(explain_column_name(*stmt->as<sql::Explain>()).status().sqlstate() == "0A000");
  CHECK(*explain_column_name(*sql::parse_one("EXPLAIN RAW PLAN FOR SELECT 1")->as<sql::Explain>()) == "Raw Plan");
}

}  // namespace
}  // namespace tandem::planner
