// Window functions of a LIR/MIR Window node, as plain data, with
// PostgreSQL's semantics (the planner checks what it accepts; compute
// computes exactly this).
//
// A Window node's output row is its input row followed by one column per
// function. Rows are partitioned by `partition_by` columns and, within a
// partition, sorted by `order_by`; rows equal on every order_by column are
// *peers*. Ties between peers are broken by the whole input row (bytes), so
// row_number, lag/lead and ROWS frames are deterministic (PostgreSQL leaves
// that order unspecified). A row present n times is n rows.
//
//   row_number()          int8, 1-based position
//   rank()                int8, position of the first peer
//   dense_rank()          int8, number of distinct peer groups up to here
//   percent_rank()        float8, (rank - 1) / (rows - 1), 0 for one row
//   cume_dist()           float8, (position of the last peer) / rows
//   ntile(n)              int4, bucket 1..n (PostgreSQL's distribution:
//                         the first rows % n buckets get one more); n from
//                         the partition's first row, NULL -> NULL, n <= 0 is
//                         the error 22014
//   lag/lead(v, off, def) v at position -/+ off (off NULL -> NULL; off may
//                         be negative), def where that is outside the
//                         partition; off and def evaluated on the current row
//   first_value(v), last_value(v), nth_value(v, n): v of the frame's first,
//                         last, n-th row (NULL when there is none); n from
//                         the current row, n <= 0 is the error 22016
//   aggregates            AggregateFunc over the non-NULL values of the frame
//                         (count(*) counts the frame's rows); the frame's
//                         rows in frame order
// Ranking functions, ntile and lag/lead ignore the frame.
//
// Frames. ROWS counts rows; RANGE and GROUPS count peer groups, with CURRENT
// ROW meaning the first (start) or last (end) peer. Offsets are constants
// >= 0, GROUPS and ROWS only (RANGE with an offset is refused by the
// planner). The default frame is RANGE UNBOUNDED PRECEDING .. CURRENT ROW:
// with no ORDER BY every row is a peer, so it is the whole partition.
// Threading: plain values.
#pragma once

#include <cstdint>
#include <vector>

#include "common/scalar_expr.hpp"
#include "compute/plan/aggregate.hpp"

namespace tandem::compute {

enum class WindowFuncKind : std::uint8_t {
  kRowNumber,
  kRank,
  kDenseRank,
  kPercentRank,
  kCumeDist,
  kNtile,
  kLag,
  kLead,
  kFirstValue,
  kLastValue,
  kNthValue,
  kAggregate,
};

struct WindowFrameBound {
  enum class Kind : std::uint8_t { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };
  Kind kind = Kind::kCurrentRow;
  std::int64_t offset = 0;  // kPreceding / kFollowing
  bool operator==(const WindowFrameBound&) const = default;
};

struct WindowFrame {
  enum class Units : std::uint8_t { kRows, kRange, kGroups };
  Units units = Units::kRange;
  WindowFrameBound start{WindowFrameBound::Kind::kUnboundedPreceding, 0};
  WindowFrameBound end{WindowFrameBound::Kind::kCurrentRow, 0};
  bool operator==(const WindowFrame&) const = default;
};

struct WindowFunc {
  WindowFuncKind kind = WindowFuncKind::kRowNumber;
  // Input columns of the arguments, in SQL order: ntile(n); lag/lead(v
  // [, offset [, default]]); first/last_value(v); nth_value(v, n);
  // aggregates: their one argument (none for count(*)).
  std::vector<std::size_t> args;
  AggregateFunc aggregate = AggregateFunc::kCountAll;  // kAggregate only
  WindowFrame frame;
  ColumnType type;  // the output column's type
  bool operator==(const WindowFunc&) const = default;
};

std::string_view window_func_name(const WindowFunc& f);

}  // namespace tandem::compute
