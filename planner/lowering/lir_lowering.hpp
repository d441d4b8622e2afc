#pragma once
// Lowering MIR -> LIR (compute/plan): one DataflowDescription per plan.
//  * Get reads the collection's first index when one exists (an index
//    import: the arrangement is already in memory), else its source.
//  * Let values become objects_to_build (computed once, read by Get kObject).
//  * Project/Map/Filter chains fuse into one MapFilterProject (STYLE #8).
//  * An n-ary Join becomes a left-deep chain of binary joins in the order
//    join planning chose, keyed by the equivalences that connect each input
//    to the inputs before it; the other equivalences become filters.
// Threading: pure function.

#include <functional>

#include "compute/plan/dataflow_description.hpp"
#include "planner/catalog_reader.hpp"
#include "planner/mir/mir.hpp"

namespace tandem::planner {

struct LirBuilder {
  const CatalogReader& catalog;
  std::function<compute::GlobalId()> allocate_id;  // transient ids
};

// Adds `rel` to `desc` as objects to build (imports included); returns the
// id of the object holding its result.
Result<compute::GlobalId> lower_to_lir(const mir::Rel& rel, const LirBuilder& builder,
                                       compute::DataflowDescription* desc);

}  // namespace tandem::planner
