// A from-scratch evaluator of LIR over multisets, for tests only: the
// "recompute" side of every randomized incremental test (STYLE #14). It
// shares row-level functions with the engine (MfpEvaluator, GroupLogic) but
// none of the incremental machinery: no times, no arrangements, no
// exchange. Implemented in reference_eval_test.cpp (linked into
// compute_tests only).
#pragma once

#include <map>
#include <string>

#include "compute/plan/lir.hpp"

namespace tandem::compute::testing {

// Row bytes -> multiplicity (no zero entries).
using Multiset = std::map<std::string, Diff>;

struct RefCollection {
  Multiset oks;
  Multiset errs;  // error rows (compute/dataflow/error_row.hpp)
};

struct RefInputs {
  std::map<GlobalId, Multiset> sources;
  std::map<GlobalId, RefCollection> objects;  // Get kObject and kIndex
};

RefCollection reference_eval(const PlanNode& plan, const RefInputs& inputs);

}  // namespace tandem::compute::testing
