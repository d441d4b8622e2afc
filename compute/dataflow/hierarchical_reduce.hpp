// Hierarchical min/max Reduce: a GroupOp per level instead of one, so that
// a change to a large group recomputes one bucket of it and then the
// bucket winners level by level, not every row of the group; and no
// arrangement key (which a spill block never splits) holds more than about
// 1/4096 of a group's rows (Materialize's hierarchical reduction, with the
// levels of kHierarchicalBuckets).
//
// Rendering (render.cpp): KeyBy(group key) → BucketKeyOp (key ++ int4 bucket
// = hash(input row) mod 4096) → exchange → arrange → GroupOp(bucket logic)
// → RebucketKeyOp (key ++ bucket mod 64) → exchange → arrange →
// GroupOp(rebucket logic) → KeyBy(the first key-arity columns) → exchange →
// arrange → GroupOp(merge logic).
//
// Exactness: the output is byte-identical to make_reduce_logic's. The bucket
// logic does not turn failures into error rows; it passes them to the merge
// level as data, so the merge can replay ReduceLogic's order of discovery:
//   bucket row = key ++ bucket ++ [negative: bool] ++ per aggregate
//                [kind: int4 (0 value, 1 error, 2 no non-NULL value),
//                 value (or NULL), the input row that produced it (bytes),
//                 the error row (bytes, or NULL)]
// where "value" is the bucket's min/max with ties broken by the least input
// row and "error" the failure of the least failing input row (a middle
// level picks the same over its finer buckets' rows). The merge
// reports negative multiplicity if any bucket saw it; else, per aggregate in
// order, the error of the least failing row across buckets, else the best
// value (ties by least input row), else NULL.
// Eligible: every aggregate is non-DISTINCT min or max (at least one).
// Threading: as GroupLogic / Operator (per worker).
#pragma once

#include <memory>
#include <vector>

#include "common/eval_context.hpp"
#include "compute/dataflow/group_logic.hpp"
#include "compute/dataflow/operator.hpp"

namespace tandem::compute {

// Bucket counts per level, finest first; each divides the one before, so a
// level's bucket is its finer bucket modulo its count.
inline constexpr std::int32_t kHierarchicalBuckets[] = {4096, 64};

bool is_hierarchical(const std::vector<AggregateExpr>& aggregates);

// Whether render chooses the hierarchical path for eligible Reduces (default
// true; TANDEM_HIERARCHICAL_REDUCE=0 in the environment turns it off).
bool hierarchical_reduce_enabled();
void set_hierarchical_reduce_enabled(bool enabled);

// Level 1: key = group key ++ bucket, val = input row.
std::unique_ptr<GroupLogic> make_minmax_bucket_logic(std::vector<AggregateExpr> aggregates);
// Middle levels: key = group key ++ coarser bucket, val = a bucket row of
// the level below; output: a bucket row of the coarser bucket.
std::unique_ptr<GroupLogic> make_minmax_rebucket_logic(std::vector<AggregateExpr> aggregates, std::size_t key_arity);
// Last level: key = group key, val = a bucket row as above.
std::unique_ptr<GroupLogic> make_minmax_merge_logic(std::vector<AggregateExpr> aggregates, std::size_t key_arity);

// Appends the finest bucket of each update's val to its key. Errors pass through.
class BucketKeyOp final : public Operator {
 public:
  BucketKeyOp() : Operator("BucketKey", 1) {}
  void step() override;
};

// Keys a level's bucket rows (unkeyed) by group key ++ (bucket % buckets).
class RebucketKeyOp final : public Operator {
 public:
  RebucketKeyOp(std::size_t key_arity, std::int32_t buckets)
      : Operator("RebucketKey", 1), key_arity_(key_arity), buckets_(buckets) {}
  void step() override;

 private:
  std::size_t key_arity_;
  std::int32_t buckets_;
};

}  // namespace tandem::compute
