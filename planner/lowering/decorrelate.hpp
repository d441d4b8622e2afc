#pragma once
// Decorrelation: HIR -> MIR, after Materialize's "apply" lowering
// (Neumann & Kemper, "Unnesting Arbitrary Queries").
//
// Every HIR relation is lowered *relative to an outer relation*: the
// distinct rows of the columns it may reference. The lowered relation's row
// is outer ++ own, computed for each outer row. At top level the outer is
// the unit relation and disappears. A subtree that references no outer
// column is lowered once, detached, and cross joined with the outer.
//   Apply      each subquery is lowered relative to the distinct input rows,
//              then left-joined back (on all input columns, NULL-safe), with
//              false (EXISTS) or NULL (scalar) for input rows without match.
//   outer join inner join, plus the rows of the preserved side that matched
//              nothing (an anti-join on the whole row), padded with NULLs.
//   global aggregate  the Reduce, plus a default row (count 0, others NULL)
//              for each outer row without a group.
// Shared sub-plans are MIR Lets.
// Threading: pure function.

#include "common/status.hpp"
#include "planner/hir/hir.hpp"
#include "planner/mir/mir.hpp"

namespace tandem::planner {

Result<mir::Rel> decorrelate(const hir::Rel& rel);

}  // namespace tandem::planner
