// LIR: the physical plan compute renders into a dataflow, as plain data
// (STYLE #4). The planner builds it; compute never includes the planner.
//
// A PlanNode is a variant of the operators below. Every collection a node
// produces has rows of a fixed arity (the planner tracks types; compute needs
// none beyond what expressions carry) and, beside it, an error collection:
// errors raised by a node's expressions, plus every error of its inputs.
//
// Row layouts:
//   Get, Constant, Mfp, Distinct, Threshold, TopK, Union, Negate: as input
//     (Mfp: its projection).
//   ArrangeBy: the input row unchanged (the arrangement is keyed by `key`).
//   Join: the lhs row followed by the rhs row. Keys are compared for SQL
//     equality: a key with a NULL column joins nothing.
//   Reduce: the group key values followed by one column per aggregate.
//     A group with no rows produces no row (a global aggregate over an empty
//     input is the planner's business, as in Materialize).
//   FlatMap: the input row followed by the table function's columns.
//   Window: the input row followed by one column per window function.
// Threading: plain values; immutable once built.
#pragma once

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "common/box.hpp"
#include "common/row.hpp"
#include "common/scalar_expr.hpp"
#include "common/status.hpp"
#include "common/timestamp.hpp"
#include "compute/plan/aggregate.hpp"
#include "compute/plan/global_id.hpp"
#include "compute/plan/map_filter_project.hpp"
#include "compute/plan/table_func.hpp"
#include "compute/plan/window.hpp"

namespace tandem::compute {

struct PlanNode;
using PlanBox = Box<PlanNode>;

// Reads a collection by id: a source import, an index import (its rows, not
// its key), or an object built earlier in the same dataflow.
struct Get {
  enum class Kind : std::uint8_t { kSource, kIndex, kObject };
  GlobalId id = 0;
  Kind kind = Kind::kSource;
  bool operator==(const Get&) const = default;
};

// Fixed rows, valid from the dataflow's as_of on; or a single error.
struct Constant {
  struct Entry {
    Row row;
    Diff diff = 1;
    bool operator==(const Entry&) const = default;
  };
  std::vector<Entry> rows;
  std::optional<Status> error;
  bool operator==(const Constant& o) const { return rows == o.rows && error.has_value() == o.error.has_value(); }
};

struct Mfp {
  PlanBox input;
  MapFilterProject mfp;
  bool operator==(const Mfp&) const = default;
};

struct ArrangeBy {
  PlanBox input;
  std::vector<ScalarExpr> key;
  bool operator==(const ArrangeBy&) const = default;
};

// Binary equi-join; an n-way linear join is a left-deep chain of these.
// Inputs are arranged by their key expressions (exchanged by key hash).
struct Join {
  PlanBox lhs;
  PlanBox rhs;
  std::vector<ScalarExpr> lhs_key;
  std::vector<ScalarExpr> rhs_key;
  bool operator==(const Join&) const = default;
};

struct Reduce {
  PlanBox input;
  std::vector<ScalarExpr> group_key;
  std::vector<AggregateExpr> aggregates;
  bool operator==(const Reduce&) const = default;
};

// Each distinct row once (positive multiplicity only).
struct Distinct {
  PlanBox input;
  bool operator==(const Distinct&) const = default;
};

// Each row with multiplicity max(count, 0): EXCEPT ALL / INTERSECT ALL.
struct Threshold {
  PlanBox input;
  bool operator==(const Threshold&) const = default;
};

struct ColumnOrder {
  std::size_t column = 0;
  bool desc = false;
  bool nulls_last = true;  // PostgreSQL: ASC NULLS LAST, DESC NULLS FIRST
  bool operator==(const ColumnOrder&) const = default;
};

// Per group of `group_key` columns, the rows at positions [offset,
// offset + limit) in `order` (ties broken by the whole row, so the answer is
// deterministic). No limit keeps everything past offset.
struct TopK {
  PlanBox input;
  std::vector<std::size_t> group_key;
  std::vector<ColumnOrder> order;
  std::optional<std::int64_t> limit;
  std::int64_t offset = 0;
  bool operator==(const TopK&) const = default;
};

// Window functions (window.hpp) per partition of `partition_by` columns,
// rows ordered by `order_by`; one row out per input row.
struct Window {
  PlanBox input;
  std::vector<std::size_t> partition_by;
  std::vector<ColumnOrder> order_by;
  std::vector<WindowFunc> funcs;
  bool operator==(const Window&) const = default;
};

struct Union {
  std::vector<PlanNode> inputs;
  bool operator==(const Union&) const;
};

struct Negate {
  PlanBox input;
  bool operator==(const Negate&) const = default;
};

struct FlatMap {
  PlanBox input;
  TableFunc func = TableFunc::kGenerateSeriesInt4;
  std::vector<ScalarExpr> args;
  bool operator==(const FlatMap&) const = default;
};

struct PlanNode {
  using Node = std::variant<Get, Constant, Mfp, ArrangeBy, Join, Reduce, Distinct, Threshold, TopK,
                            Union, Negate, FlatMap, Window>;
  Node node;
  bool operator==(const PlanNode& o) const { return node == o.node; }
};

inline bool Union::operator==(const Union& o) const { return inputs == o.inputs; }

}  // namespace tandem::compute
