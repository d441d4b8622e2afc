#pragma once
// The plan trees of EXPLAIN (planner/explain/explain_tree.hpp), one function
// per stage, in Materialize's vocabulary:
//   RAW           the bound HIR: Get, Constant, Project, Map, Filter,
//                 InnerJoin/LeftOuterJoin/RightOuterJoin/FullOuterJoin/
//                 CrossJoin, Reduce, Distinct, Negate, Threshold, Union,
//                 TopK, CallTable, Apply (with its Select/Exists subqueries).
//   DECORRELATED  the MIR before optimization: Get, Constant, Project, Map,
//   OPTIMIZED     Filter, Join/CrossJoin, Reduce, Distinct, Negate,
//                 Threshold, Union, TopK, FlatMap, With/cte/Return; the
//                 optimized plan names each Get by how the dataflow reads
//                 it: ReadIndex (an imported index) or ReadStorage.
//   PHYSICAL      the LIR of a dataflow, arrow-marked: →Read, →Indexed,
//                 →Constant, →Map/Filter/Project, →Arrange,
//                 →Differential Join, →Reduce, →Distinct, →Threshold,
//                 →TopK, →Union, →Negate, →Table Function; objects built
//                 before the exported one print as With/cte/Return.
// Column references print as #n over the operator's input row.
// Threading: pure functions.
#include <map>
#include <string>

#include "compute/plan/dataflow_description.hpp"
#include "planner/explain/explain_tree.hpp"
#include "planner/hir/hir.hpp"
#include "planner/mir/mir.hpp"

namespace tandem::planner {

// How a dataflow reads its collections, for naming them in plans.
struct ReadNames {
  std::map<compute::GlobalId, std::string> collections;  // collection id -> name
  struct Index {
    std::string name;
    compute::GlobalId on = 0;
  };
  std::map<compute::GlobalId, Index> indexes;             // imported index id -> index
  std::map<compute::GlobalId, compute::GlobalId> read_through;  // collection id -> imported index id
};

ExplainNode explain_hir(const hir::Rel& rel);
// `reads`: nullptr prints Gets by name (the decorrelated plan); else as
// ReadIndex/ReadStorage.
ExplainNode explain_mir(const mir::Rel& rel, const ReadNames* reads = nullptr);
// The object `object` of `desc` (with the objects it reads before it).
ExplainNode explain_lir(const compute::DataflowDescription& desc, compute::GlobalId object, const ReadNames& reads);

// Shared by the fast path's text: "Filter: ...", "Map: ...", "Project: ..."
// lines of a MapFilterProject (none for the identity).
std::vector<std::string> mfp_details(const compute::MapFilterProject& mfp);
// "(5, 'x')": a row of literal values of `types`.
std::string explain_row(const Row& row, const std::vector<ColumnType>& types);

}  // namespace tandem::planner
