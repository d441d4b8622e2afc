// libFuzzer target for the binder, decorrelation, the optimizer and
// lowering: arbitrary bytes as SQL statements, planned against a small fixed
// catalog (tables of varied column types, views over them, indexes).
//
// The statements run in order against a copy of that catalog, as a session
// would see them:
//   * CREATE TABLE adds the table (its columns through type_from_name), so
//     the queries after it can read it;
//   * CREATE VIEW and CREATE MATERIALIZED VIEW are planned (plan_view,
//     plan_materialized_view) and the view added for the queries after it;
//   * CREATE INDEX is planned (plan_index);
//   * SELECT and EXPLAIN are planned (plan_read, explain_plan), and a
//     constant result is finished (ORDER BY, LIMIT, OFFSET).
// Planning errors are fine (they must carry a SQLSTATE and a message);
// crashes, UB, hangs and stack overflows are not. Nothing runs a dataflow.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/types.hpp"
#include "planner/explain/explain.hpp"
#include "planner/parser/parser.hpp"
#include "planner/testing/fuzz_check.hpp"
#include "planner/parser/printer.hpp"
#include "planner/read_planner.hpp"
#include "planner/testing/memory_catalog.hpp"

using namespace tandem;
using namespace tandem::planner;

namespace {

template <class T>
void check_result(const Result<T>& r) {
  if (!r.ok()) testing::fuzz_check_error(r.status());
}

ColumnType type_named(const char* name) {
  Result<ColumnType> t = type_from_name(name);
  testing::fuzz_check(t.ok());
  return *t;
}

struct FixedCatalog {
  testing::MemoryCatalog catalog;
  compute::GlobalId next_id = 1;

  void table(const char* name, std::vector<std::pair<const char*, const char*>> columns,
             std::vector<std::vector<size_t>> keys = {}) {
    catalog::RelationDesc desc;
    for (auto [column, type] : columns) desc.columns.push_back({column, type_named(type)});
    desc.keys = std::move(keys);
    catalog.add(CatalogItem{next_id++, ItemKind::kTable, name, desc, ""});
  }
  void view(const char* name, std::vector<std::pair<const char*, const char*>> columns, const char* sql) {
    catalog::RelationDesc desc;
    for (auto [column, type] : columns) desc.columns.push_back({column, type_named(type)});
    catalog.add(CatalogItem{next_id++, ItemKind::kView, name, desc, sql});
  }
  // An index on the table `on` keyed by its columns `key`.
  void index(compute::GlobalId on, const char* name, std::vector<std::pair<size_t, const char*>> key) {
    IndexInfo info{next_id++, std::string("materialize.public.") + name, {}};
    for (auto [column, type] : key) info.key.push_back(ScalarExpr::column(column, type_named(type)));
    catalog.add_index(on, std::move(info));
  }

  // The tables the sqllogic tests use most (t, u, v) plus one of every
  // kind of column; t and w have indexes, v a unique key.
  FixedCatalog() {
    table("t", {{"a", "int4"}, {"b", "int4"}});                  // id 1
    table("u", {{"a", "int4"}, {"c", "text"}});                  // id 2
    table("v", {{"b", "int4"}, {"k", "int8"}}, {{1}});          // id 3
    table("w", {{"i", "int8"},        {"n", "numeric"},  {"f", "float8"},     {"s", "text"},
                {"vc", "varchar"},    {"j", "jsonb"},    {"js", "json"},      {"ia", "int4[]"},
                {"ta", "text[]"},     {"d", "date"},     {"ts", "timestamp"}, {"tz", "timestamptz"},
                {"iv", "interval"},   {"bo", "bool"},    {"by", "bytea"},     {"sm", "int2"},
                {"r", "float4"},      {"tm", "time"},    {"bp", "bpchar"}},
          {{0}});                                                 // id 4
    view("tv", {{"a", "int4"}, {"total", "int8"}}, "SELECT a, sum(b) AS total FROM t GROUP BY a");  // id 5
    view("tu", {{"a", "int4"}, {"b", "int4"}, {"c", "text"}},
         "SELECT t.a, t.b, u.c FROM t LEFT JOIN u ON t.a = u.a");                                   // id 6
    index(1, "t_a_idx", {{0, "int4"}});
    index(4, "w_i_idx", {{0, "int8"}});
    index(4, "w_s_idx", {{3, "text"}});
  }
};

const FixedCatalog& fixed() {
  static const FixedCatalog* catalog = new FixedCatalog();
  return *catalog;
}

// A column type for CREATE TABLE as the adapter spells it (pg_catalog.int4,
// int4[]).
Result<ColumnType> column_type_of(const sql::TypeName& type) {
  std::string name;
  for (const std::string& part : type.name) {
    if (!name.empty()) name += ".";
    name += part;
  }
  if (type.array_dims > 0) name += "[]";
  return type_from_name(name, type.modifiers);
}

class Session {
 public:
  explicit Session(const FixedCatalog& base) : catalog_(base.catalog), next_id_(1000) {
    ctx_.allocate_id = [this] { return next_id_++; };
    ctx_.as_of = 5;
    ctx_.mz_now = 5;
    ctx_.statement_time = 0;
    ctx_.session = &session_values_;
  }

  void run(const sql::Statement& statement) {
    if (const auto* s = statement.as<sql::SelectStatement>()) {
      read(s->query);
    } else if (const auto* e = statement.as<sql::Explain>()) {
      ExplainRequest request;
      request.statement = e;
      request.cluster = "quickstart";
      request.schema_prefix = "materialize.public";
      check_result(explain_plan(request, catalog_, ctx_));
    } else if (const auto* c = statement.as<sql::CreateTable>()) {
      create_table(*c);
    } else if (const auto* v = statement.as<sql::CreateView>()) {
      auto desc = plan_view(v->query, v->columns, catalog_);
      check_result(desc);
      if (desc.ok()) add_view(v->name, *desc, sql::print(v->query));
    } else if (const auto* m = statement.as<sql::CreateMaterializedView>()) {
      auto df = plan_materialized_view(m->query, next_id_++, catalog_, ctx_);
      check_result(df);
      auto desc = plan_view(m->query, m->columns, catalog_);
      if (desc.ok()) add_view(m->name, *desc, sql::print(m->query));
    } else if (const auto* i = statement.as<sql::CreateIndex>()) {
      check_result(plan_index(*i, next_id_++, catalog_, ctx_));
    } else if (const auto* d = statement.as<sql::Declare>()) {
      if (d->statement) run(*d->statement);
    }
  }

 private:
  void read(const sql::Query& query) {
    std::vector<ColumnType> param_types;
    auto plan = plan_read(query, catalog_, param_types, {}, ctx_);
    if (!plan.ok()) {
      testing::fuzz_check_error(plan.status());
      return;
    }
    if (const auto* k = std::get_if<FastPathConstant>(&plan->plan)) {
      check_result(plan->finishing.apply(k->rows));
    }
  }

  void create_table(const sql::CreateTable& create) {
    catalog::RelationDesc desc;
    for (const sql::ColumnDef& column : create.columns) {
      auto type = column_type_of(column.type);
      if (!type.ok()) return;
      desc.columns.push_back({column.name, *type});
    }
    catalog_.add(CatalogItem{next_id_++, ItemKind::kTable, create.name.parts.back(), std::move(desc), ""});
  }

  void add_view(const sql::ObjectName& name, catalog::RelationDesc desc, std::string sql) {
    catalog_.add(CatalogItem{next_id_++, ItemKind::kView, name.parts.back(), std::move(desc), std::move(sql)});
  }

  testing::MemoryCatalog catalog_;
  compute::GlobalId next_id_;
  SessionValues session_values_{"materialize", "materialize", "public"};
  PlanContext ctx_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view sql(reinterpret_cast<const char*>(data), size);
  auto parsed = sql::parse_statements(sql);
  if (!parsed.ok()) return 0;
  Session session(fixed());
  for (const sql::ParsedStatement& ps : *parsed) session.run(ps.statement);
  return 0;
}
