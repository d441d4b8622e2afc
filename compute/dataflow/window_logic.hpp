// WindowLogic: the GroupLogic of a Window node (compute/plan/window.hpp for
// the semantics). The group is one partition: key = the partition key
// columns, val = the input row. The output is each input row (once per
// multiplicity) followed by its window function values; equal output rows
// are consolidated into one row with their count.
//
// The partition is recomputed from scratch: sorted by the window ORDER BY
// (ties by the row's bytes), split into peer groups, then each function is
// evaluated over it. Aggregates over frames that start at the partition's
// first row (the default frame) or end at its last row are computed in one
// pass; other frames recompute the aggregate per distinct frame. An error
// (ntile(0), a sum that overflows) makes the partition's result that one
// error row, as a Reduce does for its group.
// Threading: one thread (scratch state).
#pragma once

#include <memory>
#include <vector>

#include "compute/dataflow/group_logic.hpp"
#include "compute/plan/lir.hpp"
#include "compute/plan/window.hpp"

namespace tandem::compute {

std::unique_ptr<GroupLogic> make_window_logic(std::vector<ColumnOrder> order_by, std::vector<WindowFunc> funcs);

}  // namespace tandem::compute
