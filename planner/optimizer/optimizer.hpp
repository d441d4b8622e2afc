#pragma once
// The MIR optimizer: ONE driver that runs named passes in order, times each
// and can disable any (STYLE #15: a wrong answer is bisected to a pass by
// disabling passes one at a time; every pass preserves results).
// Passes (each a MIR -> MIR rewrite):
//   fold_constants      Map/Filter/Project/Negate/Union over constant input
//                       evaluated at plan time; joins with the unit relation
//                       dropped.
//   fuse                Project∘Project, Filter∘Filter, Map∘Map merged.
//   join_fusion         joins nested in join inputs (through Filters and
//                       Projects: comma joins, JOIN chains) flattened into
//                       ONE n-ary Join.
//   predicate_pushdown  each Filter predicate moved as far down as its
//                       columns allow (into join inputs, through Map,
//                       Project, Union, Negate, Distinct, Threshold, Reduce
//                       keys, TopK groups, FlatMap, Let bodies); equalities
//                       across join inputs become equivalences.
//   join_equivalences   `a = b` filters over a join, with a and b over
//                       different inputs, become join equivalences (keys);
//                       only finds work when predicate_pushdown is disabled.
//   join_planning       the order of each n-ary Join's inputs: greedy from
//                       the smallest estimated input, connected inputs
//                       before cross products.
//   projection_pushdown a Join's inputs narrowed to the columns used above
//                       it (Project over Maps/Filters over the Join); bare
//                       Gets stay whole, for arrangement reuse.
// Pass order: fuse, fold_constants, join_fusion, predicate_pushdown,
// join_equivalences, fuse_again, fold_constants_again, join_planning,
// projection_pushdown.
// Each pass lives in its own file (declared in passes.hpp).
// Threading: pure functions.
#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "planner/mir/mir.hpp"

namespace tandem::planner {

struct OptimizerOptions {
  std::set<std::string> disabled;  // pass names
};

struct PassReport {
  std::string name;
  bool ran = false;
  std::chrono::microseconds time{0};
};

const std::vector<std::string>& optimizer_pass_names();

Result<mir::Rel> optimize(mir::Rel rel, const OptimizerOptions& options, std::vector<PassReport>* report = nullptr);

}  // namespace tandem::planner
