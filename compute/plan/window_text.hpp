// The EXPLAIN text of a Window node: partition columns, order and the
// functions with their arguments and (non-default) frames, e.g.
//   partition_by=[#0] order_by=[#1 asc] funcs=[rank(), sum(#1) rows 1 preceding..current row]
// Threading: pure function.
#pragma once

#include <string>
#include <vector>

#include "compute/plan/lir.hpp"

namespace tandem::compute {

std::string window_text(const std::vector<std::size_t>& partition_by, const std::vector<ColumnOrder>& order_by,
                        const std::vector<WindowFunc>& funcs);

}  // namespace tandem::compute
