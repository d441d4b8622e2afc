// The optimizer's plan shapes: after join_fusion + predicate_pushdown +
// join_planning, a multi-way comma join is ONE n-ary Join whose single-input
// filters sit on its inputs, whose cross-input equalities are equivalences,
// and whose order joins connected inputs before any cross product.
// (Results are checked end to end in planner/read_planner_join_test.cpp.)
#include <catch2/catch.hpp>

#include "planner/binder/query_binder.hpp"
#include "planner/lowering/decorrelate.hpp"
#include "planner/optimizer/optimizer.hpp"
#include "planner/parser/parser.hpp"
#include "planner/testing/memory_catalog.hpp"

namespace tandem::planner {
namespace {

struct Planner {
  testing::MemoryCatalog catalog;
  Planner() {
    // t1..t9 (aN, bN, cN, dN, eN int), as in sqllogictest's select4.
    for (char n = '1'; n <= '9'; ++n) {
      std::vector<catalog::Column> cols;
      for (char c : {'a', 'b', 'c', 'd', 'e'}) cols.push_back({std::string{c, n}, ColumnType{TypeId::kInt4, -1, true}});
      catalog.add(CatalogItem{static_cast<compute::GlobalId>(n - '0'), ItemKind::kTable, std::string{'t', n},
                              catalog::RelationDesc{std::move(cols), {}}, ""});
    }
  }
  mir::Rel optimized(const std::string& sql, const OptimizerOptions& opts = {}) {
    auto q = sql::parse_query(sql);
    REQUIRE(q.ok());
    std::vector<ColumnType> params;
    QueryBinder binder(catalog, &params);
    Scope none;
    auto bound = binder.bind_query(*q, none);
    REQUIRE(bound.ok());
    auto m = decorrelate(bound->rel);
    REQUIRE(m.ok());
    auto o = optimize(std::move(*m), opts);
    REQUIRE(o.ok());
    return std::move(*o);
  }
};

void collect_joins(const mir::Rel& rel, std::vector<const mir::Join*>* out) {
  if (auto* j = std::get_if<mir::Join>(&rel.node)) out->push_back(j);
  mir::for_each_child(rel, [&](const mir::Rel& c) { collect_joins(c, out); });
}

// Every Filter's predicates, wherever it is.
size_t filters_not_on_gets(const mir::Rel& rel) {
  size_t n = 0;
  if (auto* f = std::get_if<mir::Filter>(&rel.node)) n += !std::holds_alternative<mir::Get>(f->input->node);
  mir::for_each_child(rel, [&](const mir::Rel& c) { n += filters_not_on_gets(c); });
  return n;
}

// The input (by first column offsets) that every column of `e` lies in.
std::optional<size_t> input_of(const ScalarExpr& e, const std::vector<size_t>& offsets) {
  std::optional<size_t> in;
  bool mixed = false;
  ScalarExpr probe = e;
  mir::remap_columns(probe, [&](size_t c) {
    size_t i = 0;
    while (i + 1 < offsets.size() && offsets[i + 1] <= c) ++i;
    if (in && *in != i) mixed = true;
    in = i;
    return c;
  });
  return mixed ? std::nullopt : in;
}

// For each position of j.order after the first: whether that input shares an
// equivalence class with an input placed before it.
std::vector<bool> connected_steps(const mir::Join& j) {
  std::vector<size_t> offsets;
  size_t total = 0;
  for (const auto& i : j.inputs) {
    offsets.push_back(total);
    total += mir::arity(i);
  }
  std::vector<bool> out;
  for (size_t s = 1; s < j.order.size(); ++s) {
    bool found = false;
    for (const auto& cls : j.equivalences) {
      bool here = false, before = false;
      for (const auto& e : cls) {
        auto i = input_of(e, offsets);
        if (!i) continue;
        here = here || *i == j.order[s];
        for (size_t p = 0; p < s; ++p) before = before || *i == j.order[p];
      }
      found = found || (here && before);
    }
    out.push_back(found);
  }
  return out;
}

TEST_CASE("a 5-way comma join becomes one join with filters on its inputs", "[planner][optimizer]") {
  Planner p;
  auto rel = p.optimized(
      "SELECT b2, d4, c1 FROM t1, t2, t3, t4, t5 WHERE a1 = b2 AND c2 = 7 AND a3 = b4 AND b3 = e2 "
      "AND d4 IN (1, 2, 3) AND e5 = a4 AND 488 = d5");
  INFO(mir::explain(rel));
  std::vector<const mir::Join*> joins;
  collect_joins(rel, &joins);
  REQUIRE(joins.size() == 1);
  const mir::Join& j = *joins[0];
  CHECK(j.inputs.size() == 5);
  CHECK(j.equivalences.size() == 4);
  // No predicate is left above the join or anywhere but directly on a Get.
  CHECK(filters_not_on_gets(rel) == 0);
  // Projection pushdown narrows the filtered inputs to the columns used.
  auto filtered_input = [](const mir::Rel& i) {
    const mir::Rel* r = &i;
    if (auto* p = std::get_if<mir::Project>(&r->node)) r = &*p->input;
    return std::holds_alternative<mir::Filter>(r->node);
  };
  size_t filtered = 0;
  for (const auto& i : j.inputs) filtered += filtered_input(i);
  CHECK(filtered == 3);  // t2 (c2 = 7), t4 (d4 IN ...), t5 (488 = d5)
  // The chain is connected: no cross product at any step.
  REQUIRE(j.order.size() == 5);
  CHECK(connected_steps(j) == std::vector<bool>{true, true, true, true});
  // It starts from a filtered input, not from an unfiltered table.
  CHECK(filtered_input(j.inputs[j.order[0]]));
}

TEST_CASE("unavoidable cross products come last", "[planner][optimizer]") {
  Planner p;
  // select4's shape: t6 and t2 share no equality with the others.
  auto rel = p.optimized(
      "SELECT b2, d6, b9*398, c1, e3*353+b9 FROM t1, t9, t6, t3, t2 "
      "WHERE d6 in (885,924,457,578,786,664) AND 488=d2 AND a3=b9 AND c9=688 AND a1=d9");
  INFO(mir::explain(rel));
  std::vector<const mir::Join*> joins;
  collect_joins(rel, &joins);
  REQUIRE(joins.size() == 1);
  const mir::Join& j = *joins[0];
  CHECK(j.inputs.size() == 5);
  CHECK(j.equivalences.size() == 2);
  CHECK(filters_not_on_gets(rel) == 0);
  REQUIRE(j.order.size() == 5);
  CHECK(j.order[0] == 1);  // t9, filtered by c9 = 688
  CHECK(connected_steps(j) == std::vector<bool>{true, true, false, false});
}

TEST_CASE("without join_fusion the passes still push what they can", "[planner][optimizer]") {
  Planner p;
  OptimizerOptions opts;
  opts.disabled.insert("join_fusion");
  auto rel = p.optimized("SELECT * FROM t1, t2, t3 WHERE a1 = a2 AND a2 = a3 AND b3 = 5", opts);
  INFO(mir::explain(rel));
  std::vector<const mir::Join*> joins;
  collect_joins(rel, &joins);
  CHECK(joins.size() == 2);
  for (const auto* j : joins) CHECK(!j->equivalences.empty());
  CHECK(filters_not_on_gets(rel) == 0);
}

TEST_CASE("predicates on the padded side of a LEFT JOIN stay above it", "[planner][optimizer]") {
  Planner p;
  // `b2 IS NULL` must not reach t2's Get: it is true on the padding rows.
  auto rel = p.optimized("SELECT a1 FROM t1 LEFT JOIN t2 ON a1 = a2 WHERE b2 IS NULL");
  std::string text = mir::explain(rel);
  INFO(text);
  std::function<bool(const mir::Rel&)> filter_on_t2 = [&](const mir::Rel& r) {
    if (auto* f = std::get_if<mir::Filter>(&r.node)) {
      if (auto* g = std::get_if<mir::Get>(&f->input->node); g && g->name == "t2") return true;
    }
    bool any = false;
    mir::for_each_child(r, [&](const mir::Rel& c) { any = any || filter_on_t2(c); });
    return any;
  };
  CHECK(!filter_on_t2(rel));
}

TEST_CASE("projection pushdown narrows join inputs to the columns used above", "[planner][optimizer]") {
  Planner p;
  auto rel = p.optimized("SELECT b2, c1 FROM t1, t2 WHERE a1 = b2 AND c2 = 7");
  INFO(mir::explain(rel));
  std::vector<const mir::Join*> joins;
  collect_joins(rel, &joins);
  REQUIRE(joins.size() == 1);
  const mir::Join& j = *joins[0];
  REQUIRE(j.inputs.size() == 2);
  // t1 is a bare Get (it may be an index the join reuses): whole. t2 is
  // filtered: only b2 survives (c2 is used below the projection).
  size_t narrowed = 0;
  for (const auto& i : j.inputs) {
    if (auto* proj = std::get_if<mir::Project>(&i.node)) {
      ++narrowed;
      CHECK(proj->outputs == std::vector<size_t>{1});
    }
  }
  CHECK(narrowed == 1);
  // Switched off, the inputs stay whole.
  OptimizerOptions off;
  off.disabled.insert("projection_pushdown");
  auto whole = p.optimized("SELECT b2, c1 FROM t1, t2 WHERE a1 = b2 AND c2 = 7", off);
  std::vector<const mir::Join*> whole_joins;
  collect_joins(whole, &whole_joins);
  REQUIRE(whole_joins.size() == 1);
  for (const auto& i : whole_joins[0]->inputs) CHECK(!std::holds_alternative<mir::Project>(i.node));
}


}  // namespace
}  // namespace tandem::planner
