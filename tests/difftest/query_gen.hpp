#pragma once
// QueryGen: random SELECT statements over the relations of a round, typed
// so that almost every one is valid in PostgreSQL (the few that are not
// compare by SQLSTATE class).
//
// Coverage: every join kind (inner, left, right, full, cross, comma) with
// ON / USING / NATURAL; GROUP BY with and without aggregates, HAVING,
// count/sum/avg/min/max and count(DISTINCT); window functions; DISTINCT; UNION / INTERSECT /
// EXCEPT with and without ALL; scalar, IN, NOT IN and EXISTS subqueries,
// correlated or not; CTEs; derived tables; parenthesised queries with ORDER
// BY / LIMIT / OFFSET; CASE, COALESCE, NULLIF, casts and arithmetic across
// int, bigint, numeric and double; comparisons, BETWEEN, LIKE, IS [NOT] NULL.
// Each construct can be switched off through Features.
//
// A query is a SqlNode tree whose nodes carry simpler replacements, for the
// minimiser. Results are deterministic: LIMIT and OFFSET only ever follow an
// ORDER BY over every output column.

#include <string>
#include <vector>

#include "tests/difftest/features.hpp"
#include "tests/difftest/rng.hpp"
#include "tests/difftest/schema.hpp"
#include "tests/difftest/sql_node.hpp"

namespace tandem::difftest {

// A table, view or CTE a query may read.
struct Relation {
  std::string name;
  std::vector<Column> columns;
};

struct Query {
  NodePtr node;
  std::vector<Column> columns;  // output names and (approximate) types
  bool total_order = false;     // ends in ORDER BY over every output column
};

// A column in scope: how to reference it (empty: ambiguous, do not), its
// name (for USING / NATURAL) and type.
struct ColRef {
  std::string ref;
  std::string name;
  Type type;
};

// What an expression may reference where it is generated.
struct Ctx {
  std::vector<ColRef> cols;   // the FROM clause's columns
  std::vector<ColRef> outer;  // enclosing queries' columns (correlation)
  bool grouped = false;       // only `keys` and aggregates over `cols`
  std::vector<ColRef> keys;
  int qdepth = 0;             // how many more levels of subquery may nest
  bool windows = false;       // window calls allowed (an ungrouped select list)
};

class QueryGen {
 public:
  QueryGen(Rng& rng, std::vector<Relation> relations, const Features& features)
      : rng_(rng), relations_(std::move(relations)), f_(features) {}

  // An ad-hoc query: may end in ORDER BY (then compared as a sequence).
  Query top_query();
  // The body of a view or materialized view: no ORDER BY unless with LIMIT,
  // unique output column names, no SELECT *.
  Query view_query();

 private:
  struct FromOut {
    NodePtr node;
    std::vector<ColRef> cols;
  };
  struct CoreSpec {
    const std::vector<Type>* want = nullptr;  // output types, or free
    bool scalar = false;                      // one row: a global aggregate
    bool star_ok = false;
    bool items_removable = true;
  };

  // query_gen.cpp: statements, FROM and select lists.
  Query query(const Ctx& outer, const std::vector<Type>* want, bool star_ok);
  Query branch(const Ctx& outer, const std::vector<Type>* want, bool paren_ok = true);
  Query select_core(const Ctx& outer, const CoreSpec& spec);
  Query parenthesised(Query q);
  Query distinct_on(Query q);
  NodePtr order_all(const std::vector<Column>& cols);
  FromOut from_item(const Ctx& outer);
  FromOut join_tree(const Ctx& outer, int items);
  FromOut from_clause(const Ctx& outer);
  std::vector<Type> random_types(const std::vector<ColRef>& scope, int n);
  std::string alias() { return "x" + std::to_string(++aliases_); }

  // query_gen_expr.cpp: scalar expressions and predicates.
  NodePtr expr(Type t, const Ctx& c, int depth);
  NodePtr number_expr(Type t, const Ctx& c, int depth);
  NodePtr leaf(Type t, const Ctx& c);
  NodePtr aggregate(Type t, const Ctx& c, bool simplifiable = true);
  // query_gen_window.cpp: a window function call of type t over c.cols.
  NodePtr window_call(Type t, const Ctx& c);
  NodePtr predicate(const Ctx& c, int depth);
  NodePtr comparison(const Ctx& c, int depth);
  NodePtr subquery_predicate(const Ctx& c);
  NodePtr scalar_subquery(Type t, const Ctx& c);
  NodePtr literal(Type t, bool allow_null = true);
  Type random_type(const std::vector<ColRef>& scope);
  std::vector<Type> number_types() const;  // the enabled ones
  Ctx inner_outer(const Ctx& c);  // the outer scope a subquery of c sees

  Rng& rng_;
  std::vector<Relation> relations_;
  const Features& f_;
  int aliases_ = 0;
  // Position-dependent window calls (row_number, lag, ROWS frames, ...) in
  // the select list being generated: at most one, since identical rows may
  // take their positions in a different order in each window.
  int positional_windows_ = 0;
  int ctes_ = 0;
};

}  // namespace tandem::difftest
