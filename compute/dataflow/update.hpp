// Update: one change to a collection flowing between operators.
//
// A collection is a multiset of rows that changes over time; an update says
// "at `time`, `diff` more copies of the row". Unkeyed collections leave `key`
// empty and carry the row in `val`. Keyed streams (the input of an
// arrangement, after KeyBy) carry the arrangement key in `key` and the
// arrangement's val in `val`; both are packed Rows (memcmp order = SQL
// order).
// Error collections use the same shape: `val` is an error row
// (compute/dataflow/error_row.hpp).
// Threading: plain values; moved between threads by the exchange.
#pragma once

#include <vector>

#include "common/row.hpp"
#include "common/timestamp.hpp"

namespace tandem::compute {

struct Update {
  Row key;
  Row val;
  Timestamp time = kMinTimestamp;
  Diff diff = 0;
};

// The updates an operator step produces: data beside errors (STYLE #9).
struct Stream {
  std::vector<Update> oks;
  std::vector<Update> errs;
  bool empty() const { return oks.empty() && errs.empty(); }
};

// Sorts by (key, val, time), sums the diffs of equal triples and drops zeros.
void consolidate(std::vector<Update>& updates);

// Concatenation of two packed rows: the datums of `a` followed by those of
// `b` (packed rows are self-delimiting, so bytes concatenate).
inline Row concat_rows(RowRef a, RowRef b) {
  std::string bytes;
  bytes.reserve(a.size() + b.size());
  bytes.append(a.bytes());
  bytes.append(b.bytes());
  return Row(std::move(bytes));
}

// True if any datum of the row is NULL.
bool row_has_null(RowRef row);

}  // namespace tandem::compute
