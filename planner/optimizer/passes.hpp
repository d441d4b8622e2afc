#pragma once
// The MIR rewrite passes planner/optimizer/optimizer.cpp runs, one .cpp per
// pass, and the helpers they share. Every pass maps a plan to one with the
// same result multiset for every input (the driver may skip any of them, so
// no pass may rely on another having run).
// Threading: pure functions.
#include <functional>
#include <optional>
#include <vector>

#include "common/status.hpp"
#include "planner/mir/mir.hpp"

namespace tandem::planner::passes {

// optimizer.cpp: see optimizer.hpp for what each does.
Status fold_constants(mir::Rel& root);
Status fuse(mir::Rel& root);
Status join_equivalences(mir::Rel& root);
// join_fusion.cpp
Status join_fusion(mir::Rel& root);
// predicate_pushdown.cpp
Status predicate_pushdown(mir::Rel& root);
// join_planning.cpp
Status join_planning(mir::Rel& root);
// projection_pushdown.cpp
Status projection_pushdown(mir::Rel& root);

// Applies `f` bottom-up to every node.
Status bottom_up(mir::Rel& rel, const std::function<Status(mir::Rel&)>& f);

// The columns `e` references, sorted, without duplicates.
std::vector<size_t> support(const ScalarExpr& e);

// The one join input (by `offsets`, the first column of each input) all of
// e's columns lie in; nullopt when e references no column or several inputs.
std::optional<size_t> input_of(const ScalarExpr& e, const std::vector<size_t>& offsets);

// Each join input's first column in the concatenated row.
std::vector<size_t> input_offsets(const mir::Join& join);

// Replaces every column reference c by `f(c)` when that returns a value.
void substitute(ScalarExpr& e, const std::function<std::optional<ScalarExpr>(size_t)>& f);

}  // namespace tandem::planner::passes
