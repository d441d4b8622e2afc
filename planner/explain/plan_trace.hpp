#pragma once
// PlanTrace: the intermediate plans of one planning call, kept for EXPLAIN
// (Materialize's optimizer trace). The read planner fills it when
// PlanContext::trace is set: `raw` is the bound HIR (parameters replaced),
// `decorrelated` the MIR before optimization, `optimized` after it.
// Threading: plain values, owned by the caller of the planning call.
#include <optional>

#include "planner/hir/hir.hpp"
#include "planner/mir/mir.hpp"

namespace tandem::planner {

struct PlanTrace {
  std::optional<hir::Rel> raw;
  std::optional<mir::Rel> decorrelated;
  std::optional<mir::Rel> optimized;
};

}  // namespace tandem::planner
