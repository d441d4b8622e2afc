#pragma once
// ReadPlan: how a SELECT is answered, as plain data.
//  * FastPathConstant: the rows are known at plan time.
//  * PeekExisting: the query is a MapFilterProject over a collection with an
//    index: peek the index (optionally only `literal_keys`, packed in the
//    index's key order) through `mfp`. No dataflow is built.
//  * PeekDataflow: build `desc` (a transient dataflow exporting `index_id`
//    keyed on the result's default key, until = as_of + 1), peek `index_id`
//    at as_of with an identity MFP, then drop the dataflow.
// The Finishing (ORDER BY, LIMIT, OFFSET, the projection dropping hidden
// ORDER BY columns) runs outside compute on the peeked rows.
// Threading: plain values; apply_finishing is a pure function.
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "compute/plan/dataflow_description.hpp"
#include "planner/query_plan.hpp"

namespace tandem::planner {

struct Finishing {
  std::vector<SortKey> order_by;  // over the peeked row
  std::optional<int64_t> limit;
  int64_t offset = 0;
  size_t visible = 0;             // output = the first `visible` columns

  // Expands multiplicities (a negative one is an internal error, 'XX000'),
  // sorts, applies OFFSET/LIMIT and projects.
  Result<std::vector<Row>> apply(const std::vector<std::pair<Row, Diff>>& rows) const;
};

struct FastPathConstant {
  std::vector<std::pair<Row, Diff>> rows;
};
struct PeekExisting {
  compute::GlobalId collection = 0;
  compute::GlobalId index_id = 0;
  std::optional<std::vector<Row>> literal_keys;
  compute::MapFilterProject mfp;
};
struct PeekDataflow {
  compute::DataflowDescription desc;
  compute::GlobalId index_id = 0;
  size_t arity = 0;
};

struct ReadPlan {
  std::variant<FastPathConstant, PeekExisting, PeekDataflow> plan;
  Finishing finishing;
  std::vector<OutputColumn> columns;
  // mz_now() was replaced by PlanContext::mz_now: a plan for another
  // timestamp must be planned again.
  bool uses_mz_now = false;
};

}  // namespace tandem::planner
